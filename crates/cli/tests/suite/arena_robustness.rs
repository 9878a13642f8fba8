//! `qi match` against broken engines, each a small shell script written to
//! a temporary directory: whatever the engine does, the match goes on, the
//! engine loses by forfeit, nothing it started is left running, and all of
//! it within a bounded time.

// Whether a process is gone is read from Linux's /proc.
#![cfg(target_os = "linux")]

use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use crate::common;

use common::{TempDir, QI};

/// `qi match` between `a` and `b`: exit code, stdout, stderr, its peak
/// resident memory in KiB and how long it took. It is killed past `limit`.
fn run_match(a: &str, b: &str, extra: &[&str], limit: Duration) -> Outcome {
    let begun = Instant::now();
    let mut child = Command::new(QI)
        .args(["match", "--engine-a", a, "--engine-b", b, "--movetime", "5"])
        .args(extra)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let status_file = format!("/proc/{}/status", child.id());
    let mut peak_kib = 0;
    let code = loop {
        if let Some(status) = child.try_wait().unwrap() {
            break status.code().unwrap_or(-1);
        }
        let status = std::fs::read_to_string(&status_file).unwrap_or_default();
        if let Some(kib) = status
            .lines()
            .find(|l| l.starts_with("VmRSS:"))
            .and_then(|l| l.split_whitespace().nth(1))
            .and_then(|n| n.parse::<u64>().ok())
        {
            peak_kib = peak_kib.max(kib);
        }
        if begun.elapsed() > limit {
            let _ = child.kill();
            panic!("qi match did not end within {limit:?}");
        }
        std::thread::sleep(Duration::from_millis(50));
    };
    let out = child.wait_with_output().unwrap();
    Outcome {
        code,
        out: String::from_utf8_lossy(&out.stdout).into_owned(),
        err: String::from_utf8_lossy(&out.stderr).into_owned(),
        peak_kib,
        took: begun.elapsed(),
    }
}

#[derive(Debug)]
struct Outcome {
    code: i32,
    out: String,
    err: String,
    peak_kib: u64,
    took: Duration,
}

/// Asserts that every pid listed in `file` (one a line) is gone: no such
/// process, or a zombie waiting for whoever adopted it.
fn assert_gone(file: &Path) {
    let pids = std::fs::read_to_string(file).expect("the engine wrote its child's pid");
    assert!(!pids.trim().is_empty());
    for pid in pids.split_whitespace() {
        let deadline = Instant::now() + Duration::from_secs(3);
        loop {
            let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).unwrap_or_default();
            let state = stat
                .rsplit(')')
                .next()
                .unwrap_or("")
                .split_whitespace()
                .next();
            if matches!(state, None | Some("Z") | Some("X")) {
                break;
            }
            assert!(Instant::now() < deadline, "process {pid} left behind");
            std::thread::sleep(Duration::from_millis(20));
        }
    }
}

fn qi_engine() -> String {
    format!("{QI} engine")
}

/// Answers the handshake and `isready`, leaves a sleeping child (its pid
/// appended to `pids`), then hangs at the first `go` without a word.
fn hanging_engine(pids: &Path) -> String {
    format!(
        "sleep 300 &\necho $! >> {}\nwhile read -r line; do\n  case \"$line\" in\n    jcei) echo jceiok ;;\n    isready) echo readyok ;;\n    go*) sleep 300 ;;\n  esac\ndone",
        pids.display()
    )
}

#[test]
fn a_hung_engine_forfeits_and_is_killed_with_its_children() {
    let dir = TempDir::new("hung");
    let pids = dir.path("pids");
    let b = dir.script("hung.sh", &hanging_engine(&pids));
    let r = run_match(&qi_engine(), &b, &["--games", "2"], Duration::from_secs(40));
    assert_eq!(r.code, 0, "{r:?}");
    assert!(
        r.out.contains("game 1/2") && r.out.contains("game 2/2"),
        "{r:?}"
    );
    assert!(r.out.contains("forfeits"), "{r:?}");
    assert!(r.out.contains("score: A 2-0-0"), "{r:?}");
    // A score of 100% still has a finite estimate and error bar.
    let elo = r.out.lines().last().unwrap();
    assert!(elo.starts_with("elo: A - B = +"), "{elo}");
    assert!(!elo.contains("inf") && !elo.contains("NaN"), "{elo}");
    // One start for each game: the engine was restarted after its forfeit.
    assert_eq!(std::fs::read_to_string(&pids).unwrap().lines().count(), 2);
    assert_gone(&pids);
}

#[test]
fn an_engine_that_closes_its_input_forfeits_at_once() {
    let dir = TempDir::new("closed");
    let pids = dir.path("pids");
    // Input closed before `readyok`, so every later write finds no reader.
    let body = format!(
        "sleep 300 &\necho $! >> {}\nread -r l\necho jceiok\nread -r l\nread -r l\nexec 0<&-\necho readyok\nsleep 300",
        pids.display()
    );
    let b = dir.script("closed.sh", &body);
    let r = run_match(&qi_engine(), &b, &["--games", "2"], Duration::from_secs(30));
    assert_eq!(r.code, 0, "{r:?}");
    assert!(r.out.contains("score: A 2-0-0"), "{r:?}");
    assert!(r.took < Duration::from_secs(20), "{r:?}");
    assert_gone(&pids);
}

