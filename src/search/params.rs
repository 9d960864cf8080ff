//! The search's numeric parameters (pruning margins and depth limits, the late-move and
//! null-move reduction formulas, singular extensions' margin and depth, the history bonus,
//! the aspiration window), declared once in [`PARAMS`] with their defaults and the ranges a
//! tuner may try. The `ply` binary installs other values for the whole process from
//! `PLY_SEARCH_PARAMS` (protocol.md, Environment), for tuning matches
//! (`scripts/tuning/chess_spsa.py`); a process that installs none searches with the
//! defaults. Margins are in the evaluation's centi-units and were set for chess.

use std::sync::OnceLock;

/// One parameter: its name (as `PLY_SEARCH_PARAMS` spells it), default, the range a value
/// is clamped to, the step a tuner perturbs it by, and what it is.
pub struct Param {
    pub name: &'static str,
    pub default: i32,
    pub min: i32,
    pub max: i32,
    pub step: i32,
    pub about: &'static str,
}

/// Every parameter, in [`SearchParams::values`]'s order.
pub const PARAMS: &[Param] = &[
    Param {
        name: "rfp_margin",
        default: 80,
        min: 20,
        max: 200,
        step: 8,
        about: "reverse futility pruning's margin a ply of depth",
    },
    Param {
        name: "razor_margin",
        default: 250,
        min: 50,
        max: 600,
        step: 25,
        about: "razoring's margin a ply of depth",
    },
    Param {
        name: "futility_base",
        default: 80,
        min: 0,
        max: 300,
        step: 12,
        about: "futility pruning's margin at depth 0",
    },
    Param {
        name: "futility_margin",
        default: 90,
        min: 20,
        max: 250,
        step: 10,
        about: "futility pruning's margin a ply of depth",
    },
    Param {
        name: "see_quiet",
        default: 60,
        min: 10,
        max: 200,
        step: 8,
        about: "static-exchange pruning: the loss a ply of depth allows a quiet move",
    },
    Param {
        name: "see_noisy",
        default: 120,
        min: 20,
        max: 300,
        step: 12,
        about: "static-exchange pruning: the loss a ply of depth allows a noisy move",
    },
    Param {
        name: "lmr_base",
        default: 75,
        min: -50,
        max: 250,
        step: 12,
        about: "late-move reductions: the constant of `base + ln(depth) ln(move) / divisor`, in hundredths",
    },
    Param {
        name: "lmr_divisor",
        default: 225,
        min: 120,
        max: 450,
        step: 15,
        about: "late-move reductions: the divisor of `base + ln(depth) ln(move) / divisor`, in hundredths",
    },
    Param {
        name: "lmp_base",
        default: 3,
        min: 1,
        max: 12,
        step: 1,
        about: "late-move pruning: quiet moves searched before the rest are skipped, `(base + depth²)`, halved when not improving",
    },
    Param {
        name: "aspiration_delta",
        default: 25,
        min: 5,
        max: 100,
        step: 3,
        about: "the aspiration window's first half-width",
    },
    Param {
        name: "rfp_depth",
        default: 8,
        min: 2,
        max: 14,
        step: 1,
        about: "reverse futility pruning: the deepest node",
    },
    Param {
        name: "razor_depth",
        default: 3,
        min: 1,
        max: 8,
        step: 1,
        about: "razoring: the deepest node",
    },
    Param {
        name: "futility_depth",
        default: 6,
        min: 1,
        max: 12,
        step: 1,
        about: "futility pruning: the deepest node",
    },
    Param {
        name: "prune_depth",
        default: 8,
        min: 2,
        max: 14,
        step: 1,
        about: "late-move and static-exchange pruning: the deepest node",
    },
    Param {
        name: "nmp_base",
        default: 3,
        min: 1,
        max: 6,
        step: 1,
        about: "null-move pruning: the reduction's constant, `base + depth / divisor`",
    },
    Param {
        name: "nmp_divisor",
        default: 4,
        min: 2,
        max: 10,
        step: 1,
        about: "null-move pruning: the reduction's divisor, `base + depth / divisor`",
    },
    Param {
        name: "singular_depth",
        default: 8,
        min: 4,
        max: 14,
        step: 1,
        about: "singular extensions: the shallowest node",
    },
    Param {
        name: "singular_margin",
        default: 16,
        min: 4,
        max: 64,
        step: 3,
        about: "singular extensions: how far below the table's value the other moves must stay, in eighths of a centi-unit a ply of depth",
    },
    Param {
        name: "iir_depth",
        default: 4,
        min: 2,
        max: 10,
        step: 1,
        about: "internal iterative reduction: the shallowest node",
    },
    Param {
        name: "history_bonus",
        default: 16,
        min: 4,
        max: 64,
        step: 3,
        about: "history: the bonus of a cut-off at depth d (and the malus), `history_bonus (d + 1)²`, at most `history_max`",
    },
    Param {
        name: "history_max",
        default: 1600,
        min: 400,
        max: 6000,
        step: 150,
        about: "history: the largest bonus",
    },
];

