// Chess's board. The rules are the server's: which moves are legal (with their SAN and, for
// castling, the other squares a click may name), the king in check and why a game ended
// come with each position (src/gui/ask/). The board reads the FEN's placement to draw it,
// and turns clicks, drags and keys into moves in UCI's notation (protocol.md, "chess").
//
// A move is made by a click on a piece then on a target square, or by dragging the piece
// there (mouse or touch); a promotion opens a chooser, queen first.
import { el, text, clickable, newSvg, arrow } from './svg.js';
import { drawPiece } from './pieces.js';

const PIECE_NAMES = { p: 'pawn', n: 'knight', b: 'bishop', r: 'rook', q: 'queen', k: 'king' };
const S = 60;
const sqName = (f, r) => 'abcdefgh'[f] + (r + 1);
const isWhite = (p) => p !== '.' && p === p.toUpperCase();

// The FEN's placement: b[f][r], a1 = b[0][0]; and the side to move.
function parseFen(fen) {
  const [placement, side] = fen.trim().split(/\s+/);
  const b = [...Array(8)].map(() => new Array(8).fill('.'));
  (placement || '').split('/').forEach((row, i) => {
    let f = 0;
    for (const ch of row) {
      if (/[1-8]/.test(ch)) f += Number(ch);
      else { if (f < 8 && i < 8) b[f][7 - i] = ch; f++; }
    }
  });
  return { b, white: side !== 'b', side };
}

const pieceAt = (pos, name) => pos.b[name.charCodeAt(0) - 97][Number(name[1]) - 1];
const mine = (pos, p) => p !== '.' && isWhite(p) === pos.white;

// The squares the piece on `from` may go to: square -> the move (for a promotion, without
// its piece letter), castling also on its other squares.
function targetsFrom(legal, from) {
  const out = new Map();
  for (const [mv, l] of legal) {
    if (mv.slice(0, 2) !== from) continue;
    out.set(mv.slice(2, 4), mv.slice(0, 4));
    for (const sq of l.also || []) if (!out.has(sq)) out.set(sq, mv);
  }
  return out;
}

// Board coordinates (units of the board group) of a square's top left corner.
const xy = (name, flipped) => {
  const f = name.charCodeAt(0) - 97, r = Number(name[1]) - 1;
  return flipped ? [(7 - f) * S, r * S] : [f * S, (7 - r) * S];
};

// The square under a point in board units, or null.
function squareAt(x, y, flipped) {
  const col = Math.floor(x / S), row = Math.floor(y / S);
  if (col < 0 || col > 7 || row < 0 || row > 7) return null;
  return flipped ? sqName(7 - col, row) : sqName(col, 7 - row);
}

// Plays `mv` from the board: a promotion first asks for the piece.
function choose(v, mv) {
  if ([...v.legal.keys()].some((m) => m.length === 5 && m.startsWith(mv))) {
    v.ui.promo = { move: mv, focus: true };
    v.redraw();
  } else {
    v.ui.selected = null;
    v.play(mv);
  }
}

function click(v, name) {
  const ui = v.ui, p = pieceAt(v.pos, name);
  if (ui.ignoreClickUntil && performance.now() < ui.ignoreClickUntil) return;
  const sel = ui.selected && mine(v.pos, pieceAt(v.pos, ui.selected)) ? ui.selected : null;
  const targets = sel ? targetsFrom(v.legal, sel) : new Map();
  if (sel && targets.has(name)) {
    choose(v, targets.get(name));
  } else if (mine(v.pos, p)) {
    ui.selected = sel === name ? null : name;
    v.redraw();
  } else if (sel) {
    // Not a legal target: the rules say why.
    ui.selected = null;
    v.play(sel + name);
  }
}

