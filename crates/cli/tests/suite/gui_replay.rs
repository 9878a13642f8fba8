//! The exchange of the existing JCEI GUI (jungine's tkinter GUI) with an
//! engine it starts without arguments, replayed line by line: `jcei`,
//! `isready`, `newgame`, `moves`, `position startpos moves ...`,
//! `go movetime N`, `stop`, `quit`; games that end by repetition, by a den
//! entered and with no legal move. Every answer is read the way that GUI
//! reads it: the words after `bestmove` as a move of two squares, or
//! `0000` for "the game is over"; the moves after the colon of `moves`.

use crate::common;

use std::process::Command;
use std::time::Duration;

use common::{Engine, QI};

/// A square as the GUI reads it: a file `a`-`g`, a rank `1`-`9`.
fn square(text: &str) -> Result<(u8, u8), String> {
    let b = text.as_bytes();
    match b {
        [file @ b'a'..=b'g', rank @ b'1'..=b'9'] => Ok((file - b'a', rank - b'1')),
        _ => Err(format!("ValueError: bad square '{text}'")),
    }
}

/// What the GUI makes of the engine's answer to `go`.
#[derive(Debug, PartialEq)]
enum Answer {
    Move(String),
    /// `bestmove 0000`, with the result the line before gave.
    GameOver {
        score: String,
        reason: String,
    },
}

/// Reads the lines of one `go` as the GUI does: `info` lines until the
/// `bestmove` line, whose move must be two squares or `0000`.
fn read_go(lines: &[String]) -> Result<Answer, String> {
    let (last, before) = lines.split_last().ok_or("no answer")?;
    for line in before {
        if !line.starts_with("info ") {
            return Err(format!("not an info line: {line}"));
        }
        check_info(line)?;
    }
    let words: Vec<&str> = last.split_whitespace().collect();
    let ["bestmove", mv] = words[..] else {
        return Err(format!("ValueError: '{last}'"));
    };
    if mv == "0000" {
        let result = before
            .last()
            .and_then(|l| l.strip_prefix("info string result "))
            .ok_or_else(|| format!("no result before '{last}': {before:?}"))?;
        let (score, reason) = result.split_once(' ').ok_or("a result without a reason")?;
        if !["1-0", "0-1", "1/2-1/2"].contains(&score) || reason.is_empty() {
            return Err(format!("bad result '{result}'"));
        }
        return Ok(Answer::GameOver {
            score: score.into(),
            reason: reason.into(),
        });
    }
    if mv.len() != 4 || !mv.is_ascii() {
        return Err(format!("ValueError: bad move '{mv}'"));
    }
    square(&mv[..2])?;
    square(&mv[2..])?;
    Ok(Answer::Move(mv.to_string()))
}

/// An `info` line: `KEY VALUE` pairs with whole numbers, `score cp|mate
/// N`, `pv` then moves, or `string` then text.
fn check_info(line: &str) -> Result<(), String> {
    let mut words = line.split_whitespace().skip(1);
    while let Some(key) = words.next() {
        match key {
            "string" => return Ok(()),
            "pv" => {
                for mv in words.by_ref() {
                    square(mv.get(..2).unwrap_or(""))?;
                    square(mv.get(2..).unwrap_or(""))?;
                }
            }
            "score" => {
                let kind = words.next().ok_or("score without a kind")?;
                if kind != "cp" && kind != "mate" {
                    return Err(format!("score {kind} in {line}"));
                }
                let n = words.next().ok_or("score without a value")?;
                n.parse::<i64>().map_err(|e| format!("{e}: {line}"))?;
            }
            "depth" | "seldepth" | "nodes" | "nps" | "time" | "hashfull" => {
                let n = words.next().ok_or("a key without a value")?;
                n.parse::<u64>().map_err(|e| format!("{e}: {line}"))?;
            }
            other => return Err(format!("unknown info key '{other}' in {line}")),
        }
    }
    Ok(())
}

/// The GUI's start: `jcei` then `isready`, each answer checked.
fn start() -> Engine {
    let mut e = Engine::spawn(&mut Command::new(QI));
    e.send("jcei");
    for line in e.until("jceiok") {
        assert!(
            line.starts_with("id name ")
                || line.starts_with("id author ")
                || (line.starts_with("option name ") && line.contains(" type "))
                || line == "jceiok",
            "{line}"
        );
    }
    e.send("isready");
    assert_eq!(e.until("readyok"), ["readyok"]);
    e.send("newgame");
    e
}

