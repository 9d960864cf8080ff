// Checkers' board (English draughts; protocol.md, "checkers"). The rules are the server's:
// the legal moves come with each position, in PDN (`11-15`, `22x15x24`: every landing square
// of a capture). The board reads the FEN's pieces to draw them and turns clicks into those
// moves; it knows the squares' places on the board and nothing of how pieces move.
//
// The 32 dark squares are numbered as in PDN: 1-4 on the top row (Black's side, Black moves
// down towards 32), square 1 the second cell from the left; White's single corner, 29, is
// the bottom left cell. A move is a click on a piece, then on its target square; a capture of
// several jumps is its landing squares clicked in turn, or its last square alone once no other
// capture of that piece passes through the squares clicked.
import { el, text, clickable, newSvg, arrow } from './svg.js';

const S = 60;

// Square n (1..32): its row from the top and its column from the left, unflipped.
function place(n) {
  const row = Math.floor((n - 1) / 4), i = (n - 1) % 4;
  return [row, row % 2 === 0 ? 2 * i + 1 : 2 * i];
}

// The top left corner of square n, in units of the board group.
function xy(n, flipped) {
  const [row, col] = place(n);
  return flipped ? [(7 - col) * S, (7 - row) * S] : [col * S, row * S];
}

// PDN FEN (`B:W21,22,K3:B1,2,K30[:H12]`): cells[n] for n in 1..32 is '.', 'b' or 'w' for a
// man, 'B' or 'W' for a king; side is 'b' or 'w'. Ranges (`21-32`, `K1-3`) are read too.
function parseFen(fen) {
  const cells = new Array(33).fill('.');
  const fields = fen.replace(/\s+/g, '').replace(/\.$/, '').split(':');
  for (const f of fields.slice(1)) {
    const colour = f[0] === 'W' ? 'w' : f[0] === 'B' ? 'b' : null;
    if (!colour) continue;
    for (const tok of f.slice(1).split(',')) {
      const king = tok.startsWith('K'), m = /^(\d+)(?:-(\d+))?$/.exec(king ? tok.slice(1) : tok);
      if (!m) continue;
      for (let n = Number(m[1]); n <= Number(m[2] || m[1]) && n <= 32; n++) {
        if (n >= 1) cells[n] = king ? colour.toUpperCase() : colour;
      }
    }
  }
  return { cells, side: (fields[0] || 'B').toLowerCase() === 'w' ? 'w' : 'b' };
}

const squares = (mv) => mv.split(/[-x]/).map(Number);
const mine = (pos, c) => c !== '.' && c.toLowerCase() === pos.side;

// The legal moves that keep the squares clicked (`path`: the piece's square, then landing
// squares in order, any left out between them), each with the index of its square that
// matched the last click.
function consistent(legal, path) {
  const out = [];
  for (const mv of legal.keys()) {
    const sq = squares(mv);
    if (sq[0] !== path[0]) continue;
    let at = 0;
    for (const p of path.slice(1)) {
      at = sq.indexOf(p, at + 1);
      if (at < 0) break;
    }
    if (at >= 0) out.push({ mv, sq, at });
  }
  return out;
}

// The selected piece's next squares: square -> 'end' (a move can end there) or 'via' (a
// landing square of a longer capture).
function targets(legal, path) {
  const out = new Map();
  if (!path) return out;
  for (const { sq, at } of consistent(legal, path)) {
    for (let i = at + 1; i < sq.length; i++) {
      if (i === sq.length - 1) out.set(sq[i], 'end');
      else if (!out.has(sq[i])) out.set(sq[i], 'via');
    }
  }
  return out;
}

// The square between two squares a jump apart (a and b on one diagonal, two rows apart), or
// null: the piece a capture's leg jumps over.
function between(a, b) {
  const [r1, c1] = place(a), [r2, c2] = place(b);
  if (Math.abs(r1 - r2) !== 2 || Math.abs(c1 - c2) !== 2) return null;
  const r = (r1 + r2) / 2, c = (c1 + c2) / 2;
  return r * 4 + Math.floor(c / 2) + 1;
}

// The pieces jumped by the legs clicked so far.
const jumped = (path) => (path || []).slice(1).map((n, i) => between(path[i], n)).filter((n) => n);

const selectedPath = (v) => {
  const p = v.ui.path;
  return p && mine(v.pos, v.pos.cells[p[0]]) ? p : null;
};

function click(v, n) {
  const ui = v.ui, path = selectedPath(v), c = v.pos.cells[n];
  if (path) {
    const next = consistent(v.legal, [...path, n]);
    const ending = next.filter((x) => x.sq.length - 1 === x.at);
    if (next.length === 1 && ending.length === 1) { ui.path = null; v.play(ending[0].mv); return; }
    if (next.length > 0) { ui.path = [...path, n]; v.redraw(); return; }
    // The last square clicked again: the capture that ends there, when only one does.
    const done = n === path[path.length - 1] && path.length > 1
      ? consistent(v.legal, path).filter((x) => x.sq.length - 1 === x.at) : [];
    if (done.length === 1) { ui.path = null; v.play(done[0].mv); return; }
  }
  if (mine(v.pos, c)) {
    ui.path = path && path.length === 1 && path[0] === n ? null : [n];
    v.redraw();
  } else if (path) {
    // Not a legal target: the rules say why.
    ui.path = null;
    v.play([...path, n].join(path.length > 1 || Math.abs(place(path[0])[0] - place(n)[0]) > 1 ? 'x' : '-'));
  }
}

