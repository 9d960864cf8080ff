//! The Python classes `Game` and `State` over [`crate::state::DynState`], and the oracles'
//! answers `Solution` and `SearchResult`.

use std::time::Duration;

use pyo3::exceptions::{PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyBool, PyDict, PyInt, PyList, PyString, PyTuple};

use ply::game::{Outcome, ParamSpec, Params, Player};
use ply::setting::Kind;

use crate::numpy::{Bytes, empty};
use crate::oracle::{Limits, Proven, Searched};
use crate::state::{DynState, agent_names, new_state, player, result_for};
use crate::{IllegalMoveError, PlyError};

/// The Python type a parameter of `kind` takes, in words.
fn python_type(kind: &Kind) -> &'static str {
    match kind {
        Kind::Check { .. } => "a bool",
        Kind::Spin { .. } => "an int",
        Kind::Combo { .. } => "a str",
        Kind::List { .. } => "a list of ints (or one int)",
        Kind::Button => "nothing",
    }
}

/// A keyword argument as the text ply's parameter parser reads, its Python type checked
/// against the game's declaration (`ParamSpec`): a bool for a switch, an int for a number, a
/// str for a choice, a list of ints for a list (`heaps=[3, 4, 5]` is `heaps=3,4,5`). The
/// value itself (its range, its choices) is then checked by the game, with ply's message.
/// A key the game does not declare is passed on, for the game's own error.
fn param_text(key: &str, v: &Bound<'_, PyAny>, spec: Option<&ParamSpec>) -> PyResult<String> {
    let is_bool = v.is_instance_of::<PyBool>();
    let is_int = v.is_instance_of::<PyInt>() && !is_bool;
    let int_text = |v: &Bound<'_, PyAny>| -> PyResult<String> {
        Ok(v.extract::<i128>()
            .map(|n| n.to_string())
            .unwrap_or_else(|_| v.to_string()))
    };
    let wrong = |kind: &Kind| -> PyResult<String> {
        Err(PyTypeError::new_err(format!(
            "parameter {key}: expected {} ({}), got {}",
            python_type(kind),
            kind.expected(),
            v.get_type().name()?
        )))
    };
    let Some(spec) = spec else {
        return Ok(v.str()?.to_string());
    };
    match &spec.kind {
        Kind::Check { .. } if is_bool => Ok(if v.extract::<bool>()? {
            "true"
        } else {
            "false"
        }
        .into()),
        Kind::Spin { .. } if is_int => int_text(v),
        Kind::Combo { .. } => match v.cast::<PyString>() {
            Ok(t) => Ok(t.to_str()?.to_string()),
            Err(_) => wrong(&spec.kind),
        },
        Kind::List { .. } if is_int => int_text(v),
        Kind::List { .. } if v.is_instance_of::<PyList>() || v.is_instance_of::<PyTuple>() => {
            let mut parts = Vec::new();
            for item in v.try_iter()? {
                let item = item?;
                if item.is_instance_of::<PyBool>() || !item.is_instance_of::<PyInt>() {
                    return wrong(&spec.kind);
                }
                parts.push(int_text(&item)?);
            }
            Ok(parts.join(","))
        }
        kind => wrong(kind),
    }
}

/// `newgame`'s parameters from keyword arguments, for the game `name`.
pub fn params_of(name: &str, kwargs: Option<&Bound<'_, PyDict>>) -> PyResult<Params> {
    let specs = ply::games::param_specs(name).unwrap_or(&[]);
    let mut out = Vec::new();
    if let Some(d) = kwargs {
        for (k, v) in d.iter() {
            let key: String = k.extract()?;
            let spec = specs.iter().find(|s| s.key == key);
            let text = param_text(&key, &v, spec)?;
            out.push((key, text));
        }
    }
    Ok(Params(out))
}

