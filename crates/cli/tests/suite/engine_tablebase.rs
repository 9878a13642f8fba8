//! `qi engine --tablebase DIR` and `setoption name TablebasePath`: the
//! search probes the tables in the tree (`tbhits` in the `info` lines); a
//! directory that cannot be read ends `qi engine --tablebase` with exit
//! code 2.

use std::path::PathBuf;
use std::process::Command;
use std::time::Duration;

use crate::common;

use common::{Engine, QI};

/// A fresh directory under the target's temporary directory holding the
/// tables of Lion and Cat against Elephant (and what its captures lead to).
fn tables(name: &str) -> PathBuf {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join(format!("engine-tb-{name}"));
    let _ = std::fs::remove_dir_all(&dir);
    let out = Command::new(QI)
        .args(["tb", "generate", "--threads", "2", "--material", "LCvE"])
        .arg(&dir)
        .output()
        .expect("qi runs");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    dir
}

/// Red's Lion on d3 can take Blue's Wolf on c3, into Lion and Cat against
/// Elephant: 4 animals, no table at the root, tables below it.
const FOUR: &str = "e6/7/7/7/7/7/2wL3/1C5/7 w 0 1";

fn search(e: &mut Engine) -> Vec<String> {
    e.send(&format!("position fen {FOUR}"));
    e.send("go depth 4");
    e.until_within("bestmove", Duration::from_secs(60))
}

fn tbhits(lines: &[String]) -> bool {
    lines
        .iter()
        .any(|l| l.starts_with("info depth") && l.contains(" tbhits "))
}

#[test]
fn the_flag_makes_the_search_probe_the_tables_in_the_tree() {
    let dir = tables("flag");
    let mut e = Engine::start(&["--tablebase", dir.to_str().unwrap()]);
    let lines = search(&mut e);
    assert!(tbhits(&lines), "{lines:?}");
    // The Wolf is taken: the line the tables value.
    assert_eq!(lines.last().unwrap(), "bestmove d3c3", "{lines:?}");
    // Switched off, the search has no tables.
    e.send("setoption name TablebasePath value <empty>");
    e.send("ucinewgame");
    let lines = search(&mut e);
    assert!(!tbhits(&lines), "{lines:?}");
    e.send("quit");
    assert_eq!(e.exit_within(Duration::from_secs(10)), Some(0));
}

#[test]
fn the_option_probes_in_the_tree_and_survives_a_change_of_game() {
    let dir = tables("option");
    let mut e = Engine::start(&[]);
    let lines = search(&mut e);
    assert!(!tbhits(&lines), "no tables yet: {lines:?}");
    e.send(&format!(
        "setoption name TablebasePath value {}",
        dir.display()
    ));
    // The tables found are told, as Stockfish tells of a SyzygyPath.
    let files = std::fs::read_dir(&dir)
        .unwrap()
        .filter(|f| f.as_ref().unwrap().path().extension() == Some("qtb".as_ref()))
        .count();
    assert!(files > 1);
    let found = e.until("info string Found");
    assert_eq!(
        found.last().unwrap(),
        &format!("info string Found {files} tablebases")
    );
    let lines = search(&mut e);
    assert!(tbhits(&lines), "{lines:?}");
    // Five Tigers reads `.qft` files: a Jungle directory gives it none, and
    // it searches as before; back to Jungle, the tables are probed again.
    e.send("setoption name Variant value five-tigers");
    e.send("position startpos");
    e.send("go depth 2");
    let lines = e.until("bestmove");
    assert!(!lines.iter().any(|l| l.contains("error")), "{lines:?}");
    e.send("setoption name Variant value jungle");
    let lines = search(&mut e);
    assert!(tbhits(&lines), "{lines:?}");
    e.send("quit");
    assert_eq!(e.exit_within(Duration::from_secs(10)), Some(0));
}

#[test]
fn a_bad_directory_is_exit_code_2() {
    let out = Command::new(QI)
        .args(["engine", "--tablebase", "/nonexistent/qi-tables"])
        .output()
        .expect("qi runs");
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("--tablebase"), "{err}");
    assert!(err.contains("/nonexistent/qi-tables"), "{err}");
    assert!(out.stdout.is_empty());
}

