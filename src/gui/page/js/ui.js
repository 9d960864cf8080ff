// Drawing the page from the state: status, board, legal moves, move list, players, clocks.
// Engines' lines (scores, principal variations, previews) are in lines.js.
import { S, board, sideIndex, sideName } from './state.js';
import { humanMove, step, endByRules } from './play.js';
import * as clock from './clock.js';
import { seats } from './state.js';
import { fmtClock, shortScore } from './info.js';
import { Lines } from './lines.js';

const $ = (sel) => document.querySelector(sel);

export const UI = Object.assign({
  connection(ok, why, refused) {
    const c = $('#conn');
    c.textContent = ok ? 'connected' : `disconnected${why ? `: ${why}` : ''}`;
    c.className = ok ? 'ok' : 'bad';
    if (ok) return;
    document.body.classList.add('offline');
    for (const e of document.querySelectorAll('main button, main input, main select, main textarea')) e.disabled = true;
    UI.alert(refused
      ? `${why[0].toUpperCase()}${why.slice(1)}. Close another ply page or tab, then reload this one.`
      : `No connection to the ply gui server (${why}). If it stopped, start it again and reload this page.`);
  },

  alert(msg, kind) {
    const a = $('#alert');
    a.textContent = msg;
    a.className = msg ? (kind || 'error') : '';
  },

  render() {
    UI.status();
    UI.board();
    UI.moves();
    UI.legal();
    UI.players();
    UI.clocks();
    UI.controls();
    $('#fen').value = S.snap ? S.snap.fen : '';
  },

  status() {
    const st = $('#status');
    const snap = S.snap;
    // Between games (no position yet) the last game's `over` must not linger.
    st.className = '';
    if (!snap) { st.textContent = ''; return; }
    const atEnd = S.view === S.moves.length;
    if (atEnd && S.over) {
      st.textContent = `${S.over.result === '1/2-1/2' ? 'Draw' : 'Game over'} — ${S.over.reason}`;
      st.className = 'over';
    } else if (!atEnd && snap.result !== 'none') {
      st.textContent = `Move ${S.view} of ${S.moves.length} (${endByRules(snap).reason})`;
    } else {
      const i = sideIndex(snap), p = S.players[i];
      const who = p && p.kind === 'engine' ? ` (${p.engine}${S.paused ? ', paused' : ''})` : '';
      const where = atEnd ? '' : ` — viewing move ${S.view} of ${S.moves.length}`;
      st.textContent = `${sideName(i)} to move${who}${where}`;
    }
  },

  view() {
    const snap = S.snap, pre = S.preview;
    const showPv = !pre && S.pv && S.pv.ply === S.view && (S.analyse || S.showValues);
    return {
      pos: pre ? pre.pos : snap.pos,
      fen: pre ? pre.fen : snap.fen,
      start: board().parse(snap.start_fen),
      params: S.params,
      legal: pre ? new Map() : snap.legalMap,
      values: pre || !S.showValues ? new Map() : S.values,
      flipped: S.flipped,
      last: pre ? pre.last : (S.view > 0 ? S.moves[S.view - 1].mv : null),
      hint: pre ? null : S.hint,
      pv: showPv ? S.pv.moves : [],
      win: pre ? [] : snap.win || [],
      check: pre ? null : snap.check,
      preview: !!pre,
      ui: S.ui,
      play: (mv) => { if (!S.preview) humanMove(mv); },
      redraw: () => UI.board(),
    };
  },

  board() {
    if (!S.snap) return;
    const host = $('#board');
    host.classList.toggle('preview', !!S.preview);
    // Redrawing replaces the cells: the keyboard focus goes back to the cell of the same key.
    const active = document.activeElement;
    const key = active && host.contains(active) ? active.dataset.key : null;
    board().draw(host, UI.view());
    if (key) {
      const again = [...host.querySelectorAll('[data-key]')].find((e) => e.dataset.key === key);
      if (again) again.focus();
    }
  },

  values() {
    UI.board();
    UI.legal();
    const snap = S.snap;
    const pending = S.showValues && board().solved && snap && snap.result === 'none' && S.values.size < snap.legal.length;
    $('#values-state').textContent = !S.showValues || !snap ? '' : pending ? `solving ${S.values.size}/${snap.legal.length}…` : '';
  },

  legal() {
    const box = $('#legal');
    const active = document.activeElement;
    const had = active && box.contains(active) ? active.dataset.mv : null;
    box.textContent = '';
    const snap = S.snap;
    if (!snap || S.preview) return;
    const list = snap.legal.slice(0, 200);
    for (const l of list) box.appendChild(UI.legalButton(l));
    if (snap.legal_count > list.length) box.append(` … and ${snap.legal_count - list.length} more (type them)`);
    if (had !== null) {
      const again = [...box.querySelectorAll('button')].find((b) => b.dataset.mv === had) || box.querySelector('button');
      if (again) again.focus();
    }
  },

  legalButton(l) {
    const b = document.createElement('button');
    b.type = 'button';
    b.className = 'mv';
    b.dataset.mv = l.mv;
    b.textContent = l.name || l.mv;
    b.title = l.name ? l.mv : board().moveWord(l.mv);
    const v = S.showValues ? S.values.get(l.mv) : null;
    if (v) {
      const s = document.createElement('span');
      s.className = `val ${v.cls}`;
      s.textContent = v.label;
      s.title = v.title;
      b.appendChild(s);
      b.title += ` — ${v.title}`;
    }
    // A double-click's second click (its click count is 2) is not a second move.
    b.addEventListener('click', (e) => { if (e.detail < 2) humanMove(l.mv); });
    b.addEventListener('mouseenter', () => { S.hint = l.mv; UI.board(); });
    b.addEventListener('mouseleave', () => { S.hint = null; UI.board(); });
    return b;
  },

  moves() {
    const ol = $('#movelist');
    ol.textContent = '';
    ol.appendChild(UI.moveItem(S.base ? 'start (set position)' : 'start', 0, null));
    const chessLike = !!board().pgn;
    if (chessLike && S.snap && S.snap.start_side === 'p2') ol.appendChild(document.createElement('li'));
    ol.classList.toggle('pairs', chessLike);
    S.moves.forEach((m, i) => ol.appendChild(UI.moveItem((S.labels && S.labels[i]) || `${i + 1}. ${m.mv}`, i + 1, m)));
    if (S.over) {
      const li = document.createElement('li');
      li.className = 'result';
      li.textContent = `${S.over.result} {${S.over.reason}}`;
      ol.appendChild(li);
    }
    // Scroll the list, not the page: to the current move, or to the result at the end.
    const cur = S.over && S.view === S.moves.length ? ol.querySelector('.result') : ol.querySelector('.current');
    if (cur) {
      const top = cur.offsetTop - ol.offsetTop;
      if (top < ol.scrollTop || top + cur.offsetHeight > ol.scrollTop + ol.clientHeight) ol.scrollTop = top + cur.offsetHeight - ol.clientHeight / 2;
      if (cur.classList.contains('result')) ol.scrollTop = ol.scrollHeight;
    }
  },

  moveItem(label, ply, m) {
    const li = document.createElement('li');
    const b = document.createElement('button');
    b.type = 'button';
    b.className = S.view === ply ? 'current' : '';
    b.textContent = label;
    if (m) {
      b.dataset.mv = m.mv;
      b.dataset.by = m.by;
      const meta = [];
      if (m.score) meta.push(shortScore(m.score));
      if (m.depth) meta.push(`d${m.depth}`);
      if (m.ms !== undefined && m.by === 'engine') meta.push(`${(m.ms / 1000).toFixed(1)}s`);
      if (m.clock_ms !== undefined) meta.push(`clk ${fmtClock(m.clock_ms)}`);
      if (meta.length) {
        const s = document.createElement('small');
        s.textContent = ` ${meta.join(' ')}`;
        b.appendChild(s);
      }
    }
    b.addEventListener('click', () => step(ply));
    li.appendChild(b);
    return li;
  },

  players() {
    const order = S.flipped ? [0, 1] : [1, 0];
    order.forEach((i, k) => {
      const bar = $(k === 0 ? '#bar-top' : '#bar-bottom');
      const p = S.players[i];
      const who = !p || p.kind === 'human' ? 'person' : `${p.engine}, ${p.limit.type} ${p.limit.value}`;
      bar.querySelector('.side').textContent = sideName(i);
      bar.querySelector('.side').className = `side side${i}`;
      bar.querySelector('.who').textContent = who;
      bar.classList.toggle('tomove', !!S.snap && sideIndex(S.snap) === i && !S.over && S.view === S.moves.length);
      bar.dataset.seat = i;
    });
  },

  clocks() {
    for (const bar of [$('#bar-top'), $('#bar-bottom')]) {
      const i = Number(bar.dataset.seat), c = S.clocks[i], el = bar.querySelector('.clock');
      if (!c) { el.textContent = ''; el.className = 'clock'; continue; }
      const left = c.left - clock.elapsed(i);
      el.textContent = fmtClock(Math.max(0, left));
      el.className = `clock${clock.runningSeat() === i ? ' running' : ''}${left < 10000 ? ' low' : ''}`;
    }
  },

  controls() {
    $('#movenow').disabled = !seats.some((e) => e.busy());
    $('#pause').textContent = S.paused ? 'Resume engines' : 'Pause engines';
    $('#first').disabled = $('#prev').disabled = S.view === 0;
    $('#next').disabled = $('#last').disabled = S.view === S.moves.length;
    $('#takeback').disabled = S.moves.length === 0;
  },

  bar(share) {
    $('#evalbar').classList.toggle('flipped', S.flipped);
    $('#evalbar .p1').style.height = `${Math.round(share * 100)}%`;
    $('#evalbar').title = `${sideName(0)} ${Math.round(share * 100)}%`;
  },
}, Lines);
