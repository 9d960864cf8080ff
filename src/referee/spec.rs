//! Players as the command line describes them: cutechess-style groups of `key=value` words
//! (`cmd=target/release/ply name=ply option.Hash=64 tc=10+0.1`), and the match-level rules
//! given the same way (`--sprt elo0=0 elo1=5 ...`, `--resign movecount=3 score=600`).

use std::time::Duration;

use super::stats::SprtParams;
use super::tc::{SearchLimits, TimeControl, parse_seconds};
use crate::client::{EngineSpec, EngineWords};

#[derive(Clone, Debug, PartialEq)]
pub enum PlayerKind {
    Engine {
        /// The program, its dialect and options (`cmd=`, `arg=`, `dir=`, `proto=`,
        /// `option.NAME=`), as every client of the [`crate::client`] layer reads them.
        engine: EngineSpec,
        /// A fresh process for every game (`restart=on`) instead of one per worker.
        restart: bool,
    },
    /// Plays a uniformly random legal move, from a generator seeded per game.
    Random,
    /// A person at the terminal.
    Human,
}

#[derive(Clone, Debug, PartialEq)]
pub struct PlayerSpec {
    pub name: String,
    pub kind: PlayerKind,
    pub limits: SearchLimits,
}

impl PlayerSpec {
    pub fn is_engine(&self) -> bool {
        matches!(self.kind, PlayerKind::Engine { .. })
    }
}

/// The keys an `--engine` group accepts, for error messages.
pub const ENGINE_KEYS: &str = "cmd=, arg=, dir=, name=, proto=ply|uci|fsf|auto, option.NAME=, \
     restart=on|off, tc=, st=, depth=, nodes=, timemargin=, builtin=random|human (or the bare \
     words random, human)";

/// Builds a player from its `--engine` words, after the `--each` words (its own words win).
pub fn parse_player(words: &[String], each: &[String]) -> Result<PlayerSpec, String> {
    let mut player = PlayerWords::default();
    for word in each.iter().chain(words) {
        let (key, value) = key_value(word)?;
        player.apply(key, value)?;
    }
    player.into_spec()
}

/// A word of an `--engine` group as key and value; `random` and `human` stand alone.
fn key_value(word: &str) -> Result<(&str, &str), String> {
    match word.split_once('=') {
        Some(kv) => Ok(kv),
        None => match word {
            "random" => Ok(("builtin", "random")),
            "human" => Ok(("builtin", "human")),
            _ => Err(format!(
                "'{word}' is not key=value (engine keys: {ENGINE_KEYS})"
            )),
        },
    }
}

/// What an `--engine` group's words have said so far (a later word overrides an earlier):
/// the engine's own words, and the referee's.
#[derive(Default)]
struct PlayerWords {
    engine: EngineWords,
    restart: bool,
    builtin: Option<PlayerKind>,
    limits: SearchLimits,
}

impl PlayerWords {
    fn apply(&mut self, key: &str, value: &str) -> Result<(), String> {
        if self.engine.apply(key, value)? {
            return Ok(());
        }
        match key {
            "restart" => {
                self.restart = match value {
                    "on" | "true" | "1" => true,
                    "off" | "false" | "0" => false,
                    _ => return Err(format!("restart={value}: expected on or off")),
                }
            }
            "builtin" => {
                self.builtin = Some(match value {
                    "random" => PlayerKind::Random,
                    "human" => PlayerKind::Human,
                    _ => return Err(format!("builtin={value}: expected random or human")),
                })
            }
            "tc" | "st" | "depth" | "nodes" | "timemargin" => {
                apply_limit(&mut self.limits, key, value)?
            }
            _ => return Err(format!("unknown key '{key}' (engine keys: {ENGINE_KEYS})")),
        }
        Ok(())
    }

    /// The player the words describe: an engine (with a limit) or a built-in player.
    fn into_spec(self) -> Result<PlayerSpec, String> {
        let named = self.engine.name().map(String::from);
        let kind = match (self.builtin, self.engine.cmd.is_some()) {
            (Some(_), true) => {
                return Err("a player is either cmd=... or builtin=..., not both".into());
            }
            (Some(k), false) => k,
            (None, true) => PlayerKind::Engine {
                engine: self
                    .engine
                    .into_spec()
                    .map_err(|e| format!("{e} (engine keys: {ENGINE_KEYS})"))?,
                restart: self.restart,
            },
            (None, false) => {
                return Err(format!(
                    "a player needs cmd=PATH or builtin=random|human (engine keys: {ENGINE_KEYS})"
                ));
            }
        };
        if matches!(kind, PlayerKind::Engine { .. }) && !self.limits.is_bounded() {
            return Err(
                "an engine needs a limit: tc=moves/time+inc, st=SECONDS, depth=N or nodes=N \
                 (on --engine or --each)"
                    .into(),
            );
        }
        let name = match &kind {
            PlayerKind::Engine { engine, .. } => engine.name.clone(),
            PlayerKind::Random => named.unwrap_or_else(|| "random".into()),
            PlayerKind::Human => named.unwrap_or_else(|| "human".into()),
        };
        Ok(PlayerSpec {
            name,
            kind,
            limits: self.limits,
        })
    }
}

