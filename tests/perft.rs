//! Perft through the protocol's `go perft`, for every game: the expectations are data files,
//! `tests/perft/<game>.perft` (their format is described at the top of `tictactoe.perft`),
//! and this one runner reads them all, so a new game adds a file, not code. Each file says
//! where its counts come from.

mod common;

use std::path::{Path, PathBuf};

use common::PlyProcess;

/// One block of a perft file: a position of a game and its expected counts.
#[derive(Debug, Default)]
struct Block {
    id: String,
    params: String,
    /// The `position` command's arguments.
    position: String,
    /// (depth, leaves)
    rows: Vec<(u32, u64)>,
}

/// Reads a perft file; a line it does not understand fails the test with its number.
fn read_blocks(path: &Path) -> Vec<Block> {
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{path:?}: {e}"));
    let mut blocks = Vec::new();
    let mut block: Option<Block> = None;
    for (i, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let (key, rest) = line.split_once(' ').unwrap_or((line, ""));
        let at = format!("{}:{}", path.display(), i + 1);
        if key == "id" {
            blocks.extend(block.take());
            block = Some(Block {
                id: rest.to_string(),
                position: "startpos".to_string(),
                ..Block::default()
            });
            continue;
        }
        let b = block
            .as_mut()
            .unwrap_or_else(|| panic!("{at}: '{key}' before the first id"));
        match key {
            "params" => b.params = rest.to_string(),
            "position" => b.position = rest.to_string(),
            "perft" => {
                let row = rest
                    .split_once(' ')
                    .and_then(|(d, n)| Some((d.parse().ok()?, n.parse().ok()?)));
                b.rows
                    .push(row.unwrap_or_else(|| panic!("{at}: expected 'perft <depth> <leaves>'")));
            }
            _ => panic!("{at}: unknown key '{key}'"),
        }
    }
    blocks.extend(block);
    blocks
}

/// Runs every row of `block` of `game` in one engine: each `go perft` total must be the
/// expected count, and the per-move lines must add up to it.
fn check(game: &str, block: &Block) {
    let mut e = PlyProcess::start();
    e.send(&format!("newgame {game} {}", block.params));
    e.send(&format!("position {}", block.position));
    for &(depth, expected) in &block.rows {
        e.send(&format!("go perft {depth}"));
        let lines = e.read_until(|l| l.starts_with("Nodes searched"));
        let total: u64 = lines.last().unwrap()["Nodes searched: ".len()..]
            .parse()
            .unwrap();
        let at = format!("{game} '{}' depth {depth}", block.id);
        assert_eq!(total, expected, "{at}");
        let sum: u64 = lines[..lines.len() - 1]
            .iter()
            .map(|l| l.rsplit(": ").next().unwrap().parse::<u64>().unwrap())
            .sum();
        assert_eq!(sum, expected, "{at}: the per-move lines");
    }
}

fn perft_files() -> Vec<PathBuf> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/perft");
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("{dir:?}: {e}"))
        .map(|entry| entry.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "perft"))
        .collect();
    files.sort();
    files
}

#[test]
fn every_game_has_a_perft_file() {
    let files = perft_files();
    for game in ply::games::NAMES {
        assert!(
            files.iter().any(|f| f.file_stem().unwrap() == *game),
            "no tests/perft/{game}.perft"
        );
    }
}

/// Every file's blocks, one thread per file (the files are independent; the slowest, Teeko's
/// 127 million leaves, sets the time).
#[test]
fn perft_files_through_the_protocol() {
    std::thread::scope(|s| {
        for path in perft_files() {
            s.spawn(move || {
                let game = path.file_stem().unwrap().to_str().unwrap().to_string();
                let blocks = read_blocks(&path);
                assert!(!blocks.is_empty(), "{path:?} has no blocks");
                for block in &blocks {
                    assert!(
                        !block.rows.is_empty(),
                        "{path:?} '{}' has no rows",
                        block.id
                    );
                    check(&game, block);
                }
            });
        }
    });
}
