//! The `qi` binary end to end: perft, moves, errors, the JCEI engine and a
//! short match.

use std::io::Write;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use crate::common;

use common::{Engine, QI};

fn qi(args: &[&str]) -> (i32, String, String) {
    let out = Command::new(QI).args(args).output().expect("qi runs");
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

#[test]
fn perft_prints_the_total_last() {
    let (code, out, err) = qi(&["perft", "4"]);
    assert_eq!(code, 0, "{err}");
    assert_eq!(out.lines().last(), Some("total: 260099"));
    assert!(err.contains("nodes/s"));
    let (_, out, _) = qi(&["perft", "--threads", "2", "4"]);
    assert_eq!(out.trim(), "total: 260099");
}

#[test]
fn help_prints_the_usage_of_each_command() {
    for (args, usage) in [
        (&["help"][..], "Usage: qi <command>"),
        (&["--help"], "Usage: qi <command>"),
        (&["perft", "--help"], "Usage: qi perft [OPTIONS] <DEPTH>"),
        (&["match", "-h"], "Usage: qi match"),
        (&["engine", "--help"], "Usage: qi engine"),
        (&["help", "moves"], "Usage: qi moves"),
    ] {
        let (code, out, err) = qi(args);
        assert_eq!(code, 0, "{args:?}: {err}");
        assert!(out.contains(usage), "{args:?}: {out}");
    }
    // The global help lists every preset, from the registry.
    let (_, out, _) = qi(&["help"]);
    for preset in [
        "jungle[:standard|yeshou|datou|traditional]",
        "five-tigers[:shandong|",
    ] {
        assert!(out.contains(preset), "{out}");
    }
    let (code, out, _) = qi(&["--version"]);
    assert_eq!(code, 0);
    assert!(out.starts_with("qi "), "{out}");
}

#[test]
fn perft_divide_lists_every_root_move() {
    let (code, out, _) = qi(&["perft", "--divide", "3"]);
    assert_eq!(code, 0);
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), 25);
    let sum: u64 = lines[..24]
        .iter()
        .map(|l| l.split(": ").nth(1).unwrap().parse::<u64>().unwrap())
        .sum();
    assert_eq!(sum, 12240);
    assert_eq!(lines[24], "total: 12240");
}

#[test]
fn perft_of_each_game_and_preset() {
    let (_, out, _) = qi(&["perft", "--game", "five-tigers", "4"]);
    assert_eq!(out.trim(), "total: 303600");
    let (_, out, _) = qi(&[
        "perft",
        "--game",
        "jungle:datou",
        "--moves",
        "a3a4 a7a6",
        "2",
    ]);
    assert!(out.starts_with("total: "));
    let (_, out, _) = qi(&[
        "perft",
        "--game",
        "five-tigers:ten",
        "--moves",
        "c3 a1 c4",
        "1",
    ]);
    assert_eq!(out.trim(), "total: 22");
}

#[test]
fn moves_lists_the_legal_moves() {
    let (code, out, _) = qi(&["moves"]);
    assert_eq!(code, 0);
    assert_eq!(out.split_whitespace().count(), 24);
    assert!(out.split_whitespace().any(|m| m == "a3a4"));
    let (_, out, _) = qi(&["moves", "--game", "five-tigers"]);
    assert_eq!(out.split_whitespace().count(), 25);
}

/// The game where the Blue Dog is locked by the 17-5 rule and the
/// Red Cat on b2 by the 7-3 rule.
const LOCKED_DOG: [&str; 2] = [
    "7/7/7/7/7/7/C6/7/d5E w 0 1",
    "g1g2 a1b1 g2f2 b1b2 f2f1 b2a2 f1g1 a2a1 g1g2 a1b1 g2f2 b1b2 f2f1 b2a2 f1g1 a2a1 \
     g1g2 a1b1 g2f2 b1b2 a3b3 b2a2 b3a3 a2a1 a3b3 a1b1 b3a3 b1b2 a3b3 b2a2 b3b2 a2a1 f2f1 a1b1",
];

