//! What may pass between the page and an engine, and the translation for engines that do
//! not speak ply's protocol.
//!
//! Every line from the page is checked here before it can reach a process ([`check_line`]):
//! one line, no control characters, a command from a short list, and options limited to a
//! list with bounded values (a page must not be able to point `VariantPath` or a log file at
//! the disk, or ask for a 64 GiB hash table). ply's own engines then get the line unchanged.
//!
//! Engines started with `proto=uci` or `proto=fsf` are wrapped by an [`Adapter`] that follows
//! the game with ply's rules: `newgame` becomes `UCI_Variant` + `ucinewgame` (and, for chess,
//! `UCI_Chess960` when the engine lists it), `position` is checked move by move (with ply's
//! error messages, which a UCI engine would not give) and, for Fairy-Stockfish, written in its
//! drop notation ([`crate::client::fsf`]); a Chess960 `startpos` is written as its FEN, since
//! a UCI engine's startpos is standard chess's; `query` is
//! answered from the rules; Fairy-Stockfish's `bestmove` and `pv` moves are written back in
//! ply's notation.

use crate::client::Dialect;
use crate::client::fsf::{self, FsfGame};
use crate::game::{Params, Player};
use crate::protocol::command::{Command, MoveList, PositionStart, Query, parse};
use crate::protocol::response::QueryResponse;

use super::rules::{self, Position};

/// The commands a page may send to an engine. `uci` and `quit` are the server's own (it
/// starts and ends engines); `bench` and everything else are refused.
pub const COMMANDS: &[&str] = &[
    "isready",
    "newgame",
    "ucinewgame",
    "setoption",
    "position",
    "go",
    "stop",
    "query",
    "d",
];

/// The options a page may set, case-insensitively (protocol.md's options, ply's and other
/// engines' strength options among them, and Stockfish's `Skill Level`).
pub const OPTIONS: &[&str] = &[
    "Hash",
    "Clear Hash",
    "Threads",
    "UseSolver",
    "Move Overhead",
    "MultiPV",
    "UCI_Variant",
    "Skill Level",
    "UCI_LimitStrength",
    "UCI_Elo",
];

/// Standard chess's start, which a UCI engine's `position startpos` means.
const CHESS_START: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";

/// Bounds on what a page may ask of one engine.
#[derive(Clone, Copy, Debug)]
pub struct OptionBounds {
    pub max_hash_mb: u64,
    pub max_threads: u64,
}

/// Checks one line from the page; the error says why it was refused.
pub fn check_line(line: &str, bounds: OptionBounds) -> Result<(), String> {
    if let Some(c) = line
        .chars()
        .find(|&c| (c.is_control() && c != '\t') || c == '\u{2028}')
    {
        return Err(format!(
            "a line may not contain control characters (found U+{:04X})",
            c as u32
        ));
    }
    let mut words = line.split_whitespace();
    let Some(cmd) = words.next() else {
        return Err("empty line".into());
    };
    if !COMMANDS.contains(&cmd) {
        return Err(format!(
            "'{cmd}' is not relayed to engines (allowed: {})",
            COMMANDS.join(", ")
        ));
    }
    if cmd == "setoption" {
        check_setoption(line, bounds)?;
    }
    Ok(())
}

/// `setoption name <name> [value <value>]`: the name must be in [`OPTIONS`], and `Hash` and
/// `Threads` within the server's bounds.
fn check_setoption(line: &str, bounds: OptionBounds) -> Result<(), String> {
    let words: Vec<&str> = line.split_whitespace().collect();
    if words.get(1) != Some(&"name") {
        return Err("setoption: expected 'setoption name <name> [value <value>]'".into());
    }
    let value_at = words.iter().position(|&w| w == "value");
    let name = words[2..value_at.unwrap_or(words.len())].join(" ");
    let value = value_at.map(|i| words[i + 1..].join(" "));
    let Some(known) = OPTIONS.iter().find(|o| o.eq_ignore_ascii_case(&name)) else {
        return Err(format!(
            "setoption: option '{name}' may not be set from the page (allowed: {})",
            OPTIONS.join(", ")
        ));
    };
    let bounded = |max: u64| -> Result<(), String> {
        match value.as_deref().map(str::parse::<u64>) {
            Some(Ok(v)) if v <= max => Ok(()),
            _ => Err(format!(
                "setoption: {known} must be a number from 1 to {max} here"
            )),
        }
    };
    match *known {
        "Hash" => bounded(bounds.max_hash_mb),
        "Threads" => bounded(bounds.max_threads),
        _ => Ok(()),
    }
}

