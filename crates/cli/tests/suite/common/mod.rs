//! A `qi` engine process driven line by line, for the end-to-end tests.
#![allow(dead_code)] // each test file uses its own part

use std::io::{BufRead, BufReader, Write};
use std::path::PathBuf;
use std::process::{Child, Command, Stdio};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::time::{Duration, Instant};

/// Free ports of 127.0.0.1 for a cluster's processes: the loopback
/// tests of `qi-tablebase` pick theirs the same way.
#[path = "../../../../tablebase/tests/suite/common/ports.rs"]
pub mod ports;

/// The binary under test.
pub const QI: &str = env!("CARGO_BIN_EXE_qi");

/// A running `qi` with piped stdin and stdout.
pub struct Engine {
    pub child: Child,
    lines: Receiver<String>,
}

impl Engine {
    /// `qi engine` with `args`.
    pub fn start(args: &[&str]) -> Engine {
        let mut argv = vec!["engine"];
        argv.extend_from_slice(args);
        Engine::spawn(Command::new(QI).args(argv))
    }

    /// The process `command` describes, its stdin and stdout piped.
    pub fn spawn(command: &mut Command) -> Engine {
        let mut child = command
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .spawn()
            .expect("engine starts");
        let stdout = child.stdout.take().unwrap();
        let (tx, lines) = mpsc::channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines().map_while(Result::ok) {
                if tx.send(line).is_err() {
                    break;
                }
            }
        });
        Engine { child, lines }
    }

    pub fn send(&mut self, line: &str) {
        self.send_bytes(format!("{line}\n").as_bytes());
    }

    pub fn send_bytes(&mut self, bytes: &[u8]) {
        let stdin = self.child.stdin.as_mut().unwrap();
        stdin.write_all(bytes).unwrap();
        stdin.flush().unwrap();
    }

    /// Lines up to and including the first that starts with `prefix`,
    /// within `limit`.
    pub fn until_within(&mut self, prefix: &str, limit: Duration) -> Vec<String> {
        let deadline = Instant::now() + limit;
        let mut seen = Vec::new();
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            let line = self
                .lines
                .recv_timeout(left)
                .unwrap_or_else(|_| panic!("no '{prefix}' within {limit:?} after {seen:?}"));
            let done = line.starts_with(prefix);
            seen.push(line);
            if done {
                return seen;
            }
        }
    }

    /// [`Engine::until_within`] 30 seconds.
    pub fn until(&mut self, prefix: &str) -> Vec<String> {
        self.until_within(prefix, Duration::from_secs(30))
    }

    /// Asserts that no line comes within `wait`.
    pub fn silent_for(&mut self, wait: Duration) {
        match self.lines.recv_timeout(wait) {
            Err(RecvTimeoutError::Timeout) => {}
            other => panic!("expected silence, got {other:?}"),
        }
    }

    /// Waits for the process to end, at most `limit`; its exit code.
    pub fn exit_within(&mut self, limit: Duration) -> Option<i32> {
        let deadline = Instant::now() + limit;
        while Instant::now() < deadline {
            if let Some(status) = self.child.try_wait().unwrap() {
                return status.code();
            }
            std::thread::sleep(Duration::from_millis(10));
        }
        let _ = self.child.kill();
        panic!("the engine did not end within {limit:?}");
    }
}

impl Drop for Engine {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// The move of a `bestmove` line.
pub fn bestmove(line: &str) -> &str {
    let mut words = line.split_whitespace();
    assert_eq!(words.next(), Some("bestmove"), "{line}");
    words.next().expect("a move after bestmove")
}

/// A directory of its own for each test, removed at the end.
pub struct TempDir(PathBuf);

impl TempDir {
    pub fn new(name: &str) -> TempDir {
        let dir = std::env::temp_dir().join(format!("qi-arena-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        TempDir(dir)
    }

    /// Writes an executable script; its path.
    pub fn script(&self, name: &str, body: &str) -> String {
        let path = self.0.join(name);
        std::fs::write(&path, format!("#!/bin/sh\n{body}\n")).unwrap();
        let status = Command::new("chmod").arg("+x").arg(&path).status().unwrap();
        assert!(status.success());
        path.display().to_string()
    }

    pub fn path(&self, name: &str) -> PathBuf {
        self.0.join(name)
    }
}

impl Drop for TempDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}
