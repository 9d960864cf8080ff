//! The peer side of `scripts/bench/bench_c4_solver.sh`: scores Connect Four positions with the
//! `connect-four-ai` crate (a dev-dependency) and prints exactly the format of
//! `ply solve connect4`, so the two can be compared line by line.
//!
//! Input: Pons-format lines, `<moves> [<expected score>]` with columns 1..7, from the file
//! named by the first argument or from stdin. `--limit N` stops after N positions, `--quiet`
//! prints only the summary.
//!
//! Timing protocol (the anchor's): one solver for the whole run, no opening book, its table
//! reset before each position (untimed), only `solve` timed.
//!
//! Output, one line per position: `<moves or -> <score> <nodes> <wall µs> <CPU µs>`, then ` ok` or
//! ` MISMATCH expected <e>` when an expected score was given; finally
//! `summary positions=N checked=C correct=K mean_us=T mean_cpu_us=U mean_nodes=M total_s=S`.

use std::io::{BufRead, BufReader, Read};
use std::time::Instant;

use connect_four_ai::{Position, Solver, TTFlag, TranspositionTable};
use ply::solve::connect4::cpu_seconds;

fn main() {
    if let Err(e) = run() {
        eprintln!("c4ai_bench: {e}");
        std::process::exit(1);
    }
}

fn run() -> Result<(), String> {
    let mut path = None;
    let mut limit = usize::MAX;
    let mut quiet = false;
    let mut args = std::env::args().skip(1);
    while let Some(a) = args.next() {
        match a.as_str() {
            "--limit" => {
                limit = args
                    .next()
                    .and_then(|n| n.parse().ok())
                    .ok_or("--limit needs a number")?;
            }
            "--quiet" => quiet = true,
            "-h" | "--help" => {
                println!("usage: c4ai_bench [FILE] [--limit N] [--quiet]");
                return Ok(());
            }
            _ if path.is_none() => path = Some(a),
            _ => return Err(format!("unexpected argument '{a}'")),
        }
    }
    let input: Box<dyn Read> = match path.as_deref() {
        None | Some("-") => Box::new(std::io::stdin()),
        Some(p) => Box::new(std::fs::File::open(p).map_err(|e| format!("{p}: {e}"))?),
    };

    let mut solver = Solver::empty();
    // Touch every table entry once, untimed: the table is allocated zeroed, so otherwise the
    // first solves would also pay the page faults of mapping it in. The reset that follows
    // marks all of them stale again.
    for k in 0..TranspositionTable::MAX_SIZE as u64 {
        solver.transposition_table.put(k, 0, TTFlag::Exact, 0);
    }
    solver.reset();
    let (mut count, mut checked, mut correct) = (0u64, 0u64, 0u64);
    let (mut total_us, mut total_cpu_us, mut total_nodes) = (0f64, 0f64, 0u64);
    for (i, line) in BufReader::new(input).lines().enumerate() {
        let line = line.map_err(|e| e.to_string())?;
        let mut words = line.split_whitespace();
        let Some(moves) = words.next() else { continue };
        if count as usize >= limit {
            break;
        }
        let expected: Option<i32> = match words.next() {
            Some(w) => Some(
                w.parse()
                    .map_err(|_| format!("line {}: bad score '{w}'", i + 1))?,
            ),
            None => None,
        };
        let moves = if moves == "-" { "" } else { moves };
        let pos =
            Position::from_moves(moves).map_err(|e| format!("line {}: {moves}: {e:?}", i + 1))?;
        solver.reset();
        let (start, c) = (Instant::now(), cpu_seconds());
        let score = solver.solve(&pos) as i32;
        let us = start.elapsed().as_secs_f64() * 1e6;
        let cpu_us = (cpu_seconds() - c) * 1e6;
        let nodes = solver.explored_positions as u64;
        count += 1;
        total_us += us;
        total_cpu_us += cpu_us;
        total_nodes += nodes;
        let verdict = match expected {
            Some(e) => {
                checked += 1;
                if e == score {
                    correct += 1;
                    " ok".to_string()
                } else {
                    format!(" MISMATCH expected {e}")
                }
            }
            None => String::new(),
        };
        if !quiet {
            let shown = if moves.is_empty() { "-" } else { moves };
            println!("{shown} {score} {nodes} {us:.1} {cpu_us:.1}{verdict}");
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
    Ok(())
}
