//! The ply engine: speaks the line protocol on stdin/stdout (see protocol.md); logs go to
//! stderr (`RUST_LOG=debug ply` shows them).

use std::io::{self, BufReader};

use clap::{Parser, Subcommand};

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
        #[arg(long)]
        depth: Option<u32>,
        /// Transposition table size in MiB.
        #[arg(long, default_value_t = ply::protocol::DEFAULT_HASH_MB)]
        hash: usize,
    },
    /// Runs a game's solver: `ply solve teeko` builds the Teeko tablebase, `ply solve
    /// connect4` scores Connect Four positions (`--help` after the game name for details).
    Solve {
        /// connect4 or teeko
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
        None => ply::protocol::run(BufReader::new(io::stdin()), io::stdout()),
        Some(Cmd::Bench { depth, hash }) => println!("{}", ply::bench::run(depth, hash.max(1))),
        Some(Cmd::Solve { game, args }) => {
            let result = match game.as_str() {
                "connect4" => ply::solve::connect4::cli(&args),
                "teeko" => ply::solve::teeko::cli(&args),
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
