//! `qi render`: positions and records drawn as SVG files.

use std::process::Command;

const QI: &str = env!("CARGO_BIN_EXE_qi");

fn qi(args: &[&str]) -> (i32, String, String) {
    let out = Command::new(QI).args(args).output().expect("qi runs");
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

fn pieces_on(svg: &str) -> Vec<(String, String)> {
    let doc = roxmltree::Document::parse(svg).expect("well-formed SVG");
    let mut out: Vec<(String, String)> = doc
        .descendants()
        .filter(|n| n.attribute("class") == Some("piece"))
        .map(|n| {
            (
                n.attribute("data-sq").unwrap_or_default().to_string(),
                n.attribute("data-piece").unwrap_or_default().to_string(),
            )
        })
        .collect();
    out.sort();
    out
}

#[test]
fn renders_the_start_to_stdout_and_a_position_to_a_file() {
    let (code, out, err) = qi(&["render"]);
    assert_eq!(code, 0, "{err}");
    assert!(out.starts_with("<svg"));
    assert_eq!(pieces_on(&out).len(), 16);
    assert!(out.contains("象") && out.contains("Elephant"));

    let dir = std::env::temp_dir().join(format!("qi-render-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("ft.svg");
    let path = file.to_str().unwrap();
    let (code, out, err) = qi(&[
        "render",
        "--game",
        "five-tigers:ten",
        "--moves",
        "c3 b2",
        "--caption",
        "-o",
        path,
    ]);
    assert_eq!(code, 0, "{err}");
    assert!(out.is_empty());
    let svg = std::fs::read_to_string(&file).unwrap();
    assert_eq!(
        pieces_on(&svg),
        [("b2".into(), "O".into()), ("c3".into(), "X".into())]
    );
    assert!(svg.contains("X to move"));
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn renders_a_record_at_a_ply() {
    let dir = std::env::temp_dir().join(format!("qi-render-rec-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let record = dir.join("game.pgn");
    std::fs::write(
        &record,
        "[Game \"jungle\"]\n[Result \"*\"]\n\na3a4 g7g6 a4a5 *\n",
    )
    .unwrap();
    let path = record.to_str().unwrap();
    let (code, out, err) = qi(&["render", "--record", path, "--ply", "1"]);
    assert_eq!(code, 0, "{err}");
    let pieces = pieces_on(&out);
    assert!(pieces.contains(&("a4".into(), "E".into())));
    assert!(pieces.contains(&("g7".into(), "e".into())));
    assert_eq!(out.matches("class=\"last\"").count(), 2);
    let (code, _, err) = qi(&["render", "--record", path, "--ply", "9"]);
    assert_eq!(code, 2);
    assert!(
        err.contains("ply 9 is beyond the record's 3 moves"),
        "{err}"
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn bad_input_is_one_line_and_exit_code_2() {
    for (args, message) in [
        (&["render", "--game", "chess"][..], "unknown game 'chess'"),
        (&["render", "--fen", "nonsense"], "bad position"),
        (&["render", "--moves", "a3a5"], "move 1 'a3a5'"),
        (&["render", "--highlight", "z9"], "'z9' is not a square"),
        (
            &["render", "--record", "/nonexistent/qi.pgn"],
            "cannot read",
        ),
        (
            &["render", "--ply", "3"],
            "required arguments were not provided",
        ),
    ] {
        let (code, out, err) = qi(args);
        assert_eq!(code, 2, "{args:?}: {err}");
        assert!(out.is_empty(), "{args:?}");
        assert_eq!(err.lines().count(), 1, "{args:?}: {err}");
        assert!(err.contains(message), "{args:?}: {err}");
    }
}
