//! Tic-tac-toe solved outright: the exact value (with distance) of every one of the 3^9
//! boards is computed once, on first use, by memoised negamax over the game tree.

use std::sync::OnceLock;

use super::{Budget, Solution, Solvable, Solver};
use crate::game::{Game, Player};
use crate::games::TicTacToe;
use crate::value::{back_up, terminal_value};

/// Base-3 index of a board: cell i contributes 3^i times 0 (empty), 1 (x) or 2 (o).
fn index(p: &TicTacToe) -> usize {
    let (x, o) = (p.marks(Player::First), p.marks(Player::Second));
    (0..9).rev().fold(0, |acc, i| {
        acc * 3
            + if x & (1 << i) != 0 {
                1
            } else if o & (1 << i) != 0 {
                2
            } else {
                0
            }
    })
}

const UNKNOWN: i32 = i32::MIN;

fn value_of(p: &TicTacToe, table: &mut [i32]) -> i32 {
    let i = index(p);
    if table[i] != UNKNOWN {
        return table[i];
    }
    let v = match p.outcome() {
        Some(o) => terminal_value(o, p.side_to_move(), 0),
        None => {
            let mut moves = Vec::new();
            p.legal_moves(&mut moves);
            moves
                .into_iter()
                .map(|m| {
                    let mut c = *p;
                    c.play(m);
                    back_up(value_of(&c, table))
                })
                .max()
                .expect("a game that is not over has a move")
        }
    };
    table[i] = v;
    v
}

/// Exact values of every reachable board, indexed by [`index`] (unreachable ones unused).
fn table() -> &'static [i32] {
    static TABLE: OnceLock<Vec<i32>> = OnceLock::new();
    TABLE.get_or_init(|| {
        let mut t = vec![UNKNOWN; 19683];
        value_of(&TicTacToe::default(), &mut t);
        t
    })
}

/// The exact value of any reachable position, for the side to move.
pub fn value(p: &TicTacToe) -> i32 {
    let t = table();
    match t[index(p)] {
        UNKNOWN => {
            // Reachable positions are all filled in from the start; one read from a
            // notation that is legal but not reached from the start is solved now.
            value_of(p, &mut t.to_vec())
        }
        v => v,
    }
}

pub struct TicTacToeSolver;

impl Solver<TicTacToe> for TicTacToeSolver {
    fn solve(&mut self, pos: &TicTacToe, _budget: &Budget) -> Option<Solution<u8>> {
        let mut pv = Vec::new();
        let mut p = *pos;
        let mut nodes = 0;
        while p.outcome().is_none() {
            let mut moves = Vec::new();
            p.legal_moves(&mut moves);
            nodes += moves.len() as u64;
            // The first of the game's static order among the best, so the choice is stable.
            let mut best = (i32::MIN, moves[0]);
            for m in moves {
                let mut c = p;
                c.play(m);
                let v = back_up(value(&c));
                if v > best.0 {
                    best = (v, m);
                }
            }
            let best = best.1;
            pv.push(best);
            p.play(best);
        }
        Some(Solution {
            best: pv.first().copied(),
            value: value(pos),
            exact: true,
            pv,
            nodes,
            tbhits: 1,
        })
    }
}

impl Solvable for TicTacToe {
    fn solver(_start: &Self, _table_mb: usize) -> Option<Box<dyn Solver<Self>>> {
        Some(Box::new(TicTacToeSolver))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::value::{MATE, Score};

    #[test]
    fn start_is_a_draw_and_counts_match() {
        assert_eq!(value(&TicTacToe::default()), 0);
        // 5478 reachable positions, 958 of them finished (also counted by
        // scripts/checks/perft_oracle.py).
        let t = table();
        assert_eq!(t.iter().filter(|&&v| v != UNKNOWN).count(), 5478);
        let _ = MATE;
    }

    #[test]
    fn seed_positions() {
        let stop = std::sync::atomic::AtomicBool::new(false);
        let b = Budget {
            stop: &stop,
            deadline: None,
            nodes: None,
        };
        let s = |fen: &str| {
            let p = TicTacToe::default().from_fen(fen).unwrap();
            let sol = TicTacToeSolver.solve(&p, &b).unwrap();
            (
                p.format_move(sol.best.unwrap()),
                Score::from_value(sol.value),
            )
        };
        assert_eq!(s("xox/x.o/..o x"), ("a1".into(), Score::Mate(1)));
        assert_eq!(s("x../..o/.xo x"), ("c3".into(), Score::Mate(3)));
    }
}
