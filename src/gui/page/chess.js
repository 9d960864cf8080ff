// Chess for the page: the board, and the notation people read (SAN, PGN).
//
// The rules stay in the engine: which moves are legal, and when the game ends, come from
// ply's `query legalmoves` and `query result` (protocol.md, "chess"). What is here only
// reads a FEN, applies a move the engine accepted, and writes it the way people write chess:
// standard algebraic notation needs to know which other pieces could reach the same square
// and whether a move checks or mates, so this file has a small move generator for exactly
// that. It leaves castling out: castling is never ambiguous, is written O-O / O-O-O, and
// never answers a check, so a position in check without another move is mate.
//
// A position: {b: 64 squares, a1 = 0, b1 = 1, .., h8 = 63, each '.' or a FEN piece letter
// (upper case White); white: side to move is White; castling, ep (square index or -1),
// half, full: the FEN's other fields}.
'use strict';

const CHESS_START = 'rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1';
const sqName = (s) => 'abcdefgh'[s & 7] + ((s >> 3) + 1);
const sqIndex = (n) => (n.charCodeAt(0) - 97) + 8 * (n.charCodeAt(1) - 49);
const isWhite = (p) => p !== '.' && p === p.toUpperCase();
const KNIGHT = [[1, 2], [2, 1], [2, -1], [1, -2], [-1, -2], [-2, -1], [-2, 1], [-1, 2]];
const KING = [[1, 0], [1, 1], [0, 1], [-1, 1], [-1, 0], [-1, -1], [0, -1], [1, -1]];
const ROOK_DIRS = [[1, 0], [-1, 0], [0, 1], [0, -1]];
const BISHOP_DIRS = [[1, 1], [1, -1], [-1, 1], [-1, -1]];
const PIECE_NAMES = { p: 'pawn', n: 'knight', b: 'bishop', r: 'rook', q: 'queen', k: 'king' };

function parseFen(fen) {
  const f = fen.trim().split(/\s+/);
  const b = new Array(64).fill('.');
  (f[0] || '').split('/').forEach((row, i) => {
    let file = 0;
    for (const ch of row) {
      if (/[1-8]/.test(ch)) file += Number(ch);
      else { if (file < 8 && i < 8) b[(7 - i) * 8 + file] = ch; file++; }
    }
  });
  return {
    b, white: f[1] !== 'b', castling: f[2] || '-',
    ep: f[3] && f[3] !== '-' ? sqIndex(f[3]) : -1,
    half: Number(f[4] || 0), full: Number(f[5] || 1),
  };
}

function boardFen(pos) {
  const rows = [];
  for (let r = 7; r >= 0; r--) {
    let row = '', empty = 0;
    for (let f = 0; f < 8; f++) {
      const p = pos.b[r * 8 + f];
      if (p === '.') { empty++; continue; }
      if (empty) { row += empty; empty = 0; }
      row += p;
    }
    rows.push(row + (empty || ''));
  }
  return rows.join('/');
}

function onBoard(f, r) { return f >= 0 && f < 8 && r >= 0 && r < 8; }

// Whether a piece of `byWhite` attacks square `s`.
function attacked(b, s, byWhite) {
  const f0 = s & 7, r0 = s >> 3;
  const own = (p, letter) => p === (byWhite ? letter.toUpperCase() : letter);
  const pr = byWhite ? r0 - 1 : r0 + 1;
  for (const df of [-1, 1]) {
    if (onBoard(f0 + df, pr) && own(b[pr * 8 + f0 + df], 'p')) return true;
  }
  for (const [df, dr] of KNIGHT) {
    if (onBoard(f0 + df, r0 + dr) && own(b[(r0 + dr) * 8 + f0 + df], 'n')) return true;
  }
  for (const [df, dr] of KING) {
    if (onBoard(f0 + df, r0 + dr) && own(b[(r0 + dr) * 8 + f0 + df], 'k')) return true;
  }
  const ray = (dirs, a, c) => dirs.some(([df, dr]) => {
    for (let f = f0 + df, r = r0 + dr; onBoard(f, r); f += df, r += dr) {
      const p = b[r * 8 + f];
      if (p === '.') continue;
      return own(p, a) || own(p, c);
    }
    return false;
  });
  return ray(ROOK_DIRS, 'r', 'q') || ray(BISHOP_DIRS, 'b', 'q');
}

