//! ply-referee: plays engines against each other and reports the result like cutechess-cli
//! (see `ply::referee`). This file only turns the command line into a `MatchConfig`.

use std::path::PathBuf;
use std::time::Duration;

use clap::{ArgAction, CommandFactory, FromArgMatches, Parser, Subcommand};

use ply::client::Launch;
use ply::game::Params;
use ply::referee::check::{self, CheckConfig};
use ply::referee::merge::{self, MergeConfig};
use ply::referee::player::Timeouts;
use ply::referee::runner::{self, EXIT_USAGE, MatchConfig};
use ply::referee::spec;

const AFTER_HELP: &str = "\
PLAYERS (each --engine is a group of KEY=VALUE words, as in cutechess-cli):
  cmd=PATH             the engine program          arg=ARG      one argument (repeatable)
  name=NAME            one word for the reports     dir=DIR      its working directory
  proto=ply|uci|fsf    ply: `newgame <game>` starts each game; uci: UCI_Variant + ucinewgame;
                       fsf: Fairy-Stockfish (variants file and P@d1 drops); default: fsf when
                       the engine calls itself Fairy-Stockfish, else ply
  option.NAME=VALUE    sent as `setoption name NAME value VALUE`
  tc=[MOVES/]SECS[+INC]  a clock kept by the referee (`40/60+0.6`, `10+0.1`, `1:00`)
  st=SECS              time per move (go movetime)    depth=N, nodes=N   search limits
  timemargin=MS        lateness forgiven before a loss on time
  restart=on           a fresh process every game
  builtin=random       a random legal mover          builtin=human (or `human`): you, at the
                                                     terminal (board on stderr, moves on stdin)
  --each takes the same words for both players; a player's own words win. Built-in players
  have no clock.

OUTPUT: `Started game`, `Finished game N (P1 vs P2): 1-0 {reason}` and `Score of A vs B: W - L - D  [ratio] N`
per game; at the end the score per colour, `Elo difference: x +/- y, LOS: z %, DrawRatio: w %`,
`Ptnml(0-2): [..]` over game pairs, the SPRT line and forfeits by player and reason.
Results are from A's side (the first --engine); p1 is the player who moves first.

RECORDS: --records FILE writes one JSON line per finished game, synced to disk as the game ends
(a new or empty file). --resume FILE reads such a file, skips the games it holds and appends the
rest; give the same game, players, openings and seed (--games/--rounds may grow).

SHARDS: --shard i/N plays only the i-th (from 0) of N slices of the match, whole game pairs, each
game exactly as the whole match plays it (same opening, colours and seed); with --records, run
every shard (on as many machines), then `ply-referee merge [--sprt ..] FILE...` prints the whole
match's report from their records. A shard does not stop on --sprt; merge decides it.

PGN (chess): --pgn FILE appends each finished game as PGN as it ends (tags, SAN moves, each
engine move's {score/depth time}, the reason), also when resuming. --openings reads EPD (.epd:
a position a line) and PGN (.pgn: each game's main line, cut by --opening-plies) files too.

EXIT CODES:
  0  the match completed (all planned games played, or SPRT decided)
  1  usage error (bad arguments, unreadable openings, --resume with a records file of another
     match, --records on a file that already holds games, --pgn or EPD/PGN openings for a game
     other than chess); merge: a file unreadable, of another match, or a game in it twice
  2  an engine failure stopped the match: an engine could not be started, or one crashed,
     stalled or hung without --recover (the games finished are recorded); `check`: a step failed
  3  interrupted by SIGINT or SIGTERM (the games finished are recorded; use --resume)
  4  the records file (or the PGN file) could not be written
";

#[derive(Parser)]
#[command(
    name = "ply-referee",
    version,
    about = "Plays game engines against each other with ply's rules as referee, and measures the result",
    after_help = AFTER_HELP,
    args_conflicts_with_subcommands = true
)]
struct Cli {
    #[command(subcommand)]
    command: Option<Cmd>,

    /// A player: cmd=PATH [arg=..] [name=..] [option.NAME=VALUE ..] [tc=..|st=..|depth=..|nodes=..],
    /// or builtin=random, or human (give exactly two)
    #[arg(long, num_args = 1.., action = ArgAction::Append, value_name = "KEY=VALUE")]
    engine: Vec<String>,

    /// Settings for both players, same keys as --engine
    #[arg(long, num_args = 1.., action = ArgAction::Append, value_name = "KEY=VALUE")]
    each: Vec<String>,

    /// The game and its parameters (the help lists the games with their defaults).
    #[arg(long, num_args = 1.., value_name = "GAME [KEY=VALUE]", help = game_help())]
    game: Vec<String>,

    /// Games per round
    #[arg(long, default_value_t = 1)]
    games: u64,

    /// Rounds (the match plays games × rounds)
    #[arg(long, default_value_t = 1)]
    rounds: u64,

    /// Play each opening twice with colours swapped (games 2k and 2k+1 form a pair)
    #[arg(long)]
    repeat: bool,

