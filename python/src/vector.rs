//! The batched environment: N games of one kind stepped per call, numpy in and out, with
//! automatic reset (Gymnasium's vector API, NEXT_STEP mode: the step after a game ended
//! resets it and ignores its action), on several threads when asked, and the opponents of
//! the single-agent environments. `ply.envs.vector` (Python) wraps it; with one game it is
//! also the core of the Gymnasium environments.
//!
//! Each game has an agent side. With an opponent, the agent plays one side and a step is
//! the agent's move and the opponent's reply; without one ("self-play"), the agent plays
//! both sides and a step is one move, rewarded for the side that made it.

use std::sync::Arc;

use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::PyDict;

use ply::game::{Game, Player};
use ply::util::Rng;

use crate::encode::Encoded;
use crate::numpy::{Bytes, Typed};
use crate::opponent::{Kind, Opponent};
use crate::py_state::params_of;
use crate::state::{Engine, Shared, player, result_for};
use crate::{IllegalMoveError, PlyError};

/// One game of the batch.
struct Slot<G: Encoded> {
    eng: Engine<G>,
    /// The agent's side in this game.
    agent: Player,
    rng: Rng,
    /// The game ended at the last step: the next step resets it.
    ended: bool,
    moves: u32,
    /// A move buffer reused at every step (no allocation per step).
    scratch: Vec<G::Move>,
}

/// One game's outputs: observation, action mask, reward, terminated, truncated.
struct Out<'a> {
    obs: &'a mut [u8],
    mask: &'a mut [u8],
    reward: &'a mut f32,
    term: &'a mut u8,
    trunc: &'a mut u8,
}

/// The agent's side: fixed, or drawn at random each game (`None`).
type Side = Option<Player>;

struct Core<G: Encoded> {
    shared: Arc<Shared<G>>,
    slots: Vec<Slot<G>>,
    /// One opponent per thread (none in self-play).
    opponents: Vec<Option<Opponent<G>>>,
    side: Side,
    max_moves: Option<u32>,
    obs_len: usize,
    actions: usize,
}

impl<G: Encoded> Core<G> {
    /// Starts game `i` afresh: the agent's side, then the opponent's first move if it
    /// moves first.
    fn restart(
        slot: &mut Slot<G>,
        shared: &Arc<Shared<G>>,
        side: Side,
        opp: &mut Option<Opponent<G>>,
    ) {
        slot.eng = Engine::new(shared.clone());
        slot.ended = false;
        slot.moves = 0;
        slot.agent = side.unwrap_or_else(|| player(slot.rng.below(2)));
        if let Some(o) = opp
            && slot.eng.pos().side_to_move() != slot.agent
            && let Some(m) = o.choose(&slot.eng, &mut slot.rng)
        {
            slot.eng.play(m);
        }
    }

    /// The legal move of `action` in game `slot`, or ply's message.
    fn checked(slot: &mut Slot<G>, action: i64, i: usize) -> Result<Option<G::Move>, String> {
        if slot.ended {
            return Ok(None);
        }
        slot.eng
            .move_of_in(action, &mut slot.scratch)
            .map(Some)
            .map_err(|e| format!("game {i}: {e}"))
    }

    fn observe(slot: &mut Slot<G>, self_play: bool, out: &mut Out) {
        let viewer = if self_play {
            slot.eng.pos().side_to_move()
        } else {
            slot.agent
        };
        out.obs.fill(0);
        slot.eng
            .pos()
            .write_obs(&slot.eng.line, &slot.eng.extra, viewer, out.obs);
        out.mask.fill(0);
        if G::env_outcome(&slot.eng.line, &slot.eng.extra).is_none() {
            slot.eng.legal_into(&mut slot.scratch);
            for &m in &slot.scratch {
                out.mask[slot.eng.pos().action_of(m)] = 1;
            }
        }
    }

    /// One game's step with a move already checked (`None`: the game is reset instead).
    fn step_one(
        slot: &mut Slot<G>,
        mv: Option<G::Move>,
        ctx: (&Arc<Shared<G>>, Side, Option<u32>),
        opp: &mut Option<Opponent<G>>,
        out: &mut Out,
    ) {
        let (shared, side, max_moves) = ctx;
        *out.reward = 0.0;
        *out.term = 0;
        *out.trunc = 0;
        let Some(mv) = mv else {
            Self::restart(slot, shared, side, opp);
            Self::observe(slot, opp.is_none(), out);
            return;
        };
        let mover = slot.eng.pos().side_to_move();
        slot.eng.play(mv);
        slot.moves += 1;
        let mut result = G::env_outcome(&slot.eng.line, &slot.eng.extra);
        if result.is_none()
            && let Some(o) = opp
            && let Some(reply) = o.choose(&slot.eng, &mut slot.rng)
        {
            slot.eng.play(reply);
            result = G::env_outcome(&slot.eng.line, &slot.eng.extra);
        }
        let rewarded = if opp.is_none() { mover } else { slot.agent };
        if let Some(r) = result {
            *out.reward = result_for(r, rewarded) as f32;
            *out.term = 1;
            slot.ended = true;
        } else if max_moves.is_some_and(|m| slot.moves >= m) {
            *out.trunc = 1;
            slot.ended = true;
        }
        Self::observe(slot, opp.is_none(), out);
    }
}

