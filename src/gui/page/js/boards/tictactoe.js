// Tic-tac-toe's board: cells a1..c3 (protocol.md, "tictactoe").
import { el, text, clickable, newSvg, badge, parseGrid, onWin, FILES } from './svg.js';

const cellName = (r, f) => FILES[f] + (3 - r);

export default {
  title: 'Tic-tac-toe',
  sides: ['X', 'O'],
  colours: ['#d33', '#1f4e8c'],
  solved: true,
  parse: (fen) => parseGrid(fen, 3, 3),
  draw(host, v) {
    const S = 100, svg = newSvg(host, 3 * S + 20, 3 * S + 20, 'tic-tac-toe board');
    const g = el('g', { transform: 'translate(10,10)' }, svg);
    el('rect', { x: 0, y: 0, width: 3 * S, height: 3 * S, class: 'ttt-bg', rx: 8 }, g);
    for (let i = 1; i < 3; i++) {
      el('line', { x1: i * S, y1: 6, x2: i * S, y2: 3 * S - 6, class: 'ttt-grid' }, g);
      el('line', { x1: 6, y1: i * S, x2: 3 * S - 6, y2: i * S, class: 'ttt-grid' }, g);
    }
    const principal = v.pv[0];
    for (let r = 0; r < 3; r++) {
      for (let f = 0; f < 3; f++) {
        const [dr, df] = v.flipped ? [2 - r, 2 - f] : [r, f];
        const x = df * S, y = dr * S, cx = x + S / 2, cy = y + S / 2;
        const name = cellName(r, f), c = v.pos.cells[r][f];
        const cell = el('g', {}, g);
        const rect = el('rect', { x: x + 3, y: y + 3, width: S - 6, height: S - 6, class: 'cell', rx: 6 }, cell);
        if (name === v.last) rect.classList.add('last');
        if (onWin(v, 3, r, f)) rect.classList.add('win');
        if (c === 'x') {
          el('path', { d: `M${cx - 28},${cy - 28}L${cx + 28},${cy + 28}M${cx + 28},${cy - 28}L${cx - 28},${cy + 28}`, class: 'mark-x' }, cell);
        } else if (c === 'o') {
          el('circle', { cx, cy, r: 30, class: 'mark-o' }, cell);
        } else if (v.hint === name) {
          text(cell, cx, cy + 14, v.pos.side === 'x' ? '×' : '○', 'ghost');
        }
        if (principal === name && c === '.') el('circle', { cx, cy, r: 40, class: 'principal' }, cell);
        if (c === '.') badge(cell, cx, y + S - 18, v.values.get(name));
        const label = `${name}, ${c === 'x' ? 'X' : c === 'o' ? 'O' : 'empty'}${name === v.last ? ', last move' : ''}`;
        clickable(cell, name, label, () => v.play(name));
      }
    }
    for (let i = 0; i < 3; i++) {
      const f = v.flipped ? 2 - i : i, r = v.flipped ? i + 1 : 3 - i;
      text(svg, 10 + i * S + S / 2, 3 * S + 19, FILES[f], 'coord');
      text(svg, 5, 10 + i * S + S / 2, String(r), 'coord');
    }
  },
  moveWord: (m) => m,
};