#[test]
fn moves_apply_the_history_rules_and_perft_does_not() {
    let [fen, moves] = LOCKED_DOG;
    let args = ["--game", "jungle:yeshou", "--fen", fen, "--moves", moves];
    let (code, out, _) = qi(&[&["moves"][..], &args].concat());
    assert_eq!(code, 0);
    let mut listed: Vec<&str> = out.split_whitespace().collect();
    listed.sort();
    assert_eq!(listed, ["b2a2", "b2c2", "f1e1", "f1f2", "f1g1"]);
    // perft counts board moves: b2b3 too.
    let (code, out, _) = qi(&[&["perft"][..], &args, &["--divide", "1"]].concat());
    assert_eq!(code, 0);
    assert!(out.contains("b2b3: 1"), "{out}");
    assert!(out.contains("total: 6"), "{out}");
    // A move the history rules forbid is refused in --moves of `moves`
    // only.
    let longer = format!("{moves} b2b3");
    let args = ["--game", "jungle:yeshou", "--fen", fen, "--moves", &longer];
    let (code, _, err) = qi(&[&["moves"][..], &args].concat());
    assert_eq!(code, 2);
    assert!(err.contains("7-3"), "{err}");
    let (code, _, _) = qi(&[&["perft"][..], &args, &["1"]].concat());
    assert_eq!(code, 0);
}

#[test]
fn moves_of_a_finished_game_are_none() {
    // jungle:traditional: Red repeats the cycle it began and loses.
    let (code, out, err) = qi(&[
        "moves",
        "--game",
        "jungle:traditional",
        "--fen",
        "1L5/c6/7/7/7/7/7/7/6E w 0 1",
        "--moves",
        "b9b8 a8a9 b8b9 a9a8 b9b8 a8a9 b8b9 a9a8 b9b8",
    ]);
    assert_eq!(code, 0);
    assert_eq!(out.trim(), "");
    assert!(err.starts_with("game over: "), "{err}");
}

#[test]
fn bad_input_is_one_line_and_exit_code_two() {
    for args in [
        &["perft", "--game", "jungle:nope", "3"][..],
        &["perft", "--game", "chess", "3"],
        &["perft", "--fen", "not a position", "3"],
        &["perft", "--moves", "a3a4 a3a4", "2"],
        &["perft", "--moves", "zz", "2"],
        &["perft", "x"],
        &["perft"],
        &["perft", "--threads", "0", "3"],
        &["moves", "--bogus"],
        &["moves", "--moves", "a3a4 a3a4"],
        &["frobnicate"],
        &["match", "--engine-a", "x"],
    ] {
        let (code, out, err) = qi(args);
        assert_eq!(code, 2, "{args:?}: {out} {err}");
        assert_eq!(err.lines().count(), 1, "{args:?}: {err}");
        assert!(err.starts_with("qi: error: "), "{args:?}: {err}");
    }
    let (_, _, err) = qi(&["perft", "--moves", "a3a4 a3a4", "2"]);
    assert!(err.contains("move 2 'a3a4'"), "{err}");
}

#[test]
fn five_tigers_positions_no_game_reaches_are_usage_errors() {
    // A full board in the movement phase with nothing owed: the opening
    // removals would have followed placement.
    let text = "XXXXX/XXXXX/XXOOO/OOOOO/OOOOO x move X:0,O:0 - x -,- 0";
    for command in ["perft", "moves"] {
        let mut args = vec![command, "--game", "five-tigers", "--fen", text];
        if command == "perft" {
            args.push("1");
        }
        let (code, out, err) = qi(&args);
        assert_eq!(code, 2, "{args:?}: {out} {err}");
        assert_eq!(err.lines().count(), 1, "{err}");
        assert!(err.starts_with("qi: error: "), "{err}");
        assert!(
            err.contains("owed: a full board in the movement phase owes removals"),
            "{err}"
        );
    }
    let perft = |text: &str| qi(&["perft", "--game", "five-tigers", "--fen", text, "1"]);
    // A board field that does not spell five ranks of five.
    let (code, _, err) = perft("23/5/5/5/5 x place X:13,O:13 - x -,- 0");
    assert_eq!(code, 2, "{err}");
    assert!(
        err.contains("board: rank 5 has two digits in a row"),
        "{err}"
    );
    // A full board without formations, with the opening removals owed, is
    // a position of the game.
    let (code, out, err) = perft("XXOOO/XOOXX/XXXOO/OXOXX/XOOXO o move X:0,O:0 o1,x1 o -,- 0");
    assert_eq!(code, 0, "{err}");
    assert!(!out.is_empty());
}

