//! The engine's options as one table (protocol.md, "Options"): a row per option, with its
//! name, its kind (type, default and range: a setting's [`Kind`]), a line of help, and what
//! changing it does at once. `uci` prints the rows; `setoption` finds a row by name (in any
//! case), reads the value with the kind's parser (the one game parameters use too), keeps it
//! and applies the row's effect; the unknown-option error lists the rows. Adding an option is
//! adding a row, and reading its value ([`Options`]) where it matters.

use super::EngineLoop;
use super::command::quote;
use super::response::{OptionKind, OptionLine};
use super::session::Config;
use super::strength;
use crate::game::Params;
use crate::games::{DEFAULT_GAME, NAMES};
use crate::search::TechniquesOff;
use crate::setting::{Kind, Value};

pub const DEFAULT_HASH_MB: usize = 16;
pub const MAX_HASH_MB: usize = 65536;
/// The `Threads` option: threads for the search and the Connect Four solver. One by default, as UCI engines
/// do, since matches often run engines side by side.
pub const DEFAULT_THREADS: usize = 1;
pub const MAX_THREADS: usize = 256;
/// `Move Overhead`'s default. On a shared two-core machine (load 5) a search thread was
/// seen answering up to 25 ms after its own deadline, descheduled; with 10 ms ply lost one
/// move in 400 on time in self-play at 0.2 s per move (scripts/bench/time_overshoot.py measures).
pub const DEFAULT_OVERHEAD_MS: u64 = 30;
pub const MAX_OVERHEAD_MS: u64 = 5000;
/// The most lines `MultiPV` may ask for.
pub const MAX_MULTIPV: usize = 256;

/// One option: the row of the table.
pub struct OptionSpec {
    /// As `uci` writes it; `setoption` takes it in any case.
    pub name: &'static str,
    pub kind: Kind,
    pub help: &'static str,
    /// What changing the option does at once, once its new value is kept (the engine reads
    /// the other options' values when a search starts). An error puts the old value back.
    effect: Option<Effect>,
    /// `uci` offers the current value as the default: the option mirrors the game played
    /// (`UCI_Variant`) or was set from the command line (`ply --game chess chess960=true`).
    offers_current: bool,
}

/// What setting an option does beyond keeping its value; `Err` refuses the value.
type Effect = fn(&mut EngineLoop) -> Result<(), String>;

