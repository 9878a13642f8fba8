//! `qi tb` end to end: generate a small set of tables, probe positions,
//! print the statistics, and refuse bad input with exit code 2.

use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Duration;

use crate::common;

use common::ports::loopback_hosts;
use common::{bestmove, Engine, QI};

fn qi(args: &[&str]) -> (i32, String, String) {
    let out = Command::new(QI).args(args).output().expect("qi runs");
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// A fresh directory under the target's temporary directory.
fn temp_dir(name: &str) -> PathBuf {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join(format!("tb-{name}"));
    let _ = std::fs::remove_dir_all(&dir);
    dir
}

fn generate(dir: &Path, extra: &[&str]) -> (i32, String, String) {
    let mut args = vec!["tb", "generate", "--threads", "2"];
    args.extend_from_slice(extra);
    args.push(dir.to_str().unwrap());
    qi(&args)
}

#[test]
fn generate_probe_and_stats_of_one_material() {
    let dir = temp_dir("lvc");
    let (code, out, err) = generate(&dir, &["--material", "LvC"]);
    assert_eq!(code, 0, "{err}");
    assert!(out.is_empty(), "{out}");
    // The memory bound comes first; LvC needs LvC alone (LvC captures
    // into 1v0, which needs no table).
    assert!(
        err.lines()
            .next()
            .unwrap()
            .starts_with("1 of 1 tables to generate (0 present): at most"),
        "{err}"
    );
    // stderr is a pipe here: no progress bar, the plan (its totals and
    // the material to make) and the line after only.
    assert_eq!(err.lines().count(), 3, "{err}");
    assert!(
        err.lines().nth(1).unwrap().starts_with("LvC\tin core\t-\t"),
        "{err}"
    );
    assert!(
        err.lines()
            .nth(2)
            .unwrap()
            .starts_with("1 tables generated in "),
        "{err}"
    );
    assert!(!err.contains('\r') && !err.contains('\x1b'), "{err:?}");
    assert!(dir.join("LvC.qtb").exists());
    let d = dir.to_str().unwrap();

    // Red Lion beside the Blue den: it enters at once.
    let (code, out, err) = qi(&["tb", "probe", "--fen", "7/3L3/7/7/7/7/7/7/c6 w", d]);
    assert_eq!((code, out.as_str()), (0, "win in 1 ply\n"), "{err}");
    // The same with Blue to move: Blue cannot stop it.
    let (code, out, _) = qi(&["tb", "probe", "--fen", "7/3L3/7/7/7/7/7/7/c6 b", d]);
    assert_eq!((code, out.as_str()), (0, "loss in 2 plies\n"));
    // The longest win of the table (docs/tablebases.md).
    let (_, out, _) = qi(&["tb", "probe", "--fen", "7/7/3c3/7/7/7/7/7/1L5 w", d]);
    assert_eq!(out, "win in 23 plies\n");

    let (code, out, err) = qi(&["tb", "stats", d]);
    assert_eq!(code, 0, "{err}");
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(
        lines[0],
        "material\tpositions\twins\tdraws\tlosses\tlongest win\tlongest win position"
    );
    assert_eq!(
        lines[1],
        "LvC\t4704\t2523\t145\t2036\t23\t7/7/3c3/7/7/7/7/7/1L5 w 0 1"
    );
    assert_eq!(lines[2], "total\t4704\t2523\t145\t2036\t23\t");
    assert_eq!(lines.len(), 3);

    // Run again: the file is present and loaded, nothing is generated.
    let (code, _, err) = generate(&dir, &["--material", "LvC"]);
    assert_eq!(code, 0, "{err}");
    assert!(
        err.starts_with("0 of 1 tables to generate (1 present)"),
        "{err}"
    );
}

#[test]
fn generate_every_two_animal_material_and_resume() {
    let dir = temp_dir("two");
    let (code, _, err) = generate(&dir, &["--pieces", "2"]);
    assert_eq!(code, 0, "{err}");
    // The tables, beside the directory's lock file.
    let files = std::fs::read_dir(&dir)
        .unwrap()
        .filter(|e| {
            e.as_ref()
                .unwrap()
                .path()
                .extension()
                .is_some_and(|x| x == "qtb")
        })
        .count();
    assert_eq!(files, 64);
    assert!(dir.join(qi_tablebase::LOCK_FILE).exists());
    // Remove one file: only it is generated again.
    std::fs::remove_file(dir.join("EvR.qtb")).unwrap();
    let (code, _, err) = generate(&dir, &["--pieces", "2"]);
    assert_eq!(code, 0, "{err}");
    assert!(
        err.starts_with("1 of 64 tables to generate (63 present)"),
        "{err}"
    );
    let (code, out, _) = qi(&["tb", "stats", dir.to_str().unwrap()]);
    assert_eq!(code, 0);
    assert_eq!(out.lines().count(), 66);
    assert_eq!(
        out.lines().last(),
        Some("total\t320136\t165434\t25780\t128922\t33\t")
    );
    // A drawn position: Lion against Elephant, docs/tablebases.md counts
    // 1 216 draws in LvE; a position already over answers loss in 0.
    let d = dir.to_str().unwrap();
    let (code, out, _) = qi(&["tb", "probe", "--fen", "7/7/7/7/7/7/7/7/L5e w", d]);
    assert_eq!(code, 0);
    assert!(
        ["win", "draw", "loss"].iter().any(|v| out.starts_with(v)),
        "{out}"
    );
}

#[test]
fn bad_input_is_one_line_and_exit_code_2() {
    let dir = temp_dir("bad");
    let (code, _, err) = generate(&dir, &["--material", "LvC"]);
    assert_eq!(code, 0, "{err}");
    let d = dir.to_str().unwrap();
    let missing = temp_dir("missing");
    let m = missing.to_str().unwrap();
    for (args, message) in [
        (vec!["tb", "probe", "--fen", "nonsense", d], "bad --fen"),
        // A material not in the directory.
        (
            vec!["tb", "probe", "--fen", "7/3L3/7/7/7/7/7/7/r6 w", d],
            "the material LvR is not in",
        ),
        (
            vec!["tb", "probe", "--game", "go", "--fen", "x", d],
            "bad --game",
        ),
        (
            vec!["tb", "probe", "--game", "five-tigers", "--fen", "x", d],
            "bad --fen",
        ),
        (
            vec![
                "tb",
                "probe",
                "--game",
                "five-tigers:seven",
                "--fen",
                "x",
                d,
            ],
            "bad --game",
        ),
        (
            vec![
                "tb",
                "generate",
                "--game",
                "five-tigers",
                "--pieces",
                "6",
                d,
            ],
            "--pieces",
        ),
        (
            vec![
                "tb",
                "generate",
                "--game",
                "five-tigers:shandong-shuttle",
                "--pieces",
                "6",
                d,
            ],
            "--pieces",
        ),
        (
            vec!["tb", "generate", "--pieces", "5", d],
            "at most 4 animals",
        ),
        (
            vec![
                "tb",
                "generate",
                "--game",
                "five-tigers",
                "--material",
                "6v1",
                d,
            ],
            "bad --material",
        ),
        // Placement phase: not an ending the tables cover.
        (
            vec![
                "tb",
                "probe",
                "--game",
                "five-tigers",
                "--fen",
                "5/5/2X2/5/5 o place X:12,O:13 - o -,- 0",
                d,
            ],
            "not a covered ending",
        ),
        (
            vec!["tb", "probe", "--game", "jungle:chess", "--fen", "x", d],
            "bad --game",
        ),
        (
            vec!["tb", "generate", "--material", "LXvE", d],
            "bad --material",
        ),
        (
            vec![
                "tb",
                "generate",
                "--material",
                "LCvE",
                "--material",
                "LLvE",
                d,
            ],
            "bad --material",
        ),
        (
            vec!["tb", "generate", "--material", "LCTvED", d],
            "at most 4",
        ),
        (vec!["tb", "generate", "--pieces", "9", d], "--pieces"),
        (vec!["tb", "stats", m], "I/O error"),
        (vec!["tb", "frobnicate", d], "unrecognized subcommand"),
    ] {
        let (code, out, err) = qi(&args);
        assert_eq!(code, 2, "{args:?}: {err}");
        assert!(out.is_empty(), "{args:?}: {out}");
        assert_eq!(err.lines().count(), 1, "{args:?}: {err}");
        assert!(
            err.starts_with("qi: error: ") && err.contains(message),
            "{args:?}: {err}"
        );
    }
    // A corrupt file is refused, not misread.
    let file = dir.join("LvC.qtb");
    let mut bytes = std::fs::read(&file).unwrap();
    let last = bytes.len() - 1;
    bytes[last] ^= 1;
    std::fs::write(&file, bytes).unwrap();
    let (code, _, err) = qi(&["tb", "probe", "--fen", "7/3L3/7/7/7/7/7/7/c6 w", d]);
    assert_eq!(code, 2);
    assert!(err.contains("checksum"), "{err}");
    let (code, _, _) = qi(&["tb", "stats", d]);
    assert_eq!(code, 2);
}

/// `go` with `TablebasePath` set: the engine answers from the tables.
fn go(e: &mut Engine, fen: &str) -> Vec<String> {
    e.send(&format!("position fen {fen}"));
    e.send("go depth 3");
    e.until_within("bestmove", Duration::from_secs(60))
}

#[test]
fn the_engine_plays_the_tables_at_the_root() {
    let dir = temp_dir("engine");
    let (code, _, err) = generate(&dir, &["--material", "LvC"]);
    assert_eq!(code, 0, "{err}");
    let mut e = Engine::start(&[]);
    e.send("jcei");
    let hello = e.until("jceiok");
    assert!(hello
        .iter()
        .any(|l| l == "option name TablebasePath type string default <empty>"));
    e.send(&format!(
        "setoption name TablebasePath value {}",
        dir.display()
    ));

    // Enter the den at once.
    let lines = go(&mut e, "7/3L3/7/7/7/7/7/7/c6 w 0 1");
    assert!(
        lines.iter().any(|l| l.contains(" score mate 1 ")),
        "{lines:?}"
    );
    assert!(
        lines.contains(&"info string tablebase win in 1 plies".to_string()),
        "{lines:?}"
    );
    assert_eq!(bestmove(lines.last().unwrap()), "d8d9");
    // Lost in 2: the longest loss, mate -1.
    let lines = go(&mut e, "7/3L3/7/7/7/7/7/7/c6 b 0 1");
    assert!(
        lines.iter().any(|l| l.contains(" score mate -1 ")),
        "{lines:?}"
    );
    // The longest win of LvC, 23 plies: mate in 12, the first move of it.
    let lines = go(&mut e, "7/7/3c3/7/7/7/7/7/1L5 w 0 1");
    assert!(
        lines.iter().any(|l| l.contains(" score mate 12 ")),
        "{lines:?}"
    );
    let first = bestmove(lines.last().unwrap()).to_string();
    // After it the tables say the Cat is lost in 22.
    let (_, out, _) = qi(&[
        "tb",
        "probe",
        "--fen",
        "7/7/3c3/7/7/7/7/7/1L5 w 0 1",
        dir.to_str().unwrap(),
    ]);
    assert_eq!(out, "win in 23 plies\n");
    e.send(&format!(
        "position fen 7/7/3c3/7/7/7/7/7/1L5 w 0 1 moves {first}"
    ));
    e.send("go depth 3");
    let lines = e.until_within("bestmove", Duration::from_secs(60));
    assert!(
        lines.contains(&"info string tablebase loss in 22 plies".to_string()),
        "{lines:?}"
    );

    // 190 plies without a capture, 10 left before the draw: a win in 23
    // is not sure, the engine searches.
    let lines = go(&mut e, "7/7/3c3/7/7/7/7/7/1L5 w 190 96");
    assert!(!lines.iter().any(|l| l.contains("tablebase")), "{lines:?}");
    // A material without a table: the search, as before.
    let lines = go(&mut e, "7/7/3c3/7/7/7/7/7/1T5 w 0 1");
    assert!(!lines.iter().any(|l| l.contains("tablebase")), "{lines:?}");
    // A directory that cannot be read is an error; the engine goes on.
    e.send("setoption name TablebasePath value /nonexistent/qi-tables");
    let lines = e.until("info string error");
    assert!(lines.last().unwrap().contains("TablebasePath"), "{lines:?}");
    e.send("quit");
    assert_eq!(e.exit_within(Duration::from_secs(10)), Some(0));
}

#[test]
fn five_tigers_generate_probe_and_stats() {
    let dir = temp_dir("five-tigers");
    let d = dir.to_str().unwrap();
    let game = ["--game", "five-tigers:shandong-shuttle"];
    let (code, out, err) = generate(&dir, &[&game[..], &["--material", "3v1"]].concat());
    assert_eq!(code, 0, "{err}");
    assert!(out.is_empty(), "{out}");
    assert!(
        err.starts_with("1 of 1 tables to generate (0 present): about"),
        "{err}"
    );
    assert!(dir.join("3v1.qft").exists());
    // X completes the three-diagonal a3-b2-c1 and takes O's last piece.
    let pos = "4O/5/X4/1X3/1X3 x move X:0,O:0 - x -,- 0";
    let (code, out, err) = qi(&[&["tb", "probe"][..], &game, &["--fen", pos, d]].concat());
    assert_eq!((code, out.as_str()), (0, "win in 2 plies\n"), "{err}");
    // After the forming step, with the removal owed (no file stores it):
    // the removal of the last piece is left, one ply.
    let rules = qi_five_tigers::Rules::shandong_shuttle();
    let start = qi_five_tigers::FiveTigers::from_text_lenient(pos, rules).unwrap();
    let owed = qi_core::Position::legal_moves(&start)
        .into_iter()
        .map(|mv| {
            let mut child = start;
            qi_core::Position::play(&mut child, mv).unwrap();
            child
        })
        .find(|child| !child.owed().is_empty())
        .expect("a forming step")
        .to_string();
    let (code, out, err) = qi(&[&["tb", "probe"][..], &game, &["--fen", &owed, d]].concat());
    assert_eq!((code, out.as_str()), (0, "win in 1 ply\n"), "{owed}: {err}");
    let (code, out, err) = qi(&[&["tb", "stats"][..], &game, &[d]].concat());
    assert_eq!(code, 0, "{err}");
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(
        lines[0],
        "material\tpositions\tcanonical\tstored\twins\tdraws\tlosses\tlongest win\tlongest win position"
    );
    // 25 * C(24, 3) * 2 = 101 200 positions in 12 870 classes; the side
    // with three pieces wins whoever it is, the side to move decides.
    assert!(lines[1].starts_with("3v1\t101200\t12870\t12870\t50600\t0\t50600\t16\t"));
    assert_eq!(lines.len(), 3);
    // The shandong rules (shuttle forbidden) need other tables: the file
    // is refused.
    let (code, _, err) = qi(&["tb", "stats", "--game", "five-tigers", d]);
    assert_eq!(code, 2);
    assert!(err.contains("another shuttle rule"), "{err}");
    // Everything up to 2 a side, resuming: 3v1 is loaded, not solved again.
    let (code, _, err) = generate(&dir, &[&game[..], &["--pieces", "2"]].concat());
    assert_eq!(code, 0, "{err}");
    assert!(
        err.starts_with("4 of 4 tables to generate (0 present)"),
        "{err}"
    );
    let (code, _, err) = generate(&dir, &game);
    assert_eq!(code, 0, "{err}");
    assert!(
        err.starts_with("4 of 9 tables to generate (5 present)"),
        "{err}"
    );
    let (_, out, _) = qi(&[&["tb", "stats"][..], &game, &[d]].concat());
    assert_eq!(out.lines().count(), 11);
    assert!(
        out.lines()
            .last()
            .unwrap()
            .starts_with("total\t9592200\t1203990\t"),
        "{out}"
    );
}

/// Under the shuttle ban the tables go to 4 a side: `4v1` (which needs no
/// other table) is generated with its bans, 2 850 322 states for its
/// 66 962 canonical positions.
#[test]
fn five_tigers_generates_4_a_side_under_the_shuttle_ban() {
    let dir = temp_dir("five-tigers-ban");
    let d = dir.to_str().unwrap();
    let game = ["--game", "five-tigers:shandong"];
    let (code, _, err) = generate(&dir, &[&game[..], &["--material", "4v1"]].concat());
    assert_eq!(code, 0, "{err}");
    let (code, out, err) = qi(&[&["tb", "stats"][..], &game, &[d]].concat());
    assert_eq!(code, 0, "{err}");
    assert!(
        out.lines()
            .nth(1)
            .is_some_and(|l| l.starts_with("4v1\t531300\t66962\t2850322\t")),
        "{out}"
    );
}

/// The root move from the tables must not repeat a position for the third
/// time: the fastest table win here, c7d7, is a threefold repetition draw.
#[test]
fn the_root_move_from_the_tables_respects_repetition() {
    let dir = temp_dir("root-repetition");
    let (code, _, err) = generate(&dir, &["--material", "LvR"]);
    assert_eq!(code, 0, "{err}");
    let mut e = Engine::start(&["--tablebase", dir.to_str().unwrap()]);
    let fen = "7/7/4L2/7/1r5/7/7/7/7 w";
    let history = "e7d7 b5b4 d7e7 b4b5 e7d7 b5b4 d7c7 b4b5";
    e.send(&format!("position fen {fen} moves {history}"));
    e.send("go movetime 200");
    let lines = e.until_within("bestmove", Duration::from_secs(60));
    let mv = bestmove(lines.last().unwrap()).to_string();
    assert_ne!(mv, "c7d7", "{lines:?}");
    // Whatever it plays, the game goes on (no repetition draw) and the
    // tables still value it as won for Red.
    e.send(&format!("position fen {fen} moves {history} {mv}"));
    e.send("d");
    e.until("Blue to move");
    // The result, if any, follows the board.
    e.send("eval");
    let after = e.until("info string eval");
    assert!(!after.iter().any(|l| l.starts_with("result")), "{after:?}");
    // Under `go infinite` the tables' answer waits for `stop`.
    e.send("position fen 7/3L3/7/7/7/7/7/7/r6 w");
    e.send("go infinite");
    let first = e.until("info string tablebase");
    assert!(first.iter().any(|l| l.contains(" pv d8d9")), "{first:?}");
    e.silent_for(Duration::from_millis(300));
    e.send("stop");
    assert_eq!(e.until("bestmove"), ["bestmove d8d9"]);
    e.send("quit");
    assert_eq!(e.exit_within(Duration::from_secs(10)), Some(0));
}

/// Writers of one directory: one at a time (the directory's lock), each
/// table written through a temporary file of its own, and what a killed
/// run left behind removed by the next.
#[test]
fn generate_locks_the_directory_and_cleans_what_a_killed_run_left() {
    let dir = temp_dir("lock");
    std::fs::create_dir_all(&dir).unwrap();
    for stale in [".LvC.qtb.Ab12Cd.tmp", "LvC.tmp"] {
        std::fs::write(dir.join(stale), b"partial").unwrap();
    }
    // Another writer holds the lock: the run waits for it.
    let lock = qi_tablebase::WriteLock::try_acquire(&dir).unwrap().unwrap();
    let child = Command::new(QI)
        .args(["tb", "generate", "--material", "LvC"])
        .arg(&dir)
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    std::thread::sleep(Duration::from_millis(500));
    assert!(!dir.join("LvC.qtb").exists(), "it waited");
    drop(lock);
    let out = child.wait_with_output().unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{err}");
    assert!(
        err.contains("waiting for another qi tb generate or join"),
        "{err}"
    );
    assert!(dir.join("LvC.qtb").exists());
    let tmp: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| n.ends_with(".tmp"))
        .collect();
    assert!(tmp.is_empty(), "{tmp:?}");
    // Two runs at once into one directory: both succeed.
    let fresh = temp_dir("two-runs");
    let runs: Vec<_> = (0..2)
        .map(|_| {
            Command::new(QI)
                .args(["tb", "generate", "--material", "RvR"])
                .arg(&fresh)
                .stderr(std::process::Stdio::piped())
                .spawn()
                .unwrap()
        })
        .collect();
    for run in runs {
        let out = run.wait_with_output().unwrap();
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
    }
    let (code, out, _) = qi(&[
        "tb",
        "probe",
        "--fen",
        "7/7/7/7/7/7/7/7/R5r w",
        fresh.to_str().unwrap(),
    ]);
    assert_eq!(code, 0);
    assert!(!out.is_empty());
}

