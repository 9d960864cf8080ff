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
//! so its predecessors are `(o', m)` for each `o'` one step back from `o`. Everything is
//! arranged so that only settling a position touches the 10 MB value array at random:
//!
//! - Settling a position marks its predecessors in a bitmap per thread (1.2 MB, which stays
//!   in cache), for the next step. A predecessor `(o', m)` of a slot `(m, o)` is marked at
//!   the slot number of `(m, o')`: since a slot's `m` is a class representative, that is
//!   the slot's own block and needs no symmetry (the *marking layout*: by the opponent's
//!   class).
//! - A `done` bitmap in the same layout filters out positions already settled.
//! - Each step is one sweep over the bitmaps, block by block, settling what is marked. A
//!   loss candidate's successors `(m, o'')` lie in block `m` too, which the sweep is working
//!   through, so the check is local; only a position that is settled is looked up at its
//!   own slot, which needs `o'`'s class and symmetry.
//!
//! What is never settled is a draw.
//!
//! Slots of one class of positions (see [`super::index`]) are settled together, so their
//! values stay equal. Threads split each sweep by bitmap ranges and mark into bitmaps of
//! their own; a slot is settled by compare-and-swap from "draw", so when two
//! threads reach one class from symmetric bits, one of them settles it. A loss check may
//! read a successor that another thread settles as a loss during the same sweep; it reads
//! "not a win" either way, so the result does not depend on timing.
//!
//! Drop phase: the layer with `n` markers depends only on layer `n + 1` (or the move phase
//! for `n = 7`), so layers are filled from 7 down to 0, each slot from its drops.

use std::sync::atomic::{AtomicU8, AtomicU64, AtomicUsize, Ordering::Relaxed};

use super::code::{self, DRAW, INVALID, LOSS_NOW};
use super::index::{ALL, Layer, index, masks, rank, transform};
use crate::games::teeko::Rules;
use crate::value::{MATE, back_up};

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
        let mut goal_class = vec![false; orbits.count()];
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
    let words = layer.len.div_ceil(64);
    let bitmap = || (0..words).map(|_| AtomicU64::new(0)).collect::<Vec<_>>();
    // Per thread: the marks the current step sweeps, and those it makes for the next step.
    let mut marks: Vec<Vec<AtomicU64>> = (0..threads).map(|_| bitmap()).collect();
    let mut next_marks: Vec<Vec<AtomicU64>> = (0..threads).map(|_| bitmap()).collect();

    // Finished positions (the opponent has a goal) and impossible ones (the mover has).
    let counts = parallel(
        threads,
        orbits.count(),
        |t| (t, 0u64),
        |orbit, (t, count)| {
            let base = orbit * layer.block;
            let block = &val[base..base + layer.block];
            if ctx.goal_class[orbit] {
                block.iter().for_each(|v| v.store(INVALID, Relaxed));
                return;
            }
            for (i, v) in block.iter().enumerate() {
                let (_, m, o) = layer.position(base + i);
                if ctx.is_goal(o) {
                    v.store(LOSS_NOW, Relaxed);
                    mark_predecessors(ctx, layer, orbit, m, o, &marks[*t]);
                    *count += 1;
                }
            }
        },
    );
    let mut settled: u64 = counts.iter().map(|c| c.1).sum();

    // Bits of the marking layout (see `mark_predecessors`) whose position is settled: a
    // filter that spares the sweep a random read of the value array. Bit `s` stands for the
    // mover of slot `s`'s opponent set playing against its class representative, so it is
    // settled from the start exactly when slot `s` is: either side has a goal.
    let done = bitmap();
    for (w, d) in done.iter().enumerate() {
        let mut bits = 0u64;
        for (i, v) in val[w * 64..(w * 64 + 64).min(layer.len)].iter().enumerate() {
            bits |= ((v.load(Relaxed) != DRAW) as u64) << i;
        }
        d.store(bits, Relaxed);
    }

    // The marks are the predecessors of the positions settled last, `plies` away; the next
    // step settles positions `plies + 1` away.
    let mut plies = 0u32;
    loop {
        let winning = plies.is_multiple_of(2);
        let next = plies + 1;
        if (winning && next > code::MAX_WIN) || (!winning && next > code::MAX_LOSS) {
            return Err(DistanceOverflow(next));
        }
        progress(
            &format!(
                "move phase: {} in {next} ply{}",
                if winning { "wins" } else { "losses" },
                if next == 1 { "" } else { "s" }
            ),
            settled,
        );
        let new = sweep(layer, &marks, &done, threads, |u, t| {
            settle(ctx, layer, &val, &done, &next_marks[t], u, winning, next)
        });
        if new == 0 {
            break;
        }
        settled += new;
        plies = next;
        std::mem::swap(&mut marks, &mut next_marks);
    }
    progress("move phase: draws", layer.len as u64);
    Ok(into_bytes(val))
}

