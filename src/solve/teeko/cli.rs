//! `ply solve teeko`: builds a table with a progress bar, saves it and prints its summary.

use std::path::{Path, PathBuf};
use std::time::Instant;

use clap::Parser;

use super::table::{self, Table, TableError};
use super::{build_table, solve_with};
use crate::game::{Game, Player};
use crate::games::Teeko;
use crate::games::teeko::{Rules, rules};
use crate::solve::files::BuildLock;
use crate::value::{MATE, Score};

#[derive(Parser, Debug)]
#[command(
    name = "ply solve teeko",
    about = "Builds the Teeko tablebase: the value and distance of every position, by \
             retrograde analysis. Both centre rules share one table per goal set.",
    after_help = "The table goes to $PLY_TABLES, else $XDG_DATA_HOME/ply, else \
                  ~/.local/share/ply (or a temporary directory if that is not writable). \
                  The engine finds it there, and builds it by itself if it is missing."
)]
struct Args {
    /// Advanced Teeko: 58 goals (also the corners of every 3x3, 4x4 and 5x5 square).
    #[arg(long)]
    advanced: bool,
    /// Threads to build with (default: every core).
    #[arg(long)]
    threads: Option<usize>,
    /// Table file to write (default: the engine's table location).
    #[arg(long)]
    out: Option<PathBuf>,
    /// Rebuild even if a valid table is already there.
    #[arg(long)]
    force: bool,
    /// Instead of building, print the value and best move of this position (in ply's
    /// Teeko notation, such as "...../.b.r./..b../.r.../..... b") from the table.
    #[arg(long, value_name = "FEN")]
    probe: Option<String>,
    /// With --probe: the first drop may not be the centre.
    #[arg(long)]
    no_centre: bool,
}

/// `ply solve teeko ARGS...`.
pub fn cli(args: &[String]) -> Result<(), String> {
    let Some(a) = crate::solve::parse_args::<Args>("ply solve teeko", args)? else {
        return Ok(());
    };
    let path = a
        .out
        .clone()
        .unwrap_or_else(|| default_table_path(a.advanced));
    let existing = if a.force {
        None
    } else {
        load_existing(&path, a.advanced)
    };
    if let Some(fen) = &a.probe {
        let table = existing.ok_or_else(|| {
            format!(
                "no table at {} (build it with `ply solve teeko{}`)",
                path.display(),
                if a.advanced { " --advanced" } else { "" }
            )
        })?;
        return probe(&table, fen, rules(a.advanced, !a.no_centre));
    }
    let (table, built_in) = match existing {
        Some(t) => {
            println!("table already built: {} (--force rebuilds)", path.display());
            (t, None)
        }
        None => {
            let threads = a
                .threads
                .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()))
                .max(1);
            let (t, secs) = build_with_progress_bar(a.advanced, threads)?;
            save_table(&t, &path)?;
            (t, Some((secs, threads)))
        }
    };
    print!("{}", summary(&table, &path, built_in));
    Ok(())
}

/// The first search directory that has the table file, else the first one.
fn default_table_path(advanced: bool) -> PathBuf {
    let name = table::file_name(advanced);
    let dirs = table::search_dirs();
    dirs.iter()
        .map(|d| d.join(&name))
        .find(|p| p.exists())
        .unwrap_or_else(|| dirs[0].join(&name))
}

/// The table at `path`, or `None` when it is missing or damaged (then said on stderr: it is
/// rebuilt).
fn load_existing(path: &Path, advanced: bool) -> Option<Table> {
    match Table::load(path, advanced) {
        Ok(t) => Some(t),
        Err(TableError::Missing) => None,
        Err(e) => {
            eprintln!("{}: {e}; rebuilding", path.display());
            None
        }
    }
}

/// `--probe`: prints the position's value, best move and principal variation.
fn probe(table: &Table, fen: &str, rules: &'static Rules) -> Result<(), String> {
    let pos = Teeko::from_raw(0, 0, Player::First, rules)
        .from_fen(fen)
        .map_err(|e| e.to_string())?;
    let s = solve_with(table, &pos);
    println!("value: {}", describe(s.value));
    if let Some(b) = s.best {
        let mut p = pos;
        let pv: Vec<String> =
            s.pv.iter()
                .map(|&m| {
                    let t = p.format_move(m);
                    p.play(m);
                    t
                })
                .collect();
        println!("best move: {}", pos.format_move(b));
        println!("pv: {}", pv.join(" "));
    }
    Ok(())
}