/// Every parameter of the game `name` as ply declares it: key, type, default, range or
/// choices, label and help (`ply.parameters("connect4")`).
#[pyfunction]
pub fn parameters<'py>(py: Python<'py>, name: &str) -> PyResult<Vec<Bound<'py, PyDict>>> {
    let specs = ply::games::param_specs(name).ok_or_else(|| {
        PlyError::new_err(format!(
            "unknown game '{name}' (known: {})",
            ply::games::NAMES.join(", ")
        ))
    })?;
    let mut out = Vec::new();
    for spec in specs {
        let d = PyDict::new(py);
        d.set_item("key", spec.key)?;
        d.set_item("label", spec.label)?;
        d.set_item("help", spec.help)?;
        d.set_item("expected", spec.kind.expected())?;
        match spec.kind {
            Kind::Check { default } => {
                d.set_item("type", "bool")?;
                d.set_item("default", default)?;
            }
            Kind::Spin { default, min, max } => {
                d.set_item("type", "int")?;
                d.set_item("default", default)?;
                d.set_item("min", min)?;
                d.set_item("max", max)?;
            }
            Kind::Combo { default, vars } => {
                d.set_item("type", "str")?;
                d.set_item("default", default)?;
                d.set_item("choices", vars.to_vec())?;
            }
            Kind::List {
                default,
                min,
                max,
                max_len,
            } => {
                d.set_item("type", "list[int]")?;
                d.set_item(
                    "default",
                    if default.is_empty() {
                        None
                    } else {
                        Some(default.to_vec())
                    },
                )?;
                d.set_item("min", min)?;
                d.set_item("max", max)?;
                d.set_item("max_len", max_len)?;
            }
            Kind::Button => d.set_item("type", "button")?,
        }
        out.push(d);
    }
    Ok(out)
}

fn ply_err(e: String) -> PyErr {
    PlyError::new_err(e)
}

fn move_err(e: String) -> PyErr {
    IllegalMoveError::new_err(e)
}

fn viewer(p: i64) -> PyResult<Player> {
    match p {
        0 | 1 => Ok(player(p as usize)),
        _ => Err(PyValueError::new_err(format!(
            "player {p}: expected 0 or 1"
        ))),
    }
}

fn limits(depth: Option<u32>, nodes: Option<u64>, movetime: Option<f64>) -> PyResult<Limits> {
    let movetime = match movetime {
        Some(t) if !(t.is_finite() && t > 0.0 && t < 1e9) => {
            return Err(PyValueError::new_err(format!(
                "movetime {t}: expected a positive number of seconds"
            )));
        }
        Some(t) => Some(Duration::from_secs_f64(t)),
        None => None,
    };
    if depth == Some(0) || nodes == Some(0) {
        return Err(PyValueError::new_err("depth and nodes must be at least 1"));
    }
    Ok(Limits {
        depth,
        nodes,
        movetime,
    })
}

/// A game with its parameters: `Game("connect4", width=8, height=7)`.
#[pyclass(module = "ply._ply", name = "Game", frozen)]
pub struct PyGame {
    pub name: String,
    pub proto: Box<dyn DynState>,
}

#[pymethods]
impl PyGame {
    #[new]
    #[pyo3(signature = (name, **params))]
    fn new(name: &str, params: Option<&Bound<'_, PyDict>>) -> PyResult<PyGame> {
        let p = params_of(name, params)?;
        let proto = new_state(name, &p).map_err(ply_err)?;
        Ok(PyGame {
            name: name.to_string(),
            proto,
        })
    }

    /// The game's name, as `newgame` takes it.
    #[getter]
    fn name(&self) -> &str {
        &self.name
    }

    /// Every parameter with its value, as ply writes them (`width=7 height=6`).
    #[getter]
    fn params(&self) -> String {
        self.proto.params()
    }

    #[getter]
    fn num_actions(&self) -> usize {
        self.proto.num_actions()
    }

    #[getter]
    fn observation_shape(&self) -> Vec<usize> {
        self.proto.obs_shape()
    }

    /// PettingZoo's names of the two agents (first player first).
    #[getter]
    fn agents(&self) -> Vec<&'static str> {
        agent_names(&self.name)
            .map(|a| a.to_vec())
            .unwrap_or_default()
    }

    /// The start position, or the position `fen` in the game's notation.
    #[pyo3(signature = (fen=None))]
    fn new_state(&self, fen: Option<&str>) -> PyResult<PyState> {
        let mut s = self.proto.clone_box();
        s.reset();
        if let Some(f) = fen {
            s.set_fen(f).map_err(ply_err)?;
        }
        Ok(PyState { s })
    }

    /// OpenSpiel's name for `new_state()`.
    fn new_initial_state(&self) -> PyState {
        let mut s = self.proto.clone_box();
        s.reset();
        PyState { s }
    }

    fn __repr__(&self) -> String {
        let p = self.proto.params();
        if p.is_empty() {
            format!("Game('{}')", self.name)
        } else {
            format!("Game('{}', {})", self.name, p)
        }
    }
}

