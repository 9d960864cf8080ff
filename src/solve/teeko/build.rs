//! Building the table: retrograde analysis of the move phase, then backward induction over
//! the drop phase, on any number of threads.
//!
//! Move phase (one [`Layer`] of 4 + 4 markers, ~10M slots). Values are settled in order of
//! distance, two steps per round, starting from the finished positions (the opponent has a
//! goal: lost, 0 plies):
//!
//! - *win step*: every predecessor of a position lost in `d` plies that is not yet settled
//!   is won in `d + 1`;
//! - *loss step*: a predecessor of a position won in `d + 1` that is not yet settled is lost
//!   in `d + 2` when every one of its successors is won (all such wins are at most `d + 1`
//!   plies away, and one is exactly that far, or it would have been settled earlier).
//!
//! Predecessors come from un-moves: in a position `(m, o)` the opponent has just stepped,
//! so its predecessors are `(o', m)` for each `o'` one step back from `o`. They are not
//! settled directly but marked in a bitmap per thread (1.2 MB, which stays in cache, unlike
//! the 10 MB value array), and a sweep over the bitmaps in slot order then settles them,
//! checking successors for a loss. Successors of `(m, o)` are `(o, m')`: canonicalised by
//! `o`, they all fall in one block of 5,985 bytes, so the check reads a small, local part of
//! the array. What is never settled is a draw.
//!
//! Slots of one class of positions (see [`super::index`]) are marked together, so their
//! values stay equal. Threads split the marking (each its own bitmap) and the sweep (each
//! its own slot ranges; a slot is written by one thread only). A loss check may read a
//! successor that another thread settles as a loss during the same sweep; it reads "not a
//! win" either way, so the result does not depend on timing.
//!
//! Drop phase: the layer with `n` markers depends only on layer `n + 1` (or the move phase
//! for `n = 7`), so layers are filled from 7 down to 0, each slot from its drops.

use std::sync::atomic::{AtomicU8, AtomicU64, AtomicUsize, Ordering::Relaxed};

use super::code::{self, DRAW, INVALID, LOSS_NOW};
use super::index::{ALL, Layer, index, masks, rank, transform};
use crate::games::teeko::Rules;
use crate::search::MATE;
use crate::solve::back_up;

/// Progress of a build: what it is doing, and work units done out of a total that is fixed
/// for the build (slots settled or layers filled).
pub struct Progress<'a> {
    pub stage: &'a str,
    pub done: u64,
    pub total: u64,
}

/// What the builder needs from the rules.
struct Ctx {
    /// Per class of 4-sets: whether it is a goal (goals are symmetric, so whole classes are).
    goal_class: Vec<bool>,
    /// Per 3-set, by colex rank: the cells that would complete a goal with it.
    completes: Vec<u32>,
    neighbours: [u32; 25],
}

impl Ctx {
    fn new(rules: &Rules) -> Ctx {
        let orbits = index().orbits(4);
        let mut goal_class = vec![false; orbits.len()];
        let mut completes = vec![0; super::index::BINOM[25][3] as usize];
        for &g in &rules.goals {
            goal_class[orbits.class(g).0] = true;
            for c in cells(g) {
                completes[rank(g & !(1 << c))] |= 1 << c;
            }
        }
        Ctx {
            goal_class,
            completes,
            neighbours: rules.neighbours,
        }
    }

    #[inline]
    fn is_goal(&self, four: u32) -> bool {
        self.goal_class[index().orbits(4).class(four).0]
    }
}

/// The built values: the drop-phase layers 0..=7 (by markers on the board) and the move
/// phase, each a byte per slot (see [`super::code`]).
pub struct Values {
    pub drops: Vec<Vec<u8>>,
    pub moves: Vec<u8>,
    /// Wall time of the move phase and of the drop phase.
    pub times: [std::time::Duration; 2],
}

/// Why a build failed.
#[derive(Debug)]
pub struct DistanceOverflow(pub u32);

impl std::fmt::Display for DistanceOverflow {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "a distance of {} plies does not fit the table's byte encoding",
            self.0
        )
    }
}