// Dragging: a press on one's own piece that moves more than a few pixels picks the piece
// up; it follows the pointer (the page may redraw meanwhile: the drag lives in `ui`, the
// listeners on the window) and is played where it is released, or put back.
function press(e, v, host, name) {
  if (e.button !== 0 || !mine(v.pos, pieceAt(v.pos, name)) || v.preview) return;
  const ui = v.ui, id = e.pointerId, x0 = e.clientX, y0 = e.clientY;
  const local = (ev) => {
    const g = host.querySelector('svg > g');
    return g ? new DOMPoint(ev.clientX, ev.clientY).matrixTransform(g.getScreenCTM().inverse()) : null;
  };
  const move = (ev) => {
    if (ev.pointerId !== id) return;
    if (!ui.drag && Math.hypot(ev.clientX - x0, ev.clientY - y0) < 6) return;
    const p = local(ev);
    if (!p) return;
    if (!ui.drag) {
      ui.drag = { from: name, x: p.x, y: p.y };
      ui.selected = name;
      v.redraw();
    }
    ui.drag.x = p.x;
    ui.drag.y = p.y;
    const ghost = host.querySelector('.drag-piece');
    if (ghost) ghost.setAttribute('transform', `translate(${p.x - S / 2},${p.y - S / 2}) scale(${S / 45})`);
    ev.preventDefault();
  };
  const end = (ev) => {
    if (ev.pointerId !== id) return;
    window.removeEventListener('pointermove', move);
    window.removeEventListener('pointerup', end);
    window.removeEventListener('pointercancel', end);
    if (!ui.drag) return;
    const p = local(ev), to = ev.type === 'pointerup' && p ? squareAt(p.x, p.y, v.flipped) : null;
    ui.drag = null;
    ui.ignoreClickUntil = performance.now() + 400;
    const target = to && targetsFrom(v.legal, name).get(to);
    if (target) choose(v, target);
    else { ui.selected = to === name ? name : null; v.redraw(); }
  };
  window.addEventListener('pointermove', move);
  window.addEventListener('pointerup', end);
  window.addEventListener('pointercancel', end);
}

// Arrow keys move the focus from square to square, as on the board (not through moves).
function arrowKey(e, host, name, flipped) {
  const d = { ArrowUp: [0, 1], ArrowDown: [0, -1], ArrowLeft: [-1, 0], ArrowRight: [1, 0] }[e.key];
  if (!d) return;
  e.preventDefault();
  e.stopPropagation();
  const [df, dr] = flipped ? [-d[0], -d[1]] : d;
  const f = name.charCodeAt(0) - 97 + df, r = Number(name[1]) - 1 + dr;
  if (f < 0 || f > 7 || r < 0 || r > 7) return;
  const next = host.querySelector(`[data-key=${sqName(f, r)}]`);
  if (next) next.focus();
}

// Queen, knight, rook, bishop, from the promotion square towards the middle of the board;
// the queen has the focus, so Enter promotes to a queen. Escape or a click beside cancels.
function promotionChooser(g, v) {
  const ui = v.ui, mv = ui.promo.move;
  const [x, y0] = xy(mv.slice(2, 4), v.flipped);
  const down = y0 === 0;
  const cancel = () => { ui.promo = null; v.redraw(); };
  el('rect', { x: 0, y: 0, width: 8 * S, height: 8 * S, class: 'promo-veil' }, g).addEventListener('click', cancel);
  let first = null;
  [...'qnrb'].forEach((q, i) => {
    const y = down ? y0 + i * S : y0 - i * S;
    const opt = el('g', { class: 'promo-option' }, g);
    el('rect', { x, y, width: S, height: S, rx: 8, class: 'promo-bg' }, opt);
    drawPiece(opt, v.pos.white ? q.toUpperCase() : q, x, y, S);
    clickable(opt, `promote-${q}`, `promote to ${PIECE_NAMES[q]}`, () => { ui.promo = null; ui.selected = null; v.play(mv + q); });
    opt.addEventListener('keydown', (e) => { if (e.key === 'Escape') { e.preventDefault(); cancel(); } });
    if (!first) first = opt;
  });
  if (ui.promo.focus) {
    ui.promo.focus = false;
    setTimeout(() => first.isConnected && first.focus(), 0);
  }
}

// The engine's line as arrows: its first moves, the principal one strongest.
function pvArrows(g, v) {
  const layer = el('g', { class: 'arrows' }, g);
  v.pv.slice(0, 3).forEach((mv, i) => {
    if (!/^[a-h][1-8][a-h][1-8]/.test(mv)) return;
    const [x1, y1] = xy(mv.slice(0, 2), v.flipped), [x2, y2] = xy(mv.slice(2, 4), v.flipped);
    arrow(layer, x1 + S / 2, y1 + S / 2, x2 + S / 2, y2 + S / 2, i === 0 ? 11 : 8, i);
  });
}

