// The chess pieces, drawn on a 45 x 45 square: shapes of our own, filled with the side's
// colour. Each is a list of [element, attributes]; 'detail' parts are drawn in the
// contrasting colour.
import { el } from './svg.js';

const PLINTH = ['path', { d: 'M9,39.5h27v-3.5q0,-2.5 -2.5,-2.5h-22q-2.5,0 -2.5,2.5z' }];
const PIECES = {
  p: [
    ['path', { d: 'M12.5,39.5h20v-3q0,-2.5 -2.5,-2.5h-15q-2.5,0 -2.5,2.5z' }],
    ['path', { d: 'M15,34c0.5,-5 3,-8.5 5.5,-10h4c2.5,1.5 5,5 5.5,10z' }],
    ['path', { d: 'M16.5,24.5h12v-3h-12z' }],
    ['circle', { cx: 22.5, cy: 16, r: 6 }],
  ],
  r: [
    PLINTH,
    ['path', { d: 'M13,33l2,-16h15l2,16z' }],
    ['path', { d: 'M11.5,17v-8h4.5v3.5h4v-3.5h5v3.5h4v-3.5h4.5v8z' }],
    ['path', { class: 'detail', d: 'M15.5,21h14M14.5,29h16' }],
  ],
  n: [
    PLINTH,
    ['path', { d: 'M14,33c-0.5,-6 2,-10 7.5,-13.5c-3,-0.5 -6,1.5 -8.5,2.5c-2,0.5 -3.5,-1.5 -2.5,-3.5l7,-8l1,-4.5l3,3.5c8,0.5 12.5,7.5 12.5,16l-0.5,7.5z' }],
    ['circle', { class: 'detail-fill', cx: 20, cy: 13, r: 1.6 }],
    ['path', { class: 'detail', d: 'M30,16c1,4 1.5,9 1,14' }],
  ],
  b: [
    PLINTH,
    ['path', { d: 'M15.5,33c-1,-5 1,-8.5 3.5,-10.5c-4,-4 -2.5,-11 3.5,-14c6,3 7.5,10 3.5,14c2.5,2 4.5,5.5 3.5,10.5z' }],
    ['circle', { cx: 22.5, cy: 6.5, r: 2.6 }],
    ['path', { class: 'detail', d: 'M25.5,11.5l-5,5.5M17.5,26.5h10' }],
  ],
  q: [
    PLINTH,
    ['path', { d: 'M12,33l-2,-20l5.5,9l1,-12l4,11l2,-12.5l2,12.5l4,-11l1,12l5.5,-9l-2,20z' }],
    ['circle', { cx: 10, cy: 12, r: 2.4 }], ['circle', { cx: 16.5, cy: 9, r: 2.4 }],
    ['circle', { cx: 22.5, cy: 7.5, r: 2.4 }], ['circle', { cx: 28.5, cy: 9, r: 2.4 }],
    ['circle', { cx: 35, cy: 12, r: 2.4 }],
    ['path', { class: 'detail', d: 'M13,29h19' }],
  ],
  k: [
    PLINTH,
    ['path', { d: 'M21,4.5h3v3h3v3h-3v5.5h-3v-5.5h-3v-3h3z' }],
    ['path', { d: 'M12.5,33c-3.5,-6 -4.5,-13.5 2,-15.5c4,-1 7,1.5 8,5c1,-3.5 4,-6 8,-5c6.5,2 5.5,9.5 2,15.5z' }],
    ['path', { class: 'detail', d: 'M22.5,22.5v9M13,29h19' }],
  ],
};

const isWhite = (p) => p !== '.' && p === p.toUpperCase();

// Draws `piece` (a FEN letter: upper case White) at (x, y), `size` units wide.
export function drawPiece(parent, piece, x, y, size, extra) {
  const white = isWhite(piece);
  const g = el('g', { class: `piece ${white ? 'piece-w' : 'piece-b'}${extra ? ` ${extra}` : ''}`, transform: `translate(${x},${y}) scale(${size / 45})` }, parent);
  for (const [tag, attrs] of PIECES[piece.toLowerCase()]) el(tag, attrs, g);
  return g;
}