/// The GUI's turn of the engine: the position from the start, `go
/// movetime`, the answer read, then the `stop` it always sends.
fn engine_turn(e: &mut Engine, played: &[String]) -> Answer {
    let position = if played.is_empty() {
        "position startpos".to_string()
    } else {
        format!("position startpos moves {}", played.join(" "))
    };
    e.send(&position);
    e.send("go movetime 30");
    let lines = e.until("bestmove");
    let answer = read_go(&lines).unwrap_or_else(|err| panic!("{err}: {lines:?}"));
    e.send("stop");
    if let Answer::Move(mv) = &answer {
        // The GUI checks the move against the list it asks for.
        e.send(&position);
        e.send("moves");
        let list = e.until("Legal moves").pop().unwrap();
        let (_, moves) = list.split_once(':').expect("a colon before the moves");
        assert!(moves.split_whitespace().any(|m| m == mv), "{mv}: {list}");
    }
    answer
}

/// The GUI's `quit`: the engine ends at once and cleanly.
fn quit(mut e: Engine) {
    e.send("quit");
    assert_eq!(e.exit_within(Duration::from_secs(5)), Some(0));
}

fn moves(text: &str) -> Vec<String> {
    text.split_whitespace().map(String::from).collect()
}

#[test]
fn a_game_that_ends_by_repetition() {
    let mut e = start();
    let script = moves("a3a4 a7a6 a4a3 a6a7 a3a4 a7a6 a4a3 a6a7");
    for ply in 0..script.len() {
        let answer = engine_turn(&mut e, &script[..ply]);
        assert!(matches!(answer, Answer::Move(_)), "ply {ply}: {answer:?}");
    }
    assert_eq!(
        engine_turn(&mut e, &script),
        Answer::GameOver {
            score: "1/2-1/2".into(),
            reason: "threefold repetition".into()
        }
    );
    // The GUI may ask again: the same answer, and no second `bestmove`.
    assert!(matches!(
        engine_turn(&mut e, &script),
        Answer::GameOver { .. }
    ));
    e.send("isready");
    assert_eq!(e.until("readyok"), ["readyok"]);
    quit(e);
}

#[test]
fn a_game_that_ends_by_a_den_entered() {
    let mut e = start();
    // The red wolf walks up the middle file while Blue moves elsewhere.
    let mut played = moves("c3d3 a7a6 d3d4 g7g6 d4d5 a6a5 d5d6 g6g5 d6d7 a5a4 d7d8 g5g4");
    assert_eq!(engine_turn(&mut e, &played), Answer::Move("d8d9".into()));
    played.push("d8d9".into());
    assert_eq!(
        engine_turn(&mut e, &played),
        Answer::GameOver {
            score: "1-0".into(),
            reason: "den entered".into()
        }
    );
    quit(e);
}

#[test]
fn a_game_that_ends_with_no_legal_move() {
    // No game from the start reaches this quickly, so the position is
    // given as JFEN: the red rat in its corner, a blue dog and cat beside.
    let mut e = start();
    e.send("position fen 7/7/7/7/7/7/7/d6/Rc5 w 0 1");
    e.send("go movetime 30");
    let lines = e.until("bestmove");
    assert_eq!(
        read_go(&lines),
        Ok(Answer::GameOver {
            score: "0-1".into(),
            reason: "no legal move".into()
        })
    );
    e.send("stop");
    quit(e);
}

#[test]
fn the_engine_plays_a_whole_game_against_itself() {
    let mut e = start();
    let mut played = Vec::new();
    for _ in 0..24 {
        match engine_turn(&mut e, &played) {
            Answer::Move(mv) => played.push(mv),
            Answer::GameOver { .. } => break,
        }
    }
    assert!(played.len() >= 2, "{played:?}");
    quit(e);
}

#[test]
fn the_gui_reading_rejects_what_it_cannot_parse() {
    // The answer that hung the GUI before.
    let old = ["bestmove (none)".to_string()];
    assert!(read_go(&old).is_err());
    let no_result = ["bestmove 0000".to_string()];
    assert!(read_go(&no_result).is_err());
}
