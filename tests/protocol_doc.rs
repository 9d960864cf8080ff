//! protocol.md is the exact reference of the protocol: these tests read it and hold the
//! engine to it, so the two cannot drift apart unseen.

mod common;

use common::PlyProcess;
use ply::protocol::response::{OptionKind, OptionLine};

/// protocol.md's text.
fn protocol_md() -> String {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/protocol.md");
    std::fs::read_to_string(path).expect("protocol.md is readable")
}

/// The rows of the table under `## <section>` whose first column is a code span, as cells
/// (split at every `|`: only the first cells, which hold none, are meant to be read).
fn table_rows(doc: &str, section: &str) -> Vec<Vec<String>> {
    let start = doc
        .find(&format!("\n## {section}\n"))
        .unwrap_or_else(|| panic!("no section {section}"));
    doc[start..]
        .lines()
        .skip(2)
        .take_while(|l| !l.starts_with("## "))
        .filter(|l| l.starts_with("| `"))
        .map(|l| {
            l.trim_matches('|')
                .split('|')
                .map(|c| c.trim().to_string())
                .collect()
        })
        .collect()
}

/// The "Options" table lists exactly the options `uci` offers, with their types, ranges and
/// defaults (a default written as words, such as `UCI_Variant`'s, is not compared).
#[test]
fn the_options_table_is_what_uci_offers() {
    let mut e = PlyProcess::start();
    e.send("uci");
    let offered: Vec<OptionLine> = e
        .read_until(|l| l == "uciok")
        .iter()
        .filter_map(|l| l.parse().ok())
        .collect();
    let rows = table_rows(&protocol_md(), "Options");
    let names: Vec<String> = rows.iter().map(|r| r[0].trim_matches('`').into()).collect();
    let offered_names: Vec<String> = offered.iter().map(|o| o.name.clone()).collect();
    assert_eq!(names, offered_names);
    for (row, o) in rows.iter().zip(&offered) {
        let (kind, default) = match &o.kind {
            OptionKind::Check { default } => ("check".to_string(), default.to_string()),
            OptionKind::Spin { default, min, max } => {
                (format!("spin {min}..{max}"), default.to_string())
            }
            OptionKind::Combo { default, .. } => ("combo".to_string(), default.clone()),
            OptionKind::Button => ("button".to_string(), String::new()),
            OptionKind::String { default } => ("string".to_string(), default.clone()),
        };
        assert_eq!(row[1], kind, "{}", o.name);
        if !row[2].contains(' ') {
            assert_eq!(row[2], default, "{}", o.name);
        }
    }
}

/// A fenced block of protocol.md: its first line's number and its lines, the fence's
/// indentation taken off.
struct Block {
    line: usize,
    lines: Vec<String>,
}

/// protocol.md's conversation blocks: those with a line `> <command>`.
fn conversations(doc: &str) -> Vec<Block> {
    let mut blocks = Vec::new();
    let mut open: Option<(usize, usize, Vec<String>)> = None;
    for (i, l) in doc.lines().enumerate() {
        let indent = l.len() - l.trim_start().len();
        match (l.trim_start().starts_with("```"), &mut open) {
            (true, None) => open = Some((i + 2, indent, Vec::new())),
            (true, Some(_)) => {
                let (line, _, lines) = open.take().unwrap();
                if lines.iter().any(|l| l.starts_with("> ")) {
                    blocks.push(Block { line, lines });
                }
            }
            (false, Some((_, indent, lines))) => {
                lines.push(l.get(*indent..).unwrap_or("").to_string())
            }
            (false, None) => {}
        }
    }
    blocks
}

/// Whether `line` is what `pattern` shows: word for word, where a word in angle brackets
/// (`<n>`) stands for any one word and a last word `...` for the rest of the line.
fn line_matches(pattern: &str, line: &str) -> bool {
    let p: Vec<&str> = pattern.split_whitespace().collect();
    let w: Vec<&str> = line.split_whitespace().collect();
    for (i, &pw) in p.iter().enumerate() {
        if pw == "..." && i + 1 == p.len() {
            return w.len() >= i;
        }
        let any = pw.len() > 2 && pw.starts_with('<') && pw.ends_with('>');
        match w.get(i) {
            Some(&ww) if any || ww == pw => {}
            _ => return false,
        }
    }
    p.len() == w.len()
}

/// Whether `lines` are what `patterns` show, where a pattern `...` stands for any lines.
fn lines_match(patterns: &[&str], lines: &[String]) -> bool {
    match patterns.split_first() {
        None => lines.is_empty(),
        Some((&"...", rest)) => (0..=lines.len()).any(|k| lines_match(rest, &lines[k..])),
        Some((p, rest)) => {
            lines.first().is_some_and(|l| line_matches(p, l)) && lines_match(rest, &lines[1..])
        }
    }
}

