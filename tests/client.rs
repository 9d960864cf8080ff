//! The client layer as a Rust caller uses it, with no referee: start an engine, hand-shake,
//! choose a game, set a position, `go`, and read typed answers; and its failures as types.
//! Every wait has the client's own deadline (its stall timeout, or the wait given to `go`).

use std::path::PathBuf;
use std::time::Duration;

use ply::client::{Dialect, Engine, EngineError, EngineSpec, Played, Timeouts, Watch};
use ply::game::{Game, Params};
use ply::games::Connect4;
use ply::protocol::command::GoParams;

fn ply_spec(words: &[&str]) -> EngineSpec {
    let cmd = format!("cmd={}", env!("CARGO_BIN_EXE_ply"));
    EngineSpec::parse(std::iter::once(cmd.as_str()).chain(words.iter().copied())).unwrap()
}

fn depth(d: u32) -> GoParams {
    GoParams {
        depth: Some(d),
        ..GoParams::default()
    }
}

const WAIT: Duration = Duration::from_secs(30);

#[test]
fn a_rust_caller_plays_through_the_client_alone() {
    let spec = ply_spec(&["name=ply", "option.Hash=8", "option.UseSolver=false"]);
    let mut e = Engine::start(&spec, Timeouts::default(), Watch::default()).unwrap();
    assert_eq!(e.dialect(), Dialect::Ply);
    assert!(e.hello().id_name.starts_with("ply"), "{:?}", e.hello());
    assert!(e.hello().lists("Hash") && e.hello().lists("usesolver"));
    e.new_game("connect4", &Params::new()).unwrap();
    let moves = ["4".to_string(), "4".to_string(), "3".to_string()];
    e.position(None, &moves).unwrap();
    let answer = e.go(&depth(6), WAIT).unwrap();
    assert_eq!(answer.info.depth, Some(6), "{answer:?}");
    assert!(answer.info.score.is_some() && answer.info.nodes.is_some());
    assert!(!answer.stopped);
    let pos = ply::game::play_moves(&Connect4::default(), &["4", "4", "3"]).unwrap();
    assert!(pos.parse_move(&answer.bestmove).is_ok(), "{answer:?}");
    // A finished game: no move, said as `(none)`.
    let full = ["4", "5", "4", "5", "4", "5", "4"].map(String::from);
    e.position(None, &full).unwrap();
    assert_eq!(e.go(&depth(3), WAIT).unwrap().bestmove, "(none)");
    // An error line is kept for the caller, not lost among the answers.
    e.position(None, &["9".to_string()]).unwrap();
    e.sync().unwrap();
    let errors = e.take_errors();
    assert!(
        errors.iter().any(|l| l.starts_with("position")),
        "{errors:?}"
    );
    e.quit();
}

#[test]
fn a_long_search_is_stopped_after_its_wait() {
    let spec = ply_spec(&["option.UseSolver=false"]);
    let mut e = Engine::start(&spec, Timeouts::default(), Watch::default()).unwrap();
    e.new_game("chess", &Params::new()).unwrap();
    e.position(None, &[]).unwrap();
    let infinite = GoParams {
        infinite: true,
        ..GoParams::default()
    };
    let answer = e.go(&infinite, Duration::from_millis(200)).unwrap();
    assert!(answer.stopped, "{answer:?}");
    assert!(answer.bestmove.len() >= 4, "{answer:?}");
    e.quit();
}

#[test]
fn failures_are_typed() {
    let missing = EngineSpec::new("/nonexistent/engine");
    let Err(EngineError::Spawn(why)) =
        Engine::start(&missing, Timeouts::default(), Watch::default())
    else {
        panic!("a missing program started");
    };
    assert!(why.contains("cannot start"), "{why}");
    // A program that is no engine: it exits at once without `uciok`.
    let t = std::time::Instant::now();
    let not_an_engine = EngineSpec::new("true");
    match Engine::start(&not_an_engine, Timeouts::default(), Watch::default()) {
        // Gone while it is sent `uci`, or while it is waited for.
        Err(EngineError::Gone(why)) => assert!(why.contains("exit status 0"), "{why}"),
        Err(e) => panic!("{e:?}"),
        Ok(_) => panic!("'true' passed a handshake"),
    }
    // One that never answers stalls, and the stall timeout says so.
    let quick = Timeouts {
        stall: Duration::from_millis(300),
        ..Timeouts::default()
    };
    let silent = EngineSpec {
        launch: ply::client::Launch {
            cmd: "sleep".into(),
            args: vec!["30".into()],
            dir: None,
        },
        ..EngineSpec::new("sleep")
    };
    match Engine::start(&silent, quick, Watch::default()) {
        Err(EngineError::Stall(why)) => assert_eq!(why, "no uciok within 300 ms"),
        Err(e) => panic!("{e:?}"),
        Ok(_) => panic!("'sleep' passed a handshake"),
    }
    assert!(t.elapsed() < Duration::from_secs(20));
    // ply, asked for a game Fairy-Stockfish's dialect cannot carry.
    let fsf_spoken = ply_spec(&["proto=fsf"]);
    let mut e = Engine::start(&fsf_spoken, Timeouts::default(), Watch::default()).unwrap();
    match e.new_game("chess", &Params::new()) {
        Err(EngineError::Setup(why)) => assert!(why.contains("not chess"), "{why}"),
        r => panic!("{r:?}"),
    }
    e.quit();
}

fn fairy_stockfish() -> Option<PathBuf> {
    let p = PathBuf::from("/usr/games/fairy-stockfish");
    p.is_file().then_some(p)
}

/// Fairy-Stockfish through the same calls: its variants file, its notation both ways.
#[test]
fn fairy_stockfish_speaks_ply_notation_through_the_client() {
    let Some(fsf) = fairy_stockfish() else {
        eprintln!("skipped: /usr/games/fairy-stockfish not installed");
        return;
    };
    let spec = EngineSpec::parse([format!("cmd={}", fsf.display()).as_str()]).unwrap();
    let mut e = Engine::start(&spec, Timeouts::default(), Watch::default()).unwrap();
    assert_eq!(e.dialect(), Dialect::Fsf);
    e.new_game("connect4", &Params::new()).unwrap();
    let mut pos = Connect4::default();
    let mut history = Vec::new();
    for mv in ["4", "4", "3"] {
        history.push(Played {
            mv: mv.to_string(),
            fen_before: pos.fen(),
        });
        pos = ply::game::play_moves(&pos, &[mv]).unwrap();
    }
    e.position_played(None, &history, &pos.fen()).unwrap();
    let answer = e.go(&depth(6), WAIT).unwrap();
    assert!(pos.parse_move(&answer.bestmove).is_ok(), "{answer:?}");
    assert!(
        answer.raw.as_deref().is_some_and(|r| r.starts_with("P@")),
        "{answer:?}"
    );
    // Its moves need their positions: the plain call says so instead of sending nonsense.
    assert!(matches!(e.position(None, &[]), Err(EngineError::Setup(_))));
    e.quit();
}
