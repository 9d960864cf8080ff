use pyo3::prelude::*;
#[pyclass(module = "ply._ply", name = "VectorCore")]
pub struct PyVectorCore {}