/// `trapped_attacks`: under `yeshou` the Red Lion on Blue's trap c9 may not
/// take the Blue Tiger, under `standard` it may; the rules text sets it too.
#[test]
fn a_trapped_lion_captures_only_where_the_rules_allow() {
    let fen = "1tL4/7/7/7/7/7/7/7/6E w 0 1";
    for (game, moves) in [
        ("jungle", "c9c8 c9b9 c9d9 g1f1 g1g2"),
        ("jungle:yeshou", "c9c8 c9d9 g1f1 g1g2"),
        (
            "jungle:standard,trapped_attacks=none",
            "c9c8 c9d9 g1f1 g1g2",
        ),
    ] {
        let (code, out, err) = qi(&["moves", "--game", game, "--fen", fen]);
        assert_eq!(code, 0, "{game}: {err}");
        assert_eq!(out.trim(), moves, "{game}");
    }
}

/// A Jungle position no game reaches is bad input: exit code 2 and the
/// reason on one line, for every command that reads `--fen`.
#[test]
fn impossible_jungle_positions_are_refused_with_the_reason() {
    for (fen, reason) in [
        ("7/7/7/7/7/7/7/7/7 w 0 1", "the board is empty"),
        (
            "3D3/7/7/7/7/7/7/7/6c w 0 1",
            "Red Dog stands in the enemy den d9 with its side to move",
        ),
        (
            "7/7/7/7/7/7/7/7/6L w 0 1",
            "Blue has no animals, yet it made the last move",
        ),
        (
            "l5t/1d3c1/r1p1w1e/7/7/7/E1W1P1R/1C3D1/T5L w 5 2",
            "the no-capture count 5 is larger than the 2 plies played",
        ),
    ] {
        for command in ["perft", "moves"] {
            let mut args = vec![command, "--fen", fen];
            if command == "perft" {
                args.push("1");
            }
            let (code, out, err) = qi(&args);
            assert_eq!(code, 2, "{args:?}: {out} {err}");
            assert_eq!(err.lines().count(), 1, "{args:?}: {err}");
            assert!(
                err.starts_with("qi: error: bad --fen: impossible position: "),
                "{err}"
            );
            assert!(err.contains(reason), "{args:?}: {err}");
        }
    }
    // The finished positions a game reaches are read: no moves, perft 0.
    let (code, out, err) = qi(&["perft", "--fen", "3D3/7/7/7/7/7/7/7/6c b 1 1", "1"]);
    assert_eq!(code, 0, "{err}");
    assert_eq!(out.trim(), "total: 0");
}

/// The JCEI GUI that ships with the C++ Jungle engine starts its engine
/// binary without arguments, reads one line after `moves` and takes the
/// moves after its colon, and reads `info` lines until `bestmove`. `qi` must
/// work there unchanged.
#[test]
fn qi_without_arguments_is_a_drop_in_engine_for_the_jcei_gui() {
    let mut e = Engine::spawn(&mut Command::new(QI));
    e.send("jcei");
    e.until("jceiok");
    e.send("isready");
    e.until("readyok");
    e.send("newgame");
    let mut played: Vec<String> = Vec::new();
    for _ in 0..3 {
        // The human's turn: the GUI asks for the legal moves...
        let position = if played.is_empty() {
            "position startpos".to_string()
        } else {
            format!("position startpos moves {}", played.join(" "))
        };
        e.send(&position);
        e.send("moves");
        let line = e.until("").remove(0);
        let (_, after_colon) = line.split_once(':').expect("a colon before the moves");
        let targets: Vec<&str> = after_colon.split_whitespace().collect();
        assert!(!targets.is_empty(), "{line}");
        assert!(targets.iter().all(|m| m.len() == 4), "{line}");
        played.push(targets[0].to_string());
        // ...then the engine's turn.
        e.send(&format!("position startpos moves {}", played.join(" ")));
        e.send("go movetime 50");
        let lines = e.until("bestmove");
        assert!(
            lines[..lines.len() - 1]
                .iter()
                .all(|l| l.starts_with("info")),
            "{lines:?}"
        );
        let reply = bestmove(&lines);
        assert_eq!(reply.len(), 4, "{reply}");
        played.push(reply);
    }
    e.send("stop");
    e.send("quit");
    assert!(e.child.wait().unwrap().success());
}

