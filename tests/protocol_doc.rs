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