/// A position of a game, with its history. Actions are integers (the environments'
/// numbering), moves are texts in ply's notation.
#[pyclass(module = "ply._ply", name = "State", subclass)]
pub struct PyState {
    pub s: Box<dyn DynState>,
}

#[pymethods]
impl PyState {
    /// The player to move, 0 (first) or 1, also once the game is over.
    #[getter]
    fn to_move(&self) -> usize {
        self.s.to_move().index()
    }

    /// OpenSpiel's `current_player()`: the player to move, -4 once the game is over.
    fn current_player(&self) -> i64 {
        if self.s.outcome().is_some() {
            -4
        } else {
            self.s.to_move().index() as i64
        }
    }

    fn is_terminal(&self) -> bool {
        self.s.outcome().is_some()
    }

    /// `'p1win'`, `'p2win'`, `'draw'`, or `None` while the game goes on.
    fn outcome(&self) -> Option<&'static str> {
        self.s.outcome().map(Outcome::protocol_name)
    }

    /// The rule that ended the game, in the referee's words (`'checkmate'`, `'four in a
    /// row'`, `'threefold repetition'`), or `None` while the game goes on.
    fn ending(&self) -> Option<String> {
        self.s.ending()
    }

    /// The winner, 0 or 1; `None` for a draw or an unfinished game.
    #[getter]
    fn winner(&self) -> Option<usize> {
        match self.s.outcome() {
            Some(Outcome::Win(p)) => Some(p.index()),
            _ => None,
        }
    }

    /// Each player's result: +1 a win, -1 a loss, 0 a draw or an unfinished game.
    fn returns(&self) -> Vec<f64> {
        match self.s.outcome() {
            Some(o) => vec![
                result_for(o, Player::First) as f64,
                result_for(o, Player::Second) as f64,
            ],
            None => vec![0.0, 0.0],
        }
    }

    fn legal_actions(&self) -> Vec<usize> {
        self.s.legal_actions()
    }

    fn legal_moves(&self) -> Vec<String> {
        self.s.legal_moves()
    }

    fn action_to_move(&self, action: i64) -> PyResult<String> {
        self.s.action_text(action).map_err(move_err)
    }

    fn move_to_action(&self, text: &str) -> PyResult<usize> {
        self.s.text_action(text).map_err(move_err)
    }

    /// Plays an action (OpenSpiel's name).
    fn apply_action(&mut self, action: i64) -> PyResult<()> {
        self.s.play_action(action).map_err(move_err)
    }

    /// Plays a move given as its text (`"e2e4"`) or its action (an int); returns the state,
    /// so that plays chain.
    fn play<'py>(slf: Bound<'py, Self>, mv: &Bound<'py, PyAny>) -> PyResult<Bound<'py, Self>> {
        {
            let mut me = slf.borrow_mut();
            if let Ok(t) = mv.cast::<PyString>() {
                me.s.play_text(t.to_str()?).map_err(move_err)?;
            } else if mv.is_instance_of::<PyInt>() && !mv.is_instance_of::<PyBool>() {
                let a: i64 = mv
                    .extract()
                    .map_err(|_| move_err(format!("action {mv} is out of range")))?;
                me.s.play_action(a).map_err(move_err)?;
            } else {
                return Err(PyTypeError::new_err(format!(
                    "a move is a str or an int action, got {}",
                    mv.get_type().name()?
                )));
            }
        }
        Ok(slf)
    }

    fn clone(&self) -> PyState {
        PyState {
            s: self.s.clone_box(),
        }
    }

    fn __copy__(&self) -> PyState {
        self.clone()
    }

    fn __deepcopy__(&self, _memo: &Bound<'_, PyAny>) -> PyState {
        self.clone()
    }

    /// The position in the game's one-line notation (FEN for chess).
    fn fen(&self) -> String {
        self.s.fen()
    }

    /// Replaces the position by `fen`, forgetting the history; unchanged on an error.
    fn set_fen(&mut self, fen: &str) -> PyResult<()> {
        self.s.set_fen(fen).map_err(ply_err)
    }

    #[getter]
    fn game(&self) -> &'static str {
        self.s.game_name()
    }

    #[getter]
    fn num_actions(&self) -> usize {
        self.s.num_actions()
    }

    #[getter]
    fn observation_shape(&self) -> Vec<usize> {
        self.s.obs_shape()
    }

    /// The observation tensor seen by `player` (default: the player to move), as the
    /// PettingZoo environment gives it: an int8 array (bool for chess).
    #[pyo3(signature = (player=None))]
    fn observation<'py>(
        &self,
        py: Python<'py>,
        player: Option<i64>,
    ) -> PyResult<Bound<'py, PyAny>> {
        let p = match player {
            Some(p) => viewer(p)?,
            None => self.s.to_move(),
        };
        let dtype = if self.s.game_name() == "chess" {
            "bool"
        } else {
            "int8"
        };
        let arr = empty(py, &self.s.obs_shape(), dtype)?;
        let b = Bytes::get(&arr, "observation", &self.s.obs_shape())?;
        self.s.write_obs(p, b.slice());
        Ok(arr)
    }

    /// Writes the observation by `player` into `out` (an array of the observation's shape
    /// and a one-byte dtype).
    fn observation_into(&self, player: i64, out: &Bound<'_, PyAny>) -> PyResult<()> {
        let b = Bytes::get(out, "out", &self.s.obs_shape())?;
        self.s.write_obs(viewer(player)?, b.slice());
        Ok(())
    }

    /// The legal actions as a 0/1 int8 array of `num_actions`.
    fn legal_actions_mask<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        let n = self.s.num_actions();
        let arr = empty(py, &[n], "int8")?;
        let b = Bytes::get(&arr, "mask", &[n])?;
        b.slice().fill(0);
        for a in self.s.legal_actions() {
            b.slice()[a] = 1;
        }
        Ok(arr)
    }

    /// The environment's action mask for the player to move, as PettingZoo's envs give it
    /// (tic-tac-toe and Connect Four mark empty cells and open columns even once the game has
    /// ended; chess marks python-chess's legal moves).
    fn env_action_mask<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        let n = self.s.num_actions();
        let arr = empty(py, &[n], "int8")?;
        let b = Bytes::get(&arr, "mask", &[n])?;
        self.s.write_mask(b.slice());
        Ok(arr)
    }

    /// The environment's result, `'p1win'`, `'p2win'`, `'draw'` or `None`: ply's rules, and
    /// for chess also chess_v6's claimable draws (docs/python.md).
    fn env_outcome(&self) -> Option<&'static str> {
        self.s.env_outcome().map(Outcome::protocol_name)
    }

    /// Plays a uniformly random legal move (none once the environment's game is over);
    /// returns whether it played.
    fn play_random(&mut self, seed: u64) -> bool {
        let mut rng = ply::util::Rng::new(seed);
        self.s.play_random(&mut rng)
    }

    /// Is the position solved? Its exact value where ply has a solver: `None` when not proven
    /// within `nodes` / `movetime` seconds; `PlyError` for a game without one (chess).
    #[pyo3(signature = (*, nodes=None, movetime=None))]
    fn solve(
        &self,
        py: Python<'_>,
        nodes: Option<u64>,
        movetime: Option<f64>,
    ) -> PyResult<Option<PySolution>> {
        let l = limits(None, nodes, movetime)?;
        let s = &self.s;
        let r = py.detach(|| s.oracle().solve(&l)).map_err(ply_err)?;
        Ok(r.map(PySolution::from))
    }

    /// Every legal move's exact value from the side to move (+1 win, 0 draw, -1 loss), as a
    /// dict by move text (by action with `actions=True`); `None` when one was not proven
    /// within the budget (per move).
    #[pyo3(signature = (*, actions=false, nodes=None, movetime=None))]
    fn move_values<'py>(
        &self,
        py: Python<'py>,
        actions: bool,
        nodes: Option<u64>,
        movetime: Option<f64>,
    ) -> PyResult<Option<Bound<'py, PyDict>>> {
        let l = limits(None, nodes, movetime)?;
        let s = &self.s;
        let r = py.detach(|| s.oracle().move_values(&l)).map_err(ply_err)?;
        let Some(values) = r else { return Ok(None) };
        let d = PyDict::new(py);
        for (text, action, p) in values {
            if actions {
                d.set_item(action, p.result)?;
            } else {
                d.set_item(text, p.result)?;
            }
        }
        Ok(Some(d))
    }

    /// Every legal move's proven `Solution` (value, distance, line), by move text.
    #[pyo3(signature = (*, nodes=None, movetime=None))]
    fn move_solutions<'py>(
        &self,
        py: Python<'py>,
        nodes: Option<u64>,
        movetime: Option<f64>,
    ) -> PyResult<Option<Bound<'py, PyDict>>> {
        let l = limits(None, nodes, movetime)?;
        let s = &self.s;
        let r = py.detach(|| s.oracle().move_values(&l)).map_err(ply_err)?;
        let Some(values) = r else { return Ok(None) };
        let d = PyDict::new(py);
        for (text, _, p) in values {
            d.set_item(text, PySolution::from(p))?;
        }
        Ok(Some(d))
    }

    /// ply's searcher on this position: its best move, score and line. With no limit it
    /// searches to depth 8.
    #[pyo3(signature = (*, depth=None, nodes=None, movetime=None))]
    fn search(
        &self,
        py: Python<'_>,
        depth: Option<u32>,
        nodes: Option<u64>,
        movetime: Option<f64>,
    ) -> PyResult<PySearchResult> {
        let mut l = limits(depth, nodes, movetime)?;
        if l.depth.is_none() && l.nodes.is_none() && l.movetime.is_none() {
            l.depth = Some(8);
        }
        let s = &self.s;
        Ok(PySearchResult::from(py.detach(|| s.oracle().search(&l))))
    }

    fn __str__(&self) -> String {
        self.s.diagram()
    }

    fn __repr__(&self) -> String {
        format!("State('{}', '{}')", self.s.game_name(), self.s.fen())
    }
}