/// Runs `work(job, state)` for jobs `0..jobs` on `threads` threads, each with its own state
/// from `init(thread)`, and returns the states.
fn parallel<S: Send>(
    threads: usize,
    jobs: usize,
    init: impl Fn(usize) -> S + Sync,
    work: impl Fn(usize, &mut S) + Sync,
) -> Vec<S> {
    let next = AtomicUsize::new(0);
    let run = |t: usize| {
        let mut state = init(t);
        loop {
            let j = next.fetch_add(1, Relaxed);
            if j >= jobs {
                break;
            }
            work(j, &mut state);
        }
        state
    };
    if threads <= 1 {
        return vec![run(0)];
    }
    std::thread::scope(|s| {
        let handles: Vec<_> = (0..threads).map(|t| s.spawn(move || run(t))).collect();
        handles
            .into_iter()
            .map(|h| h.join().expect("a build thread panicked"))
            .collect()
    })
}

/// Iterates the cells of a mask.
#[inline]
fn cells(mut m: u32) -> impl Iterator<Item = usize> {
    std::iter::from_fn(move || {
        (m != 0).then(|| {
            let c = m.trailing_zeros() as usize;
            m &= m - 1;
            c
        })
    })
}

fn atomic_bytes(len: usize, fill: u8) -> Vec<AtomicU8> {
    (0..len).map(|_| AtomicU8::new(fill)).collect()
}

fn into_bytes(v: Vec<AtomicU8>) -> Vec<u8> {
    v.into_iter().map(AtomicU8::into_inner).collect()
}

/// Frontier entries handed to one marking job.
const MARK_CHUNK: usize = 4096;
/// Bitmap words handed to one sweep job (64 slots each).
const SWEEP_CHUNK: usize = 512;

/// Builds every value of one rule variant (`rules.centre_first` is irrelevant: the centre
/// rule only restricts the first drop, which the solver applies on top of the table).
pub fn build(
    rules: &Rules,
    threads: usize,
    progress: &(dyn Fn(Progress) + Sync),
) -> Result<Values, DistanceOverflow> {
    let threads = threads.max(1);
    let ctx = Ctx::new(rules);
    let mv = Layer::new(4, 4);
    let drop_total: u64 = (0..8).map(|n| Layer::drop_phase(n).len as u64).sum();
    let total = mv.len as u64 + drop_total;
    let started = std::time::Instant::now();
    let moves = move_phase(&ctx, mv, threads, &|stage, done| {
        progress(Progress { stage, done, total })
    })?;
    let move_time = started.elapsed();
    let mut done = mv.len as u64;
    let mut drops: Vec<Vec<u8>> = vec![Vec::new(); 8];
    for n in (0..8).rev() {
        progress(Progress {
            stage: &format!("drop phase: {n} markers"),
            done,
            total,
        });
        let layer = Layer::drop_phase(n);
        let (child_layer, child) = if n == 7 {
            (mv, &moves)
        } else {
            (Layer::drop_phase(n + 1), &drops[n as usize + 1])
        };
        let values = drop_layer(&ctx, layer, child_layer, child, threads)?;
        drops[n as usize] = values;
        done += layer.len as u64;
    }
    progress(Progress {
        stage: "done",
        done,
        total,
    });
    Ok(Values {
        drops,
        moves,
        times: [move_time, started.elapsed() - move_time],
    })
}

