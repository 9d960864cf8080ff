// ply gui: the page is a client of protocol.md (src/gui/mod.rs describes the whole). This
// module wires the page's controls to the game and starts it.
//
// Modules: net.js (the WebSocket: engine slots and questions to the server's rules),
// state.js (the game), play.js (its flow), clock.js (the players' clocks), newgame.js,
// form.js (the new-game form), records.js (records and PGN), ui.js and lines.js (drawing
// the page), info.js (reading engines' lines), boards/ (the game registry and a board each).
import * as net from './net.js';
import { S, seats, board } from './state.js';
import { UI } from './ui.js';
import { typedMove, step, takeBack, moveNow, pause, forfeit, refresh } from './play.js';
import { newGame } from './newgame.js';
import { buildForm, seatChoices, setForm } from './form.js';
import { record, pgn, download, fileStamp, copyText, load, loadPgnGame } from './records.js';
import { pressAndRelease } from './boards/svg.js';

const $ = (sel) => document.querySelector(sel);
const on = (sel, ev, f) => $(sel).addEventListener(ev, f);
const failed = (what) => (e) => UI.alert(`${what}: ${e.message}`);

function wireGame() {
  on('#newgame', 'submit', (e) => { e.preventDefault(); S.paused = false; newGame(); });
  on('#swap', 'click', () => {
    for (const k of ['seat', 'limit', 'limitv', 'clock']) {
      const [a, b] = [$(`#${k}0`).value, $(`#${k}1`).value];
      $(`#${k}0`).value = b;
      $(`#${k}1`).value = a;
    }
    seatChoices();
  });
  on('#moveform', 'submit', (e) => {
    e.preventDefault();
    const input = $('#moveinput');
    typedMove(input.value);
    input.value = '';
  });
  on('#first', 'click', () => step(0));
  on('#prev', 'click', () => step(S.view - 1));
  on('#next', 'click', () => step(S.view + 1));
  on('#last', 'click', () => step(S.moves.length));
  on('#takeback', 'click', takeBack);
  on('#flip', 'click', () => { S.flipped = !S.flipped; UI.render(); });
  on('#movenow', 'click', moveNow);
  on('#pause', 'click', pause);
  on('#showvalues', 'change', (e) => { S.showValues = e.target.checked; refresh(); });
  on('#analyse', 'change', (e) => {
    S.analyse = e.target.checked;
    $('#analysis').hidden = !S.analyse;
    refresh();
  });
  on('#an-engine', 'change', () => { if (S.analyse) refresh(); });
}

function wireRecords() {
  on('#copyfen', 'click', () => copyText($('#fen').value, 'Position'));
  on('#export', 'click', async () => {
    const text = JSON.stringify(await record());
    $('#recordtext').value = text;
    download(`${text}\n`, `ply-${S.game}-${fileStamp()}.jsonl`, 'application/jsonl');
  });
  on('#copyrecord', 'click', async () => {
    const text = JSON.stringify(await record());
    $('#recordtext').value = text;
    copyText(text, 'Record');
  });
  on('#pgn', 'click', () => pgn().then((text) => {
    $('#recordtext').value = text;
    download(text, `ply-${S.game}-${fileStamp()}.pgn`, 'application/x-chess-pgn');
  }, failed('No PGN')));
  on('#copypgn', 'click', () => pgn().then((text) => {
    $('#recordtext').value = text;
    copyText(text, 'PGN');
  }, failed('No PGN')));
  const loadText = () => load($('#recordtext').value, $('#recordno').value)
    .then(() => setForm(S.game, S.params), failed('Cannot load that'));
  on('#load', 'click', loadText);
  on('#recordfile', 'change', async (e) => {
    const f = e.target.files[0];
    if (!f) return;
    if (f.size > 8 << 20) { UI.alert('That file is larger than 8 MiB.'); return; }
    $('#recordtext').value = await f.text();
    loadText();
  });
  on('#pgnload', 'click', () => loadPgnGame($('#pgnpick').value)
    .then(() => setForm(S.game, S.params), failed('Cannot load that game')));
}

function wireKeys() {
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
  for (const i of [0, 1]) {
    seats[i].onExit = (reason, stderr) => {
      if (S.view === S.moves.length && !S.over && S.players[i].kind === 'engine') {
        forfeit(i, 'crash', `crashed: ${reason}`);
        if (stderr) UI.alert(`${S.players[i].engine} said on stderr: ${stderr.slice(-400)}`);
      }
    };
    seats[i].onRefused = (msg) => UI.alert(`The server refused a line for ${board().sides[i]}'s engine: ${msg}`);
  }
}

async function main() {
  wireGame();
  wireRecords();
  wireKeys();
  pressAndRelease($('#board'));
  net.on('closed', (why, refused) => UI.connection(false, why, refused));
  const hello = new Promise((resolve) => net.on('hello', resolve));
  net.open();
  const h = await hello;
  UI.connection(true);
  buildForm(h);
  $('#version').textContent = `ply ${h.version}`;
  newGame();
}

main();
