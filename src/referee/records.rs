//! The records file: one JSON object a line per finished game (JSON Lines), appended and
//! flushed to disk (`fsync`) as each game ends, so a match killed at any moment keeps every
//! game it finished. `--resume FILE` reads the file back: the games it holds are counted and
//! not played again; a last line cut short by the kill is dropped (that game was not
//! finished) and the file is truncated to its last whole line before appending.
//!
//! Each record carries the match's fingerprint (game, parameters, players, openings, seed —
//! everything that decides which games the plan holds, but not how many), and `--resume`
//! refuses a file whose records belong to another match.

use std::collections::BTreeMap;
use std::fs::{File, OpenOptions};
use std::io::{Read, Seek, SeekFrom, Write};
use std::path::Path;

use serde::{Deserialize, Serialize};

use super::openings::Opening;

/// How a game ended, for statistics and scripts. The text of the reason is in
/// [`GameRecord::reason`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Termination {
    /// The rules ended the game (a line, a full board, the last stick).
    Rules,
    /// The referee ended it: maximum length, or the engines' scores.
    Adjudication,
    /// A player resigned (the human seat's `resign`).
    Resign,
    /// A player's clock (or its fixed time per move) ran out.
    Time,
    /// A player sent a move that is not legal in the position.
    Illegal,
    /// A player sent text that is not a move of this game at all.
    Malformed,
    /// A player's process exited, closed its output, or stopped reading its input.
    Crash,
    /// A player did not answer `uci` with `uciok`, or `isready` with `readyok`, in time.
    Stall,
    /// A player did not answer `go` with `bestmove` within the move timeout (searches with no
    /// clock), even after `stop`.
    NoBestmove,
}

impl Termination {
    pub fn is_forfeit(self) -> bool {
        !matches!(
            self,
            Termination::Rules | Termination::Adjudication | Termination::Resign
        )
    }

    pub fn name(self) -> &'static str {
        match self {
            Termination::Rules => "rules",
            Termination::Adjudication => "adjudication",
            Termination::Resign => "resign",
            Termination::Time => "time",
            Termination::Illegal => "illegal",
            Termination::Malformed => "malformed",
            Termination::Crash => "crash",
            Termination::Stall => "stall",
            Termination::NoBestmove => "nobestmove",
        }
    }

    pub const ALL: [Termination; 9] = [
        Termination::Rules,
        Termination::Adjudication,
        Termination::Resign,
        Termination::Time,
        Termination::Illegal,
        Termination::Malformed,
        Termination::Crash,
        Termination::Stall,
        Termination::NoBestmove,
    ];
}

/// One move as the referee saw it.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct MoveRecord {
    /// The move in ply's notation.
    pub mv: String,
    /// The engine's own text when it differs (Fairy-Stockfish's `P@d1`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub raw: Option<String>,
    /// Thinking time: from `go` written to `bestmove` read, in milliseconds (µs resolution).
    pub ms: f64,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub depth: Option<u32>,
    /// `cp N` or `mate N`, from the mover's side, from its last `info` with a score.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub score: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub nodes: Option<u64>,
    /// The mover's clock after the move, in milliseconds (with a time control).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub clock_ms: Option<i64>,
}

/// One finished game.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct GameRecord {
    /// The match fingerprint (see the module doc).
    #[serde(rename = "match")]
    pub match_id: String,
    /// Game number in the match plan, from 0 (printed from 1).
    pub index: u64,
    pub round: u64,
    /// Game pair (consecutive games `2k`, `2k+1`), which share an opening with `--repeat`.
    pub pair: u64,
    pub game: String,
    pub params: String,
    /// The two players' names, `[A, B]` in command-line order.
    pub players: [String; 2],
    /// Which of `players` moved first: 0 (A) or 1 (B).
    pub p1_player: u8,
    pub opening: Opening,
    pub moves: Vec<MoveRecord>,
    /// `1-0` (first player won), `0-1`, `1/2-1/2`, as in PGN and cutechess.
    pub result: String,
    pub termination: Termination,
    pub reason: String,
    /// The player (0 = A, 1 = B) whose fault ended the game, for forfeits.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub culprit: Option<u8>,
    /// The position after the last move, in ply's notation.
    pub final_fen: String,
    /// Unix time the game started, in milliseconds.
    pub started_ms: u64,
    pub duration_ms: f64,
    /// The referee's own share of the game, in milliseconds: summed over consecutive engine
    /// moves, the time from one `bestmove` read to the next `go` written (checking the move,
    /// clocks, writing `position` and `go`).
    #[serde(default)]
    pub referee_ms: f64,
    /// Errors engines reported during the game (`info string error ...`), first few only.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub engine_errors: Vec<String>,
    /// How many games the match planned (`--games` × `--rounds`) when this one was played,
    /// so that `ply-referee merge` can tell a missing shard from a finished match.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub planned: Option<u64>,
}

impl GameRecord {
    /// A's points in this game: 1, 0.5 or 0.
    pub fn score_of_a(&self) -> f64 {
        let first = match self.result.as_str() {
            "1-0" => 1.0,
            "0-1" => 0.0,
            _ => 0.5,
        };
        if self.p1_player == 0 {
            first
        } else {
            1.0 - first
        }
    }
}

/// The records file, open for appending.
pub struct RecordWriter {
    file: File,
}

impl RecordWriter {
    /// Opens (creating) `path` for appending.
    pub fn open(path: &Path) -> std::io::Result<RecordWriter> {
        let file = OpenOptions::new().create(true).append(true).open(path)?;
        Ok(RecordWriter { file })
    }

