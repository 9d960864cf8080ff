// ply gui: the page is a client of protocol.md. Engines run on the server, one process per
// slot of this page: 'rules' (ply, asked for legal moves, positions and results), 'p1' and
// 'p2' (the engines playing a side), 'an' (analysis) and 'val' (ply, the value of every
// legal move). Messages to the server are JSON: start / send / close (see src/gui/session.rs).
'use strict';

const $ = (sel) => document.querySelector(sel);
const GAMES = window.GAMES;

// ---------------------------------------------------------------- the connection

class Connection {
  constructor() {
    this.engines = new Map();
    this.hello = null;
    this.ready = new Promise((resolve) => { this.onHello = resolve; });
  }

  open() {
    this.ws = new WebSocket(`ws://${location.host}/ws`);
    this.ws.onmessage = (e) => this.receive(JSON.parse(e.data));
    this.ws.onclose = (e) => {
      for (const eng of this.engines.values()) eng.fail('the connection to the server closed');
      UI.connection(false, e.reason || (this.refused ? this.refused : 'the server closed the connection'));
    };
  }

  send(msg) {
    if (this.ws.readyState === WebSocket.OPEN) this.ws.send(JSON.stringify(msg));
  }

  receive(m) {
    if (m.ev === 'hello') {
      this.hello = m;
      UI.connection(true);
      this.onHello(m);
      return;
    }
    if (m.ev === 'refused') {
      this.refused = m.msg;
      UI.connection(false, m.msg);
      return;
    }
    const eng = m.id ? this.engines.get(m.id) : null;
    if (!eng) {
      if (m.ev === 'error') UI.alert(`Server: ${m.msg}`);
      return;
    }
    switch (m.ev) {
      case 'started': eng.started(m); break;
      case 'line': eng.line(m.line); break;
      case 'exit': eng.exited(`${eng.engine} stopped (${m.reason})`, m.stderr); break;
      case 'failed': eng.exited(m.error, ''); break;
      case 'error': eng.refused(m.msg); break;
      default: break;
    }
  }
}

const conn = new Connection();

// One engine slot: requests are queued and sent one at a time; each ends at a line its
// `done` test accepts (`readyok` after `isready`, `bestmove` after `go`).
class Engine {
  constructor(slot) {
    this.slot = slot;
    this.alive = false;
    this.engine = null;
    this.game = null;
    this.q = [];
    this.cur = null;
    this.onExit = null;
    conn.engines.set(slot, this);
  }

  start(name) {
    this.fail('restarted');
    this.engine = name;
    this.game = null;
    this.booting = new Promise((resolve, reject) => { this.boot = { resolve, reject }; });
    conn.send({ op: 'start', id: this.slot, engine: name });
    return this.booting;
  }

  started(m) {
    this.alive = true;
    this.idName = m.name;
    if (this.boot) this.boot.resolve();
    this.boot = null;
    this.pump();
  }

  exited(reason, stderr) {
    const wasAlive = this.alive || this.boot;
    if (this.boot) this.boot.reject(new Error(reason));
    this.boot = null;
    this.fail(reason);
    if (wasAlive && this.onExit) this.onExit(reason, stderr);
  }

  refused(msg) {
    // A line of the current request was refused: its answer will never be complete, so the
    // process is replaced at the next use.
    UI.alert(`Server refused a line for ${this.slot}: ${msg}`);
    conn.send({ op: 'close', id: this.slot });
    this.fail(msg);
  }

  fail(reason) {
    this.alive = false;
    const all = this.cur ? [this.cur, ...this.q] : this.q;
    this.cur = null;
    this.q = [];
    for (const r of all) r.reject(new Error(reason));
  }

  close() {
    if (this.alive || this.boot) conn.send({ op: 'close', id: this.slot });
    this.fail('closed');
    this.engine = null;
  }

  // Starts `name` if this slot runs another engine or none, and selects the game.
  async ensure(name, gameLine, setup) {
    // A start already under way for this engine is waited for, not repeated.
    if (this.boot && this.engine === name) await this.booting;
    else if (!this.alive || this.engine !== name) await this.start(name);
    const want = [gameLine, ...(setup || [])].join('\n');
    if (this.game !== want) {
      const lines = await this.sync([gameLine, ...(setup || [])]);
      const err = lines.find(isError);
      if (err) throw new Error(`${name}: ${errorText(err)}`);
      this.game = want;
    }
  }

  request(lines, done, onLine, isGo) {
    return new Promise((resolve, reject) => {
      this.q.push({ lines, done, onLine, resolve, reject, got: [], isGo });
      this.pump();
    });
  }

  sync(lines) {
    return this.request([...lines, 'isready'], (l) => l === 'readyok');
  }

  go(line, onLine) {
    return this.request([line], (l) => /^bestmove\b/.test(l), onLine, true);
  }

  busy() { return !!(this.cur && this.cur.isGo); }

  stop() { if (this.busy()) conn.send({ op: 'send', id: this.slot, line: 'stop' }); }

  pump() {
    if (this.cur || !this.q.length || !this.alive) return;
    this.cur = this.q.shift();
    for (const line of this.cur.lines) conn.send({ op: 'send', id: this.slot, line });
  }

  line(l) {
    const c = this.cur;
    if (!c) return;
    c.got.push(l);
    if (c.onLine) c.onLine(l);
    if (c.done(l)) {
      this.cur = null;
      c.resolve(c.got);
      this.pump();
    }
  }
}

const isError = (l) => l.startsWith('info string error');
const errorText = (l) => l.replace(/^info string error\s*/, '');

// ---------------------------------------------------------------- protocol output

function parseInfo(line) {
  const w = line.trim().split(/\s+/);
  if (w[0] !== 'info' || w[1] === 'string') return null;
  const info = {};
  for (let i = 1; i < w.length; i++) {
    const k = w[i];
    if (['depth', 'seldepth', 'nodes', 'nps', 'time', 'hashfull', 'tbhits', 'multipv'].includes(k)) {
      info[k] = Number(w[++i]);
    } else if (k === 'score') {
      info.score = { kind: w[i + 1], n: Number(w[i + 2]) };
      i += 2;
      if (w[i + 1] === 'lowerbound' || w[i + 1] === 'upperbound') info.score.bound = w[++i];
    } else if (k === 'wdl') {
      info.wdl = [Number(w[i + 1]), Number(w[i + 2]), Number(w[i + 3])];
      i += 3;
    } else if (k === 'pv') {
      info.pv = w.slice(i + 1);
      break;
    }
  }
  return info;
}