/// The games an engine of this dialect can play, for the page's choices (`None`: any game
/// the engine itself accepts).
pub fn games_of(dialect: Dialect) -> Option<Vec<&'static str>> {
    match dialect {
        Dialect::Fsf => Some(fsf::GAMES.to_vec()),
        _ => None,
    }
}

/// Follows the game for a UCI or Fairy-Stockfish engine and translates its lines.
pub struct Adapter {
    fsf: bool,
    /// Whether the engine listed a `UCI_Variant` option in its `uci` reply.
    has_variant_option: bool,
    /// Whether it listed `UCI_Chess960`: chess engines castle king-takes-rook only with it.
    has_chess960_option: bool,
    /// Whether `position startpos` must be written as the start's FEN: a UCI engine's
    /// startpos is standard chess's, not a Chess960 start.
    startpos_as_fen: bool,
    variant: Option<FsfGame>,
    /// The current game's start position (its rules) and the position set by `position`.
    start: Box<dyn Position>,
    pos: Box<dyn Position>,
    /// The position the running `go` searches, for translating its moves back.
    searching: Box<dyn Position>,
}

/// What becomes of a line from the page.
#[derive(Debug, PartialEq, Eq)]
pub enum Route {
    /// These commands go to the engine.
    Engine(Vec<Command>),
    /// These lines go back to the page as if the engine had printed them.
    Page(Vec<String>),
}

impl Adapter {
    /// An adapter for an engine that answered `uci` with these option names; the engine
    /// starts in tic-tac-toe, as ply does.
    pub fn new(dialect: Dialect, options: &[String]) -> Adapter {
        let start =
            rules::start("tictactoe", &Params::new()).expect("tic-tac-toe has no parameters");
        Adapter {
            fsf: dialect == Dialect::Fsf,
            has_variant_option: options
                .iter()
                .any(|o| o.eq_ignore_ascii_case("UCI_Variant")),
            has_chess960_option: options
                .iter()
                .any(|o| o.eq_ignore_ascii_case("UCI_Chess960")),
            startpos_as_fen: false,
            variant: Some(FsfGame::TicTacToe),
            pos: start.boxed(),
            searching: start.boxed(),
            start,
        }
    }

    /// The commands that select the current game at the start (after the handshake).
    pub fn initial_commands(&self) -> Vec<Command> {
        if self.fsf {
            vec![Command::set_option("UCI_Variant", Some("tictactoe"))]
        } else {
            Vec::new()
        }
    }

    /// Routes one checked line from the page: read as a command by the protocol's own
    /// parser (its errors go back to the page as ply would print them), then translated.
    pub fn to_engine(&mut self, line: &str) -> Route {
        let error =
            |cmd: &str, msg: String| Route::Page(vec![format!("info string error {cmd}: {msg}")]);
        let command = match parse(line) {
            Ok(c) => c,
            Err(e) => return Route::Page(vec![format!("info string error {e}")]),
        };
        match command {
            Command::NewGame { game, params } => match self.newgame(&game, &params) {
                Ok(commands) => Route::Engine(commands),
                Err(e) => error("newgame", e),
            },
            Command::UciNewGame => {
                self.pos = self.start.boxed();
                Route::Engine(vec![Command::UciNewGame])
            }
            Command::Position { start, moves } => match self.position(start, &moves) {
                Ok(c) => Route::Engine(vec![c]),
                Err(e) => error("position", e),
            },
            Command::Go(_) => {
                self.searching = self.pos.boxed();
                Route::Engine(vec![command])
            }
            Command::Query(q) => match self.query(&q) {
                Ok(answer) => Route::Page(vec![QueryResponse(answer).to_string()]),
                Err(e) => error("query", e),
            },
            Command::SetOption { name, .. }
                if self.fsf && name.eq_ignore_ascii_case("UCI_Variant") =>
            {
                error(
                    "setoption",
                    "use newgame to choose the game of a Fairy-Stockfish engine".into(),
                )
            }
            _ => Route::Engine(vec![command]),
        }
    }

