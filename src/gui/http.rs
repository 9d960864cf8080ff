//! The routes: the page's files (embedded in the binary), the WebSocket, and the checks in
//! front of both.
//!
//! **Host.** Every request must name this server in its `Host` header: `localhost` or an IP
//! literal (or a name given with `--allow-host`), with the port it listens on. A web site
//! that points its own name at 127.0.0.1 (DNS rebinding) sends its own name, and is refused.
//!
//! **Origin.** The WebSocket must come from the page this server served: its `Origin` must
//! be `http://` followed by the request's `Host`. Browsers always send `Origin` on a
//! WebSocket request and scripts cannot forge it, so no other site can drive the engines.

use std::sync::Arc;
use std::sync::atomic::Ordering;

use axum::Router;
use axum::extract::{Request, State, WebSocketUpgrade};
use axum::http::{HeaderMap, HeaderValue, StatusCode, header};
use axum::middleware::{self, Next};
use axum::response::{IntoResponse, Response};
use axum::routing::get;

use super::{Server, session};

/// One of the page's scripts, `page/js/<path>`, served as `/js/<path>`.
macro_rules! script {
    ($path:literal) => {
        (
            concat!("/js/", $path),
            "text/javascript; charset=utf-8",
            include_str!(concat!("page/js/", $path)),
        )
    };
}

/// The page's files: path, content type, content. The scripts are ES modules (`main.js`
/// imports the others); `boards/registry.js` lists a board module for each game.
pub const FILES: &[(&str, &str, &str)] = &[
    (
        "/",
        "text/html; charset=utf-8",
        include_str!("page/index.html"),
    ),
    (
        "/style.css",
        "text/css; charset=utf-8",
        include_str!("page/style.css"),
    ),
    (
        "/favicon.svg",
        "image/svg+xml",
        include_str!("page/favicon.svg"),
    ),
    script!("main.js"),
    script!("net.js"),
    script!("info.js"),
    script!("state.js"),
    script!("play.js"),
    script!("clock.js"),
    script!("newgame.js"),
    script!("form.js"),
    script!("records.js"),
    script!("ui.js"),
    script!("lines.js"),
    script!("boards/registry.js"),
    script!("boards/svg.js"),
    script!("boards/pieces.js"),
    script!("boards/tictactoe.js"),
    script!("boards/connect4.js"),
    script!("boards/nim.js"),
    script!("boards/teeko.js"),
    script!("boards/chess.js"),
    script!("boards/checkers.js"),
];

/// Frames and messages larger than this close the connection (code 1009); smaller ones over
/// the configured message limit are refused with an error and the connection goes on.
const HARD_MESSAGE_LIMIT: usize = 1 << 20;

pub fn router(server: Arc<Server>) -> Router {
    let mut router = Router::new().route("/ws", get(websocket));
    for &(path, mime, body) in FILES {
        router = router.route(path, get(move || async move { file(mime, body) }));
    }
    router
        .fallback(|| async { (StatusCode::NOT_FOUND, "not found\n") })
        .layer(middleware::from_fn_with_state(server.clone(), check_host))
        .with_state(server)
}

fn file(mime: &'static str, body: &'static str) -> Response {
    let mut r = body.into_response();
    let h = r.headers_mut();
    h.insert(header::CONTENT_TYPE, HeaderValue::from_static(mime));
    h.insert(
        header::CONTENT_SECURITY_POLICY,
        HeaderValue::from_static(
            "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data: blob:; \
             connect-src 'self'; form-action 'none'; frame-ancestors 'none'; base-uri 'none'",
        ),
    );
    h.insert(
        header::X_CONTENT_TYPE_OPTIONS,
        HeaderValue::from_static("nosniff"),
    );
    h.insert(
        header::REFERRER_POLICY,
        HeaderValue::from_static("no-referrer"),
    );
    h.insert(header::CACHE_CONTROL, HeaderValue::from_static("no-cache"));
    r
}

/// Whether `host` (a `Host` header) names this server: `localhost`, an IP literal, or an
/// allowed name, and our port (or none, meaning 80).
pub fn host_allowed(host: &str, port: u16, allowed: &[String]) -> bool {
    let (name, given_port) = match host.rsplit_once(':') {
        // `[::1]:7878`, `127.0.0.1:7878`, `localhost:7878`; a bare IPv6 literal has colons
        // but no brackets, so it is only valid in brackets.
        Some((n, p)) if !n.is_empty() && (n.starts_with('[') || !n.contains(':')) => {
            match p.parse::<u16>() {
                Ok(p) => (n, Some(p)),
                Err(_) => return false,
            }
        }
        Some(_) => return false,
        None => (host, None),
    };
    if given_port.unwrap_or(80) != port {
        return false;
    }
    let name = name.to_ascii_lowercase();
    let ip_literal = match name.strip_prefix('[').and_then(|n| n.strip_suffix(']')) {
        Some(v6) => v6.parse::<std::net::Ipv6Addr>().is_ok(),
        None => name.parse::<std::net::Ipv4Addr>().is_ok(),
    };
    ip_literal || name == "localhost" || allowed.iter().any(|a| a.eq_ignore_ascii_case(&name))
}

