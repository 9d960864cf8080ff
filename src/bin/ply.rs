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
    about = about()
)]
struct Cli {
    /// Its help names the games of the registry: see [`game_help`].
    #[arg(long, value_name = "GAME", help = game_help())]
    game: Option<String>,
    /// The game's parameters, as `newgame` takes them: `ply --game connect4 width=8`.
    #[arg(value_name = "KEY=VALUE", requires = "game")]
    params: Vec<String>,
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
    Analyse(AnalyseArgs),
    /// A browser frontend: serves a page (on this machine only, unless --allow-remote) that
    /// plays, watches and analyses every game through engine processes; prints its URL.
    Gui(GuiArgs),
    /// Lists the search parameters `PLY_SEARCH_PARAMS` may set (protocol.md, Environment),
    /// one a line, tab-separated: name, the value a search of --game's game uses (with
    /// PLY_SEARCH_PARAMS's; the default without --game), default, least, greatest, a
    /// tuner's step, meaning.
    SearchParams,
    /// Runs a game's solver command (`ply solve --help` lists them, `ply solve <GAME> --help`
    /// describes one): `ply solve teeko` builds the Teeko tablebase.
    // Its own help flag would swallow `ply solve teeko --help`: the game's parser answers it.
    #[command(disable_help_flag = true)]
    Solve {
        /// The game (`ply solve --help` lists those with a command).
        #[arg(allow_hyphen_values = true)]
        game: String,
        /// Passed to the game's solver.
        #[arg(trailing_var_arg = true, allow_hyphen_values = true)]
        args: Vec<String>,
    },
}

#[derive(clap::Args)]
struct AnalyseArgs {
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
    /// Each position starts from empty tables, so that its answer does not depend on the
    /// others; clearing costs about 1 ms a position at 16 MiB: short searches run faster
    /// with --hash 4 (docs/cluster.md).
    #[arg(long, default_value_t = 16)]
    hash: usize,
    /// Write results here instead of standard output.
    #[arg(long, short)]
    output: Option<std::path::PathBuf>,
    /// Only the i-th (from 0) of N contiguous slices of the positions (the lines neither blank
    /// nor comments), numbered as in the whole input.
    #[arg(long, value_name = "i/N")]
    shard: Option<ply::shard::Shard>,
}

#[derive(clap::Args)]
struct GuiArgs {
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
    /// through the client layer's notation adapter.
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
    /// Seconds a page may leave its messages unread before it is closed (its engines end).
    #[arg(long, default_value_t = 10.0)]
    send_timeout: f64,
}

/// What `ply --help` says first, with the games of the registry.
fn about() -> String {
    format!(
        "An engine for two-player perfect-information games ({}), speaking a UCI-style protocol on stdin/stdout",
        ply::games::NAMES.join(", ")
    )
}

/// `--game`'s help, with the games of the registry.
fn game_help() -> String {
    format!(
        "Start the engine in this game ({}) instead of {}, so a client speaking plain UCI never needs `newgame`: `ply --game chess`",
        ply::games::NAMES.join(", "),
        ply::games::DEFAULT_GAME
    )
}

fn main() {
    env_logger::Builder::from_env(env_logger::Env::default().default_filter_or("warn")).init();
    let cli = Cli::parse();
    install_search_params();
    let status = match cli.command {
        None => {
            run_engine(cli.game.as_deref(), &cli.params);
            0
        }
        Some(Cmd::Bench { depth, hash }) => {
            print_out(&ply::bench::run(depth, hash.max(1), search_off()).to_string())
        }
        Some(Cmd::SearchParams) => search_params(cli.game.as_deref()),
        Some(Cmd::Analyse(args)) => analyse(&args),
        Some(Cmd::Gui(args)) => {
            run_gui(args);
            0
        }
        Some(Cmd::Solve { game, args }) => {
            run_solver(&game, &args);
            0
        }
    };
    // A table build the engine started in the background ends with the process.
    ply::solve::at_exit();
    std::process::exit(status)
}

