// Games in and out: the referee's JSON Lines record (written, and read back), PGN (written
// and read by the server's rules: src/gui/ask/pgn.rs), downloads and the clipboard.
import { ask } from './net.js';
import { S, at, playerName, specs, defaultText } from './state.js';
import { BOARDS } from './boards/registry.js';
import { UI } from './ui.js';
import { newGame } from './newgame.js';

const $ = (sel) => document.querySelector(sel);

// The game as a referee record (src/referee/records.rs): every move with what is known of
// it (time, depth, score, nodes, the mover's clock after it).
export async function record() {
  const over = S.over;
  const end = await ask({ q: 'position', at: at(S.moves.length) });
  const rec = {
    match: `ply gui ${S.game} ${S.paramLine}`.trim(),
    index: 0, round: 1, pair: 0,
    game: S.game,
    params: end.params,
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
    final_fen: end.fen,
    started_ms: S.started,
    duration_ms: Date.now() - S.started,
    referee_ms: 0,
  };
  if (over && over.culprit !== undefined) rec.culprit = over.culprit;
  return rec;
}

// The game as PGN, written by the server (src/gui/ask/pgn.rs) from the moves and what is
// known of each: time, depth, score, and the mover's clock after it.
export async function pgn() {
  const over = S.over;
  const tc = S.clocks.map((c) => (c ? `${Math.round(c.base / 1000)}+${c.inc / 1000}` : null));
  const game = {
    params: S.paramLine,
    fen: S.base,
    moves: S.moves.map((m) => {
      const r = { mv: m.mv, ms: m.ms || 0 };
      for (const k of ['depth', 'score', 'clock_ms']) if (m[k] !== undefined) r[k] = m[k];
      return r;
    }),
    white: S.names ? S.names[0] : playerName(0),
    black: S.names ? S.names[1] : playerName(1),
    result: over ? over.result : '*',
    termination: over ? over.termination : null,
    reason: over ? over.reason : '',
    time_control: tc[0] && tc[0] === tc[1] ? tc[0] : null,
    started_ms: S.started,
  };
  return (await ask({ q: 'pgn', game })).pgn;
}

export function download(text, name, type) {
  const a = document.createElement('a');
  a.href = URL.createObjectURL(new Blob([text], { type }));
  a.download = name;
  document.body.appendChild(a);
  a.click();
  setTimeout(() => { URL.revokeObjectURL(a.href); a.remove(); }, 1000);
}

export const fileStamp = () => new Date(S.started).toISOString().replace(/[:.]/g, '-');

export function copyText(text, what) {
  const done = () => UI.alert(`${what} copied.`, 'info');
  if (navigator.clipboard && window.isSecureContext) {
    navigator.clipboard.writeText(text).then(done, () => UI.alert(`Select the ${what.toLowerCase()} and copy it yourself.`, 'info'));
  } else {
    UI.alert(`Select the ${what.toLowerCase()} and copy it yourself (the browser allows copying only on localhost).`, 'info');
  }
}

// Reads `key=value ...` into the form values of a game's parameters.
function paramsFrom(game, line) {
  const out = {};
  for (const p of specs(game)) out[p.key] = p.kind.type === 'check' ? p.kind.default : defaultText(p);
  for (const w of (line || '').split(/\s+/).filter(Boolean)) {
    const [k, v] = w.split('=');
    if (!(k in out)) throw new Error(`unknown parameter '${k}' for ${game}`);
    out[k] = typeof out[k] === 'boolean' ? v === 'true' : v;
  }
  return out;
}

const humans = () => [{ kind: 'human' }, { kind: 'human' }];