/// Applies one of the search-limit keys (`tc`, `st`, `depth`, `nodes`, `timemargin`).
fn apply_limit(limits: &mut SearchLimits, key: &str, value: &str) -> Result<(), String> {
    let number = |what: &str| -> Result<u64, String> {
        value
            .parse::<u64>()
            .map_err(|_| format!("{key}={value}: expected {what}"))
    };
    match key {
        "tc" => limits.tc = TimeControl::parse(value)?,
        "st" => {
            let st = parse_seconds(value).map_err(|e| format!("st={value}: {e}"))?;
            if st.is_zero() {
                return Err("st=0 leaves no time to move".into());
            }
            limits.movetime = Some(st);
        }
        "depth" => {
            let d = number("a depth of at least 1")?;
            if d == 0 || d > u32::MAX as u64 {
                return Err(format!("depth={value}: expected a depth of at least 1"));
            }
            limits.depth = Some(d as u32);
        }
        "nodes" => {
            let n = number("a node count of at least 1")?;
            if n == 0 {
                return Err("nodes=0: expected a node count of at least 1".into());
            }
            limits.nodes = Some(n);
        }
        "timemargin" => limits.margin = Duration::from_millis(number("milliseconds")?),
        _ => unreachable!("apply_limit is called with a limit key"),
    }
    Ok(())
}

/// Makes the two names different (`ply` and `ply` become `ply#1` and `ply#2`), so every
/// output line says who is who.
pub fn distinct_names(players: &mut [PlayerSpec]) {
    if players.len() == 2 && players[0].name == players[1].name {
        let base = players[0].name.clone();
        players[0].name = format!("{base}#1");
        players[1].name = format!("{base}#2");
    }
}

/// `key=value` words into pairs, refusing keys outside `known` and repeated keys.
fn pairs<'a>(
    what: &str,
    words: &'a [String],
    known: &[&str],
) -> Result<Vec<(&'a str, &'a str)>, String> {
    let mut out: Vec<(&str, &str)> = Vec::new();
    for w in words {
        let Some((k, v)) = w.split_once('=') else {
            return Err(format!(
                "{what}: '{w}' is not key=value (keys: {})",
                known.join(", ")
            ));
        };
        if !known.contains(&k) {
            return Err(format!(
                "{what}: unknown key '{k}' (keys: {})",
                known.join(", ")
            ));
        }
        if out.iter().any(|(k2, _)| *k2 == k) {
            return Err(format!("{what}: '{k}' given twice"));
        }
        out.push((k, v));
    }
    Ok(out)
}

fn float(what: &str, key: &str, v: &str) -> Result<f64, String> {
    match v.parse::<f64>() {
        Ok(x) if x.is_finite() => Ok(x),
        _ => Err(format!("{what}: {key}={v} is not a number")),
    }
}

fn count(what: &str, key: &str, v: &str) -> Result<u32, String> {
    v.parse::<u32>()
        .map_err(|_| format!("{what}: {key}={v} is not a whole number"))
}

/// `--sprt elo0=0 elo1=5 alpha=0.05 beta=0.05` (alpha and beta default to 0.05).
pub fn parse_sprt(words: &[String]) -> Result<SprtParams, String> {
    let kv = pairs("--sprt", words, &["elo0", "elo1", "alpha", "beta"])?;
    let get = |k: &str| kv.iter().find(|(k2, _)| *k2 == k).map(|(_, v)| *v);
    let elo0 = float("--sprt", "elo0", get("elo0").ok_or("--sprt needs elo0=")?)?;
    let elo1 = float("--sprt", "elo1", get("elo1").ok_or("--sprt needs elo1=")?)?;
    let alpha = get("alpha").map_or(Ok(0.05), |v| float("--sprt", "alpha", v))?;
    let beta = get("beta").map_or(Ok(0.05), |v| float("--sprt", "beta", v))?;
    if elo1 <= elo0 {
        return Err("--sprt: elo1 must be greater than elo0".into());
    }
    if !(alpha > 0.0 && alpha < 0.5 && beta > 0.0 && beta < 0.5) {
        return Err("--sprt: alpha and beta must lie between 0 and 0.5".into());
    }
    Ok(SprtParams {
        elo0,
        elo1,
        alpha,
        beta,
    })
}

