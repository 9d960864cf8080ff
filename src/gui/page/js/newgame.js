// Starting a game: from the form, from a record or a PGN game. The rules check the whole
// game (its parameters, start and moves) before anything changes: a refused one leaves the
// current game as it was and says why.
import { ask } from './net.js';
import { S, gen, seats, gameLine, paramLine } from './state.js';
import { BOARDS } from './boards/registry.js';
import { UI } from './ui.js';
import { refresh, stopAll, engineSetup } from './play.js';
import * as clock from './clock.js';
import { readParams, readPlayers, readClocks } from './form.js';

const $ = (sel) => document.querySelector(sel);

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

// Starts a game; `o` overrides the form (game, params, players, start, moves, view, over).
// Returns null, or why the game was refused.
export async function newGame(o = {}) {
  const game = o.game || $('#game').value;
  let params, players, clocks;
  try {
    params = o.params || readParams(game);
    if (BOARDS[game].prepare) params = BOARDS[game].prepare(params);
    players = o.players || readPlayers();
    clocks = o.players ? [null, null] : readClocks(players);
  } catch (e) {
    UI.alert(e.message);
    return e.message;
  }
  const start = o.start || parseStart($('#startpos').value);
  const moves = o.moves || start.moves.map((mv) => ({ mv, by: 'setup' }));
  const trial = { game, params: paramLine(game, params), fen: start.base, moves: moves.map((m) => m.mv) };
  let end;
  try {
    end = await ask({ q: 'position', at: trial });
  } catch (e) {
    const why = `${o.moves ? 'That game' : 'That game or start'} was refused: ${e.message}`;
    UI.alert(why);
    return why;
  }
  gen.n++;
  stopAll();
  clock.stop();
  UI.alert('');
  Object.assign(S, {
    game, params, paramLine: trial.params, base: start.base, moves, labels: end.labels,
    view: o.view !== undefined ? o.view : moves.length, over: o.over || null,
    players, clocks, maxPlies: Number($('#maxplies').value) || 0, started: Date.now(),
    pv: null, snap: null, hint: null, names: o.names || null,
  });
  await startEngines();
  document.body.dataset.game = S.game;
  // The players' colours: the board module's, else the page's red and yellow.
  const colours = BOARDS[S.game].colours || [];
  ['--p1', '--p2'].forEach((k, i) => colours[i]
    ? document.body.style.setProperty(k, colours[i]) : document.body.style.removeProperty(k));
  // The last game's engine lines, a preview of one, its status and its legal moves do not
  // belong to this game: they are cleared until the rules describe the new start.
  $('#think0').hidden = $('#think1').hidden = true;
  UI.endPreview();
  UI.status();
  UI.legal();
  $('#pgnrow').hidden = !BOARDS[S.game].pgn;
  UI.bar(0.5);
  // Counts games begun, so a script can tell a new game from the last one.
  document.body.dataset.games = Number(document.body.dataset.games || 0) + 1;
  UI.moves();
  refresh();
  return null;
}

async function startEngines() {
  for (let i = 0; i < 2; i++) if (S.players[i].kind !== 'engine') seats[i].close();
  try {
    for (const i of [0, 1]) {
      const p = S.players[i];
      if (p.kind === 'engine') await seats[i].ensure(p.engine, gameLine(), engineSetup(p));
    }
  } catch (e) {
    S.paused = true;
    UI.alert(`Cannot start the game's engines: ${e.message}`);
  }
}
