// The flow of a game: showing a position, moves from people and engines (each checked by
// the server's rules, one at a time), clocks, move values and analysis.
import { ask, isError, errorText, conn } from './net.js';
import { parseInfo, proven, scoreText, wonAtZero } from './info.js';
import { S, gen, seats, analyst, valuer, board, sideIndex, sideName, gameLine, at, posLine, resultFor } from './state.js';
import { UI } from './ui.js';
import * as clock from './clock.js';

// What the server says of the position at ply `ply`, ready to draw.
export async function snapshot(ply) {
  return shaped(await ask({ q: 'position', at: at(ply) }), ply);
}

function shaped(d, ply) {
  d.ply = ply;
  d.legalMap = new Map(d.legal.map((l) => [l.mv, l]));
  d.pos = board().parse(d.fen);
  return d;
}

export function endByRules(snap) {
  const winner = snap.result === 'p1win' ? 0 : snap.result === 'p2win' ? 1 : null;
  let reason;
  if (winner === null) reason = snap.reason || 'draw';
  else reason = `${sideName(winner)} wins${snap.reason ? `: ${snap.reason}` : ''}`;
  return { result: resultFor(winner), termination: 'rules', reason };
}

export function forfeit(seat, termination, detail) {
  if (S.over) return;
  const winner = 1 - seat, p = S.players[seat];
  const who = p.kind === 'engine' ? `${sideName(seat)} (${p.engine})` : sideName(seat);
  S.over = { result: resultFor(winner), termination, culprit: seat, reason: `${sideName(winner)} wins: ${who} ${detail}` };
  clock.stop();
  UI.render();
}

export function stopAll() {
  for (const e of [...seats, analyst, valuer]) e.stop();
}

// Shows S.view: asks the rules about it, draws it, and lets whoever is to move move.
export async function refresh() {
  const my = ++gen.n;
  stopAll();
  S.values = new Map();
  S.preview = null;
  S.ui = {};
  let snap;
  try {
    snap = await snapshot(S.view);
  } catch (e) {
    if (my === gen.n) UI.alert(e.message);
    return;
  }
  if (my !== gen.n) return;
  show(snap, my);
}

function show(snap, my) {
  S.snap = snap;
  // The labels of every move come with a description of the last position.
  if (snap.ply === S.moves.length) S.labels = snap.labels;
  const atEnd = S.view === S.moves.length;
  if (atEnd && !S.over && snap.result !== 'none') S.over = endByRules(snap);
  if (atEnd && !S.over && S.maxPlies > 0 && S.moves.length >= S.maxPlies) {
    S.over = { result: '1/2-1/2', termination: 'adjudication', reason: `draw by adjudication after ${S.maxPlies} plies` };
  }
  if (S.over) clock.stop();
  else if (atEnd && !S.paused) clock.turn(sideIndex(snap));
  UI.render();
  if (atEnd && !S.over && !S.paused) think(my);
  values(my, snap);
  analyse(my, snap);
}

// The shown position is the last one, described by the server, and nothing is being
// moved: only then may a move be made (a double-click or an engine's answer cannot make a
// second one).
const ready = () => !S.moving && S.snap && S.snap.ply === S.view;

// Asks the rules to play `typed` after ply S.view; on success the move is recorded with
// `meta()` and the game goes on from the new position (the server's answer describes it).
// Returns null or why not.
async function submit(typed, meta) {
  S.moving = true;
  const my = gen.n;
  try {
    const a = await ask({ q: 'play', at: at(S.view), mv: typed });
    if (my !== gen.n) return null;
    S.moves = S.moves.slice(0, S.view);
    S.moves.push(Object.assign({ mv: a.mv }, meta()));
    S.view = S.moves.length;
    const next = ++gen.n;
    stopAll();
    S.values = new Map();
    S.preview = null;
    S.ui = {};
    show(shaped(a.position, S.view), next);
    return null;
  } catch (e) {
    return e.message;
  } finally {
    S.moving = false;
  }
}

let lastHumanMove = -1e9;

// A move typed in the Move box: one typed while the last is still being checked waits for
// it (a board click then is dropped instead: it is a double-click's).
export async function typedMove(text) {
  for (let i = 0; i < 100 && !ready(); i++) await new Promise((r) => setTimeout(r, 30));
  return humanMove(text);
}

