//! Retrograde analysis: every position of a slice pair solved at once, with its distance to
//! the end.
//!
//! A move that neither captures nor crowns keeps the material and swaps the roles, so it
//! leads from slice `(a, b, c, d)` to `(c, d, a, b)`: those two slices (one, when they are
//! the same) are solved together, as a *pair*. Every other move leads to a slice solved
//! before: a capture to fewer pieces, a crowning to fewer men ([`super::driver`] orders the
//! pairs so). Such moves are *exits*, looked up in the finished tables.
//!
//! Solving a pair:
//!
//! 1. Each position is examined once (in parallel): its exits are looked up, its moves
//!    inside the pair counted. A position without moves is lost at distance 0. One with an
//!    exit to a lost position is a win candidate at that distance + 1. Its counter is the
//!    number of its moves inside the pair, plus one when an exit is a win or a draw for it
//!    (such a position can never be lost). A counter of 0 makes it a loss candidate at the
//!    longest of its exits' distances + 1.
//! 2. Distances are then settled level by level, `d = 0, 1, 2, ...`: first the candidates
//!    of level `d` are settled (a win candidate only if the position is still unknown; a
//!    faster win came first), then every position settled at `d` is propagated to its
//!    predecessors inside the pair, found by unmaking the opponent's last move: a lost
//!    position makes each predecessor won at `d + 1` (unless already settled, which can only
//!    be at `d + 1` or sooner); a won position takes one from each predecessor's counter,
//!    and a counter reaching 0 makes the predecessor a loss candidate at `d + 1`, or at its
//!    longest exit if that is later. Levels are processed in order, so every win is the
//!    fastest and every loss the slowest.
//! 3. Positions still unknown at the end are draws: neither side can force the end.
//!
//! Settling and propagating use atomic bytes, so the threads share one pass over a level.

use std::sync::atomic::{AtomicU8, AtomicUsize, Ordering};

use super::index::{Slice, board_at, index};
use super::table::Tables;
use super::value::{DRAW, MAX_PLIES, UNKNOWN, Value};
use crate::game::Player;
use crate::games::checkers::Board;
use crate::games::checkers::board::{BOTTOM_ROW, Move, NONE, STEPS, forward, opposite};

/// A loss candidate's flag in a level's list (the rest is the index in the pair).
const LOSS: u32 = 1 << 31;

/// What examining a position found.
#[derive(Debug, Default, PartialEq, Eq)]
pub struct Exam {
    /// Moves inside the pair.
    pub internal: u32,
    /// Whether it has no legal move (lost at distance 0).
    pub stuck: bool,
    /// The fastest win through an exit.
    pub best_win: Option<u32>,
    /// Whether an exit leads to a draw or a win for it.
    pub safe_exit: bool,
    /// The longest loss through an exit (0 when no exit loses).
    pub worst_loss: u32,
}

/// Whether a move of the side to move (Black, mover-relative) leaves the pair: a capture, or
/// a man crowned.
pub fn is_exit(b: &Board, mv: &Move) -> bool {
    mv.is_capture() || (b.kings & (1 << mv.from) == 0 && BOTTOM_ROW & (1 << mv.to) != 0)
}

/// Examines a mover-relative position (Black to move); exits are looked up in `tables`.
pub fn examine(b: &Board, tables: &Tables, moves: &mut Vec<Move>) -> Result<Exam, String> {
    moves.clear();
    b.legal_moves(Player::First, moves);
    let mut e = Exam {
        stuck: moves.is_empty(),
        ..Exam::default()
    };
    for mv in moves.iter() {
        if !is_exit(b, mv) {
            e.internal += 1;
            continue;
        }
        let child = b.play(Player::First, *mv).flipped();
        let v = tables.probe_relative(&child).ok_or_else(|| {
            format!(
                "no table for the slice {} (a build bug)",
                Slice::of(&child).name()
            )
        })?;
        match v.back() {
            Value::Draw => e.safe_exit = true,
            Value::Win(d) => {
                e.safe_exit = true;
                e.best_win = Some(e.best_win.map_or(d, |w| w.min(d)));
            }
            Value::Loss(d) => e.worst_loss = e.worst_loss.max(d),
        }
    }
    Ok(e)
}

