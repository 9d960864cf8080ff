//! `ply-referee merge FILE...`: the report of a match played in shards (`--shard i/N`, see
//! [`super::runner`]), from the shards' records files — the same summary lines, byte for
//! byte, as one run of the whole match prints after its last game (docs/cluster.md).
//!
//! Every record must belong to one match (the same fingerprint, see [`super::records`]) and
//! every game must appear once: records of another match, a game recorded twice and a record
//! the rules refuse are errors, naming the file and line. A last line without its newline
//! (a shard killed in the middle of a write) is not a finished game: it is dropped with a
//! warning. Games the plan holds but no file has are listed on stderr, unless the SPRT has
//! decided (a match stopped early has them missing by design).
//!
//! `-` reads records from standard input as they come, printing `Finished game` and `Score`
//! after each and the SPRT line when it decides, as a match does: the cluster runner
//! (docs/cluster.md) pipes the games its workers finish through it.

use std::collections::BTreeMap;
use std::io::{BufRead, Write};
use std::path::PathBuf;

use super::play::verify_record;
use super::records::GameRecord;
use super::report::{self, Tally};
use super::runner::{EXIT_OK, EXIT_USAGE, repeat_of_match_id};
use super::stats::SprtParams;
use crate::game::{Game, Params};

/// What `ply-referee merge` was given.
#[derive(Clone, Debug)]
pub struct MergeConfig {
    /// Records files, read in turn; `-` is standard input, read as records arrive.
    pub files: Vec<PathBuf>,
    /// The match's SPRT, to report (and, reading `-`, to announce when it decides).
    pub sprt: Option<SprtParams>,
}

/// Checks a record against the rules of its game.
type Verifier = Box<dyn Fn(&GameRecord) -> Result<(), String>>;

/// The match being merged, from its first record on.
struct Match {
    id: String,
    /// Where the first record was read, for messages.
    first_at: String,
    verify: Verifier,
    /// The SPRT counts pairs (`--repeat`).
    pairs: bool,
    tally: Tally,
}

/// The games read so far.
#[derive(Default)]
struct Merger {
    this: Option<Match>,
    /// Where each game was read (`file line n`), by game index.
    seen: BTreeMap<u64, String>,
    /// The most games any record says its match planned.
    planned: u64,
}

fn verifier(game: &str, params: &str) -> Result<Verifier, String> {
    let params = Params::parse(params.split_whitespace()).map_err(|e| e.to_string())?;
    crate::with_game!(game, G => {
        let start = G::new(&params).map_err(|e| e.to_string())?;
        Ok(Box::new(move |r: &GameRecord| verify_record(&start, r)) as Verifier)
    }, _ => Err(format!("unknown game '{game}'")))
}

impl Merger {
    /// Adds one record read at `at`, or says why it does not belong.
    fn add(&mut self, r: GameRecord, at: String) -> Result<(), String> {
        let this = match &mut self.this {
            Some(m) => m,
            None => {
                let verify = verifier(&r.game, &r.params).map_err(|e| format!("{at}: {e}"))?;
                let pairs = repeat_of_match_id(&r.match_id)
                    .ok_or_else(|| format!("{at}: not a match fingerprint: {}", r.match_id))?;
                self.this.insert(Match {
                    id: r.match_id.clone(),
                    first_at: at.clone(),
                    verify,
                    pairs,
                    tally: Tally::new(r.players.clone()),
                })
            }
        };
        if r.match_id != this.id {
            return Err(format!(
                "{at} belongs to another match than {}:\n  {at}: {}\n  {}: {}",
                this.first_at, r.match_id, this.first_at, this.id
            ));
        }
        if let Some(earlier) = self.seen.get(&r.index) {
            return Err(format!(
                "game {} is recorded twice: {earlier} and {at}",
                r.index + 1
            ));
        }
        (this.verify)(&r).map_err(|e| format!("{at}: {e}"))?;
        this.tally.add(&r);
        self.planned = self.planned.max(r.planned.unwrap_or(0)).max(r.index + 1);
        self.seen.insert(r.index, at);
        Ok(())
    }

    /// The games of the plan no file had, as `a-b` ranges numbered from 1.
    fn missing(&self) -> (u64, Vec<String>) {
        let mut ranges = Vec::new();
        let mut count = 0;
        let mut from = None;
        for i in 0..=self.planned {
            let absent = i < self.planned && !self.seen.contains_key(&i);
            match (absent, from) {
                (true, None) => from = Some(i),
                (false, Some(f)) => {
                    count += i - f;
                    ranges.push(if i - f == 1 {
                        format!("{}", f + 1)
                    } else {
                        format!("{}-{}", f + 1, i)
                    });
                    from = None;
                }
                _ => {}
            }
        }
        (count, ranges)
    }
}

