//! `ply-referee check -- <engine command>`: a compliance script for an engine that speaks
//! ply's protocol. It runs the handshake, checks the options it lists, then for each game:
//! positions (start, moves, FEN, a finished game), every `go` form, `stop`, `isready` in the
//! middle of a search, the `query` answers against ply's own rules, and bad input the engine
//! must survive and report. Each step prints `ok` or `FAIL` with what was seen; the script
//! stops at the first failure (exit code 2).
//!
//! Every move the engine names is checked with the referee's copy of the rules, so the
//! script also catches an engine whose rules disagree with ply's.

use std::io::Write;
use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};

use crate::client::Launch;
use crate::client::process::EngineProcess;
use crate::game::{Game, Params, play_moves};
use crate::games::NAMES;
use crate::protocol::command::{Command, GoParams, MoveList, PositionStart, Query};
use crate::protocol::response::{
    BestMove, IdLine, InfoLine, OptionKind, OptionLine, QueryResponse,
};
use crate::util::Rng;
use crate::value::Score;
use crate::with_game;

/// The most output a step reads while waiting for one reply.
const MAX_REPLY_BYTES: usize = 16 << 20;

pub struct CheckConfig {
    pub launch: Launch,
    /// Games to check; empty: those the engine lists in `UCI_Variant` that ply knows.
    pub games: Vec<String>,
    /// Longest wait for any single answer.
    pub timeout: Duration,
    pub verbose: bool,
}

/// A failed step: what was expected and what was seen.
struct Fail(String);

type Step<T> = Result<T, Fail>;

fn fail<T>(msg: impl Into<String>) -> Step<T> {
    Err(Fail(msg.into()))
}

struct Checker<'a> {
    p: EngineProcess,
    timeout: Duration,
    out: &'a mut dyn Write,
    abort: AtomicBool,
    passed: usize,
    /// Deviations that do not fail a step (printed as `warn`), for the step in progress.
    warnings: Vec<String>,
    warned: usize,
}

/// What one `go` produced.
struct Search {
    bestmove: String,
    infos: Vec<String>,
    elapsed: Duration,
}

impl Checker<'_> {
    fn report(&mut self, name: &str, r: Step<String>) -> Result<(), ()> {
        match r {
            Ok(detail) => {
                self.passed += 1;
                let _ = writeln!(self.out, "ok    {name}: {detail}");
                for w in std::mem::take(&mut self.warnings) {
                    self.warned += 1;
                    let _ = writeln!(self.out, "warn  {name}: {w}");
                }
                Ok(())
            }
            Err(Fail(why)) => {
                let _ = writeln!(self.out, "FAIL  {name}: {why}");
                Err(())
            }
        }
    }

    fn send(&mut self, command: &Command) -> Step<()> {
        self.p
            .send(command)
            .map_err(|e| Fail(format!("cannot send '{command}': {e:?}")))
    }

    /// Sends a line that is deliberately not a well-formed command (bad input).
    fn send_text(&mut self, line: &str) -> Step<()> {
        self.p
            .send_text(line)
            .map_err(|e| Fail(format!("cannot send '{line}': {e:?}")))
    }

    /// Lines up to and including the first starting with `word` (a failure beyond
    /// [`MAX_REPLY_BYTES`] of them: no step expects that much).
    fn until(&mut self, word: &str, within: Duration) -> Step<Vec<String>> {
        let deadline = Instant::now() + within;
        let mut lines = Vec::new();
        let mut bytes = 0;
        loop {
            match self.p.recv(deadline, &self.abort) {
                Ok((l, _)) => {
                    let first = l.split_whitespace().next() == Some(word);
                    bytes += l.len() + 1;
                    lines.push(l);
                    if first {
                        return Ok(lines);
                    }
                    if bytes > MAX_REPLY_BYTES {
                        return fail(format!(
                            "more than {MAX_REPLY_BYTES} bytes of output before '{word}'"
                        ));
                    }
                }
                Err(e) => {
                    let seen = if lines.is_empty() {
                        "nothing".to_string()
                    } else {
                        format!("{:?}", lines.iter().rev().take(3).rev().collect::<Vec<_>>())
                    };
                    return fail(format!(
                        "no '{word}' within {} ms ({e:?}); last lines: {seen}",
                        within.as_millis()
                    ));
                }
            }
        }
    }

    /// `isready` → `readyok`; returns the lines before it.
    fn ready(&mut self) -> Step<Vec<String>> {
        self.send(&Command::IsReady)?;
        let mut lines = self.until("readyok", self.timeout)?;
        lines.pop();
        Ok(lines)
    }

    /// `isready`, failing on any `info string error` line before `readyok`.
    fn ready_clean(&mut self, after: &str) -> Step<()> {
        let lines = self.ready()?;
        match lines.iter().find(|l| l.starts_with("info string error")) {
            Some(e) => fail(format!("'{after}' was answered with '{e}'")),
            None => Ok(()),
        }
    }

    fn go(&mut self, go: &GoParams, within: Duration) -> Step<Search> {
        self.send(&Command::Go(go.clone()))?;
        let t = Instant::now();
        let mut lines = self.until("bestmove", within)?;
        let elapsed = t.elapsed();
        let last = lines.pop().expect("until returns the matching line");
        let bestmove = match last.parse::<BestMove>() {
            Ok(b) if last.split_whitespace().nth(1).is_some() => b.text().to_string(),
            _ => return fail(format!("'{last}' names no move")),
        };
        Ok(Search {
            bestmove,
            infos: lines,
            elapsed,
        })
    }

    /// `query <q>` → the words after `response`.
    fn query(&mut self, q: Query) -> Step<String> {
        self.send(&Command::Query(q))?;
        let lines = self.until("response", self.timeout)?;
        let last = lines.last().expect("until returns the matching line");
        Ok(last.parse::<QueryResponse>().map_or(String::new(), |r| r.0))
    }
}

