// The page's game registry: one board module per game ply plays (the server's games list,
// `ply::games::NAMES`, must each have one here: a unit test of src/gui/http.rs checks).
// Adding a board is one line here and its module (docs/gui.md, "Adding a board").
//
// A board module's default export:
//   title, sides: [p1's name, p2's name] (the players as the game calls them),
//   solved: whether ply has an exact solver for it (the page shows every move's value),
//   parse(fen) -> the position, as draw() reads it,
//   draw(host, view) -> draws view.pos into host; calls view.play(move) for a move,
//   moveWord(move) -> how a move reads in lists ('column 4', 'take 2 from heap 1').
// Optional: valueBudgets: the node budgets of the move values' passes ([1e6, 1e6]),
//   valueWait: milliseconds between passes, maxPlies: the default draw after so many plies,
//   colours: [p1's, p2's] (CSS colours; the page's red and yellow otherwise),
//   pgn: the game reads and writes PGN, prepare(params) -> params (fills in a random start),
//   paramHints: {key: words} added to a parameter's label, mateWords(side, n) -> a mate
//   score in words.
// The game's parameters are not here: the server declares them (hello.params, from each
// game's ParamSpecs) and the new-game form is built from them.
// view = {pos, fen, start (the game's start position, parsed), params, legal: Map(move -> {name, also}), values: Map(move -> {label,
//   cls, title}), flipped, last, hint (a move shown while hovering it), pv (the engine's
//   line from this position, for arrows or a mark on its first move), win: [[file, rank]]
//   (the winning line, from the bottom left), check (a square), preview (a line's position
//   is shown), ui (the board's own state for this position), play(move), redraw()}.
// Every focusable element of a board carries data-key (a cell's or a move's name), so the
// keyboard focus stays on it when the board is redrawn.
import tictactoe from './tictactoe.js';
import connect4 from './connect4.js';
import nim from './nim.js';
import teeko from './teeko.js';
import chess from './chess.js';
import checkers from './checkers.js';

export const BOARDS = { tictactoe, connect4, nim, teeko, chess, checkers };