/// The predecessors inside the pair of a mover-relative position (Black to move): White
/// made the last move, a step of one of its pieces that neither captured nor crowned, and
/// had no capture before it (capturing is compulsory). Each comes mover-relative (flipped:
/// White to move becomes Black to move), in the other slice of the pair.
pub fn predecessors(b: &Board, out: &mut Vec<Board>) {
    out.clear();
    let empty = b.empty();
    let mut pieces = b.white;
    while pieces != 0 {
        let t = pieces.trailing_zeros() as u8;
        pieces &= pieces - 1;
        let king = b.kings & (1 << t) != 0;
        for (d, steps) in STEPS.iter().enumerate() {
            // A white man stepped up: it came from below, opposite its forward directions.
            if !king && !forward(Player::Second).contains(&opposite(d)) {
                continue;
            }
            let s = steps[t as usize];
            if s == NONE || empty & (1 << s) == 0 {
                continue;
            }
            let moved = (1u32 << s) | (1u32 << t);
            let before = Board {
                black: b.black,
                white: b.white ^ moved,
                kings: if king { b.kings ^ moved } else { b.kings },
            };
            if before.jumpers(Player::Second) == 0 {
                out.push(before.flipped());
            }
        }
    }
}

/// One pair being solved.
pub struct Pair<'a> {
    pub slices: Vec<Slice>,
    /// Where each slice starts in the pair's index space.
    starts: Vec<u64>,
    val: Vec<AtomicU8>,
    cnt: Vec<AtomicU8>,
    tables: &'a Tables,
    threads: usize,
}

/// Candidates and settled positions waiting for their level.
struct Levels {
    /// `candidates[d]`: positions to settle at level `d` (flagged [`LOSS`] or not).
    candidates: Vec<Vec<u32>>,
    /// Positions already settled as wins at the next level, to propagate then.
    settled_next: Vec<u32>,
}