/// The search parameters `PLY_SEARCH_PARAMS` sets (protocol.md, Environment), for every
/// search of this process; a pair that names no parameter or holds no integer is reported
/// and ignored.
fn install_search_params() {
    let Ok(text) = std::env::var("PLY_SEARCH_PARAMS") else {
        return;
    };
    let (_, rejected) = ply::search::params::SearchParams::parse(&text);
    for pair in rejected {
        log::warn!("PLY_SEARCH_PARAMS: '{pair}' is not <parameter>=<integer>; ignored");
    }
    ply::search::params::SearchParams::install(&text);
}

/// `ply search-params`: exit status 0, or 2 for a game not registered.
fn search_params(game: Option<&str>) -> i32 {
    use ply::search::params::{PARAMS, SearchParams};
    let values = match game {
        None => SearchParams::current(""),
        Some(name) => match ply::games::search_params(name) {
            Some(text) => SearchParams::current(text),
            None => {
                eprintln!(
                    "unknown game '{name}' (games: {})",
                    ply::games::NAMES.join(", ")
                );
                return 2;
            }
        },
    };
    let lines: Vec<String> = PARAMS
        .iter()
        .zip(values.to_vec())
        .map(|(p, v)| {
            format!(
                "{}\t{v}\t{}\t{}\t{}\t{}\t{}",
                p.name, p.default, p.min, p.max, p.step, p.about
            )
        })
        .collect();
    print_out(&lines.join("\n"))
}

/// Writes `text` and a newline to stdout: exit status 0, also when the reader has gone
/// (`ply bench | head`), 1 after any other write error (reported on stderr).
fn print_out(text: &str) -> i32 {
    use std::io::Write;
    let mut out = io::stdout().lock();
    match writeln!(out, "{text}").and_then(|_| out.flush()) {
        Ok(()) => 0,
        Err(e) if e.kind() == io::ErrorKind::BrokenPipe => 0,
        Err(e) => {
            eprintln!("ply: {e}");
            1
        }
    }
}

/// The search techniques `PLY_SEARCH_OFF` turns off (protocol.md, Environment); an unknown
/// name is reported and ignored.
fn search_off() -> ply::search::TechniquesOff {
    let names = std::env::var("PLY_SEARCH_OFF").unwrap_or_default();
    let (off, unknown) = ply::search::TechniquesOff::parse(&names);
    for name in unknown {
        log::warn!("PLY_SEARCH_OFF: unknown technique '{name}'");
    }
    off
}

/// The engine on stdin/stdout, started in `game` (the default game when none) with the
/// `key=value` parameters; exits 2 when they do not make a game.
fn run_engine(game: Option<&str>, params: &[String]) {
    let game = game
        .unwrap_or(ply::protocol::DEFAULT_GAME)
        .to_ascii_lowercase();
    let params = match ply::game::Params::parse(params.iter().map(String::as_str)) {
        Ok(p) => p,
        Err(e) => {
            eprintln!("ply: {e}");
            std::process::exit(2);
        }
    };
    // The engine's tables come and go with the options: keep freed ones off its RSS.
    ply::util::return_large_frees_to_the_system();
    let stdin = BufReader::new(io::stdin());
    if let Err(e) = ply::protocol::run_game(stdin, io::stdout(), &game, &params, search_off()) {
        eprintln!("ply: --game {game}: {e}");
        std::process::exit(2);
    }
}

impl AnalyseArgs {
    fn options(&self) -> ply::analyse::Options {
        let defaults = ply::analyse::Options::default();
        ply::analyse::Options {
            default_game: self.game.to_ascii_lowercase(),
            format: match self.format {
                Format::Tsv => ply::analyse::Format::Tsv,
                Format::Jsonl => ply::analyse::Format::JsonLines,
            },
            depth: self.depth,
            movetime: self.movetime.map(std::time::Duration::from_millis),
            nodes: self.nodes,
            threads: self.threads.unwrap_or(defaults.threads).max(1),
            use_solver: !self.no_solver,
            hash_mb: self.hash.max(1),
            progress: true,
            shard: self.shard,
        }
    }
}