    /// Appends one record as one line with a single write, then syncs it to disk.
    pub fn append(&mut self, r: &GameRecord) -> std::io::Result<()> {
        let mut line = serde_json::to_vec(r).map_err(std::io::Error::other)?;
        line.push(b'\n');
        self.file.write_all(&line)?;
        self.file.flush()?;
        self.file.sync_data()
    }
}

/// What `--resume` found in a records file.
#[derive(Debug, Default)]
pub struct Resumed {
    /// Finished games by index; a game recorded twice is kept once (the first record).
    pub games: BTreeMap<u64, GameRecord>,
    /// Bytes of an unfinished last line that were cut off.
    pub truncated_bytes: u64,
    pub duplicates: u64,
}

/// The records in `bytes` (a records file's content, `name` for messages): each whole line
/// parsed, with its line number (from 1); a last line without its newline is left out (a
/// write cut short) and its length returned with them. A whole line that is not a record is
/// an error.
pub fn parse_records(bytes: &[u8], name: &str) -> Result<(Vec<(usize, GameRecord)>, u64), String> {
    let complete = bytes.iter().rposition(|&b| b == b'\n').map_or(0, |i| i + 1);
    let text = String::from_utf8_lossy(&bytes[..complete]);
    let mut out = Vec::new();
    for (n, line) in text.lines().enumerate() {
        if line.trim().is_empty() {
            continue;
        }
        let r: GameRecord = serde_json::from_str(line)
            .map_err(|e| format!("{name} line {}: not a game record ({e})", n + 1))?;
        out.push((n + 1, r));
    }
    Ok((out, (bytes.len() - complete) as u64))
}

/// Reads the records in `path` (a missing file is an empty match), checks they belong to
/// `match_id`, and truncates an unfinished last line.
pub fn resume(path: &Path, match_id: &str) -> Result<Resumed, String> {
    let mut file = match OpenOptions::new().read(true).write(true).open(path) {
        Ok(f) => f,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(Resumed::default()),
        Err(e) => return Err(format!("cannot open {}: {e}", path.display())),
    };
    let mut bytes = Vec::new();
    file.read_to_end(&mut bytes)
        .map_err(|e| format!("cannot read {}: {e}", path.display()))?;
    let name = path.display().to_string();
    let (records, truncated_bytes) =
        parse_records(&bytes, &name).map_err(|e| format!("{e}; refusing to resume into it"))?;
    let mut out = Resumed {
        truncated_bytes,
        ..Resumed::default()
    };
    if truncated_bytes > 0 {
        file.set_len(bytes.len() as u64 - truncated_bytes)
            .and_then(|_| file.seek(SeekFrom::End(0)).map(|_| ()))
            .and_then(|_| file.sync_data())
            .map_err(|e| format!("cannot truncate {name}: {e}"))?;
    }
    for (n, r) in records {
        if r.match_id != match_id {
            return Err(format!(
                "{name} line {n} belongs to another match:\n  recorded: {}\n  this run: {}\n\
                 (resume with the same game, players, openings and seed)",
                r.match_id, match_id
            ));
        }
        match out.games.entry(r.index) {
            std::collections::btree_map::Entry::Occupied(_) => out.duplicates += 1,
            std::collections::btree_map::Entry::Vacant(e) => {
                e.insert(r);
            }
        }
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn record(index: u64) -> GameRecord {
        GameRecord {
            match_id: "m".into(),
            index,
            round: 1,
            pair: index / 2,
            game: "tictactoe".into(),
            params: String::new(),
            players: ["a".into(), "b".into()],
            p1_player: (index % 2) as u8,
            opening: Opening::default(),
            moves: vec![MoveRecord {
                mv: "b2".into(),
                ms: 1.5,
                ..MoveRecord::default()
            }],
            result: "1-0".into(),
            termination: Termination::Rules,
            reason: "p1 wins".into(),
            culprit: None,
            final_fen: "x../.../... o".into(),
            started_ms: 0,
            duration_ms: 2.0,
            referee_ms: 0.0,
            engine_errors: vec![],
            planned: None,
        }
    }

    #[test]
    fn append_then_resume_drops_a_torn_line() {
        let dir = std::env::temp_dir().join(format!("ply-records-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("r.jsonl");
        let _ = std::fs::remove_file(&path);
        let mut w = RecordWriter::open(&path).unwrap();
        w.append(&record(0)).unwrap();
        w.append(&record(1)).unwrap();
        w.append(&record(1)).unwrap();
        drop(w);
        // A kill in the middle of a write.
        let mut f = OpenOptions::new().append(true).open(&path).unwrap();
        f.write_all(b"{\"match\":\"m\",\"ind").unwrap();
        drop(f);
        let r = resume(&path, "m").unwrap();
        assert_eq!(r.games.keys().copied().collect::<Vec<_>>(), vec![0, 1]);
        assert_eq!((r.duplicates, r.truncated_bytes), (1, 17));
        assert_eq!(r.games[&1].score_of_a(), 0.0);
        // The file now ends with a whole line, so appending continues cleanly.
        let mut w = RecordWriter::open(&path).unwrap();
        w.append(&record(2)).unwrap();
        let r = resume(&path, "m").unwrap();
        assert_eq!(r.games.len(), 3);
        assert!(
            resume(&path, "other")
                .unwrap_err()
                .contains("another match")
        );
        assert!(resume(&dir.join("missing"), "m").unwrap().games.is_empty());
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
