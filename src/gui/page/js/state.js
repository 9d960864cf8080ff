// The page's one game: what is played, by whom, and what is shown. Everything else reads
// it; the flow (play.js) and the forms change it.
import { BOARDS } from './boards/registry.js';
import { Engine, conn } from './net.js';

export const S = {
  game: 'connect4',
  params: {},          // the form's values of the game's parameters
  paramLine: '',       // the same as newgame's key=value words (non-default values only)
  base: null,          // the start position's notation, or null for the game's start
  moves: [],           // [{mv, by: 'human' | 'engine' | 'setup' | 'record', ms, depth, score, nodes, clock_ms}]
  view: 0,             // the ply shown (0 .. moves.length)
  snap: null,          // the server's description of the shown position (src/gui/ask/position.rs), with its ply
  over: null,          // {result, termination, reason, culprit} once the game has ended
  players: [null, null],
  clocks: [null, null], // {left, inc, base} in ms for a side with a clock
  flipped: false,
  paused: false,
  maxPlies: 0,
  showValues: true,
  values: new Map(),
  analyse: false,
  hint: null,
  preview: null,
  pv: null,            // {ply, moves}: the latest engine line, for arrows on the board
  started: Date.now(),
  ui: {},
  moving: false,       // a move is being checked: no other may be made meanwhile
};

// Counts changes of what is shown: an answer that arrives after another change is dropped.
export const gen = { n: 0 };

export const seats = [new Engine('p1'), new Engine('p2')];
export const analyst = new Engine('an');
export const valuer = new Engine('val');

export const board = () => BOARDS[S.game];
export const sideIndex = (snap) => (snap && snap.side === 'p2' ? 1 : 0);
export const sideName = (i) => board().sides[i];
export const gameLine = () => `newgame ${S.game} ${S.paramLine}`.trim();

// A game's parameters as the server declares them (src/game.rs, ParamSpec): key, kind
// ({type: check | spin | combo | list, default, min, max, vars}), label, help.
export const specs = (game) => (conn.hello && conn.hello.params[game]) || [];

// A parameter's default as the form writes it.
export function defaultText(spec) {
  const k = spec.kind;
  return k.type === 'list' ? k.default.join(',') : String(k.default);
}

// The parameters as newgame's words: each value that is not the default.
export function paramLine(game, params) {
  const out = [];
  for (const p of specs(game)) {
    const v = params[p.key];
    const text = String(v === undefined ? '' : v).trim().replace(/\s+/g, '');
    if (text === '' || text === defaultText(p)) continue;
    out.push(`${p.key}=${text}`);
  }
  return out.join(' ');
}

// The moves up to ply `ply`, then `extra`.
const movesTo = (ply, extra) => S.moves.slice(0, ply).map((m) => m.mv).concat(extra || []);

// The position at ply `ply` (then `extra` moves) as the server's rules name it.
export const at = (ply, extra) => ({ game: S.game, params: S.paramLine, fen: S.base, moves: movesTo(ply, extra) });

// The same position as protocol.md's `position` line, for the engines.
export function posLine(ply, extra) {
  const moves = movesTo(ply, extra);
  let l = S.base ? `position fen ${S.base}` : 'position startpos';
  if (moves.length) l += ` moves ${moves.join(' ')}`;
  return l;
}

export function playerName(i) {
  const p = S.players[i];
  if (!p || p.kind === 'human') return 'human';
  return `${p.engine} ${p.limit.type}=${p.limit.value}`;
}

export const resultFor = (winner) => (winner === 0 ? '1-0' : winner === 1 ? '0-1' : '1/2-1/2');