function kingSquare(b, white) { return b.indexOf(white ? 'K' : 'k'); }

function inCheck(pos) {
  const k = kingSquare(pos.b, pos.white);
  return k >= 0 && attacked(pos.b, k, !pos.white);
}

// The castling a move is, or null: the king onto its own rook (Chess960's notation, read
// in standard chess too) or the king's two-square step.
function castlingOf(pos, from, to) {
  const p = pos.b[from];
  if (p.toLowerCase() !== 'k' || (from >> 3) !== (to >> 3)) return null;
  const rookHere = pos.b[to] === (isWhite(p) ? 'R' : 'r');
  if (!rookHere && Math.abs((to & 7) - (from & 7)) !== 2) return null;
  const short = (to & 7) > (from & 7);
  let rook = to;
  if (!rookHere) {
    // The two-square step (standard chess): the rook is the outermost one on that side.
    rook = -1;
    for (let f = from & 7; f >= 0 && f < 8; f += short ? 1 : -1) {
      if (pos.b[(from & ~7) + f] === (isWhite(p) ? 'R' : 'r')) rook = (from & ~7) + f;
    }
    if (rook < 0) return null;
  }
  const rank = from & ~7;
  return { short, rook, kingTo: rank + (short ? 6 : 2), rookTo: rank + (short ? 5 : 3) };
}

// The square of each castling right's rook: K/Q the outermost rook on the king's side /
// queen's side of the king on its first rank (X-FEN), a file letter that file's rook.
function rightSquares(pos) {
  const out = [];
  if (pos.castling === '-') return out;
  for (const ch of pos.castling) {
    const white = ch === ch.toUpperCase(), rank = white ? 0 : 56, k = kingSquare(pos.b, white);
    const rook = white ? 'R' : 'r', c = ch.toLowerCase();
    let sq = -1;
    if (c === 'k' || c === 'q') {
      if (k < 0 || (k & ~7) !== rank) continue;
      for (let f = k & 7; f >= 0 && f < 8; f += c === 'k' ? 1 : -1) if (pos.b[rank + f] === rook) sq = rank + f;
    } else if (c >= 'a' && c <= 'h') {
      sq = rank + c.charCodeAt(0) - 97;
    }
    out.push({ ch, sq, white });
  }
  return out;
}

// The rights left after a move from `from` to `to`: none for a side whose king moved, and
// none for a rook that moved or was taken.
function rightsAfter(pos, from, to) {
  const king = pos.b[from].toLowerCase() === 'k';
  const left = rightSquares(pos).filter((r) => !(king && r.white === pos.white) && r.sq !== from && r.sq !== to);
  return left.length ? left.map((r) => r.ch).join('') : '-';
}

// The position after a move in UCI notation (which the engine has accepted), or null when
// it makes no sense on this board.
function applyMove(pos, uci) {
  if (!/^[a-h][1-8][a-h][1-8][qrbn]?$/.test(uci)) return null;
  const from = sqIndex(uci.slice(0, 2)), to = sqIndex(uci.slice(2, 4));
  const p = pos.b[from];
  if (p === '.' || isWhite(p) !== pos.white) return null;
  const b = pos.b.slice();
  const next = { b, white: !pos.white, castling: rightsAfter(pos, from, to), ep: -1, half: pos.half + 1, full: pos.full + (pos.white ? 0 : 1) };
  const castle = castlingOf(pos, from, to);
  if (castle) {
    b[from] = '.';
    b[castle.rook] = '.';
    b[castle.kingTo] = p;
    b[castle.rookTo] = pos.white ? 'R' : 'r';
    return next;
  }
  const kind = p.toLowerCase();
  if (b[to] !== '.' || kind === 'p') next.half = 0;
  if (kind === 'p' && to === pos.ep && (to & 7) !== (from & 7)) b[to + (pos.white ? -8 : 8)] = '.';
  if (kind === 'p' && Math.abs(to - from) === 16) next.ep = (from + to) / 2;
  b[to] = uci.length === 5 ? (pos.white ? uci[4].toUpperCase() : uci[4]) : p;
  b[from] = '.';
  return next;
}