// Whether ply proved this score: mate scores are proofs, and a solver's line has no
// hashfull (protocol.md, "Search output").
function proven(info, ply) {
  return !!info.score && (info.score.kind === 'mate' || (ply && !('hashfull' in info)));
}

// A score from the searched position's side to move, in words.
function scoreWords(info, stm, ply) {
  const s = info.score;
  if (!s) return '';
  const atMost = s.bound ? ' or fewer' : '';
  if (s.kind === 'mate') {
    if (s.n === 0) return info.wdl && info.wdl[0] === 1000 ? `${stm} has won` : `${stm} has lost`;
    if (G().mateWords) return G().mateWords(stm, s.n) + atMost;
    return s.n > 0 ? `${stm} wins in ${s.n}${atMost}` : `${stm} loses in ${-s.n}${atMost}`;
  }
  if (s.n === 0 && proven(info, ply)) return 'draw';
  const v = (s.n / 100).toFixed(2);
  return `${s.n >= 0 ? '+' : ''}${v} for ${stm}`;
}

// The share of the evaluation bar that belongs to p1, from a score of `stmIndex`'s side.
function barShare(info, stmIndex) {
  const s = info.score;
  if (!s) return 0.5;
  let x;
  if (s.kind === 'mate') x = s.n > 0 || (s.n === 0 && info.wdl && info.wdl[0] === 1000) ? 1 : 0;
  else x = 0.5 + 0.5 * Math.tanh(s.n / 400);
  return stmIndex === 0 ? x : 1 - x;
}

function fmtNodes(n) {
  if (n === undefined) return '';
  if (n >= 1e9) return `${(n / 1e9).toFixed(2)} G`;
  if (n >= 1e6) return `${(n / 1e6).toFixed(2)} M`;
  if (n >= 1e3) return `${(n / 1e3).toFixed(1)} k`;
  return String(n);
}

function fmtClock(ms) {
  const neg = ms < 0;
  ms = Math.abs(ms);
  const m = Math.floor(ms / 60000), s = (ms % 60000) / 1000;
  return `${neg ? '-' : ''}${m}:${s < 10 ? '0' : ''}${s.toFixed(1)}`;
}

// ---------------------------------------------------------------- game state

const S = {
  game: 'connect4',
  params: {},
  base: null,          // the start position's notation, or null for the game's start
  startFen: null,      // the notation of the position before S.moves (the rules engine's)
  moves: [],           // [{mv, ms, depth, score, nodes, clock_ms, by}]
  view: 0,             // the ply shown (0 .. moves.length)
  snap: null,          // what the rules engine says of the shown position
  over: null,          // {result, termination, reason, culprit} once the game has ended
  players: [null, null],
  clocks: [null, null],
  flipped: false,
  paused: false,
  maxPlies: 0,
  showValues: true,
  values: new Map(),
  analyse: false,
  hint: null,
  preview: null,
  started: Date.now(),
  ui: {},
};
let gen = 0;
const rules = new Engine('rules');
const seats = [new Engine('p1'), new Engine('p2')];
const analyst = new Engine('an');
const valuer = new Engine('val');
let thinking = null; // {seat, t0, timer}
let previewGen = 0;  // counts previews asked for, so a late answer to an old one is dropped

const G = () => GAMES[S.game];
const sideIndex = (snap) => (snap && snap.side === 'p2' ? 1 : 0);
const sideName = (i) => G().sides[i];
const gameLine = () => `newgame ${S.game} ${G().paramLine(S.params)}`.trim();

function posLine(ply, extra) {
  const moves = S.moves.slice(0, ply).map((m) => m.mv).concat(extra || []);
  let l = S.base ? `position fen ${S.base}` : 'position startpos';
  if (moves.length) l += ` moves ${moves.join(' ')}`;
  return l;
}

async function snapshot(ply, extra) {
  const lines = await rules.sync([posLine(ply, extra), 'query fen', 'query legalmoves', 'query result', 'query sidetomove']);
  const err = lines.find(isError);
  if (err) return { error: errorText(err) };
  const r = lines.filter((l) => l === 'response' || l.startsWith('response ')).map((l) => l.slice(9));
  const snap = { fen: r[0], legal: r[1] ? r[1].split(' ') : [], result: r[2], side: r[3], ply };
  snap.pos = G().parse(snap.fen, S.params);
  return snap;
}

function playerName(i) {
  const p = S.players[i];
  if (!p || p.kind === 'human') return 'human';
  return `${p.engine} ${p.limit.type}=${p.limit.value}`;
}

function resultFor(winner) { return winner === 0 ? '1-0' : winner === 1 ? '0-1' : '1/2-1/2'; }

function endByRules(snap) {
  const r = snap.result;
  const winner = r === 'p1win' ? 0 : r === 'p2win' ? 1 : null;
  const why = G().reason(snap.pos, r, S.params);
  const reason = winner === null ? `draw: ${why}` : `${sideName(winner)} wins: ${why}`;
  return { result: resultFor(winner), termination: 'rules', reason };
}

function forfeit(seat, termination, detail) {
  if (S.over) return;
  const winner = 1 - seat;
  S.over = {
    result: resultFor(winner), termination, culprit: seat,
    reason: `${sideName(winner)} wins: ${sideName(seat)} (${S.players[seat].engine}) ${detail}`,
  };
  stopClock();
  UI.render();
}

// ---------------------------------------------------------------- the flow of a game

function stopAll() {
  for (const e of [...seats, analyst, valuer]) e.stop();
}

// Shows S.view: asks the rules engine about it, draws it, and lets whoever is to move move.
async function refresh() {
  const my = ++gen;
  stopAll();
  S.values = new Map();
  S.preview = null;
  S.ui = {};
  let snap;
  try {
    await rules.ensure('ply', gameLine());
    snap = await snapshot(S.view);
  } catch (e) {
    if (my === gen) UI.alert(`The rules engine failed: ${e.message}. Start a new game to retry.`);
    return;
  }
  if (my !== gen) return;
  if (snap.error) {
    UI.alert(snap.error);
    return;
  }
  S.snap = snap;
  const atEnd = S.view === S.moves.length;
  // A threefold repetition: ply's `query result` says `draw` too (protocol.md), but the
  // reason is the page's to name, so it is checked before the other rules.
  if (atEnd && !S.over && G().repetitions && S.startFen && G().repetitions(S.startFen, S.moves.map((m) => m.mv)) >= 3) {
    S.over = { result: '1/2-1/2', termination: 'adjudication', reason: 'draw by threefold repetition' };
  }
  if (atEnd && !S.over && snap.result !== 'none') S.over = endByRules(snap);
  if (atEnd && !S.over && S.maxPlies > 0 && S.moves.length >= S.maxPlies) {
    S.over = { result: '1/2-1/2', termination: 'adjudication', reason: `draw by adjudication after ${S.maxPlies} plies` };
  }
  UI.render();
  if (atEnd && !S.over && !S.paused) think(my);
  values(my, snap);
  analyse(my, snap);
}