// A move from the person at the board or the Move box: one move, only on a person's turn.
export async function humanMove(typed) {
  if (!ready()) return;
  UI.alert('');
  const atEnd = S.view === S.moves.length;
  if (atEnd && S.over) {
    UI.alert(`The game is over (${S.over.reason}). Take back, step back, or start a new game.`);
    return;
  }
  const seat = sideIndex(S.snap);
  if (atEnd && S.players[seat].kind === 'engine' && !S.paused) {
    // The second click of a double-click that just made the person's move says nothing.
    if (performance.now() - lastHumanMove < 500) return;
    UI.alert(`It is ${S.players[seat].engine}'s move (${sideName(seat)}). Use “Move now” or pause the engines.`);
    return;
  }
  if (!atEnd) S.over = null; // playing from an earlier position starts a new line
  const err = await submit(typed, () => Object.assign({ by: 'human' }, atEnd ? clock.moved(seat) : {}));
  if (err) UI.alert(err);
  else lastHumanMove = performance.now();
}

function goLine(seat) {
  const lim = S.players[seat].limit;
  const v = Math.max(1, Number(lim.value) || 1);
  if (lim.type === 'depth') return `go depth ${Math.round(v)}`;
  if (lim.type === 'nodes') return `go nodes ${Math.round(v)}`;
  // Seconds a move, down to a hundredth.
  if (lim.type === 'movetime') return `go movetime ${Math.max(10, Math.round((Number(lim.value) || 1) * 1000))}`;
  return clock.goLine();
}

export function engineSetup(p) {
  const def = conn.hello.engines.find((e) => e.name === p.engine);
  if (!def || def.proto !== 'ply') return [];
  return [`setoption name UseSolver value ${p.solver ? 'true' : 'false'}`];
}

async function think(my) {
  const seat = sideIndex(S.snap);
  const p = S.players[seat];
  if (!p || p.kind !== 'engine') return;
  const eng = seats[seat];
  try {
    await eng.ensure(p.engine, gameLine(), engineSetup(p));
    if (my !== gen.n) return;
    const pre = await eng.sync([posLine(S.moves.length)]);
    const err = pre.find(isError);
    if (err) { forfeit(seat, 'illegal', `refused the position: ${errorText(err)}`); return; }
    if (my !== gen.n) return;
    const t0 = performance.now();
    clock.start(seat, t0);
    let last = {};
    const watchdog = clock.watchdog(seat, my);
    const searching = eng.go(goLine(seat), (l) => {
      const info = parseInfo(l);
      if (!info) return;
      if (info.score || info.pv) last = info;
      if (info.pv && my === gen.n) UI.showLine(S.moves.length, info.pv);
      UI.thinkingLine(seat, info, sideIndex(S.snap));
    });
    UI.controls();
    const out = await searching;
    watchdog.clear();
    if (my !== gen.n) return;
    const spent = clock.engineMoved(seat, performance.now() - t0);
    if (spent.flagged) { forfeit(seat, 'time', `ran out of time (${spent.flagged})`); return; }
    played(seat, out, last, spent);
  } catch (e) {
    if (my === gen.n) forfeit(seat, 'crash', `failed: ${e.message}`);
  }
}

async function played(seat, out, last, spent) {
  const mv = (out[out.length - 1].split(/\s+/)[1] || '').trim();
  if (!mv || mv === '(none)') { forfeit(seat, 'nobestmove', `answered 'bestmove ${mv}' in a game that goes on`); return; }
  const meta = { by: 'engine', ms: spent.ms, depth: last.depth, nodes: last.nodes, clock_ms: spent.clock_ms };
  if (last.score) meta.score = `${last.score.kind} ${last.score.n}`;
  const bad = await submit(mv, () => meta);
  if (bad) forfeit(seat, /not a|malformed/i.test(bad) ? 'malformed' : 'illegal', `played '${mv}': ${bad}`);
}