/// A move the engine named must be legal in `pos`.
fn legal_in<G: Game>(pos: &G, s: &Search, what: &str) -> Step<String> {
    match pos.parse_move(&s.bestmove) {
        Ok(_) => Ok(format!(
            "bestmove {} after {} ms",
            s.bestmove,
            s.elapsed.as_millis()
        )),
        Err(e) => fail(format!("{what}: bestmove '{}': {e}", s.bestmove)),
    }
}

/// A random line of up to `plies` moves from `start` that leaves the game open.
fn random_line<G: Game>(start: &G, plies: usize, rng: &mut Rng) -> (G, Vec<String>) {
    let line = super::openings::random_plies(start, plies as u32, rng);
    let refs: Vec<&str> = line.iter().map(String::as_str).collect();
    let pos = play_moves(start, &refs).expect("random_plies plays legal moves");
    (pos, line)
}

/// A finished game reached by random play, with its moves.
fn finished_line<G: Game>(start: &G, rng: &mut Rng) -> Option<(G, Vec<String>)> {
    let mut pos = start.clone();
    let mut line = Vec::new();
    let mut moves = Vec::new();
    for _ in 0..10_000 {
        if pos.outcome().is_some() {
            return Some((pos, line));
        }
        moves.clear();
        pos.legal_moves(&mut moves);
        let mv = moves[rng.below(moves.len())];
        line.push(pos.format_move(mv));
        pos.play(mv);
    }
    None
}

/// What the steps of one game's script share: the rules, and the random positions they play
/// from (drawn once, in a fixed order, so the script is the same on every run).
struct GameCase<G: Game> {
    game: String,
    start: G,
    /// A random open line from the start, and the position it reaches.
    line: Vec<String>,
    pos: G,
    /// Two more random moves after `pos`, and where they lead.
    fen_line: Vec<String>,
    fen_pos: G,
    /// A finished game reached by random play, when one was found.
    finished: Option<(G, Vec<String>)>,
    /// Longest wait for an answer beyond a search's own budget.
    slack: Duration,
}

impl<G: Game> GameCase<G> {
    fn new(game: &str, slack: Duration) -> GameCase<G> {
        let start = G::new(&Params::new()).expect("default parameters are valid");
        let mut rng = Rng::new(0x5EED);
        let (pos, line) = random_line(&start, 4, &mut rng);
        let (fen_pos, fen_line) = random_line(&pos, 2, &mut rng);
        let finished = finished_line(&start, &mut rng);
        GameCase {
            game: game.to_string(),
            start,
            line,
            pos,
            fen_line,
            fen_pos,
            finished,
            slack,
        }
    }

    /// The `position` command that sets `pos`.
    fn setup(&self) -> Command {
        Command::position(PositionStart::StartPos, &self.line)
    }
}

/// One named step of a game's script: it runs its checks and reports them (`Err` when it
/// failed, which ends the script).
type GameStep<G> = fn(&mut Checker, &GameCase<G>) -> Result<(), ()>;

