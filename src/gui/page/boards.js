// The game registry: one entry per game ply plays, with its parameters, its position
// notation (protocol.md, "Games and notation"), its names for the two sides and an SVG board.
// The rules stay in the engine: the page asks it for legal moves and results; a board only
// draws a position and turns clicks into move text. Adding a game is adding an entry.
//
// An entry has:
//   title, sides: [p1 name, p2 name], params: [{key, label, type, def, min, max}],
//   paramLine(values) -> 'key=value ...' for newgame (defaults left out),
//   parse(fen, params) -> position object for draw(),
//   draw(svgHost, view) -> draws view.pos; calls view.play(moveText) on a click,
//   reason(pos, result, params) -> why the game ended, in words,
//   solved: whether ply has an exact solver for it (per-move values),
//   moveWord(move) -> how a move reads in lists ('column 4', 'take 2 from heap 1', ...).
// Optional (chess, in chess.js): prepare(params) -> params (fills in a random start),
//   names(fen, moves) / labels(fen, moves) -> how moves read in lines and in the move list,
//   pairOffset(fen), fromText(fen, legal, typed) -> move text (or throws), repetitions(fen,
//   moves), toPgn(game), scoreText('cp 35'), mateWords(side, n).
// view = {pos, params, legal: Set, values: Map(move -> {label, cls, title}), flipped,
//         last: move text or null, hint: move text or null, play(text), ui: per-position state,
//         redraw()}
'use strict';

const SVGNS = 'http://www.w3.org/2000/svg';

function el(tag, attrs, parent) {
  const e = document.createElementNS(SVGNS, tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (v !== undefined && v !== null) e.setAttribute(k, v);
  }
  if (parent) parent.appendChild(e);
  return e;
}

function text(parent, x, y, s, cls, attrs) {
  const t = el('text', Object.assign({ x, y, class: cls }, attrs || {}), parent);
  t.textContent = s;
  return t;
}

// A clickable, focusable cell: Enter and Space play it, as a button would.
function clickable(node, label, action) {
  node.setAttribute('tabindex', '0');
  node.setAttribute('role', 'button');
  node.setAttribute('aria-label', label);
  node.classList.add('hit');
  node.addEventListener('click', action);
  node.addEventListener('keydown', (e) => {
    if (e.key === 'Enter' || e.key === ' ') {
      e.preventDefault();
      action();
    }
  });
}

function newSvg(host, w, h, label) {
  host.textContent = '';
  const s = el('svg', { viewBox: `0 0 ${w} ${h}`, role: 'group', 'aria-label': label }, host);
  return s;
}

function badge(g, x, y, v) {
  if (!v) return;
  const b = el('g', { class: `badge ${v.cls}` }, g);
  el('rect', { x: x - 22, y: y - 13, width: 44, height: 26, rx: 8 }, b);
  text(b, x, y + 6, v.label, 'badge-text');
  const t = el('title', {}, b);
  t.textContent = v.title;
}

// Grid notation shared by tic-tac-toe, Connect Four and Teeko: rows from the top, '/'
// between them, digits for runs of empty cells, then the side to move.
function parseGrid(fen, width, height) {
  const [board, side] = fen.trim().split(/\s+/);
  const rows = board.split('/');
  const cells = [];
  for (let r = 0; r < height; r++) {
    const row = [];
    for (const ch of rows[r] || '') {
      if (/[0-9]/.test(ch)) for (let i = 0; i < Number(ch); i++) row.push('.');
      else row.push(ch.toLowerCase());
    }
    cells.push(row);
  }
  // cells[r][f]: r = 0 is the top row, f = 0 the left file.
  return { cells, side: side ? side.toLowerCase() : '' };
}

const FILES = 'abcdefghijklmnopqrstuvwxyz';

// Lines of `len` equal marks on a width x height grid (cells[r][f], r from the top).
function findLine(cells, len, who) {
  const h = cells.length, w = cells[0].length;
  const dirs = [[0, 1], [1, 0], [1, 1], [1, -1]];
  for (let r = 0; r < h; r++) {
    for (let f = 0; f < w; f++) {
      for (const [dr, df] of dirs) {
        const line = [];
        for (let i = 0; i < len; i++) {
          const rr = r + dr * i, ff = f + df * i;
          if (rr < 0 || rr >= h || ff < 0 || ff >= w || cells[rr][ff] !== who) break;
          line.push([rr, ff]);
        }
        if (line.length === len) return line;
      }
    }
  }
  return null;
}

