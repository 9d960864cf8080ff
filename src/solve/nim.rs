//! Nim (the subtraction game S = {1..k}, any heaps, normal or misère) in closed form.
//!
//! Who wins: a heap of `h` has Grundy value `g = h mod (k + 1)`; under normal play the side
//! to move loses exactly when the XOR of the `g`s is 0. S = {1..k} is tame, so misère play
//! follows misère Nim: when every heap has `g <= 1` the side to move loses exactly when an
//! odd number of heaps have `g = 1`; otherwise as in normal play.
//!
//! How long it lasts: with one heap the winner's move is forced at every turn (there is one
//! losing position in any k + 1 consecutive sizes), so the length is closed form too. With
//! several heaps the exact distance (fastest win, slowest loss) comes from memoised negamax
//! over sorted heap tuples, up to [`MAX_STATES`] states; beyond that the solver still plays a
//! winning move but reports the distance as a bound (`Solution::exact == false`).

use std::collections::HashMap;

use super::{Budget, Solution, Solvable, Solver, back_up};
use crate::game::Game;
use crate::games::Nim;
use crate::games::nim::{MAX_HEAPS, NimMove};
use crate::search::MATE;

/// Largest number of distinct positions the exact-distance search may visit.
pub const MAX_STATES: usize = 2_000_000;

/// True when the side to move wins, under the rules of `pos`.
pub fn side_to_move_wins(pos: &Nim) -> bool {
    wins(pos.heaps(), pos.max_take(), pos.misere())
}

fn wins(heaps: &[u32], k: u32, misere: bool) -> bool {
    let m = k as u64 + 1;
    let g = |h: u32| (h as u64 % m) as u32;
    let xor = heaps.iter().fold(0, |x, &h| x ^ g(h));
    if misere && heaps.iter().all(|&h| g(h) <= 1) {
        heaps.iter().filter(|&&h| g(h) == 1).count() % 2 == 0
    } else {
        xor != 0
    }
}

/// The exact value of a single heap of `n` (closed form, see the module doc).
pub fn single_heap_value(n: u32, k: u32, misere: bool) -> i32 {
    let m = k as u64 + 1;
    let n = n as u64;
    let plies = |p: u64| MATE - p.min(MATE as u64 - 1) as i32;
    if !misere {
        match (n, n % m) {
            (0, _) => -MATE,
            (_, 0) => -plies(2 * (n / m)),
            _ => plies(1 + 2 * (n / m)),
        }
    } else {
        match (n, n % m) {
            (0, _) => MATE,
            (_, 1) => -plies(2 * (n / m) + 1),
            _ => plies(2 * ((n - 1) / m) + 2),
        }
    }
}

/// Memoised negamax over sorted heap tuples; `None` once more than `MAX_STATES` are stored.
struct Exact {
    k: u32,
    misere: bool,
    memo: HashMap<Vec<u32>, i32>,
}

impl Exact {
    fn value(&mut self, heaps: &[u32]) -> Option<i32> {
        let mut key: Vec<u32> = heaps.iter().copied().filter(|&h| h > 0).collect();
        key.sort_unstable();
        if key.len() <= 1 {
            return Some(single_heap_value(
                key.first().copied().unwrap_or(0),
                self.k,
                self.misere,
            ));
        }
        if let Some(&v) = self.memo.get(&key) {
            return Some(v);
        }
        if self.memo.len() >= MAX_STATES {
            return None;
        }
        let mut best = i32::MIN;
        let mut child = key.clone();
        for i in 0..key.len() {
            if i > 0 && key[i] == key[i - 1] {
                continue;
            }
            for t in 1..=key[i].min(self.k) {
                child[i] = key[i] - t;
                best = best.max(back_up(self.value(&child)?));
            }
            child[i] = key[i];
        }
        self.memo.insert(key, best);
        Some(best)
    }
}

pub struct NimSolver {
    exact: Exact,
}