/// Marks, in one thread's bitmap, every predecessor of the position where the
/// representative `m` of class `q` is to move against `o`. A predecessor `(o', m)` is marked
/// at the slot number of `(m, o')`: this needs no symmetry and stays in block `q`.
#[inline]
fn mark_predecessors(ctx: &Ctx, layer: Layer, q: usize, m: u32, o: u32, bits: &[AtomicU64]) {
    let orbits = layer.orbits();
    let base = q * layer.block;
    let empty = ALL & !(m | o);
    for x in cells(o) {
        for y in cells(ctx.neighbours[x] & empty) {
            let u = base + orbits.rank_outside(q, o ^ (1 << x) ^ (1 << y));
            // One writer per bitmap: a plain read-modify-write is enough.
            let w = &bits[u / 64];
            w.store(w.load(Relaxed) | 1 << (u % 64), Relaxed);
        }
    }
}

/// Visits every marked bit that is not `done` once, in bitmap-range jobs, clearing the
/// marks, and calls `settle(bit, thread)`, which returns how many slots it settled. Returns
/// the total.
fn sweep(
    layer: Layer,
    marks: &[Vec<AtomicU64>],
    done: &[AtomicU64],
    threads: usize,
    settle: impl Fn(usize, usize) -> u64 + Sync,
) -> u64 {
    let words = layer.len.div_ceil(64);
    let counts = parallel(
        threads,
        words.div_ceil(SWEEP_CHUNK),
        |t| (t, 0u64),
        |job, (t, count)| {
            for w in job * SWEEP_CHUNK..(job * SWEEP_CHUNK + SWEEP_CHUNK).min(words) {
                let mut bits = 0;
                for m in marks {
                    let b = m[w].load(Relaxed);
                    if b != 0 {
                        bits |= b;
                        m[w].store(0, Relaxed);
                    }
                }
                bits &= !done[w].load(Relaxed);
                while bits != 0 {
                    *count += settle(w * 64 + bits.trailing_zeros() as usize, *t);
                    bits &= bits - 1;
                }
            }
        },
    );
    counts.iter().map(|c| c.1).sum()
}

/// Settles the predecessor marked at bit `u` (see [`mark_predecessors`]) and the other slots
/// of its class, if not settled yet: as a win in `plies` when `winning`, else as a loss in
/// `plies` when all its successors are wins. Then sets the class's bits in `done` and marks
/// its own predecessors in `next`. Returns the number of slots settled.
#[allow(clippy::too_many_arguments)]
#[inline]
fn settle(
    ctx: &Ctx,
    layer: Layer,
    val: &[AtomicU8],
    done: &[AtomicU64],
    next: &[AtomicU64],
    u: usize,
    winning: bool,
    plies: u32,
) -> u64 {
    let orbits = layer.orbits();
    // The predecessor: `mover` to move, against `m`, the representative of class `q`.
    let (q, m, mover) = layer.position(u);
    if !winning {
        // Its successors (m, mover') are in block q, with no symmetry to apply: check them
        // before looking the predecessor itself up far away in the array.
        let empty = ALL & !(m | mover);
        for x in cells(mover) {
            for y in cells(ctx.neighbours[x] & empty) {
                let after = layer.slot_in(q, mover ^ (1 << x) ^ (1 << y));
                if !code::is_win(val[after].load(Relaxed)) {
                    return 0;
                }
            }
        }
    }
    let c = if winning {
        code::win(plies)
    } else {
        code::loss(plies)
    };
    let (p, g) = orbits.class(mover);
    debug_assert!(
        !ctx.goal_class[p],
        "impossible positions are done from the start"
    );
    let mg = transform(g, m);
    // Another thread may reach the same class from a symmetric bit: settle each slot once.
    let claim = |t: usize| val[t].compare_exchange(DRAW, c, Relaxed, Relaxed).is_ok() as u64;
    let mut claimed = claim(layer.slot_in(p, mg));
    for s in cells(orbits.stabiliser(p) as u32) {
        claimed += claim(layer.slot_in(p, transform(s, mg)));
    }
    if claimed > 0 {
        // The class's bits: the images of `mover` under the symmetries that fix `m`.
        let set = |b: usize| {
            done[b / 64].fetch_or(1 << (b % 64), Relaxed);
        };
        set(u);
        for s in cells(orbits.stabiliser(q) as u32) {
            set(layer.slot_in(q, transform(s, mover)));
        }
        // One member of the class is enough: its predecessors' classes are all of the
        // class's predecessors' classes.
        mark_predecessors(ctx, layer, p, orbits.reps[p], mg, next);
    }
    claimed
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
        opponents.count(),
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
                            let v = code::value(child[child_layer.slot_in(p, m | 1 << y)]).expect(
                                "a drop never leads to a position where the mover has a goal",
                            );
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