/// Builds the table with a progress bar on stderr; returns it and the seconds it took.
fn build_with_progress_bar(advanced: bool, threads: usize) -> Result<(Table, f64), String> {
    let bar = indicatif::ProgressBar::new(1);
    bar.set_style(
        indicatif::ProgressStyle::with_template("{elapsed:>4} [{bar:36}] {percent:>3}% {msg}")
            .expect("a valid template")
            .progress_chars("=> "),
    );
    let start = Instant::now();
    let built = build_table(advanced, threads, &|p| {
        bar.set_length(p.total);
        bar.set_position(p.done);
        bar.set_message(p.stage.to_string());
    });
    bar.finish_and_clear();
    Ok((built?, start.elapsed().as_secs_f64()))
}

/// Saves the table under the build lock, so that two builders never write one file at once.
fn save_table(t: &Table, path: &Path) -> Result<(), String> {
    let _lock = BuildLock::acquire(path)
        .map_err(|e| format!("cannot write {}: {e}", path.display()))?
        .ok_or_else(|| {
            format!(
                "another process is writing {}; run this again once it is done",
                path.display()
            )
        })?;
    t.save(path)
        .map_err(|e| format!("cannot write {}: {e}", path.display()))
}

/// A value in words, with the protocol's score.
fn describe(v: i32) -> String {
    let s = Score::from_value(v);
    match s {
        Score::Mate(n) if n > 0 => format!("win in {} plies (score {s})", MATE - v),
        Score::Mate(_) => format!("loss in {} plies (score {s})", MATE + v),
        Score::Cp(_) => "draw (score cp 0)".to_string(),
    }
}

/// The report printed after a build.
pub fn summary(table: &Table, path: &Path, built: Option<(f64, usize)>) -> String {
    let st = table.stats();
    let mut out = String::new();
    let name = if table.advanced {
        "advanced Teeko (58 goals)"
    } else {
        "Teeko (44 goals)"
    };
    match built {
        Some((secs, threads)) => {
            out += &format!(
                "{name}: built in {secs:.2} s on {threads} thread(s), saved to {}\n",
                path.display()
            );
            if let Some([m, d]) = table.build_times {
                out += &format!(
                    "  move phase {:.2} s, drop phase {:.2} s (wall)\n",
                    m.as_secs_f64(),
                    d.as_secs_f64()
                );
            }
        }
        None => out += &format!("{name}: {}\n", path.display()),
    }
    out += &format!("start, centre allowed:   {}\n", describe(st.start));
    out += &format!(
        "start, centre forbidden: {}\n",
        describe(st.start_no_centre)
    );
    out += "positions (mover-relative boards; lost includes finished):\n";
    out += &format!(
        "  {:<11} {:>11} {:>11} {:>11} {:>11} {:>10} {:>10}\n",
        "phase", "total", "won", "drawn", "lost", "finished", "impossible"
    );
    for (label, p) in [("drop phase", &st.drop), ("move phase", &st.moves)] {
        out += &format!(
            "  {label:<11} {:>11} {:>11} {:>11} {:>11} {:>10} {:>10}\n",
            p.total(),
            p.won,
            p.drawn,
            p.lost,
            p.finished,
            p.invalid
        );
    }
    for (label, p) in [("drop phase", &st.drop), ("move phase", &st.moves)] {
        let (m, o) = p.longest_win_at;
        out += &format!(
            "longest forced win ({label}): {} plies (mate {}), e.g. {}\n",
            p.longest_win,
            p.longest_win.div_ceil(2),
            table.position(m, o).fen()
        );
    }
    out += &format!(
        "longest forced loss: {} plies in the drop phase, {} in the move phase\n",
        st.drop.longest_loss, st.moves.longest_loss
    );
    out
}