#[test]
fn an_engine_that_crashes_mid_game_forfeits_and_the_match_goes_on() {
    let dir = TempDir::new("crash");
    let pids = dir.path("pids");
    // A real engine behind a loop that passes on a few lines only: the
    // engine sees the end of its input and exits in the middle of a game.
    // The child left behind writes nowhere, so the engine's output ends
    // with the engine: the arena sees it exit whichever it waits on, a
    // write or an answer, not a timeout that depends on the race between
    // its next line and the script's end.
    let body = format!(
        "sleep 300 >/dev/null &\necho $! >> {}\nn=0\nwhile [ $n -lt 9 ] && read -r l; do\n  echo \"$l\"\n  n=$((n + 1))\ndone | {QI} engine",
        pids.display()
    );
    let b = dir.script("crash.sh", &body);
    let r = run_match(
        &qi_engine(),
        &b,
        &["--games", "3", "--max-plies", "400"],
        Duration::from_secs(60),
    );
    assert_eq!(r.code, 0, "{r:?}");
    assert!(r.out.contains("game 3/3"), "{r:?}");
    assert!(r.out.contains("forfeits: engine"), "{r:?}");
    assert!(r.out.contains("exited"), "{r:?}");
    assert!(r.out.contains("score: A 3-0-0"), "{r:?}");
    assert_gone(&pids);
}

#[test]
fn a_chatty_engine_costs_bounded_memory() {
    let dir = TempDir::new("chatty");
    // An endless line without a newline after the handshake: no `readyok`
    // ever comes, and nothing it prints may be kept whole.
    let b = dir.script("chatty.sh", "echo jceiok\ntr '\\0' x < /dev/zero");
    let r = run_match(&qi_engine(), &b, &["--games", "1"], Duration::from_secs(40));
    assert_eq!(r.code, 0, "{r:?}");
    assert!(r.out.contains("score: A 1-0-0"), "{r:?}");
    assert!(r.peak_kib < 200 * 1024, "peak {} KiB", r.peak_kib);
}

#[test]
fn an_engine_that_cannot_start_is_an_error() {
    let dir = TempDir::new("nostart");
    let missing = dir.path("no-such-engine").display().to_string();
    let r = run_match(&qi_engine(), &missing, &[], Duration::from_secs(20));
    assert_eq!(r.code, 2, "{r:?}");
    assert!(r.out.is_empty(), "{r:?}");
    assert!(r.err.starts_with("qi: error: engine B"), "{r:?}");
    assert_eq!(r.err.lines().count(), 1, "{r:?}");
    let not_jcei = dir.script("silent.sh", "exit 0");
    let r = run_match(&not_jcei, &qi_engine(), &[], Duration::from_secs(20));
    assert_eq!(r.code, 2, "{r:?}");
    assert!(r.err.starts_with("qi: error: engine A"), "{r:?}");
}

/// `qi engine` behind a script that holds back its first `isready` for
/// 12 s (past the 10 s an engine has to answer it), saying meanwhile, if
/// `says_alive`, once a second that it is reading its tables, as `qi
/// engine` does while its tables are read ahead.
fn slow_to_ready(dir: &TempDir, says_alive: bool) -> String {
    let fifo = dir.path("in.fifo").display().to_string();
    let say = if says_alive {
        "echo \"info string reading the tables ($i s)\""
    } else {
        ":"
    };
    dir.script(
        if says_alive { "alive.sh" } else { "silent.sh" },
        &format!(
            "rm -f {fifo}; mkfifo {fifo}\n{QI} engine < {fifo} &\nexec 3> {fifo}\nfirst=1\n\
             while read -r line; do\n  if [ \"$line\" = isready ] && [ $first = 1 ]; then\n    \
             first=0; i=0\n    while [ $i -lt 12 ]; do i=$((i+1)); {say}; sleep 1; done\n  fi\n  \
             echo \"$line\" >&3\n  [ \"$line\" = quit ] && break\ndone\nwait"
        ),
    )
}

#[test]
fn an_engine_that_says_it_reads_its_tables_is_waited_for() {
    let dir = TempDir::new("alive");
    let b = slow_to_ready(&dir, true);
    let r = run_match(&qi_engine(), &b, &["--games", "2"], Duration::from_secs(90));
    assert_eq!(r.code, 0, "{r:?}");
    assert!(!r.out.contains("did not answer"), "{r:?}");
    assert!(r.took >= Duration::from_secs(12), "{r:?}");
}

#[test]
fn an_engine_silent_past_the_handshake_time_forfeits() {
    let dir = TempDir::new("silent-ready");
    let b = slow_to_ready(&dir, false);
    let r = run_match(&qi_engine(), &b, &["--games", "2"], Duration::from_secs(90));
    assert_eq!(r.code, 0, "{r:?}");
    assert!(
        r.out.contains("did not answer 'readyok' within 10s"),
        "{r:?}"
    );
    assert!(r.out.contains("score: A 2-0-0"), "{r:?}");
}
