//! `ply solve checkers`: builds the endgame databases with a progress bar and prints what
//! they hold, or probes a position.

use std::path::PathBuf;
use std::time::Instant;

use clap::Parser;

use super::driver::{self, SliceReport};
use super::table::Tables;
use super::{best_move, index, value::Value};
use crate::game::{Game, Params};
use crate::games::Checkers;

#[derive(Parser, Debug)]
#[command(
    name = "ply solve checkers",
    about = "Builds the checkers endgame databases: the value and distance to the end of every \
             position with up to N pieces, by retrograde analysis, on every core. An \
             interrupted build resumes where it stopped.",
    after_help = "The databases go to $PLY_TABLES, else $XDG_DATA_HOME/ply, else \
                  ~/.local/share/ply (or a temporary directory if that is not writable), one \
                  file per material signature. The engine finds them there."
)]
struct Args {
    /// Build every position with up to this many pieces (2 to 8; 6 took 9 minutes on two
    /// cores, 3.1 GB of memory and 2.7 GB of disk, docs/checkers.md; 7 is about 14 times 6).
    #[arg(long, default_value_t = 6)]
    pieces: u32,
    /// Threads to build with (default: every core).
    #[arg(long)]
    threads: Option<usize>,
    /// Directory to build in (default: the engine's table directory).
    #[arg(long)]
    dir: Option<PathBuf>,
    /// Instead of building, print the value and best line of this position (PDN FEN, such
    /// as "W:WK3,K7:BK30") from the databases.
    #[arg(long, value_name = "FEN")]
    probe: Option<String>,
}

/// `ply solve checkers ARGS...`.
pub fn cli(args: &[String]) -> Result<(), String> {
    let Some(a) = crate::solve::parse_args::<Args>("ply solve checkers", args)? else {
        return Ok(());
    };
    let dir = a
        .dir
        .clone()
        .unwrap_or_else(|| crate::solve::files::search_dirs()[0].clone());
    if let Some(fen) = &a.probe {
        return probe(&Tables::lazy(vec![dir]), fen);
    }
    if !(2..=super::table::MAX_PIECES).contains(&a.pieces) {
        return Err(format!("--pieces {}: expected 2 to 8", a.pieces));
    }
    let threads = a
        .threads
        .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()))
        .max(1);
    let bar = indicatif::ProgressBar::new(1);
    bar.set_style(
        indicatif::ProgressStyle::with_template("{elapsed:>5} [{bar:36}] {percent:>3}% {msg}")
            .expect("a valid template")
            .progress_chars("=> "),
    );
    let start = Instant::now();
    let built = driver::build(&dir, a.pieces, threads, &|p| {
        bar.set_length(p.total);
        bar.set_position(p.done);
        bar.set_message(format!("{} pieces, slice {}", p.pieces, p.slice));
    });
    bar.finish_and_clear();
    let (_, reports) = built?;
    println!(
        "checkers databases up to {} pieces in {} ({:.1} s on {threads} thread(s))",
        a.pieces,
        dir.display(),
        start.elapsed().as_secs_f64()
    );
    print!("{}", summary(&reports));
    Ok(())
}

/// `--probe`: the position's value and best line.
fn probe(tables: &Tables, fen: &str) -> Result<(), String> {
    let start = Checkers::new(&Params::new()).map_err(|e| e.to_string())?;
    let pos = start.from_fen(fen).map_err(|e| e.to_string())?;
    let v = tables
        .probe(pos.board(), pos.side_to_move())
        .ok_or_else(|| format!("no database holds {fen} (build it with ply solve checkers)"))?;
    println!("value: {}", describe(v));
    let mut p = pos;
    let mut line = Vec::new();
    while line.len() < 40 && p.outcome().is_none() {
        let Some((mv, _, _)) = best_move(tables, &p) else {
            break;
        };
        line.push(p.format_move(mv));
        p.play(mv);
    }
    println!("line: {}", line.join(" "));
    Ok(())
}

fn describe(v: Value) -> String {
    match v {
        Value::Draw => "draw".into(),
        Value::Win(d) => format!("win in {d} plies (mate {})", d.div_ceil(2)),
        Value::Loss(d) => format!("loss in {d} plies (mate -{})", d / 2),
    }
}

/// The table printed after a build: per piece count, the positions (both sides on the
/// board, mover-relative), their values, the longest win, the time and the bytes.
pub fn summary(reports: &[SliceReport]) -> String {
    let mut out = format!(
        "{:>6} {:>14} {:>14} {:>14} {:>14} {:>8} {:>9} {:>14}\n",
        "pieces", "positions", "won", "drawn", "lost", "longest", "seconds", "bytes"
    );
    let max = reports
        .iter()
        .filter_map(|r| r.slice)
        .map(|s| s.pieces())
        .max();
    for n in 2..=max.unwrap_or(1) {
        let of_n: Vec<&SliceReport> = reports
            .iter()
            .filter(|r| r.slice.is_some_and(|s| s.pieces() == n))
            .collect();
        let sum = |f: fn(&SliceReport) -> u64| of_n.iter().map(|r| f(r)).sum::<u64>();
        let longest = of_n.iter().max_by_key(|r| r.longest_win);
        // A pair's time is on both its slices: count it once. Slices found on disk took none.
        let times: Vec<f64> = of_n
            .iter()
            .filter(|r| r.slice.is_some_and(|s| s <= s.swapped()))
            .filter_map(|r| r.seconds)
            .collect();
        let seconds = match times.is_empty() {
            true => "found".to_string(),
            false => format!("{:.1}", times.iter().sum::<f64>()),
        };
        out += &format!(
            "{n:>6} {:>14} {:>14} {:>14} {:>14} {:>8} {:>9} {:>14}\n",
            sum(|r| r.positions),
            sum(|r| r.won),
            sum(|r| r.drawn),
            sum(|r| r.lost),
            longest.map_or(0, |r| r.longest_win),
            seconds,
            sum(|r| r.bytes)
        );
        if let Some(r) = longest.filter(|r| r.longest_win > 0) {
            let s = r.slice.expect("a slice");
            let b = index::board_at(&s, r.longest_at).expect("a valid index");
            let pos = Checkers::from_parts(b, crate::game::Player::First, 0, 80);
            out += &format!(
                "       longest win ({} plies): {}\n",
                r.longest_win,
                pos.fen()
            );
        }
    }
    out
}