// Checks a move with the rules engine; plays it if legal. Returns null or the error text.
async function playMove(mv, meta) {
  const lines = await rules.sync([posLine(S.view, [mv])]);
  const err = lines.find(isError);
  if (err) return errorText(err);
  S.moves = S.moves.slice(0, S.view);
  S.moves.push(Object.assign({ mv }, meta));
  S.view = S.moves.length;
  refresh();
  return null;
}

async function humanMove(mv) {
  mv = mv.trim();
  if (!mv) return;
  UI.alert('');
  if (G().fromText && S.snap) {
    try { mv = G().fromText(S.snap.fen, S.snap.legal, mv); } catch (e) { UI.alert(e.message); return; }
  }
  const atEnd = S.view === S.moves.length;
  if (atEnd && S.over) {
    UI.alert(`The game is over (${S.over.reason}). Take back, step back, or start a new game.`);
    return;
  }
  const seat = sideIndex(S.snap);
  if (atEnd && S.players[seat].kind === 'engine' && !S.paused) {
    UI.alert(`It is ${S.players[seat].engine}'s move (${sideName(seat)}). Use “Move now” or pause the engines.`);
    return;
  }
  if (!atEnd) S.over = null; // playing from an earlier position starts a new line
  const err = await playMove(mv, { by: 'human' });
  if (err) UI.alert(err);
}

function goLine(seat) {
  const lim = S.players[seat].limit;
  const v = Math.max(1, Number(lim.value) || 1);
  if (lim.type === 'depth') return `go depth ${Math.round(v)}`;
  if (lim.type === 'nodes') return `go nodes ${Math.round(v)}`;
  // Seconds a move, down to a hundredth.
  if (lim.type === 'movetime') return `go movetime ${Math.max(10, Math.round((Number(lim.value) || 1) * 1000))}`;
  let line = 'go';
  for (const i of [0, 1]) {
    const c = S.clocks[i];
    if (c) line += ` ${i ? 'btime' : 'wtime'} ${Math.max(0, Math.round(c.left))} ${i ? 'binc' : 'winc'} ${c.inc}`;
  }
  return line;
}

function engineSetup(p) {
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
    if (my !== gen) return;
    const pre = await eng.sync([posLine(S.moves.length)]);
    const err = pre.find(isError);
    if (err) { forfeit(seat, 'illegal', `refused the position: ${errorText(err)}`); return; }
    if (my !== gen) return;
    const t0 = performance.now();
    startClock(seat, t0);
    let last = {};
    const watchdog = timedOut(seat, my);
    const searching = eng.go(goLine(seat), (l) => {
      const info = parseInfo(l);
      if (!info) return;
      if (info.score || info.pv) last = info;
      UI.thinkingLine(seat, info, sideIndex(S.snap));
    });
    UI.controls();
    const out = await searching;
    const ms = performance.now() - t0;
    clearTimeout(watchdog.stop);
    clearTimeout(watchdog.give);
    stopClock();
    if (my !== gen) return;
    const c = S.clocks[seat];
    if (c) {
      c.left -= ms;
      if (c.left < -TIME_MARGIN) { forfeit(seat, 'time', `ran out of time (${fmtClock(c.left)})`); return; }
      c.left += c.inc;
    }
    const mv = (out[out.length - 1].split(/\s+/)[1] || '').trim();
    if (!mv || mv === '(none)') { forfeit(seat, 'nobestmove', `answered 'bestmove ${mv}' in a game that goes on`); return; }
    const meta = { by: 'engine', ms: Math.round(ms), depth: last.depth, nodes: last.nodes, clock_ms: c ? Math.round(c.left) : undefined };
    if (last.score) meta.score = `${last.score.kind} ${last.score.n}`;
    const bad = await playMove(mv, meta);
    if (bad) forfeit(seat, /malformed/.test(bad) ? 'malformed' : 'illegal', `played '${mv}': ${bad}`);
  } catch (e) {
    if (my === gen) forfeit(seat, 'crash', `failed: ${e.message}`);
  }
}

const TIME_MARGIN = 250;

// An engine with a move time or a clock that has not answered 2 s after its time is told to
// stop; 3 s later it forfeits and its process is replaced at the next use.
function timedOut(seat, my) {
  const lim = S.players[seat].limit;
  let allowed = null;
  if (lim.type === 'movetime') allowed = Number(lim.value) * 1000;
  else if (lim.type === 'clock' && S.clocks[seat]) allowed = Math.max(0, S.clocks[seat].left);
  if (allowed === null) return {};
  const t = {};
  t.stop = setTimeout(() => { if (my === gen) seats[seat].stop(); }, allowed + 2000);
  t.give = setTimeout(() => {
    if (my !== gen) return;
    forfeit(seat, 'nobestmove', `did not answer 'go' with 'bestmove', even after 'stop'`);
    seats[seat].close();
  }, allowed + 5000);
  return t;
}

function startClock(seat, t0) {
  stopClock();
  thinking = { seat, t0 };
  if (S.clocks[seat]) thinking.timer = setInterval(() => UI.clocks(), 100);
  UI.controls();
}

function stopClock() {
  if (thinking && thinking.timer) clearInterval(thinking.timer);
  thinking = null;
  UI.clocks();
  UI.controls();
}