/// A proven value: `value` +1 (the side to move wins), 0 or -1; `plies` to the end with
/// best play (`None` for a draw; at most that many when `exact` is false); `best` a move
/// that keeps the value, with its `action`; `pv` the line; `score` as the protocol says it.
#[pyclass(module = "ply._ply", name = "Solution", frozen, get_all)]
pub struct PySolution {
    value: i32,
    plies: Option<u32>,
    exact: bool,
    best: Option<String>,
    action: Option<usize>,
    pv: Vec<String>,
    score: String,
}

impl From<Proven> for PySolution {
    fn from(p: Proven) -> Self {
        PySolution {
            value: p.result,
            plies: p.plies,
            exact: p.exact,
            best: p.best.as_ref().map(|b| b.0.clone()),
            action: p.best.map(|b| b.1),
            pv: p.pv,
            score: p.score,
        }
    }
}

#[pymethods]
impl PySolution {
    fn __repr__(&self) -> String {
        format!(
            "Solution(value={}, plies={}, exact={}, best={}, score='{}')",
            self.value,
            py_opt(self.plies),
            if self.exact { "True" } else { "False" },
            py_opt(self.best.as_ref().map(|b| format!("'{b}'"))),
            self.score
        )
    }
}

/// The searcher's answer: `best` move and its `action`, `score` as the protocol writes it
/// (`cp 35`, `mate 3`), `value` in the searcher's scale, `depth`, `nodes` and `pv`.
#[pyclass(module = "ply._ply", name = "SearchResult", frozen, get_all)]
pub struct PySearchResult {
    best: Option<String>,
    action: Option<usize>,
    score: String,
    value: i32,
    depth: u32,
    nodes: u64,
    pv: Vec<String>,
}

impl From<Searched> for PySearchResult {
    fn from(s: Searched) -> Self {
        PySearchResult {
            best: s.best.as_ref().map(|b| b.0.clone()),
            action: s.best.map(|b| b.1),
            score: s.score,
            value: s.value,
            depth: s.depth,
            nodes: s.nodes,
            pv: s.pv,
        }
    }
}

#[pymethods]
impl PySearchResult {
    fn __repr__(&self) -> String {
        format!(
            "SearchResult(best={}, score='{}', depth={}, nodes={}, pv={:?})",
            py_opt(self.best.as_ref().map(|b| format!("'{b}'"))),
            self.score,
            self.depth,
            self.nodes,
            self.pv
        )
    }
}

/// An option as Python prints it: its value, or `None`.
fn py_opt<T: std::fmt::Display>(v: Option<T>) -> String {
    v.map_or_else(|| "None".to_string(), |v| v.to_string())
}