function onLine(line, r, f) {
  return !!line && line.some(([rr, ff]) => rr === r && ff === f);
}

const tictactoe = {
  title: 'Tic-tac-toe',
  sides: ['X', 'O'],
  params: [],
  solved: true,
  paramLine: () => '',
  parse(fen) {
    const p = parseGrid(fen, 3, 3);
    p.win = findLine(p.cells, 3, 'x') || findLine(p.cells, 3, 'o');
    return p;
  },
  cellName(r, f) { return FILES[f] + (3 - r); },
  draw(host, v) {
    const S = 100, svg = newSvg(host, 3 * S + 20, 3 * S + 20, 'tic-tac-toe board');
    const g = el('g', { transform: 'translate(10,10)' }, svg);
    el('rect', { x: 0, y: 0, width: 3 * S, height: 3 * S, class: 'ttt-bg', rx: 8 }, g);
    for (let i = 1; i < 3; i++) {
      el('line', { x1: i * S, y1: 6, x2: i * S, y2: 3 * S - 6, class: 'ttt-grid' }, g);
      el('line', { x1: 6, y1: i * S, x2: 3 * S - 6, y2: i * S, class: 'ttt-grid' }, g);
    }
    for (let r = 0; r < 3; r++) {
      for (let f = 0; f < 3; f++) {
        const [dr, df] = v.flipped ? [2 - r, 2 - f] : [r, f];
        const x = df * S, y = dr * S, cx = x + S / 2, cy = y + S / 2;
        const name = this.cellName(r, f), c = v.pos.cells[r][f];
        const cell = el('g', {}, g);
        const rect = el('rect', { x: x + 3, y: y + 3, width: S - 6, height: S - 6, class: 'cell', rx: 6 }, cell);
        if (name === v.last) rect.classList.add('last');
        if (onLine(v.pos.win, r, f)) rect.classList.add('win');
        if (c === 'x') {
          el('path', { d: `M${cx - 28},${cy - 28}L${cx + 28},${cy + 28}M${cx + 28},${cy - 28}L${cx - 28},${cy + 28}`, class: 'mark-x' }, cell);
        } else if (c === 'o') {
          el('circle', { cx, cy, r: 30, class: 'mark-o' }, cell);
        } else if (v.hint === name) {
          text(cell, cx, cy + 14, v.pos.side === 'x' ? '×' : '○', 'ghost');
        }
        if (c === '.') badge(cell, cx, y + S - 18, v.values.get(name));
        const label = `${name}, ${c === 'x' ? 'X' : c === 'o' ? 'O' : 'empty'}`;
        clickable(cell, label, () => v.play(name));
      }
    }
    for (let i = 0; i < 3; i++) {
      const f = v.flipped ? 2 - i : i, r = v.flipped ? i + 1 : 3 - i;
      text(svg, 10 + i * S + S / 2, 3 * S + 19, FILES[f], 'coord');
      text(svg, 5, 10 + i * S + S / 2, String(r), 'coord');
    }
  },
  reason(pos, result) {
    return result === 'draw' ? 'the board is full' : 'three in a row';
  },
  moveWord: (m) => m,
};