    /// Games played at the same time
    #[arg(long, default_value_t = 1)]
    concurrency: usize,

    /// Openings file: one `startpos [moves ..]` or `fen <position> [moves ..]` a line; for
    /// chess also EPD (a position a line) or PGN (each game's main line), by the file's
    /// ending (.epd, .pgn) unless --openings-format says
    #[arg(long, value_name = "FILE")]
    openings: Option<PathBuf>,

    /// The openings file's format, whatever its name
    #[arg(long, value_enum, value_name = "FORMAT")]
    openings_format: Option<ply::referee::openings::OpeningsFormat>,

    /// At most N plies of each PGN opening
    #[arg(long, value_name = "N")]
    opening_plies: Option<usize>,

    /// Use the openings in an order shuffled by --seed (default: file order)
    #[arg(long)]
    shuffle: bool,

    /// Random plies played after each opening (the same for both games of a pair)
    #[arg(long, default_value_t = 0, value_name = "N")]
    random_plies: u32,

    /// Seed for shuffling, random plies and the built-in random player
    #[arg(long, default_value_t = 1)]
    seed: u64,

    /// Adjudicate a draw when a game reaches this many plies
    #[arg(long, value_name = "N")]
    max_plies: Option<u32>,

    /// Score adjudication: movecount=N score=CP [twosided=true]
    #[arg(long, num_args = 1.., value_name = "KEY=VALUE")]
    resign: Vec<String>,

    /// Score adjudication: movenumber=N movecount=N score=CP
    #[arg(long, num_args = 1.., value_name = "KEY=VALUE")]
    draw: Vec<String>,

    /// Stop when the SPRT decides: elo0=.. elo1=.. [alpha=0.05] [beta=0.05]
    #[arg(long, num_args = 1.., value_name = "KEY=VALUE")]
    sprt: Vec<String>,

    /// Write one JSON line per finished game to FILE (new or empty)
    #[arg(long, value_name = "FILE")]
    records: Option<PathBuf>,

    /// Append every finished chess game to FILE as PGN (SAN moves, tags, each engine move's
    /// score, depth and time)
    #[arg(long, value_name = "FILE")]
    pgn: Option<PathBuf>,

    /// Continue the match recorded in FILE (and append to it)
    #[arg(long, value_name = "FILE")]
    resume: Option<PathBuf>,

    /// Restart an engine that crashed, stalled or hung, and go on
    #[arg(long)]
    recover: bool,

    /// Longest wait for uciok and readyok, in milliseconds
    #[arg(long, default_value_t = 10_000, value_name = "MS")]
    stall_timeout: u64,

    /// Longest wait for bestmove when no clock or st= limits the search, in milliseconds
    #[arg(long, default_value_t = 60_000, value_name = "MS")]
    move_timeout: u64,

    /// How long an engine may take to answer `stop` before it is killed, in milliseconds
    #[arg(long, default_value_t = 1_000, value_name = "MS")]
    stop_grace: u64,

    /// Print the Elo line every N games (0: only at the end)
    #[arg(long, default_value_t = 0, value_name = "N")]
    rating_interval: u64,

    /// No progress bar (it is shown only when stderr is a terminal anyway)
    #[arg(long)]
    no_progress: bool,

    /// Log every line to and from the engines on stderr (`> name: ..`, `< name: ..`)
    #[arg(short, long)]
    verbose: bool,

    /// Play only the i-th (from 0) of N slices of the match (whole game pairs); merge the
    /// shards' records with `ply-referee merge`
    #[arg(long, value_name = "i/N")]
    shard: Option<ply::shard::Shard>,
}

#[derive(Subcommand)]
enum Cmd {
    /// Runs a protocol compliance script against one engine: handshake, options, positions,
    /// every go form, stop, isready mid-search, query answers, bad input. Prints each step;
    /// exits 2 at the first failure.
    Check {
        /// Games to check (default: those the engine lists in UCI_Variant)
        #[arg(long)]
        game: Vec<String>,
        /// Longest wait for any answer, in milliseconds
        #[arg(long, default_value_t = 5_000, value_name = "MS")]
        timeout: u64,
        /// Log every line to and from the engine on stderr
        #[arg(short, long)]
        verbose: bool,
        /// The engine command and its arguments, after `--`
        #[arg(last = true, required = true, value_name = "COMMAND")]
        command: Vec<String>,
    },
    /// Prints the report of a match played in shards (--shard i/N) from their records files,
    /// as one run of the whole match prints it; refuses records of two matches or a game
    /// twice. `-` reads records from standard input as they arrive, printing each game.
    Merge {
        /// Records files (`-`: standard input)
        #[arg(value_name = "FILE")]
        files: Vec<PathBuf>,
        /// The match's SPRT: elo0=.. elo1=.. [alpha=0.05] [beta=0.05]
        #[arg(long, num_args = 1.., value_name = "KEY=VALUE")]
        sprt: Vec<String>,
    },
}

