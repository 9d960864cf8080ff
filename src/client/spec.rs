//! An engine as its user describes it: the program to run ([`Launch`]), the protocol it
//! speaks ([`Dialect`]), the options to set, and a name, read from `key=value` words
//! (`cmd=target/release/ply name=ply option.Hash=64 proto=uci`). The referee's `--engine`
//! groups and `ply gui --engine` descriptions are these words, with keys of their own beside
//! them (the referee's limits, for example), so both accept exactly the same engine keys.

use std::path::PathBuf;
use std::process::Stdio;
use std::str::FromStr;

/// How a client talks to an engine.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Dialect {
    /// ply's protocol: `newgame <game> [key=value ..]` starts each game.
    Ply,
    /// Plain UCI with `UCI_Variant`: `setoption name UCI_Variant value <game>`, `ucinewgame`.
    Uci,
    /// Fairy-Stockfish: UCI plus the variants file and drop notation (see [`super::fsf`]).
    Fsf,
    /// Decided after the handshake: Fairy-Stockfish when its `id name` says so, else ply.
    Auto,
}

impl Dialect {
    /// The `proto=` word.
    pub fn name(self) -> &'static str {
        match self {
            Dialect::Ply => "ply",
            Dialect::Uci => "uci",
            Dialect::Fsf => "fsf",
            Dialect::Auto => "auto",
        }
    }

    /// The dialect to speak once the engine has said its `id name`: [`Dialect::Auto`]
    /// becomes Fairy-Stockfish's or ply's, the others stay.
    pub fn after_handshake(self, id_name: &str) -> Dialect {
        match self {
            Dialect::Auto if id_name.starts_with("Fairy-Stockfish") => Dialect::Fsf,
            Dialect::Auto => Dialect::Ply,
            d => d,
        }
    }
}

impl FromStr for Dialect {
    type Err = String;

    fn from_str(word: &str) -> Result<Dialect, String> {
        match word {
            "ply" => Ok(Dialect::Ply),
            "uci" => Ok(Dialect::Uci),
            "fsf" => Ok(Dialect::Fsf),
            "auto" => Ok(Dialect::Auto),
            _ => Err(format!("proto={word}: expected ply, uci, fsf or auto")),
        }
    }
}

/// How to start an engine.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Launch {
    pub cmd: String,
    pub args: Vec<String>,
    pub dir: Option<PathBuf>,
}

impl Launch {
    /// The process to start: [`resolve`]d program, arguments, working directory, the three
    /// standard streams piped, and (on Unix) a process group of its own, so that a Ctrl-C at
    /// the terminal reaches the client alone and it can stop its engines in order. The
    /// referee spawns it as it is; the gui hands it to tokio.
    pub fn command(&self) -> std::process::Command {
        let mut cmd = std::process::Command::new(resolve(&self.cmd));
        cmd.args(&self.args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped());
        if let Some(dir) = &self.dir {
            cmd.current_dir(dir);
        }
        #[cfg(unix)]
        {
            use std::os::unix::process::CommandExt;
            cmd.process_group(0);
        }
        cmd
    }
}

/// The program to run for `cmd=`: a bare name not found on the PATH is looked for next to
/// the running executable, so `cmd=ply` finds the engine built beside `ply-referee`
/// (`target/release/ply`) without installing anything.
pub fn resolve(cmd: &str) -> PathBuf {
    let plain = PathBuf::from(cmd);
    if cmd.contains(std::path::MAIN_SEPARATOR) || cmd.is_empty() {
        return plain;
    }
    let on_path = std::env::var_os("PATH")
        .is_some_and(|paths| std::env::split_paths(&paths).any(|d| d.join(cmd).is_file()));
    if on_path {
        return plain;
    }
    std::env::current_exe()
        .ok()
        .and_then(|exe| exe.parent().map(|d| d.join(cmd)))
        .filter(|p| p.is_file())
        .unwrap_or(plain)
}

/// An engine to start: what to run, how to talk to it, what to set, what to call it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EngineSpec {
    /// The name in logs, reports and menus: one word of printable characters.
    pub name: String,
    pub launch: Launch,
    pub dialect: Dialect,
    /// `option.NAME=VALUE`, in the order given (a later value of one name replaces the
    /// earlier); each becomes `setoption` after the handshake, an empty value none.
    pub options: Vec<(String, String)>,
}

/// The longest engine name.
pub const MAX_NAME_CHARS: usize = 40;

impl EngineSpec {
    /// The engine keys, for error messages.
    pub const KEYS: &'static str =
        "cmd=, arg= (repeatable), dir=, name=, proto=ply|uci|fsf|auto, option.NAME=VALUE";

    /// An engine running `cmd` with nothing else said: no arguments, its dialect decided at
    /// the handshake, named after the program.
    pub fn new(cmd: &str) -> EngineSpec {
        EngineSpec {
            name: default_name(cmd),
            launch: Launch {
                cmd: cmd.to_string(),
                args: Vec::new(),
                dir: None,
            },
            dialect: Dialect::Auto,
            options: Vec::new(),
        }
    }

    /// Reads an engine from its `key=value` words (every word an engine key).
    pub fn parse<'a>(words: impl IntoIterator<Item = &'a str>) -> Result<EngineSpec, String> {
        let mut words_seen = EngineWords::default();
        for word in words {
            let Some((key, value)) = word.split_once('=') else {
                return Err(format!("'{word}' is not key=value (keys: {})", Self::KEYS));
            };
            if !words_seen.apply(key, value)? {
                return Err(format!("unknown key '{key}' (keys: {})", Self::KEYS));
            }
        }
        words_seen
            .into_spec()
            .map_err(|e| format!("{e} (keys: {})", Self::KEYS))
    }
}

