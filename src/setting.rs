//! Settings declared as data: what a setting's value may be ([`Kind`]: its type, default and
//! domain) and the one parser of values ([`Kind::parse`]), shared by the games' parameters
//! (`newgame <game> key=value`, see [`crate::game::ParamSpec`]) and the engine's options
//! (`setoption`, see `protocol::options`). protocol.md, "Conventions", states its rules:
//!
//! - a switch is `true` or `false`, in any case (nothing else: no `1`, `yes` or `on`);
//! - an integer is written in decimal digits, with `-` before a negative one (no `+`, no
//!   blanks), and must lie in its range;
//! - a choice is one of its words, in any case;
//! - a list is integers separated by commas (no blanks), each in its range.

use std::fmt;

use serde::Serialize;

/// A setting's type, with its default and the values it takes. The names of the types are
/// UCI's option types, with `list` for a parameter that takes several integers.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(tag = "type", rename_all = "lowercase")]
pub enum Kind {
    /// `true` or `false` (UCI's `check`).
    Check { default: bool },
    /// An integer from `min` to `max` (UCI's `spin`).
    Spin { default: i64, min: i64, max: i64 },
    /// One of `vars`; the value is the word as `vars` spells it (UCI's `combo`).
    Combo {
        default: &'static str,
        vars: &'static [&'static str],
    },
    /// 1 to `max_len` integers, each from `min` to `max`. An empty `default` means the
    /// setting is absent unless given (another setting stands in for it, as Nim's `length`
    /// does for its `heaps`).
    List {
        default: &'static [i64],
        min: i64,
        max: i64,
        max_len: usize,
    },
    /// No value: setting it does something at once (UCI's `button`; options only).
    Button,
}

/// A value a [`Kind`] accepted.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Value {
    Check(bool),
    Spin(i64),
    Combo(&'static str),
    List(Vec<i64>),
    Button,
}

impl Kind {
    /// The value `text` gives, or the words saying what was expected (`true or false`, `an
    /// integer from 1 to 63`, ...), for the caller's error message.
    pub fn parse(&self, text: &str) -> Result<Value, String> {
        let value = match *self {
            Kind::Check { .. } => parse_switch(text).map(Value::Check),
            Kind::Spin { min, max, .. } => parse_integer(text, min, max).map(Value::Spin),
            Kind::Combo { vars, .. } => vars
                .iter()
                .find(|v| v.eq_ignore_ascii_case(text))
                .map(|&v| Value::Combo(v)),
            Kind::List {
                min, max, max_len, ..
            } => text
                .split(',')
                .map(|item| parse_integer(item, min, max))
                .collect::<Option<Vec<i64>>>()
                .filter(|items| items.len() <= max_len)
                .map(Value::List),
            Kind::Button => Some(Value::Button),
        };
        value.ok_or_else(|| self.expected())
    }

    /// What the kind takes, in words, as error messages say it.
    pub fn expected(&self) -> String {
        match *self {
            Kind::Check { .. } => "true or false".to_string(),
            Kind::Spin { min, max, .. } => format!("an integer from {min} to {max}"),
            Kind::Combo { vars, .. } => format!("one of {}", vars.join(", ")),
            Kind::List {
                min,
                max,
                max_len: 1,
                ..
            } => format!("an integer from {min} to {max}"),
            Kind::List {
                min, max, max_len, ..
            } => format!("1 to {max_len} integers from {min} to {max}, separated by commas"),
            Kind::Button => "no value".to_string(),
        }
    }

    /// The value the setting has when it is not given (for a list with an empty default:
    /// the empty list, which no text parses to).
    pub fn default_value(&self) -> Value {
        match *self {
            Kind::Check { default } => Value::Check(default),
            Kind::Spin { default, .. } => Value::Spin(default),
            Kind::Combo { default, .. } => Value::Combo(default),
            Kind::List { default, .. } => Value::List(default.to_vec()),
            Kind::Button => Value::Button,
        }
    }
}

/// The one yes/no rule: `true` or `false`, in any case.
pub fn parse_switch(text: &str) -> Option<bool> {
    if text.eq_ignore_ascii_case("true") {
        Some(true)
    } else if text.eq_ignore_ascii_case("false") {
        Some(false)
    } else {
        None
    }
}