// The value of every legal move of the shown position, from ply's solvers: each child
// position is searched with `go nodes N` and its score turned round to the mover's side.
async function values(my, snap) {
  UI.values();
  if (!S.showValues || !G().solved || snap.result !== 'none' || snap.legal.length > 64) return;
  const budgets = S.game === 'connect4' ? [2e6, 2e7, 2e8] : [1e6, 1e6];
  try {
    await valuer.ensure('ply', gameLine());
    for (let pass = 0; pass < budgets.length; pass++) {
      for (const mv of snap.legal) {
        if (my !== gen) return;
        const known = S.values.get(mv);
        if (known && known.exact) continue;
        await valuer.sync([posLine(snap.ply, [mv])]);
        if (my !== gen) return;
        let last = null;
        await valuer.go(`go nodes ${budgets[pass]}`, (l) => {
          const i = parseInfo(l);
          if (i && i.score) last = i;
        });
        if (my !== gen) return;
        S.values.set(mv, childValue(last, snap));
        UI.values();
      }
      if ([...S.values.values()].every((v) => v.exact)) return;
      // Teeko's table is built in the background at first use: give it a moment.
      if (S.game !== 'connect4') await new Promise((r) => setTimeout(r, 1500));
    }
  } catch (e) {
    if (my === gen) UI.alert(`Move values stopped: ${e.message}`);
  }
}

// The mover's value of a move from the score of the position it leads to (from the
// opponent's side): won/drawn/lost, with the mover's moves until the end, this one included.
function childValue(info, snap) {
  if (!info || !info.score) return { cls: 'unknown', label: '?', title: 'no score', exact: false };
  const s = info.score;
  const misere = S.game === 'nim' && (S.params.misere === true || S.params.misere === 'true');
  const me = sideName(sideIndex(snap));
  let v;
  if (s.kind === 'mate') {
    let win, n;
    if (s.n === 0 && info.wdl && info.wdl[0] === 1000) { win = false; n = 1; } else if (s.n <= 0) { win = true; n = misere ? -s.n : 1 - s.n; } else { win = false; n = misere ? s.n + 1 : s.n; }
    const bound = s.bound ? ' at most' : '';
    v = { cls: win ? 'win' : 'loss', n, exact: true, label: `${win ? 'W' : 'L'}${n}`, title: `${me} ${win ? 'wins' : 'loses'} in${bound} ${n} move${n === 1 ? '' : 's'}, this one included` };
  } else if (s.n === 0 && proven(info, true)) {
    v = { cls: 'draw', n: 0, exact: true, label: 'D', title: 'draw with best play' };
  } else {
    return { cls: 'unknown', label: '?', exact: false, title: `not solved yet (heuristic ${(-s.n / 100).toFixed(2)} for ${me})` };
  }
  if (S.game === 'connect4') {
    // Pons' score: from the mover's side, (cells + 1 - plies before the winning disc) / 2.
    const p = snap.pos, cells = p.w * p.h, before = v.cls === 'win' ? p.discs + 2 * (v.n - 1) : p.discs + 2 * v.n - 1;
    const score = v.cls === 'draw' ? 0 : Math.floor((cells + 1 - before) / 2) * (v.cls === 'win' ? 1 : -1);
    v.label = score > 0 ? `+${score}` : String(score);
    v.title += ` (score ${v.label})`;
  }
  return v;
}

async function analyse(my, snap) {
  UI.analysis(null);
  if (!S.analyse || snap.result !== 'none') return;
  const name = $('#an-engine').value;
  try {
    await analyst.ensure(name, gameLine(), []);
    if (my !== gen) return;
    const pre = await analyst.sync([posLine(snap.ply)]);
    const err = pre.find(isError);
    if (err) { UI.alert(`${name}: ${errorText(err)}`); return; }
    if (my !== gen) return;
    await analyst.go('go infinite', (l) => {
      const info = parseInfo(l);
      if (info && my === gen) UI.analysis(info, sideIndex(snap), name);
    });
  } catch (e) {
    if (my === gen) UI.alert(`Analysis stopped: ${e.message}`);
  }
}

// ---------------------------------------------------------------- actions

function readPlayers() {
  return [0, 1].map((i) => {
    const who = $(`#seat${i}`).value;
    if (who === 'human') return { kind: 'human' };
    return {
      kind: 'engine',
      engine: who,
      limit: { type: $(`#limit${i}`).value, value: $(`#limitv${i}`).value },
      solver: $(`#solver${i}`).checked,
    };
  });
}

function readParams() {
  const out = {};
  for (const p of G().params) {
    const input = $(`#param-${p.key}`);
    out[p.key] = p.type === 'bool' ? input.checked : input.value.trim();
  }
  return out;
}

// "startpos", a position, "position fen .. moves ..", or "startpos moves ..".
function parseStart(text) {
  let t = text.trim().replace(/^position\s+/, '');
  let moves = [];
  const at = t.search(/(^|\s)moves(\s|$)/);
  if (at >= 0) {
    moves = t.slice(at).trim().split(/\s+/).slice(1);
    t = t.slice(0, at).trim();
  }
  if (t === '' || t === 'startpos') return { base: null, moves };
  return { base: t.replace(/^fen\s+/, ''), moves };
}

async function newGame(opts) {
  gen++;
  stopAll();
  UI.alert('');
  const o = opts || {};
  S.game = o.game || $('#game').value;
  S.params = o.params || readParams();
  if (G().prepare) S.params = G().prepare(S.params);
  S.players = o.players || readPlayers();
  S.maxPlies = Number($('#maxplies').value) || 0;
  const start = o.start || parseStart($('#startpos').value);
  S.base = start.base;
  S.startFen = null;
  S.moves = (o.moves || start.moves.map((mv) => ({ mv, by: 'setup' })));
  S.view = o.view !== undefined ? o.view : S.moves.length;
  S.over = o.over || null;
  S.started = Date.now();
  S.clocks = S.players.map((p) => {
    if (!p || p.kind !== 'engine' || p.limit.type !== 'clock') return null;
    const [base, inc] = String(p.limit.value).split('+').map(Number);
    return { left: (base || 1) * 60000, inc: Math.round((inc || 0) * 1000), base: (base || 1) * 60000 };
  });
  for (let i = 0; i < 2; i++) if (S.players[i].kind !== 'engine') seats[i].close();
  try {
    await rules.ensure('ply', gameLine());
    const lines = await rules.sync([posLine(S.moves.length)]);
    const err = lines.find(isError);
    if (err) {
      UI.alert(`That start position was refused: ${errorText(err)}`);
      S.base = null;
      S.moves = [];
      S.view = 0;
    }
    const first = await rules.sync([posLine(0), 'query fen']);
    const fen = first.find((l) => l.startsWith('response '));
    S.startFen = fen ? fen.slice(9) : null;
    for (const i of [0, 1]) {
      const p = S.players[i];
      if (p.kind === 'engine') await seats[i].ensure(p.engine, gameLine(), engineSetup(p));
    }
  } catch (e) {
    S.paused = true;
    UI.alert(`Cannot start the game: ${e.message}`);
  }
  document.body.dataset.game = S.game;
  // The last game's engine lines, a preview of one, its status and its legal moves do not
  // belong to this game: they are cleared until the rules engine describes the new start.
  $('#think0').hidden = $('#think1').hidden = true;
  UI.endPreview();
  S.snap = null;
  UI.status();
  UI.legal();
  $('#pgnrow').hidden = !G().toPgn;
  UI.bar(0.5);
  // Counts games begun, so a script can tell a new game from the last one.
  document.body.dataset.games = Number(document.body.dataset.games || 0) + 1;
  UI.moves();
  refresh();
}