fn bestmove(lines: &[String]) -> String {
    lines
        .last()
        .unwrap()
        .split_whitespace()
        .nth(1)
        .unwrap()
        .to_string()
}

#[test]
fn engine_speaks_jcei() {
    let mut e = Engine::start(&[]);
    e.send("jcei");
    let hello = e.until("jceiok");
    assert!(hello.iter().any(|l| l.starts_with("id name qi")));
    assert!(hello.iter().any(|l| l.starts_with("option name Hash")));
    assert!(hello.iter().any(|l| l.starts_with("option name Threads")));
    e.send("isready");
    e.until("readyok");
    e.send("newgame");
    e.send("position startpos moves a3a4 a7a6");
    e.send("go depth 4");
    let lines = e.until("bestmove");
    assert!(
        lines.iter().any(|l| l.starts_with("info depth 4 ")),
        "{lines:?}"
    );
    let mv = bestmove(&lines);
    e.send("position startpos moves a3a4 a7a6");
    e.send("moves");
    let legal = e.until("");
    let (head, list) = legal[0].split_once(": ").expect("Legal moves (N): ...");
    let list: Vec<&str> = list.split_whitespace().collect();
    assert_eq!(head, format!("Legal moves ({})", list.len()));
    assert!(list.contains(&mv.as_str()), "{mv} not in {legal:?}");

    // Bad input is answered, and the engine goes on.
    for bad in [
        "bogus",
        "position fen xyz",
        "position startpos moves a3a5",
        "go depth x",
        "setoption name Hash value lots",
    ] {
        e.send(bad);
        let answer = e.until("info string error:");
        assert_eq!(answer.len(), 1, "{bad}: {answer:?}");
    }
    e.send("isready");
    e.until("readyok");

    // A den entry is found at once.
    e.send("position fen 7/3R3/7/7/7/7/7/7/e6 w 0 1");
    e.send("go depth 3");
    let lines = e.until("bestmove");
    assert_eq!(bestmove(&lines), "d8d9");
    assert!(
        lines.iter().any(|l| l.contains("score mate 1")),
        "{lines:?}"
    );

    e.send("d");
    let board = e.until("Red to move");
    assert!(board.len() > 5);
    assert!(
        board.iter().all(|l| !l.contains('\x1b')),
        "no colours into a pipe: {board:?}"
    );
    e.send("perft 3");
    // Hand count: the rat has 3 quiet moves (d8d9 ends the game), the
    // elephant 2 replies, then the rat 4 moves from each square.
    assert_eq!(e.until("total:").last().unwrap(), "total: 24");
    e.send("quit");
    assert!(e.child.wait().unwrap().success());
}

#[test]
fn engine_stops_an_infinite_search() {
    let mut e = Engine::start(&[]);
    e.send("position startpos");
    e.send("go infinite");
    std::thread::sleep(Duration::from_millis(200));
    e.send("isready");
    e.until("readyok");
    let asked = Instant::now();
    e.send("stop");
    let lines = e.until("bestmove");
    assert!(asked.elapsed() < Duration::from_secs(5));
    assert_eq!(
        lines.iter().filter(|l| l.starts_with("bestmove")).count(),
        1
    );
}

#[test]
fn engine_plays_five_tigers() {
    let mut e = Engine::start(&["--game", "five-tigers"]);
    e.send("position startpos moves c3");
    e.send("go nodes 2000");
    let mv = bestmove(&e.until("bestmove"));
    assert_eq!(mv.len(), 2, "a placement, not {mv}");
    e.send("setoption name Variant value jungle:datou");
    e.send("position startpos");
    e.send("go depth 2");
    let mv = bestmove(&e.until("bestmove"));
    assert_eq!(mv.len(), 4, "a Jungle move, not {mv}");
    e.send("setoption name Variant value go");
    e.until("info string error:");
}