/// Splits the outputs into one [`Out`] per game.
fn outs<'a>(
    obs: &'a mut [u8],
    mask: &'a mut [u8],
    rew: &'a mut [f32],
    term: &'a mut [u8],
    trunc: &'a mut [u8],
    obs_len: usize,
    actions: usize,
) -> Vec<Out<'a>> {
    obs.chunks_mut(obs_len)
        .zip(mask.chunks_mut(actions))
        .zip(rew.iter_mut())
        .zip(term.iter_mut().zip(trunc.iter_mut()))
        .map(|(((obs, mask), reward), (term, trunc))| Out {
            obs,
            mask,
            reward,
            term,
            trunc,
        })
        .collect()
}

/// Runs `f` on every (slot, out) pair, the games split into one contiguous chunk per
/// opponent (thread).
fn parallel<G: Encoded, T: Sync>(
    slots: &mut [Slot<G>],
    outs: Vec<Out>,
    opponents: &mut [Option<Opponent<G>>],
    per: &[T],
    f: impl Fn(&mut Slot<G>, &T, &mut Option<Opponent<G>>, &mut Out) + Sync,
) {
    let threads = opponents.len();
    let chunk = slots.len().div_ceil(threads).max(1);
    let mut outs = outs;
    if threads == 1 {
        let opp = &mut opponents[0];
        for ((slot, t), out) in slots.iter_mut().zip(per).zip(outs.iter_mut()) {
            f(slot, t, opp, out);
        }
        return;
    }
    std::thread::scope(|scope| {
        let f = &f;
        for (((slots, outs), opp), per) in slots
            .chunks_mut(chunk)
            .zip(outs.chunks_mut(chunk))
            .zip(opponents.iter_mut())
            .zip(per.chunks(chunk))
        {
            scope.spawn(move || {
                for ((slot, t), out) in slots.iter_mut().zip(per).zip(outs.iter_mut()) {
                    f(slot, t, opp, out);
                }
            });
        }
    });
}

/// The outputs' numpy arrays, as the Python side passes them.
pub struct Arrays<'a> {
    pub obs: &'a mut [u8],
    pub mask: &'a mut [u8],
    pub rew: &'a mut [f32],
    pub term: &'a mut [u8],
    pub trunc: &'a mut [u8],
}

pub trait DynCore: Send {
    fn reset(&mut self, seed: Option<u64>, a: Arrays);
    fn step(&mut self, actions: &[i64], a: Arrays) -> Result<(), String>;
    fn dims(&self) -> (usize, usize, Vec<usize>);
    /// A uniformly random legal action for each game (0 for a game waiting to be reset).
    fn sample(&mut self, out: &mut [i64]);
    fn agents(&self) -> Vec<usize>;
    fn state(&self, i: usize) -> Box<dyn crate::state::DynState>;
}

impl<G: Encoded> DynCore for Core<G> {
    fn reset(&mut self, seed: Option<u64>, a: Arrays) {
        let base = seed.unwrap_or_else(|| Rng::new(self.slots.len() as u64).next_u64() ^ 0x5eed);
        for (i, slot) in self.slots.iter_mut().enumerate() {
            if seed.is_some() {
                slot.rng = Rng::new(
                    base.wrapping_add(i as u64)
                        .wrapping_mul(0x9E37_79B9_7F4A_7C15),
                );
            }
        }
        let (shared, side) = (self.shared.clone(), self.side);
        let outs = outs(
            a.obs,
            a.mask,
            a.rew,
            a.term,
            a.trunc,
            self.obs_len,
            self.actions,
        );
        let per = vec![(); self.slots.len()];
        parallel(
            &mut self.slots,
            outs,
            &mut self.opponents,
            &per,
            |slot, _, opp, out| {
                Self::restart(slot, &shared, side, opp);
                *out.reward = 0.0;
                *out.term = 0;
                *out.trunc = 0;
                Self::observe(slot, opp.is_none(), out);
            },
        );
    }

