//! Placeholder until the connect4 solver lands: declines every position.

use super::{Solvable, Solver};
use crate::games::Connect4;

impl Solvable for Connect4 {
    fn solver(_start: &Self) -> Option<Box<dyn Solver<Self>>> {
        None
    }
}

/// `ply solve connect4 ARGS...`.
pub fn cli(_args: &[String]) -> Result<(), String> {
    Err("the connect4 solver is not built yet".into())
}