/// The line that ends the job a command starts, if it starts one.
fn job_end(command: &str) -> Option<fn(&str) -> bool> {
    match command.split_whitespace().collect::<Vec<_>>().as_slice() {
        ["go", "perft", ..] => Some(|l| l.starts_with("Nodes searched: ")),
        ["go", ..] => Some(|l| l.starts_with("bestmove")),
        ["bench", ..] => Some(|l| l.starts_with("Nodes/second: ")),
        // Answers the final `isready` would otherwise be taken for.
        ["isready"] => Some(|l| l == "readyok"),
        _ => None,
    }
}

/// Every conversation in protocol.md (`>` what the client sends, `<` what ply answers) is
/// played with a fresh engine, and ply's answers must be what the block shows, so that the
/// examples cannot go stale. In a block, a word in angle brackets stands for a word that
/// varies (a time, a speed), a line `...` for any lines, and a last word `...` for the rest of
/// its line.
#[test]
fn every_conversation_in_protocol_md_is_what_ply_answers() {
    let blocks = conversations(&protocol_md());
    assert!(blocks.len() >= 10, "only {} conversations", blocks.len());
    for block in blocks {
        let mut e = PlyProcess::start();
        let mut answers = Vec::new();
        let mut expected = Vec::new();
        for l in &block.lines {
            if let Some(command) = l.strip_prefix("> ") {
                e.send(command);
                if let Some(end) = job_end(command) {
                    answers.extend(e.read_until(end));
                }
            } else if let Some(answer) = l.strip_prefix("< ") {
                expected.push(answer);
            } else {
                panic!("protocol.md:{}: '{l}' is neither '> ' nor '< '", block.line);
            }
        }
        answers.extend(e.sync());
        assert!(
            lines_match(&expected, &answers),
            "protocol.md:{}: the block shows\n{}\nbut ply answers\n{}",
            block.line,
            expected.join("\n"),
            answers.join("\n")
        );
    }
}

#[test]
fn patterns_match_as_documented() {
    assert!(line_matches(
        "info depth <d> nodes 5 pv ...",
        "info depth 3 nodes 5 pv a b"
    ));
    assert!(!line_matches(
        "info depth <d> nodes 5",
        "info depth 3 nodes 6"
    ));
    assert!(!line_matches("bestmove 2", "bestmove 2 ponder 3"));
    let lines: Vec<String> = ["a", "b", "c"].map(String::from).to_vec();
    assert!(lines_match(&["a", "...", "c"], &lines));
    assert!(lines_match(&["...", "a", "...", "c"], &lines));
    assert!(!lines_match(&["a", "c"], &lines));
}

/// The names in protocol.md's `PLY_SEARCH_OFF` entry (Environment) are the searcher's
/// techniques, in order; and the range that "Limited strength" says `UCI_LimitStrength`
/// leaves off is exactly the uncalibrated list.
#[test]
fn the_search_techniques_are_as_documented() {
    let doc = protocol_md();
    let listed = environment_names(&doc, "PLY_SEARCH_OFF", ":", " (");
    let names: Vec<&str> = ply::search::TECHNIQUES.iter().map(|(n, _)| *n).collect();
    assert_eq!(listed, names, "PLY_SEARCH_OFF's list in protocol.md");

    let range = doc
        .split("as if `PLY_SEARCH_OFF`\nnamed them: `")
        .nth(1)
        .expect("the limited strength's range");
    let (first, rest) = range.split_once("` to `").expect("`a` to `b`");
    let last = rest.split('`').next().unwrap();
    let at = |n: &str| names.iter().position(|&x| x == n).unwrap();
    assert_eq!(
        names[at(first)..=at(last)].join(","),
        ply::protocol::strength::UNCALIBRATED,
        "the techniques UCI_LimitStrength leaves off"
    );
}

/// The names in protocol.md's `PLY_SEARCH_PARAMS` entry (Environment) are the search's
/// parameters, in order.
#[test]
fn the_search_parameters_are_as_documented() {
    let doc = protocol_md();
    let listed = environment_names(&doc, "PLY_SEARCH_PARAMS", "ones too):", " (`ply\n");
    let names: Vec<&str> = ply::search::params::PARAMS.iter().map(|p| p.name).collect();
    assert_eq!(listed, names, "PLY_SEARCH_PARAMS's list in protocol.md");
}

/// The back-quoted names in protocol.md's entry for environment variable `var`
/// (Environment), between the first `from` after its name and the next `to`.
fn environment_names<'a>(doc: &'a str, var: &str, from: &str, to: &str) -> Vec<&'a str> {
    let entry = doc
        .split(&format!("\n- `{var}`:"))
        .nth(1)
        .unwrap_or_else(|| panic!("a {var} entry"));
    let list = entry
        .split_once(from)
        .map_or(entry, |(_, rest)| rest)
        .split(to)
        .next()
        .unwrap();
    list.split('`').skip(1).step_by(2).collect()
}