/// Score adjudication: a player resigns after `movecount` consecutive own moves scored at or
/// below `-score` (centi-units, from its own side); with `twosided`, the opponent's last
/// score must also be at least `+score`. Mate scores count as beyond any bound.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ResignRule {
    pub movecount: u32,
    pub score: i32,
    pub twosided: bool,
}

/// Score adjudication: a draw once both players' last `movecount` scores each lie within
/// `±score`, from move number `movenumber` on (a move number counts both players' moves,
/// as plies/2 + 1).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct DrawRule {
    pub movenumber: u32,
    pub movecount: u32,
    pub score: i32,
}

pub fn parse_resign(words: &[String]) -> Result<ResignRule, String> {
    let kv = pairs("--resign", words, &["movecount", "score", "twosided"])?;
    let mut r = ResignRule {
        movecount: 0,
        score: 0,
        twosided: false,
    };
    for (k, v) in kv {
        match k {
            "movecount" => r.movecount = count("--resign", k, v)?,
            "score" => r.score = count("--resign", k, v)? as i32,
            _ => {
                r.twosided = match v {
                    "true" | "on" | "1" => true,
                    "false" | "off" | "0" => false,
                    _ => return Err(format!("--resign: twosided={v}: expected true or false")),
                }
            }
        }
    }
    if r.movecount == 0 || r.score == 0 {
        return Err("--resign needs movecount=N and score=CP, both positive".into());
    }
    Ok(r)
}

pub fn parse_draw(words: &[String]) -> Result<DrawRule, String> {
    let kv = pairs("--draw", words, &["movenumber", "movecount", "score"])?;
    let mut r = DrawRule {
        movenumber: 0,
        movecount: 0,
        score: 0,
    };
    for (k, v) in kv {
        let n = count("--draw", k, v)?;
        match k {
            "movenumber" => r.movenumber = n,
            "movecount" => r.movecount = n,
            _ => r.score = n as i32,
        }
    }
    if r.movecount == 0 {
        return Err("--draw needs movecount=N (and score=CP, movenumber=N)".into());
    }
    Ok(r)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn words(s: &str) -> Vec<String> {
        s.split_whitespace().map(String::from).collect()
    }

    #[test]
    fn engine_groups() {
        let p = parse_player(
            &words("cmd=/bin/ply arg=--x name=A option.Hash=64 depth=4 tc=40/1+0.1"),
            &words("tc=10 timemargin=50 option.Hash=8"),
        )
        .unwrap();
        assert_eq!(p.name, "A");
        assert_eq!(p.limits.depth, Some(4));
        assert_eq!(p.limits.tc.unwrap().moves, Some(40));
        assert_eq!(p.limits.margin, Duration::from_millis(50));
        match p.kind {
            PlayerKind::Engine { engine, .. } => {
                assert_eq!(engine.launch.args, vec!["--x"]);
                assert_eq!(engine.options, vec![("Hash".to_string(), "64".to_string())]);
            }
            _ => panic!("an engine"),
        }
        let r = parse_player(&words("builtin=random"), &words("depth=3")).unwrap();
        assert_eq!((r.name.as_str(), r.kind), ("random", PlayerKind::Random));
        let named = parse_player(&words("human name=me"), &[]).unwrap();
        assert_eq!((named.name.as_str(), named.kind), ("me", PlayerKind::Human));
        assert_eq!(
            parse_player(&words("human"), &[]).unwrap().kind,
            PlayerKind::Human
        );
        let e = parse_player(&words("cmd=/bin/ply/x"), &[]).unwrap_err();
        assert!(e.contains("needs a limit"), "{e}");
        assert!(parse_player(&words("cmd=x depth=0"), &[]).is_err());
        assert!(parse_player(&words("cmd=x depth=2 bogus=1"), &[]).is_err());
        assert!(parse_player(&words("cmd=x builtin=random depth=1"), &[]).is_err());
        let spaced = vec![
            "cmd=x".to_string(),
            "depth=1".into(),
            "name=two words".into(),
        ];
        assert!(parse_player(&spaced, &[]).is_err());
    }

    #[test]
    fn rules() {
        let s = parse_sprt(&words("elo0=0 elo1=5")).unwrap();
        assert_eq!((s.alpha, s.beta), (0.05, 0.05));
        assert!(parse_sprt(&words("elo0=5 elo1=0")).is_err());
        assert!(parse_sprt(&words("elo0=0 elo1=5 gamma=1")).is_err());
        let r = parse_resign(&words("movecount=3 score=600 twosided=true")).unwrap();
        assert_eq!(
            r,
            ResignRule {
                movecount: 3,
                score: 600,
                twosided: true
            }
        );
        assert!(parse_resign(&words("score=600")).is_err());
        let d = parse_draw(&words("movenumber=20 movecount=4 score=10")).unwrap();
        assert_eq!((d.movenumber, d.movecount, d.score), (20, 4, 10));
    }
}
