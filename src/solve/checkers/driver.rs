//! Building every database up to a number of pieces, in dependency order, resumably.
//!
//! Pairs of slices ([`super::build`]) are solved by piece count, and within a piece count by
//! the number of men (a crowning leads to one man fewer), so every exit of a pair is solved
//! before it. Each solved slice is saved to its own file at once; a build that was
//! interrupted starts again where it stopped, keeping every slice file whose checksum holds.
//! One process builds in a directory at a time (an advisory lock on `checkers.lock`).

use std::path::Path;
use std::time::Instant;

use super::build::Pair;
use super::index::Slice;
use super::table::{SliceTable, TableError, Tables, file_name, save};
use super::value::{DRAW, Value};
use crate::solve::files::{BuildLock, remove_stale_temporaries};

/// Where a build is, for a progress bar.
pub struct Progress<'a> {
    /// The slice pair being solved, by its first slice's name.
    pub slice: &'a str,
    pub pieces: u32,
    /// Positions examined so far, of all the build has to solve.
    pub done: u64,
    pub total: u64,
}

/// What a build found in one slice.
#[derive(Clone, Debug, Default)]
pub struct SliceReport {
    pub slice: Option<Slice>,
    /// Valid positions: enumerated (indices whose men do not overlap).
    pub positions: u64,
    pub won: u64,
    pub drawn: u64,
    pub lost: u64,
    /// The longest forced win, in plies, and the index of a position with it.
    pub longest_win: u32,
    pub longest_at: u64,
    /// Seconds the pair took to solve (shared by both slices); `None` when found on disk.
    pub seconds: Option<f64>,
    pub bytes: u64,
}

/// Every slice with at most `max` pieces (and at least two), in the order they are built,
/// as pairs: the first slice of each pair and its partner when there is one.
pub fn pairs_up_to(max: u32) -> Vec<Vec<Slice>> {
    let mut out = Vec::new();
    for n in 2..=max {
        let mut slices = Slice::all_with(n);
        slices.sort_by_key(|s| (s.men(), *s));
        for s in slices {
            if s.swapped() < s {
                continue;
            }
            let mut pair = vec![s];
            if s.swapped() != s {
                pair.push(s.swapped());
            }
            out.push(pair);
        }
    }
    out
}

/// Builds (or finds) every slice of up to `max` pieces in `dir` on `threads` threads;
/// returns the tables and a report per slice.
pub fn build(
    dir: &Path,
    max: u32,
    threads: usize,
    progress: &(dyn Fn(Progress) + Sync),
) -> Result<(Tables, Vec<SliceReport>), String> {
    let _lock = BuildLock::acquire(&dir.join("checkers"))
        .map_err(|e| format!("cannot write in {}: {e}", dir.display()))?
        .ok_or_else(|| format!("another process is building in {}", dir.display()))?;
    let tables = Tables::building();
    let pairs = pairs_up_to(max);
    let total: u64 = pairs.iter().flatten().map(|s| s.size()).sum();
    let mut done = 0;
    let mut reports = Vec::new();
    for pair in &pairs {
        let name = pair[0].name();
        let pieces = pair[0].pieces();
        let found: Vec<Option<SliceTable>> = pair.iter().map(|s| find(dir, s)).collect();
        let seconds = if found.iter().all(|f| f.is_some()) {
            for t in found.into_iter().flatten() {
                tables.insert(t);
            }
            None
        } else {
            let start = Instant::now();
            let at = done;
            let solved = Pair::new(pair[0], &tables, threads)?.solve(&|c, chunks| {
                let size: u64 = pair.iter().map(|s| s.size()).sum();
                progress(Progress {
                    slice: &name,
                    pieces,
                    done: at + size * c / chunks.max(1),
                    total,
                })
            })?;
            for (s, bytes) in pair.iter().zip(solved) {
                let path = dir.join(file_name(s));
                save(s, &bytes, &path)
                    .map_err(|e| format!("cannot write {}: {e}", path.display()))?;
                tables.insert(SliceTable::open(&path, s, false).map_err(|e| e.to_string())?);
            }
            Some(start.elapsed().as_secs_f64())
        };
        for s in pair {
            let t = tables.slice(s).expect("a slice just put in");
            reports.push(SliceReport {
                seconds,
                ..report(t)
            });
        }
        done += pair.iter().map(|s| s.size()).sum::<u64>();
        progress(Progress {
            slice: &name,
            pieces,
            done,
            total,
        });
    }
    Ok((tables, reports))
}

/// A slice's table in `dir` if it is there and whole (its checksum holds). (Called under the
/// build lock: a temporary file of the slice is what an interrupted save left.)
fn find(dir: &Path, s: &Slice) -> Option<SliceTable> {
    let path = dir.join(file_name(s));
    remove_stale_temporaries(&path);
    match SliceTable::open(&path, s, true) {
        Ok(t) => Some(t),
        Err(TableError::Missing) => None,
        Err(e) => {
            log::warn!("{e}: it is built again");
            None
        }
    }
}

/// Counts a slice's values (invalid indices, stored as draws, are left out).
pub fn report(t: &SliceTable) -> SliceReport {
    let s = t.slice;
    let mut r = SliceReport {
        slice: Some(s),
        bytes: s.size(),
        ..SliceReport::default()
    };
    let mut zeros = 0;
    for (i, &b) in t.bytes().iter().enumerate() {
        match Value::decode(b) {
            _ if b == DRAW => zeros += 1,
            Value::Win(d) => {
                r.won += 1;
                if d > r.longest_win {
                    r.longest_win = d;
                    r.longest_at = i as u64;
                }
            }
            Value::Loss(_) => r.lost += 1,
            Value::Draw => {}
        }
    }
    r.positions = s.valid_count();
    r.drawn = zeros - (s.size() - r.positions);
    r
}