/// `jcei` lists the current game's tuned switches as the defaults.
#[test]
fn engine_lists_each_games_tuned_defaults() {
    let default_of = |e: &mut Engine, name: &str| -> String {
        e.send("jcei");
        let lines = e.until("jceiok");
        let prefix = format!("option name {name} type check default ");
        let line = lines.iter().find(|l| l.starts_with(&prefix)).expect(name);
        line[prefix.len()..].to_string()
    };
    let mut e = Engine::start(&[]);
    assert_eq!(default_of(&mut e, "ReverseFutility"), "false");
    assert_eq!(default_of(&mut e, "IIR"), "true");
    e.send("setoption name Variant value five-tigers");
    assert_eq!(default_of(&mut e, "ReverseFutility"), "true");
    assert_eq!(default_of(&mut e, "IIR"), "true");
    assert_eq!(default_of(&mut e, "LMR"), "true");
    e.send("setoption name Variant value jungle:datou");
    assert_eq!(default_of(&mut e, "ReverseFutility"), "false");
}

#[test]
fn match_plays_and_reports_elo() {
    let engine = format!("{QI} engine");
    let (code, out, err) = qi(&[
        "match",
        "--engine-a",
        &engine,
        "--engine-b",
        &engine,
        "--games",
        "2",
        "--movetime",
        "5",
        "--max-plies",
        "40",
    ]);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("game 1/2"), "{out}");
    assert!(out.contains("game 2/2"), "{out}");
    assert!(out.contains("score: A "), "{out}");
    assert!(out.lines().last().unwrap().starts_with("elo:"), "{out}");
}

#[test]
fn match_forfeits_a_broken_engine() {
    let engine = format!("{QI} engine");
    let (code, out, _) = qi(&[
        "match",
        "--engine-a",
        &engine,
        "--engine-b",
        "echo jceiok; echo readyok; echo bestmove z9z9; sleep 5",
        "--games",
        "1",
        "--movetime",
        "5",
    ]);
    assert_eq!(code, 0);
    assert!(out.contains("A wins"), "{out}");
}

fn play(args: &[&str], input: &str) -> String {
    play_with_env(args, &[], input)
}

/// `qi play ARGS` with `env` set (and no colour settings inherited), fed
/// `input`; its output as text.
fn play_with_env(args: &[&str], env: &[(&str, &str)], input: &str) -> String {
    let mut child = Command::new(QI)
        .arg("play")
        .args(args)
        .env_remove("NO_COLOR")
        .env_remove("CLICOLOR_FORCE")
        .envs(env.iter().copied())
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .expect("qi play starts");
    child
        .stdin
        .take()
        .unwrap()
        .write_all(input.as_bytes())
        .unwrap();
    let out = child.wait_with_output().unwrap();
    assert!(out.status.success());
    String::from_utf8_lossy(&out.stdout).into_owned()
}

#[test]
fn colours_follow_the_terminal_and_no_color() {
    // Into a pipe: no styles.
    assert!(!play_with_env(&["--movetime", "10"], &[], "quit\n").contains('\x1b'));
    // Forced on, the board is coloured...
    let forced = play_with_env(&["--movetime", "10"], &[("CLICOLOR_FORCE", "1")], "quit\n");
    assert!(forced.contains('\x1b'), "{forced}");
    // ...unless NO_COLOR says otherwise.
    let off = play_with_env(
        &["--movetime", "10"],
        &[("CLICOLOR_FORCE", "1"), ("NO_COLOR", "1")],
        "quit\n",
    );
    assert!(!off.contains('\x1b'), "{off}");
}

#[test]
fn play_takes_moves_undo_and_hint() {
    let out = play(
        &["--movetime", "20"],
        "a3a5\nzz\nhelp\na3a4\nundo\nhint\nmoves\nresign\n",
    );
    assert!(out.contains("illegal move a3a5"), "{out}");
    assert!(out.contains("cannot read 'zz'"), "{out}");
    assert!(out.contains("qi plays "), "{out}");
    assert!(out.contains("hint: "), "{out}");
    assert!(out.contains("legal moves: "), "{out}");
    assert!(out.contains("You play first"), "{out}");
    assert!(
        out.contains("Game over: 0-1 (second wins: resignation)"),
        "{out}"
    );
    // After the undo the start position is back on the board: the last
    // board drawn before the hint is the start.
    let before_hint = &out[..out.find("hint: ").unwrap()];
    let last_board = before_hint
        .lines()
        .rfind(|l| l.contains(" to move "))
        .unwrap();
    assert!(
        last_board.contains("l5t/1d3c1/r1p1w1e/7/7/7/E1W1P1R/1C3D1/T5L w"),
        "{last_board}"
    );
}