    fn newgame(&mut self, game: &str, words: &[String]) -> Result<Vec<Command>, String> {
        let params = Params::parse(words.iter().map(String::as_str)).map_err(|e| e.to_string())?;
        let start = rules::start(game, &params)?;
        let mut commands = Vec::new();
        if self.fsf {
            let v = FsfGame::for_game(game, &params)?;
            self.variant = Some(v);
            commands.push(Command::set_option("UCI_Variant", Some(v.variant())));
        } else if self.has_variant_option {
            commands.push(Command::set_option("UCI_Variant", Some(game)));
        }
        if game == "chess" && self.has_chess960_option && !self.fsf {
            // ply writes Chess960's castling king-takes-rook, as UCI_Chess960 mode does.
            let c960 = params.get_bool("chess960", false).unwrap_or(false);
            commands.push(Command::set_option("UCI_Chess960", Some(&c960.to_string())));
        }
        commands.push(Command::UciNewGame);
        self.startpos_as_fen = !self.fsf && game == "chess" && start.fen() != CHESS_START;
        self.pos = start.boxed();
        self.start = start;
        Ok(commands)
    }

    /// Checks a `position` command with ply's rules and writes it for the engine.
    fn position(&mut self, start: PositionStart, moves: &MoveList) -> Result<Command, String> {
        let mut pos = match &start {
            PositionStart::StartPos => self.start.boxed(),
            PositionStart::Fen { text, .. } => self
                .start
                .with_fen(text)
                .map_err(|e| format!("fen '{text}': {e}"))?,
        };
        let mut engine_moves = Vec::new();
        for (i, mv) in moves.iter().enumerate() {
            let mv = mv.text;
            engine_moves.push(match (self.fsf, self.variant) {
                (true, Some(v)) => v.move_to_fsf(&pos.fen(), mv).unwrap_or_default(),
                _ => mv.to_string(),
            });
            pos.play(mv)
                .map_err(|e| format!("move {} '{mv}': {e}", i + 1))?;
        }
        let start = match (start, self.fsf, self.variant) {
            (PositionStart::StartPos, _, _) if self.startpos_as_fen => {
                PositionStart::fen(&self.start.fen())
            }
            (PositionStart::Fen { text, .. }, true, Some(v)) => {
                PositionStart::fen(&v.fen_to_fsf(&text)?)
            }
            (start, _, _) => start,
        };
        self.pos = pos;
        Ok(Command::position(start, engine_moves))
    }

    fn query(&self, query: &Query) -> Result<String, String> {
        let pos = &self.pos;
        Ok(match query {
            Query::GameOver => (pos.result() != "none").to_string(),
            Query::Result => pos.result().to_string(),
            Query::SideToMove => pos.side().protocol_name().to_string(),
            Query::P1Turn => (pos.side() == Player::First).to_string(),
            Query::LegalMoves => pos.legal_moves().join(" "),
            Query::IsLegal(mv) => pos.boxed().play(mv).is_ok().to_string(),
            Query::Fen => pos.fen(),
        })
    }