/// A `--resign`/`--draw`/`--sprt` rule, when given.
fn rule<T>(words: &[String], parse: fn(&[String]) -> Result<T, String>) -> Option<T> {
    if words.is_empty() {
        None
    } else {
        Some(parse(words).unwrap_or_else(|e| usage(&e)))
    }
}

fn usage(msg: &str) -> ! {
    eprintln!("ply-referee: {msg}");
    std::process::exit(EXIT_USAGE);
}

/// `--game`'s help: the registry's games with their parameters' defaults.
fn game_help() -> String {
    format!("The game and its parameters: {}", ply::games::usage())
}

/// `ply-referee check`: checks the engine `command` runs and exits.
fn check_command(games: Vec<String>, timeout: u64, verbose: bool, command: &[String]) -> ! {
    let (cmd, args) = command.split_first().expect("clap requires a command");
    let cfg = CheckConfig {
        launch: Launch {
            cmd: cmd.clone(),
            args: args.to_vec(),
            dir: None,
        },
        games,
        timeout: Duration::from_millis(timeout),
        verbose,
    };
    std::process::exit(check::run(&cfg, &mut std::io::stdout()));
}

/// `ply-referee merge`: prints the report of the records in `files` and exits.
fn merge_command(mut files: Vec<PathBuf>, sprt: Vec<String>) -> ! {
    // `--sprt` takes KEY=VALUE words; a file named after them is still a file.
    let (sprt, more): (Vec<String>, Vec<String>) = sprt.into_iter().partition(|w| w.contains('='));
    files.extend(more.into_iter().map(PathBuf::from));
    let cfg = MergeConfig {
        files,
        sprt: rule(&sprt, spec::parse_sprt),
    };
    std::process::exit(merge::run(&cfg, &mut std::io::stdout()));
}

fn main() {
    env_logger::Builder::from_env(env_logger::Env::default().default_filter_or("warn")).init();
    let parse_error = |e: clap::Error| -> ! {
        use clap::error::ErrorKind;
        if matches!(e.kind(), ErrorKind::DisplayHelp | ErrorKind::DisplayVersion) {
            e.exit();
        }
        let _ = e.print();
        std::process::exit(EXIT_USAGE);
    };
    let matches = Cli::command()
        .try_get_matches()
        .unwrap_or_else(|e| parse_error(e));
    let cli = Cli::from_arg_matches(&matches).unwrap_or_else(|e| parse_error(e));
    // Each --engine occurrence is one player's group of words (clap flattens them in `cli`).
    let groups: Vec<Vec<String>> = matches
        .get_occurrences::<String>("engine")
        .map(|occ| occ.map(|o| o.cloned().collect()).collect())
        .unwrap_or_default();
    if let Some(Cmd::Merge { files, sprt }) = cli.command {
        merge_command(files, sprt);
    }
    if let Some(Cmd::Check {
        game,
        timeout,
        verbose,
        command,
    }) = cli.command
    {
        check_command(game, timeout, verbose, &command);
    }

    if groups.len() != 2 {
        usage(&format!(
            "a match needs exactly two --engine groups, got {} (see --help)",
            groups.len()
        ));
    }
    let each = cli.each;
    let mut players = Vec::new();
    for (i, words) in groups.iter().enumerate() {
        match spec::parse_player(words, &each) {
            Ok(p) => players.push(p),
            Err(e) => usage(&format!("--engine #{}: {e}", i + 1)),
        }
    }
    spec::distinct_names(&mut players);
    let Some((game, params)) = cli.game.split_first() else {
        usage(&format!(
            "--game is required ({})",
            ply::games::NAMES.join(", ")
        ));
    };
    let params = Params::parse(params.iter().map(String::as_str))
        .unwrap_or_else(|e| usage(&format!("--game: {e}")));
    let cfg = MatchConfig {
        game: game.to_ascii_lowercase(),
        params,
        players: [players[0].clone(), players[1].clone()],
        games: cli.games,
        rounds: cli.rounds,
        repeat: cli.repeat,
        concurrency: cli.concurrency,
        openings: cli.openings,
        openings_format: cli.openings_format,
        opening_plies: cli.opening_plies,
        shuffle: cli.shuffle,
        seed: cli.seed,
        random_plies: cli.random_plies,
        max_plies: cli.max_plies,
        resign: rule(&cli.resign, spec::parse_resign),
        draw: rule(&cli.draw, spec::parse_draw),
        sprt: rule(&cli.sprt, spec::parse_sprt),
        records: cli.records,
        resume: cli.resume,
        pgn: cli.pgn,
        timeouts: Timeouts {
            stall: Duration::from_millis(cli.stall_timeout),
            move_timeout: Duration::from_millis(cli.move_timeout),
            stop_grace: Duration::from_millis(cli.stop_grace),
        },
        recover: cli.recover,
        verbose: cli.verbose,
        progress: !cli.no_progress,
        rating_interval: cli.rating_interval,
        shard: cli.shard,
    };
    let code = runner::run_match(cfg, &mut std::io::stdout());
    std::process::exit(code);
}