// The value of every legal move of the shown position, from ply's solvers: each position a
// move leads to is searched with `go nodes N`, and the server turns its score into the
// mover's value.
async function values(my, snap) {
  UI.values();
  const b = board();
  if (!S.showValues || !b.solved || snap.result !== 'none' || snap.legal.length > 64) return;
  const budgets = b.valueBudgets || [1e6, 1e6];
  try {
    await valuer.ensure('ply', gameLine());
    for (let pass = 0; pass < budgets.length; pass++) {
      for (const { mv } of snap.legal) {
        if (my !== gen.n) return;
        const known = S.values.get(mv);
        if (known && known.exact) continue;
        const v = await valueOf(snap, mv, budgets[pass]);
        if (my !== gen.n) return;
        S.values.set(mv, v);
        UI.values();
      }
      if ([...S.values.values()].every((v) => v.exact)) return;
      if (b.valueWait) await new Promise((r) => setTimeout(r, b.valueWait));
    }
  } catch (e) {
    if (my === gen.n) UI.alert(`Move values stopped: ${e.message}`);
  }
}

async function valueOf(snap, mv, nodes) {
  await valuer.sync([posLine(snap.ply, [mv])]);
  let last = null;
  await valuer.go(`go nodes ${nodes}`, (l) => {
    const i = parseInfo(l);
    if (i && i.score) last = i;
  });
  if (!last) return { cls: 'unknown', label: '?', title: 'no score', exact: false };
  const a = await ask({ q: 'value', at: at(snap.ply), mv, score: scoreText(last), proven: proven(last, true), won: wonAtZero(last) });
  return valueWords(a, sideName(sideIndex(snap)));
}

// The server's value of a move as a badge: W3, D, L5, or Pons' score, with a title.
function valueWords(a, me) {
  if (a.verdict === 'unknown') return { cls: 'unknown', label: '?', exact: false, title: `not solved yet (heuristic ${(a.n / 100).toFixed(2)} for ${me})` };
  let v;
  if (a.verdict === 'draw') v = { cls: 'draw', label: 'D', title: 'draw with best play' };
  else {
    const win = a.verdict === 'win', bound = a.at_most ? ' at most' : '';
    v = { cls: win ? 'win' : 'loss', label: `${win ? 'W' : 'L'}${a.n}`, title: `${me} ${win ? 'wins' : 'loses'} in${bound} ${a.n} move${a.n === 1 ? '' : 's'}, this one included` };
  }
  v.exact = true;
  v.n = a.n;
  if (a.pons !== undefined) {
    v.label = a.pons > 0 ? `+${a.pons}` : String(a.pons);
    v.title += ` (score ${v.label})`;
  }
  return v;
}

async function analyse(my, snap) {
  UI.analysis(null);
  if (!S.analyse || snap.result !== 'none') return;
  const name = document.querySelector('#an-engine').value;
  if (!name) return;
  try {
    await analyst.ensure(name, gameLine(), []);
    if (my !== gen.n) return;
    const pre = await analyst.sync([posLine(snap.ply)]);
    const err = pre.find(isError);
    if (err) { UI.alert(`${name}: ${errorText(err)}`); return; }
    if (my !== gen.n) return;
    await analyst.go('go infinite', (l) => {
      const info = parseInfo(l);
      if (!info || my !== gen.n) return;
      if (info.pv) UI.showLine(snap.ply, info.pv);
      UI.analysis(info, sideIndex(snap), name);
    });
  } catch (e) {
    if (my === gen.n) UI.alert(`Analysis stopped: ${e.message}`);
  }
}

export function takeBack() {
  if (!S.moves.length) return;
  let n = 1;
  // Against an engine, take back to the person's own turn.
  const humans = S.players.filter((p) => p.kind === 'human').length;
  if (humans === 1 && S.moves.length >= 2 && S.moves[S.moves.length - 1].by === 'engine') n = 2;
  if (humans === 0) S.paused = true;
  S.moves = S.moves.slice(0, S.moves.length - n);
  S.view = S.moves.length;
  S.over = null;
  clock.restore();
  UI.moves();
  refresh();
}

export function step(to) {
  const v = Math.max(0, Math.min(S.moves.length, to));
  if (v === S.view) return;
  S.view = v;
  refresh();
}

export function moveNow() {
  for (const e of seats) e.stop();
}

export function pause() {
  S.paused = !S.paused;
  if (S.paused) clock.stop();
  refresh();
}