async fn check_host(State(server): State<Arc<Server>>, req: Request, next: Next) -> Response {
    let host = req
        .headers()
        .get(header::HOST)
        .and_then(|h| h.to_str().ok())
        .unwrap_or("");
    if !host_allowed(host, server.port, &server.config.allow_hosts) {
        log::info!("refused a request for Host '{host}'");
        return (
            StatusCode::MISDIRECTED_REQUEST,
            format!(
                "this ply gui server answers only for localhost or its IP address on port {} \
                 (Host '{host}' refused; see --allow-host)\n",
                server.port
            ),
        )
            .into_response();
    }
    next.run(req).await
}

/// The `Origin` check of the WebSocket: same origin as the page.
pub fn origin_allowed(headers: &HeaderMap) -> bool {
    let host = headers.get(header::HOST).and_then(|h| h.to_str().ok());
    let origin = headers.get(header::ORIGIN).and_then(|h| h.to_str().ok());
    match (host, origin) {
        (Some(h), Some(o)) => o
            .strip_prefix("http://")
            .is_some_and(|rest| rest.eq_ignore_ascii_case(h)),
        _ => false,
    }
}

async fn websocket(
    State(server): State<Arc<Server>>,
    headers: HeaderMap,
    ws: WebSocketUpgrade,
) -> Response {
    if !origin_allowed(&headers) {
        let origin = headers
            .get(header::ORIGIN)
            .and_then(|h| h.to_str().ok())
            .unwrap_or("(none)");
        log::info!("refused a WebSocket from origin {origin}");
        return (
            StatusCode::FORBIDDEN,
            format!("WebSocket refused: origin {origin} is not this server's page\n"),
        )
            .into_response();
    }
    ws.max_message_size(HARD_MESSAGE_LIMIT)
        .max_frame_size(HARD_MESSAGE_LIMIT)
        .on_upgrade(move |socket| async move {
            let max = server.config.max_pages;
            let taken = server
                .pages
                .fetch_update(Ordering::SeqCst, Ordering::SeqCst, |n| {
                    (n < max).then_some(n + 1)
                });
            if taken.is_err() {
                session::refuse(
                    socket,
                    format!(
                        "this ply gui serves at most {max} pages at once, and as many are open"
                    ),
                    server.config.send_timeout,
                )
                .await;
                return;
            }
            session::run(socket, server.clone()).await;
            server.pages.fetch_sub(1, Ordering::SeqCst);
        })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every file under `page/` is served (a module the registry imports cannot be missing),
    /// and every game ply plays has a board: a module `boards/<game>.js` that the registry
    /// imports and lists.
    #[test]
    fn every_page_file_is_served_and_every_game_has_a_board() {
        fn files(dir: &std::path::Path, out: &mut Vec<String>) {
            for e in std::fs::read_dir(dir).unwrap() {
                let p = e.unwrap().path();
                if p.is_dir() {
                    files(&p, out);
                } else {
                    out.push(p.to_string_lossy().into_owned());
                }
            }
        }
        let root = concat!(env!("CARGO_MANIFEST_DIR"), "/src/gui/page");
        let mut on_disk = Vec::new();
        files(std::path::Path::new(root), &mut on_disk);
        for f in on_disk {
            let served = match f.strip_prefix(root).unwrap() {
                "/index.html" => "/".to_string(),
                rest => rest.to_string(),
            };
            assert!(
                FILES.iter().any(|(p, _, _)| *p == served),
                "{served} is not served"
            );
        }
        let registry = FILES
            .iter()
            .find(|(p, _, _)| *p == "/js/boards/registry.js")
            .unwrap()
            .2;
        for game in crate::games::NAMES {
            let module = format!("/js/boards/{game}.js");
            assert!(
                FILES.iter().any(|(p, _, _)| *p == module),
                "{game} has no board: add src/gui/page/js/boards/{game}.js (docs/gui.md, \"Adding a board\")"
            );
            let listed = registry
                .lines()
                .find(|l| l.starts_with("export const BOARDS"))
                .is_some_and(|l| l.split(|c: char| !c.is_alphanumeric()).any(|w| w == *game));
            assert!(
                registry.contains(&format!("import {game} from './{game}.js';")) && listed,
                "boards/registry.js does not import and list {game}"
            );
        }
    }

    #[test]
    fn hosts() {
        let none: Vec<String> = Vec::new();
        for ok in [
            "localhost:7878",
            "127.0.0.1:7878",
            "[::1]:7878",
            "LOCALHOST:7878",
            "192.168.1.5:7878",
        ] {
            assert!(host_allowed(ok, 7878, &none), "{ok}");
        }
        for bad in [
            "evil.example:7878",
            "localhost:80",
            "localhost",
            "127.0.0.1:7879",
            "::1:7878",
            "",
            "localhost:x",
            "127.0.0.1.evil.example:7878",
        ] {
            assert!(!host_allowed(bad, 7878, &none), "{bad}");
        }
        assert!(host_allowed("localhost", 80, &none));
        assert!(host_allowed("box.lan:7878", 7878, &["box.lan".into()]));
    }

    #[test]
    fn origins() {
        let mut h = HeaderMap::new();
        h.insert(header::HOST, HeaderValue::from_static("127.0.0.1:7878"));
        assert!(!origin_allowed(&h));
        h.insert(
            header::ORIGIN,
            HeaderValue::from_static("http://127.0.0.1:7878"),
        );
        assert!(origin_allowed(&h));
        h.insert(
            header::ORIGIN,
            HeaderValue::from_static("http://evil.example"),
        );
        assert!(!origin_allowed(&h));
        h.insert(header::ORIGIN, HeaderValue::from_static("null"));
        assert!(!origin_allowed(&h));
    }
}