/// Merges the files; returns the exit code (0, or 1 when a file is unreadable or refused).
pub fn run(cfg: &MergeConfig, out: &mut dyn Write) -> i32 {
    match merge(cfg, out) {
        Ok(()) => EXIT_OK,
        Err(e) => {
            eprintln!("ply-referee merge: {e}");
            EXIT_USAGE
        }
    }
}

fn merge(cfg: &MergeConfig, out: &mut dyn Write) -> Result<(), String> {
    if cfg.files.is_empty() {
        return Err("no records files given (`-` reads standard input)".into());
    }
    let mut m = Merger::default();
    let mut last_score = None;
    for path in &cfg.files {
        if path.as_os_str() == "-" {
            let live = Live {
                sprt: cfg.sprt.as_ref(),
                out: &mut *out,
                announced: false,
                last_score: None,
            };
            last_score = read(
                &mut m,
                std::io::stdin().lock(),
                "standard input",
                Some(live),
            )?;
        } else {
            let name = path.display().to_string();
            let file = std::fs::File::open(path).map_err(|e| format!("cannot read {name}: {e}"))?;
            read(&mut m, std::io::BufReader::new(file), &name, None)?;
        }
    }
    let Some(this) = &m.this else {
        return Err("no game records in the files given".into());
    };
    let decided = cfg
        .sprt
        .is_some_and(|s| s.decide(this.tally.llr(&s, this.pairs)).is_some());
    let (count, ranges) = m.missing();
    if count > 0 && !decided {
        eprintln!(
            "ply-referee merge: {count} of the {} planned games are missing: {}",
            m.planned,
            ranges.join(", ")
        );
    }
    let mut write = |l: &str| writeln!(out, "{l}").map_err(|e| format!("standard output: {e}"));
    for l in report::summary(&this.tally, cfg.sprt.as_ref(), this.pairs) {
        // The score line was just printed after the last game, as a match does.
        if Some(&l) != last_score.as_ref() {
            write(&l)?;
        }
    }
    write("Finished match")?;
    out.flush().map_err(|e| format!("standard output: {e}"))
}

/// Reading records as they arrive: each game is printed as a match prints it.
struct Live<'a> {
    sprt: Option<&'a SprtParams>,
    out: &'a mut dyn Write,
    announced: bool,
    last_score: Option<String>,
}

impl Live<'_> {
    /// `Finished game` and `Score` after the game just added, and the SPRT line once it
    /// decides.
    fn print(&mut self, this: &Match, finished: String) -> Result<(), String> {
        let score = report::score_line(&this.tally);
        let mut lines = vec![finished, score.clone()];
        if let Some(s) = self.sprt.filter(|_| !self.announced) {
            let llr = this.tally.llr(s, this.pairs);
            if s.decide(llr).is_some() {
                self.announced = true;
                lines.push(report::sprt_line(s, llr, this.pairs));
            }
        }
        for l in lines {
            writeln!(self.out, "{l}")
                .and_then(|_| self.out.flush())
                .map_err(|e| format!("standard output: {e}"))?;
        }
        self.last_score = Some(score);
        Ok(())
    }
}

/// Adds the records of `input` (named `name` in messages) one line at a time, so that memory
/// does not grow with the file; a last line without its newline is dropped with a warning.
/// Returns the last score line printed when `live`.
fn read(
    m: &mut Merger,
    mut input: impl BufRead,
    name: &str,
    mut live: Option<Live>,
) -> Result<Option<String>, String> {
    let mut line = String::new();
    for n in 1.. {
        line.clear();
        let read = input
            .read_line(&mut line)
            .map_err(|e| format!("cannot read {name} at line {n}: {e}"))?;
        if read == 0 {
            break;
        }
        if !line.ends_with('\n') {
            eprintln!(
                "ply-referee merge: dropped an unfinished last line ({read} bytes) of {name}: \
                 a game that was not finished"
            );
            break;
        }
        if line.trim().is_empty() {
            continue;
        }
        let at = format!("{name} line {n}");
        let r: GameRecord =
            serde_json::from_str(&line).map_err(|e| format!("{at}: not a game record ({e})"))?;
        let finished = live.as_ref().map(|_| report::finished_line(&r));
        m.add(r, at)?;
        if let (Some(live), Some(finished)) = (live.as_mut(), finished) {
            live.print(m.this.as_ref().expect("a record was just added"), finished)?;
        }
    }
    Ok(live.and_then(|l| l.last_score))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn missing_games_as_ranges() {
        let mut m = Merger {
            planned: 10,
            ..Merger::default()
        };
        for i in [0, 1, 4, 6, 7] {
            m.seen.insert(i, String::new());
        }
        assert_eq!(
            m.missing(),
            (5, vec!["3-4".into(), "6".into(), "9-10".into()])
        );
    }
}
