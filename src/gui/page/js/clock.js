// The players' clocks: a time control for each side (minutes + seconds of increment), for
// people and engines alike. The side to move's clock runs while the game goes on at its
// last position; a person whose clock reaches zero loses on time, an engine gets a small
// margin for the relay (its own clock is what `go` tells it).
import { S, gen, seats } from './state.js';
import { UI } from './ui.js';
import { fmtClock } from './info.js';
import { forfeit } from './play.js';

// Engines may overrun their clock by this much (the server's relay and the page's timers).
const TIME_MARGIN = 250;

let running = null; // {seat, t0, timer}

// A time control `min+inc` ("5+3", "0.5+0.1", "10"), or null for none.
export function parse(text) {
  const t = String(text || '').trim();
  if (!t) return null;
  const [base, inc] = t.split('+').map(Number);
  if (!(base > 0) || (inc !== undefined && !(inc >= 0))) throw new Error(`'${t}' is not a time control (minutes+seconds, such as 5+3)`);
  return { left: base * 60000, inc: Math.round((inc || 0) * 1000), base: base * 60000 };
}

// Milliseconds the running clock has used so far (0 for a side whose clock does not run).
export function elapsed(seat) {
  return running && running.seat === seat ? performance.now() - running.t0 : 0;
}

export const runningSeat = () => (running ? running.seat : null);

export function start(seat, t0) {
  if (running) clearInterval(running.timer);
  running = { seat, t0, timer: setInterval(tick, 100) };
  UI.controls();
  UI.clocks();
}

// The clock stops; its time so far is charged (a pause, the end of the game).
export function stop() {
  if (!running) return;
  const c = S.clocks[running.seat];
  if (c) c.left -= performance.now() - running.t0;
  clearInterval(running.timer);
  running = null;
  UI.clocks();
  UI.controls();
}

// The clock stops without a charge (the caller charges what it measured).
function halt() {
  if (running) clearInterval(running.timer);
  running = null;
}

// The side to move's turn begins: a person's clock starts (an engine's starts with its
// search, in play.js).
export function turn(seat) {
  if ((running && running.seat === seat) || S.players[seat].kind === 'engine') return;
  start(seat, performance.now());
}

// A person moved: the time it took, and its clock after the move.
export function moved(seat) {
  if (!running || running.seat !== seat) return {};
  const ms = performance.now() - running.t0, c = S.clocks[seat];
  halt();
  if (c) c.left = c.left - ms + c.inc;
  return { ms: Math.round(ms), clock_ms: c ? Math.round(c.left) : undefined };
}

// An engine answered after `ms`: its clock after the move, or `flagged` when it overran.
export function engineMoved(seat, ms) {
  halt();
  UI.clocks();
  const c = S.clocks[seat];
  if (!c) return { ms: Math.round(ms) };
  c.left -= ms;
  if (c.left < -TIME_MARGIN) return { flagged: fmtClock(c.left) };
  c.left += c.inc;
  return { ms: Math.round(ms), clock_ms: Math.round(c.left) };
}

function tick() {
  UI.clocks();
  if (!running || S.over) return;
  const seat = running.seat, c = S.clocks[seat];
  if (c && S.players[seat].kind === 'human' && c.left - elapsed(seat) <= 0) {
    stop();
    c.left = 0;
    forfeit(seat, 'time', 'ran out of time');
  }
}

// `go` with both sides' clocks.
export function goLine() {
  let line = 'go';
  for (const i of [0, 1]) {
    const c = S.clocks[i];
    if (c) line += ` ${i ? 'btime' : 'wtime'} ${Math.max(0, Math.round(c.left - elapsed(i)))} ${i ? 'binc' : 'winc'} ${c.inc}`;
  }
  return line;
}

// After a take-back: each clock as it stood after its side's last remaining move.
export function restore() {
  halt();
  const first = S.snap ? (S.snap.start_side === 'p2' ? 1 : 0) : 0;
  for (const i of [0, 1]) {
    const c = S.clocks[i];
    if (!c) continue;
    c.left = c.base;
    S.moves.forEach((m, k) => {
      if ((k + first) % 2 === i && m.clock_ms !== undefined) c.left = m.clock_ms;
    });
  }
  UI.clocks();
}

// An engine with a move time or a clock that has not answered 2 s after its time is told to
// stop; 3 s later it forfeits and its process is replaced at the next use.
export function watchdog(seat, my) {
  const lim = S.players[seat].limit;
  let allowed = null;
  if (lim.type === 'movetime') allowed = Number(lim.value) * 1000;
  else if (S.clocks[seat]) allowed = Math.max(0, S.clocks[seat].left);
  if (allowed === null) return { clear() {} };
  const stopAt = setTimeout(() => { if (my === gen.n) seats[seat].stop(); }, allowed + 2000);
  const give = setTimeout(() => {
    if (my !== gen.n) return;
    forfeit(seat, 'nobestmove', 'did not answer \'go\' with \'bestmove\', even after \'stop\'');
    seats[seat].close();
  }, allowed + 5000);
  return { clear() { clearTimeout(stopAt); clearTimeout(give); } };
}