const connect4 = {
  title: 'Connect Four',
  sides: ['Red', 'Yellow'],
  params: [
    { key: 'width', label: 'Columns', type: 'int', def: 7, min: 1, max: 63 },
    { key: 'height', label: 'Rows', type: 'int', def: 6, min: 1, max: 63 },
  ],
  solved: true,
  paramLine(p) {
    const out = [];
    if (Number(p.width) !== 7) out.push(`width=${p.width}`);
    if (Number(p.height) !== 6) out.push(`height=${p.height}`);
    return out.join(' ');
  },
  parse(fen, params) {
    const w = Number(params.width || 7), h = Number(params.height || 6);
    const p = parseGrid(fen, w, h);
    p.w = w; p.h = h;
    p.win = findLine(p.cells, 4, 'x') || findLine(p.cells, 4, 'o');
    p.discs = p.cells.flat().filter((c) => c !== '.').length;
    return p;
  },
  // The row (from the top) a disc dropped in column f lands on, or -1 when full.
  landing(pos, f) {
    for (let r = pos.h - 1; r >= 0; r--) if (pos.cells[r][f] === '.') return r;
    return -1;
  },
  draw(host, v) {
    const pos = v.pos, S = 60, top = 34, W = pos.w * S, H = pos.h * S;
    const svg = newSvg(host, W + 20, H + top + 30, 'Connect Four board');
    const g = el('g', { transform: `translate(10,${top})` }, svg);
    el('rect', { x: 0, y: 0, width: W, height: H, rx: 12, class: 'c4-board' }, g);
    const hintCol = v.hint ? Number(v.hint) - 1 : -1;
    for (let i = 0; i < pos.w; i++) {
      const f = v.flipped ? pos.w - 1 - i : i;
      const col = el('g', { class: 'c4-col' }, g);
      el('rect', { x: i * S, y: -top, width: S, height: H + top, class: 'colhit' }, col);
      const land = this.landing(pos, f);
      for (let r = 0; r < pos.h; r++) {
        const c = pos.cells[r][f], cx = i * S + S / 2, cy = r * S + S / 2;
        let cls = 'hole';
        if (c === 'x') cls = 'disc-x';
        else if (c === 'o') cls = 'disc-o';
        else if (r === land && hintCol === f) cls = `ghost-${pos.side}`;
        else if (r === land) cls = `hole land-${pos.side}`;
        const d = el('circle', { cx, cy, r: S * 0.4, class: cls }, col);
        if (onLine(pos.win, r, f)) d.classList.add('win');
        if (r === land + 1 && String(f + 1) === v.last && c !== '.') d.classList.add('last');
      }
      const m = String(f + 1);
      badge(g, i * S + S / 2, -17, v.values.get(m));
      text(svg, 10 + i * S + S / 2, top + H + 22, m, 'coord');
      const state = land < 0 ? 'full' : `${pos.h - land - 1} discs`;
      clickable(col, `column ${m}, ${state}`, () => v.play(m));
    }
  },
  reason(pos, result) {
    return result === 'draw' ? 'the board is full' : 'four in a row';
  },
  moveWord: (m) => `column ${m}`,
};