    /// Rewrites one line from the engine for the page: Fairy-Stockfish's moves in `bestmove`
    /// and `pv` become ply's notation (a `pv` is cut at the first move that does not
    /// translate; a `bestmove` that does not is passed on as it is, for the page to refuse).
    pub fn from_engine(&self, line: String) -> String {
        let Some(v) = self.variant.filter(|_| self.fsf) else {
            return line;
        };
        let words: Vec<&str> = line.split_whitespace().collect();
        match words.first() {
            Some(&"bestmove") if words.len() >= 2 && words[1] != "(none)" => {
                match v.move_from_fsf(&self.searching.fen(), words[1]) {
                    Ok(m) => format!("bestmove {m}"),
                    Err(_) => line,
                }
            }
            Some(&"info") => match words.iter().position(|&w| w == "pv") {
                Some(at) => {
                    let mut pos = self.searching.boxed();
                    let mut out: Vec<String> = words[..=at].iter().map(|w| w.to_string()).collect();
                    for raw in &words[at + 1..] {
                        let Ok(m) = v.move_from_fsf(&pos.fen(), raw) else {
                            break;
                        };
                        if pos.play(&m).is_err() {
                            break;
                        }
                        out.push(m);
                    }
                    out.join(" ")
                }
                None => line,
            },
            _ => line,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The route of commands printed as these lines.
    fn engine(lines: &[&str]) -> Route {
        Route::Engine(lines.iter().map(|l| parse(l).unwrap()).collect())
    }

    const B: OptionBounds = OptionBounds {
        max_hash_mb: 256,
        max_threads: 2,
    };

    #[test]
    fn only_listed_commands_and_options_pass() {
        for ok in [
            "go depth 3",
            "position startpos moves 4 4",
            "setoption name Hash value 64",
            "setoption name clear hash",
            "query legalmoves",
            "isready",
        ] {
            assert_eq!(check_line(ok, B), Ok(()), "{ok}");
        }
        for bad in [
            "quit",
            "uci",
            "bench",
            "go depth 3\nquit",
            "position startpos\r",
            "setoption name VariantPath value /etc/passwd",
            "setoption name Debug Log File value engine.log",
            "setoption name Hash value 100000",
            "setoption name Threads value 64",
            "setoption Hash 1",
            "",
            "   ",
        ] {
            assert!(check_line(bad, B).is_err(), "{bad:?} passed");
        }
    }

    #[test]
    fn fsf_positions_and_moves_translate_both_ways() {
        let mut a = Adapter::new(Dialect::Fsf, &["UCI_Variant".into()]);
        assert_eq!(
            a.to_engine("newgame connect4"),
            engine(&["setoption name UCI_Variant value connect4", "ucinewgame"])
        );
        assert_eq!(
            a.to_engine("position startpos moves 4 4 3"),
            engine(&["position startpos moves P@d1 P@d2 P@c1"])
        );
        a.to_engine("go depth 5");
        assert_eq!(a.from_engine("bestmove P@d3".into()), "bestmove 4");
        assert_eq!(
            a.from_engine("info depth 2 score cp 3 pv P@d3 P@b1 zz".into()),
            "info depth 2 score cp 3 pv 4 2"
        );
        assert_eq!(
            a.to_engine("query legalmoves"),
            Route::Page(vec!["response 1 2 3 4 5 6 7".into()])
        );
        let Route::Page(err) = a.to_engine("position startpos moves 4 9") else {
            panic!("a bad move reached the engine")
        };
        assert!(err[0].starts_with("info string error position: move 2 '9': malformed move"));
        let Route::Page(err) = a.to_engine("newgame nim") else {
            panic!("nim reached Fairy-Stockfish")
        };
        assert!(err[0].contains("not nim"), "{err:?}");
        // The refused commands changed nothing: the last good position still answers.
        assert_eq!(
            a.to_engine("query fen"),
            Route::Page(vec![
                "response ......./......./......./......./...o.../..xx... o".into()
            ])
        );
    }

    #[test]
    fn uci_engines_get_uci_variant_only_when_they_list_it() {
        let mut plain = Adapter::new(Dialect::Uci, &[]);
        assert_eq!(
            plain.to_engine("newgame connect4 width=8"),
            engine(&["ucinewgame"])
        );
        let mut a = Adapter::new(Dialect::Uci, &["UCI_Variant".into()]);
        assert_eq!(
            a.to_engine("newgame teeko"),
            engine(&["setoption name UCI_Variant value teeko", "ucinewgame"])
        );
        assert_eq!(
            a.to_engine("position fen 5/5/5/5/5 b moves c3"),
            engine(&["position fen 5/5/5/5/5 b moves c3"])
        );
        assert_eq!(a.from_engine("bestmove c3".into()), "bestmove c3");
    }

    #[test]
    fn chess_engines_are_told_chess960_when_they_list_it() {
        let mut sf = Adapter::new(Dialect::Uci, &["UCI_Chess960".into()]);
        assert_eq!(
            sf.to_engine("newgame chess chess960=true start=0"),
            engine(&["setoption name UCI_Chess960 value true", "ucinewgame"])
        );
        // Moves are checked by ply's rules and passed on as they are.
        assert_eq!(
            sf.to_engine(
                "position fen bbqnnrkr/pppppppp/8/8/8/8/PPPPPPPP/BBQNNRKR w KQkq - 0 1 moves e2e4"
            ),
            engine(&[
                "position fen bbqnnrkr/pppppppp/8/8/8/8/PPPPPPPP/BBQNNRKR w KQkq - 0 1 moves e2e4"
            ])
        );
        // Its startpos is standard chess's: a Chess960 start is written out.
        assert_eq!(
            sf.to_engine("position startpos moves g2g3"),
            engine(&[
                "position fen bbqnnrkr/pppppppp/8/8/8/8/PPPPPPPP/BBQNNRKR w KQkq - 0 1 moves g2g3"
            ])
        );
        assert_eq!(
            sf.to_engine("newgame chess"),
            engine(&["setoption name UCI_Chess960 value false", "ucinewgame"])
        );
        assert_eq!(
            sf.to_engine("position startpos moves e2e4"),
            engine(&["position startpos moves e2e4"])
        );
        let mut plain = Adapter::new(Dialect::Uci, &[]);
        assert_eq!(
            plain.to_engine("newgame chess chess960=true"),
            engine(&["ucinewgame"])
        );
    }
}
