//! The server over real HTTP on a free port of this machine: the `Host` and
//! `Origin` checks, the static site, a closed tab's analysis, and what a
//! page is told about a session the server no longer has.

use std::io::{Read, Write};
use std::net::{SocketAddr, TcpStream};
use std::path::PathBuf;
use std::time::{Duration, Instant};

use qi_web::server::{Config, Server};
use serde_json::Value;

/// Serves `server` on a free port; the address.
async fn start(server: Server) -> SocketAddr {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    tokio::spawn(server.serve(listener, std::future::pending()));
    addr
}

/// An answer: status, headers (lower-case names) and body.
struct Answer {
    status: u16,
    headers: String,
    body: String,
}

impl Answer {
    fn json(&self) -> Value {
        serde_json::from_str(&self.body).unwrap_or_else(|e| panic!("not JSON ({e}): {}", self.body))
    }
}

/// One request with these extra header lines (`Name: value`); `Host` is
/// the server's address unless one of them sets it.
fn request(addr: SocketAddr, method: &str, path: &str, headers: &[&str], body: &str) -> Answer {
    let mut stream = TcpStream::connect(addr).unwrap();
    stream
        .set_read_timeout(Some(Duration::from_secs(8)))
        .unwrap();
    let mut head = format!("{method} {path} HTTP/1.1\r\nConnection: close\r\n");
    if !headers
        .iter()
        .any(|h| h.to_ascii_lowercase().starts_with("host:"))
    {
        head += &format!("Host: {addr}\r\n");
    }
    for h in headers {
        head += &format!("{h}\r\n");
    }
    head += &format!(
        "Content-Type: application/json\r\nContent-Length: {}\r\n\r\n",
        body.len()
    );
    stream.write_all(head.as_bytes()).unwrap();
    stream.write_all(body.as_bytes()).unwrap();
    let mut response = Vec::new();
    stream.read_to_end(&mut response).unwrap();
    let text = String::from_utf8_lossy(&response).into_owned();
    let (head, body) = text.split_once("\r\n\r\n").unwrap_or((&text, ""));
    let status = head
        .split_whitespace()
        .nth(1)
        .and_then(|s| s.parse().ok())
        .unwrap_or_else(|| panic!("no status in {head}"));
    Answer {
        status,
        headers: head.to_ascii_lowercase(),
        body: body.to_string(),
    }
}

/// The same, off the async runtime's threads.
async fn call(addr: SocketAddr, method: &str, path: &str, headers: &[&str], body: &str) -> Answer {
    let (method, path, body) = (method.to_string(), path.to_string(), body.to_string());
    let headers: Vec<String> = headers.iter().map(|h| h.to_string()).collect();
    tokio::task::spawn_blocking(move || {
        let headers: Vec<&str> = headers.iter().map(String::as_str).collect();
        request(addr, &method, &path, &headers, &body)
    })
    .await
    .unwrap()
}

async fn new_session(addr: SocketAddr) -> String {
    let answer = call(addr, "POST", "/api/sessions", &[], "{}").await;
    assert_eq!(answer.status, 201, "{}", answer.body);
    answer.json()["id"].as_str().unwrap().to_string()
}

