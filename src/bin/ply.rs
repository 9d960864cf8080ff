//! The ply engine: speaks the line protocol on stdin/stdout (see protocol.md); logs go to
//! stderr (`RUST_LOG=debug ply` shows them).

use std::io::{self, BufReader};

use clap::{Parser, Subcommand, ValueEnum};

#[derive(Clone, Copy, ValueEnum)]
enum Format {
    Tsv,
    Jsonl,
}

#[derive(Parser)]
#[command(
    name = "ply",
    version,
    about = "An engine for two-player perfect-information games (tic-tac-toe, Connect Four, Nim, Teeko), speaking a UCI-style protocol on stdin/stdout"
)]
struct Cli {
    #[command(subcommand)]
    command: Option<Cmd>,
}

#[derive(Subcommand)]
enum Cmd {
    /// Fixed-depth searches over fixed positions of every game: prints each node count and
    /// the total (a checksum of the searcher's behaviour) with nodes per second.
    Bench {
        /// Search every position to this depth instead of its own.
        #[arg(long, value_parser = clap::value_parser!(u32).range(1..=ply::search::MAX_DEPTH as i64))]
        depth: Option<u32>,
        /// Transposition table size in MiB.
        #[arg(long, default_value_t = ply::bench::BENCH_HASH_MB)]
        hash: usize,
    },
    /// Analyses positions, one per line (`[game [key=value..]] startpos|fen .. [moves ..]`, or a
    /// plain Connect Four move string such as Pons' files have: `4453 -2`), on every core;
    /// writes one result per position in input order. Exit status 0, or 2 when some lines
    /// were bad (each reported on stderr with its line number), 1 on an I/O error.
    Analyse {
        /// Files to read (standard input when none).
        files: Vec<std::path::PathBuf>,
        /// Game of lines that do not name one.
        #[arg(long, default_value = "connect4")]
        game: String,
        /// Output format.
        #[arg(long, value_enum, default_value_t = Format::Tsv)]
        format: Format,
        /// Heuristic search depth when no solver proves the value. With no --depth,
        /// --movetime or --nodes, the search stops at depth 12 or after 1 s per position.
        #[arg(long)]
        depth: Option<u32>,
        /// Milliseconds per position (the solver may use half).
        #[arg(long)]
        movetime: Option<u64>,
        /// Node budget per position.
        #[arg(long)]
        nodes: Option<u64>,
        /// Worker threads (default: every core).
        #[arg(long)]
        threads: Option<usize>,
        /// Heuristic search only, even where a solver could answer.
        #[arg(long)]
        no_solver: bool,
        /// Transposition table size per thread, in MiB (the Connect Four solver's as well).
        #[arg(long, default_value_t = 16)]
        hash: usize,
        /// Write results here instead of standard output.
        #[arg(long, short)]
        output: Option<std::path::PathBuf>,
    },
    /// A browser frontend: serves a page (on this machine only, unless --allow-remote) that
    /// plays, watches and analyses every game through engine processes; prints its URL.
    Gui {
        /// TCP port (0: any free port).
        #[arg(long, default_value_t = ply::gui::DEFAULT_PORT)]
        port: u16,
        /// Address to listen on. Anything but loopback needs --allow-remote.
        #[arg(long, default_value = "127.0.0.1")]
        bind: std::net::IpAddr,
        /// Allow --bind beyond loopback: anyone who reaches the port can start engines here.
        #[arg(long)]
        allow_remote: bool,
        /// A host name the page may be reached by, besides localhost and IP addresses
        /// (repeatable).
        #[arg(long = "allow-host", value_name = "NAME")]
        allow_hosts: Vec<String>,
        /// Open the page in the desktop's browser.
        #[arg(long)]
        open: bool,
        /// An engine the page may start besides ply (repeatable):
        /// name=NAME,cmd=PROGRAM[,arg=ARG..][,dir=DIR][,proto=ply|uci|fsf|auto][,option.NAME=VALUE..].
        /// Fairy-Stockfish (proto=fsf, or auto-detected) plays tic-tac-toe and Connect Four
        /// through the referee's notation adapter.
        #[arg(long = "engine", value_name = "name=..,cmd=..")]
        engines: Vec<String>,
        /// Pages served at once.
        #[arg(long, default_value_t = 8)]
        max_pages: usize,
        /// Engine processes one page may run.
        #[arg(long, default_value_t = 5)]
        engines_per_page: usize,
        /// Engine processes in all.
        #[arg(long, default_value_t = 16)]
        max_engines: usize,
        /// The largest Hash (MiB) a page may give an engine.
        #[arg(long, default_value_t = 256)]
        max_hash: u64,
    },
    /// Runs a game's solver: `ply solve teeko` builds the Teeko tablebase, `ply solve
    /// connect4` scores Connect Four positions (`--help` after the game name for details).
    // Its own help flag would swallow `ply solve teeko --help`: the game's parser answers it.
    #[command(disable_help_flag = true)]
    Solve {
        /// connect4 or teeko
        #[arg(allow_hyphen_values = true)]
        game: String,
        /// Passed to the game's solver.
        #[arg(trailing_var_arg = true, allow_hyphen_values = true)]
        args: Vec<String>,
    },
}