/// The move-phase values by retrograde analysis (see the module doc).
fn move_phase(
    ctx: &Ctx,
    layer: Layer,
    threads: usize,
    progress: &dyn Fn(&str, u64),
) -> Result<Vec<u8>, DistanceOverflow> {
    let orbits = layer.orbits();
    let val = atomic_bytes(layer.len, DRAW);

    // Finished positions (the opponent has a goal) and impossible ones (the mover has).
    let frontiers = parallel(
        threads,
        orbits.len(),
        |_| Vec::new(),
        |orbit, frontier: &mut Vec<u32>| {
            let base = orbit * layer.block;
            if ctx.goal_class[orbit] {
                for s in base..base + layer.block {
                    val[s].store(INVALID, Relaxed);
                }
                return;
            }
            for s in base..base + layer.block {
                let (_, _, o) = layer.position(s);
                if ctx.is_goal(o) {
                    val[s].store(LOSS_NOW, Relaxed);
                    frontier.push(s as u32);
                }
            }
        },
    );
    let mut frontier: Vec<u32> = frontiers.concat();
    let mut settled = frontier.len() as u64;

    let words = layer.len.div_ceil(64);
    let marks: Vec<Vec<AtomicU64>> = (0..threads)
        .map(|_| (0..words).map(|_| AtomicU64::new(0)).collect())
        .collect();

    // `frontier` holds the positions settled last, `plies` away; the next step settles
    // positions `plies + 1` away.
    let mut plies = 0u32;
    while !frontier.is_empty() {
        let winning = plies % 2 == 0;
        let next = plies + 1;
        if (winning && next > code::MAX_WIN) || (!winning && next > code::MAX_LOSS) {
            return Err(DistanceOverflow(next));
        }
        progress(
            &format!(
                "move phase: {} in {next} plies",
                if winning { "wins" } else { "losses" }
            ),
            settled,
        );
        mark_predecessors(ctx, layer, &frontier, &marks, threads);
        let new = if winning {
            sweep(layer, &marks, threads, |s| {
                if val[s].load(Relaxed) == DRAW {
                    val[s].store(code::win(next), Relaxed);
                    true
                } else {
                    false
                }
            })
        } else {
            sweep(layer, &marks, threads, |s| {
                if val[s].load(Relaxed) == DRAW && all_successors_won(ctx, layer, &val, s) {
                    val[s].store(code::loss(next), Relaxed);
                    true
                } else {
                    false
                }
            })
        };
        frontier = new;
        settled += frontier.len() as u64;
        plies = next;
    }
    progress("move phase: draws", layer.len as u64);
    Ok(into_bytes(val))
}

/// Sets, in thread `t`'s bitmap, the slot of every predecessor of every frontier position,
/// with all the slots of its class.
fn mark_predecessors(
    ctx: &Ctx,
    layer: Layer,
    frontier: &[u32],
    marks: &[Vec<AtomicU64>],
    threads: usize,
) {
    let orbits = layer.orbits();
    parallel(
        threads,
        frontier.len().div_ceil(MARK_CHUNK),
        |t| t,
        |job, &mut t| {
            let bits = &marks[t];
            // One writer per bitmap: a plain read-modify-write is enough.
            let mark = |slot: usize| {
                let w = &bits[slot / 64];
                w.store(w.load(Relaxed) | 1 << (slot % 64), Relaxed);
            };
            let end = (job * MARK_CHUNK + MARK_CHUNK).min(frontier.len());
            for &s in &frontier[job * MARK_CHUNK..end] {
                let (_, m, o) = layer.position(s as usize);
                let empty = ALL & !(m | o);
                for x in cells(o) {
                    for y in cells(ctx.neighbours[x] & empty) {
                        let before = o ^ (1 << x) ^ (1 << y);
                        let (p, h) = orbits.class(before);
                        if ctx.goal_class[p] {
                            // The opponent would have had a goal before its step: the game
                            // had ended, so this is no predecessor.
                            continue;
                        }
                        let m2 = transform(h, m);
                        mark(layer.slot_in(p, m2));
                        let stab = orbits.stabiliser(p);
                        if stab != 0 {
                            for g in cells(stab as u32) {
                                mark(layer.slot_in(p, transform(g, m2)));
                            }
                        }
                    }
                }
            }
        },
    );
}

