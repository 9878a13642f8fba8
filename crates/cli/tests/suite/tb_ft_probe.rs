//! `qi tb probe --game five-tigers…` gives value and distance for movement
//! positions within the tables under each shuttle option: nothing owed,
//! removals owed (answered through them), a shuttle ban, and more than 3
//! pieces a side where the shuttle is allowed. The answers are the
//! library's, and the ones that matter are pinned by hand.

use std::path::{Path, PathBuf};
use std::process::Command;

use qi_core::Position;
use qi_five_tigers::{FiveTigers, Rules};
use qi_tablebase::five_tigers::Tablebase;
use qi_tablebase::Wdl;

const QI: &str = env!("CARGO_BIN_EXE_qi");

fn qi(args: &[&str]) -> (i32, String, String) {
    let out = Command::new(QI).args(args).output().expect("qi runs");
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

fn temp_dir(name: &str) -> PathBuf {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join(format!("tb-ft-probe-{name}"));
    let _ = std::fs::remove_dir_all(&dir);
    dir
}

fn generate(dir: &Path, game: &str, materials: &[&str]) {
    let mut args = vec!["tb", "generate", "--threads", "2", "--game", game];
    for m in materials {
        args.extend(["--material", m]);
    }
    args.push(dir.to_str().unwrap());
    let (code, _, err) = qi(&args);
    assert_eq!(code, 0, "{err}");
}

fn probe(dir: &Path, game: &str, fen: &str) -> (i32, String, String) {
    qi(&[
        "tb",
        "probe",
        "--game",
        game,
        "--fen",
        fen,
        dir.to_str().unwrap(),
    ])
}

/// The text `qi tb probe` prints for a value.
fn text(wdl: Wdl, distance: u32) -> String {
    let unit = if distance == 1 { "ply" } else { "plies" };
    match wdl {
        Wdl::Win => format!("win in {distance} {unit}\n"),
        Wdl::Loss => format!("loss in {distance} {unit}\n"),
        Wdl::Draw => "draw\n".to_string(),
    }
}

/// Every `stride`-th stored position of `material`, and the positions
/// with removals owed after the first forming step of the first `owed`
/// stored positions that have one, probed through the CLI and through the
/// library: the same answers. Returns how many of each kind were checked.
fn agree(
    dir: &Path,
    game: &str,
    rules: &Rules,
    material: &str,
    stride: usize,
    owed: usize,
) -> (usize, usize) {
    let tb = Tablebase::load_dir(dir, rules).unwrap();
    let table = tb.table(material.parse().unwrap()).unwrap();
    let mut plain = 0;
    for (pos, wdl, distance) in table.entries().step_by(stride) {
        let (code, out, err) = probe(dir, game, &pos.to_string());
        assert_eq!((code, out), (0, text(wdl, distance)), "{pos}: {err}");
        plain += 1;
    }
    let forming = table.entries().filter_map(|(pos, _, _)| {
        pos.legal_moves().into_iter().find_map(|mv| {
            let mut child = pos;
            child.play(mv).unwrap();
            (!child.owed().is_empty() && child.outcome().is_none()).then_some(child)
        })
    });
    let mut checked = 0;
    for child in forming.step_by(101).take(owed) {
        let (w, d) = tb.probe_through_removals(&child).unwrap().unwrap();
        let (code, out, err) = probe(dir, game, &child.to_string());
        assert_eq!((code, out), (0, text(w, d)), "{child}: {err}");
        checked += 1;
    }
    (plain, checked)
}

#[test]
fn four_against_two_with_the_shuttle_allowed() {
    let dir = temp_dir("shuttle");
    let game = "five-tigers:shandong-shuttle";
    generate(&dir, game, &["4v2"]);
    // Its removals lead only to the end of the game (O cannot form
    // anything with 2 pieces): one file.
    assert!(dir.join("4v2.qft").exists() && !dir.join("3v2.qft").exists());
    let rules = Rules::shandong_shuttle();
    let (plain, owed) = agree(&dir, game, &rules, "4v2", 26_000, 5);
    assert_eq!((plain, owed), (26, 5));
    // The longest win of 4v2 (23 plies), as `qi tb stats` names it.
    let (code, out, err) = qi(&["tb", "stats", "--game", game, dir.to_str().unwrap()]);
    assert_eq!(code, 0, "{err}");
    let line = out.lines().find(|l| l.starts_with("4v2\t")).unwrap();
    let fields: Vec<&str> = line.split('\t').collect();
    assert_eq!(fields[7], "23", "{line}");
    let (code, out, err) = probe(&dir, game, fields[8]);
    assert_eq!((code, out.as_str()), (0, "win in 23 plies\n"), "{err}");
    // The same position with the other side to move, nothing else changed.
    let pos = FiveTigers::from_text_lenient(fields[8], rules).unwrap();
    let mut setup = pos.to_setup();
    setup.side_to_move = setup.side_to_move.opponent();
    setup.next = setup.side_to_move;
    let other = setup.into_position_lenient(rules).unwrap();
    let (w, d) = Tablebase::load_dir(&dir, &rules)
        .unwrap()
        .probe(&other)
        .unwrap()
        .unwrap();
    let (code, out, err) = probe(&dir, game, &other.to_string());
    assert_eq!((code, out), (0, text(w, d)), "{err}");
    // 4v3 is not in the directory: an error naming it, exit code 2.
    let (code, _, err) = probe(&dir, game, "XXXX1/OOO2/5/5/5 x move X:0,O:0 - x -,- 0");
    assert_eq!(code, 2);
    assert!(err.contains("4v3"), "{err}");
}

#[test]
fn three_against_one_with_the_shuttle_forbidden() {
    let dir = temp_dir("shandong");
    let game = "five-tigers:shandong";
    generate(&dir, game, &["3v1", "1v1"]);
    let rules = Rules::shandong();
    // The stored states with previous steps are positions of play too.
    let (plain, owed) = agree(&dir, game, &rules, "3v1", 18_000, 5);
    assert_eq!((plain, owed), (26, 5));
    // A lone piece in a corner that just came from its only free
    // neighbour has no step under the ban: lost at once. Free to step
    // back, it is still boxed in later (a lone piece loses against the
    // ban), but not at once.
    let banned = "5/5/5/4O/4X x move X:0,O:0 - x d1-e1,- 0";
    let (code, out, err) = probe(&dir, game, banned);
    assert_eq!((code, out.as_str()), (0, "loss in 0 plies\n"), "{err}");
    let free = "5/5/5/4O/4X x move X:0,O:0 - x -,- 0";
    let (code, out, err) = probe(&dir, game, free);
    assert_eq!((code, out.as_str()), (0, "loss in 8 plies\n"), "{err}");
    // The shuttle-allowed rules read none of these files.
    let (code, _, err) = probe(&dir, "five-tigers:shandong-shuttle", free);
    assert_eq!(code, 2);
    assert!(err.contains("another shuttle rule"), "{err}");
}
