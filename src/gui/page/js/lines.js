// The engines' lines on the page: who thinks, the score in words, depth and speed, the
// principal variation (named by the server's rules; hover a move to see the board there)
// and the same line as arrows on the board.
import { ask, conn } from './net.js';
import { S, board, sideName, at } from './state.js';
import { scoreWords, proven, barShare, fmtNodes } from './info.js';
import { UI } from './ui.js';

const $ = (sel) => document.querySelector(sel);
let previewGen = 0;  // counts previews asked for, so a late answer to an old one is dropped
let redrawTimer = null;
const names = new Map(); // "ply|moves" -> the moves' names, for lines already asked about

const isPly = (name) => (conn.hello.engines.find((e) => e.name === name) || {}).proto === 'ply';

export const Lines = {
  thinkingLine(seat, info, stm) {
    const box = $(`#think${seat}`);
    box.hidden = false;
    const p = S.players[seat];
    box.querySelector('.who').textContent = `${p.engine} (${sideName(seat)})`;
    UI.fillInfo(box, info, stm, isPly(p.engine), S.moves.length);
  },

  analysis(info, stm, name) {
    const box = $('#analysis');
    if (!info) { box.querySelector('.who').textContent = S.analyse ? 'starting…' : ''; box.querySelector('.line').textContent = ''; return; }
    box.querySelector('.who').textContent = `${name}, infinite`;
    UI.fillInfo(box, info, stm, isPly(name), S.view);
  },

  // `from`: the ply of the searched position, for the line's names and previews.
  fillInfo(box, info, stm, ply, from) {
    if (info.score) {
      box.querySelector('.score').textContent = scoreWords(info, sideName(stm), ply, board()) + (proven(info, ply) ? ' (proven)' : '');
      UI.bar(barShare(info, stm));
    }
    const line = [];
    if (info.depth !== undefined) line.push(`depth ${info.depth}`);
    if (info.nodes !== undefined) line.push(`${fmtNodes(info.nodes)} nodes`);
    if (info.nps !== undefined) line.push(`${fmtNodes(info.nps)} nodes/s`);
    if (info.tbhits) line.push('table');
    if (line.length) box.querySelector('.line').textContent = line.join(' · ');
    if (info.pv) UI.pv(box.querySelector('.pv'), info.pv.slice(0, 24), from);
  },

  pv(host, pv, from) {
    const key = `${from}|${pv.join(' ')}`;
    if (host.dataset.line === key) return;
    // The hovered move may be replaced without a mouseleave: its preview ends with it.
    UI.endPreview();
    host.dataset.line = key;
    host.textContent = '';
    pv.forEach((mv, k) => {
      const s = document.createElement('button');
      s.type = 'button';
      s.className = 'pvmove';
      s.textContent = mv;
      s.dataset.mv = mv;
      s.title = 'the board after this move of the line';
      const show = () => UI.previewLine(from, pv.slice(0, k + 1));
      s.addEventListener('mouseenter', show);
      s.addEventListener('focus', show);
      s.addEventListener('mouseleave', UI.endPreview);
      s.addEventListener('blur', UI.endPreview);
      host.appendChild(s);
    });
    UI.nameLine(host, key, from, pv);
  },

  // The line's moves as people write them (SAN in chess), once the server has named them.
  async nameLine(host, key, from, pv) {
    if (!board().pgn) return;
    let got = names.get(key);
    if (!got) {
      try {
        got = (await ask({ q: 'line', at: at(from), line: pv })).names;
      } catch (e) {
        return;
      }
      if (names.size > 200) names.clear();
      names.set(key, got);
    }
    if (host.dataset.line !== key) return;
    host.querySelectorAll('.pvmove').forEach((b, i) => { if (got[i]) b.textContent = got[i]; });
  },

  // Shows the position after `line` from ply `base` (named by the server).
  async previewLine(base, line) {
    const my = ++previewGen;
    let a;
    try {
      a = await ask({ q: 'line', at: at(base), line });
    } catch (e) {
      return;
    }
    // A preview ended (or replaced) while the server answered is not shown.
    if (my !== previewGen || !a.fens.length) return;
    const fen = a.fens[a.fens.length - 1];
    S.preview = { pos: board().parse(fen), fen, last: line[a.fens.length - 1] };
    UI.board();
  },

  endPreview() {
    previewGen++;
    if (!S.preview) return;
    S.preview = null;
    UI.render();
  },

  // An engine's latest line from ply `ply`, for the board's arrows; the board is redrawn at
  // most five times a second, and only when the line's first moves change.
  showLine(ply, pv) {
    const moves = pv.slice(0, 3);
    if (S.pv && S.pv.ply === ply && S.pv.moves.join(' ') === moves.join(' ')) return;
    S.pv = { ply, moves };
    if (redrawTimer) return;
    redrawTimer = setTimeout(() => { redrawTimer = null; UI.board(); }, 200);
  },
};
