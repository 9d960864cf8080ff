//! `ply gui`: a local web server and one page that plays, watches and analyses every game
//! ply has, by speaking the line protocol (protocol.md) to engine processes.
//!
//! The page (`page/`: HTML, a style sheet and ES modules, embedded in the binary) is the
//! protocol client: it sends `newgame`, `position`, `go` and `stop` lines and reads `info` and
//! `bestmove` lines. It holds no rules: it asks the server's ([`ask`]: legal moves, notation,
//! why a game ended, move values, PGN). The server only starts the engines the command line
//! named (each offered for the games it declares, [`probe`]), checks each line against a short
//! list of commands ([`adapter`]), and relays lines over one WebSocket per page ([`session`]);
//! engines end when their page goes away.
//!
//! - [`http`]: the routes, the embedded files, and the `Host`/`Origin` checks that keep other
//!   web sites (and DNS rebinding) away from the server;
//! - [`session`]: one page's WebSocket, its message format and bounds;
//! - [`ask`]: the rules' answers to the page;
//! - [`probe`]: the games each engine declares, asked at start;
//! - [`engine`]: one engine process as a task (started, hand-shaken and set up by the client
//!   layer, [`crate::client`]);
//! - [`adapter`]: the command list, and the translation for UCI and Fairy-Stockfish engines;
//! - [`rules`]: ply's rules behind a trait object, for the adapter.
//!
//! The stack is axum on tokio: one task per page and per engine, `select!` over the socket,
//! the engines' lines and a ping timer, and child processes killed when their task is
//! dropped. A synchronous server (tungstenite on threads) would have to poll, since one
//! WebSocket cannot be read and written from two threads at once.

pub mod adapter;
pub mod ask;
pub mod engine;
pub mod http;
pub mod probe;
pub mod rules;
pub mod session;

use std::net::{IpAddr, SocketAddr};
use std::path::PathBuf;
use std::sync::Arc;
use std::sync::atomic::AtomicUsize;

use crate::client::{Dialect, EngineSpec, fsf};
use adapter::OptionBounds;
use engine::ProcessCount;

/// ply itself, the program running the server: the engine every page may start.
pub fn ply_engine() -> EngineSpec {
    let exe = std::env::current_exe().unwrap_or_else(|_| PathBuf::from("ply"));
    EngineSpec {
        name: "ply".into(),
        dialect: Dialect::Ply,
        ..EngineSpec::new(&exe.to_string_lossy())
    }
}

/// Reads an `--engine` description, `name=fsf,cmd=/usr/games/fairy-stockfish,proto=fsf,
/// option.Hash=64`: the client layer's engine words, separated by commas (so a value cannot
/// contain a comma).
pub fn parse_engine(text: &str) -> Result<EngineSpec, String> {
    EngineSpec::parse(text.split(',').filter(|p| !p.is_empty()))
}

/// Everything `ply gui` was started with.
#[derive(Clone, Debug)]
pub struct Config {
    pub bind: IpAddr,
    pub port: u16,
    /// Serve on an address beyond loopback (the command line's explicit consent).
    pub allow_remote: bool,
    /// Host names accepted besides `localhost` and IP literals.
    pub allow_hosts: Vec<String>,
    /// ply first, then the `--engine`s.
    pub engines: Vec<EngineSpec>,
    pub max_pages: usize,
    pub engines_per_page: usize,
    pub max_engines: usize,
    pub max_message: usize,
    /// How long a message to a page may wait to be sent before the page is taken to have
    /// stopped reading and is closed.
    pub send_timeout: std::time::Duration,
    pub messages_per_second: u32,
    pub bounds: OptionBounds,
}

impl Default for Config {
    fn default() -> Config {
        Config {
            bind: IpAddr::from([127, 0, 0, 1]),
            port: DEFAULT_PORT,
            allow_remote: false,
            allow_hosts: Vec::new(),
            engines: vec![ply_engine()],
            max_pages: 8,
            engines_per_page: 5,
            max_engines: 16,
            max_message: 64 * 1024,
            send_timeout: std::time::Duration::from_secs(10),
            messages_per_second: 200,
            bounds: OptionBounds {
                max_hash_mb: 256,
                max_threads: std::thread::available_parallelism().map_or(1, |n| n.get()) as u64,
            },
        }
    }
}

pub const DEFAULT_PORT: u16 = 7878;

/// The running server's shared state.
pub struct Server {
    pub config: Config,
    pub port: u16,
    pub pages: AtomicUsize,
    pub processes: Arc<ProcessCount>,
    /// Fairy-Stockfish's variants file, written at start when an engine may need it.
    pub variants_file: Option<PathBuf>,
    /// The games each engine of `config.engines` declares (see [`probe`]).
    pub declared: Vec<probe::Declared>,
}

impl Server {
    /// The games the engine named `name` declares (none for an unknown name).
    pub fn games_of(&self, name: &str) -> &[&'static str] {
        self.config
            .engines
            .iter()
            .position(|e| e.name == name)
            .map_or(&[], |i| &self.declared[i].games)
    }
}

/// Asks every engine but ply itself (the first) which games it declares, all at once.
async fn probe_engines(
    config: &Config,
    variants_file: Option<&std::path::Path>,
) -> Vec<probe::Declared> {
    let mut tasks = tokio::task::JoinSet::new();
    for (i, def) in config.engines.iter().enumerate().skip(1) {
        let (def, file) = (def.clone(), variants_file.map(|f| f.to_path_buf()));
        tasks.spawn(async move { (i, probe::declared(&def, file.as_deref()).await) });
    }
    let mut out = vec![probe::Declared::default(); config.engines.len()];
    out[0].games = crate::games::NAMES.to_vec();
    while let Some(Ok((i, d))) = tasks.join_next().await {
        if let Some(note) = &d.note {
            eprintln!("ply gui: warning: {note}; the page offers it for no game");
        }
        out[i] = d;
    }
    out
}

