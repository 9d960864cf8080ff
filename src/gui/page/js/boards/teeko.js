// Teeko's board: drops `c3` while markers remain, then steps `c3d4` (protocol.md, "teeko").
// A step is two clicks: the marker, then the empty cell next to it.
import { el, text, clickable, newSvg, badge, parseGrid, onWin, arrow, FILES } from './svg.js';

const cellName = (r, f) => FILES[f] + (5 - r);
const dropPhase = (pos) => pos.cells.flat().filter((c) => c !== '.').length < 8;

// The best value among a marker's steps, for its badge when nothing is selected.
function bestFrom(v, from) {
  const rank = (x) => (x.cls === 'win' ? 3e6 - x.n : x.cls === 'draw' ? 2e6 : x.cls === 'loss' ? 1e6 + x.n : 0);
  let best = null;
  for (const [m, x] of v.values) {
    if (m.length === 4 && m.startsWith(from) && (!best || rank(x) > rank(best))) best = x;
  }
  return best;
}

// What a click on a cell does: drop there, select or unselect a marker, step the selected
// marker there; anything else goes to the rules, which say why not.
function cellAction(v, name, c) {
  const pos = v.pos, sel = v.ui.selected || null;
  if (dropPhase(pos)) return { action: () => v.play(name), value: c === '.' ? v.values.get(name) : null };
  if (c === pos.side) {
    return {
      action: () => { v.ui.selected = sel === name ? null : name; v.redraw(); },
      value: sel ? null : bestFrom(v, name),
      state: sel === name ? ', selected' : ', select to move',
    };
  }
  if (c === '.' && sel) return { action: () => v.play(sel + name), value: v.values.get(sel + name), dest: v.legal.has(sel + name) };
  return { action: () => v.play(sel ? sel + name : name) };
}

export default {
  title: 'Teeko',
  sides: ['Black', 'Red'],
  colours: ['#222', '#c62828'],
  solved: true,
  // The table is built in the background at first use: passes wait a moment between them.
  valueWait: 1500,
  maxPlies: 300,
  parse: (fen) => parseGrid(fen, 5, 5),
  draw(host, v) {
    const pos = v.pos, S = 76, pad = 26, svg = newSvg(host, 5 * S + 2 * pad, 5 * S + 2 * pad, 'Teeko board');
    const g = el('g', { transform: `translate(${pad},${pad})` }, svg);
    el('rect', { x: -8, y: -8, width: 5 * S + 16, height: 5 * S + 16, rx: 14, class: 'teeko-bg' }, g);
    for (let i = 0; i < 5; i++) {
      el('line', { x1: S / 2, y1: i * S + S / 2, x2: 5 * S - S / 2, y2: i * S + S / 2, class: 'teeko-grid' }, g);
      el('line', { x1: i * S + S / 2, y1: S / 2, x2: i * S + S / 2, y2: 5 * S - S / 2, class: 'teeko-grid' }, g);
    }
    const sel = v.ui.selected || null;
    const hintFrom = v.hint && v.hint.length === 4 ? v.hint.slice(0, 2) : null;
    const hintTo = v.hint ? v.hint.slice(-2) : null;
    const lastTo = v.last ? v.last.slice(-2) : null, lastFrom = v.last && v.last.length === 4 ? v.last.slice(0, 2) : null;
    const at = {};
    for (let r = 0; r < 5; r++) {
      for (let f = 0; f < 5; f++) {
        const [dr, df] = v.flipped ? [4 - r, 4 - f] : [r, f];
        const cx = df * S + S / 2, cy = dr * S + S / 2, name = cellName(r, f), c = pos.cells[r][f];
        at[name] = [cx, cy];
        const cell = el('g', {}, g);
        el('rect', { x: df * S, y: dr * S, width: S, height: S, class: 'teeko-cell' }, cell);
        const spot = el('circle', { cx, cy, r: 9, class: 'teeko-spot' }, cell);
        if (name === lastFrom) spot.classList.add('last');
        if (c === 'b' || c === 'r') {
          const m = el('circle', { cx, cy, r: S * 0.36, class: `marker-${c}` }, cell);
          if (onWin(v, 5, r, f)) m.classList.add('win');
          if (sel === name) m.classList.add('selected');
          if (hintFrom === name) m.classList.add('hinted');
          if (name === lastTo) el('circle', { cx, cy, r: S * 0.44, class: 'last-ring' }, cell);
        } else if (hintTo === name) {
          el('circle', { cx, cy, r: S * 0.36, class: `ghost-${pos.side}` }, cell);
        }
        const what = cellAction(v, name, c);
        if (what.dest) el('circle', { cx, cy, r: 14, class: 'dest' }, cell);
        badge(cell, cx, cy + S * 0.36, what.value);
        const who = c === 'b' ? 'black marker' : c === 'r' ? 'red marker' : 'empty';
        clickable(cell, name, `${name}, ${who}${what.state || ''}${name === lastTo ? ', last move' : ''}`, what.action);
      }
    }
    const p = v.pv[0];
    if (p && p.length === 4 && at[p.slice(0, 2)] && at[p.slice(2)]) {
      const [a, b] = [at[p.slice(0, 2)], at[p.slice(2)]];
      arrow(el('g', { class: 'arrows' }, g), a[0], a[1], b[0], b[1], 12, 0);
    } else if (p && at[p]) {
      el('circle', { cx: at[p][0], cy: at[p][1], r: S * 0.42, class: 'principal' }, g);
    }
    for (let i = 0; i < 5; i++) {
      const f = v.flipped ? 4 - i : i, r = v.flipped ? i + 1 : 5 - i;
      text(svg, pad + i * S + S / 2, 5 * S + 2 * pad - 4, FILES[f], 'coord');
      text(svg, 9, pad + i * S + S / 2 + 5, String(r), 'coord');
    }
  },
  moveWord: (m) => (m.length === 4 ? `${m.slice(0, 2)}–${m.slice(2)}` : `drop ${m}`),
};