// Every legal move but castling, as UCI texts (see the top of the file).
function movesWithoutCastling(pos) {
  const out = [], b = pos.b, me = pos.white;
  const add = (from, to) => {
    const last = (to >> 3) === (me ? 7 : 0);
    if (b[from].toLowerCase() === 'p' && last) for (const q of 'qrbn') out.push(sqName(from) + sqName(to) + q);
    else out.push(sqName(from) + sqName(to));
  };
  const enemyOrEmpty = (s) => b[s] === '.' || isWhite(b[s]) !== me;
  for (let s = 0; s < 64; s++) {
    const p = b[s];
    if (p === '.' || isWhite(p) !== me) continue;
    const f0 = s & 7, r0 = s >> 3, kind = p.toLowerCase();
    if (kind === 'p') {
      const dr = me ? 1 : -1, r1 = r0 + dr;
      if (onBoard(f0, r1) && b[r1 * 8 + f0] === '.') {
        add(s, r1 * 8 + f0);
        const r2 = r0 + 2 * dr;
        if (r0 === (me ? 1 : 6) && b[r2 * 8 + f0] === '.') add(s, r2 * 8 + f0);
      }
      for (const df of [-1, 1]) {
        if (!onBoard(f0 + df, r1)) continue;
        const t = r1 * 8 + f0 + df;
        if ((b[t] !== '.' && isWhite(b[t]) !== me) || t === pos.ep) add(s, t);
      }
    } else if (kind === 'n' || kind === 'k') {
      for (const [df, dr] of kind === 'n' ? KNIGHT : KING) {
        if (onBoard(f0 + df, r0 + dr) && enemyOrEmpty((r0 + dr) * 8 + f0 + df)) add(s, (r0 + dr) * 8 + f0 + df);
      }
    } else {
      const dirs = kind === 'r' ? ROOK_DIRS : kind === 'b' ? BISHOP_DIRS : ROOK_DIRS.concat(BISHOP_DIRS);
      for (const [df, dr] of dirs) {
        for (let f = f0 + df, r = r0 + dr; onBoard(f, r); f += df, r += dr) {
          const t = r * 8 + f;
          if (b[t] !== '.') { if (isWhite(b[t]) !== me) add(s, t); break; }
          add(s, t);
        }
      }
    }
  }
  return out.filter((m) => {
    const after = applyMove(pos, m);
    const k = kingSquare(after.b, me);
    return k >= 0 && !attacked(after.b, k, !me);
  });
}

// A move in standard algebraic notation (PGN's), with + or #.
function sanOf(pos, uci) {
  const from = sqIndex(uci.slice(0, 2)), to = sqIndex(uci.slice(2, 4));
  const p = pos.b[from], kind = p.toLowerCase();
  const castle = castlingOf(pos, from, to);
  let s;
  if (castle) {
    s = castle.short ? 'O-O' : 'O-O-O';
  } else {
    const capture = pos.b[to] !== '.' || (kind === 'p' && (to & 7) !== (from & 7));
    if (kind === 'p') {
      s = (capture ? `${uci[0]}x` : '') + uci.slice(2, 4) + (uci[4] ? `=${uci[4].toUpperCase()}` : '');
    } else {
      const rivals = movesWithoutCastling(pos)
        .filter((m) => m.slice(2, 4) === uci.slice(2, 4) && m.slice(0, 2) !== uci.slice(0, 2) && pos.b[sqIndex(m.slice(0, 2))] === p);
      let which = '';
      if (rivals.length) {
        if (!rivals.some((m) => m[0] === uci[0])) which = uci[0];
        else if (!rivals.some((m) => m[1] === uci[1])) which = uci[1];
        else which = uci.slice(0, 2);
      }
      s = kind.toUpperCase() + which + (capture ? 'x' : '') + uci.slice(2, 4);
    }
  }
  const after = applyMove(pos, uci);
  if (after && inCheck(after)) s += movesWithoutCastling(after).length ? '+' : '#';
  return s;
}