#[test]
fn play_lets_the_engine_open_as_first() {
    let out = play(
        &[
            "--game",
            "five-tigers",
            "--side",
            "second",
            "--movetime",
            "10",
        ],
        "quit\n",
    );
    assert!(out.contains("qi plays "), "{out}");
    assert!(out.contains("O to move"), "{out}");
}

#[test]
fn engine_switches_eval_profiles() {
    let mut e = Engine::start(&[]);
    e.send("setoption name EvalProfile value material");
    e.send("position startpos moves a3a4");
    e.send("eval");
    let material = e.until("info string eval");
    assert_eq!(material.last().unwrap(), "info string eval cp 0");
    e.send("setoption name EvalProfile value default");
    e.send("position fen 7/3R3/7/7/7/7/7/7/e6 b 0 1");
    e.send("eval");
    let full = e.until("info string eval");
    // The Red rat next to the Blue den wins on the spot: Blue is lost.
    let cp: i32 = full
        .last()
        .unwrap()
        .rsplit(' ')
        .next()
        .unwrap()
        .parse()
        .unwrap();
    assert!(cp < -10_000, "{full:?}");
    e.send("setoption name EvalProfile value clever");
    e.until("info string error: unknown EvalProfile");
}

#[test]
fn engine_evaluates_with_the_network_in_jungle_only() {
    let mut e = Engine::start(&[]);
    e.send("position startpos moves a3a4");
    e.send("eval");
    let hand = e.until("info string eval");
    e.send("setoption name EvalProfile value nnue");
    e.send("position startpos moves a3a4");
    e.send("eval");
    let learned = e.until("info string eval");
    assert_ne!(hand.last(), learned.last());
    e.send("setoption name EvalProfile value default");
    e.send("setoption name Variant value five-tigers");
    e.send("setoption name EvalProfile value nnue");
    e.until("info string error: EvalProfile: five-tigers has no evaluation profile 'nnue'");
}

/// The embedded network with its output weights and bias zeroed (and its
/// checksum made right): the `nnue` profile then scores every position
/// with its side-to-move term alone, `PROFILE_TEMPO`.
fn silent_network() -> Vec<u8> {
    use qi_engine::jungle::nnue::{EMBEDDED_BYTES, HIDDEN};
    let mut bytes = EMBEDDED_BYTES.to_vec();
    // Either version of the file ends with the output layer and the checksum.
    let body = bytes.len() - 8;
    let output = body - 4 - 2 * 2 * HIDDEN;
    bytes[output..body].fill(0);
    // docs/nnue.md: word k of the body times 2k + 1, summed modulo 2^64.
    let mut padded = bytes[..body].to_vec();
    padded.resize(body.div_ceil(8) * 8, 0);
    let sum = padded.chunks(8).enumerate().fold(0u64, |sum, (k, word)| {
        let word = u64::from_le_bytes(word.try_into().unwrap());
        sum.wrapping_add(word.wrapping_mul(2 * k as u64 + 1))
    });
    bytes[body..].copy_from_slice(&sum.to_le_bytes());
    bytes
}