/// The script for one game, in order.
fn check_game<G: Game>(c: &mut Checker, game: &str) -> Result<(), ()> {
    let case = GameCase::<G>::new(game, c.timeout);
    let steps: [GameStep<G>; 8] = [
        newgame_is_accepted,
        startpos_is_the_start,
        moves_give_the_rules_position,
        fen_and_moves_give_the_rules_position,
        finished_game_has_no_move,
        every_go_form_keeps_its_limits,
        isready_answers_during_go_infinite,
        bad_move_changes_nothing,
    ];
    for step in steps {
        step(c, &case)?;
    }
    Ok(())
}

fn newgame_is_accepted<G: Game>(c: &mut Checker, case: &GameCase<G>) -> Result<(), ()> {
    let game = &case.game;
    let r = (|| {
        c.send(&Command::NewGame {
            game: game.clone(),
            params: Vec::new(),
        })?;
        c.ready_clean(&format!("newgame {game}"))?;
        Ok(format!("newgame {game} accepted"))
    })();
    c.report(&format!("{game}: newgame"), r)
}

fn startpos_is_the_start<G: Game>(c: &mut Checker, case: &GameCase<G>) -> Result<(), ()> {
    let start = &case.start;
    let r = (|| {
        c.send(&Command::Position {
            start: PositionStart::StartPos,
            moves: MoveList::default(),
        })?;
        let fen = c.query(Query::Fen)?;
        if fen != start.fen() {
            return fail(format!(
                "query fen after startpos: '{fen}', expected '{}'",
                start.fen()
            ));
        }
        let s = c.go(&depth(1), case.slack)?;
        legal_in(start, &s, "position startpos, go depth 1")
    })();
    c.report(&format!("{}: position startpos", case.game), r)
}

fn moves_give_the_rules_position<G: Game>(c: &mut Checker, case: &GameCase<G>) -> Result<(), ()> {
    let pos = &case.pos;
    let r = (|| {
        c.send(&case.setup())?;
        let fen = c.query(Query::Fen)?;
        if fen != pos.fen() {
            return fail(format!("query fen: '{fen}', expected '{}'", pos.fen()));
        }
        let legal = c.query(Query::LegalMoves)?;
        let mut theirs: Vec<&str> = legal.split_whitespace().collect();
        let mut ours_moves = Vec::new();
        pos.legal_moves(&mut ours_moves);
        let mut ours: Vec<String> = ours_moves.iter().map(|&m| pos.format_move(m)).collect();
        theirs.sort();
        ours.sort();
        if theirs != ours {
            return fail(format!(
                "query legalmoves: {theirs:?}, ply's rules say {ours:?}"
            ));
        }
        let s = c.go(&depth(2), case.slack)?;
        legal_in(pos, &s, "position startpos moves ..")
    })();
    let name = format!(
        "{}: position startpos moves {}",
        case.game,
        case.line.join(" ")
    );
    c.report(&name, r)
}

fn fen_and_moves_give_the_rules_position<G: Game>(
    c: &mut Checker,
    case: &GameCase<G>,
) -> Result<(), ()> {
    let (pos, fpos) = (&case.pos, &case.fen_pos);
    let r = (|| {
        c.send(&Command::position(
            PositionStart::fen(&pos.fen()),
            &case.fen_line,
        ))?;
        let fen = c.query(Query::Fen)?;
        if fen != fpos.fen() {
            return fail(format!("query fen: '{fen}', expected '{}'", fpos.fen()));
        }
        let s = c.go(&depth(2), case.slack)?;
        legal_in(fpos, &s, "position fen .. moves ..")
    })();
    c.report(&format!("{}: position fen {}", case.game, pos.fen()), r)
}

