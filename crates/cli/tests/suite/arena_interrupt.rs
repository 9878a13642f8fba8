//! `qi match` interrupted (SIGINT, SIGTERM) and its records (`--pgn`): no
//! engine is left running, every game that ended is written as it ends,
//! the summary so far is printed, and the file is never lost to a match
//! that fails to start or to a disk that is full.

// Whether a process is gone is read from Linux's /proc.
#![cfg(target_os = "linux")]

use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use crate::common;

use common::{TempDir, QI};

/// A scripted engine: the handshake and `isready`; at the first `go` of
/// all the engines sharing `dir` (the one that makes `dir/hang` first) it
/// writes its pid to `dir/pid` and becomes `sleep 600` (same pid); every
/// other `go` is answered with a move that is not one, a forfeit.
fn engine(dir: &TempDir, name: &str, hangs: bool) -> String {
    let go = if hangs {
        format!(
            "if mkdir {d}/hang 2>/dev/null; then echo $$ > {d}/pid; exec sleep 600; fi; echo 'bestmove zz'",
            d = dir.path("").display()
        )
    } else {
        "echo 'bestmove zz'".to_string()
    };
    dir.script(
        name,
        &format!(
            "while read -r line; do\n  case \"$line\" in\n    jcei) echo jceiok ;;\n    isready) echo readyok ;;\n    go*) {go} ;;\n    quit) exit 0 ;;\n  esac\ndone"
        ),
    )
}

fn start_match(args: &[&str]) -> Child {
    Command::new(QI)
        .arg("match")
        .args(args)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap()
}

/// Waits until `ready` holds, at most `limit`.
fn wait_until(limit: Duration, what: &str, mut ready: impl FnMut() -> bool) {
    let deadline = Instant::now() + limit;
    while !ready() {
        assert!(Instant::now() < deadline, "{what}: not within {limit:?}");
        std::thread::sleep(Duration::from_millis(20));
    }
}

/// Whether process `pid` is gone (or a zombie waiting for its parent).
fn gone(pid: &str) -> bool {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).unwrap_or_default();
    let state = stat
        .rsplit(')')
        .next()
        .unwrap_or("")
        .split_whitespace()
        .next();
    matches!(state, None | Some("Z") | Some("X"))
}

