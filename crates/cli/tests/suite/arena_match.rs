//! `qi match` as engine testers use it: games in parallel, time controls
//! with clocks sent to the engines and time forfeits, node limits, the
//! SPRT, pentanomial pair counts, the built-in opening suites and score
//! comments in the records. No assertion depends on how fast the machine
//! is: a slow engine sleeps far beyond its clock, fast ones are bounded by
//! nodes.

// The fake engines are shell scripts.
#![cfg(unix)]

use crate::common;

use std::process::Command;

use common::{TempDir, QI};

/// `qi match` with `args`: exit code, stdout, stderr.
fn qi_match(args: &[&str]) -> (i32, String, String) {
    let out = Command::new(QI).arg("match").args(args).output().unwrap();
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// `qi match` between `a` and `b` with `extra`.
fn qi_match_ab(a: &str, b: &str, extra: &[&str]) -> (i32, String, String) {
    let mut args = vec!["--engine-a", a, "--engine-b", b];
    args.extend_from_slice(extra);
    qi_match(&args)
}

fn qi_engine() -> String {
    format!("{QI} engine")
}

/// An engine that answers the handshake and `isready`, appends every `go`
/// line to `log`, and then runs `on_go` (shell text that prints its
/// `bestmove`).
fn scripted_engine(log: &std::path::Path, on_go: &str) -> String {
    format!(
        "while read -r line; do\n  case \"$line\" in\n    jcei) echo jceiok ;;\n    isready) echo readyok ;;\n    go*) echo \"$line\" >> {}; {on_go} ;;\n    quit) exit 0 ;;\n  esac\ndone",
        log.display()
    )
}

/// The game lines (`game i/n: ...`) of a match's output.
fn game_lines(out: &str) -> Vec<&str> {
    out.lines().filter(|l| l.starts_with("game ")).collect()
}

#[test]
fn concurrent_games_give_the_sequential_tally_in_game_order() {
    let dir = TempDir::new("concurrency");
    let engine = qi_engine();
    let run = |concurrency: &str, pgn: &str| {
        let pgn = dir.path(pgn).display().to_string();
        let args = [
            "--engine-a",
            &engine,
            "--engine-b",
            &engine,
            "--option-b",
            "EvalProfile=material",
            "--games",
            "4",
            "--nodes",
            "200",
            "--max-plies",
            "60",
            "--concurrency",
            concurrency,
            "--pgn",
            &pgn,
        ];
        let (code, out, err) = qi_match(&args);
        assert_eq!(code, 0, "{out}{err}");
        (out, std::fs::read_to_string(pgn).unwrap())
    };
    let (parallel, parallel_pgn) = run("2", "parallel.pgn");
    let (sequential, sequential_pgn) = run("1", "sequential.pgn");
    let lines = game_lines(&parallel);
    assert_eq!(lines.len(), 4, "{parallel}");
    for (i, line) in lines.iter().enumerate() {
        assert!(
            line.starts_with(&format!("game {}/4: ", i + 1)),
            "{parallel}"
        );
    }
    // A node limit makes every game the same, whichever slot played it.
    assert_eq!(parallel, sequential);
    // The records in the order the games ended: the same set.
    assert_eq!(by_round(&parallel_pgn), by_round(&sequential_pgn));
    assert_eq!(by_round(&parallel_pgn).len(), 4);
    assert!(parallel.contains("\nscore: A "), "{parallel}");
    let pairs = parallel
        .lines()
        .find(|l| l.starts_with("pairs: "))
        .unwrap_or_else(|| panic!("{parallel}"));
    assert!(
        pairs.ends_with("(pentanomial, 2 colour-swapped pairs)"),
        "{pairs}"
    );
    assert!(parallel.contains("(95%, pentanomial)"), "{parallel}");
    // B's options name it in the records.
    assert!(
        parallel_pgn.contains(&format!("[Second \"{engine} (EvalProfile=material)\"]")),
        "{parallel_pgn}"
    );
    // Every move of the records carries the engine's score and depth.
    assert!(parallel_pgn.contains(" {score cp "), "{parallel_pgn}");
    assert!(parallel_pgn.contains(" depth "), "{parallel_pgn}");
}

#[test]
fn clocks_are_sent_and_a_side_that_oversteps_its_time_forfeits() {
    let dir = TempDir::new("tc");
    let a_log = dir.path("a.log");
    let b_log = dir.path("b.log");
    // A is qi behind a tee that logs its input; B takes 3 s a move with a
    // 2 s clock and a 0.5 s margin.
    let a = format!("tee -a {} | {QI} engine", a_log.display());
    let b = dir.script(
        "slow.sh",
        &scripted_engine(&b_log, "sleep 3; echo bestmove a7a6"),
    );
    let extra = "--games 2 --tc 2+0.5 --timemargin 500 --max-plies 10";
    let extra: Vec<&str> = extra.split(' ').collect();
    let (code, out, err) = qi_match_ab(&a, &b, &extra);
    assert_eq!(code, 0, "{out}{err}");
    let lines = game_lines(&out);
    assert_eq!(lines.len(), 2, "{out}");
    for line in lines {
        assert!(line.contains(": A wins (time forfeit: "), "{line}");
    }
    assert!(out.contains("score: A 2-0-0"), "{out}");
    // Both sides' clocks and increments, in milliseconds, with every go.
    let b_go = std::fs::read_to_string(&b_log).unwrap();
    let first = b_go.lines().next().unwrap();
    assert!(first.starts_with("go wtime "), "{b_go}");
    assert!(first.contains(" btime 2000 winc 500 binc 500"), "{b_go}");
    let a_input = std::fs::read_to_string(&a_log).unwrap();
    assert!(
        a_input.contains("go wtime 2000 btime 2000 winc 500 binc 500"),
        "{a_input}"
    );
    assert!(!a_input.contains("movetime"), "{a_input}");
}

#[test]
fn the_sprt_stops_the_match_at_its_bound() {
    let dir = TempDir::new("sprt");
    // B answers every move with one that is not legal: A wins every game.
    let b = dir.script(
        "illegal.sh",
        &scripted_engine(&dir.path("b.log"), "echo bestmove z0z0"),
    );
    let extra = "--games 40 --nodes 100 --sprt elo0=-400 elo1=400 alpha=0.05 beta=0.05";
    let extra: Vec<&str> = extra.split(' ').collect();
    let (code, out, err) = qi_match_ab(&qi_engine(), &b, &extra);
    assert_eq!(code, 0, "{out}{err}");
    let lines = game_lines(&out);
    // One won pair is too few (with the prior's pairs of 0 and 2 points,
    // LLR 1.84); the second crosses the bound (LLR 4.36).
    assert_eq!(lines.len(), 4, "{out}");
    for line in &lines[..3] {
        assert!(line.ends_with("(-2.94, 2.94)"), "{out}");
    }
    assert!(lines[1].ends_with("; LLR 1.84 (-2.94, 2.94)"), "{out}");
    assert!(
        lines[3].ends_with("; LLR 4.36 (-2.94, 2.94): H1 accepted"),
        "{out}"
    );
    let summary = out.lines().last().unwrap();
    assert!(
        summary.starts_with("sprt: elo0 -400 elo1 400 alpha 0.05 beta 0.05: LLR "),
        "{summary}"
    );
    assert!(summary.ends_with("after 4 games: H1 accepted"), "{summary}");
}

#[test]
fn the_built_in_suite_is_the_default() {
    let dir = TempDir::new("openings");
    let engine = qi_engine();
    let start_of = |extra: &[&str], name: &str| {
        let pgn = dir.path(name).display().to_string();
        let mut args = vec![
            "--engine-a",
            &engine,
            "--engine-b",
            &engine,
            "--nodes",
            "50",
            "--max-plies",
            "2",
            "--pgn",
            &pgn,
        ];
        args.extend_from_slice(extra);
        let (code, out, err) = qi_match(&args);
        assert_eq!(code, 0, "{out}{err}");
        let text = std::fs::read_to_string(&pgn).unwrap();
        text.lines()
            .find(|l| l.starts_with("[Start "))
            .map(str::to_string)
    };
    let first_of_suite = include_str!("../../../engine/openings/jungle.txt")
        .lines()
        .find(|l| !l.starts_with('#'))
        .unwrap();
    assert_eq!(
        start_of(&[], "jungle.pgn"),
        Some(format!("[Start \"{first_of_suite}\"]"))
    );
    assert_eq!(start_of(&["--no-openings"], "none.pgn"), None);
    let first_of_five = include_str!("../../../engine/openings/five-tigers.txt")
        .lines()
        .find(|l| !l.starts_with('#'))
        .unwrap();
    assert_eq!(
        start_of(&["--game", "five-tigers"], "five.pgn"),
        Some(format!("[Start \"{first_of_five}\"]"))
    );
    // The suite does not fit `ten` (fewer pieces a side): the start position.
    assert_eq!(start_of(&["--game", "five-tigers:ten"], "ten.pgn"), None);
}

#[test]
fn bad_limits_are_one_line_and_exit_code_two() {
    let engine = qi_engine();
    for bad in [
        &["--tc", "1+x"][..],
        &["--tc", "0"],
        &["--tc", "-5+1"],
        &["--tc", "1e17"],
        &["--tc", "60+1e17"],
        &["--sprt", "elo0=10", "elo1=0"],
        &["--sprt", "elo0=0"],
        &["--sprt", "elo0=0", "elo1=10", "alpha=2"],
        &["--sprt", "bogus"],
        &["--nodes", "0"],
        &["--concurrency", "0"],
        &["--option-a", "Hash"],
        &["--openings", "x.txt", "--no-openings"],
    ] {
        let (code, out, err) = qi_match_ab(&engine, &engine, bad);
        assert_eq!(code, 2, "{bad:?}: {out}{err}");
        assert!(err.starts_with("qi: error: "), "{bad:?}: {err}");
        assert_eq!(err.lines().count(), 1, "{bad:?}: {err}");
        assert!(!err.contains("panicked"), "{bad:?}: {err}");
    }
}

/// The records of a `--pgn` file (each begins with its `Game` tag) in
/// order of their `Round`.
fn by_round(text: &str) -> Vec<String> {
    let mut records: Vec<String> = Vec::new();
    for line in text.lines() {
        if line.starts_with("[Game ") || records.is_empty() {
            records.push(String::new());
        }
        let last = records.last_mut().unwrap();
        last.push_str(line);
        last.push('\n');
    }
    let round = |r: &String| -> u32 {
        r.lines()
            .find_map(|l| l.strip_prefix("[Round \""))
            .and_then(|v| v.trim_end_matches("\"]").parse().ok())
            .unwrap_or_else(|| panic!("no Round in {r}"))
    };
    records.sort_by_key(round);
    records
}