impl<'a> Pair<'a> {
    pub fn new(slice: Slice, tables: &'a Tables, threads: usize) -> Result<Pair<'a>, String> {
        let mut slices = vec![slice];
        if slice.swapped() != slice {
            slices.push(slice.swapped());
        }
        let mut starts = vec![0];
        starts.push(slices[0].size());
        let total = slices.iter().map(|s| s.size()).sum::<u64>();
        if total > (LOSS - 1) as u64 {
            return Err(format!("slice {} is too large to build here", slice.name()));
        }
        Ok(Pair {
            slices,
            starts,
            val: (0..total).map(|_| AtomicU8::new(UNKNOWN)).collect(),
            cnt: (0..total).map(|_| AtomicU8::new(0)).collect(),
            tables,
            threads: threads.max(1),
        })
    }

    fn total(&self) -> u64 {
        self.val.len() as u64
    }

    /// The slice and board of a pair index (`None` for an invalid index).
    fn board(&self, i: u64) -> Option<Board> {
        let k = (i >= self.starts[1]) as usize;
        board_at(&self.slices[k], i - self.starts[k])
    }

    /// The pair index of a mover-relative board of this pair.
    fn locate(&self, b: &Board) -> u64 {
        let s = Slice::of(b);
        let k = (s != self.slices[0]) as usize;
        self.starts[k] + index(b, &s)
    }

    /// Solves the pair; returns each slice's bytes.
    pub fn solve(self, progress: &(dyn Fn(u64, u64) + Sync)) -> Result<Vec<Vec<u8>>, String> {
        let mut levels = self.examine_all(progress)?;
        let mut d = 0u32;
        while d <= MAX_PLIES {
            let settled = self.settle(d, &mut levels);
            if settled.is_empty() && levels.candidates[d as usize..].iter().all(|c| c.is_empty()) {
                break;
            }
            self.propagate(d, &settled, &mut levels)?;
            d += 1;
        }
        if levels.candidates.iter().any(|c| !c.is_empty()) || !levels.settled_next.is_empty() {
            return Err(self.too_long());
        }
        let bytes: Vec<u8> = self
            .val
            .into_iter()
            .map(|v| match v.into_inner() {
                UNKNOWN => DRAW,
                b => b,
            })
            .collect();
        let split = self.starts[1] as usize;
        let mut out = vec![bytes[..split].to_vec()];
        if self.slices.len() == 2 {
            out.push(bytes[split..].to_vec());
        }
        Ok(out)
    }

    /// Step 1 (see the module doc), over chunks of indices on every thread.
    fn examine_all(&self, progress: &(dyn Fn(u64, u64) + Sync)) -> Result<Levels, String> {
        const CHUNK: u64 = 1 << 16;
        let next = AtomicUsize::new(0);
        let chunks = self.total().div_ceil(CHUNK);
        let results: Vec<Result<Levels, String>> = std::thread::scope(|scope| {
            let workers: Vec<_> = (0..self.threads)
                .map(|_| {
                    scope.spawn(|| {
                        let mut found = Levels::new();
                        let mut moves = Vec::new();
                        loop {
                            let c = next.fetch_add(1, Ordering::Relaxed) as u64;
                            if c >= chunks {
                                return Ok(found);
                            }
                            for i in c * CHUNK..((c + 1) * CHUNK).min(self.total()) {
                                self.examine_one(i, &mut moves, &mut found)?;
                            }
                            progress(c + 1, chunks);
                        }
                    })
                })
                .collect();
            workers
                .into_iter()
                .map(|w| {
                    w.join()
                        .unwrap_or_else(|_| Err("a build thread panicked".into()))
                })
                .collect()
        });
        let mut levels = Levels::new();
        for r in results {
            levels.absorb(r?);
        }
        Ok(levels)
    }

    /// Examines index `i`: sets its counter and files its candidacies in `found`.
    fn examine_one(&self, i: u64, moves: &mut Vec<Move>, found: &mut Levels) -> Result<(), String> {
        let Some(b) = self.board(i) else {
            self.val[i as usize].store(DRAW, Ordering::Relaxed);
            return Ok(());
        };
        let e = examine(&b, self.tables, moves)?;
        if e.stuck {
            found.candidate(0, i as u32 | LOSS);
            return Ok(());
        }
        if let Some(w) = e.best_win {
            found.candidate(w, i as u32);
        }
        let count = e.internal + e.safe_exit as u32;
        self.cnt[i as usize].store(count as u8, Ordering::Relaxed);
        if count == 0 {
            found.candidate(e.worst_loss, i as u32 | LOSS);
        }
        Ok(())
    }

    /// Settles the candidates of level `d`; returns every position settled at `d`.
    fn settle(&self, d: u32, levels: &mut Levels) -> Vec<u32> {
        let mut settled = std::mem::take(&mut levels.settled_next);
        let code = Value::encode_plies(d).expect("a level within the byte's range");
        for entry in std::mem::take(&mut levels.candidates[d as usize]) {
            let i = (entry & !LOSS) as usize;
            if entry & LOSS != 0 {
                self.val[i].store(code, Ordering::Relaxed);
                settled.push(entry & !LOSS);
            } else if self.val[i]
                .compare_exchange(UNKNOWN, code, Ordering::Relaxed, Ordering::Relaxed)
                .is_ok()
            {
                settled.push(entry);
            }
        }
        settled
    }

    /// Step 2's propagation of the positions settled at `d`, on every thread.
    fn propagate(&self, d: u32, settled: &[u32], levels: &mut Levels) -> Result<(), String> {
        let per = settled.len().div_ceil(self.threads).max(1);
        let results: Vec<Result<Levels, String>> = std::thread::scope(|scope| {
            let workers: Vec<_> = settled
                .chunks(per)
                .map(|part| scope.spawn(move || self.propagate_part(d, part)))
                .collect();
            workers
                .into_iter()
                .map(|w| {
                    w.join()
                        .unwrap_or_else(|_| Err("a build thread panicked".into()))
                })
                .collect()
        });
        for r in results {
            levels.absorb(r?);
        }
        Ok(())
    }

    /// Propagates some positions settled at `d` to their predecessors.
    fn propagate_part(&self, d: u32, part: &[u32]) -> Result<Levels, String> {
        let mut out = Levels::new();
        let mut preds = Vec::new();
        let mut moves = Vec::new();
        let lost = d.is_multiple_of(2);
        let next = Value::encode_plies(d + 1);
        for &i in part {
            let b = self.board(i as u64).expect("a settled position is valid");
            predecessors(&b, &mut preds);
            for q in &preds {
                let j = self.locate(q);
                if lost {
                    let code = next.ok_or_else(|| self.too_long())?;
                    let won = self.val[j as usize]
                        .compare_exchange(UNKNOWN, code, Ordering::Relaxed, Ordering::Relaxed)
                        .is_ok();
                    if won {
                        out.settled_next.push(j as u32);
                    }
                } else if self.cnt[j as usize].fetch_sub(1, Ordering::Relaxed) == 1 {
                    let e = examine(q, self.tables, &mut moves)?;
                    out.candidate((d + 1).max(e.worst_loss), j as u32 | LOSS);
                }
            }
        }
        Ok(out)
    }

    fn too_long(&self) -> String {
        format!(
            "a distance beyond {MAX_PLIES} plies in slice {}: the byte cannot hold it",
            self.slices[0].name()
        )
    }
}

impl Levels {
    fn new() -> Levels {
        Levels {
            candidates: vec![Vec::new(); MAX_PLIES as usize + 2],
            settled_next: Vec::new(),
        }
    }

