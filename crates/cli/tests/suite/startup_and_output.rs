//! The game chosen without arguments (`QI_VARIANT`, `qi.conf` beside the
//! binary), and output that cannot be written (a closed pipe, a full
//! disk): never a panic.

use crate::common;

use std::fs;
use std::process::{Command, Stdio};

use common::{Engine, QI};

/// The `d` board's position text after `qi` is started by `command`.
fn position_after_start(command: &mut Command) -> Vec<String> {
    let mut e = Engine::spawn(command.stderr(Stdio::null()));
    e.send("d");
    e.send("isready");
    let lines = e.until("readyok");
    e.send("quit");
    lines
}

fn five_tigers_board(lines: &[String]) -> bool {
    // Five Tigers starts with an empty board: no JFEN in the `d` text.
    !lines.iter().any(|l| l.contains("l5t/1d3c1/r1p1w1e"))
}

#[test]
fn qi_variant_chooses_the_game_of_an_engine_started_without_arguments() {
    let lines = position_after_start(Command::new(QI).env("QI_VARIANT", "five-tigers:ten"));
    assert!(five_tigers_board(&lines), "{lines:?}");
    assert!(!lines.iter().any(|l| l.contains("error")), "{lines:?}");
    // `--game` wins over the environment.
    let lines = position_after_start(
        Command::new(QI)
            .args(["engine", "--game", "jungle"])
            .env("QI_VARIANT", "five-tigers"),
    );
    assert!(!five_tigers_board(&lines), "{lines:?}");
    // A bad value is reported in the protocol's words; the engine goes on.
    let lines = position_after_start(Command::new(QI).env("QI_VARIANT", "chess"));
    assert!(
        lines[0].starts_with("info string error: QI_VARIANT: Variant: unknown game 'chess'"),
        "{lines:?}"
    );
    assert!(!five_tigers_board(&lines), "{lines:?}");
}

/// A link to `qi` with a `qi.conf` beside it, as a GUI's `engine/jungle`
/// link is set up. (A link, not a copy: a copy written while other tests
/// fork could not be started, "text file busy".)
#[cfg(unix)]
#[test]
fn qi_conf_beside_the_binary_sets_options_at_start() {
    let dir = std::env::temp_dir().join(format!("qi-conf-test-{}", std::process::id()));
    fs::create_dir_all(&dir).unwrap();
    let exe = dir.join("jungle");
    let _ = fs::remove_file(&exe);
    std::os::unix::fs::symlink(QI, &exe).unwrap();
    fs::write(
        dir.join("qi.conf"),
        "# chosen by the user\n\nVariant = five-tigers:ten\nHash = 8\nThreads = 0\n",
    )
    .unwrap();
    let lines = position_after_start(Command::new(&exe).env_remove("QI_VARIANT"));
    assert!(five_tigers_board(&lines), "{lines:?}");
    assert!(
        lines[0].starts_with("info string error: ")
            && lines[0].contains("qi.conf:5: option 'Threads'"),
        "{lines:?}"
    );
    // The environment wins over the file.
    let lines = position_after_start(Command::new(&exe).env("QI_VARIANT", "jungle"));
    assert!(!five_tigers_board(&lines), "{lines:?}");
    // A line that is not UTF-8 (a Latin-1 'é' in a comment) is reported
    // and skipped; the lines around it apply.
    fs::write(
        dir.join("qi.conf"),
        b"Variant = five-tigers:ten\r\n# r\xe9glages\nThreads = 0\n",
    )
    .unwrap();
    let lines = position_after_start(Command::new(&exe).env_remove("QI_VARIANT"));
    assert!(five_tigers_board(&lines), "{lines:?}");
    assert!(
        lines[0].starts_with("info string error: ")
            && lines[0].ends_with("qi.conf:2: the line is not UTF-8 text; ignored"),
        "{lines:?}"
    );
    assert!(
        lines[1].contains("qi.conf:3: option 'Threads'"),
        "{lines:?}"
    );
    fs::remove_dir_all(&dir).unwrap();
}

/// Runs `qi args` with its stdout already closed by the reader.
fn with_closed_stdout(args: &[&str]) -> (Option<i32>, String) {
    let mut child = Command::new(QI)
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    drop(child.stdout.take());
    if let Some(mut stdin) = child.stdin.take() {
        use std::io::Write;
        let _ = stdin.write_all(b"isready\nperft 3\nquit\n");
    }
    let out = child.wait_with_output().unwrap();
    (
        out.status.code(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

#[test]
fn a_closed_pipe_ends_quietly() {
    for args in [&["perft", "--divide", "5"][..], &["moves"], &["engine"]] {
        let (code, err) = with_closed_stdout(args);
        assert_eq!(code, Some(0), "{args:?}: {err}");
        assert_eq!(err, "", "{args:?}");
    }
}

#[test]
fn a_full_disk_is_one_line_on_stderr_and_exit_code_3() {
    let Ok(full) = fs::OpenOptions::new().write(true).open("/dev/full") else {
        return; // not Linux
    };
    for args in [&["moves"][..], &["perft", "--divide", "3"], &["engine"]] {
        let mut child = Command::new(QI)
            .args(args)
            .stdin(Stdio::piped())
            .stdout(full.try_clone().unwrap())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        {
            use std::io::Write;
            let mut stdin = child.stdin.take().unwrap();
            let _ = stdin.write_all(b"isready\nquit\n");
        }
        let out = child.wait_with_output().unwrap();
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(3), "{args:?}: {err}");
        assert_eq!(err.lines().count(), 1, "{args:?}: {err}");
        assert!(
            err.starts_with("qi: error: cannot write the output"),
            "{err}"
        );
        assert!(!err.contains("panicked"), "{err}");
    }
}

#[test]
fn a_full_stderr_is_no_panic_either() {
    let Ok(full) = fs::OpenOptions::new().write(true).open("/dev/full") else {
        return; // not Linux
    };
    let out = Command::new(QI)
        .args(["perft", "2"])
        .stderr(full)
        .output()
        .unwrap();
    // `perft` writes its timing to stderr after the total.
    assert_eq!(String::from_utf8_lossy(&out.stdout), "total: 576\n");
    assert_eq!(out.status.code(), Some(3));
}