/// Every option, in the order `uci` lists them.
pub const OPTIONS: &[OptionSpec] = &[
    OptionSpec {
        name: "Hash",
        kind: Kind::Spin {
            default: DEFAULT_HASH_MB as i64,
            min: 1,
            max: MAX_HASH_MB as i64,
        },
        help: "MiB for the search table and the solver's cache together",
        effect: Some(set_hash),
        offers_current: false,
    },
    OptionSpec {
        name: "Clear Hash",
        kind: Kind::Button,
        help: "empties the search table and the solver's cache",
        effect: Some(|e| {
            e.game.clear_hash();
            Ok(())
        }),
        offers_current: false,
    },
    OptionSpec {
        name: "Threads",
        kind: Kind::Spin {
            default: DEFAULT_THREADS as i64,
            min: 1,
            max: MAX_THREADS as i64,
        },
        help: "threads the search and the Connect Four solver search with",
        effect: Some(reconfigure),
        offers_current: false,
    },
    OptionSpec {
        name: "UseSolver",
        kind: Kind::Check { default: true },
        help: "ask the game's solver before searching",
        effect: Some(reconfigure),
        offers_current: false,
    },
    OptionSpec {
        name: "UseBook",
        kind: Kind::Check { default: true },
        help: "let the Connect Four solver answer from its opening book",
        effect: Some(reconfigure),
        offers_current: false,
    },
    OptionSpec {
        name: "Move Overhead",
        kind: Kind::Spin {
            default: DEFAULT_OVERHEAD_MS as i64,
            min: 0,
            max: MAX_OVERHEAD_MS as i64,
        },
        help: "milliseconds kept back from every time budget",
        effect: None,
        offers_current: false,
    },
    OptionSpec {
        name: "MultiPV",
        kind: Kind::Spin {
            default: 1,
            min: 1,
            max: MAX_MULTIPV as i64,
        },
        help: "root moves searched and reported as best lines",
        effect: None,
        offers_current: false,
    },
    OptionSpec {
        name: "Ponder",
        kind: Kind::Check { default: false },
        help: "bestmove names the reply to ponder on",
        effect: None,
        offers_current: false,
    },
    OptionSpec {
        name: "UCI_ShowWDL",
        kind: Kind::Check { default: false },
        help: "info lines carry win/draw/loss chances",
        effect: None,
        offers_current: false,
    },
    OptionSpec {
        name: "UCI_LimitStrength",
        kind: Kind::Check { default: false },
        help: "play weaker, at the strength UCI_Elo names",
        effect: None,
        offers_current: false,
    },
    OptionSpec {
        name: "UCI_Elo",
        kind: Kind::Spin {
            default: strength::ELO_DEFAULT as i64,
            min: strength::ELO_MIN as i64,
            max: strength::ELO_MAX as i64,
        },
        help: "the strength UCI_LimitStrength plays at",
        effect: None,
        offers_current: false,
    },
    OptionSpec {
        name: "UCI_Chess960",
        kind: Kind::Check { default: false },
        help: "chess is Fischer random chess",
        effect: Some(|e| {
            if e.game.name() == "chess" {
                let params = chess_params(e.options.switch("UCI_Chess960"));
                e.switch_game("chess", &params)?;
            }
            Ok(())
        }),
        offers_current: true,
    },
    OptionSpec {
        name: "UCI_Variant",
        kind: Kind::Combo {
            default: DEFAULT_GAME,
            vars: NAMES,
        },
        help: "the game: newgame <game> with its default parameters",
        effect: Some(|e| {
            let name = e.options.get("UCI_Variant").as_word();
            let params = if name == "chess" {
                chess_params(e.options.switch("UCI_Chess960"))
            } else {
                Params::new()
            };
            e.switch_game(name, &params)
        }),
        offers_current: true,
    },
];

/// `Hash`: refused when the system will not provide that much memory at all (the tables
/// are made at the next search; better to refuse now than fail then).
fn set_hash(e: &mut EngineLoop) -> Result<(), String> {
    let hash_mb = e.config().hash_mb;
    if !crate::util::can_allocate(hash_mb << 20) {
        return Err(format!(
            "Hash {hash_mb} MiB: the system refuses to provide that much memory"
        ));
    }
    reconfigure(e)
}

/// The options that size the tables or steer the solver went to the session.
fn reconfigure(e: &mut EngineLoop) -> Result<(), String> {
    let config = e.config();
    e.game.configure(config);
    Ok(())
}

/// The parameters of chess, or of Chess960 when `chess960`.
fn chess_params(chess960: bool) -> Params {
    if chess960 {
        Params(vec![("chess960".into(), "true".into())])
    } else {
        Params::new()
    }
}

/// The options' current values, by the rows of [`OPTIONS`]. Asking for an option that has no
/// row, or for its value as another type than its row's, is a bug and panics.
#[derive(Clone, Debug)]
pub struct Options(Vec<Value>);

impl Default for Options {
    fn default() -> Self {
        Options(OPTIONS.iter().map(|o| o.kind.default_value()).collect())
    }
}

impl Options {
    /// The row of the option named `name`, in any case.
    fn row(name: &str) -> Option<usize> {
        OPTIONS
            .iter()
            .position(|o| o.name.eq_ignore_ascii_case(name))
    }

    fn expect_row(name: &str) -> usize {
        Self::row(name).unwrap_or_else(|| panic!("no option '{name}' in the table"))
    }

    pub fn get(&self, name: &str) -> &Value {
        &self.0[Self::expect_row(name)]
    }

    /// A check option's value.
    pub fn switch(&self, name: &str) -> bool {
        self.get(name).as_bool()
    }