/// Exit code, stdout and stderr of `child`, which must end within `limit`.
fn finish(mut child: Child, limit: Duration) -> (i32, String, String) {
    let deadline = Instant::now() + limit;
    loop {
        if child.try_wait().unwrap().is_some() {
            break;
        }
        if Instant::now() > deadline {
            let _ = child.kill();
            panic!("qi match did not end within {limit:?}");
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    let out = child.wait_with_output().unwrap();
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// Two games at once: game 1's engine A hangs, game 2 ends at once (B
/// forfeits its first move). Its record is in the file while game 1 still
/// runs; then the signal: the hung engine is killed, the summary printed,
/// the exit status 128 + the signal.
fn interrupted_by(signal: &str, number: i32) {
    let dir = TempDir::new(&format!("interrupt-{signal}"));
    let a = engine(&dir, "a.sh", true);
    let b = engine(&dir, "b.sh", false);
    let pgn = dir.path("games.pgn");
    let child = start_match(&[
        "--engine-a",
        &a,
        "--engine-b",
        &b,
        "--games",
        "2",
        "--concurrency",
        "2",
        "--movetime",
        "600000",
        "--pgn",
        pgn.to_str().unwrap(),
    ]);
    let pid_file = dir.path("pid");
    wait_until(Duration::from_secs(20), "the engine hangs", || {
        std::fs::read_to_string(&pid_file).is_ok_and(|p| !p.trim().is_empty())
    });
    let hung = std::fs::read_to_string(&pid_file)
        .unwrap()
        .trim()
        .to_string();
    // Written as soon as it ended, not held back behind game 1.
    wait_until(Duration::from_secs(20), "game 2's record", || {
        std::fs::read_to_string(&pgn).is_ok_and(|t| t.contains("[Round \"2\"]"))
    });
    assert!(!gone(&hung));
    let status = Command::new("kill")
        .args([&format!("-{signal}"), &child.id().to_string()])
        .status()
        .unwrap();
    assert!(status.success());
    let (code, out, err) = finish(child, Duration::from_secs(15));
    assert_eq!(code, 128 + number, "{out}\n{err}");
    assert!(out.contains("game 2/2: A plays second: A wins"), "{out}");
    assert!(out.contains("score: A 1-0-0"), "{out}");
    assert!(
        err.contains(&format!("interrupted by SIG{signal} after 1 games")),
        "{err}"
    );
    wait_until(Duration::from_secs(3), "the hung engine is killed", || {
        gone(&hung)
    });
    let text = std::fs::read_to_string(&pgn).unwrap();
    assert_eq!(text.matches("[Round ").count(), 1, "{text}");
}

#[test]
fn sigint_kills_every_engine_and_keeps_what_was_played() {
    interrupted_by("INT", 2);
}

#[test]
fn sigterm_kills_every_engine_and_keeps_what_was_played() {
    interrupted_by("TERM", 15);
}

/// Runs `qi match` to its end.
fn run_match(args: &[&str]) -> (i32, String, String) {
    finish(start_match(args), Duration::from_secs(60))
}

#[test]
fn the_records_survive_a_match_that_cannot_start() {
    let dir = TempDir::new("pgn-kept");
    let b = engine(&dir, "b.sh", false);
    let pgn = dir.path("games.pgn");
    let (code, _, err) = run_match(&[
        "--engine-a",
        &b,
        "--engine-b",
        &b,
        "--pgn",
        pgn.to_str().unwrap(),
    ]);
    assert_eq!(code, 0, "{err}");
    let before = std::fs::read_to_string(&pgn).unwrap();
    assert_eq!(before.matches("[Result ").count(), 2, "{before}");
    let missing = dir.path("nonexistent").display().to_string();
    let (code, _, err) = run_match(&[
        "--engine-a",
        &missing,
        "--engine-b",
        &b,
        "--pgn",
        pgn.to_str().unwrap(),
    ]);
    assert_eq!(code, 2, "{err}");
    assert_eq!(std::fs::read_to_string(&pgn).unwrap(), before);
    // The records as the openings: refused before anything is touched.
    let (code, _, err) = run_match(&[
        "--engine-a",
        &b,
        "--engine-b",
        &b,
        "--openings",
        pgn.to_str().unwrap(),
        "--pgn",
        dir.path("./games.pgn").to_str().unwrap(),
    ]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("is the --openings file"), "{err}");
    assert_eq!(std::fs::read_to_string(&pgn).unwrap(), before);
    // --pgn-append adds to it.
    let (code, _, err) = run_match(&[
        "--engine-a",
        &b,
        "--engine-b",
        &b,
        "--pgn",
        pgn.to_str().unwrap(),
        "--pgn-append",
    ]);
    assert_eq!(code, 0, "{err}");
    let after = std::fs::read_to_string(&pgn).unwrap();
    assert!(after.starts_with(&before), "{after}");
    assert_eq!(after.matches("[Result ").count(), 4, "{after}");
}

/// A full disk: `/dev/full` takes the open and fails every write with
/// ENOSPC. The match stops at the first game, with the summary.
#[test]
fn a_record_that_cannot_be_written_stops_the_match_with_the_summary() {
    if !Path::new("/dev/full").exists() {
        eprintln!("skipped: no /dev/full to stand in for a full disk");
        return;
    }
    let dir = TempDir::new("pgn-full");
    let b = engine(&dir, "b.sh", false);
    let (code, out, err) = run_match(&[
        "--engine-a",
        &b,
        "--engine-b",
        &b,
        "--games",
        "20",
        "--pgn",
        "/dev/full",
    ]);
    assert_eq!(code, 2, "{out}\n{err}");
    assert!(err.contains("cannot write --pgn '/dev/full'"), "{err}");
    assert!(err.contains("stopped after game 1"), "{err}");
    assert!(out.contains("game 1/20"), "{out}");
    assert!(!out.contains("game 20/20"), "{out}");
    assert!(out.contains("score: A "), "{out}");
}
