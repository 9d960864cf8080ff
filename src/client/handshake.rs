//! The `uci` handshake and what follows it, apart from how lines travel (the synchronous
//! [`super::Engine`] and the gui's tokio tasks both feed lines to [`Hello`] and send
//! [`setup_commands`]).
//!
//! An engine may print any number of lines before `uciok`; [`Hello`] keeps only what is
//! used, and a bounded amount of it: the `id name`, the option names (to warn about options
//! set that the engine does not list, and to know whether it takes `UCI_Variant` or
//! `UCI_Chess960`), the values of `UCI_Variant` (the games it declares), and the first few
//! `info string error` lines.

use std::path::Path;

use super::spec::{Dialect, EngineSpec};
use crate::protocol::command::Command;
use crate::protocol::response::{IdLine, OptionKind, OptionLine};

/// The most option names remembered.
pub const MAX_OPTIONS: usize = 1024;
/// Engine and option names are kept up to this many characters (a longer option name is
/// not remembered).
pub const MAX_NAME_CHARS: usize = 256;
/// The most `info string error` lines remembered.
pub const MAX_ERRORS: usize = 8;

/// What an engine said about itself before `uciok`.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Hello {
    /// The `id name` (empty when it gave none).
    pub id_name: String,
    /// The names of the options it lists, in order.
    pub options: Vec<String>,
    /// The values of its `UCI_Variant` combo option (at most [`MAX_OPTIONS`]), if it has one.
    pub variants: Option<Vec<String>>,
    /// Its `info string error` lines.
    pub errors: Vec<String>,
}

impl Hello {
    /// Takes one line of the engine's answer to `uci`; true for `uciok`, the end of it.
    pub fn read(&mut self, line: &str) -> bool {
        if line.split_whitespace().next() == Some("uciok") {
            return true;
        }
        if let Ok(IdLine::Name(n)) = line.parse() {
            self.id_name = n.chars().take(MAX_NAME_CHARS).collect();
        } else if let Ok(OptionLine {
            name,
            kind: OptionKind::Combo { vars, .. },
        }) = line.parse()
            && name.eq_ignore_ascii_case("UCI_Variant")
        {
            let short = vars
                .into_iter()
                .filter(|v| v.chars().count() <= MAX_NAME_CHARS);
            self.variants = Some(short.take(MAX_OPTIONS).collect());
            self.options.push(name);
        } else if let Some(name) = OptionLine::name_in(line) {
            if self.options.len() < MAX_OPTIONS && name.chars().count() <= MAX_NAME_CHARS {
                self.options.push(name);
            }
        } else {
            note_error(&mut self.errors, line);
        }
        false
    }

    /// Whether the engine lists the option `name` (option names are case-insensitive).
    pub fn lists(&self, name: &str) -> bool {
        self.options.iter().any(|o| o.eq_ignore_ascii_case(name))
    }
}

/// Keeps `line` in `errors` if it is an `info string error` line and there is room: the
/// text after `info string error`.
pub fn note_error(errors: &mut Vec<String>, line: &str) {
    if let Some(rest) = line.strip_prefix("info string error")
        && errors.len() < MAX_ERRORS
    {
        errors.push(rest.trim().to_string());
    }
}

/// The commands sent after the handshake: for Fairy-Stockfish, `VariantPath` pointing at
/// `variants_file` (unless the spec sets it itself), then the spec's options in order, an
/// empty value as none (a button). Options the engine does not list are set all the same,
/// with a warning in the log.
pub fn setup_commands(
    spec: &EngineSpec,
    hello: &Hello,
    dialect: Dialect,
    variants_file: Option<&Path>,
) -> Vec<Command> {
    let mut setup = Vec::new();
    let own_variants = spec
        .options
        .iter()
        .any(|(n, _)| n.eq_ignore_ascii_case("VariantPath"));
    if dialect == Dialect::Fsf
        && !own_variants
        && let Some(path) = variants_file
    {
        let path = path.display().to_string();
        setup.push(Command::set_option("VariantPath", Some(&path)));
    }
    for (name, value) in &spec.options {
        if !hello.lists(name) {
            log::warn!(
                "{} does not list an option '{name}'; setting it anyway",
                spec.name
            );
        }
        setup.push(Command::set_option(name, Some(value)));
    }
    setup
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hello_keeps_what_is_used() {
        let mut h = Hello::default();
        for line in [
            "id name Fairy-Stockfish 11.1 LB",
            "id author the authors",
            "option name Hash type spin default 16 min 1 max 33554432",
            "option name UCI_Variant type combo default chess var chess var connect4",
            "info string error something: went wrong",
            "info string hello",
            "whatever",
        ] {
            assert!(!h.read(line), "{line}");
        }
        assert!(h.read("uciok"));
        assert_eq!(h.id_name, "Fairy-Stockfish 11.1 LB");
        assert_eq!(h.options, ["Hash", "UCI_Variant"]);
        assert_eq!(h.variants, Some(vec!["chess".into(), "connect4".into()]));
        assert_eq!(h.errors, ["something: went wrong"]);
        assert!(h.lists("uci_variant") && !h.lists("Threads"));
        for i in 0..2 * MAX_ERRORS {
            h.read(&format!("info string error {i}"));
        }
        assert_eq!(h.errors.len(), MAX_ERRORS);
        h.read(&format!(
            "option name {} type button",
            "x".repeat(MAX_NAME_CHARS + 1)
        ));
        assert_eq!(h.options.len(), 2);
    }

    #[test]
    fn setup_sets_the_variants_file_then_the_options() {
        let fsf = EngineSpec::parse(["cmd=fsf", "option.Hash=64", "option.Clear Hash="]).unwrap();
        let lines = |spec: &EngineSpec, dialect| -> Vec<String> {
            let file = Path::new("v.ini");
            setup_commands(spec, &Hello::default(), dialect, Some(file))
                .iter()
                .map(Command::to_string)
                .collect()
        };
        assert_eq!(
            lines(&fsf, Dialect::Fsf),
            [
                "setoption name VariantPath value v.ini",
                "setoption name Hash value 64",
                "setoption name Clear Hash"
            ]
        );
        assert_eq!(lines(&fsf, Dialect::Uci).len(), 2);
        let own = EngineSpec::parse(["cmd=fsf", "option.VariantPath=mine.ini"]).unwrap();
        assert_eq!(
            lines(&own, Dialect::Fsf),
            ["setoption name VariantPath value mine.ini"]
        );
    }
}