/// A fresh directory holding the Five Tigers tables of three pieces against
/// two under `shandong-shuttle`.
fn five_tigers_tables(name: &str) -> PathBuf {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join(format!("engine-ft-tb-{name}"));
    let _ = std::fs::remove_dir_all(&dir);
    let out = Command::new(QI)
        .args(["tb", "generate", "--game", "five-tigers:shandong-shuttle"])
        .args(["--threads", "2", "--material", "3v2"])
        .arg(&dir)
        .output()
        .expect("qi runs");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    dir
}

/// Three X pieces against two O pieces in the movement phase, O to move:
/// lost in 16 plies by the tables (`qi tb probe`).
const FIVE_TIGERS: &str = "5/5/5/X1X2/OO1X1 o move X:0,O:0 - o -,- 0";

fn search_five_tigers(e: &mut Engine) -> Vec<String> {
    e.send(&format!("position fen {FIVE_TIGERS}"));
    e.send("go depth 4");
    e.until_within("bestmove", Duration::from_secs(60))
}

/// Whether the answer came from the tables: probed in the tree, or at
/// the root (the tables value the root and every move from it).
fn used_tables(lines: &[String]) -> bool {
    tbhits(lines)
        || lines
            .iter()
            .any(|l| l.starts_with("info string tablebase "))
}

#[test]
fn five_tigers_tables_are_probed_in_the_tree() {
    let dir = five_tigers_tables("flag");
    // The flag, with the game chosen on the command line.
    let mut e = Engine::start(&[
        "--game",
        "five-tigers:shandong-shuttle",
        "--tablebase",
        dir.to_str().unwrap(),
    ]);
    let lines = search_five_tigers(&mut e);
    assert!(used_tables(&lines), "{lines:?}");
    assert!(
        lines.iter().any(|l| l.contains(" score mate -8 ")),
        "the tables' exact value: {lines:?}"
    );
    e.send("quit");
    assert_eq!(e.exit_within(Duration::from_secs(10)), Some(0));
    // The option, with the game chosen by `Variant` afterwards: the
    // directory is given to the new game's engine.
    let mut e = Engine::start(&[]);
    e.send(&format!(
        "setoption name TablebasePath value {}",
        dir.display()
    ));
    e.send("setoption name Variant value five-tigers:shandong-shuttle");
    let lines = search_five_tigers(&mut e);
    assert!(used_tables(&lines), "{lines:?}");
    assert!(!lines.iter().any(|l| l.contains("error")), "{lines:?}");
    // Under `shandong` (shuttle ban) these tables do not apply: no hits.
    e.send("setoption name Variant value five-tigers:shandong");
    let lines = search_five_tigers(&mut e);
    assert!(!used_tables(&lines), "{lines:?}");
    e.send("quit");
    assert_eq!(e.exit_within(Duration::from_secs(10)), Some(0));
}

#[test]
fn isready_waits_for_tables_read_ahead_and_the_search_probes_them() {
    // A file over 64 MiB makes the engine read the directory's tables
    // ahead, on a thread of its own (here a sparse file under a table's
    // name, which the reading finds bad and leaves out): `readyok` comes
    // once they are read, and the first search probes them.
    let dir = five_tigers_tables("read-ahead");
    let big = std::fs::File::create(dir.join("5v5.qft")).unwrap();
    big.set_len(70 << 20).unwrap();
    let mut e = Engine::start(&[
        "--game",
        "five-tigers:shandong-shuttle",
        "--tablebase",
        dir.to_str().unwrap(),
    ]);
    e.send("isready");
    let lines = e.until_within("readyok", Duration::from_secs(60));
    assert!(lines.contains(&"readyok".to_string()), "{lines:?}");
    let lines = search_five_tigers(&mut e);
    assert!(used_tables(&lines), "{lines:?}");
    assert!(
        lines.iter().any(|l| l.contains(" score mate -8 ")),
        "{lines:?}"
    );
    e.send("quit");
    assert_eq!(e.exit_within(Duration::from_secs(10)), Some(0));
}
