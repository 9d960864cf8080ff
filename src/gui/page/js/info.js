// Reading the engines' `info` lines (protocol.md, "Search output") and saying them in words.

export function parseInfo(line) {
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

// The score as protocol.md writes it: `mate -3`, `cp 12 lowerbound`.
export function scoreText(info) {
  const s = info.score;
  return `${s.kind} ${s.n}${s.bound ? ` ${s.bound}` : ''}`;
}

// Whether ply proved this score: mate scores are proofs, and a solver's line has no
// hashfull (protocol.md, "Search output").
export function proven(info, ply) {
  return !!info.score && (info.score.kind === 'mate' || (ply && !('hashfull' in info)));
}

// Whether a `mate 0` says the side to move has won (misère Nim: `wdl 1000 0 0`).
export const wonAtZero = (info) => !!info.wdl && info.wdl[0] === 1000;

// A score from the searched position's side to move, in words; `board` may say mates its
// own way (chess: "White mates in 3").
export function scoreWords(info, stm, ply, board) {
  const s = info.score;
  if (!s) return '';
  const atMost = s.bound ? ' or fewer' : '';
  if (s.kind === 'mate') {
    if (s.n === 0) return wonAtZero(info) ? `${stm} has won` : `${stm} has lost`;
    if (board.mateWords) return board.mateWords(stm, s.n) + atMost;
    return s.n > 0 ? `${stm} wins in ${s.n}${atMost}` : `${stm} loses in ${-s.n}${atMost}`;
  }
  if (s.n === 0 && proven(info, ply)) return 'draw';
  const v = (s.n / 100).toFixed(2);
  return `${s.n >= 0 ? '+' : ''}${v} for ${stm}`;
}

// The share of the evaluation bar that belongs to p1, from a score of `stmIndex`'s side.
export function barShare(info, stmIndex) {
  const s = info.score;
  if (!s) return 0.5;
  let x;
  if (s.kind === 'mate') x = s.n > 0 || (s.n === 0 && wonAtZero(info)) ? 1 : 0;
  else x = 0.5 + 0.5 * Math.tanh(s.n / 400);
  return stmIndex === 0 ? x : 1 - x;
}

export function fmtNodes(n) {
  if (n === undefined) return '';
  if (n >= 1e9) return `${(n / 1e9).toFixed(2)} G`;
  if (n >= 1e6) return `${(n / 1e6).toFixed(2)} M`;
  if (n >= 1e3) return `${(n / 1e3).toFixed(1)} k`;
  return String(n);
}

export function fmtClock(ms) {
  const neg = ms < 0;
  ms = Math.abs(ms);
  const h = Math.floor(ms / 3600000), m = Math.floor(ms / 60000) % 60, s = (ms % 60000) / 1000;
  const ss = ms < 20000 ? s.toFixed(1) : Math.floor(s).toString();
  const mm = h ? `${h}:${String(m).padStart(2, '0')}` : String(m);
  return `${neg ? '-' : ''}${mm}:${s < 10 ? '0' : ''}${ss}`;
}

// A score as chess programs write it in move lists: +0.35, -1.20, #3, #-2.
export function shortScore(score) {
  const [kind, n] = score.split(' ');
  const v = Number(n);
  if (kind === 'mate') return `#${v}`;
  return `${v >= 0 ? '+' : ''}${(v / 100).toFixed(2)}`;
}