fn finished_game_has_no_move<G: Game>(c: &mut Checker, case: &GameCase<G>) -> Result<(), ()> {
    let Some((end, eline)) = &case.finished else {
        return Ok(());
    };
    let r = (|| {
        c.send(&Command::position(PositionStart::StartPos, eline))?;
        let s = c.go(&depth(3), case.slack)?;
        if s.bestmove != "(none)" {
            return fail(format!(
                "the game is over ({}), but bestmove is '{}'",
                end.outcome().map_or("?", |o| o.protocol_name()),
                s.bestmove
            ));
        }
        let want = match end.outcome() {
            Some(crate::game::Outcome::Draw) => Score::Cp(0),
            _ => Score::Mate(0),
        };
        let depth_0 = s.infos.iter().find_map(|l| {
            let info = l.parse::<InfoLine>().ok()?;
            (info.depth == Some(0)).then_some((l, info))
        });
        match depth_0 {
            Some((l, info)) if info.score.map(|s| s.score) == Some(want) => {
                Ok(format!("'{l}' then bestmove (none)"))
            }
            Some((l, _)) => fail(format!("'{l}': expected score {want}")),
            None => fail(format!(
                "no 'info depth 0 score {want}' before bestmove (none); got {:?}",
                s.infos
            )),
        }
    })();
    c.report(&format!("{}: finished game", case.game), r)
}

/// `go depth <d>`.
fn depth(d: u32) -> GoParams {
    GoParams {
        depth: Some(d),
        ..GoParams::default()
    }
}

/// Every `go` form, from `pos`, with the time it may take (`None`: not limited by time).
fn go_forms() -> [(GoParams, Option<Duration>); 6] {
    let ms = Duration::from_millis;
    let go = |set: &dyn Fn(&mut GoParams)| {
        let mut g = GoParams::default();
        set(&mut g);
        g
    };
    let clocks = |g: &mut GoParams, time: i64| (g.wtime, g.btime) = (Some(time), Some(time));
    [
        (depth(3), None),
        (go(&|g| g.nodes = Some(2000)), None),
        (go(&|g| g.movetime = Some(200)), Some(ms(200))),
        (
            go(&|g| {
                clocks(g, 2000);
                (g.winc, g.binc) = (Some(20), Some(20));
            }),
            Some(ms(2000)),
        ),
        (
            go(&|g| {
                clocks(g, 1000);
                g.movestogo = Some(5);
            }),
            Some(ms(1000)),
        ),
        (
            go(&|g| (g.depth, g.movetime, g.nodes) = (Some(2), Some(5000), Some(100_000))),
            Some(ms(5000)),
        ),
    ]
}

fn every_go_form_keeps_its_limits<G: Game>(c: &mut Checker, case: &GameCase<G>) -> Result<(), ()> {
    for (go, budget) in go_forms() {
        let r = go_keeps_its_limits(c, case, &go, budget);
        c.report(&format!("{}: {}", case.game, Command::Go(go)), r)?;
    }
    Ok(())
}

fn go_keeps_its_limits<G: Game>(
    c: &mut Checker,
    case: &GameCase<G>,
    go: &GoParams,
    budget: Option<Duration>,
) -> Step<String> {
    c.send(&case.setup())?;
    let s = c.go(go, budget.unwrap_or(Duration::ZERO) + case.slack)?;
    if let Some(b) = budget {
        // The engine may use at most its budget; 100 ms for pipes and scheduling.
        if s.elapsed > b + Duration::from_millis(100) {
            return fail(format!(
                "bestmove after {} ms, over the {} ms budget",
                s.elapsed.as_millis(),
                b.as_millis()
            ));
        }
    }
    if let Some(limit) = go.depth {
        // Iterations stop at the limit (earlier when a result is proven).
        let depths: Vec<u32> = s
            .infos
            .iter()
            .filter_map(|l| l.parse::<InfoLine>().ok()?.depth)
            .collect();
        match depths.iter().max() {
            None => {
                return fail(format!(
                    "no 'info depth' line before bestmove: {:?}",
                    s.infos
                ));
            }
            Some(&d) if d > limit => {
                let go = Command::Go(go.clone());
                return fail(format!("'{go}' reported depth {d}"));
            }
            Some(_) => {}
        }
    }
    legal_in(&case.pos, &s, &Command::Go(go.clone()).to_string())
}

fn isready_answers_during_go_infinite<G: Game>(
    c: &mut Checker,
    case: &GameCase<G>,
) -> Result<(), ()> {
    let r = (|| {
        c.send(&case.setup())?;
        let infinite = GoParams {
            infinite: true,
            ..GoParams::default()
        };
        c.send(&Command::Go(infinite))?;
        let early = c.until("bestmove", Duration::from_millis(300));
        if let Ok(lines) = early {
            return fail(format!("'go infinite' ended by itself: {:?}", lines.last()));
        }
        c.send(&Command::IsReady)?;
        let lines = c.until("readyok", case.slack)?;
        if lines.iter().any(|l| l.starts_with("bestmove")) {
            return fail("bestmove came before readyok: isready must not stop the search");
        }
        c.send(&Command::Stop)?;
        let t = Instant::now();
        let lines = c.until("bestmove", case.slack)?;
        let last = lines.last().expect("until returns the matching line");
        let mv = last
            .parse::<BestMove>()
            .map_or(String::new(), |b| b.text().to_string());
        let s = Search {
            bestmove: mv,
            infos: vec![],
            elapsed: t.elapsed(),
        };
        legal_in(&case.pos, &s, "go infinite, stop")
            .map(|d| format!("readyok during the search; after stop: {d}"))
    })();
    c.report(&format!("{}: go infinite, isready, stop", case.game), r)
}

