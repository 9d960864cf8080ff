//! `ply solve connect4`: scores Pons-format positions and reports nodes and times.

use std::io::{BufRead, BufReader, Read};
use std::time::Instant;

use clap::Parser;

use super::{Connect4Solver, DEFAULT_TABLE_MB, cpu_seconds};
use crate::game::{Game, Params, play_moves};
use crate::games::Connect4;

#[derive(Parser, Debug)]
#[command(
    name = "ply solve connect4",
    about = "Scores Connect Four positions exactly (Pons' score: 0 draw, 22 - k for a win \
             with the side to move's k-th disc, negative for a loss)",
    long_about = "Scores Connect Four positions exactly.\n\n\
        Input lines: `<moves> [<expected score>]`, the moves as column digits 1..7 from the \
        empty board (Pons' test-set format; `-` is the empty board). Output, one line per \
        position: `<moves> <score> <nodes> <wall µs> <CPU µs>` (CPU time of the whole process), then ` ok` or \
        ` MISMATCH expected <e>` when a score was expected; then a summary line \
        `summary positions=N checked=C correct=K mean_us=T mean_cpu_us=U mean_nodes=M total_s=S`.\n\n\
        `ply solve connect4 book --help` describes the opening book's builder.\n\n\
        Score: 0 for a draw; 22 - k when the side to move forces a win with its k-th disc; \
        -(22 - k) when the opponent does. The empty board scores 1."
)]
struct Args {
    /// File of positions (default: stdin; `-` is stdin too).
    file: Option<String>,
    /// Solve these move sequences instead of reading input (`""` or `-` is the empty board).
    #[arg(long = "moves", value_name = "MOVES")]
    moves: Vec<String>,
    /// Solve the empty board.
    #[arg(long)]
    empty: bool,
    /// Search threads (default: every core). Benchmarks against single-threaded solvers pass
    /// 1.
    #[arg(long)]
    threads: Option<usize>,
    /// Transposition table size in MiB.
    #[arg(long = "table-mb", default_value_t = DEFAULT_TABLE_MB)]
    table_mb: usize,
    /// Reset the table before each position, untimed, with the whole table backed by memory
    /// before the first one (the benchmarks' protocol); otherwise results carry over from one
    /// position to the next.
    #[arg(long = "reset-each")]
    reset_each: bool,
    /// Stop after this many positions.
    #[arg(long)]
    limit: Option<usize>,
    /// Print only the summary.
    #[arg(long)]
    quiet: bool,
    /// Board width (columns); only 7x6 reads Pons' files as such, other sizes take the same
    /// notation.
    #[arg(long, default_value_t = 7)]
    width: u32,
    /// Board height (rows).
    #[arg(long, default_value_t = 6)]
    height: u32,
}

/// One position to solve: its move text as given and an expected score, if any.
struct Case {
    moves: String,
    expected: Option<i32>,
}

/// `ply solve connect4 ARGS...` (`--help` lists them).
pub fn cli(args: &[String]) -> Result<(), String> {
    if args.first().is_some_and(|a| a == "book") {
        return super::book_build::cli(&args[1..]);
    }
    let Some(args) = crate::solve::parse_args::<Args>("ply solve connect4", args)? else {
        return Ok(());
    };
    let start = Connect4::new(&Params(vec![
        ("width".into(), args.width.to_string()),
        ("height".into(), args.height.to_string()),
    ]))
    .map_err(|e| e.to_string())?;
    let mut solver = Connect4Solver::with_table_mb(&start, args.table_mb).ok_or_else(|| {
        format!(
            "no exact solver for a {}x{} board (sizes: 4..8 wide, 4..7 high, width*(height+1) <= 56)",
            args.width, args.height
        )
    })?;
    solver.set_threads(
        args.threads
            .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get())),
    );

    let cases = read_cases(&args)?;
    if args.reset_each {
        // The benchmark protocol: the table backed before the first position, untimed, so no
        // solve pays a page fault or waits for the backing thread.
        solver.back_table_now();
    }
    let (mut count, mut checked, mut correct) = (0u64, 0u64, 0u64);
    let (mut total_us, mut total_cpu_us, mut total_nodes) = (0f64, 0f64, 0u64);
    for (i, case) in cases.iter().enumerate() {
        if args.limit.is_some_and(|l| i >= l) {
            break;
        }
        let digits: Vec<String> = case.moves.chars().map(|c| c.to_string()).collect();
        let words: Vec<&str> = digits.iter().map(String::as_str).collect();
        let pos = play_moves(&start, &words).map_err(|(at, e)| {
            format!("position {}: '{}': move {}: {e}", i + 1, case.moves, at + 1)
        })?;
        if args.reset_each {
            solver.reset();
        }
        // The CPU clock is a system call: read it outside the wall-clock interval.
        let c = cpu_seconds();
        let t = Instant::now();
        let scored = solver.score(&pos);
        let us = t.elapsed().as_secs_f64() * 1e6;
        let cpu_us = (cpu_seconds() - c) * 1e6;
        count += 1;
        total_us += us;
        total_cpu_us += cpu_us;
        total_nodes += scored.nodes;
        let verdict = match case.expected {
            Some(e) => {
                checked += 1;
                if e == scored.score {
                    correct += 1;
                    " ok".to_string()
                } else {
                    format!(" MISMATCH expected {e}")
                }
            }
            None => String::new(),
        };
        if !args.quiet {
            let shown = if case.moves.is_empty() {
                "-"
            } else {
                &case.moves
            };
            println!(
                "{shown} {} {} {us:.1} {cpu_us:.1}{verdict}",
                scored.score, scored.nodes
            );
        }
    }
    let n = count.max(1) as f64;
    println!(
        "summary positions={count} checked={checked} correct={correct} mean_us={:.2} mean_cpu_us={:.2} mean_nodes={:.1} total_s={:.3}",
        total_us / n,
        total_cpu_us / n,
        total_nodes as f64 / n,
        total_us / 1e6
    );
    if checked > correct {
        return Err(format!("{} of {checked} scores differ", checked - correct));
    }
    Ok(())
}

fn read_cases(args: &Args) -> Result<Vec<Case>, String> {
    let normalise = |m: &str| {
        if m == "-" {
            String::new()
        } else {
            m.to_string()
        }
    };
    let mut cases: Vec<Case> = args
        .moves
        .iter()
        .map(|m| Case {
            moves: normalise(m),
            expected: None,
        })
        .collect();
    if args.empty {
        cases.push(Case {
            moves: String::new(),
            expected: None,
        });
    }
    if !cases.is_empty() && args.file.is_none() {
        return Ok(cases);
    }
    let input: Box<dyn Read> = match args.file.as_deref() {
        None | Some("-") => Box::new(std::io::stdin()),
        Some(p) => Box::new(std::fs::File::open(p).map_err(|e| format!("{p}: {e}"))?),
    };
    for (i, line) in BufReader::new(input).lines().enumerate() {
        let line = line.map_err(|e| e.to_string())?;
        let mut words = line.split_whitespace();
        let Some(moves) = words.next() else { continue };
        let expected = match words.next() {
            Some(w) => Some(
                w.parse()
                    .map_err(|_| format!("line {}: bad score '{w}'", i + 1))?,
            ),
            None => None,
        };
        cases.push(Case {
            moves: normalise(moves),
            expected,
        });
    }
    Ok(cases)
}