    /// Files a candidate for level `level`; one beyond the byte's range goes to the last
    /// list, where `solve` finds it and fails.
    fn candidate(&mut self, level: u32, entry: u32) {
        let last = self.candidates.len() - 1;
        self.candidates[(level as usize).min(last)].push(entry);
    }

    /// Moves everything of `other` into these lists.
    fn absorb(&mut self, mut other: Levels) {
        for (mine, theirs) in self.candidates.iter_mut().zip(other.candidates.iter_mut()) {
            if mine.is_empty() {
                std::mem::swap(mine, theirs);
            } else {
                mine.append(theirs);
            }
        }
        self.settled_next.append(&mut other.settled_next);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn predecessors_unmake_white_steps_without_captures() {
        // Black (to move) king on 1; White man on 18 and king on 32.
        let b = Board {
            black: 1 << 0,
            white: (1 << 17) | (1 << 31),
            kings: (1 << 0) | (1 << 31),
        };
        let mut out = Vec::new();
        predecessors(&b, &mut out);
        // The man came from 22 or 23 (bits 21, 22); the king from 27 or 28 (bits 26, 27).
        let mut froms: Vec<u32> = out
            .iter()
            .map(|q| {
                let w = q.flipped();
                (w.white & !b.white).trailing_zeros() + 1
            })
            .collect();
        froms.sort();
        assert_eq!(froms, [22, 23, 27, 28]);
        // Each predecessor, with White to move, has the step to this position as a move.
        for q in &out {
            let before = q.flipped();
            let mut moves = Vec::new();
            before.legal_moves(Player::Second, &mut moves);
            assert!(
                moves
                    .iter()
                    .any(|&m| before.play(Player::Second, m) == b && !m.is_capture())
            );
        }
    }

    #[test]
    fn a_man_beside_its_crowning_row_has_an_exit() {
        let b = Board {
            black: 1 << 24,
            white: 1 << 4,
            kings: 0,
        };
        let mut moves = Vec::new();
        b.legal_moves(Player::First, &mut moves);
        assert!(moves.iter().all(|m| is_exit(&b, m)));
    }
}