/// A decimal integer from `min` to `max`: digits, after a `-` for a negative one.
fn parse_integer(text: &str, min: i64, max: i64) -> Option<i64> {
    let digits = text.strip_prefix('-').unwrap_or(text);
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    text.parse().ok().filter(|n| (min..=max).contains(n))
}

impl Value {
    /// The switch of a [`Kind::Check`] value. Each user of a setting asks for the type its
    /// own declaration gives, so another variant is a bug in that declaration: it panics.
    pub fn as_bool(&self) -> bool {
        match self {
            Value::Check(b) => *b,
            other => panic!("a check value expected, got {other:?}"),
        }
    }

    /// The integer of a [`Kind::Spin`] value (panics on another variant, as [`Value::as_bool`]).
    pub fn as_int(&self) -> i64 {
        match self {
            Value::Spin(n) => *n,
            other => panic!("a spin value expected, got {other:?}"),
        }
    }

    /// The word of a [`Kind::Combo`] value (panics on another variant, as [`Value::as_bool`]).
    pub fn as_word(&self) -> &'static str {
        match self {
            Value::Combo(w) => w,
            other => panic!("a combo value expected, got {other:?}"),
        }
    }

    /// The integers of a [`Kind::List`] value (panics on another variant, as
    /// [`Value::as_bool`]).
    pub fn as_list(&self) -> &[i64] {
        match self {
            Value::List(items) => items,
            other => panic!("a list value expected, got {other:?}"),
        }
    }
}

/// The value as the settings' syntax writes it (`true`, `7`, `connect4`, `3,4,5`); a button
/// and an empty list write nothing.
impl fmt::Display for Value {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Value::Check(b) => write!(f, "{b}"),
            Value::Spin(n) => write!(f, "{n}"),
            Value::Combo(w) => f.write_str(w),
            Value::List(items) => {
                let texts: Vec<String> = items.iter().map(i64::to_string).collect();
                f.write_str(&texts.join(","))
            }
            Value::Button => Ok(()),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn switches_are_true_or_false_in_any_case_and_nothing_else() {
        let k = Kind::Check { default: false };
        for (text, b) in [("true", true), ("TRUE", true), ("False", false)] {
            assert_eq!(k.parse(text), Ok(Value::Check(b)));
        }
        for bad in ["1", "0", "yes", "no", "on", "off", "", " true", "truex"] {
            assert_eq!(k.parse(bad), Err("true or false".to_string()), "{bad:?}");
        }
    }

    #[test]
    fn integers_are_decimal_digits_within_the_range() {
        let k = Kind::Spin {
            default: 7,
            min: 1,
            max: 63,
        };
        assert_eq!(k.parse("63"), Ok(Value::Spin(63)));
        assert_eq!(k.parse("007"), Ok(Value::Spin(7)));
        for bad in [
            "0",
            "64",
            "+5",
            "-1",
            "",
            "5 ",
            "0x10",
            "99999999999999999999",
        ] {
            assert_eq!(
                k.parse(bad),
                Err("an integer from 1 to 63".to_string()),
                "{bad:?}"
            );
        }
        let signed = Kind::Spin {
            default: 0,
            min: -5,
            max: 5,
        };
        assert_eq!(signed.parse("-5"), Ok(Value::Spin(-5)));
        assert!(signed.parse("-").is_err());
    }

    #[test]
    fn choices_lists_and_buttons() {
        let combo = Kind::Combo {
            default: "a",
            vars: &["tictactoe", "connect4"],
        };
        assert_eq!(combo.parse("Connect4"), Ok(Value::Combo("connect4")));
        assert_eq!(
            combo.parse("go"),
            Err("one of tictactoe, connect4".to_string())
        );
        let list = Kind::List {
            default: &[],
            min: 1,
            max: 50000,
            max_len: 3,
        };
        assert_eq!(list.parse("3,4,5"), Ok(Value::List(vec![3, 4, 5])));
        for bad in ["", "3,,4", "3,4,5,6", "0", "3, 4", "50001"] {
            assert_eq!(
                list.parse(bad),
                Err("1 to 3 integers from 1 to 50000, separated by commas".to_string()),
                "{bad:?}"
            );
        }
        assert_eq!(list.default_value().to_string(), "");
        assert_eq!(Kind::Button.parse("anything"), Ok(Value::Button));
    }
}