function square(g, host, v, name, sel, targets) {
  const [x, y] = xy(name, v.flipped), p = pieceAt(v.pos, name);
  const cell = el('g', {}, g);
  const f = name.charCodeAt(0) - 97, r = Number(name[1]) - 1;
  el('rect', { x, y, width: S, height: S, class: `sq ${(f + r) % 2 ? 'sq-light' : 'sq-dark'}` }, cell);
  const last = !!v.last && (v.last.slice(0, 2) === name || v.last.slice(2, 4) === name);
  if (last) el('rect', { x, y, width: S, height: S, class: 'sq-last' }, cell);
  if (name === sel) el('rect', { x, y, width: S, height: S, class: 'sq-selected' }, cell);
  if (name === v.check) el('circle', { cx: x + S / 2, cy: y + S / 2, r: S * 0.48, class: 'sq-check' }, cell);
  if (v.hint && (v.hint.slice(0, 2) === name || v.hint.slice(2, 4) === name)) {
    el('rect', { x: x + 2, y: y + 2, width: S - 4, height: S - 4, class: 'sq-hint' }, cell);
  }
  const dragged = v.ui.drag && v.ui.drag.from === name;
  if (p !== '.') drawPiece(cell, p, x, y, S, dragged ? 'lifted' : '');
  const target = targets.has(name);
  if (target) {
    if (p !== '.' && !mine(v.pos, p)) el('circle', { cx: x + S / 2, cy: y + S / 2, r: S * 0.45, class: 'target-capture' }, cell);
    else el('circle', { cx: x + S / 2, cy: y + S / 2, r: S * 0.15, class: 'target' }, cell);
  }
  const who = p === '.' ? 'empty' : `${isWhite(p) ? 'white' : 'black'} ${PIECE_NAMES[p.toLowerCase()]}`;
  const label = `${name}, ${who}${name === sel ? ', selected' : ''}${target ? ', move here' : ''}`
    + `${name === v.check ? ', in check' : ''}${last && v.last.slice(2, 4) === name ? ', last move' : ''}`;
  clickable(cell, name, label, () => click(v, name));
  cell.addEventListener('pointerdown', (e) => press(e, v, host, name));
  cell.addEventListener('keydown', (e) => arrowKey(e, host, name, v.flipped));
}

export default {
  title: 'Chess',
  sides: ['White', 'Black'],
  colours: ['#fafafa', '#222'],
  solved: false,
  pgn: true,
  paramHints: { start: 'blank: a random one' },
  // A random Chess960 start is drawn once, when the game begins.
  prepare(p) {
    if ((p.chess960 === true || p.chess960 === 'true') && String(p.start).trim() === '') {
      p.start = String(Math.floor(Math.random() * 960));
    }
    return p;
  },
  parse: (fen) => parseFen(fen),
  draw(host, v) {
    const pad = 24, W = 8 * S;
    const svg = newSvg(host, W + pad + 6, W + pad + 6, 'chess board');
    svg.classList.add('chessboard');
    const g = el('g', { transform: `translate(${pad},4)` }, svg);
    const sel = v.ui.selected && mine(v.pos, pieceAt(v.pos, v.ui.selected)) ? v.ui.selected : null;
    const targets = sel ? targetsFrom(v.legal, sel) : new Map();
    for (let r = 7; r >= 0; r--) for (let f = 0; f < 8; f++) square(g, host, v, sqName(f, r), sel, targets);
    for (let i = 0; i < 8; i++) {
      const file = v.flipped ? 7 - i : i, rank = v.flipped ? i + 1 : 8 - i;
      text(svg, pad + i * S + S / 2, W + pad + 2, 'abcdefgh'[file], 'coord');
      text(svg, 10, 4 + i * S + S / 2 + 5, String(rank), 'coord');
    }
    if (v.pv.length && !v.ui.drag) pvArrows(g, v);
    if (v.ui.drag) {
      const d = v.ui.drag, p = pieceAt(v.pos, d.from);
      if (p !== '.') drawPiece(g, p, d.x - S / 2, d.y - S / 2, S, 'drag-piece');
    }
    if (v.ui.promo) promotionChooser(g, v);
  },
  moveWord: (m) => m,
  mateWords: (stm, n) => (n > 0 ? `${stm} mates in ${n}` : `${stm} is mated in ${-n}`),
};