function takeBack() {
  if (!S.moves.length) return;
  S.view = S.moves.length;
  let n = 1;
  // Against an engine, take back to the person's own turn.
  const humans = S.players.filter((p) => p.kind === 'human').length;
  if (humans === 1 && S.moves.length >= 2) {
    const last = S.moves[S.moves.length - 1];
    if (last.by === 'engine') n = 2;
  }
  if (humans === 0) S.paused = true;
  S.moves = S.moves.slice(0, S.moves.length - n);
  S.view = S.moves.length;
  S.over = null;
  for (let i = 0; i < 2; i++) if (S.clocks[i]) S.clocks[i].left = Math.max(S.clocks[i].left, 0);
  UI.moves();
  refresh();
}

function step(to) {
  const v = Math.max(0, Math.min(S.moves.length, to));
  if (v === S.view) return;
  S.view = v;
  refresh();
}

function moveNow() {
  for (const e of seats) e.stop();
}

// ---------------------------------------------------------------- records

async function record() {
  const over = S.over;
  const end = await snapshot(S.moves.length);
  const rec = {
    match: `ply gui ${S.game} ${G().paramLine(S.params)}`.trim(),
    index: 0, round: 1, pair: 0,
    game: S.game,
    params: G().paramLine(S.params),
    players: [playerName(0), playerName(1)],
    p1_player: 0,
    opening: S.base ? { fen: S.base, moves: [] } : { moves: [] },
    moves: S.moves.map((m) => {
      const r = { mv: m.mv, ms: m.ms || 0 };
      for (const k of ['depth', 'score', 'nodes', 'clock_ms']) if (m[k] !== undefined) r[k] = m[k];
      return r;
    }),
    result: over ? over.result : '*',
    termination: over ? over.termination : 'adjudication',
    reason: over ? over.reason : 'unfinished: exported from ply gui during play',
    final_fen: end.fen || '',
    started_ms: S.started,
    duration_ms: Date.now() - S.started,
    referee_ms: 0,
  };
  if (over && over.culprit !== undefined) rec.culprit = over.culprit;
  return rec;
}

// The game as PGN (chess): SAN moves, the engines' scores as comments.
function pgn() {
  if (!S.startFen) throw new Error('the start position is not known (the rules engine did not answer); start a new game');
  const over = S.over;
  return G().toPgn({
    white: playerName(0), black: playerName(1),
    result: over ? over.result : '*',
    startFen: S.startFen,
    chess960: S.params.chess960 === true || S.params.chess960 === 'true',
    moves: S.moves,
    reason: over ? over.reason : '',
    termination: over ? over.termination : null,
    date: new Date(S.started),
  });
}

function download(text, name, type) {
  const a = document.createElement('a');
  a.href = URL.createObjectURL(new Blob([text], { type }));
  a.download = name;
  document.body.appendChild(a);
  a.click();
  setTimeout(() => { URL.revokeObjectURL(a.href); a.remove(); }, 1000);
}

const fileStamp = () => new Date(S.started).toISOString().replace(/[:.]/g, '-');

// Reads `key=value ...` into the form values of a game's parameters.
function paramsFromLine(game, line) {
  const out = {};
  for (const p of GAMES[game].params) out[p.key] = p.def;
  for (const w of (line || '').split(/\s+/).filter(Boolean)) {
    const [k, v] = w.split('=');
    if (game === 'nim' && (k === 'length' || k === 'heaps')) out.heaps = v;
    else if (k in out) out[k] = typeof out[k] === 'boolean' ? v === 'true' : v;
    else throw new Error(`unknown parameter '${k}' for ${game}`);
  }
  return out;
}

async function loadRecord(text, which) {
  const lines = text.split('\n').map((l) => l.trim()).filter(Boolean);
  if (!lines.length) throw new Error('paste a record (one JSON line per game) or choose a file');
  if (lines[0].startsWith('[')) throw new Error('that is PGN, which the page writes but does not read; load the JSON Lines record (Download record) instead');
  const i = Math.max(1, Math.min(lines.length, Number(which) || 1)) - 1;
  let r;
  try { r = JSON.parse(lines[i]); } catch (e) { throw new Error(`line ${i + 1} is not JSON: ${e.message}`); }
  if (!r || !GAMES[r.game]) throw new Error(`line ${i + 1}: unknown game '${r && r.game}'`);
  if (!Array.isArray(r.moves)) throw new Error(`line ${i + 1}: no moves list`);
  const params = paramsFromLine(r.game, r.params);
  const opening = r.opening || {};
  const moves = (opening.moves || []).map((mv) => ({ mv: String(mv), by: 'setup' }))
    .concat(r.moves.map((m) => ({ mv: String(m.mv), ms: m.ms, depth: m.depth, score: m.score, nodes: m.nodes, clock_ms: m.clock_ms, by: 'record' })));
  UI.setForm(r.game, params);
  const humans = [{ kind: 'human' }, { kind: 'human' }];
  const over = r.termination && r.termination !== 'rules' && r.result && r.result !== '*'
    ? { result: r.result, termination: r.termination, reason: r.reason || r.termination, culprit: r.culprit } : null;
  await newGame({ game: r.game, params, players: humans, start: { base: opening.fen || null, moves: [] }, moves, view: 0, over });
  UI.alert(`Loaded game ${i + 1} of ${lines.length}: ${r.players ? r.players.join(' vs ') : ''} ${r.result || ''}. Step through it with ▶ or the arrow keys.`, 'info');
}

// ---------------------------------------------------------------- the page

