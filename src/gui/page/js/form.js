// The new-game form: the game and its parameters, the two seats (a person, or an engine
// that declares the game, with its limit), the clocks, the start and the draw rule.
import { conn } from './net.js';
import { S, specs, defaultText } from './state.js';
import { BOARDS } from './boards/registry.js';
import * as clock from './clock.js';

const $ = (sel) => document.querySelector(sel);

// The engines that declare `game` (the server asked each at start: src/gui/probe.rs).
export const enginesFor = (game) => conn.hello.engines.filter((e) => e.games.includes(game));

export function buildForm(hello) {
  const gsel = $('#game');
  gsel.textContent = '';
  for (const name of hello.games) {
    if (!BOARDS[name]) continue;
    const o = document.createElement('option');
    o.value = name;
    o.textContent = BOARDS[name].title;
    gsel.appendChild(o);
  }
  gsel.value = S.game;
  gsel.addEventListener('change', () => { params(); seatChoices(); });
  for (const i of [0, 1]) {
    $(`#seat${i}`).addEventListener('change', () => seatChoices());
    $(`#limit${i}`).addEventListener('change', () => { limitDefault(i); seatChoices(); });
  }
  params();
  seatChoices();
}

function option(sel, value, text) {
  const o = document.createElement('option');
  o.value = value;
  o.textContent = text;
  sel.appendChild(o);
}

// The seats' and the analysis's engine choices for the chosen game.
export function seatChoices() {
  const game = $('#game').value, engines = enginesFor(game);
  for (const i of [0, 1]) {
    const sel = $(`#seat${i}`), was = sel.value;
    sel.textContent = '';
    option(sel, 'human', 'a person');
    for (const e of engines) option(sel, e.name, `engine: ${e.name}`);
    const fallback = i === 1 && engines.some((e) => e.name === 'ply') ? 'ply' : 'human';
    sel.value = [...sel.options].some((o) => o.value === was) ? was : fallback;
    const eng = sel.value !== 'human';
    $(`#limits${i}`).hidden = !eng;
    $(`#clockl${i}`).hidden = eng;
    const def = conn.hello.engines.find((e) => e.name === sel.value);
    $(`#solverl${i}`).hidden = !(def && def.proto === 'ply' && BOARDS[game].solved);
  }
  const an = $('#an-engine'), wasAn = an.value;
  an.textContent = '';
  for (const e of engines) option(an, e.name, e.name);
  if ([...an.options].some((o) => o.value === wasAn)) an.value = wasAn;
}

function limitDefault(i) {
  const t = $(`#limit${i}`).value;
  $(`#limitv${i}`).value = { depth: 8, nodes: 100000, movetime: 1, clock: '1+0.5' }[t];
}

// The parameters' fields of the chosen game, from the server's declarations.
function params() {
  const game = $('#game').value, box = $('#params'), hints = BOARDS[game].paramHints || {};
  box.textContent = '';
  for (const p of specs(game)) {
    const lab = document.createElement('label');
    lab.title = p.help;
    const k = p.kind;
    let input;
    if (k.type === 'combo') {
      input = document.createElement('select');
      for (const v of k.vars) option(input, v, v);
      input.value = k.default;
    } else {
      input = document.createElement('input');
      if (k.type === 'check') {
        input.type = 'checkbox';
        input.checked = k.default;
      } else if (k.type === 'spin') {
        input.type = 'number';
        input.min = k.min;
        input.max = k.max;
        input.value = k.default;
      } else {
        input.value = defaultText(p);
        input.placeholder = k.type === 'list' ? `such as ${[3, 4, 5].slice(0, Math.min(3, k.max_len)).join(',')}` : '';
      }
    }
    input.id = `param-${p.key}`;
    const hint = hints[p.key] ? ` (${hints[p.key]})` : '';
    if (k.type === 'check') lab.append(input, ` ${p.label}${hint}`);
    else lab.append(`${p.label}${hint} `, input);
    box.appendChild(lab);
  }
  $('#maxplies').value = BOARDS[game].maxPlies || 0;
}

export function setForm(game, values) {
  $('#game').value = game;
  params();
  seatChoices();
  for (const p of specs(game)) {
    const input = $(`#param-${p.key}`);
    if (p.kind.type === 'check') input.checked = values[p.key] === true || values[p.key] === 'true';
    else input.value = values[p.key] === undefined ? '' : values[p.key];
  }
}

export function readParams(game) {
  const out = {};
  for (const p of specs(game)) {
    const input = $(`#param-${p.key}`);
    if (!input) out[p.key] = defaultText(p);
    else out[p.key] = p.kind.type === 'check' ? input.checked : input.value.trim();
  }
  return out;
}

export function readPlayers() {
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

// Each side's clock: an engine's from its limit (`clock min+inc`), a person's from its own
// field; blank for none.
export function readClocks(players) {
  return players.map((p, i) => {
    if (p.kind === 'engine') return p.limit.type === 'clock' ? clock.parse(p.limit.value || '1') : null;
    return clock.parse($(`#clock${i}`).value);
  });
}
