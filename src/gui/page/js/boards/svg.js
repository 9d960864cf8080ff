// Drawing helpers shared by the boards: SVG elements, focusable cells, value badges, the
// grid notation's cells (protocol.md, "Games and notation") and arrows.

const SVGNS = 'http://www.w3.org/2000/svg';

export function el(tag, attrs, parent) {
  const e = document.createElementNS(SVGNS, tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (v !== undefined && v !== null) e.setAttribute(k, v);
  }
  if (parent) parent.appendChild(e);
  return e;
}

export function text(parent, x, y, s, cls, attrs) {
  const t = el('text', Object.assign({ x, y, class: cls }, attrs || {}), parent);
  t.textContent = s;
  return t;
}

// A clickable, focusable cell: Enter and Space play it, as a button would. `key` names it
// across redraws: the page puts the keyboard focus back on the cell with the same key, and
// a press and a release on cells with the same key are a click even when the board was
// redrawn between them (see pressAndRelease).
export function clickable(node, key, label, action) {
  node.setAttribute('tabindex', '0');
  node.setAttribute('role', 'button');
  node.setAttribute('aria-label', label);
  node.dataset.key = key;
  node.classList.add('hit');
  node.act = action;
  node.addEventListener('keydown', (e) => {
    if (e.key === 'Enter' || e.key === ' ') {
      e.preventDefault();
      action();
    }
  });
}

// Clicks on a board's cells, by key: the board is redrawn whenever an engine's line or a
// move's value arrives, and a cell redrawn between a press and its release loses the
// browser's click. A press and a release on the same key are a click: the browser's click
// event, when it follows, decides (its click count tells a double-click's second click, which
// is dropped); when it does not follow, the release acts by itself. A click event without a
// press (assistive technology) acts too.
export function pressAndRelease(host) {
  let down = null, released = null, timer = null;
  const keyOf = (e) => {
    const t = e.target instanceof Element ? e.target.closest('[data-key]') : null;
    return t ? t.dataset.key : null;
  };
  const act = (key) => {
    const cell = [...host.querySelectorAll('[data-key]')].find((c) => c.dataset.key === key);
    if (cell && cell.act) cell.act();
  };
  host.addEventListener('pointerdown', (e) => {
    down = e.button === 0 ? { key: keyOf(e), id: e.pointerId } : null;
  });
  document.addEventListener('pointerup', (e) => {
    const key = keyOf(e);
    if (down && key && key === down.key && e.pointerId === down.id) {
      released = key;
      clearTimeout(timer);
      timer = setTimeout(() => { timer = null; act(released); }, 80);
    }
    down = null;
  });
  host.addEventListener('click', (e) => {
    const key = timer ? released : keyOf(e);
    clearTimeout(timer);
    timer = null;
    if (key && e.detail < 2) act(key);
  });
}

export function newSvg(host, w, h, label) {
  host.textContent = '';
  return el('svg', { viewBox: `0 0 ${w} ${h}`, role: 'group', 'aria-label': label }, host);
}

// A move's value on the board: W3, D, L5 (or Pons' score in Connect Four).
export function badge(g, x, y, v) {
  if (!v) return;
  const b = el('g', { class: `badge ${v.cls}` }, g);
  el('rect', { x: x - 22, y: y - 13, width: 44, height: 26, rx: 8 }, b);
  text(b, x, y + 6, v.label, 'badge-text');
  const t = el('title', {}, b);
  t.textContent = v.title;
}

// The grid notation of tic-tac-toe, Connect Four and Teeko: rows from the top, '/' between
// them, digits for runs of empty cells, then the side to move. cells[r][f]: r = 0 is the top
// row, f = 0 the left file; each '.' or the owner's lower-case letter.
export function parseGrid(fen, width, height) {
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
  return { cells, side: side ? side.toLowerCase() : '', height };
}

// Whether the cell at row r from the top, file f, is on the winning line (the server's
// cells are [file, rank] from the bottom).
export function onWin(view, height, r, f) {
  return view.win.some(([wf, wr]) => wf === f && height - 1 - wr === r);
}

export const FILES = 'abcdefghijklmnopqrstuvwxyz';

// An arrow from (x1, y1) to (x2, y2), its head at the end; `rank` 0 is the principal move,
// drawn strongest.
export function arrow(parent, x1, y1, x2, y2, width, rank) {
  const dx = x2 - x1, dy = y2 - y1, len = Math.hypot(dx, dy) || 1;
  const ux = dx / len, uy = dy / len, head = width * 2.4;
  const bx = x2 - ux * head, by = y2 - uy * head;
  const px = -uy * width / 2, py = ux * width / 2;
  const d = `M${x1 + px},${y1 + py}L${bx + px},${by + py}L${bx + 2.2 * px},${by + 2.2 * py}`
    + `L${x2},${y2}L${bx - 2.2 * px},${by - 2.2 * py}L${bx - px},${by - py}L${x1 - px},${y1 - py}Z`;
  return el('path', { d, class: `arrow arrow${Math.min(rank, 2)}` }, parent);
}