const nim = {
  title: 'Nim',
  sides: ['Player 1', 'Player 2'],
  params: [
    { key: 'heaps', label: 'Heaps (sizes, comma-separated)', type: 'text', def: '10' },
    { key: 'max', label: 'Largest take', type: 'int', def: 3, min: 1, max: 4294967295 },
    { key: 'misere', label: 'Misère (taking the last object loses)', type: 'bool', def: false },
  ],
  solved: true,
  paramLine(p) {
    const heaps = String(p.heaps || '10').replace(/\s+/g, '');
    const out = [heaps.includes(',') ? `heaps=${heaps}` : `length=${heaps}`];
    if (Number(p.max) !== 3) out.push(`max=${p.max}`);
    if (p.misere === true || p.misere === 'true') out.push('misere=true');
    return out.join(' ');
  },
  parse(fen, params) {
    const [heaps, side] = fen.trim().split(/\s+/);
    const hs = heaps.split(',').map(Number);
    return {
      heaps: hs,
      side,
      several: String(params.heaps || '10').includes(','),
      max: Number(params.max || 3),
    };
  },
  moveText(pos, h, k) { return pos.several ? `${h + 1}:${k}` : String(k); },
  draw(host, v) {
    // Sticks are drawn up to 30 a heap, for the largest heap the game started with.
    const start = String(v.params.heaps || '10').split(',').map(Number);
    const pos = v.pos, SHOWN = Math.max(3, Math.min(30, Math.max(...start, ...pos.heaps))), S = 22, rowH = 56;
    // At least 560 units wide, so a few short heaps are not drawn huge.
    const W = Math.max(560, SHOWN * S + 150), H = pos.heaps.length * rowH + 16;
    const svg = newSvg(host, W, H, 'Nim heaps');
    pos.heaps.forEach((size, h) => {
      const y = 8 + h * rowH, g = el('g', {}, svg);
      text(g, 8, y + 34, pos.several ? `heap ${h + 1}` : 'heap', 'nim-label');
      const shown = Math.min(size, SHOWN), base = 80;
      const hover = v.ui.hover && v.ui.hover[0] === h ? v.ui.hover[1] : 0;
      let hintTake = 0;
      if (v.hint) {
        const [hh, k] = pos.several ? v.hint.split(':').map(Number) : [1, Number(v.hint)];
        if (hh - 1 === h) hintTake = k;
      }
      for (let i = 0; i < shown; i++) {
        const take = shown - i; // clicking stick i takes it and every stick right of it
        const x = base + i * S;
        const stick = el('g', {}, g);
        const r = el('rect', { x: x + 4, y: y + 8, width: S - 8, height: 40, rx: 5, class: 'stick' }, stick);
        if (take <= hover || take <= hintTake) r.classList.add('taking');
        const m = this.moveText(pos, h, take);
        if (v.legal.has(m)) {
          clickable(stick, `take ${take} from ${pos.several ? `heap ${h + 1}` : 'the heap'}`, () => v.play(m));
          stick.addEventListener('mouseenter', () => { v.ui.hover = [h, take]; v.redraw(); });
          stick.addEventListener('mouseleave', () => { v.ui.hover = null; v.redraw(); });
        }
      }
      const more = size > SHOWN ? ` (+${size - SHOWN})` : '';
      text(g, base + shown * S + 10, y + 34, `${size}${more}`, 'nim-count');
    });
  },
  reason(pos, result, params) {
    const misere = params.misere === true || params.misere === 'true';
    return misere ? 'the other player had to take the last object' : 'took the last object';
  },
  moveWord(m) {
    if (m.includes(':')) {
      const [h, k] = m.split(':');
      return `take ${k} from heap ${h}`;
    }
    return `take ${m}`;
  },
};

// Teeko's goals: four in a row, 2x2 squares, and with advanced=true the corners of every
// axis-aligned square of side 3 to 5. Each goal is a list of [r, f].
function teekoGoals(advanced) {
  const goals = [];
  const inside = (r, f) => r >= 0 && r < 5 && f >= 0 && f < 5;
  for (let r = 0; r < 5; r++) {
    for (let f = 0; f < 5; f++) {
      for (const [dr, df] of [[0, 1], [1, 0], [1, 1], [1, -1]]) {
        const g = [0, 1, 2, 3].map((i) => [r + dr * i, f + df * i]);
        if (g.every(([a, b]) => inside(a, b))) goals.push(g);
      }
      for (let s = 1; s <= (advanced ? 4 : 1); s++) {
        if (r + s < 5 && f + s < 5) goals.push([[r, f], [r, f + s], [r + s, f], [r + s, f + s]]);
      }
    }
  }
  return goals;
}

