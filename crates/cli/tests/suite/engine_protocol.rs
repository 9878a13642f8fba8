//! `qi engine` end to end, on the protocol's promises (docs/protocol.md):
//! a finished game answers `bestmove 0000` with its result, commands are
//! read while the engine works, a `go` without limits runs until `stop`,
//! bad input is an error line and never the end.

use crate::common;

use std::time::{Duration, Instant};

use common::{bestmove, Engine};

/// `info string result <score> <reason>`, then `bestmove 0000`.
fn assert_game_over(lines: &[String], score: &str, reason: &str) {
    let n = lines.len();
    assert!(n >= 2, "{lines:?}");
    assert_eq!(lines[n - 2], format!("info string result {score} {reason}"));
    assert_eq!(lines[n - 1], "bestmove 0000");
}

#[test]
fn a_finished_game_answers_bestmove_0000_with_its_result() {
    let mut e = Engine::start(&[]);
    // No legal move: the red rat in the corner, a dog and a cat beside it.
    e.send("position fen 7/7/7/7/7/7/7/d6/Rc5 w 0 1");
    e.send("go depth 3");
    assert_game_over(&e.until("bestmove"), "0-1", "no legal move");
    // The den entered.
    e.send("position fen 7/3R3/7/7/7/7/7/7/e6 w 0 1 moves d8d9");
    e.send("go movetime 100");
    assert_game_over(&e.until("bestmove"), "1-0", "den entered");
    // A threefold repetition.
    e.send("position startpos moves a3a4 a7a6 a4a3 a6a7 a3a4 a7a6 a4a3 a6a7");
    e.send("go wtime 1000 btime 1000");
    assert_game_over(&e.until("bestmove"), "1/2-1/2", "threefold repetition");
    e.send("go infinite");
    assert_game_over(&e.until("bestmove"), "1/2-1/2", "threefold repetition");
    e.send("quit");
    assert_eq!(e.exit_within(Duration::from_secs(5)), Some(0));
}

#[test]
fn commands_are_answered_while_the_engine_searches() {
    let mut e = Engine::start(&[]);
    // The sequence that used to deadlock: `d` waits for the search, which
    // only `stop` ends, and `isready` and `stop` still get through.
    e.send("position startpos");
    e.send("go");
    e.send("d");
    std::thread::sleep(Duration::from_millis(300));
    e.send("isready");
    let lines = e.until_within("readyok", Duration::from_secs(5));
    let before = &lines[..lines.len() - 1];
    assert!(before.iter().all(|l| l.starts_with("info")), "{lines:?}");
    e.send("stop");
    let lines = e.until_within("bestmove", Duration::from_secs(5));
    assert_eq!(bestmove(lines.last().unwrap()).len(), 4);
    // Then the board that waited.
    e.until_within("Red to move", Duration::from_secs(5));
    e.send("quit");
    assert_eq!(e.exit_within(Duration::from_secs(5)), Some(0));
}

#[test]
fn perft_is_answered_stopped_and_quit_while_it_counts() {
    let mut e = Engine::start(&[]);
    e.send("perft 99");
    std::thread::sleep(Duration::from_millis(300));
    e.send("isready");
    e.until_within("readyok", Duration::from_secs(5));
    e.send("stop");
    let lines = e.until_within("total:", Duration::from_secs(5));
    let count: u64 = lines.last().unwrap()["total: ".len()..].parse().unwrap();
    assert!(count > 0, "{lines:?}");
    assert!(lines[0].ends_with("stopped"), "{lines:?}");
    e.send("perft 3");
    assert_eq!(e.until("total:").last().unwrap(), "total: 12240");
    // `quit` during a perft ends the process at once.
    e.send("perft 99");
    std::thread::sleep(Duration::from_millis(200));
    let asked = Instant::now();
    e.send("quit");
    assert_eq!(e.exit_within(Duration::from_secs(5)), Some(0));
    assert!(asked.elapsed() < Duration::from_secs(3));
}