/// A position whose last move is not a move at all, after a legal one: the error must be
/// reported and nothing of the command applied (the legal move included).
fn bad_move_changes_nothing<G: Game>(c: &mut Checker, case: &GameCase<G>) -> Result<(), ()> {
    let pos = &case.pos;
    let setup = case.setup();
    let mut moves = Vec::new();
    pos.legal_moves(&mut moves);
    let legal = pos.format_move(moves[0]);
    let r = (|| {
        c.send(&setup)?;
        let moves = case
            .line
            .iter()
            .map(String::as_str)
            .chain([legal.as_str(), "zz9"]);
        let bad = Command::position(PositionStart::StartPos, moves);
        c.send(&bad)?;
        let lines = c.ready()?;
        if !lines.iter().any(|l| l.starts_with("info string error")) {
            // isready is a barrier for the commands sent before it once no search runs; an
            // engine that answers it early still has to report the error afterwards.
            match c.until("info", c.timeout) {
                Ok(late)
                    if late
                        .last()
                        .is_some_and(|l| l.starts_with("info string error")) =>
                {
                    c.warnings.push(format!(
                        "readyok came before the error for '{bad}': isready overtook an \
                         earlier command (the search before it had already sent bestmove)"
                    ));
                }
                _ => return fail(format!("'{bad}' (a bad move) was not reported: {lines:?}")),
            }
        }
        let fen = c.query(Query::Fen)?;
        if fen != pos.fen() {
            return fail(format!(
                "after the refused '{bad}' the position is '{fen}', not the previous '{}'",
                pos.fen()
            ));
        }
        Ok("reported, and the previous position kept".to_string())
    })();
    c.report(&format!("{}: bad move in position", case.game), r)
}

fn bad_input(c: &mut Checker) -> Result<(), ()> {
    let cases: [(&str, String, bool); 8] = [
        ("unknown command", "xyzzy 1 2 3".into(), false),
        ("go with a bad value", "go depth x".into(), true),
        ("position without arguments", "position".into(), true),
        ("setoption without a name", "setoption name".into(), true),
        (
            "unknown option",
            "setoption name NoSuchOption value 1".into(),
            true,
        ),
        ("blank line", "   ".into(), false),
        ("a 100 KB line", "x".repeat(100_000), false),
        ("CRLF line ending", "isready\r".into(), false),
    ];
    for (what, line, reported) in cases {
        let r = (|| {
            c.send_text(&line)?;
            let lines = c.ready()?;
            let errors = lines
                .iter()
                .filter(|l| l.starts_with("info string error"))
                .count();
            if reported && errors == 0 {
                return fail(format!("no 'info string error' for it; got {lines:?}"));
            }
            Ok(if reported {
                "reported, engine alive".to_string()
            } else {
                "engine alive".to_string()
            })
        })();
        c.report(&format!("bad input: {what}"), r)?;
    }
    Ok(())
}

/// Runs the script; returns the exit code (0 all passed, 1 usage, 2 a step failed).
pub fn run(cfg: &CheckConfig, out: &mut dyn Write) -> i32 {
    for g in &cfg.games {
        if !NAMES.contains(&g.as_str()) {
            let _ = writeln!(out, "unknown game '{g}' (known: {})", NAMES.join(", "));
            return 1;
        }
    }
    let p = match EngineProcess::spawn("engine", &cfg.launch, cfg.verbose) {
        Ok(p) => p,
        Err(e) => {
            let _ = writeln!(out, "FAIL  start: cannot run {}: {e}", cfg.launch.cmd);
            return 2;
        }
    };
    let mut c = Checker {
        p,
        timeout: cfg.timeout,
        out,
        abort: AtomicBool::new(false),
        passed: 0,
        warnings: Vec::new(),
        warned: 0,
    };
    let code = (|| -> Result<(), ()> {
        let variants = handshake(&mut c)?;
        let r = c.ready().map(|_| "readyok".to_string());
        c.report("isready", r)?;
        bad_input(&mut c)?;
        for g in &games_to_check(cfg, variants) {
            with_game!(g.as_str(), G => check_game::<G>(&mut c, g), _ => Err(()))?;
        }
        quit_ends_the_engine(&mut c)
    })();
    match code {
        Ok(()) => {
            let _ = writeln!(
                c.out,
                "passed: all {} steps ({} warnings)",
                c.passed, c.warned
            );
            0
        }
        Err(()) => {
            let _ = writeln!(c.out, "failed after {} passing steps", c.passed);
            2
        }
    }
}

