//! `ply._ply`: ply's games, solvers and searcher as a Python extension module (PyO3). The
//! Python package `ply` (python/ply) re-exports it and builds the environments on it.
//!
//! Errors: ply's messages as `ply.PlyError` (a `ValueError`; `ply.IllegalMoveError` for a
//! move or action that is not legal), Python's `TypeError` for a wrong type. Nothing here
//! panics on bad input, and a failed call leaves its state unchanged.

mod encode;
mod numpy;
mod opponent;
mod oracle;
mod py_state;
mod state;
mod vector;

use pyo3::create_exception;
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;

create_exception!(
    ply._ply,
    PlyError,
    PyValueError,
    "ply refused the input: its message says why."
);
create_exception!(
    ply._ply,
    IllegalMoveError,
    PlyError,
    "A move or action that is not legal here."
);

#[pymodule]
fn _ply(m: &Bound<'_, PyModule>) -> PyResult<()> {
    let py = m.py();
    m.add("PlyError", py.get_type::<PlyError>())?;
    m.add("IllegalMoveError", py.get_type::<IllegalMoveError>())?;
    m.add("GAMES", ply::games::NAMES.to_vec())?;
    m.add_function(wrap_pyfunction!(py_state::parameters, m)?)?;
    m.add_class::<py_state::PyGame>()?;
    m.add_class::<py_state::PyState>()?;
    m.add_class::<py_state::PySolution>()?;
    m.add_class::<py_state::PySearchResult>()?;
    m.add_class::<vector::PyVectorCore>()?;
    Ok(())
}