    fn step(&mut self, actions: &[i64], a: Arrays) -> Result<(), String> {
        // Every action is checked before any game moves: a bad one changes nothing.
        let moves = self
            .slots
            .iter_mut()
            .zip(actions)
            .enumerate()
            .map(|(i, (slot, &action))| Self::checked(slot, action, i))
            .collect::<Result<Vec<_>, _>>()?;
        let ctx = (&self.shared.clone(), self.side, self.max_moves);
        let outs = outs(
            a.obs,
            a.mask,
            a.rew,
            a.term,
            a.trunc,
            self.obs_len,
            self.actions,
        );
        parallel(
            &mut self.slots,
            outs,
            &mut self.opponents,
            &moves,
            |slot, mv, opp, out| {
                Self::step_one(slot, *mv, ctx, opp, out);
            },
        );
        Ok(())
    }

    fn dims(&self) -> (usize, usize, Vec<usize>) {
        (
            self.slots.len(),
            self.actions,
            self.shared.start.obs_shape(),
        )
    }

    fn sample(&mut self, out: &mut [i64]) {
        for (slot, o) in self.slots.iter_mut().zip(out.iter_mut()) {
            *o = if slot.ended {
                0
            } else {
                slot.eng
                    .random_move_in(&mut slot.rng, &mut slot.scratch)
                    .map_or(0, |m| slot.eng.pos().action_of(m) as i64)
            };
        }
    }

    fn agents(&self) -> Vec<usize> {
        self.slots.iter().map(|s| s.agent.index()).collect()
    }

    fn state(&self, i: usize) -> Box<dyn crate::state::DynState> {
        Box::new(self.slots[i].eng.clone())
    }
}

/// A batch of `n` games of `name`.
#[allow(clippy::too_many_arguments)]
fn new_core(
    name: &str,
    params: &ply::game::Params,
    n: usize,
    opponent: Option<&str>,
    side: Side,
    threads: usize,
    max_moves: Option<u32>,
) -> Result<Box<dyn DynCore>, String> {
    let kind = opponent.map(Kind::parse).transpose()?;
    ply::with_game!(name, G => {
        let start = G::new(params).map_err(|e| e.to_string())?;
        let threads = threads.clamp(1, n.max(1));
        let opponents = (0..threads)
            .map(|_| kind.as_ref().map(|k| Opponent::new(k, &start)).transpose())
            .collect::<Result<Vec<_>, _>>()?;
        let obs_len = start.obs_shape().iter().product();
        let actions = start.num_actions();
        let shared = Arc::new(Shared {
            start,
            solver: Default::default(),
            searcher: Default::default(),
        });
        let slots = (0..n)
            .map(|i| Slot {
                eng: Engine::new(shared.clone()),
                agent: Player::First,
                rng: Rng::new(i as u64),
                ended: false,
                moves: 0,
                scratch: Vec::new(),
            })
            .collect();
        Ok(Box::new(Core { shared, slots, opponents, side, max_moves, obs_len, actions }) as Box<dyn DynCore>)
    }, _ => Err(format!("unknown game '{name}' (known: {})", ply::games::NAMES.join(", "))))
}

/// The native batch under `ply.envs.vector.VectorEnv` and the Gymnasium environments.
#[pyclass(module = "ply._ply", name = "VectorCore")]
pub struct PyVectorCore {
    /// A pyclass must be shareable between threads; a batch is stepped by one call at a time.
    core: std::sync::Mutex<Box<dyn DynCore>>,
}

impl PyVectorCore {
    fn core(&self) -> std::sync::MutexGuard<'_, Box<dyn DynCore>> {
        self.core.lock().unwrap_or_else(|e| e.into_inner())
    }
}

#[pymethods]
impl PyVectorCore {
    /// `player`: the agent's side, 0 or 1, or -1 for a random side each game (with an
    /// opponent); `threads`: how many threads step the batch.
    #[new]
    #[pyo3(signature = (game, num_envs, opponent=None, player=0, threads=1, max_moves=None, **params))]
    fn new(
        game: &str,
        num_envs: usize,
        opponent: Option<&str>,
        player: i64,
        threads: usize,
        max_moves: Option<u32>,
        params: Option<&Bound<'_, PyDict>>,
    ) -> PyResult<Self> {
        if num_envs == 0 || num_envs > 1 << 24 {
            return Err(PyValueError::new_err(format!(
                "num_envs {num_envs}: expected 1 to 16777216"
            )));
        }
        if threads == 0 || threads > 256 {
            return Err(PyValueError::new_err(format!(
                "threads {threads}: expected 1 to 256"
            )));
        }
        let side = match player {
            0 => Some(Player::First),
            1 => Some(Player::Second),
            -1 => None,
            p => {
                return Err(PyValueError::new_err(format!(
                    "player {p}: expected 0, 1 or -1 (random)"
                )));
            }
        };
        let p = params_of(game, params)?;
        let core = new_core(game, &p, num_envs, opponent, side, threads, max_moves)
            .map_err(PlyError::new_err)?;
        Ok(PyVectorCore {
            core: std::sync::Mutex::new(core),
        })
    }