// Loads record number `which` of a JSON Lines text (the page's or the referee's), or
// reads a PGN text; a record whose moves the rules refuse changes nothing.
export async function load(text, which) {
  const t = text.trim();
  if (!t) throw new Error('paste a record (one JSON line per game) or PGN, or choose a file');
  if (t.startsWith('[') || /^1\.\s*\S/.test(t)) return readPgn(t);
  const lines = t.split('\n').map((l) => l.trim()).filter(Boolean);
  const i = Math.max(1, Math.min(lines.length, Number(which) || 1)) - 1;
  let r;
  try { r = JSON.parse(lines[i]); } catch (e) { throw new Error(`line ${i + 1} is neither JSON nor PGN: ${e.message}`); }
  if (!r || !BOARDS[r.game]) throw new Error(`line ${i + 1}: unknown game '${r && r.game}'`);
  if (!Array.isArray(r.moves)) throw new Error(`line ${i + 1}: no moves list`);
  const params = paramsFrom(r.game, r.params);
  const opening = r.opening || {};
  const moves = (opening.moves || []).map((mv) => ({ mv: String(mv), by: 'setup' }))
    .concat(r.moves.map((m) => ({ mv: String(m.mv), ms: m.ms, depth: m.depth, score: m.score, nodes: m.nodes, clock_ms: m.clock_ms, by: 'record' })));
  const over = r.termination && r.termination !== 'rules' && r.result && r.result !== '*'
    ? { result: r.result, termination: r.termination, reason: r.reason || r.termination, culprit: r.culprit } : null;
  const refused = await newGame({ game: r.game, params, players: humans(), start: { base: opening.fen || null, moves: [] }, moves, view: 0, over });
  if (refused) throw new Error(refused);
  UI.alert(`Loaded game ${i + 1} of ${lines.length}: ${r.players ? r.players.join(' vs ') : ''} ${r.result || ''}. Step through it with ▶ or the arrow keys.`, 'info');
}

// A PGN text goes to the server in parts (a message is at most 64 KiB); a file of several
// games lists them to choose from.
async function readPgn(text) {
  const enc = new TextEncoder();
  let part = 16384, sent = 0, list = null;
  while (sent < text.length || list === null) {
    let chunk = text.slice(sent, sent + part);
    while (enc.encode(JSON.stringify(chunk)).length > 48000) { part = Math.floor(part / 2); chunk = text.slice(sent, sent + part); }
    const last = sent + chunk.length >= text.length;
    const a = await ask({ q: 'pgn_part', text: chunk, first: sent === 0, last });
    sent += chunk.length;
    if (last) list = a;
  }
  showPgnList(list);
  if (list.count === 1) await loadPgnGame(1);
  else UI.alert(`${list.count} games in that PGN: choose one and press “Load game”.`, 'info');
}

function showPgnList(list) {
  const box = $('#pgngames'), sel = $('#pgnpick');
  box.hidden = list.count < 2;
  sel.textContent = '';
  for (const g of list.games) {
    const o = document.createElement('option');
    o.value = g.n;
    o.textContent = `${g.n}. ${g.white} – ${g.black} ${g.result} (${g.event}, ${g.date}, ${g.plies} plies)`;
    sel.appendChild(o);
  }
  if (list.count > list.games.length) $('#pgnmore').textContent = `The first ${list.games.length} of ${list.count} are listed.`;
  else $('#pgnmore').textContent = '';
}

export async function loadPgnGame(n) {
  const g = await ask({ q: 'pgn_game', n: Number(n) });
  const params = paramsFrom('chess', g.params);
  const moves = g.moves.map((mv) => ({ mv, by: 'setup' }));
  const over = g.result && g.result !== '*' && g.termination && !/normal/i.test(g.termination)
    ? { result: g.result, termination: 'adjudication', reason: g.termination } : null;
  const refused = await newGame({ game: 'chess', params, players: humans(), start: { base: g.fen || null, moves: [] }, moves, view: 0, over, names: [g.white, g.black] });
  if (refused) throw new Error(refused);
  UI.alert(`Loaded PGN game ${n}: ${g.white} – ${g.black} ${g.result}. Step through it with ▶ or the arrow keys.`, 'info');
}