const UI = {
  connection(ok, why) {
    const c = $('#conn');
    c.textContent = ok ? 'connected' : `disconnected${why ? `: ${why}` : ''}`;
    c.className = ok ? 'ok' : 'bad';
    if (!ok) UI.alert(`No connection to the ply gui server${why ? ` (${why})` : ''}. Restart \`ply gui\` and reload the page.`);
  },

  alert(msg, kind) {
    const a = $('#alert');
    a.textContent = msg;
    a.className = msg ? (kind || 'error') : '';
  },

  buildForm(hello) {
    const gsel = $('#game');
    gsel.textContent = '';
    for (const name of hello.games) {
      if (!GAMES[name]) continue;
      const o = document.createElement('option');
      o.value = name;
      o.textContent = GAMES[name].title;
      gsel.appendChild(o);
    }
    gsel.value = S.game;
    gsel.addEventListener('change', () => { UI.params(); UI.seatChoices(); });
    for (const i of [0, 1]) {
      $(`#seat${i}`).addEventListener('change', () => UI.seatChoices());
      $(`#limit${i}`).addEventListener('change', () => UI.limitDefault(i));
    }
    const an = $('#an-engine');
    for (const e of hello.engines) {
      const o = document.createElement('option');
      o.value = e.name;
      o.textContent = e.name;
      an.appendChild(o);
    }
    UI.params();
    UI.seatChoices();
  },

  // The engines that can play the chosen game.
  enginesFor(game) {
    return conn.hello.engines.filter((e) => !e.games || e.games.includes(game));
  },

  seatChoices() {
    const game = $('#game').value;
    for (const i of [0, 1]) {
      const sel = $(`#seat${i}`), was = sel.value;
      sel.textContent = '';
      const h = document.createElement('option');
      h.value = 'human';
      h.textContent = 'a person';
      sel.appendChild(h);
      for (const e of UI.enginesFor(game)) {
        const o = document.createElement('option');
        o.value = e.name;
        o.textContent = `engine: ${e.name}`;
        sel.appendChild(o);
      }
      sel.value = [...sel.options].some((o) => o.value === was) ? was : (i === 1 ? 'ply' : 'human');
      const eng = sel.value !== 'human';
      $(`#limits${i}`).hidden = !eng;
      const def = conn.hello.engines.find((e) => e.name === sel.value);
      $(`#solverl${i}`).hidden = !(def && def.proto === 'ply' && GAMES[game].solved);
    }
  },

  limitDefault(i) {
    const t = $(`#limit${i}`).value;
    $(`#limitv${i}`).value = { depth: 8, nodes: 100000, movetime: 1, clock: '1+0.5' }[t];
  },

  params() {
    const game = $('#game').value, box = $('#params');
    box.textContent = '';
    for (const p of GAMES[game].params) {
      const lab = document.createElement('label');
      const input = document.createElement('input');
      input.id = `param-${p.key}`;
      if (p.type === 'bool') {
        input.type = 'checkbox';
        input.checked = p.def;
        lab.append(input, ` ${p.label}`);
      } else {
        input.type = p.type === 'int' ? 'number' : 'text';
        if (p.min !== undefined) { input.min = p.min; input.max = p.max; }
        input.value = p.def;
        lab.append(`${p.label} `, input);
      }
      box.appendChild(lab);
    }
    $('#maxplies').value = game === 'teeko' ? 300 : 0;
  },

  setForm(game, params) {
    $('#game').value = game;
    UI.params();
    UI.seatChoices();
    for (const p of GAMES[game].params) {
      const input = $(`#param-${p.key}`);
      if (p.type === 'bool') input.checked = params[p.key] === true || params[p.key] === 'true';
      else input.value = params[p.key];
    }
  },

  render() {
    UI.status();
    UI.board();
    UI.moves();
    UI.legal();
    UI.players();
    UI.clocks();
    UI.controls();
    $('#fen').value = S.snap ? S.snap.fen : '';
  },

  status() {
    const st = $('#status');
    const snap = S.snap;
    // Between games (no snapshot yet) the last game's `over` must not linger.
    st.className = '';
    if (!snap) { st.textContent = ''; return; }
    const atEnd = S.view === S.moves.length;
    if (atEnd && S.over) {
      st.textContent = `${S.over.result === '1/2-1/2' ? 'Draw' : 'Game over'} — ${S.over.reason}`;
      st.className = 'over';
    } else if (!atEnd && snap.result !== 'none') {
      st.textContent = `Move ${S.view} of ${S.moves.length} (${endByRules(snap).reason})`;
    } else {
      const i = sideIndex(snap), p = S.players[i];
      const who = p && p.kind === 'engine' ? ` (${p.engine}${S.paused ? ', paused' : ''})` : '';
      const where = atEnd ? '' : ` — viewing move ${S.view} of ${S.moves.length}`;
      st.textContent = `${sideName(i)} to move${who}${where}`;
    }
  },

  board() {
    const snap = S.snap;
    if (!snap) return;
    const pos = S.preview ? S.preview.pos : snap.pos;
    const last = S.preview ? S.preview.last : (S.view > 0 ? S.moves[S.view - 1].mv : null);
    const view = {
      pos, params: S.params,
      legal: new Set(S.preview ? [] : snap.legal),
      values: S.preview || !S.showValues ? new Map() : S.values,
      flipped: S.flipped, last, hint: S.preview ? null : S.hint,
      ui: S.ui,
      play: (mv) => { if (!S.preview) humanMove(mv); },
      redraw: () => UI.board(),
    };
    const host = $('#board');
    host.classList.toggle('preview', !!S.preview);
    // Redrawing replaces the cells: keep the keyboard focus on the same one.
    const active = document.activeElement;
    const focused = active && host.contains(active) ? active.getAttribute('aria-label') : null;
    G().draw(host, view);
    if (focused) {
      const again = [...host.querySelectorAll('[role=button]')].find((e) => e.getAttribute('aria-label') === focused);
      if (again) again.focus();
    }
  },

  values() {
    UI.board();
    UI.legal();
    const pending = S.showValues && G().solved && S.snap && S.snap.result === 'none' && S.values.size < S.snap.legal.length;
    $('#values-state').textContent = !S.showValues ? '' : pending ? `solving ${S.values.size}/${S.snap.legal.length}…` : '';
  },

  legal() {
    const box = $('#legal');
    box.textContent = '';
    const snap = S.snap;
    if (!snap || S.preview) return;
    const list = snap.legal.slice(0, 200);
    const names = G().names ? list.map((mv) => G().names(snap.fen, [mv])[0]) : null;
    for (const [k, mv] of list.entries()) {
      const b = document.createElement('button');
      b.type = 'button';
      b.className = 'mv';
      b.dataset.mv = mv;
      b.textContent = names ? names[k] : mv;
      b.title = names ? `${mv}` : G().moveWord(mv);
      const v = S.showValues ? S.values.get(mv) : null;
      if (v) {
        const s = document.createElement('span');
        s.className = `val ${v.cls}`;
        s.textContent = v.label;
        s.title = v.title;
        b.appendChild(s);
        b.title += ` — ${v.title}`;
      }
      b.addEventListener('click', () => humanMove(mv));
      b.addEventListener('mouseenter', () => { S.hint = mv; UI.board(); });
      b.addEventListener('mouseleave', () => { S.hint = null; UI.board(); });
      box.appendChild(b);
    }
    if (snap.legal.length > list.length) box.append(` … and ${snap.legal.length - list.length} more (type them)`);
  },

  moves() {
    const ol = $('#movelist');
    ol.textContent = '';
    const labels = G().labels && S.startFen ? G().labels(S.startFen, S.moves.map((m) => m.mv)) : null;
    const start = document.createElement('li');
    const sb = document.createElement('button');
    sb.type = 'button';
    sb.textContent = S.base ? 'start (set position)' : 'start';
    sb.className = S.view === 0 ? 'current' : '';
    sb.addEventListener('click', () => step(0));
    start.appendChild(sb);
    ol.appendChild(start);
    if (labels && G().pairOffset(S.startFen)) ol.appendChild(document.createElement('li'));
    ol.classList.toggle('pairs', !!labels);
    S.moves.forEach((m, i) => {
      const li = document.createElement('li');
      const b = document.createElement('button');
      b.type = 'button';
      b.className = S.view === i + 1 ? 'current' : '';
      b.textContent = labels ? labels[i] : `${i + 1}. ${m.mv}`;
      b.dataset.mv = m.mv;
      const meta = [];
      if (m.score) meta.push(G().scoreText ? G().scoreText(m.score) : m.score.replace('mate ', '#').replace('cp ', ''));
      if (m.depth) meta.push(`d${m.depth}`);
      if (m.ms !== undefined && m.by === 'engine') meta.push(`${(m.ms / 1000).toFixed(1)}s`);
      if (meta.length) {
        const s = document.createElement('small');
        s.textContent = ` ${meta.join(' ')}`;
        b.appendChild(s);
      }
      b.addEventListener('click', () => step(i + 1));
      li.appendChild(b);
      ol.appendChild(li);
    });
    if (S.over) {
      const li = document.createElement('li');
      li.className = 'result';
      li.textContent = `${S.over.result} {${S.over.reason}}`;
      ol.appendChild(li);
    }
    // Scroll the list, not the page, to the current move.
    const cur = ol.querySelector('.current');
    if (cur) {
      const top = cur.offsetTop - ol.offsetTop;
      if (top < ol.scrollTop || top > ol.scrollTop + ol.clientHeight - cur.offsetHeight) ol.scrollTop = top - ol.clientHeight / 2;
    }
  },

  players() {
    const order = S.flipped ? [0, 1] : [1, 0];
    order.forEach((i, k) => {
      const bar = $(k === 0 ? '#bar-top' : '#bar-bottom');
      const p = S.players[i];
      const who = !p || p.kind === 'human' ? 'person' : `${p.engine}, ${p.limit.type} ${p.limit.value}`;
      bar.querySelector('.side').textContent = sideName(i);
      bar.querySelector('.side').className = `side side${i}`;
      bar.querySelector('.who').textContent = who;
      bar.classList.toggle('tomove', !!S.snap && sideIndex(S.snap) === i && !S.over && S.view === S.moves.length);
      bar.dataset.seat = i;
    });
  },

  clocks() {
    for (const bar of [$('#bar-top'), $('#bar-bottom')]) {
      const i = Number(bar.dataset.seat), c = S.clocks[i], el = bar.querySelector('.clock');
      if (!c) { el.textContent = ''; continue; }
      let left = c.left;
      if (thinking && thinking.seat === i) left -= performance.now() - thinking.t0;
      el.textContent = fmtClock(left);
      el.classList.toggle('low', left < 10000);
    }
  },

  controls() {
    const busy = seats.some((e) => e.busy());
    $('#movenow').disabled = !busy;
    $('#pause').textContent = S.paused ? 'Resume engines' : 'Pause engines';
    $('#first').disabled = $('#prev').disabled = S.view === 0;
    $('#next').disabled = $('#last').disabled = S.view === S.moves.length;
    $('#takeback').disabled = S.moves.length === 0;
  },

  thinkingLine(seat, info, stm) {
    const box = $(`#think${seat}`);
    box.hidden = false;
    const p = S.players[seat];
    box.querySelector('.who').textContent = `${p.engine} (${sideName(seat)})`;
    UI.fillInfo(box, info, stm, (conn.hello.engines.find((e) => e.name === p.engine) || {}).proto === 'ply', S.moves.length);
  },

  analysis(info, stm, name) {
    const box = $('#analysis');
    if (!info) { box.querySelector('.who').textContent = S.analyse ? 'starting…' : ''; box.querySelector('.line').textContent = ''; return; }
    box.querySelector('.who').textContent = `${name}, infinite`;
    const def = conn.hello.engines.find((e) => e.name === name) || {};
    UI.fillInfo(box, info, stm, def.proto === 'ply', S.view);
  },

  // `from`: the ply of the searched position, for previews of the principal variation.
  fillInfo(box, info, stm, ply, from) {
    if (info.score) {
      const sc = box.querySelector('.score');
      sc.textContent = scoreWords(info, sideName(stm), ply) + (proven(info, ply) ? ' (proven)' : '');
      UI.bar(barShare(info, stm));
    }
    const line = [];
    if (info.depth !== undefined) line.push(`depth ${info.depth}`);
    if (info.nodes !== undefined) line.push(`${fmtNodes(info.nodes)} nodes`);
    if (info.nps !== undefined) line.push(`${fmtNodes(info.nps)} nodes/s`);
    if (info.tbhits) line.push('table');
    if (line.length) box.querySelector('.line').textContent = line.join(' · ');
    if (info.pv) UI.pv(box.querySelector('.pv'), info.pv, from);
  },

  pv(host, pv, from) {
    // The hovered move may be replaced without a mouseleave: its preview ends with it.
    UI.endPreview();
    host.textContent = '';
    const fen = S.snap && S.snap.ply === from ? S.snap.fen : null;
    const names = fen && G().names ? G().names(fen, pv.slice(0, 24)) : null;
    pv.slice(0, 24).forEach((mv, k) => {
      const s = document.createElement('button');
      s.type = 'button';
      s.className = 'pvmove';
      s.textContent = names ? names[k] : mv;
      s.dataset.mv = mv;
      s.title = 'the board after this move of the line';
      const show = () => UI.previewLine(from, pv.slice(0, k + 1));
      s.addEventListener('mouseenter', show);
      s.addEventListener('focus', show);
      s.addEventListener('mouseleave', UI.endPreview);
      s.addEventListener('blur', UI.endPreview);
      host.appendChild(s);
    });
  },

  // Shows the position after `line` from the current position (asked of the rules engine).
  async previewLine(base, line) {
    const my = ++previewGen;
    const lines = await rules.sync([posLine(base, line), 'query fen']);
    const fen = lines.find((l) => l.startsWith('response '));
    // A preview ended (or replaced) while the rules engine answered is not shown.
    if (!fen || lines.some(isError) || my !== previewGen) return;
    S.preview = { pos: G().parse(fen.slice(9), S.params), last: line[line.length - 1] };
    UI.board();
  },

  endPreview() {
    previewGen++;
    if (!S.preview) return;
    S.preview = null;
    UI.render();
  },

  bar(share) {
    $('#evalbar').classList.toggle('flipped', S.flipped);
    $('#evalbar .p1').style.height = `${Math.round(share * 100)}%`;
    $('#evalbar').title = `${sideName(0)} ${Math.round(share * 100)}%`;
  },
};