/// Visits every marked slot once, in slot-range jobs, clearing the marks; `settle(slot)`
/// says whether it settled the slot. Returns the settled slots.
fn sweep(
    layer: Layer,
    marks: &[Vec<AtomicU64>],
    threads: usize,
    settle: impl Fn(usize) -> bool + Sync,
) -> Vec<u32> {
    let words = layer.len.div_ceil(64);
    let found = parallel(
        threads,
        words.div_ceil(SWEEP_CHUNK),
        |_| Vec::new(),
        |job, out: &mut Vec<u32>| {
            for w in job * SWEEP_CHUNK..(job * SWEEP_CHUNK + SWEEP_CHUNK).min(words) {
                let mut bits = 0;
                for m in marks {
                    let b = m[w].load(Relaxed);
                    if b != 0 {
                        bits |= b;
                        m[w].store(0, Relaxed);
                    }
                }
                while bits != 0 {
                    let s = w * 64 + bits.trailing_zeros() as usize;
                    bits &= bits - 1;
                    if settle(s) {
                        out.push(s as u32);
                    }
                }
            }
        },
    );
    found.concat()
}

/// Whether every successor of slot `s` is a win for the side to move there.
#[inline(never)]
fn all_successors_won(ctx: &Ctx, layer: Layer, val: &[AtomicU8], s: usize) -> bool {
    let orbits = layer.orbits();
    let (_, m, o) = layer.position(s);
    // The successors (o, m') are canonicalised by o: map the whole position by o's
    // symmetry once and step in the image (steps commute with symmetries).
    let (p, g) = orbits.class(o);
    let mg = transform(g, m);
    let empty = ALL & !(mg | orbits.reps[p]);
    for x in cells(mg) {
        for y in cells(ctx.neighbours[x] & empty) {
            let after = mg ^ (1 << x) ^ (1 << y);
            if !code::is_win(val[layer.slot_in(p, after)].load(Relaxed)) {
                return false;
            }
        }
    }
    true
}

/// One drop-phase layer from the next one (`child`, a drop layer or the move phase).
///
/// Positions are visited by the class of the opponent's set `o`, which is the mover's set
/// of every child: with `o` its class representative, the children `(o, m + drop)` are all
/// in one block of the child layer, with no symmetry to apply. Each position's value is
/// written to its slot and to the slots of the same class (the stabiliser's images), which
/// other visits would give the same value.
fn drop_layer(
    ctx: &Ctx,
    layer: Layer,
    child_layer: Layer,
    child: &[u8],
    threads: usize,
) -> Result<Vec<u8>, DistanceOverflow> {
    let val = atomic_bytes(layer.len, DRAW);
    let overflow = AtomicUsize::new(0);
    let (movers, opponents) = (layer.orbits(), child_layer.orbits());
    debug_assert_eq!(opponents.k, layer.b);
    parallel(
        threads,
        opponents.len(),
        |_| (),
        |p, _| {
            let o = opponents.reps[p];
            let finished = layer.b == 4 && ctx.goal_class[p];
            for compressed in masks(layer.a, 25 - layer.b) {
                let m = opponents.expand(p, compressed);
                let c = if finished {
                    LOSS_NOW
                } else {
                    let empty = ALL & !(m | o);
                    let mut best = i32::MIN;
                    if layer.a == 3 && ctx.completes[rank(m)] & empty != 0 {
                        best = MATE - 1;
                    } else {
                        for y in cells(empty) {
                            let v = code::value(child[child_layer.slot_in(p, m | 1 << y)])
                                .expect("a drop never leads to a position where the mover has a goal");
                            best = best.max(back_up(v));
                        }
                    }
                    match code::encode(best) {
                        Some(c) => c,
                        None => {
                            overflow.fetch_max((MATE - best.abs()) as usize, Relaxed);
                            continue;
                        }
                    }
                };
                let (q, h) = movers.class(m);
                let o2 = transform(h, o);
                val[layer.slot_in(q, o2)].store(c, Relaxed);
                for g in cells(movers.stabiliser(q) as u32) {
                    val[layer.slot_in(q, transform(g, o2))].store(c, Relaxed);
                }
            }
        },
    );
    match overflow.into_inner() {
        0 => Ok(into_bytes(val)),
        n => Err(DistanceOverflow(n as u32)),
    }
}