impl GuiArgs {
    /// The server's configuration, or the `--engine` word that does not describe an engine.
    fn config(self) -> Result<ply::gui::Config, String> {
        let mut config = ply::gui::Config {
            bind: self.bind,
            port: self.port,
            allow_remote: self.allow_remote,
            allow_hosts: self.allow_hosts,
            max_pages: self.max_pages.max(1),
            engines_per_page: self.engines_per_page.max(1),
            max_engines: self.max_engines.max(1),
            // Between 0.1 s and an hour; NaN (which clap reads) leaves the default.
            send_timeout: std::time::Duration::try_from_secs_f64(
                self.send_timeout.clamp(0.1, 3600.0),
            )
            .unwrap_or(ply::gui::Config::default().send_timeout),
            ..ply::gui::Config::default()
        };
        config.bounds.max_hash_mb = self.max_hash.max(1);
        for e in &self.engines {
            let def = ply::gui::parse_engine(e).map_err(|msg| format!("--engine {e}: {msg}"))?;
            config.engines.push(def);
        }
        Ok(config)
    }
}

/// `ply gui`: exits 1 when the configuration is bad or the server fails.
fn run_gui(args: GuiArgs) {
    let open = args.open;
    if let Err(e) = args.config().and_then(|config| ply::gui::run(config, open)) {
        eprintln!("ply gui: {e}");
        std::process::exit(1);
    }
}

/// `ply solve <game> ..`: hands the arguments to the game's solver; exits 1 on its error.
fn run_solver(game: &str, args: &[String]) {
    let commands = ply::solve::commands();
    let result = match ply::solve::command(game) {
        Some(c) => (c.run)(args),
        None if matches!(game, "-h" | "--help" | "help") => {
            println!("Usage: ply solve <GAME> [ARGS]...\n");
            for (name, c) in &commands {
                let call = format!("ply solve {name} {}", c.usage);
                println!("{call:<34} {}", c.about);
            }
            println!("\n`ply solve <GAME> --help` describes each.");
            Ok(())
        }
        None => {
            let known: Vec<&str> = commands.iter().map(|(name, _)| *name).collect();
            Err(format!(
                "no solver command for '{game}' (known: {})",
                known.join(", ")
            ))
        }
    };
    if let Err(e) = result {
        eprintln!("ply solve {game}: {e}");
        std::process::exit(1);
    }
}

/// `ply analyse`: returns the exit status (0; 2 when some lines were bad; 1 on an I/O error).
fn analyse(args: &AnalyseArgs) -> i32 {
    let inputs = read_inputs(&args.files).and_then(|text| Ok((text, open_output(args)?)));
    let (text, out) = match inputs {
        Ok(io) => io,
        Err(e) => {
            eprintln!("ply analyse: {e}");
            return 1;
        }
    };
    let input: &mut dyn io::BufRead = &mut text.as_bytes();
    match ply::analyse::run(input, out, &mut io::stderr(), &args.options()) {
        Ok(summary) => {
            eprintln!("{}", analyse_summary(&summary));
            let _ = io::Write::flush(&mut io::stderr());
            if summary.bad_lines > 0 { 2 } else { 0 }
        }
        Err(e) => {
            eprintln!("ply analyse: {e}");
            1
        }
    }
}

/// The files' text one after the other (each ending with a newline), or standard input's.
fn read_inputs(files: &[std::path::PathBuf]) -> Result<String, String> {
    let mut text = String::new();
    if files.is_empty() {
        io::Read::read_to_string(&mut io::stdin(), &mut text)
            .map_err(|e| format!("standard input: {e}"))?;
        return Ok(text);
    }
    for f in files {
        let t = std::fs::read_to_string(f).map_err(|e| format!("{}: {e}", f.display()))?;
        text.push_str(&t);
        if !t.ends_with('\n') {
            text.push('\n');
        }
    }
    Ok(text)
}

fn open_output(args: &AnalyseArgs) -> Result<Box<dyn io::Write + Send>, String> {
    Ok(match &args.output {
        Some(p) => {
            let f = std::fs::File::create(p).map_err(|e| format!("{}: {e}", p.display()))?;
            Box::new(io::BufWriter::new(f))
        }
        None => Box::new(io::stdout()),
    })
}

fn analyse_summary(s: &ply::analyse::Summary) -> String {
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
    summary
}