#[test]
fn quit_during_a_search_ends_the_process_at_once() {
    let mut e = Engine::start(&[]);
    e.send("position startpos");
    e.send("go depth 60");
    std::thread::sleep(Duration::from_millis(200));
    let asked = Instant::now();
    e.send("quit");
    assert_eq!(e.exit_within(Duration::from_secs(5)), Some(0));
    assert!(asked.elapsed() < Duration::from_secs(3));
}

#[test]
fn go_without_a_usable_limit_searches_until_stop() {
    // Red is to move at the start: Blue's clock and the increments alone
    // give Red no budget.
    for go in ["go", "go btime 100", "go winc 10 binc 10"] {
        let mut e = Engine::start(&[]);
        e.send("position startpos");
        e.send(go);
        no_bestmove_for(&mut e, Duration::from_millis(1500), go);
        e.send("stop");
        let lines = e.until_within("bestmove", Duration::from_secs(5));
        assert_eq!(bestmove(lines.last().unwrap()).len(), 4, "{go}");
    }
    // Its own clock is a limit.
    let mut e = Engine::start(&[]);
    e.send("position startpos");
    e.send("go wtime 300 btime 100");
    e.until_within("bestmove", Duration::from_secs(3));
}

/// Only `info` lines come for `wait`.
fn no_bestmove_for(e: &mut Engine, wait: Duration, what: &str) {
    std::thread::sleep(wait);
    e.send("isready");
    let lines = e.until("readyok");
    assert!(
        lines.iter().all(|l| !l.starts_with("bestmove")),
        "{what}: {lines:?}"
    );
}

#[test]
fn bad_input_is_an_error_line_and_the_engine_goes_on() {
    let mut e = Engine::start(&[]);
    let errors: [(&[u8], &str); 12] = [
        (b"perft 20000\n", "maximum 128"),
        (b"perft 99999999999999\n", "perft"),
        (b"go depth 20000\n", "maximum 100"),
        (
            b"setoption name Threads value 0\n",
            "'Threads' takes a number from 1",
        ),
        (
            b"setoption name Variant value chess\n",
            "Variant: unknown game 'chess'",
        ),
        (b"setoption name EvalProfile value magic\n", "EvalProfile"),
        (b"position startpos moves \xff\xfe\n", "not UTF-8"),
        (b"d\xc3\n", "not UTF-8"),
        // Echoed input shows control characters escaped.
        (b"go depth\x1b[2J 3\n", "unknown limit 'depth\\u{1b}[2J'"),
        (b"position startpos moves a3\x07a4\n", "'a3\\u{7}a4'"),
        (
            b"setoption name EvalProfile value x\x1b\n",
            "unknown EvalProfile 'x\\u{1b}'",
        ),
        // A position no game reaches, refused with the reason; the engine
        // keeps the start position (the perft below counts from it).
        (
            b"position fen 3D3/7/7/7/7/7/7/7/6c w 0 1\n",
            "impossible position: Red Dog stands in the enemy den d9",
        ),
    ];
    for (line, says) in errors {
        e.send_bytes(line);
        let answer = e.until("info string error:");
        assert_eq!(answer.len(), 1, "{answer:?}");
        assert!(answer[0].contains(says), "{answer:?} lacks '{says}'");
        assert!(!answer[0].contains("--game"), "{answer:?}");
    }
    e.send("isready");
    e.until("readyok");
    // A 40 MiB line is refused without being held in memory.
    let before = peak_kib(&e);
    let mut long = vec![b'x'; 40 << 20];
    long.push(b'\n');
    e.send_bytes(&long);
    let answer = e.until("info string error:");
    assert!(answer[0].contains("longer than"), "{answer:?}");
    if let (Some(before), Some(after)) = (before, peak_kib(&e)) {
        assert!(
            after < before + 8 * 1024,
            "{before} KiB grew to {after} KiB"
        );
    }
    e.send("perft 2");
    assert_eq!(e.until("total:").last().unwrap(), "total: 576");
    e.send("quit");
    assert_eq!(e.exit_within(Duration::from_secs(5)), Some(0));
}

