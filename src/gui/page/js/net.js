// The page's one WebSocket to the ply gui server (src/gui/session.rs): engine slots that
// speak protocol.md through it, and questions to the server's rules (src/gui/ask/).
//
// Engines run on the server, one process per slot of this page: 'p1' and 'p2' (the engines
// playing a side), 'an' (analysis) and 'val' (ply, the value of every legal move).

const listeners = { hello: [], closed: [] };
const slots = new Map();
const asked = new Map();
let ws = null;
let refusedWhy = null;
let rid = 0;

export const conn = { hello: null };

// `what` is 'hello' (the server's greeting) or 'closed' (the connection ended; the reason).
export function on(what, f) { listeners[what].push(f); }

export function open() {
  ws = new WebSocket(`ws://${location.host}/ws`);
  ws.onmessage = (e) => receive(JSON.parse(e.data));
  ws.onclose = (e) => {
    for (const eng of slots.values()) eng.fail('the connection to the server closed');
    for (const [, p] of asked) p.reject(new Error('the connection to the server closed'));
    asked.clear();
    const why = refusedWhy || e.reason || 'the server closed the connection';
    for (const f of listeners.closed) f(why, !!refusedWhy);
  };
}

function send(msg) {
  if (ws && ws.readyState === WebSocket.OPEN) ws.send(JSON.stringify(msg));
}

function receive(m) {
  if (m.ev === 'hello') {
    conn.hello = m;
    for (const f of listeners.hello) f(m);
    return;
  }
  if (m.ev === 'refused') { refusedWhy = m.msg; return; }
  if (m.ev === 'rules') { answered(m); return; }
  const eng = m.id ? slots.get(m.id) : null;
  if (!eng) {
    if (m.ev === 'error') console.warn(`server: ${m.msg}`);
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

// ---------------------------------------------------------------- the rules

// A question to the server's rules (see src/gui/ask/mod.rs for the questions); resolves to
// the answer, rejects with the refusal, a sentence for the player.
export function ask(question) {
  return new Promise((resolve, reject) => {
    const id = ++rid;
    const timer = setTimeout(() => {
      asked.delete(id);
      reject(new Error('the server did not answer (the page sent too much too fast?)'));
    }, 15000);
    asked.set(id, {
      resolve: (m) => { clearTimeout(timer); resolve(m); },
      reject: (e) => { clearTimeout(timer); reject(e); },
    });
    send({ op: 'rules', rid: id, ask: question });
  });
}

function answered(m) {
  const p = asked.get(m.rid);
  if (!p) return;
  asked.delete(m.rid);
  if (m.error !== undefined) p.reject(new Error(m.error));
  else p.resolve(m);
}

// ---------------------------------------------------------------- engine slots

// One engine slot: requests are queued and sent one at a time; each ends at a line its
// `done` test accepts (`readyok` after `isready`, `bestmove` after `go`).
export class Engine {
  constructor(slot) {
    this.slot = slot;
    this.alive = false;
    this.engine = null;
    this.game = null;
    this.q = [];
    this.cur = null;
    this.onExit = null;
    this.onRefused = null;
    slots.set(slot, this);
  }

  start(name) {
    this.fail('restarted');
    this.engine = name;
    this.game = null;
    this.booting = new Promise((resolve, reject) => { this.boot = { resolve, reject }; });
    send({ op: 'start', id: this.slot, engine: name });
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
    if (this.onRefused) this.onRefused(msg);
    send({ op: 'close', id: this.slot });
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
    if (this.alive || this.boot) send({ op: 'close', id: this.slot });
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

  stop() { if (this.busy()) send({ op: 'send', id: this.slot, line: 'stop' }); }

  pump() {
    if (this.cur || !this.q.length || !this.alive) return;
    this.cur = this.q.shift();
    for (const line of this.cur.lines) send({ op: 'send', id: this.slot, line });
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

export const isError = (l) => l.startsWith('info string error');
export const errorText = (l) => l.replace(/^info string error\s*/, '');