/// An out-of-core solve killed with SIGKILL leaves no table, only its
/// temporary files (the table in progress and its schedule), which the
/// next run removes before it solves the table again, whole.
#[cfg(unix)]
#[test]
fn a_killed_out_of_core_solve_leaves_no_table_and_is_solved_again() {
    let dir = temp_dir("killed-out-of-core");
    std::fs::create_dir_all(&dir).unwrap();
    let start = || {
        Command::new(QI)
            // 3v3 under the ban fits out of core only (about 100 MB
            // against 150 MB in core).
            .env("QI_TB_MEMORY", "120000000")
            .args(["tb", "generate", "--game", "five-tigers:shandong"])
            .args(["--material", "3v3"])
            .arg(&dir)
            .stderr(std::process::Stdio::piped())
            .spawn()
            .unwrap()
    };
    let temporaries = || -> Vec<String> {
        std::fs::read_dir(&dir)
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .filter(|n| n.starts_with(".3v3.qft.") && n.ends_with(".tmp"))
            .collect()
    };
    let mut child = start();
    let t = std::time::Instant::now();
    while temporaries().len() < 2 {
        assert!(t.elapsed() < Duration::from_secs(120), "no solve began");
        std::thread::sleep(Duration::from_millis(20));
    }
    child.kill().unwrap();
    let killed = child.wait().unwrap();
    assert!(!killed.success());
    assert!(!dir.join("3v3.qft").exists(), "a table from a killed run");
    assert_eq!(temporaries().len(), 2);
    let out = start().wait_with_output().unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{err}");
    assert!(err.contains("3v3: 65850812 states out of core"), "{err}");
    assert!(temporaries().is_empty());
    let d = dir.to_str().unwrap();
    let (code, out, err) = qi(&["tb", "stats", "--game", "five-tigers:shandong", d]);
    assert_eq!(code, 0, "{err}");
    let line = out
        .lines()
        .find(|l| l.starts_with("3v3\t"))
        .unwrap_or_default();
    let fields: Vec<&str> = line.split('\t').collect();
    // The in-core generator's figures (docs/data).
    assert_eq!(
        fields.get(1..3).map(|f| f.to_vec()),
        Some(vec!["7084000", "887700"]),
        "{out}"
    );
    assert_eq!(
        fields.get(4..8).map(|f| f.to_vec()),
        Some(vec!["1321784", "5316888", "445328", "38"]),
        "{out}"
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

/// A FIFO named as a table hangs neither `qi tb probe` nor the engine:
/// it is refused unread, and the engine answers throughout.
#[cfg(unix)]
#[test]
fn a_fifo_under_a_tables_name_hangs_nothing() {
    let dir = temp_dir("fifo");
    std::fs::create_dir_all(&dir).unwrap();
    let made = Command::new("mkfifo")
        .arg(dir.join("LvC.qtb"))
        .status()
        .unwrap();
    assert!(made.success());
    let mut probe = Command::new(QI)
        .args(["tb", "probe", "--fen", "7/3L3/7/7/7/7/7/7/c6 w"])
        .arg(&dir)
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let deadline = std::time::Instant::now() + Duration::from_secs(10);
    let code = loop {
        if let Some(status) = probe.try_wait().unwrap() {
            break status.code();
        }
        if std::time::Instant::now() > deadline {
            let _ = probe.kill();
            panic!("qi tb probe hangs on a FIFO");
        }
        std::thread::sleep(Duration::from_millis(20));
    };
    assert_eq!(code, Some(2));
    let mut e = Engine::start(&["--tablebase", dir.to_str().unwrap()]);
    e.send("position fen 7/3L3/7/7/7/7/7/7/c6 w");
    e.send("go depth 3");
    e.send("isready");
    // Both answers come, in whichever order the search allows.
    let mut lines = e.until_within("bestmove", Duration::from_secs(10));
    assert_eq!(bestmove(lines.last().unwrap()), "d8d9");
    if !lines.contains(&"readyok".to_string()) {
        lines = e.until_within("readyok", Duration::from_secs(10));
    }
    assert!(lines.contains(&"readyok".to_string()), "{lines:?}");
    e.send("quit");
    assert_eq!(e.exit_within(Duration::from_secs(10)), Some(0));
}

#[test]
fn two_processes_on_timely_write_the_generator_s_tables() {
    two_processes_write_the_generator_s_tables("five-tigers:shandong-shuttle", "3v2", "qft", false);
}

#[test]
fn two_jungle_processes_on_timely_write_the_generator_s_tables() {
    two_processes_write_the_generator_s_tables("jungle:traditional", "LRvE", "qtb", false);
}

#[test]
fn two_processes_on_timely_write_the_generator_s_tables_under_the_shuttle_ban() {
    // The cells of the ban on the dataflow rounds: the same files as the
    // one-process generator with bans.
    two_processes_write_the_generator_s_tables("five-tigers:shandong", "3v2", "qft", false);
}

#[test]
fn two_processes_on_timely_write_a_twin_each_alone() {
    // 2v3 is 3v2 with the colours swapped: each process writes it from
    // its own 3v2, no round on the cluster, the generator's bytes.
    for spec in ["five-tigers:shandong", "five-tigers:shandong-shuttle"] {
        for err in two_processes_write_the_generator_s_tables(spec, "3v2,2v3", "qft", false) {
            let line = |m: &str| err.lines().find(|l| l.starts_with(m)).unwrap_or_default();
            assert!(
                line("2v3: ").contains("states from its twin"),
                "{spec}: {err}"
            );
            assert!(line("3v2: ").contains("rounds"), "{spec}: {err}");
        }
    }
}

#[test]
fn two_processes_write_partitions_that_join_into_the_generator_s_tables() {
    // 3v3's conversions read 3v1 and 1v3 from both processes' partitions.
    two_processes_write_the_generator_s_tables("five-tigers:shandong-shuttle", "3v3", "qft", true);
    two_processes_write_the_generator_s_tables("jungle:traditional", "LRvE", "qtb", true);
}

#[test]
fn two_processes_write_partitions_that_join_into_the_generator_s_tables_under_the_ban() {
    two_processes_write_the_generator_s_tables("five-tigers:shandong", "4v1", "qft", true);
}

/// Two processes of a cluster on 127.0.0.1, two workers each, generate
/// `material` (materials apart by commas) and the tables it needs, each
/// into its own directory: the files of the one-process generator (with
/// `partitioned`, each process's partitions, joined by `qi tb join`).
fn two_processes_write_the_generator_s_tables(
    spec: &str,
    material: &str,
    extension: &str,
    partitioned: bool,
) -> Vec<String> {
    let tag = format!(
        "{extension}-{}-{material}{}",
        spec.replace(':', "-"),
        if partitioned { "-parts" } else { "" }
    );
    let reference = temp_dir(&format!("{tag}-reference"));
    let materials: Vec<&str> = material
        .split(',')
        .flat_map(|m| ["--material", m])
        .collect();
    let (code, _, err) = generate(&reference, &[&["--game", spec][..], &materials].concat());
    assert_eq!(code, 0, "{err}");
    let hosts = temp_dir(&format!("{tag}-hosts"));
    std::fs::create_dir_all(&hosts).unwrap();
    let hosts_file = hosts.join("hosts.txt");
    std::fs::write(
        &hosts_file,
        format!("# two processes\n{}\n", loopback_hosts(2).join("\n")),
    )
    .unwrap();
    let dirs: Vec<PathBuf> = (0..2)
        .map(|i| temp_dir(&format!("{tag}-process-{i}")))
        .collect();
    // Both processes at once: each waits for the other to connect.
    let children: Vec<_> = dirs
        .iter()
        .enumerate()
        .map(|(i, dir)| {
            Command::new(QI)
                .args(["tb", "generate", "--game", spec])
                .args(&materials)
                .args(["--workers", "2", "--process", &i.to_string()])
                .args(partitioned.then_some("--partitioned"))
                .arg("--hosts")
                .arg(&hosts_file)
                .arg(dir)
                .stdout(std::process::Stdio::piped())
                .stderr(std::process::Stdio::piped())
                .spawn()
                .expect("qi runs")
        })
        .collect();
    let mut said = Vec::new();
    for child in children {
        let out = child.wait_with_output().unwrap();
        let err = String::from_utf8_lossy(&out.stderr).into_owned();
        assert!(out.status.success(), "{err}");
        for m in material.split(',') {
            assert!(err.contains(&format!("{m}: ")), "{err}");
        }
        assert!(err.contains("4 workers in all"), "{err}");
        said.push(err);
    }
    let dirs = if partitioned {
        // No process wrote a table, only its own workers' partitions.
        for (i, dir) in dirs.iter().enumerate() {
            for entry in std::fs::read_dir(dir).unwrap() {
                let name = entry.unwrap().file_name().to_string_lossy().into_owned();
                assert!(!name.ends_with(&format!(".{extension}")), "{name}");
                if let Some(rest) = name.split(".part-").nth(1) {
                    assert!(
                        rest.starts_with(&format!("{}-of-4", 2 * i))
                            || rest.starts_with(&format!("{}-of-4", 2 * i + 1)),
                        "{name} in process {i}'s directory"
                    );
                }
            }
        }
        let out = temp_dir(&format!("{tag}-joined"));
        let joined = Command::new(QI)
            .args([
                "tb",
                "join",
                "--game",
                spec,
                "--material",
                material,
                "--out",
            ])
            .arg(&out)
            .args(&dirs)
            .output()
            .unwrap();
        let err = String::from_utf8_lossy(&joined.stderr);
        assert!(joined.status.success(), "{err}");
        assert!(err.contains("tables joined"), "{err}");
        vec![out]
    } else {
        dirs
    };
    let names = |dir: &Path| {
        let mut names: Vec<String> = std::fs::read_dir(dir)
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .filter(|n| n.ends_with(&format!(".{extension}")))
            .collect();
        names.sort();
        names
    };
    let expected = names(&reference);
    assert!(!expected.is_empty(), "{expected:?}");
    for dir in &dirs {
        assert_eq!(names(dir), expected);
        for name in &expected {
            let (a, b) = (
                std::fs::read(reference.join(name)),
                std::fs::read(dir.join(name)),
            );
            assert!(
                a.unwrap() == b.unwrap(),
                "{name} differs in {}",
                dir.display()
            );
        }
    }
    said
}

#[test]
fn a_partitioned_run_resumes_counting_partitions_and_join_resumes_too() {
    let dir = temp_dir("parts-resume");
    let out = temp_dir("parts-resume-out");
    let (d, o) = (dir.to_str().unwrap(), out.to_str().unwrap());
    let run = ["--material", "LCvE", "--workers", "2", "--partitioned"];
    let (code, _, err) = generate(&dir, &run);
    assert_eq!(code, 0, "{err}");
    let all: usize = err.split(' ').next().unwrap().parse().unwrap();
    assert!(all > 1, "{err}");
    assert!(
        err.starts_with(&format!("{all} of {all} tables to generate (0 present)")),
        "{err}"
    );
    // Its partitions are there: the plan counts them, nothing is made.
    let (code, _, err) = generate(&dir, &run);
    assert_eq!(code, 0, "{err}");
    assert!(
        err.starts_with(&format!("0 of {all} tables to generate ({all} present)")),
        "{err}"
    );
    assert!(err.contains("\n0 materials solved"), "{err}");
    // One worker's partition of one material gone: that material again.
    std::fs::remove_file(dir.join("LCvE.qtb.part-1-of-2")).unwrap();
    let (code, _, err) = generate(&dir, &run);
    assert_eq!(code, 0, "{err}");
    let rest = all - 1;
    assert!(
        err.starts_with(&format!("1 of {all} tables to generate ({rest} present)")),
        "{err}"
    );
    assert!(err.contains("\n1 materials solved"), "{err}");
    // The join writes through the executor: a killed join's temporary
    // file removed, a table already there kept.
    std::fs::create_dir_all(&out).unwrap();
    std::fs::write(out.join(".LCvE.qtb.a1B2c3.tmp"), b"half").unwrap();
    let join = ["tb", "join", "--material", "LCvE", "--out", o, d];
    let (code, _, err) = qi(&join);
    assert_eq!(code, 0, "{err}");
    assert!(err.contains(&format!("{all} tables joined")), "{err}");
    assert!(!out.join(".LCvE.qtb.a1B2c3.tmp").exists());
    assert!(out.join(qi_tablebase::LOCK_FILE).exists());
    let (code, _, err) = qi(&join);
    assert_eq!(code, 0, "{err}");
    assert!(err.starts_with("0 tables joined"), "{err}");
}

#[test]
fn joining_without_the_partitions_is_refused_with_exit_code_2() {
    let parts = temp_dir("ft-join-no-parts");
    std::fs::create_dir_all(&parts).unwrap();
    let out = temp_dir("ft-join-no-parts-out");
    let (code, out_text, err) = qi(&[
        "tb",
        "join",
        "--game",
        "five-tigers:shandong-shuttle",
        "--material",
        "2v1",
        "--out",
        out.to_str().unwrap(),
        parts.to_str().unwrap(),
    ]);
    assert_eq!(code, 2, "{err}");
    assert!(out_text.is_empty(), "{out_text}");
    assert!(err.contains("no partition of 2v1"), "{err}");
    assert_eq!(err.trim().lines().count(), 1, "{err}");
}

#[test]
fn a_bad_cluster_is_refused_with_exit_code_2() {
    let dir = temp_dir("ft-bad-cluster");
    let hosts = temp_dir("ft-bad-hosts");
    std::fs::create_dir_all(&hosts).unwrap();
    let file = hosts.join("hosts.txt");
    std::fs::write(&file, "127.0.0.1:2101\nnot-an-address\n").unwrap();
    let file = file.to_str().unwrap();
    for (extra, needle) in [
        (
            vec![
                "--game",
                "five-tigers:shandong-shuttle",
                "--hosts",
                file,
                "--process",
                "0",
            ],
            "line 2",
        ),
        (vec!["--partitioned"], "--partitioned"),
        (
            vec!["--game", "five-tigers:shandong", "--partitioned"],
            "--partitioned",
        ),
        (
            vec![
                "--game",
                "five-tigers:shandong-shuttle",
                "--hosts",
                "/nonexistent/hosts",
            ],
            "--process",
        ),
    ] {
        let (code, out, err) = generate(&dir, &extra);
        assert_eq!(code, 2, "{extra:?}: {err}");
        assert!(out.is_empty(), "{out}");
        assert!(err.contains(needle), "{extra:?}: {err}");
    }
}

/// `qi tb generate` writes dense (version 2) files under the shuttle
/// allowed; `qi tb probe` and `qi tb stats` read them and a keyed
/// (version 1) copy of the same table alike.
#[test]
fn five_tigers_generate_writes_dense_files_read_as_keyed_ones() {
    use qi_tablebase::five_tigers as ft;
    let game = ["--game", "five-tigers:shandong-shuttle"];
    let dense = temp_dir("five-tigers-dense");
    let (code, out, err) = generate(&dense, &[&game[..], &["--material", "3v2"]].concat());
    assert_eq!(code, 0, "{err}");
    assert!(out.is_empty(), "{out}");
    let rules = qi_five_tigers::Rules::shandong_shuttle();
    let keyed = temp_dir("five-tigers-keyed");
    std::fs::create_dir_all(&keyed).unwrap();
    // 3v2 leads to no smaller table under the shuttle allowed.
    let path = ft::Tablebase::file_path(&dense, "3v2".parse().unwrap());
    let bytes = std::fs::read(&path).unwrap();
    assert_eq!(u16::from_le_bytes([bytes[8], bytes[9]]), 2);
    let table = qi_tablebase::load_table::<qi_five_tigers::FiveTigers>(&path, &rules).unwrap();
    qi_tablebase::save_table(&keyed, &table.keyed()).unwrap();
    let bytes = std::fs::read(keyed.join("3v2.qft")).unwrap();
    assert_eq!(u16::from_le_bytes([bytes[8], bytes[9]]), 1);
    let mut stats = Vec::new();
    for dir in [&dense, &keyed] {
        let d = dir.to_str().unwrap();
        let pos = "X4/5/5/5/XOO1X x move X:0,O:0 - x -,- 0";
        let (code, out, err) = qi(&[&["tb", "probe"][..], &game, &["--fen", pos, d]].concat());
        assert_eq!((code, out.as_str()), (0, "win in 49 plies\n"), "{d}: {err}");
        let (code, out, err) = qi(&[&["tb", "stats"][..], &game, &[d]].concat());
        assert_eq!(code, 0, "{err}");
        stats.push(out);
    }
    assert_eq!(stats[0], stats[1], "the same statistics from either file");
    assert!(stats[0].contains("3v2\t1062600\t133718\t133718\t408674\t299778\t354148\t49\t"));
    // No generator is chosen: the option is gone.
    let (code, _, err) = generate(&dense, &["--generator", "graph", "--material", "3v1"]);
    assert_eq!(code, 2);
    assert!(err.contains("--generator"), "{err}");
}

/// Under the shuttle ban a table that fits the machine's memory neither in
/// core nor out of core is refused before anything is solved, one that
/// fits only out of core is solved so (the machine's memory given by
/// `QI_TB_MEMORY`, so that the test does not depend on this machine's).
#[test]
fn a_generation_beyond_the_machine_s_memory_is_refused_up_front() {
    let dir = temp_dir("memory");
    std::fs::create_dir_all(&dir).unwrap();
    let run = |memory: &str, material: &str| {
        let out = Command::new(QI)
            .env("QI_TB_MEMORY", memory)
            .args(["tb", "generate", "--game", "five-tigers:shandong"])
            .args(["--material", material])
            .arg(&dir)
            .output()
            .expect("qi runs");
        (
            out.status.code().unwrap_or(-1),
            String::from_utf8_lossy(&out.stderr).into_owned(),
        )
    };
    let tables = |dir: &Path| {
        std::fs::read_dir(dir)
            .unwrap()
            .filter(|e| {
                let e = e.as_ref().unwrap();
                e.file_name().to_string_lossy().ends_with(".qft")
            })
            .count()
    };
    // 5v5 on a machine of 10 GB: about 56 GB in core and 19 GB out of
    // core (its states are counted by sampling, so this is known at once).
    let (code, err) = run("10000000000", "5v5");
    assert_eq!(code, 2, "{err}");
    assert!(
        err.contains("the table 5v5 needs about 19.0 GB")
            && err.contains("more than the 10.0 GB")
            && err.contains("out of core"),
        "{err}"
    );
    assert_eq!(tables(&dir), 0, "nothing solved");
    let (code, err) = run("lots", "4v3");
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("bad QI_TB_MEMORY 'lots'"), "{err}");
    // 3v2 under the ban needs about 17 MB in core and 6 MB out of core
    // (and no other table): with 12 MB it is solved out of core, and its
    // figures are the in-core generator's.
    let (code, err) = run("12000000", "3v2");
    assert_eq!(code, 0, "{err}");
    assert!(err.contains("\n3v2\tout of core\t-\t"), "{err}");
    assert!(err.contains("3v2: 7649622 states out of core"), "{err}");
    let d = dir.to_str().unwrap();
    // `qi tb stats`'s line of `material`: positions, canonical, (stored,
    // not checked), won, drawn, lost, longest win.
    let stats_are = |material: &str, expected: [&str; 6]| {
        let (code, out, err) = qi(&["tb", "stats", "--game", "five-tigers:shandong", d]);
        assert_eq!(code, 0, "{err}");
        let prefix = format!("{material}\t");
        let line = out
            .lines()
            .find(|l| l.starts_with(&prefix))
            .unwrap_or_default();
        let fields: Vec<&str> = line.split('\t').collect();
        let mut found = fields.get(1..8).map(|f| f.to_vec()).unwrap_or_default();
        if found.len() == 7 {
            found.remove(2);
        }
        assert_eq!(found, expected, "{out}");
    };
    stats_are("3v2", ["1062600", "133718", "531300", "0", "531300", "39"]);
    // Enough memory: 4v2 in core, reading 4v1 (its formations' removals)
    // from the directory.
    let (code, err) = run("200000000", "4v2");
    assert_eq!(code, 0, "{err}");
    assert!(err.contains("2 of 2 tables to generate"), "{err}");
    assert!(err.contains("4v2: 45139988 states in core"), "{err}");
    stats_are(
        "4v2",
        ["5313000", "666350", "2656500", "0", "2656500", "21"],
    );
    // 2v4 (and 1v4, which it reads) from their twins in the directory,
    // with the colours swapped: 4v2's figures.
    let (code, err) = run("200000000", "2v4");
    assert_eq!(code, 0, "{err}");
    for m in ["1v4", "2v4"] {
        assert!(err.contains(&format!("\n{m}\tfrom its twin\t")), "{err}");
    }
    assert!(
        err.contains("2v4: 45139988 states from its twin (colours swapped)"),
        "{err}"
    );
    stats_are(
        "2v4",
        ["5313000", "666350", "2656500", "0", "2656500", "21"],
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn the_plan_is_printed_and_nothing_generated() {
    // Five Tigers: `3v3` reads `3v1` and `1v3` (a three-diagonal takes two
    // pieces), two sizes below it; `3v2` reads nothing.
    let dir = temp_dir("plan");
    let game = ["--game", "five-tigers:shandong-shuttle", "--plan"];
    let materials = ["--material", "3v3", "--material", "3v2"];
    let (code, out, err) = generate(&dir, &[&game[..], &materials].concat());
    assert_eq!(code, 0, "{err}");
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines[0], "material\thow\treads\tworking memory\tfile");
    let rows: Vec<Vec<&str>> = lines[1..5]
        .iter()
        .map(|l| l.split('\t').collect())
        .collect();
    let firsts: Vec<[&str; 3]> = rows.iter().map(|r| [r[0], r[1], r[2]]).collect();
    assert_eq!(
        firsts,
        [
            ["3v1", "in core", "-"],
            ["1v3", "in core", "-"],
            ["3v2", "in core", "-"],
            ["3v3", "in core", "3v1,1v3"],
        ]
    );
    assert!(lines[5].starts_with("total\t4 of 4 to make\t"), "{out}");
    assert!(!dir.join("3v1.qft").exists());

    // Jungle, one table present: it is said so, and its readers listed.
    let dir = temp_dir("plan-jungle");
    let (code, _, err) = generate(&dir, &["--material", "LvE"]);
    assert_eq!(code, 0, "{err}");
    let (code, out, err) = generate(&dir, &["--plan", "--material", "LCvE"]);
    assert_eq!(code, 0, "{err}");
    let row = |m: &str| {
        let mut fields: Vec<String> = out
            .lines()
            .find(|l| l.starts_with(&format!("{m}\t")))
            .unwrap_or_default()
            .split('\t')
            .take(3)
            .map(String::from)
            .collect();
        // The materials read, in any order.
        if let Some(reads) = fields.get_mut(2) {
            let mut each: Vec<&str> = reads.split(',').collect();
            each.sort_unstable();
            *reads = each.join(",");
        }
        fields
    };
    assert_eq!(row("LvE"), ["LvE", "present", "-"]);
    assert_eq!(row("CvE"), ["CvE", "in core", "-"]);
    assert_eq!(row("LCvE"), ["LCvE", "in core", "CvE,LvE"]);
    assert!(!dir.join("LCvE.qtb").exists());
}