// The positions and SAN names of a game from `fen`; a move the board cannot follow (it
// should not happen: the engine accepted it) and those after it keep their UCI text.
function replay(fen, moves) {
  const positions = [parseFen(fen)], names = [];
  let pos = positions[0];
  for (const mv of moves) {
    const next = pos && applyMove(pos, mv);
    names.push(next ? sanOf(pos, mv) : mv);
    pos = next;
    positions.push(pos);
  }
  return { positions, names };
}

let replayCache = { key: null, value: null };
function replayCached(fen, moves) {
  const key = `${fen}|${moves.join(' ')}`;
  if (replayCache.key !== key) replayCache = { key, value: replay(fen, moves) };
  return replayCache.value;
}

// What FIDE's repetition rule compares: placement, side to move, castling rights, and the
// en passant square only when a capture there is possible.
function repetitionKey(pos) {
  const epMatters = pos.ep >= 0 && movesWithoutCastling(pos).some((m) => sqIndex(m.slice(2, 4)) === pos.ep && pos.b[sqIndex(m.slice(0, 2))].toLowerCase() === 'p');
  return `${boardFen(pos)} ${pos.white ? 'w' : 'b'} ${pos.castling} ${epMatters ? pos.ep : '-'}`;
}

// How many times the last position has stood on the board since the last capture or pawn
// move, itself included.
function repetitions(fen, moves) {
  const { positions } = replayCached(fen, moves);
  const last = positions[positions.length - 1];
  if (!last) return 0;
  const key = repetitionKey(last);
  let count = 0;
  for (let i = positions.length - 1; i >= 0; i--) {
    const p = positions[i];
    if (!p) break;
    if (repetitionKey(p) === key) count++;
    if (p.half === 0) break;
  }
  return count;
}

// ---------------------------------------------------------------- PGN

const PGN_TERMINATION = { rules: 'normal', adjudication: 'adjudication', time: 'time forfeit', illegal: 'rules infraction', malformed: 'rules infraction', crash: 'emergency', nobestmove: 'rules infraction' };