/// `uci` → `id name`, well-formed options, `uciok`; returns the games the engine lists in
/// `UCI_Variant`.
fn handshake(c: &mut Checker) -> Result<Vec<String>, ()> {
    let mut variants = Vec::new();
    let r = (|| {
        c.send(&Command::Uci)?;
        let lines = c.until("uciok", c.timeout)?;
        let name = lines.iter().find_map(|l| match l.parse::<IdLine>() {
            Ok(IdLine::Name(n)) => Some(n),
            _ => None,
        });
        let Some(name) = name else {
            return fail("no 'id name' line before uciok");
        };
        let options: Vec<&String> = lines.iter().filter(|l| l.starts_with("option ")).collect();
        for o in &options {
            let option = check_option(o).map_err(Fail)?;
            if let ("UCI_Variant", OptionKind::Combo { vars, .. }) = (&*option.name, option.kind) {
                variants = vars;
            }
        }
        Ok(format!(
            "id name {name}; {} well-formed options",
            options.len()
        ))
    })();
    c.report("handshake (uci, options)", r)?;
    Ok(variants)
}

/// The games asked for, else those the engine lists that ply knows, else the default game.
fn games_to_check(cfg: &CheckConfig, variants: Vec<String>) -> Vec<String> {
    if !cfg.games.is_empty() {
        return cfg.games.clone();
    }
    let known: Vec<String> = variants
        .into_iter()
        .filter(|v| NAMES.contains(&v.as_str()))
        .collect();
    if known.is_empty() {
        vec![crate::games::DEFAULT_GAME.to_string()]
    } else {
        known
    }
}

/// `quit` ends the process within the timeout.
fn quit_ends_the_engine(c: &mut Checker) -> Result<(), ()> {
    let r = (|| {
        c.send(&Command::Quit)?;
        let t = Instant::now();
        while t.elapsed() < c.timeout {
            if c.p.is_gone() {
                return Ok(format!("exited after {} ms", t.elapsed().as_millis()));
            }
            std::thread::sleep(Duration::from_millis(10));
        }
        fail(format!(
            "still running {} ms after quit",
            c.timeout.as_millis()
        ))
    })();
    c.report("quit", r)
}

/// Checks one `option name <N> type <T> ...` line: it reads as an [`OptionLine`] (a known
/// type with the values it needs), a spin's default lies within its bounds and a combo's
/// default is among its vars.
fn check_option(line: &str) -> Result<OptionLine, String> {
    let option: OptionLine = line.parse()?;
    let name = &option.name;
    match &option.kind {
        OptionKind::Spin { default, min, max } if !(min <= default && default <= max) => Err(
            format!("option {name}: default {default} outside {min}..{max}"),
        ),
        OptionKind::Combo { default, vars } if !vars.contains(default) => Err(format!(
            "option {name}: default '{default}' is not among {vars:?}"
        )),
        _ => Ok(option),
    }
}

#[cfg(test)]
mod tests {
    use super::check_option;

    #[test]
    fn option_lines() {
        assert!(check_option("option name Hash type spin default 16 min 1 max 65536").is_ok());
        assert!(check_option("option name Hash type spin default 0 min 1 max 8").is_err());
        assert!(check_option("option name Clear Hash type button").is_ok());
        assert!(check_option("option name Ponder type check default false").is_ok());
        assert!(check_option("option name P type check default maybe").is_err());
        assert!(check_option("option name UCI_Variant type combo default b var a var b").is_ok());
        assert!(check_option("option name V type combo default c var a var b").is_err());
        assert!(check_option("option name X type slider").is_err());
        assert!(check_option("option Hash").is_err());
    }
}