/// The process's `name=value` pairs ([`SearchParams::install`]).
static PROCESS: OnceLock<String> = OnceLock::new();

/// Values for [`PARAMS`], read where the search uses them.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SearchParams {
    pub rfp_margin: i32,
    pub razor_margin: i32,
    pub futility_base: i32,
    pub futility_margin: i32,
    pub see_quiet: i32,
    pub see_noisy: i32,
    pub lmr_base: i32,
    pub lmr_divisor: i32,
    pub lmp_base: i32,
    pub aspiration_delta: i32,
    pub rfp_depth: i32,
    pub razor_depth: i32,
    pub futility_depth: i32,
    pub prune_depth: i32,
    pub nmp_base: i32,
    pub nmp_divisor: i32,
    pub singular_depth: i32,
    pub singular_margin: i32,
    pub iir_depth: i32,
    pub history_bonus: i32,
    pub history_max: i32,
}

impl SearchParams {
    /// The values in [`PARAMS`]'s order, each to be changed in place.
    fn values(&mut self) -> [&mut i32; 21] {
        [
            &mut self.rfp_margin,
            &mut self.razor_margin,
            &mut self.futility_base,
            &mut self.futility_margin,
            &mut self.see_quiet,
            &mut self.see_noisy,
            &mut self.lmr_base,
            &mut self.lmr_divisor,
            &mut self.lmp_base,
            &mut self.aspiration_delta,
            &mut self.rfp_depth,
            &mut self.razor_depth,
            &mut self.futility_depth,
            &mut self.prune_depth,
            &mut self.nmp_base,
            &mut self.nmp_divisor,
            &mut self.singular_depth,
            &mut self.singular_margin,
            &mut self.iir_depth,
            &mut self.history_bonus,
            &mut self.history_max,
        ]
    }

    /// The values in [`PARAMS`]'s order.
    pub fn to_vec(mut self) -> Vec<i32> {
        self.values().into_iter().map(|v| *v).collect()
    }

    /// Every parameter at its default.
    pub fn defaults() -> SearchParams {
        let mut p = SearchParams {
            rfp_margin: 0,
            razor_margin: 0,
            futility_base: 0,
            futility_margin: 0,
            see_quiet: 0,
            see_noisy: 0,
            lmr_base: 0,
            lmr_divisor: 0,
            lmp_base: 0,
            aspiration_delta: 0,
            rfp_depth: 0,
            razor_depth: 0,
            futility_depth: 0,
            prune_depth: 0,
            nmp_base: 0,
            nmp_divisor: 0,
            singular_depth: 0,
            singular_margin: 0,
            iir_depth: 0,
            history_bonus: 0,
            history_max: 0,
        };
        for (v, param) in p.values().into_iter().zip(PARAMS) {
            *v = param.default;
        }
        p
    }

    /// The defaults with `name=value` pairs (comma-separated) applied, each value clamped to
    /// its range; and the pairs that name no parameter or hold no integer, as written.
    pub fn parse(text: &str) -> (SearchParams, Vec<String>) {
        SearchParams::defaults().with(text)
    }