fn code(answer: &Answer) -> String {
    answer.json()["code"]
        .as_str()
        .unwrap_or_default()
        .to_string()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_foreign_host_header_is_refused() {
    let addr = start(Server::new(Config::default())).await;
    let port = addr.port();
    for host in [
        format!("Host: evil.example:{port}"),
        "Host: evil.example".to_string(),
        format!("Host: localhost.evil.example:{port}"),
    ] {
        for path in ["/api/games", "/"] {
            let answer = call(addr, "GET", path, &[&host], "").await;
            assert_eq!(answer.status, 403, "{host} {path}: {}", answer.body);
            assert_eq!(code(&answer), "forbidden_host");
        }
    }
    for host in [
        format!("Host: 127.0.0.1:{port}"),
        format!("Host: localhost:{port}"),
    ] {
        let answer = call(addr, "GET", "/api/games", &[&host], "").await;
        assert_eq!(answer.status, 200, "{host}: {}", answer.body);
    }
    let mut guard = qi_web::server::Guard::default();
    guard.allow_host("board.example");
    let addr = start(Server::new(Config::default()).guard(guard)).await;
    let answer = call(addr, "GET", "/api/games", &["Host: board.example"], "").await;
    assert_eq!(answer.status, 200, "{}", answer.body);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_request_that_names_its_host_or_origin_twice_is_a_400() {
    let addr = start(Server::new(Config::default())).await;
    let own = format!("Host: {addr}");
    let origin = format!("Origin: http://{addr}");
    for (path, headers) in [
        ("/api/games", vec![own.as_str(), "Host: evil.example"]),
        ("/", vec![own.as_str(), "Host: evil.example"]),
        (
            "/api/games",
            vec![origin.as_str(), "Origin: http://evil.example"],
        ),
        ("http://evil.example/api/games", vec![own.as_str()]),
    ] {
        let answer = call(addr, "GET", path, &headers, "").await;
        assert_eq!(answer.status, 400, "{path} {headers:?}: {}", answer.body);
        assert_eq!(code(&answer), "bad_request");
    }
    let answer = call(addr, "GET", &format!("http://{addr}/api/games"), &[], "").await;
    assert_eq!(answer.status, 200, "{}", answer.body);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn another_origin_cannot_create_drive_or_evict_sessions() {
    let addr = start(Server::new(Config {
        max_sessions: 1,
        ..Config::default()
    }))
    .await;
    let own = format!("Origin: http://{addr}");
    let live = new_session(addr).await;
    let game = format!("/api/sessions/{live}");
    let foreign = ["Origin: http://evil.example", "Origin: null"];
    for origin in foreign {
        for (method, path, body) in [
            ("POST", "/api/sessions".to_string(), "{}"),
            ("POST", format!("{game}/play"), r#"{"move": "a3a4"}"#),
            ("POST", format!("{game}/new"), "{}"),
            ("POST", format!("{game}/analysis/start"), "{}"),
            ("DELETE", game.clone(), ""),
        ] {
            let answer = call(addr, method, &path, &[origin], body).await;
            assert_eq!(
                answer.status, 403,
                "{origin} {method} {path}: {}",
                answer.body
            );
            assert_eq!(code(&answer), "forbidden_origin");
        }
    }
    // A browser's own mark of a request from another site.
    let answer = call(
        addr,
        "POST",
        "/api/sessions",
        &["Sec-Fetch-Site: cross-site"],
        "{}",
    )
    .await;
    assert_eq!(answer.status, 403, "{}", answer.body);
    // The live game is still there (with one session kept, a new session
    // would have replaced it), unchanged.
    let answer = call(addr, "GET", &game, &[], "").await;
    assert_eq!(answer.status, 200, "{}", answer.body);
    assert_eq!(answer.json()["moves"], serde_json::json!([]));
    assert!(answer.json()["searching"].is_null());
    // Its own page's requests, and clients that send no Origin, pass.
    let answer = call(
        addr,
        "POST",
        &format!("{game}/play"),
        &[&own, "Sec-Fetch-Site: same-origin"],
        r#"{"move": "a3a4"}"#,
    )
    .await;
    assert_eq!(answer.status, 200, "{}", answer.body);
    let answer = call(
        addr,
        "POST",
        &format!("{game}/play"),
        &[],
        r#"{"move": "g7g6"}"#,
    )
    .await;
    assert_eq!(answer.status, 200, "{}", answer.body);
}

/// A directory with a small static site in it.
fn site_dir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("qi-web-site-{name}-{}", std::process::id()));
    std::fs::create_dir_all(dir.join("pkg")).unwrap();
    std::fs::write(
        dir.join("index.html"),
        "<html data-backend=\"local\">site</html>",
    )
    .unwrap();
    std::fs::write(dir.join("app.js"), "\"use strict\";").unwrap();
    std::fs::write(dir.join("pkg/qi_wasm_bg.wasm"), b"\0asm\x01\0\0\0").unwrap();
    dir
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_static_site_is_served_and_the_api_only_when_asked() {
    let dir = site_dir("plain");
    let addr = start(Server::new(Config::default()).site(&dir)).await;
    let answer = call(addr, "GET", "/", &[], "").await;
    assert_eq!(answer.status, 200);
    assert!(
        answer.body.contains("data-backend=\"local\""),
        "{}",
        answer.body
    );
    assert!(
        answer.headers.contains("content-type: text/html"),
        "{}",
        answer.headers
    );
    let answer = call(addr, "GET", "/pkg/qi_wasm_bg.wasm", &[], "").await;
    assert_eq!(answer.status, 200);
    assert!(
        answer.headers.contains("content-type: application/wasm"),
        "{}",
        answer.headers
    );
    let answer = call(addr, "GET", "/app.js", &[], "").await;
    assert!(
        answer.headers.contains("content-type: text/javascript"),
        "{}",
        answer.headers
    );
    // Nothing outside the directory, and no API.
    for path in ["/../Cargo.toml", "/%2e%2e/Cargo.toml", "/nothing.js"] {
        let answer = call(addr, "GET", path, &[], "").await;
        assert_eq!(answer.status, 404, "{path}");
    }
    let answer = call(addr, "POST", "/api/sessions", &[], "{}").await;
    assert!(matches!(answer.status, 404 | 405), "{}", answer.body);
    // With the API: the site and the sessions, the checks on both.
    let addr = start(Server::new(Config::default()).site(&dir).api(true)).await;
    let answer = call(addr, "GET", "/", &[], "").await;
    assert!(answer.body.contains("site"));
    new_session(addr).await;
    let answer = call(
        addr,
        "POST",
        "/api/sessions",
        &["Origin: http://evil.example"],
        "{}",
    )
    .await;
    assert_eq!(answer.status, 403);
    let answer = call(addr, "GET", "/", &["Host: evil.example"], "").await;
    assert_eq!(answer.status, 403);
    std::fs::remove_dir_all(dir).unwrap();
}

/// Opens the session's event stream and reads its head; the open stream.
fn open_events(addr: SocketAddr, id: &str) -> TcpStream {
    let mut stream = TcpStream::connect(addr).unwrap();
    stream
        .set_read_timeout(Some(Duration::from_secs(10)))
        .unwrap();
    write!(
        stream,
        "GET /api/sessions/{id}/events HTTP/1.1\r\nHost: {addr}\r\nAccept: text/event-stream\r\n\r\n"
    )
    .unwrap();
    let mut head = Vec::new();
    let mut byte = [0u8];
    while !head.ends_with(b"\r\n\r\n") {
        stream.read_exact(&mut byte).unwrap();
        head.push(byte[0]);
    }
    assert!(String::from_utf8_lossy(&head).contains("200"));
    stream
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn closed_tabs_stop_their_analyses_and_free_the_engine() {
    let grace = Duration::from_millis(300);
    let addr = start(Server::new(Config {
        max_searches: 4,
        orphan_grace: grace,
        ..Config::default()
    }))
    .await;
    // Four tabs, each listening and analysing (ten minutes by default).
    let mut tabs = Vec::new();
    for _ in 0..4 {
        let id = new_session(addr).await;
        let stream = tokio::task::spawn_blocking({
            let id = id.clone();
            move || open_events(addr, &id)
        })
        .await
        .unwrap();
        let answer = call(
            addr,
            "POST",
            &format!("/api/sessions/{id}/analysis/start"),
            &[],
            "{}",
        )
        .await;
        assert_eq!(answer.status, 202, "{}", answer.body);
        tabs.push((id, stream));
    }
    let fifth = new_session(addr).await;
    let engine = format!("/api/sessions/{fifth}/engine");
    let answer = call(addr, "POST", &engine, &[], r#"{"movetime_ms": 50}"#).await;
    assert_eq!(answer.status, 503, "every slot is taken: {}", answer.body);
    // A reload: the stream closes and another opens at once; the analysis
    // goes on.
    let (id, stream) = tabs.pop().unwrap();
    drop(stream);
    let reloaded = tokio::task::spawn_blocking({
        let id = id.clone();
        move || open_events(addr, &id)
    })
    .await
    .unwrap();
    // The other three tabs are closed.
    let closed: Vec<String> = tabs
        .drain(..)
        .map(|(id, stream)| {
            drop(stream);
            id
        })
        .collect();
    tokio::time::sleep(grace * 3 + Duration::from_secs(2)).await;
    for id in &closed {
        let answer = call(addr, "GET", &format!("/api/sessions/{id}"), &[], "").await;
        assert!(
            answer.json()["searching"].is_null(),
            "{id}'s analysis stopped"
        );
    }
    let answer = call(addr, "GET", &format!("/api/sessions/{id}"), &[], "").await;
    assert_eq!(
        answer.json()["searching"],
        "analysis",
        "the reloaded tab's goes on"
    );
    let answer = call(addr, "POST", &engine, &[], r#"{"movetime_ms": 50}"#).await;
    assert_eq!(
        answer.status, 200,
        "the fifth tab's engine answers: {}",
        answer.body
    );
    assert_eq!(answer.json()["moves"].as_array().unwrap().len(), 1);
    // (The test's runtime waits for the search threads when it ends.)
    let answer = call(
        addr,
        "POST",
        &format!("/api/sessions/{id}/analysis/stop"),
        &[],
        "",
    )
    .await;
    assert_eq!(answer.status, 200);
    drop(reloaded);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_session_the_server_lost_says_why() {
    let before = start(Server::new(Config::default())).await;
    let id = new_session(before).await;
    // The same page after a restart: another server run.
    let after = start(Server::new(Config::default())).await;
    let started = Instant::now();
    let answer = call(after, "GET", &format!("/api/sessions/{id}"), &[], "").await;
    assert_eq!(answer.status, 404);
    assert_eq!(code(&answer), "server_restarted", "{}", answer.body);
    assert!(answer.json()["error"]
        .as_str()
        .unwrap()
        .contains("restarted"));
    for (action, body) in [
        ("/play", r#"{"move": "a3a4"}"#),
        ("/engine", "{}"),
        ("/analysis/start", "{}"),
    ] {
        let answer = call(
            after,
            "POST",
            &format!("/api/sessions/{id}{action}"),
            &[],
            body,
        )
        .await;
        assert_eq!(code(&answer), "server_restarted", "{action}");
    }
    // A session this run made and lost.
    let answer = call(before, "DELETE", &format!("/api/sessions/{id}"), &[], "").await;
    assert_eq!(answer.status, 204);
    let answer = call(before, "GET", &format!("/api/sessions/{id}"), &[], "").await;
    assert_eq!(code(&answer), "session_ended", "{}", answer.body);
    let answer = call(before, "GET", "/api/sessions/nonsense", &[], "").await;
    assert_eq!(code(&answer), "unknown_session", "{}", answer.body);
    assert!(started.elapsed() < Duration::from_secs(20));
}
