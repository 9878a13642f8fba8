//! The progress line of `qi match`: drawn on stderr when it is a terminal,
//! absent from pipes.

use std::process::Command;

const QI: &str = env!("CARGO_BIN_EXE_qi");

fn match_args(engine: &str) -> Vec<String> {
    [
        "match",
        "--engine-a",
        engine,
        "--engine-b",
        engine,
        "--games",
        "2",
        "--movetime",
        "5",
        "--max-plies",
        "20",
    ]
    .map(String::from)
    .to_vec()
}

#[test]
fn no_progress_line_on_a_pipe() {
    let engine = format!("{QI} engine");
    let out = Command::new(QI).args(match_args(&engine)).output().unwrap();
    assert!(out.status.success());
    assert!(
        out.stderr.is_empty(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(!String::from_utf8_lossy(&out.stdout).contains('\r'));
}

// util-linux's `script` runs the match on a pseudo-terminal (stdout and
// stderr both); other systems' `script` takes other options.
#[cfg(target_os = "linux")]
#[test]
fn a_progress_line_on_a_terminal() {
    if Command::new("script").arg("--version").output().is_err() {
        eprintln!("no `script`: skipped");
        return;
    }
    let engine = format!("{QI} engine");
    let command = std::iter::once(QI.to_string())
        .chain(match_args(&engine))
        .map(|a| format!("'{a}'"))
        .collect::<Vec<_>>()
        .join(" ");
    let out = Command::new("script")
        .args(["-qec", &command, "/dev/null"])
        .output()
        .unwrap();
    assert!(out.status.success());
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        text.contains("\r\x1b[2Kmatch: 0/2 games, A 0-0-0"),
        "{text:?}"
    );
    assert!(text.contains("\r\x1b[2Kmatch: 2/2 games, A "), "{text:?}");
    // Each game's own line starts on a line the display has erased.
    assert!(text.contains("\x1b[2Kgame 1/2: "), "{text:?}");
    assert!(text.contains("\x1b[2Kscore: A "), "{text:?}");
}