const teeko = {
  title: 'Teeko',
  sides: ['Black', 'Red'],
  params: [
    { key: 'advanced', label: 'Advanced (square corners win too)', type: 'bool', def: false },
    { key: 'centre', label: 'First drop may be the centre', type: 'bool', def: true },
  ],
  solved: true,
  paramLine(p) {
    const out = [];
    if (p.advanced === true || p.advanced === 'true') out.push('advanced=true');
    if (p.centre === false || p.centre === 'false') out.push('centre=false');
    return out.join(' ');
  },
  parse(fen, params) {
    const p = parseGrid(fen, 5, 5);
    const adv = params.advanced === true || params.advanced === 'true';
    p.markers = p.cells.flat().filter((c) => c !== '.').length;
    p.win = null;
    for (const g of teekoGoals(adv)) {
      const who = p.cells[g[0][0]][g[0][1]];
      if (who !== '.' && g.every(([r, f]) => p.cells[r][f] === who)) { p.win = g; break; }
    }
    return p;
  },
  cellName(r, f) { return FILES[f] + (5 - r); },
  // The best value among a marker's steps, for its badge when nothing is selected.
  bestFrom(v, from) {
    const rank = (x) => (x.cls === 'win' ? 3e6 - x.n : x.cls === 'draw' ? 2e6 : x.cls === 'loss' ? 1e6 + x.n : 0);
    let best = null;
    for (const [m, x] of v.values) {
      if (m.length === 4 && m.startsWith(from) && (!best || rank(x) > rank(best))) best = x;
    }
    return best;
  },
  draw(host, v) {
    const pos = v.pos, S = 76, pad = 26, svg = newSvg(host, 5 * S + 2 * pad, 5 * S + 2 * pad, 'Teeko board');
    const g = el('g', { transform: `translate(${pad},${pad})` }, svg);
    el('rect', { x: -8, y: -8, width: 5 * S + 16, height: 5 * S + 16, rx: 14, class: 'teeko-bg' }, g);
    for (let i = 0; i < 5; i++) {
      el('line', { x1: S / 2, y1: i * S + S / 2, x2: 5 * S - S / 2, y2: i * S + S / 2, class: 'teeko-grid' }, g);
      el('line', { x1: i * S + S / 2, y1: S / 2, x2: i * S + S / 2, y2: 5 * S - S / 2, class: 'teeko-grid' }, g);
    }
    const dropPhase = pos.markers < 8, me = pos.side;
    const sel = v.ui.selected || null;
    const hintFrom = v.hint && v.hint.length === 4 ? v.hint.slice(0, 2) : null;
    const hintTo = v.hint ? v.hint.slice(-2) : null;
    for (let r = 0; r < 5; r++) {
      for (let f = 0; f < 5; f++) {
        const [dr, df] = v.flipped ? [4 - r, 4 - f] : [r, f];
        const cx = df * S + S / 2, cy = dr * S + S / 2, name = this.cellName(r, f), c = pos.cells[r][f];
        const cell = el('g', {}, g);
        el('rect', { x: df * S, y: dr * S, width: S, height: S, class: 'teeko-cell' }, cell);
        const spot = el('circle', { cx, cy, r: 9, class: 'teeko-spot' }, cell);
        if (v.last && (v.last.slice(-2) === name || (v.last.length === 4 && v.last.slice(0, 2) === name))) spot.classList.add('last');
        if (c === 'b' || c === 'r') {
          const m = el('circle', { cx, cy, r: S * 0.36, class: `marker-${c}` }, cell);
          if (onLine(pos.win, r, f)) m.classList.add('win');
          if (sel === name) m.classList.add('selected');
          if (hintFrom === name) m.classList.add('hinted');
        } else if (hintTo === name) {
          el('circle', { cx, cy, r: S * 0.36, class: `ghost-${me}` }, cell);
        }
        let value = null, action = null, label = `${name}, ${c === 'b' ? 'black marker' : c === 'r' ? 'red marker' : 'empty'}`;
        if (dropPhase) {
          // Occupied cells too: the engine says why a drop there is refused.
          if (c === '.') value = v.values.get(name);
          action = () => v.play(name);
        } else if (c === me) {
          value = sel ? null : this.bestFrom(v, name);
          action = () => { v.ui.selected = sel === name ? null : name; v.redraw(); };
          label += sel === name ? ', selected' : ', select to move';
        } else if (c === '.' && sel) {
          value = v.values.get(sel + name);
          action = () => v.play(sel + name);
          if (v.legal.has(sel + name)) el('circle', { cx, cy, r: 14, class: 'dest' }, cell);
        } else {
          // A drop in the move phase, or the opponent's marker: the engine explains why not.
          action = () => v.play(sel ? sel + name : name);
        }
        badge(cell, cx, cy + S * 0.36, value);
        if (action) clickable(cell, label, action);
      }
    }
    for (let i = 0; i < 5; i++) {
      const f = v.flipped ? 4 - i : i, r = v.flipped ? i + 1 : 5 - i;
      text(svg, pad + i * S + S / 2, 5 * S + 2 * pad - 4, FILES[f], 'coord');
      text(svg, 9, pad + i * S + S / 2 + 5, String(r), 'coord');
    }
  },
  reason() { return 'four markers on a goal'; },
  moveWord: (m) => (m.length === 4 ? `${m.slice(0, 2)}–${m.slice(2)}` : `drop ${m}`),
};

window.GAMES = { tictactoe, connect4, nim, teeko };