fn main() {
    env_logger::Builder::from_env(env_logger::Env::default().default_filter_or("warn")).init();
    let cli = Cli::parse();
    match cli.command {
        None => {
            // The engine's tables come and go with the options: keep freed ones off its RSS.
            ply::util::return_large_frees_to_the_system();
            ply::protocol::run(BufReader::new(io::stdin()), io::stdout())
        }
        Some(Cmd::Bench { depth, hash }) => println!("{}", ply::bench::run(depth, hash.max(1))),
        Some(Cmd::Analyse {
            files,
            game,
            format,
            depth,
            movetime,
            nodes,
            threads,
            no_solver,
            hash,
            output,
        }) => {
            let defaults = ply::analyse::Options::default();
            let opts = ply::analyse::Options {
                default_game: game.to_ascii_lowercase(),
                format: match format {
                    Format::Tsv => ply::analyse::Format::Tsv,
                    Format::Jsonl => ply::analyse::Format::JsonLines,
                },
                depth,
                movetime: movetime.map(std::time::Duration::from_millis),
                nodes,
                threads: threads.unwrap_or(defaults.threads).max(1),
                use_solver: !no_solver,
                hash_mb: hash.max(1),
                progress: true,
            };
            std::process::exit(analyse(&files, output.as_deref(), &opts));
        }
        Some(Cmd::Gui {
            port,
            bind,
            allow_remote,
            allow_hosts,
            open,
            engines,
            max_pages,
            engines_per_page,
            max_engines,
            max_hash,
        }) => {
            let mut config = ply::gui::Config {
                bind,
                port,
                allow_remote,
                allow_hosts,
                max_pages: max_pages.max(1),
                engines_per_page: engines_per_page.max(1),
                max_engines: max_engines.max(1),
                ..ply::gui::Config::default()
            };
            config.bounds.max_hash_mb = max_hash.max(1);
            for e in &engines {
                match ply::gui::EngineDef::parse(e) {
                    Ok(def) => config.engines.push(def),
                    Err(msg) => {
                        eprintln!("ply gui: --engine {e}: {msg}");
                        std::process::exit(1);
                    }
                }
            }
            if let Err(e) = ply::gui::run(config, open) {
                eprintln!("ply gui: {e}");
                std::process::exit(1);
            }
        }
        Some(Cmd::Solve { game, args }) => {
            let result = match game.as_str() {
                "connect4" => ply::solve::connect4::cli(&args),
                "teeko" => ply::solve::teeko::cli(&args),
                "-h" | "--help" | "help" => {
                    println!(
                        "Usage: ply solve <GAME> [ARGS]...\n\n\
                         ply solve teeko [--advanced] ...   build the Teeko tablebase\n\
                         ply solve connect4 [FILE] ...      score Connect Four positions exactly\n\n\
                         `ply solve <GAME> --help` describes each."
                    );
                    Ok(())
                }
                other => Err(format!(
                    "no solver command for '{other}' (known: connect4, teeko)"
                )),
            };
            if let Err(e) = result {
                eprintln!("ply solve {game}: {e}");
                std::process::exit(1);
            }
        }
    }
}

/// `ply analyse`: returns the exit status.
fn analyse(
    files: &[std::path::PathBuf],
    output: Option<&std::path::Path>,
    opts: &ply::analyse::Options,
) -> i32 {
    use std::io::{BufRead, Read, Write};
    let mut text = String::new();
    let read = if files.is_empty() {
        io::stdin()
            .read_to_string(&mut text)
            .map(|_| ())
            .map_err(|e| format!("standard input: {e}"))
    } else {
        files.iter().try_for_each(|f| {
            let t = std::fs::read_to_string(f).map_err(|e| format!("{}: {e}", f.display()))?;
            text.push_str(&t);
            if !t.ends_with('\n') {
                text.push('\n');
            }
            Ok(())
        })
    };
    if let Err(e) = read {
        eprintln!("ply analyse: {e}");
        return 1;
    }
    let out: Box<dyn Write + Send> = match output {
        Some(p) => match std::fs::File::create(p) {
            Ok(f) => Box::new(io::BufWriter::new(f)),
            Err(e) => {
                eprintln!("ply analyse: {}: {e}", p.display());
                return 1;
            }
        },
        None => Box::new(io::stdout()),
    };
    let input: &mut dyn BufRead = &mut text.as_bytes();
    match ply::analyse::run(input, out, &mut io::stderr(), opts) {
        Ok(s) => {
            let mut summary = format!(
                "ply analyse: {} positions, {} proven, {} bad lines, {:.3} s",
                s.positions,
                s.proven,
                s.bad_lines,
                s.time.as_secs_f64()
            );
            if s.mismatches > 0 {
                summary.push_str(&format!(
                    ", {} differ from the expected score",
                    s.mismatches
                ));
            }
            eprintln!("{summary}");
            let _ = io::stderr().flush();
            if s.bad_lines > 0 { 2 } else { 0 }
        }
        Err(e) => {
            eprintln!("ply analyse: {e}");
            1
        }
    }
}
