//! `qi engine --tablebase DIR` and `setoption name TablebasePath`: the
//! search probes the tables in the tree (`tbhits` in the `info` lines); a
//! directory that cannot be read ends `qi engine --tablebase` with exit
//! code 2.

use std::path::PathBuf;
use std::process::Command;
use std::time::Duration;

mod common;

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
    let lines = search(&mut e);
    assert!(tbhits(&lines), "{lines:?}");
    // Five Tigers has no tables and searches as before; back to Jungle,
    // the tables are probed again.
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