// ---------------------------------------------------------------- wiring

function copyText(text, what) {
  const done = () => UI.alert(`${what} copied.`, 'info');
  if (navigator.clipboard && window.isSecureContext) {
    navigator.clipboard.writeText(text).then(done, () => UI.alert(`Select the ${what.toLowerCase()} and copy it yourself.`, 'info'));
  } else {
    UI.alert(`Select the ${what.toLowerCase()} and copy it yourself (the browser allows copying only on localhost).`, 'info');
  }
}

function wire() {
  $('#newgame').addEventListener('submit', (e) => { e.preventDefault(); S.paused = false; newGame(); });
  $('#swap').addEventListener('click', () => {
    const [a, b] = [$('#seat0').value, $('#seat1').value];
    $('#seat0').value = b;
    $('#seat1').value = a;
    UI.seatChoices();
  });
  $('#moveform').addEventListener('submit', (e) => {
    e.preventDefault();
    const input = $('#moveinput');
    humanMove(input.value);
    input.value = '';
  });
  $('#first').addEventListener('click', () => step(0));
  $('#prev').addEventListener('click', () => step(S.view - 1));
  $('#next').addEventListener('click', () => step(S.view + 1));
  $('#last').addEventListener('click', () => step(S.moves.length));
  $('#takeback').addEventListener('click', takeBack);
  $('#flip').addEventListener('click', () => {
    S.flipped = !S.flipped;
    $('#evalbar').classList.toggle('flipped', S.flipped);
    UI.render();
  });
  $('#movenow').addEventListener('click', moveNow);
  $('#pause').addEventListener('click', () => { S.paused = !S.paused; refresh(); });
  $('#showvalues').addEventListener('change', (e) => { S.showValues = e.target.checked; refresh(); });
  $('#analyse').addEventListener('change', (e) => {
    S.analyse = e.target.checked;
    $('#analysis').hidden = !S.analyse;
    if (!S.analyse) analyst.stop();
    refresh();
  });
  $('#an-engine').addEventListener('change', () => { if (S.analyse) refresh(); });
  $('#copyfen').addEventListener('click', () => copyText($('#fen').value, 'Position'));
  $('#export').addEventListener('click', async () => {
    const text = JSON.stringify(await record());
    $('#recordtext').value = text;
    download(`${text}\n`, `ply-${S.game}-${fileStamp()}.jsonl`, 'application/jsonl');
  });
  $('#pgn').addEventListener('click', () => {
    try {
      const text = pgn();
      $('#recordtext').value = text;
      download(text, `ply-${S.game}-${fileStamp()}.pgn`, 'application/x-chess-pgn');
    } catch (e) { UI.alert(`No PGN: ${e.message}`); }
  });
  $('#copypgn').addEventListener('click', () => {
    try {
      const text = pgn();
      $('#recordtext').value = text;
      copyText(text, 'PGN');
    } catch (e) { UI.alert(`No PGN: ${e.message}`); }
  });
  $('#copyrecord').addEventListener('click', async () => {
    const text = JSON.stringify(await record());
    $('#recordtext').value = text;
    copyText(text, 'Record');
  });
  $('#load').addEventListener('click', () => loadRecord($('#recordtext').value, $('#recordno').value).catch((e) => UI.alert(`Cannot load the record: ${e.message}`)));
  $('#recordfile').addEventListener('change', async (e) => {
    const f = e.target.files[0];
    if (!f) return;
    if (f.size > 16 << 20) { UI.alert('That file is larger than 16 MB.'); return; }
    $('#recordtext').value = await f.text();
    loadRecord($('#recordtext').value, $('#recordno').value).catch((err) => UI.alert(`Cannot load the record: ${err.message}`));
  });
  document.addEventListener('keydown', (e) => {
    const t = e.target;
    if (t && (t.tagName === 'INPUT' || t.tagName === 'TEXTAREA' || t.tagName === 'SELECT')) return;
    if (e.ctrlKey || e.metaKey || e.altKey) return;
    const keys = {
      ArrowLeft: () => step(S.view - 1), ArrowRight: () => step(S.view + 1),
      Home: () => step(0), End: () => step(S.moves.length),
      f: () => $('#flip').click(), u: takeBack, m: () => $('#moveinput').focus(),
    };
    if (keys[e.key]) { e.preventDefault(); keys[e.key](); }
  });
  for (const i of [0, 1]) seats[i].onExit = (reason, stderr) => {
    if (S.view === S.moves.length && !S.over && S.players[i].kind === 'engine') {
      forfeit(i, 'crash', `crashed: ${reason}`);
      if (stderr) UI.alert(`${S.players[i].engine} said on stderr: ${stderr.slice(-400)}`);
    }
  };
  rules.onExit = (reason) => UI.alert(`The rules engine stopped (${reason}); it restarts with the next action.`);
}

async function main() {
  wire();
  conn.open();
  const hello = await conn.ready;
  UI.buildForm(hello);
  $('#version').textContent = `ply ${hello.version}`;
  newGame();
}

main();
