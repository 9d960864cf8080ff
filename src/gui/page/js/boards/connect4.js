// Connect Four's board: a move is a column number 1..width (protocol.md, "connect4").
import { el, text, clickable, newSvg, badge, parseGrid, onWin } from './svg.js';

// The row (from the top) a disc dropped in column f lands on, or -1 when it is full.
function landing(pos, f) {
  for (let r = pos.h - 1; r >= 0; r--) if (pos.cells[r][f] === '.') return r;
  return -1;
}

export default {
  title: 'Connect Four',
  sides: ['Red', 'Yellow'],
  solved: true,
  // Node budgets of the move values' passes: the solver proves most positions in the first.
  valueBudgets: [2e6, 2e7, 2e8],
  // The board's size is the notation's: as many rows as it has, as wide as the first.
  parse(fen) {
    const rows = fen.trim().split(/\s+/)[0].split('/');
    const width = [...rows[0]].reduce((n, ch) => n + (/[0-9]/.test(ch) ? Number(ch) : 1), 0);
    const p = parseGrid(fen, width, rows.length);
    p.w = width;
    p.h = rows.length;
    return p;
  },
  draw(host, v) {
    const pos = v.pos, S = 60, top = 34, W = pos.w * S, H = pos.h * S;
    const svg = newSvg(host, W + 20, H + top + 30, 'Connect Four board');
    const g = el('g', { transform: `translate(10,${top})` }, svg);
    el('rect', { x: 0, y: 0, width: W, height: H, rx: 12, class: 'c4-board' }, g);
    const hintCol = v.hint ? Number(v.hint) - 1 : -1;
    for (let i = 0; i < pos.w; i++) {
      const f = v.flipped ? pos.w - 1 - i : i, m = String(f + 1);
      const col = el('g', { class: 'c4-col' }, g);
      el('rect', { x: i * S, y: -top, width: S, height: H + top, class: 'colhit' }, col);
      const land = landing(pos, f);
      let last = false;
      for (let r = 0; r < pos.h; r++) {
        const c = pos.cells[r][f], cx = i * S + S / 2, cy = r * S + S / 2;
        let cls = 'hole';
        if (c === 'x') cls = 'disc-x';
        else if (c === 'o') cls = 'disc-o';
        else if (r === land && hintCol === f) cls = `ghost-${pos.side}`;
        else if (r === land) cls = `hole land-${pos.side}`;
        const d = el('circle', { cx, cy, r: S * 0.4, class: cls }, col);
        if (onWin(v, pos.h, r, f)) d.classList.add('win');
        if (r === land + 1 && m === v.last && c !== '.') { d.classList.add('last'); last = true; }
        if (r === land && v.pv[0] === m) el('circle', { cx, cy, r: S * 0.46, class: 'principal' }, col);
      }
      badge(g, i * S + S / 2, -17, v.values.get(m));
      text(svg, 10 + i * S + S / 2, top + H + 22, m, 'coord');
      const state = land < 0 ? 'full' : `${pos.h - land - 1} discs`;
      clickable(col, m, `column ${m}, ${state}${last ? ', last move' : ''}`, () => v.play(m));
    }
  },
  moveWord: (m) => `column ${m}`,
};