// A man or a king of colour `c` ('b' or 'w') centred at (cx, cy); a king wears a crown.
function drawPiece(g, c, cx, cy) {
  const black = c.toLowerCase() === 'b';
  const [fill, rim, ring] = black ? ['#2a2a2a', '#000', '#5a5a5a'] : ['#f6f0e2', '#3a3026', '#b9ab92'];
  const p = el('g', { 'pointer-events': 'none' }, g);
  el('circle', { cx, cy: cy + 3, r: S * 0.38, fill: '#0005' }, p);
  el('circle', { cx, cy, r: S * 0.38, fill, stroke: rim, 'stroke-width': 1.5 }, p);
  el('circle', { cx, cy, r: S * 0.27, fill: 'none', stroke: ring, 'stroke-width': 2 }, p);
  if (c === c.toUpperCase()) {
    const d = `M${cx - 12},${cy + 7}l-2,-14l7,6l7,-9l7,9l7,-6l-2,14z`;
    el('path', { d, fill: '#e0a91b', stroke: black ? '#fff3' : '#6b4d00', 'stroke-width': 1.2 }, p);
  }
}

function square(g, v, n, path, tg, taken) {
  const [x, y] = xy(n, v.flipped), c = v.pos.cells[n], cx = x + S / 2, cy = y + S / 2;
  const cell = el('g', {}, g);
  el('rect', { x, y, width: S, height: S, fill: '#6f8f55' }, cell);
  const last = v.last ? squares(v.last) : [];
  if (last.includes(n)) el('rect', { x, y, width: S, height: S, class: 'sq-last' }, cell);
  if (path && path.includes(n)) el('rect', { x, y, width: S, height: S, class: 'sq-selected' }, cell);
  if (v.hint && squares(v.hint).includes(n)) {
    el('rect', { x: x + 2, y: y + 2, width: S - 4, height: S - 4, class: 'sq-hint' }, cell);
  }
  text(cell, x + 3, y + 11, String(n), 'sq-num',
    { 'font-size': 10, fill: '#f3ecd8', 'text-anchor': 'start', 'pointer-events': 'none' });
  if (c !== '.') drawPiece(cell, c, cx, cy);
  if (taken.includes(n)) el('circle', { cx, cy, r: S * 0.44, class: 'sq-check' }, cell);
  const t = tg.get(n);
  if (t) el('circle', { cx, cy, r: t === 'end' ? S * 0.16 : S * 0.1, class: 'target' }, cell);
  const who = c === '.' ? 'empty' : `${c.toLowerCase() === 'b' ? 'black' : 'white'} ${c === c.toUpperCase() ? 'king' : 'man'}`;
  const on = path ? path.indexOf(n) : -1;
  const label = `${n}, ${who}${on === 0 ? ', selected' : on > 0 ? ', on the way' : ''}`
    + `${t === 'end' ? ', move here' : t === 'via' ? ', jump through here' : ''}${taken.includes(n) ? ', jumped' : ''}`
    + `${last.length && last[last.length - 1] === n ? ', last move' : ''}`;
  clickable(cell, String(n), label, () => click(v, n));
}

// The engine's line: its first moves as arrows along their squares, the principal strongest.
function pvArrows(g, v) {
  const layer = el('g', { class: 'arrows' }, g);
  v.pv.slice(0, 3).forEach((mv, rank) => {
    const sq = squares(mv);
    if (sq.length < 2 || sq.some((n) => !(n >= 1 && n <= 32))) return;
    for (let i = 1; i < sq.length; i++) {
      const [x1, y1] = xy(sq[i - 1], v.flipped), [x2, y2] = xy(sq[i], v.flipped);
      arrow(layer, x1 + S / 2, y1 + S / 2, x2 + S / 2, y2 + S / 2, rank === 0 ? 11 : 8, rank);
    }
  });
}

export default {
  title: 'Checkers',
  sides: ['Black', 'White'],
  colours: ['#2a2a2a', '#f6f0e2'],
  solved: false,
  parse: (fen) => parseFen(fen),
  draw(host, v) {
    const svg = newSvg(host, 8 * S + 8, 8 * S + 8, 'checkers board');
    const g = el('g', { transform: 'translate(4,4)' }, svg);
    el('rect', { x: -4, y: -4, width: 8 * S + 8, height: 8 * S + 8, rx: 4, fill: '#5b3a1e' }, g);
    for (let r = 0; r < 8; r++) {
      for (let f = 0; f < 8; f++) {
        if ((r + f) % 2 === 0) el('rect', { x: f * S, y: r * S, width: S, height: S, fill: '#ecdcb9' }, g);
      }
    }
    const path = selectedPath(v), tg = targets(v.legal, path);
    const taken = jumped(path);
    for (let n = 1; n <= 32; n++) square(g, v, n, path, tg, taken);
    if (v.pv.length) pvArrows(g, v);
  },
  moveWord: (m) => m,
};