    /// A spin option's value (never negative: every spin's range starts at 0 or 1).
    pub fn number(&self, name: &str) -> u64 {
        self.get(name).as_int().max(0) as u64
    }

    /// Keeps `value` for `name` without its effect (the engine's start, a game switch).
    pub fn keep(&mut self, name: &str, value: Value) {
        self.0[Self::expect_row(name)] = value;
    }

    /// What the session needs of the options: the tables' sizes and the solver's settings,
    /// with the search techniques the engine's caller turned off (not an option).
    pub fn config(&self, search_off: TechniquesOff) -> Config {
        Config {
            search_off,
            hash_mb: self.number("Hash") as usize,
            threads: self.number("Threads") as usize,
            use_solver: self.switch("UseSolver"),
            use_book: self.switch("UseBook"),
        }
    }
}

impl EngineLoop {
    /// The `option` lines `uci` prints.
    pub(super) fn option_lines(&self) -> Vec<OptionLine> {
        (OPTIONS.iter().zip(&self.options.0))
            .map(|(o, current)| {
                let value = if o.offers_current {
                    current.clone()
                } else {
                    o.kind.default_value()
                };
                OptionLine {
                    name: o.name.to_string(),
                    kind: option_kind(&o.kind, value),
                }
            })
            .collect()
    }

    /// Sets option `name` to `value` (as given); an error comes with the column it points at
    /// (the name's for an unknown option, the value's otherwise), and changes nothing.
    pub(super) fn set_option(
        &mut self,
        name: &str,
        value: Option<&str>,
        name_column: usize,
        value_column: usize,
    ) -> Result<(), (String, usize)> {
        let Some(row) = Options::row(name) else {
            let known: Vec<&str> = OPTIONS.iter().map(|o| o.name).collect();
            let e = format!(
                "unknown option '{}' (known: {})",
                quote(name),
                known.join(", ")
            );
            return Err((e, name_column));
        };
        let spec = &OPTIONS[row];
        let text = value.unwrap_or("");
        let new = spec.kind.parse(text).map_err(|expected| {
            let e = format!("{} needs {expected}, got '{}'", spec.name, quote(text));
            (e, value_column)
        })?;
        let old = std::mem::replace(&mut self.options.0[row], new);
        if let Some(effect) = spec.effect
            && let Err(e) = effect(self)
        {
            self.options.0[row] = old;
            return Err((e, value_column));
        }
        Ok(())
    }
}

/// An option's kind as a `uci` line offers it, with `value` as the default.
fn option_kind(kind: &Kind, value: Value) -> OptionKind {
    match (kind, value) {
        (Kind::Check { .. }, Value::Check(default)) => OptionKind::Check { default },
        (Kind::Spin { min, max, .. }, Value::Spin(default)) => OptionKind::Spin {
            default,
            min: *min,
            max: *max,
        },
        (Kind::Combo { vars, .. }, Value::Combo(default)) => OptionKind::Combo {
            default: default.to_string(),
            vars: vars.iter().map(|v| v.to_string()).collect(),
        },
        (Kind::Button, _) => OptionKind::Button,
        (kind, value) => unreachable!("option of kind {kind:?} with value {value:?}"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every row: a name of its own, a default its kind reads back, a kind `uci` can offer.
    #[test]
    fn every_row_is_well_formed() {
        for (i, o) in OPTIONS.iter().enumerate() {
            assert!(
                OPTIONS[..i]
                    .iter()
                    .all(|p| !p.name.eq_ignore_ascii_case(o.name)),
                "{} twice",
                o.name
            );
            assert!(!o.name.split(' ').any(|w| w == "value" || w == "type"));
            assert!(!o.help.is_empty());
            let default = o.kind.default_value();
            if default != Value::Button {
                assert_eq!(o.kind.parse(&default.to_string()), Ok(default.clone()));
            }
            option_kind(&o.kind, default);
        }
        let config = Options::default().config(TechniquesOff::NONE);
        assert_eq!(
            (config.hash_mb, config.threads, config.use_solver),
            (DEFAULT_HASH_MB, DEFAULT_THREADS, true)
        );
    }
}
