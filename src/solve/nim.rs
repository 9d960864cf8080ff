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
//! over sorted heap tuples, as far as its memory (the share of `Hash` it is given, see
//! [`NimSolver::with_table_mb`]) and the search's budget allow; beyond that the solver still
//! plays a winning move but reports the distance as a bound (`Solution::exact == false`).

use std::collections::HashMap;

use super::{Budget, Solution, Solvable, Solver};
use crate::game::Game;
use crate::games::Nim;
use crate::games::nim::{MAX_HEAPS, NimMove};
use crate::value::{MATE, back_up};

/// Memory the memo may take per position it holds: a 36-byte entry (32-byte key, value) of
/// a hash map allocated once at the capacity the budget allows, at its worst load factor.
const BYTES_PER_STATE: usize = 96;
/// The fewest positions the memo may hold, whatever its budget.
const MIN_STATES: usize = 1 << 12;
/// Nodes between two looks at the budget.
const CHECK_EVERY: u64 = 1 << 10;

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

/// A position as the memo keys it: the non-empty heaps, sorted, padded with zeros (heaps
/// hold at most 50 000 objects, so 16 bits each).
type Key = [u16; MAX_HEAPS];

/// Why the exact search gave up.
enum GiveUp {
    /// The memo holds as many positions as its memory allows.
    Full,
    /// The budget ran out (time, nodes or `stop`).
    Budget,
}

/// Memoised negamax over sorted heap tuples.
struct Exact {
    k: u32,
    misere: bool,
    /// Allocated at its full capacity on first use (see [`BYTES_PER_STATE`]), never grown.
    memo: HashMap<Key, i32>,
    max_states: usize,
    nodes: u64,
}

impl Exact {
    fn new(k: u32, misere: bool, max_states: usize) -> Exact {
        Exact {
            k,
            misere,
            memo: HashMap::new(),
            max_states,
            nodes: 0,
        }
    }

    fn value(&mut self, heaps: &[u32], budget: &Budget) -> Result<i32, GiveUp> {
        let mut key: Key = [0; MAX_HEAPS];
        let mut n = 0;
        for &h in heaps.iter().filter(|&&h| h > 0) {
            key[n] = h as u16;
            n += 1;
        }
        key[..n].sort_unstable();
        self.value_of(key, n, budget)
    }

    /// The value of the position `key` with `n` non-empty heaps (sorted in `key[..n]`).
    fn value_of(&mut self, key: Key, n: usize, budget: &Budget) -> Result<i32, GiveUp> {
        if n <= 1 {
            return Ok(single_heap_value(key[0] as u32, self.k, self.misere));
        }
        if let Some(&v) = self.memo.get(&key) {
            return Ok(v);
        }
        if self.memo.len() >= self.max_states {
            return Err(GiveUp::Full);
        }
        self.nodes += 1;
        if self.nodes.is_multiple_of(CHECK_EVERY) && budget.exhausted(self.nodes) {
            return Err(GiveUp::Budget);
        }
        while self.memo.capacity() == 0 && self.memo.try_reserve(self.max_states).is_err() {
            // The system refuses that much memory: make do with less.
            if self.max_states <= MIN_STATES {
                return Err(GiveUp::Full);
            }
            self.max_states /= 2;
        }
        let mut best = i32::MIN;
        for i in 0..n {
            if i > 0 && key[i] == key[i - 1] {
                continue;
            }
            for t in 1..=(key[i] as u32).min(self.k) {
                // Take t from heap i and restore the order (the heap only shrinks).
                let mut child = key;
                let mut j = i;
                child[j] -= t as u16;
                while j > 0 && child[j - 1] > child[j] {
                    child.swap(j - 1, j);
                    j -= 1;
                }
                let cn = if child[j] == 0 {
                    // An emptied heap sits at the front now: drop it.
                    child.copy_within(1..n, 0);
                    child[n - 1] = 0;
                    n - 1
                } else {
                    n
                };
                best = best.max(back_up(self.value_of(child, cn, budget)?));
            }
        }
        self.memo.insert(key, best);
        Ok(best)
    }
}

pub struct NimSolver {
    exact: Exact,
}

impl NimSolver {
    /// A solver whose memo of exact distances holds the positions that fit in 16 MiB.
    pub fn new(k: u32, misere: bool) -> NimSolver {
        Self::with_table_mb(k, misere, 16)
    }