#[test]
fn engine_evaluates_with_the_network_of_eval_file() {
    let dir = common::TempDir::new("evalfile");
    let silent = dir.path("silent.nnue");
    std::fs::write(&silent, silent_network()).unwrap();
    let damaged = dir.path("damaged.nnue");
    let mut bytes = silent_network();
    bytes[1000] ^= 1;
    std::fs::write(&damaged, bytes).unwrap();
    let tempo = format!(
        "info string eval cp {}",
        qi_engine::jungle::nnue::PROFILE_TEMPO
    );
    let eval = |e: &mut Engine| {
        e.send("position startpos moves a3a4");
        e.send("eval");
        e.until("info string eval").last().unwrap().clone()
    };

    let mut e = Engine::start(&[]);
    e.send("jcei");
    let hello = e.until("jceiok");
    assert!(hello.contains(&"option name EvalFile type string default <empty>".to_string()));
    // Given before the profile, the file waits for it.
    e.send(&format!(
        "setoption name EvalFile value {}",
        silent.display()
    ));
    let hand = eval(&mut e);
    assert_ne!(hand, tempo, "the default profile has no network");
    e.send("setoption name EvalProfile value nnue");
    assert_eq!(eval(&mut e), tempo);
    // A change of game keeps the file.
    e.send("setoption name Variant value jungle:datou");
    e.send("setoption name Variant value jungle");
    assert_eq!(eval(&mut e), tempo);
    // A damaged or missing file is refused, named, and the network stays.
    e.send(&format!(
        "setoption name EvalFile value {}",
        damaged.display()
    ));
    let refused = e.until("info string error:");
    let line = refused.last().unwrap();
    assert!(
        line.contains(&damaged.display().to_string()) && line.contains("checksum"),
        "{line}"
    );
    assert_eq!(eval(&mut e), tempo);
    let missing = dir.path("missing.nnue");
    e.send(&format!(
        "setoption name EvalFile value {}",
        missing.display()
    ));
    let refused = e.until("info string error:");
    let line = refused.last().unwrap();
    assert!(
        line.starts_with(&format!(
            "info string error: EvalFile: {}",
            missing.display()
        )),
        "{line}"
    );
    assert_eq!(eval(&mut e), tempo);
    // <empty>: the embedded network again.
    e.send("setoption name EvalFile value <empty>");
    let embedded = eval(&mut e);
    assert_ne!(embedded, tempo);
    assert_ne!(embedded, hand);
    // Five Tigers has no network: the file is kept for Jungle.
    e.send("setoption name EvalProfile value default");
    e.send("setoption name Variant value five-tigers");
    e.send(&format!(
        "setoption name EvalFile value {}",
        silent.display()
    ));
    e.send("setoption name Variant value jungle");
    e.send("setoption name EvalProfile value nnue");
    assert_eq!(eval(&mut e), tempo);
}

/// The peak resident memory of process `pid` in bytes (Linux).
#[cfg(target_os = "linux")]
fn peak_memory(pid: u32) -> u64 {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).unwrap();
    let line = status.lines().find(|l| l.starts_with("VmHWM:")).unwrap();
    let kib: u64 = line.split_whitespace().nth(1).unwrap().parse().unwrap();
    kib * 1024
}

#[cfg(target_os = "linux")]
#[test]
fn eval_file_refuses_a_fifo_and_a_file_of_the_wrong_size_unread() {
    let dir = common::TempDir::new("evalfile-special");
    let fifo = dir.path("fifo.nnue");
    let made = std::process::Command::new("mkfifo")
        .arg(&fifo)
        .status()
        .unwrap();
    assert!(made.success());
    // A sparse file of 1 GiB: refused by its size, not read (it was read
    // whole, 1.07 GB of memory, before its length was checked).
    let sparse = dir.path("sparse.nnue");
    std::fs::File::create(&sparse)
        .unwrap()
        .set_len(1 << 30)
        .unwrap();
    let mut e = Engine::start(&[]);
    e.send("jcei");
    e.until("jceiok");
    e.send("setoption name EvalProfile value nnue");
    // Opening a FIFO for reading waited for a writer: no readyok, and
    // quit was never read.
    e.send(&format!("setoption name EvalFile value {}", fifo.display()));
    let refused = e.until_within("info string error:", Duration::from_secs(10));
    let line = refused.last().unwrap();
    assert!(line.contains("not a regular file"), "{line}");
    e.send(&format!(
        "setoption name EvalFile value {}",
        sparse.display()
    ));
    let refused = e.until_within("info string error:", Duration::from_secs(10));
    let line = refused.last().unwrap();
    assert!(line.contains("1073741824 bytes"), "{line}");
    e.send("isready");
    e.until_within("readyok", Duration::from_secs(10));
    let peak = peak_memory(e.child.id());
    assert!(peak < 512 << 20, "peak memory {peak} bytes");
    e.send("quit");
    assert_eq!(e.exit_within(Duration::from_secs(10)), Some(0));
}

/// A path for a test's file in the temporary directory, unique per process.
fn temp_path(name: &str) -> std::path::PathBuf {
    std::env::temp_dir().join(format!("qi-{}-{name}", std::process::id()))
}

