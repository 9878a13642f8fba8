//! Files of several game records, as `qi match --pgn` writes them: `qi
//! render --record` and `qi play`'s `load` choose a game by its number and
//! list them; `qi replay` replays every game and names the first illegal
//! move of each that does not replay.

use std::io::Write;
use std::process::{Command, Stdio};

use crate::common;

use common::{TempDir, QI};

fn qi(args: &[&str]) -> (i32, String, String) {
    let out = Command::new(QI).args(args).output().expect("qi runs");
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// Three Jungle games; the third plays a move the rules refuse (the Rat
/// on g3 cannot reach g5 in one step).
const GAMES: &str =
    "[Game \"jungle\"]\n[First \"a\"]\n[Second \"b\"]\n[Result \"*\"]\n\na3a4 *\n\n\
[Game \"jungle\"]\n[First \"c\"]\n[Second \"d\"]\n[Result \"*\"]\n\na3a4 g7g6 *\n\n\
[Game \"jungle\"]\n[First \"e\"]\n[Second \"f\"]\n[Result \"*\"]\n\na3a4 g7g6 g3g5 *\n";

#[test]
fn render_chooses_and_lists_the_games_of_a_file() {
    let dir = TempDir::new("records-render");
    let file = dir.path("games.pgn");
    std::fs::write(&file, GAMES).unwrap();
    let f = file.to_str().unwrap();
    let (code, out, err) = qi(&["render", "--record", f, "--list"]);
    assert_eq!(code, 0, "{err}");
    assert_eq!(
        out,
        "1: jungle: a - b, *, 1 moves\n2: jungle: c - d, *, 2 moves\n3: jungle: e - f, *, 3 moves\n"
    );
    let (code, out, err) = qi(&["render", "--record", f, "--number", "2", "--caption"]);
    assert_eq!(code, 0, "{err}");
    assert!(out.starts_with("<svg"), "{out}");
    let (code, one, _) = qi(&["render", "--record", f, "--number", "1", "--caption"]);
    assert_eq!(code, 0);
    assert_ne!(out, one, "another game, another position");
    // Without a number a file of several games says how to choose.
    let (code, _, err) = qi(&["render", "--record", f]);
    assert_eq!(code, 2);
    assert!(err.contains("holds 3 games: choose one"), "{err}");
    let (code, _, err) = qi(&["render", "--record", f, "--number", "4"]);
    assert_eq!(code, 2);
    assert!(err.contains("there is no game 4"), "{err}");
}

#[test]
fn play_loads_a_game_of_a_file_by_its_number() {
    let dir = TempDir::new("records-play");
    let file = dir.path("games.pgn");
    std::fs::write(&file, GAMES).unwrap();
    let f = file.display();
    let mut child = Command::new(QI)
        .args(["play", "--movetime", "10"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let input = format!("games {f}\nload {f}\nload {f} 2\nquit\n");
    child
        .stdin
        .take()
        .unwrap()
        .write_all(input.as_bytes())
        .unwrap();
    let out = child.wait_with_output().unwrap();
    let out = String::from_utf8_lossy(&out.stdout);
    assert!(out.contains("2: jungle: c - d, *, 2 moves"), "{out}");
    assert!(out.contains("holds 3 games: choose one"), "{out}");
    assert!(out.contains(&format!("loaded 2 moves from {f}")), "{out}");
}

#[test]
fn replay_reports_each_game_and_the_first_illegal_move() {
    let dir = TempDir::new("records-replay");
    let file = dir.path("games.pgn");
    std::fs::write(&file, GAMES).unwrap();
    let (code, out, err) = qi(&["replay", file.to_str().unwrap()]);
    assert_eq!(code, 2, "{out}{err}");
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), 4, "{out}");
    assert!(lines[0].starts_with("game 1: ok, final position "), "{out}");
    assert!(lines[1].starts_with("game 2: ok, final position "), "{out}");
    assert!(lines[2].starts_with("game 3: move 3 'g3g5'"), "{out}");
    assert_eq!(lines[3], "3 games, 2 replayed, 1 failed");
    assert!(err.contains("1 of the 3 games"), "{err}");
    // A file whose games all replay: exit code 0.
    let good: String = GAMES
        .split("\n\n[Game")
        .take(2)
        .collect::<Vec<_>>()
        .join("\n\n[Game");
    std::fs::write(&file, good).unwrap();
    let (code, out, err) = qi(&["replay", file.to_str().unwrap()]);
    assert_eq!(code, 0, "{out}{err}");
    assert!(out.ends_with("2 games, 2 replayed, 0 failed\n"), "{out}");
}

#[cfg(unix)]
#[test]
fn replay_reads_a_record_file_up_to_a_bound() {
    // /dev/zero never ends: the read stops at the bound with an error
    // (it grew to 3.9 GB in 5 s).
    let (code, out, err) = qi(&["replay", "/dev/zero"]);
    assert_eq!(code, 2, "{out}{err}");
    assert!(
        err.contains("/dev/zero") && err.contains("larger than 256 MiB"),
        "{err}"
    );
    assert_eq!(err.trim().lines().count(), 1, "{err}");
}

#[test]
fn replay_skips_a_byte_order_mark() {
    let dir = TempDir::new("records-bom");
    let file = dir.path("games.pgn");
    std::fs::write(&file, format!("\u{feff}{GAMES}")).unwrap();
    let (code, out, err) = qi(&["replay", file.to_str().unwrap()]);
    assert_eq!(code, 2, "{out}{err}");
    assert!(out.ends_with("3 games, 2 replayed, 1 failed\n"), "{out}");
}