impl NimSolver {
    pub fn new(k: u32, misere: bool) -> NimSolver {
        NimSolver {
            exact: Exact {
                k,
                misere,
                memo: HashMap::new(),
            },
        }
    }

    fn moves(pos: &Nim) -> Vec<NimMove> {
        let mut m = Vec::new();
        pos.legal_moves(&mut m);
        m
    }

    fn exact_solution(&mut self, pos: &Nim) -> Option<Solution<NimMove>> {
        let value = self.exact.value(pos.heaps())?;
        let mut pv = Vec::new();
        let mut p = *pos;
        let mut nodes = 0;
        while p.outcome().is_none() && pv.len() < 64 {
            let mut best: Option<(i32, NimMove)> = None;
            for m in Self::moves(&p) {
                let mut c = p;
                c.play(m);
                nodes += 1;
                let v = back_up(self.exact.value(c.heaps())?);
                if best.is_none_or(|(b, _)| v > b) {
                    best = Some((v, m));
                }
            }
            let (_, m) = best?;
            pv.push(m);
            p.play(m);
        }
        Some(Solution {
            best: pv.first().copied(),
            value,
            exact: true,
            pv,
            nodes,
            tbhits: 0,
        })
    }

    /// Too big for exact distances: a move to a losing position for the opponent when there
    /// is one, else the smallest take from the largest heap (to last longest), and the
    /// distance bounded by the objects left (every move takes at least one).
    fn bounded_solution(pos: &Nim) -> Solution<NimMove> {
        // At most MAX_HEAPS * MAX_HEAP_SIZE = 800 000 plies, well inside the mate scale.
        let left: u64 = pos.heaps().iter().map(|&h| h as u64).sum();
        let bound = MATE - left as i32;
        let moves = Self::moves(pos);
        let winning = side_to_move_wins(pos);
        let best = if winning {
            moves.iter().copied().find(|&m| {
                let mut c = *pos;
                c.play(m);
                !side_to_move_wins(&c)
            })
        } else {
            let largest = (0..pos.heaps().len()).max_by_key(|&i| pos.heaps()[i]);
            largest.map(|i| NimMove {
                heap: i as u8,
                take: 1,
            })
        };
        Solution {
            best,
            value: if winning { bound } else { -bound },
            exact: false,
            pv: best.into_iter().collect(),
            nodes: moves.len() as u64,
            tbhits: 0,
        }
    }
}

impl Solver<Nim> for NimSolver {
    fn solve(&mut self, pos: &Nim, _budget: &Budget) -> Option<Solution<NimMove>> {
        debug_assert!(pos.heaps().len() <= MAX_HEAPS);
        if let Some(o) = pos.outcome() {
            let value = crate::search::terminal_value(o, pos.side_to_move(), 0);
            return Some(Solution {
                best: None,
                value,
                exact: true,
                pv: vec![],
                nodes: 0,
                tbhits: 0,
            });
        }
        if self.exact.k != pos.max_take() || self.exact.misere != pos.misere() {
            *self = NimSolver::new(pos.max_take(), pos.misere());
        }
        // The exact search recurses once per ply and stores up to MAX_STATES tuples: only
        // start it when both stay small (one heap is closed form at any size).
        let heaps = pos.heaps().iter().filter(|&&h| h > 0).count();
        let left: u64 = pos.heaps().iter().map(|&h| h as u64).sum();
        let tuples: f64 = pos.heaps().iter().map(|&h| h as f64 + 1.0).product();
        if heaps <= 1 || (left <= 4096 && tuples <= 4.0 * MAX_STATES as f64) {
            if let Some(s) = self.exact_solution(pos) {
                return Some(s);
            }
        }
        // The memo is full of this position's subtrees; start the next one afresh.
        self.exact.memo.clear();
        Some(Self::bounded_solution(pos))
    }

    fn clear(&mut self) {
        self.exact.memo.clear();
    }
}