/// What a description's engine words have said so far (a later word overrides an earlier):
/// callers with keys of their own offer each word to [`EngineWords::apply`] first.
#[derive(Clone, Debug, Default)]
pub struct EngineWords {
    pub cmd: Option<String>,
    args: Vec<String>,
    dir: Option<PathBuf>,
    name: Option<String>,
    dialect: Option<Dialect>,
    options: Vec<(String, String)>,
}

impl EngineWords {
    /// Takes `key=value` if `key` is an engine key (`Ok(false)` if it is not one); an error
    /// for a bad value.
    pub fn apply(&mut self, key: &str, value: &str) -> Result<bool, String> {
        match key {
            "cmd" => self.cmd = Some(value.to_string()),
            "arg" => self.args.push(value.to_string()),
            "dir" => self.dir = Some(PathBuf::from(value)),
            "name" => self.name = Some(check_name(value)?),
            "proto" => self.dialect = Some(value.parse()?),
            _ => match key.strip_prefix("option.") {
                Some(opt) if !opt.is_empty() => {
                    self.options.retain(|(n, _)| n != opt);
                    self.options.push((opt.to_string(), value.to_string()));
                }
                _ => return Ok(false),
            },
        }
        Ok(true)
    }

    /// The `name=` given, if any.
    pub fn name(&self) -> Option<&str> {
        self.name.as_deref()
    }

    /// The engine the words describe; it needs a `cmd=` (the error does not list the keys:
    /// the caller knows which it accepts).
    pub fn into_spec(self) -> Result<EngineSpec, String> {
        let Some(cmd) = self.cmd.filter(|c| !c.is_empty()) else {
            return Err("an engine needs cmd=PROGRAM".into());
        };
        Ok(EngineSpec {
            name: self.name.unwrap_or_else(|| default_name(&cmd)),
            launch: Launch {
                cmd,
                args: self.args,
                dir: self.dir,
            },
            dialect: self.dialect.unwrap_or(Dialect::Auto),
            options: self.options,
        })
    }
}

/// A name is one word (output lines are parsed by word) of at most [`MAX_NAME_CHARS`]
/// printable characters.
fn check_name(name: &str) -> Result<String, String> {
    let printable = !name.chars().any(|c| c.is_whitespace() || c.is_control());
    if name.is_empty() || !printable || name.chars().count() > MAX_NAME_CHARS {
        return Err(format!(
            "name={name}: a name must be one word of at most {MAX_NAME_CHARS} printable characters"
        ));
    }
    Ok(name.to_string())
}

/// The program's file name without its extension (`/opt/sf/stockfish` → `stockfish`).
fn default_name(cmd: &str) -> String {
    std::path::Path::new(cmd)
        .file_stem()
        .map(|s| s.to_string_lossy().into_owned())
        .filter(|s| !s.is_empty())
        .unwrap_or_else(|| "engine".into())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn engine_words() {
        let e = EngineSpec::parse([
            "cmd=/usr/games/fairy-stockfish",
            "name=fsf",
            "proto=fsf",
            "option.Hash=32",
            "arg=-q",
            "arg=x",
            "option.Hash=64",
            "option.Clear Hash=",
        ])
        .unwrap();
        assert_eq!(e.name, "fsf");
        assert_eq!(e.launch.cmd, "/usr/games/fairy-stockfish");
        assert_eq!(e.launch.args, ["-q", "x"]);
        assert_eq!(e.dialect, Dialect::Fsf);
        assert_eq!(
            e.options,
            [
                ("Hash".to_string(), "64".to_string()),
                ("Clear Hash".to_string(), String::new())
            ]
        );
        assert_eq!(
            EngineSpec::parse(["cmd=/opt/sf/stockfish"]).unwrap(),
            EngineSpec::new("/opt/sf/stockfish")
        );
        assert_eq!(EngineSpec::new("/opt/sf/stockfish").name, "stockfish");
        for (bad, says) in [
            (&["name=x"][..], "cmd="),
            (&["cmd=a", "colour=red"], "unknown key"),
            (&["cmd=a", "proto=xboard"], "expected ply, uci"),
            (&["cmd=a", "name=two words"], "one word"),
            (&["cmd=a", "name="], "one word"),
            (&["cmd=a", "option.=1"], "unknown key"),
            (&["cmd"], "not key=value"),
        ] {
            let e = EngineSpec::parse(bad.iter().copied()).unwrap_err();
            assert!(e.contains(says), "{bad:?}: {e}");
        }
        let long = format!("name={}", "x".repeat(MAX_NAME_CHARS + 1));
        assert!(EngineSpec::parse(["cmd=a", long.as_str()]).is_err());
    }

    #[test]
    fn dialects() {
        for d in [Dialect::Ply, Dialect::Uci, Dialect::Fsf, Dialect::Auto] {
            assert_eq!(d.name().parse(), Ok(d));
        }
        assert_eq!(
            Dialect::Auto.after_handshake("Fairy-Stockfish 11.1 LB"),
            Dialect::Fsf
        );
        assert_eq!(Dialect::Auto.after_handshake("ply 0.1.0"), Dialect::Ply);
        assert_eq!(
            Dialect::Uci.after_handshake("Fairy-Stockfish"),
            Dialect::Uci
        );
    }
}