#[test]
fn match_writes_every_game_as_a_record() {
    let engine = format!("{QI} engine");
    let path = temp_path("match.pgn");
    let (code, out, err) = qi(&[
        "match",
        "--engine-a",
        &engine,
        "--engine-b",
        &engine,
        "--games",
        "2",
        "--movetime",
        "5",
        "--max-plies",
        "30",
        "--game",
        "five-tigers:ten",
        "--pgn",
        path.to_str().unwrap(),
    ]);
    assert_eq!(code, 0, "{err}");
    let text = std::fs::read_to_string(&path).unwrap();
    std::fs::remove_file(&path).ok();
    let records =
        qi_engine::record::Record::read_all(&text).unwrap_or_else(|e| panic!("{e}\n{text}"));
    assert_eq!(records.len(), 2, "{text}");
    for record in &records {
        assert_eq!(record.tag("Game"), Some("five-tigers:ten"));
        assert_eq!(record.tag("First"), Some(engine.as_str()));
        assert_eq!(record.tag("Second"), Some(engine.as_str()));
        assert!(record.tag("Termination").is_some(), "{text}");
        assert!(record.tag("Result").is_some(), "{text}");
        record
            .replay::<qi_engine::FiveTigersKit>()
            .unwrap_or_else(|e| panic!("{e}\n{text}"));
    }
    assert!(out.contains("game 2/2"), "{out}");
    let (code, _, err) = qi(&[
        "match",
        "--engine-a",
        &engine,
        "--engine-b",
        &engine,
        "--pgn",
        "/nonexistent-dir/x.pgn",
    ]);
    assert_eq!(code, 2);
    assert!(err.contains("--pgn"), "{err}");
}

#[test]
fn play_saves_and_loads_a_game() {
    let path = temp_path("play.pgn");
    let path = path.to_str().unwrap();
    let out = play(&["--movetime", "10"], &format!("a3a4\nsave {path}\nquit\n"));
    assert!(out.contains(&format!("saved the game to {path}")), "{out}");
    let text = std::fs::read_to_string(path).unwrap();
    let record: qi_engine::record::Record = text.parse().unwrap();
    assert_eq!(record.tag("Game"), Some("jungle:standard"));
    assert_eq!(record.tag("First"), Some("you"));
    assert_eq!(record.moves.len(), 2, "{text}");
    assert_eq!(record.moves[0].text, "a3a4");
    // Loaded back, the game goes on from the second move: the human (first)
    // is to move, and the engine does not play before the next move.
    let out = play(&["--movetime", "10"], &format!("load {path}\nquit\n"));
    assert!(
        out.contains(&format!("loaded 2 moves from {path}")),
        "{out}"
    );
    assert!(!out.contains("qi plays"), "{out}");
    // Another game's record is refused with a line, and the game goes on.
    let out = play(
        &["--game", "jungle:datou", "--movetime", "10"],
        &format!("load {path}\nquit\n"),
    );
    assert!(out.contains("cannot load"), "{out}");
    assert!(out.contains("'jungle:datou'"), "{out}");
    let out = play(&["--movetime", "10"], "load /nonexistent/x.pgn\nquit\n");
    assert!(out.contains("cannot load /nonexistent/x.pgn"), "{out}");
    std::fs::remove_file(path).ok();
}

/// Input echoed in an error shows control characters escaped, so a bad
/// argument cannot act on the terminal that shows the error.
#[test]
fn echoed_input_has_its_control_characters_escaped() {
    for args in [
        vec!["moves", "--moves", "a3\u{1b}[2J"],
        vec!["perft", "--game", "jungle:\u{1b}[2J", "1"],
        vec!["perft", "--game", "go\u{7}", "1"],
        vec!["moves", "--game", "five-tigers", "--moves", "c3 x\u{1b}c3"],
    ] {
        let (code, _, err) = qi(&args);
        assert_eq!(code, 2, "{args:?}: {err}");
        assert!(
            !err.chars().any(|c| c.is_control() && c != '\n'),
            "{args:?}: {err:?}"
        );
        assert!(
            err.contains("\\u{1b}") || err.contains("\\u{7}"),
            "{args:?}: {err}"
        );
    }
}