    /// These values with `name=value` pairs applied, as [`SearchParams::parse`] does.
    pub fn with(mut self, text: &str) -> (SearchParams, Vec<String>) {
        let mut rejected = Vec::new();
        for pair in text.split(',').map(str::trim).filter(|s| !s.is_empty()) {
            let parsed = pair.split_once('=').and_then(|(name, value)| {
                let i = PARAMS.iter().position(|q| q.name == name.trim())?;
                Some((i, value.trim().parse::<i32>().ok()?))
            });
            match parsed {
                Some((i, value)) => {
                    *self.values()[i] = value.clamp(PARAMS[i].min, PARAMS[i].max);
                }
                None => rejected.push(pair.to_string()),
            }
        }
        (self, rejected)
    }

    /// Makes the `name=value` pairs of `text` apply to every later search of this process,
    /// on top of the game's values; false (and nothing changes) when pairs were installed
    /// already.
    pub fn install(text: &str) -> bool {
        PROCESS.set(text.to_string()).is_ok()
    }

    /// The values a search uses: the defaults, with `game`'s values applied
    /// ([`crate::game::Game::SEARCH_PARAMS`], written as `PLY_SEARCH_PARAMS` writes them),
    /// then the process's ([`SearchParams::install`]).
    pub fn current(game: &str) -> SearchParams {
        let p = SearchParams::parse(game).0;
        match PROCESS.get() {
            Some(text) => p.with(text).0,
            None => p,
        }
    }

    /// The size of a history bonus (and of a malus) at `depth`.
    #[inline]
    pub(super) fn history_bonus(&self, depth: i32) -> i32 {
        (self.history_bonus * (depth + 1) * (depth + 1)).min(self.history_max)
    }

    /// Late-move reductions by depth and move number (both capped at 63):
    /// `lmr_base + ln(depth) ln(move) / lmr_divisor` (both in hundredths), rounded down,
    /// at least 0.
    pub(super) fn reduction_table(&self) -> Vec<[u8; 64]> {
        let base = self.lmr_base as f64 / 100.0;
        let divisor = self.lmr_divisor as f64 / 100.0;
        (0..64)
            .map(|d| {
                let mut row = [0u8; 64];
                for (i, r) in row.iter_mut().enumerate().skip(1) {
                    if d > 0 {
                        let v = base + (d as f64).ln() * (i as f64).ln() / divisor;
                        *r = v.max(0.0) as u8;
                    }
                }
                row
            })
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parameters_parse_by_name_and_clamp_to_their_range() {
        let (p, rejected) =
            SearchParams::parse(" rfp_margin=70, lmr_divisor = 9999,warp=3,see_quiet=x,,lmp_base");
        assert_eq!(p.rfp_margin, 70);
        assert_eq!(p.lmr_divisor, 450);
        assert_eq!(p.see_quiet, 60);
        assert_eq!(
            rejected,
            vec![
                "warp=3".to_string(),
                "see_quiet=x".into(),
                "lmp_base".into()
            ]
        );
        assert_eq!(SearchParams::parse("").0, SearchParams::defaults());
        for param in PARAMS {
            assert!(param.min <= param.default && param.default <= param.max);
            assert!(param.step > 0);
        }
    }

    /// The defaults give the reduction table the search was tuned with:
    /// `0.75 + ln(d) ln(i) / 2.25`.
    #[test]
    fn the_default_reductions_are_the_formula() {
        let table = SearchParams::defaults().reduction_table();
        for (d, row) in table.iter().enumerate() {
            for (i, &r) in row.iter().enumerate() {
                let want = if d == 0 || i == 0 {
                    0
                } else {
                    (0.75 + (d as f64).ln() * (i as f64).ln() / 2.25).max(0.0) as u8
                };
                assert_eq!(r, want, "depth {d}, move {i}");
            }
        }
    }

    /// The defaults give the history bonus the search had before it was a parameter:
    /// `16 (d + 1)²`, at most 1,600.
    #[test]
    fn the_default_history_bonus_is_the_formula() {
        let p = SearchParams::defaults();
        for d in 0..64 {
            assert_eq!(
                p.history_bonus(d),
                (16 * d * d + 32 * d + 16).min(1600),
                "depth {d}"
            );
        }
    }
}
