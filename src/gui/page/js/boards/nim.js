// Nim's board: heaps of sticks; a move takes some from one heap: `2`, or `heap:count` with
// several heaps (protocol.md, "nim"). Clicking a stick takes it and every stick right of it.
import { el, text, clickable, newSvg } from './svg.js';

const moveText = (several, h, k) => (several ? `${h + 1}:${k}` : String(k));

// Marks the sticks a click would take; classes only, so the element under the pointer is
// never replaced between a press and its release.
function showTaking(svg, h, take) {
  for (const r of svg.querySelectorAll('.stick')) {
    r.classList.toggle('taking', Number(r.dataset.heap) === h && Number(r.dataset.take) <= take);
  }
}

export default {
  title: 'Nim',
  sides: ['Player 1', 'Player 2'],
  colours: ['#2a8c82', '#7b4bb3'],
  solved: true,
  parse(fen) {
    const [heaps, side] = fen.trim().split(/\s+/);
    return { heaps: heaps.split(',').map(Number), side };
  },
  draw(host, v) {
    // Sticks are drawn up to 30 a heap, for the largest heap the game started with, each
    // in a slot as wide as the board allows (a finger's width on a phone).
    const start = v.start.heaps;
    const pos = v.pos, several = pos.heaps.length > 1;
    const SHOWN = Math.max(3, Math.min(30, Math.max(...start, ...pos.heaps)));
    const W = 640, base = 80, countW = 150, rowH = 64;
    const S = Math.min(48, Math.floor((W - base - countW) / SHOWN));
    const svg = newSvg(host, W, pos.heaps.length * rowH + 16, 'Nim heaps');
    let hint = null;
    if (v.hint) hint = several ? v.hint.split(':').map(Number) : [1, Number(v.hint)];
    const principal = v.pv[0];
    pos.heaps.forEach((size, h) => {
      const y = 8 + h * rowH, g = el('g', {}, svg);
      text(g, 8, y + 38, several ? `heap ${h + 1}` : 'heap', 'nim-label');
      const shown = Math.min(size, SHOWN);
      for (let i = 0; i < shown; i++) {
        const take = shown - i, x = base + i * S, m = moveText(several, h, take);
        const stick = el('g', { class: 'nim-stick' }, g);
        el('rect', { x, y: y + 2, width: S, height: rowH - 4, class: 'stickhit' }, stick);
        const r = el('rect', { x: x + S / 2 - 7, y: y + 10, width: 14, height: 44, rx: 5, class: 'stick' }, stick);
        r.dataset.heap = h;
        r.dataset.take = take;
        if (hint && hint[0] - 1 === h && take <= hint[1]) r.classList.add('taking');
        if (principal === m) r.classList.add('principal-stick');
        clickable(stick, m, `take ${take} from ${several ? `heap ${h + 1}` : 'the heap'}`, () => v.play(m));
        stick.addEventListener('pointerenter', () => showTaking(svg, h, take));
        stick.addEventListener('pointerleave', () => showTaking(svg, -1, 0));
        stick.addEventListener('focus', () => showTaking(svg, h, take));
        stick.addEventListener('blur', () => showTaking(svg, -1, 0));
      }
      const more = size > SHOWN ? ` (+${size - SHOWN})` : '';
      text(g, base + shown * S + 10, y + 38, `${size}${more}`, 'nim-count');
    });
  },
  moveWord(m) {
    if (m.includes(':')) {
      const [h, k] = m.split(':');
      return `take ${k} from heap ${h}`;
    }
    return `take ${m}`;
  },
};
