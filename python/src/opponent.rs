//! The opponents inside the single-agent environments: `random`, `perfect` (ply's solver:
//! a value-keeping move, the fastest win or slowest loss), `search:depth=N`,
//! `search:nodes=N`, `search:movetime=MS`, and `elo:E` (chess: ply's `UCI_Elo` node budget
//! per move, protocol.md). One per thread: solvers and searchers keep tables.

use std::sync::atomic::AtomicBool;
use std::time::Duration;

use ply::protocol::strength;
use ply::search::{self, Searcher};
use ply::solve::{Budget, Solver};
use ply::util::Rng;

use crate::encode::Encoded;
use crate::state::{DEFAULT_TABLE_MB, Engine};

/// An opponent as the environments' `opponent=` names it.
#[derive(Clone, Debug)]
pub enum Kind {
    Random,
    Perfect,
    Search(search::Limits),
    Elo(u32),
}

impl Kind {
    pub fn parse(text: &str) -> Result<Kind, String> {
        let bad = || {
            format!(
                "unknown opponent '{text}' (known: random, perfect, search:depth=N, search:nodes=N, search:movetime=MS, elo:E)"
            )
        };
        let number = |v: &str| v.parse::<u64>().ok().filter(|&n| n >= 1).ok_or_else(bad);
        match text.split_once(':') {
            None if text == "random" => Ok(Kind::Random),
            None if text == "perfect" => Ok(Kind::Perfect),
            Some(("elo", e)) => {
                let elo = number(e)? as u32;
                if !(strength::ELO_MIN..=strength::ELO_MAX).contains(&elo) {
                    return Err(format!(
                        "opponent elo:{elo}: expected {} to {}",
                        strength::ELO_MIN,
                        strength::ELO_MAX
                    ));
                }
                Ok(Kind::Elo(elo))
            }
            Some(("search", spec)) => {
                let mut l = search::Limits::default();
                for part in spec.split(',') {
                    match part.split_once('=') {
                        Some(("depth", v)) => l.depth = Some(number(v)?.min(200) as u32),
                        Some(("nodes", v)) => l.nodes = Some(number(v)?),
                        Some(("movetime", v)) => {
                            l.movetime = Some(Duration::from_millis(number(v)?))
                        }
                        _ => return Err(bad()),
                    }
                }
                Ok(Kind::Search(l))
            }
            _ => Err(bad()),
        }
    }
}

/// One thread's opponent, with its tables.
pub struct Opponent<G: Encoded> {
    kind: Kind,
    solver: Option<Box<dyn Solver<G>>>,
    searcher: Option<Searcher<G>>,
}

impl<G: Encoded> Opponent<G> {
    /// The opponent for games of `start`'s rules; `Err` when it cannot play them (a perfect
    /// opponent where ply has no solver, an Elo outside chess).
    pub fn new(kind: &Kind, start: &G) -> Result<Opponent<G>, String> {
        let mut o = Opponent {
            kind: kind.clone(),
            solver: None,
            searcher: None,
        };
        match kind {
            Kind::Perfect => {
                o.solver = G::solver(start, DEFAULT_TABLE_MB);
                if o.solver.is_none() {
                    return Err(format!(
                        "no perfect opponent: ply has no solver for {} {}",
                        G::NAME,
                        start.params()
                    ));
                }
            }
            Kind::Elo(_) if G::NAME != "chess" => {
                return Err("an elo opponent plays chess only (ply's UCI_Elo is calibrated against Stockfish)".into());
            }
            Kind::Search(_) => o.searcher = Some(Searcher::new(DEFAULT_TABLE_MB)),
            Kind::Elo(_) => {
                // The budgets buy the calibrated search's thinking (docs/chess.md).
                let mut searcher = Searcher::new(DEFAULT_TABLE_MB);
                searcher.set_techniques_off(strength::uncalibrated());
                o.searcher = Some(searcher);
            }
            Kind::Random => {}
        }
        Ok(o)
    }

    /// The opponent's move in `eng` (whose game is not over).
    pub fn choose(&mut self, eng: &Engine<G>, rng: &mut Rng) -> Option<G::Move> {
        let stop = AtomicBool::new(false);
        match &self.kind {
            Kind::Random => eng.random_move(rng),
            Kind::Perfect => {
                let budget = Budget {
                    stop: &stop,
                    deadline: None,
                    nodes: None,
                };
                let solver = self.solver.as_mut()?;
                solver
                    .solve(eng.pos(), &budget)
                    .and_then(|s| s.best)
                    .or_else(|| eng.random_move(rng))
            }
            Kind::Search(l) => self.search(eng, l.clone(), &stop),
            Kind::Elo(elo) => {
                let limits = search::Limits {
                    nodes: Some(strength::move_budget(*elo, rng)),
                    ..Default::default()
                };
                let Some(amplitude) = strength::noise(*elo) else {
                    return self.search(eng, limits, &stop);
                };
                // A level below the node anchors: its pick among the best depth-1 moves.
                let choice = strength::Choice {
                    amplitude,
                    seed: rng.next_u64(),
                };
                let root = search::Root {
                    pos: eng.pos(),
                    earlier: eng.line.earlier(),
                    moves: &[],
                    lines: strength::CHOICES,
                };
                let mut lines = strength::Lines::default();
                let s = self.searcher.as_mut()?;
                let best = s
                    .search_root(&root, &limits, &stop, &mut |i| lines.see(i))
                    .best;
                lines.pick(choice).and_then(|l| l.first().copied()).or(best)
            }
        }
    }

    fn search(&mut self, eng: &Engine<G>, l: search::Limits, stop: &AtomicBool) -> Option<G::Move> {
        let root = search::Root {
            pos: eng.pos(),
            earlier: eng.line.earlier(),
            moves: &[],
            lines: 1,
        };
        let s = self.searcher.as_mut()?;
        s.search_root(&root, &l, stop, &mut |_| {}).best
    }
}