function pgnString(s) { return String(s).replace(/\\/g, '\\\\').replace(/"/g, '\\"'); }

// A game as PGN (the seven tag roster, then SetUp/FEN/Variant where needed): g = {white,
// black, result, startFen, chess960, moves: [{mv, score, depth, ms, by}], reason,
// termination, date: Date}.
function toPgn(g) {
  const d = g.date;
  const pad = (n) => String(n).padStart(2, '0');
  const tags = [
    ['Event', 'ply gui game'], ['Site', 'ply gui'],
    ['Date', `${d.getFullYear()}.${pad(d.getMonth() + 1)}.${pad(d.getDate())}`],
    ['Round', '-'], ['White', g.white], ['Black', g.black], ['Result', g.result],
  ];
  if (g.chess960) tags.push(['Variant', 'Chess960']);
  if (g.chess960 || g.startFen !== CHESS_START) tags.push(['SetUp', '1'], ['FEN', g.startFen]);
  if (g.termination) tags.push(['Termination', PGN_TERMINATION[g.termination] || g.termination]);
  tags.push(['PlyCount', String(g.moves.length)]);
  const { positions, names } = replay(g.startFen, g.moves.map((m) => m.mv));
  const words = [];
  names.forEach((san, i) => {
    const pos = positions[i];
    if (pos && pos.white) words.push(`${pos.full}.`);
    else if (i === 0 || !positions[i]) words.push(`${pos ? pos.full : '?'}...`);
    words.push(san);
    const m = g.moves[i];
    if (m.by === 'engine' || m.score) {
      const parts = [];
      if (m.score) parts.push(pgnScore(m.score) + (m.depth ? `/${m.depth}` : ''));
      if (m.ms !== undefined && m.by === 'engine') parts.push(`${(m.ms / 1000).toFixed(1)}s`);
      if (parts.length) words.push(`{${parts.join(' ')}}`);
    }
  });
  if (g.reason) words.push(`{${g.reason.replace(/[{}]/g, '')}}`);
  words.push(g.result);
  // Lines of at most 80 characters, as PGN's export format asks.
  const lines = [];
  let line = '';
  for (const w of words) {
    if (line && line.length + 1 + w.length > 80) { lines.push(line); line = w; } else line = line ? `${line} ${w}` : w;
  }
  if (line) lines.push(line);
  return `${tags.map(([k, v]) => `[${k} "${pgnString(v)}"]`).join('\n')}\n\n${lines.join('\n')}\n`;
}

// A score as chess programs write it in PGN comments: +0.35, -1.20, +M3, -M2.
function pgnScore(score) {
  const [kind, n] = score.split(' ');
  const v = Number(n);
  if (kind === 'mate') return `${v > 0 ? '+' : '-'}M${Math.abs(v)}`;
  return `${v >= 0 ? '+' : ''}${(v / 100).toFixed(2)}`;
}

// ---------------------------------------------------------------- the board

// The pieces, drawn on a 45 x 45 square: shapes of our own, filled with the side's colour.
// Each is a list of [element, attributes]; 'detail' parts are drawn in the contrasting colour.
const PLINTH = ['path', { d: 'M9,39.5h27v-3.5q0,-2.5 -2.5,-2.5h-22q-2.5,0 -2.5,2.5z' }];
const PIECES = {
  p: [
    ['path', { d: 'M12.5,39.5h20v-3q0,-2.5 -2.5,-2.5h-15q-2.5,0 -2.5,2.5z' }],
    ['path', { d: 'M15,34c0.5,-5 3,-8.5 5.5,-10h4c2.5,1.5 5,5 5.5,10z' }],
    ['path', { d: 'M16.5,24.5h12v-3h-12z' }],
    ['circle', { cx: 22.5, cy: 16, r: 6 }],
  ],
  r: [
    PLINTH,
    ['path', { d: 'M13,33l2,-16h15l2,16z' }],
    ['path', { d: 'M11.5,17v-8h4.5v3.5h4v-3.5h5v3.5h4v-3.5h4.5v8z' }],
    ['path', { class: 'detail', d: 'M15.5,21h14M14.5,29h16' }],
  ],
  n: [
    PLINTH,
    ['path', { d: 'M14,33c-0.5,-6 2,-10 7.5,-13.5c-3,-0.5 -6,1.5 -8.5,2.5c-2,0.5 -3.5,-1.5 -2.5,-3.5l7,-8l1,-4.5l3,3.5c8,0.5 12.5,7.5 12.5,16l-0.5,7.5z' }],
    ['circle', { class: 'detail-fill', cx: 20, cy: 13, r: 1.6 }],
    ['path', { class: 'detail', d: 'M30,16c1,4 1.5,9 1,14' }],
  ],
  b: [
    PLINTH,
    ['path', { d: 'M15.5,33c-1,-5 1,-8.5 3.5,-10.5c-4,-4 -2.5,-11 3.5,-14c6,3 7.5,10 3.5,14c2.5,2 4.5,5.5 3.5,10.5z' }],
    ['circle', { cx: 22.5, cy: 6.5, r: 2.6 }],
    ['path', { class: 'detail', d: 'M25.5,11.5l-5,5.5M17.5,26.5h10' }],
  ],
  q: [
    PLINTH,
    ['path', { d: 'M12,33l-2,-20l5.5,9l1,-12l4,11l2,-12.5l2,12.5l4,-11l1,12l5.5,-9l-2,20z' }],
    ['circle', { cx: 10, cy: 12, r: 2.4 }], ['circle', { cx: 16.5, cy: 9, r: 2.4 }],
    ['circle', { cx: 22.5, cy: 7.5, r: 2.4 }], ['circle', { cx: 28.5, cy: 9, r: 2.4 }],
    ['circle', { cx: 35, cy: 12, r: 2.4 }],
    ['path', { class: 'detail', d: 'M13,29h19' }],
  ],
  k: [
    PLINTH,
    ['path', { d: 'M21,4.5h3v3h3v3h-3v5.5h-3v-5.5h-3v-3h3z' }],
    ['path', { d: 'M12.5,33c-3.5,-6 -4.5,-13.5 2,-15.5c4,-1 7,1.5 8,5c1,-3.5 4,-6 8,-5c6.5,2 5.5,9.5 2,15.5z' }],
    ['path', { class: 'detail', d: 'M22.5,22.5v9M13,29h19' }],
  ],
};

function drawPiece(parent, piece, x, y, size, extra) {
  const white = isWhite(piece);
  const g = el('g', { class: `piece ${white ? 'piece-w' : 'piece-b'}${extra ? ` ${extra}` : ''}`, transform: `translate(${x},${y}) scale(${size / 45})` }, parent);
  for (const [tag, attrs] of PIECES[piece.toLowerCase()]) el(tag, attrs, g);
  return g;
}

// The squares a selected piece may go to: target square -> the move text (for a promotion,
// the move without its piece). Castling is offered on both the king's destination and its
// rook's square, since ply reads either (protocol.md, "chess").
function targetsFrom(pos, legal, from) {
  const out = new Map();
  for (const m of legal) {
    if (m.slice(0, 2) !== from) continue;
    out.set(m.slice(2, 4), m.slice(0, 4));
  }
  for (const m of legal) {
    if (m.slice(0, 2) !== from) continue;
    const c = castlingOf(pos, sqIndex(from), sqIndex(m.slice(2, 4)));
    if (!c) continue;
    for (const alt of [sqName(c.kingTo), sqName(c.rook)]) if (!out.has(alt)) out.set(alt, m);
  }
  return out;
}

const chess = {
  title: 'Chess',
  sides: ['White', 'Black'],
  params: [
    { key: 'chess960', label: 'Chess960', type: 'bool', def: false },
    { key: 'start', label: 'Start no. (Chess960: 0–959, blank for a random one)', type: 'text', def: '' },
  ],
  solved: false,
  // A random Chess960 start is drawn once, when the game begins.
  prepare(p) {
    const c960 = p.chess960 === true || p.chess960 === 'true';
    if (c960 && String(p.start).trim() === '') p.start = String(Math.floor(Math.random() * 960));
    return p;
  },
  paramLine(p) {
    const out = [];
    const c960 = p.chess960 === true || p.chess960 === 'true';
    if (c960) out.push('chess960=true');
    const start = String(p.start === undefined ? '' : p.start).trim();
    if (start !== '' && (c960 || start !== '518')) out.push(`start=${start}`);
    return out.join(' ');
  },
  parse(fen) {
    const pos = parseFen(fen);
    pos.side = pos.white ? 'w' : 'b';
    pos.check = inCheck(pos) ? kingSquare(pos.b, pos.white) : -1;
    return pos;
  },
  draw(host, v) {
    const pos = v.pos, S = 60, pad = 24, W = 8 * S;
    const svg = newSvg(host, W + pad + 6, W + pad + 6, 'chess board');
    const g = el('g', { transform: `translate(${pad},4)` }, svg);
    const ui = v.ui;
    const mine = (p) => p !== '.' && isWhite(p) === pos.white;
    const sel = ui.selected && mine(pos.b[sqIndex(ui.selected)]) ? ui.selected : null;
    const targets = sel ? targetsFrom(pos, v.legal, sel) : new Map();
    const last = v.last && /^[a-h][1-8][a-h][1-8]/.test(v.last) ? [v.last.slice(0, 2), v.last.slice(2, 4)] : [];
    const hint = v.hint && /^[a-h][1-8][a-h][1-8]/.test(v.hint) ? [v.hint.slice(0, 2), v.hint.slice(2, 4)] : [];
    const xy = (s) => {
      const f = s & 7, r = s >> 3;
      return v.flipped ? [(7 - f) * S, r * S] : [f * S, (7 - r) * S];
    };
    const cells = new Map();
    for (let s = 0; s < 64; s++) {
      const [x, y] = xy(s), name = sqName(s), p = pos.b[s];
      const cell = el('g', { 'data-square': name }, g);
      const light = ((s & 7) + (s >> 3)) % 2 === 1;
      el('rect', { x, y, width: S, height: S, class: `sq ${light ? 'sq-light' : 'sq-dark'}` }, cell);
      if (last.includes(name)) el('rect', { x, y, width: S, height: S, class: 'sq-last' }, cell);
      if (name === sel) el('rect', { x, y, width: S, height: S, class: 'sq-selected' }, cell);
      if (s === pos.check) el('circle', { cx: x + S / 2, cy: y + S / 2, r: S * 0.48, class: 'sq-check' }, cell);
      if (hint.includes(name)) el('rect', { x: x + 2, y: y + 2, width: S - 4, height: S - 4, class: 'sq-hint' }, cell);
      if (p !== '.') drawPiece(cell, p, x, y, S);
      const target = targets.has(name);
      if (target) {
        if (p !== '.' && !mine(p)) el('circle', { cx: x + S / 2, cy: y + S / 2, r: S * 0.45, class: 'target-capture' }, cell);
        else el('circle', { cx: x + S / 2, cy: y + S / 2, r: S * 0.15, class: 'target' }, cell);
      }
      const who = p === '.' ? 'empty' : `${isWhite(p) ? 'white' : 'black'} ${PIECE_NAMES[p.toLowerCase()]}`;
      const label = `${name}, ${who}${name === sel ? ', selected' : ''}${target ? ', move here' : ''}${s === pos.check ? ', in check' : ''}`;
      clickable(cell, label, () => this.click(v, name, sel, targets));
      cell.addEventListener('keydown', (e) => this.arrowKey(e, host, s, v.flipped));
      cells.set(name, cell);
    }
    for (let i = 0; i < 8; i++) {
      const file = v.flipped ? 7 - i : i, rank = v.flipped ? i + 1 : 8 - i;
      text(svg, pad + i * S + S / 2, W + pad + 2, 'abcdefgh'[file], 'coord');
      text(svg, 10, 4 + i * S + S / 2 + 5, String(rank), 'coord');
    }
    if (ui.promo) this.promotionChooser(g, v, xy);
  },
  click(v, name, sel, targets) {
    const ui = v.ui, pos = v.pos, p = pos.b[sqIndex(name)];
    if (sel && targets.has(name)) {
      const mv = targets.get(name);
      if ([...v.legal].some((m) => m.length === 5 && m.startsWith(mv))) {
        ui.promo = { move: mv, focus: true };
        v.redraw();
      } else {
        ui.selected = null;
        v.play(mv);
      }
    } else if (p !== '.' && isWhite(p) === pos.white) {
      ui.selected = sel === name ? null : name;
      v.redraw();
    } else if (sel) {
      // Not a legal target: the engine says why.
      ui.selected = null;
      v.play(sel + name);
    }
  },
  // Arrow keys move the focus from square to square, as on the board (not through moves).
  arrowKey(e, host, s, flipped) {
    const d = { ArrowUp: [0, 1], ArrowDown: [0, -1], ArrowLeft: [-1, 0], ArrowRight: [1, 0] }[e.key];
    if (!d) return;
    e.preventDefault();
    e.stopPropagation();
    const [df, dr] = flipped ? [-d[0], -d[1]] : d;
    const f = (s & 7) + df, r = (s >> 3) + dr;
    if (!onBoard(f, r)) return;
    const next = host.querySelector(`[data-square=${sqName(r * 8 + f)}]`);
    if (next) next.focus();
  },
  // Queen, knight, rook, bishop, from the promotion square towards the middle of the board;
  // the queen has the focus, so Enter promotes to a queen. Escape or a click beside cancels.
  promotionChooser(g, v, xy) {
    const ui = v.ui, mv = ui.promo.move, to = sqIndex(mv.slice(2, 4)), S = 60;
    const [x, y0] = xy(to);
    const down = y0 === 0;
    const cancel = () => { ui.promo = null; v.redraw(); };
    const veil = el('rect', { x: 0, y: 0, width: 8 * S, height: 8 * S, class: 'promo-veil' }, g);
    veil.addEventListener('click', cancel);
    let first = null;
    [...'qnrb'].forEach((q, i) => {
      const y = down ? y0 + i * S : y0 - i * S;
      const opt = el('g', { class: 'promo-option' }, g);
      el('rect', { x, y, width: S, height: S, rx: 8, class: 'promo-bg' }, opt);
      drawPiece(opt, v.pos.white ? q.toUpperCase() : q, x, y, S);
      clickable(opt, `promote to ${PIECE_NAMES[q]}`, () => { ui.promo = null; ui.selected = null; v.play(mv + q); });
      opt.addEventListener('keydown', (e) => { if (e.key === 'Escape') { e.preventDefault(); cancel(); } });
      if (!first) first = opt;
    });
    if (ui.promo.focus) {
      ui.promo.focus = false;
      setTimeout(() => first.isConnected && first.focus(), 0);
    }
  },
  reason(pos, result) {
    if (result !== 'draw') return 'checkmate';
    if (!movesWithoutCastling(pos).length) return 'stalemate';
    if (pos.half >= 100) return 'the fifty-move rule';
    return 'neither side can mate (a dead position)';
  },
  moveWord: (m) => m,
  // The page's extras for chess: move names, repetition, PGN, scores in words.
  names: (fen, moves) => replay(fen, moves).names,
  // The move list's buttons: '1. e4', 'e5', or '12… Nf6' when Black moves first.
  labels(fen, moves) {
    const { positions, names } = replayCached(fen, moves);
    return names.map((n, i) => {
      const p = positions[i];
      if (!p) return n;
      if (p.white) return `${p.full}. ${n}`;
      return i === 0 ? `${p.full}… ${n}` : n;
    });
  },
  // The move list pairs White's and Black's moves; a game from a position with Black to
  // move leaves White's first cell empty.
  pairOffset: (fen) => (parseFen(fen).white ? 0 : 1),
  // A typed move: UCI as the engine reads it, or SAN (Nf3, exd5, O-O, e8=Q) among the
  // legal moves. UCI-shaped text goes to the engine as typed, which explains what is wrong
  // with it; SAN that names no legal move is refused here.
  fromText(fen, legal, typed) {
    if (legal.includes(typed) || /^[a-h][1-8][a-h][1-8][a-z]?$/.test(typed)) return typed;
    const bare = (t) => t.replace(/[+#!?]+$/, '').replace(/0/g, 'O');
    const want = bare(typed), pos = parseFen(fen);
    const hit = legal.find((m) => applyMove(pos, m) && bare(sanOf(pos, m)) === want);
    if (hit) return hit;
    throw new Error(`'${typed}' is not a legal move here (write moves as Nf3, exd5, O-O, e8=Q, or e2e4)`);
  },
  repetitions,
  toPgn,
  scoreText: pgnScore,
  mateWords(stm, n) {
    if (n > 0) return `${stm} mates in ${n}`;
    return `${stm} is mated in ${-n}`;
  },
};

window.GAMES.chess = chess;