    /// A solver whose memo of exact distances may take about `table_mb` MiB (at least room
    /// for a few thousand positions). The memory is taken at the first multi-heap solve.
    pub fn with_table_mb(k: u32, misere: bool, table_mb: usize) -> NimSolver {
        let states = (table_mb.saturating_mul(1 << 20) / BYTES_PER_STATE).max(MIN_STATES);
        NimSolver {
            exact: Exact::new(k, misere, states),
        }
    }

    fn moves(pos: &Nim) -> Vec<NimMove> {
        let mut m = Vec::new();
        pos.legal_moves(&mut m);
        m
    }

    fn exact_solution(&mut self, pos: &Nim, budget: &Budget) -> Result<Solution<NimMove>, GiveUp> {
        self.exact.nodes = 0;
        let value = self.exact.value(pos.heaps(), budget)?;
        let mut pv = Vec::new();
        let mut p = *pos;
        while p.outcome().is_none() && pv.len() < 64 {
            let mut best: Option<(i32, NimMove)> = None;
            for m in Self::moves(&p) {
                let mut c = p;
                c.play(m);
                let v = back_up(self.exact.value(c.heaps(), budget)?);
                if best.is_none_or(|(b, _)| v > b) {
                    best = Some((v, m));
                }
            }
            let Some((_, m)) = best else { break };
            pv.push(m);
            p.play(m);
        }
        Ok(Solution {
            best: pv.first().copied(),
            value,
            exact: true,
            pv,
            nodes: self.exact.nodes.max(1),
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
    /// Always answers: exactly when the memoised search finishes within the memo's memory
    /// and the budget, else with the proven result and a bound on its distance (the bound
    /// takes microseconds, so a time limit is never overrun).
    fn solve(&mut self, pos: &Nim, budget: &Budget) -> Option<Solution<NimMove>> {
        debug_assert!(pos.heaps().len() <= MAX_HEAPS);
        if let Some(o) = pos.outcome() {
            let value = crate::value::terminal_value(o, pos.side_to_move(), 0);
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
            self.exact = Exact::new(pos.max_take(), pos.misere(), self.exact.max_states);
        }
        // The exact search recurses once per ply and stores positions up to its memory: only
        // start it when both stay small (one heap is closed form at any size).
        let heaps = pos.heaps().iter().filter(|&&h| h > 0).count();
        let left: u64 = pos.heaps().iter().map(|&h| h as u64).sum();
        let tuples: f64 = pos.heaps().iter().map(|&h| h as f64 + 1.0).product();
        if heaps <= 1 || (left <= 4096 && tuples <= 4.0 * self.exact.max_states as f64) {
            match self.exact_solution(pos, budget) {
                Ok(s) => return Some(s),
                // The memo is full of this position's subtrees; start the next one afresh.
                Err(GiveUp::Full) => self.exact.memo.clear(),
                // What the memo holds is exact: keep it for the next move.
                Err(GiveUp::Budget) => {}
            }
        }
        Some(Self::bounded_solution(pos))
    }

    fn clear(&mut self) {
        // Give the memory back too (freeing it on another thread: it can be large); a new
        // game may not need it.
        crate::util::drop_in_background(std::mem::take(&mut self.exact.memo));
    }

    fn resize(&mut self, table_mb: usize) {
        *self = NimSolver::with_table_mb(self.exact.k, self.exact.misere, table_mb);
    }

    fn table_bytes(&self) -> usize {
        self.exact.max_states * BYTES_PER_STATE
    }
}

impl Solvable for Nim {
    fn solver(start: &Self, table_mb: usize) -> Option<Box<dyn Solver<Self>>> {
        Some(Box::new(NimSolver::with_table_mb(
            start.max_take(),
            start.misere(),
            table_mb,
        )))
    }

    fn solver_uses_hash(start: &Self) -> bool {
        start.heaps().iter().filter(|&&h| h > 0).count() > 1
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::{Params, Player};
    use crate::value::{Score, terminal_value};
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
        let stop = AtomicBool::new(false);
        let unlimited = Budget {
            stop: &stop,
            deadline: None,
            nodes: None,
        };
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
                            let exact = s.exact.value(p.heaps(), &unlimited).ok();
                            assert_eq!(exact, Some(v), "{a},{b},{c}");
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