/// A `/proc/PID/status` field in KiB (Linux only: `None` elsewhere).
fn status_kib(e: &Engine, field: &str) -> Option<u64> {
    let status = std::fs::read_to_string(format!("/proc/{}/status", e.child.id())).ok()?;
    let line = status.lines().find(|l| l.starts_with(field))?;
    line.split_whitespace().nth(1)?.parse().ok()
}

/// The peak resident memory.
fn peak_kib(e: &Engine) -> Option<u64> {
    status_kib(e, "VmHWM:")
}

#[test]
fn a_new_table_is_allocated_only_after_the_old_one_is_freed() {
    const MIB: u64 = 1024;
    let mut e = Engine::start(&[]);
    e.send("setoption name Hash value 1024");
    e.send("isready");
    e.until("readyok");
    let Some(start) = status_kib(&e, "VmPeak:") else {
        return; // no /proc: nothing to measure
    };
    // Both tables at once would add at least 1 GiB to the peak; the
    // margin leaves room for what else a process reserves (a malloc arena
    // of a thread is 64 MiB of address space, more while it is made).
    for change in [
        "setoption name Hash value 1100",
        "setoption name Threads value 2",
        "setoption name Variant value five-tigers",
        "setoption name EvalProfile value material",
        "setoption name Variant value jungle:datou",
        "setoption name Threads value 1",
    ] {
        e.send(change);
        e.send("isready");
        e.until("readyok");
        let peak = status_kib(&e, "VmPeak:").unwrap();
        assert!(
            peak < start + 512 * MIB,
            "after '{change}': peak {} MiB, from {} MiB",
            peak / MIB,
            start / MIB
        );
    }
    e.send("quit");
}

#[test]
fn stop_behind_a_waiting_go_is_meant_for_that_search() {
    let mut e = Engine::start(&[]);
    e.send("position startpos");
    e.send("go depth 3");
    e.send("go infinite");
    e.send("stop");
    // The first search ends by its depth, the second by the `stop`.
    let first = e.until("bestmove");
    assert!(
        first.iter().any(|l| l.starts_with("info depth 3 ")),
        "{first:?}"
    );
    e.until_within("bestmove", Duration::from_secs(5));
    // With a command between the waiting search and the `stop` too.
    e.send("go depth 3");
    e.send("go infinite");
    e.send("d");
    e.send("stop");
    e.until_within("bestmove", Duration::from_secs(5));
    e.until_within("bestmove", Duration::from_secs(5));
    e.until_within("Red to move", Duration::from_secs(5));
    e.send("quit");
    assert_eq!(e.exit_within(Duration::from_secs(5)), Some(0));
}

/// The input ends (the GUI died) during searches that would run for
/// hours: each is stopped within a few seconds, still answered, and the
/// engine exits; a search that ends sooner is answered in full.
#[test]
fn searches_stop_soon_after_the_input_ends() {
    use std::io::Write;
    use std::process::{Command, Stdio};
    let mut child = Command::new(common::QI)
        .arg("engine")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let script = "position startpos\ngo depth 3\ngo depth 100\ngo movetime 100000000\n";
    child
        .stdin
        .take()
        .unwrap()
        .write_all(script.as_bytes())
        .unwrap();
    let begun = Instant::now();
    let deadline = begun + Duration::from_secs(40);
    while child.try_wait().unwrap().is_none() {
        if Instant::now() > deadline {
            let _ = child.kill();
            panic!("the engine still searches 40 s after its input ended");
        }
        std::thread::sleep(Duration::from_millis(50));
    }
    let out = child.wait_with_output().unwrap();
    let out = String::from_utf8_lossy(&out.stdout);
    let answers: Vec<&str> = out.lines().filter(|l| l.starts_with("bestmove")).collect();
    assert_eq!(answers.len(), 3, "{out}");
    assert!(
        out.contains("info depth 3 "),
        "the short search is complete: {out}"
    );
}