/// Checks the configuration, binds, prints the URL and serves until Ctrl-C or SIGTERM.
pub fn run(config: Config, open: bool) -> Result<(), String> {
    let mut names = std::collections::HashSet::new();
    for e in &config.engines {
        if !names.insert(e.name.clone()) {
            return Err(format!(
                "two engines are named '{}'; give each a distinct name=",
                e.name
            ));
        }
    }
    if !config.bind.is_loopback() && !config.allow_remote {
        return Err(format!(
            "--bind {} serves beyond this machine: anyone who can reach it can start engines \
             here; add --allow-remote if that is what you want",
            config.bind
        ));
    }
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .map_err(|e| format!("cannot start the runtime: {e}"))?;
    runtime.block_on(serve(config, open))
}

async fn serve(config: Config, open: bool) -> Result<(), String> {
    let addr = SocketAddr::new(config.bind, config.port);
    let listener = tokio::net::TcpListener::bind(addr)
        .await
        .map_err(|e| format!("cannot listen on {addr}: {e} (choose another with --port)"))?;
    let port = listener
        .local_addr()
        .map_err(|e| format!("cannot read the bound address: {e}"))?
        .port();
    let variants_file = write_variants_file(&config);
    let declared = probe_engines(&config, variants_file.as_deref()).await;
    let url = match config.bind {
        IpAddr::V6(a) => format!("http://[{a}]:{port}/"),
        IpAddr::V4(a) if a.is_unspecified() => format!("http://127.0.0.1:{port}/"),
        a => format!("http://{a}:{port}/"),
    };
    if !config.bind.is_loopback() {
        eprintln!(
            "ply gui: warning: serving on {} beyond loopback: anyone who reaches this port can \
             start the engines below",
            config.bind
        );
    }
    let names: Vec<&str> = config.engines.iter().map(|e| e.name.as_str()).collect();
    println!("ply gui: {url}");
    eprintln!(
        "ply gui: engines: {}; Ctrl-C stops the server",
        names.join(", ")
    );
    use std::io::Write;
    let _ = std::io::stdout().flush();
    if open {
        open_browser(&url);
    }
    let server = Arc::new(Server {
        processes: ProcessCount::new(config.max_engines),
        config,
        port,
        pages: AtomicUsize::new(0),
        variants_file: variants_file.clone(),
        declared,
    });
    let app = http::router(server);
    let result = axum::serve(listener, app)
        .with_graceful_shutdown(shutdown_signal())
        .await
        .map_err(|e| format!("server error: {e}"));
    if variants_file.is_some() {
        fsf::remove_variants_file();
    }
    result
}

/// Fairy-Stockfish needs ply's variants file on disk; it is written once per server.
fn write_variants_file(config: &Config) -> Option<PathBuf> {
    if !config
        .engines
        .iter()
        .any(|e| matches!(e.dialect, Dialect::Fsf | Dialect::Auto))
    {
        return None;
    }
    match fsf::variants_file() {
        Ok(path) => Some(path),
        Err(e) => {
            eprintln!("ply gui: {e}; Fairy-Stockfish will not know ply's games");
            None
        }
    }
}

async fn shutdown_signal() {
    #[cfg(unix)]
    {
        let mut term =
            tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate()).ok();
        tokio::select! {
            _ = tokio::signal::ctrl_c() => {}
            _ = async {
                match term.as_mut() {
                    Some(t) => { t.recv().await; }
                    None => std::future::pending::<()>().await,
                }
            } => {}
        }
    }
    #[cfg(not(unix))]
    let _ = tokio::signal::ctrl_c().await;
    eprintln!("ply gui: stopping");
}

/// Opens `url` in the desktop's browser, or says how to.
fn open_browser(url: &str) {
    let (program, args): (&str, Vec<&str>) = if cfg!(target_os = "macos") {
        ("open", vec![url])
    } else if cfg!(windows) {
        ("cmd", vec!["/C", "start", "", url])
    } else {
        ("xdg-open", vec![url])
    };
    let spawned = std::process::Command::new(program)
        .args(&args)
        .stdin(std::process::Stdio::null())
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn();
    if let Err(e) = spawned {
        eprintln!("ply gui: cannot open a browser ({program}: {e}); open {url} yourself");
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn engine_descriptions() {
        let d = parse_engine(
            "name=fsf,cmd=/usr/games/fairy-stockfish,proto=fsf,option.Hash=32,arg=-q,arg=x",
        )
        .unwrap();
        assert_eq!(d.name, "fsf");
        assert_eq!(d.launch.cmd, "/usr/games/fairy-stockfish");
        assert_eq!(d.dialect, Dialect::Fsf);
        assert_eq!(d.options, vec![("Hash".to_string(), "32".to_string())]);
        assert_eq!(d.launch.args, vec!["-q", "x"]);
        assert_eq!(
            parse_engine("cmd=/opt/sf/stockfish").unwrap().name,
            "stockfish"
        );
        assert!(parse_engine("name=x").unwrap_err().contains("cmd="));
        assert!(
            parse_engine("cmd=a,colour=red")
                .unwrap_err()
                .contains("unknown key")
        );
        assert!(parse_engine("cmd=a,proto=xboard").is_err());
    }

    #[test]
    fn beyond_loopback_needs_consent() {
        let c = Config {
            bind: IpAddr::from([0, 0, 0, 0]),
            ..Config::default()
        };
        assert!(run(c, false).unwrap_err().contains("--allow-remote"));
    }
}
