//! `qi serve` end to end: it prints its address, answers HTTP, stops
//! cleanly on Ctrl-C (SIGINT) with a search running, and reports a port
//! it cannot bind on one line with exit code 2.

use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

const QI: &str = env!("CARGO_BIN_EXE_qi");

/// Starts `qi serve --port 0` and returns it with the address it printed.
fn serve() -> (Child, String, BufReader<std::process::ChildStdout>) {
    serve_with(&[])
}

/// The same with more arguments.
fn serve_with(args: &[&str]) -> (Child, String, BufReader<std::process::ChildStdout>) {
    let mut child = Command::new(QI)
        .args(["serve", "--port", "0"])
        .args(args)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("qi runs");
    let mut out = BufReader::new(child.stdout.take().unwrap());
    let mut line = String::new();
    out.read_line(&mut line).unwrap();
    let addr = line
        .split("http://")
        .nth(1)
        .and_then(|rest| rest.split('/').next())
        .unwrap_or_else(|| panic!("no address in {line:?}"))
        .to_string();
    assert!(
        addr.starts_with("127.0.0.1:"),
        "binds 127.0.0.1 by default: {addr}"
    );
    (child, addr, out)
}

/// One HTTP/1.0 request; the status line and the body.
fn http(addr: &str, method: &str, path: &str, body: &str) -> (String, String) {
    let mut stream = TcpStream::connect(addr).unwrap();
    stream
        .set_read_timeout(Some(Duration::from_secs(20)))
        .unwrap();
    write!(
        stream,
        "{method} {path} HTTP/1.0\r\nHost: {addr}\r\nContent-Type: application/json\r\nContent-Length: {}\r\n\r\n{body}",
        body.len()
    )
    .unwrap();
    let mut response = String::new();
    stream.read_to_string(&mut response).unwrap();
    let status = response.lines().next().unwrap_or_default().to_string();
    let body = response
        .split("\r\n\r\n")
        .nth(1)
        .unwrap_or_default()
        .to_string();
    (status, body)
}

fn wait(child: &mut Child, limit: Duration) -> Option<std::process::ExitStatus> {
    let start = Instant::now();
    while start.elapsed() < limit {
        if let Some(status) = child.try_wait().unwrap() {
            return Some(status);
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    None
}

#[cfg(unix)]
#[test]
fn serves_the_page_and_stops_on_ctrl_c_during_a_search() {
    use nix::sys::signal::{kill, Signal};
    use nix::unistd::Pid;

    let (mut child, addr, mut out) = serve();
    let (status, page) = http(&addr, "GET", "/", "");
    assert!(status.contains("200"), "{status}");
    assert!(page.contains("<script type=\"module\" src=\"main.js\""));
    let (status, body) = http(&addr, "GET", "/api/games", "");
    assert!(status.contains("200"), "{status}");
    assert!(body.contains("five-tigers:ten"));
    let (status, body) = http(
        &addr,
        "POST",
        "/api/sessions",
        "{\"spec\": \"five-tigers\"}",
    );
    assert!(status.contains("201"), "{status} {body}");
    let id = body
        .split("\"id\":\"")
        .nth(1)
        .and_then(|s| s.split('"').next())
        .unwrap()
        .to_string();
    let (status, body) = http(
        &addr,
        "POST",
        &format!("/api/sessions/{id}/analysis/start"),
        "",
    );
    assert!(status.contains("202"), "{status} {body}");
    let (status, body) = http(
        &addr,
        "POST",
        &format!("/api/sessions/{id}/play"),
        "{\"move\": 1}",
    );
    assert!(status.contains("400"), "{status}");
    assert!(body.starts_with("{\"error\":"), "{body}");

    kill(Pid::from_raw(child.id() as i32), Signal::SIGINT).unwrap();
    let exit = wait(&mut child, Duration::from_secs(10));
    if exit.is_none() {
        let _ = child.kill();
    }
    let exit = exit.expect("qi serve stops within 10 s of Ctrl-C");
    assert!(exit.success(), "{exit}");
    let mut rest = String::new();
    out.read_to_string(&mut rest).unwrap();
    assert_eq!(rest, "qi serve: stopped\n");
}

#[test]
fn a_port_in_use_is_one_line_and_exit_code_2() {
    let (mut child, addr, _out) = serve();
    let port = addr.rsplit(':').next().unwrap();
    let out = Command::new(QI)
        .args(["serve", "--port", port])
        .output()
        .expect("qi runs");
    let _ = child.kill();
    let _ = child.wait();
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(
        err.starts_with("qi: error: cannot serve on 127.0.0.1:"),
        "{err}"
    );
    assert!(out.stdout.is_empty());
}

#[test]
fn serves_a_static_site_with_the_api_only_when_asked() {
    let dir = std::env::temp_dir().join(format!("qi-serve-site-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let site = dir.to_str().unwrap();
    // No index.html: one line, exit code 2.
    let out = Command::new(QI)
        .args(["serve", "--port", "0", "--site", site])
        .output()
        .expect("qi runs");
    assert_eq!(out.status.code(), Some(2));
    assert!(
        String::from_utf8_lossy(&out.stderr).contains("no index.html"),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    std::fs::write(
        dir.join("index.html"),
        "<html data-backend=\"local\">the site</html>",
    )
    .unwrap();
    for (args, api) in [
        (vec!["--site", site], false),
        (vec!["--site", site, "--api"], true),
    ] {
        let (mut child, addr, _out) = serve_with(&args);
        let (status, page) = http(&addr, "GET", "/", "");
        assert!(status.contains("200"), "{status}");
        assert!(page.contains("the site"), "{page}");
        let (status, _) = http(&addr, "POST", "/api/sessions", "{}");
        assert_eq!(status.contains("201"), api, "{args:?}: {status}");
        let _ = child.kill();
        let _ = child.wait();
    }
    std::fs::remove_dir_all(dir).unwrap();
}