    /// (num_envs, num_actions, observation shape).
    fn dims(&self) -> (usize, usize, Vec<usize>) {
        self.core().dims()
    }

    /// The agent's side in each game (0 or 1).
    fn agents(&self) -> Vec<usize> {
        self.core().agents()
    }

    /// A copy of game `i`'s state (a `ply.State`, with every oracle).
    fn state(&self, i: usize) -> PyResult<crate::py_state::PyState> {
        let n = self.core().dims().0;
        if i >= n {
            return Err(PyValueError::new_err(format!("game {i}: expected 0..{n}")));
        }
        Ok(crate::py_state::PyState {
            s: self.core().state(i),
        })
    }

    #[pyo3(signature = (seed, obs, mask, rew, term, trunc))]
    #[allow(clippy::too_many_arguments)]
    fn reset(
        &mut self,
        py: Python<'_>,
        seed: Option<u64>,
        obs: &Bound<'_, PyAny>,
        mask: &Bound<'_, PyAny>,
        rew: &Bound<'_, PyAny>,
        term: &Bound<'_, PyAny>,
        trunc: &Bound<'_, PyAny>,
    ) -> PyResult<()> {
        let b = Buffers::get(self, obs, mask, rew, term, trunc)?;
        let mut guard = self.core();
        let core: &mut dyn DynCore = &mut **guard;
        py.detach(|| core.reset(seed, b.arrays()));
        Ok(())
    }

    /// Writes a uniformly random legal action for each game into `out` (int64), drawn from
    /// each game's own seeded generator: random play without a Python loop.
    fn sample(&self, py: Python<'_>, out: &Bound<'_, PyAny>) -> PyResult<()> {
        let n = self.core().dims().0;
        let o = Typed::<i64>::get(out, "out", &[n], true)?;
        let mut guard = self.core();
        let core: &mut dyn DynCore = &mut **guard;
        let slice = o.slice_mut();
        py.detach(|| core.sample(slice));
        Ok(())
    }

    /// Steps every game with `actions` (int64, one per game); raises `IllegalMoveError`
    /// without changing anything when one is not legal.
    #[allow(clippy::too_many_arguments)]
    fn step(
        &mut self,
        py: Python<'_>,
        actions: &Bound<'_, PyAny>,
        obs: &Bound<'_, PyAny>,
        mask: &Bound<'_, PyAny>,
        rew: &Bound<'_, PyAny>,
        term: &Bound<'_, PyAny>,
        trunc: &Bound<'_, PyAny>,
    ) -> PyResult<()> {
        let n = self.core().dims().0;
        let acts = Typed::<i64>::get(actions, "actions", &[n], false)?;
        let b = Buffers::get(self, obs, mask, rew, term, trunc)?;
        let mut guard = self.core();
        let core: &mut dyn DynCore = &mut **guard;
        let a = acts.slice();
        py.detach(|| core.step(a, b.arrays()))
            .map_err(IllegalMoveError::new_err)
    }
}

/// The output arrays, checked.
struct Buffers {
    obs: Bytes,
    mask: Bytes,
    rew: Typed<f32>,
    term: Bytes,
    trunc: Bytes,
}

// SAFETY: the buffers are only read and written while the calling Python thread waits in
// `detach`; the arrays stay alive (their buffers are held) until `Buffers` is dropped.
unsafe impl Send for Buffers {}
unsafe impl Sync for Buffers {}

impl Buffers {
    fn get(
        me: &PyVectorCore,
        obs: &Bound<'_, PyAny>,
        mask: &Bound<'_, PyAny>,
        rew: &Bound<'_, PyAny>,
        term: &Bound<'_, PyAny>,
        trunc: &Bound<'_, PyAny>,
    ) -> PyResult<Buffers> {
        let (n, actions, shape) = me.core().dims();
        let obs_shape: Vec<usize> = std::iter::once(n).chain(shape).collect();
        Ok(Buffers {
            obs: Bytes::get(obs, "observations", &obs_shape)?,
            mask: Bytes::get(mask, "action masks", &[n, actions])?,
            rew: Typed::get(rew, "rewards", &[n], true)?,
            term: Bytes::get(term, "terminations", &[n])?,
            trunc: Bytes::get(trunc, "truncations", &[n])?,
        })
    }

    fn arrays(&self) -> Arrays<'_> {
        Arrays {
            obs: self.obs.slice(),
            mask: self.mask.slice(),
            rew: self.rew.slice_mut(),
            term: self.term.slice(),
            trunc: self.trunc.slice(),
        }
    }
}