impl Solvable for Nim {
    fn solver(start: &Self, _table_mb: usize) -> Option<Box<dyn Solver<Self>>> {
        Some(Box::new(NimSolver::new(start.max_take(), start.misere())))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::{Params, Player};
    use crate::search::{Score, terminal_value};
    use std::sync::atomic::AtomicBool;

    /// Plain negamax with exact distances over the whole game tree: the oracle.
    fn brute(pos: &Nim, memo: &mut HashMap<Nim, i32>) -> i32 {
        if let Some(o) = pos.outcome() {
            return terminal_value(o, pos.side_to_move(), 0);
        }
        if let Some(&v) = memo.get(pos) {
            return v;
        }
        let mut moves = Vec::new();
        pos.legal_moves(&mut moves);
        let v = moves
            .into_iter()
            .map(|m| {
                let mut c = *pos;
                c.play(m);
                back_up(brute(&c, memo))
            })
            .max()
            .unwrap();
        memo.insert(*pos, v);
        v
    }

    fn game(params: &[&str]) -> Nim {
        Nim::new(&Params::parse(params.iter().copied()).unwrap()).unwrap()
    }

    #[test]
    fn closed_form_matches_brute_force() {
        for misere in [false, true] {
            for k in 1..=5 {
                let mut memo = HashMap::new();
                for a in 0..=9u32 {
                    for b in 0..=6u32 {
                        for c in 0..=4u32 {
                            let g = game(&[
                                "heaps=1,1,1",
                                &format!("max={k}"),
                                &format!("misere={misere}"),
                            ]);
                            let p = g.from_fen(&format!("{a},{b},{c} 1")).unwrap();
                            let v = brute(&p, &mut memo);
                            assert_eq!(
                                side_to_move_wins(&p),
                                v > 0,
                                "{a},{b},{c} k={k} misere={misere}"
                            );
                            let mut s = NimSolver::new(k, misere);
                            assert_eq!(s.exact.value(p.heaps()), Some(v), "{a},{b},{c}");
                            if b == 0 && c == 0 {
                                assert_eq!(single_heap_value(a, k, misere), v, "heap {a} k={k}");
                            }
                        }
                    }
                }
            }
        }
    }

    #[test]
    fn seed_values() {
        let stop = AtomicBool::new(false);
        let budget = Budget {
            stop: &stop,
            deadline: None,
            nodes: None,
        };
        let mut s = NimSolver::new(3, false);
        // N = 10, k = 3: take 2 (leaving 8, a multiple of 4) and win with the fifth ply.
        let sol = s.solve(&Nim::default(), &budget).unwrap();
        assert_eq!(sol.best, Some(NimMove { heap: 0, take: 2 }));
        assert_eq!(Score::from_value(sol.value), Score::Mate(3));
        // N = 12 is lost.
        let p = game(&["length=12"]);
        let sol = s.solve(&p, &budget).unwrap();
        assert!(sol.value < 0);
        assert_eq!(Score::from_value(sol.value), Score::Mate(-3));
        // A large heap is closed form too.
        let p = game(&["length=49999", "max=3"]);
        assert_eq!(p.side_to_move(), Player::First);
        let sol = s.solve(&p, &budget).unwrap();
        assert_eq!(sol.best, Some(NimMove { heap: 0, take: 3 }));
        assert!(sol.exact);
    }

    #[test]
    fn huge_multi_heap_positions_still_play_to_win() {
        let stop = AtomicBool::new(false);
        let budget = Budget {
            stop: &stop,
            deadline: None,
            nodes: None,
        };
        let p = game(&["heaps=50000,49999,7777,123", "max=1000"]);
        let mut s = NimSolver::new(1000, false);
        let sol = s.solve(&p, &budget).unwrap();
        assert!(!sol.exact);
        let mut c = p;
        c.play(sol.best.unwrap());
        assert_eq!(side_to_move_wins(&p), sol.value > 0);
        if sol.value > 0 {
            assert!(!side_to_move_wins(&c));
        }
    }
}
