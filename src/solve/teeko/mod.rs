//! Placeholder until the teeko solver lands: declines every position.

use super::{Solvable, Solver};
use crate::games::Teeko;

impl Solvable for Teeko {
    fn solver(_start: &Self) -> Option<Box<dyn Solver<Self>>> {
        None
    }
}

/// `ply solve teeko ARGS...`.
pub fn cli(_args: &[String]) -> Result<(), String> {
    Err("the teeko solver is not built yet".into())
}
