//! MultiPV, levels and the random mover through the engine protocol, as a
//! GUI or `qi match` drives them.

use crate::common;

use common::{bestmove, Engine};

/// The moves of `plies` plies the engine plays against itself after
/// `ucinewgame`, `go nodes N` each.
fn self_play(e: &mut Engine, plies: usize, nodes: u64) -> Vec<String> {
    e.send("ucinewgame");
    let mut moves: Vec<String> = Vec::new();
    for _ in 0..plies {
        e.send(&format!("position startpos moves {}", moves.join(" ")));
        e.send(&format!("go nodes {nodes}"));
        let lines = e.until("bestmove");
        let mv = bestmove(lines.last().unwrap()).to_string();
        if mv == "0000" {
            break;
        }
        moves.push(mv);
    }
    moves
}

#[test]
fn multipv_prints_numbered_distinct_lines_best_first() {
    let mut e = Engine::start(&[]);
    e.send("jcei");
    let ids = e.until("jceiok");
    for option in ["MultiPV", "Level", "LimitStrength", "Elo", "Seed"] {
        assert!(
            ids.iter()
                .any(|l| l.starts_with(&format!("option name {option} "))),
            "{option}"
        );
    }
    e.send("setoption name MultiPV value 3");
    e.send("position startpos");
    e.send("go depth 5");
    let lines = e.until("bestmove");
    let last: Vec<&String> = lines
        .iter()
        .filter(|l| l.starts_with("info depth 5 "))
        .collect();
    assert_eq!(last.len(), 3, "{lines:?}");
    let mut firsts = Vec::new();
    for (k, line) in last.iter().enumerate() {
        assert!(
            line.contains(&format!(" multipv {} score ", k + 1)),
            "{line}"
        );
        firsts.push(
            line.split(" pv ")
                .nth(1)
                .unwrap()
                .split(' ')
                .next()
                .unwrap()
                .to_string(),
        );
    }
    firsts.dedup();
    assert_eq!(firsts.len(), 3);
    assert_eq!(bestmove(lines.last().unwrap()), firsts[0]);
    e.send("setoption name MultiPV value 0");
    assert!(e.until("info string error")[0].contains("MultiPV"));
}

#[test]
fn a_seeded_level_replays_its_games_and_refuses_bad_values() {
    let play = |seed: &str| {
        let mut e = Engine::start(&["--game", "five-tigers"]);
        e.send("setoption name Level value 2");
        e.send(&format!("setoption name Seed value {seed}"));
        let first = self_play(&mut e, 16, 100_000);
        // The next game replays the seed from its start.
        assert_eq!(self_play(&mut e, 16, 100_000), first);
        first
    };
    assert_eq!(play("7"), play("7"));
    let mut e = Engine::start(&[]);
    for bad in [
        "Level value 0",
        "Level value 11",
        "Elo value -5",
        "Seed value x",
        "LimitStrength value 2",
    ] {
        e.send(&format!("setoption name {bad}"));
        let line = e.until("info string error").pop().unwrap();
        assert!(line.contains(bad.split(' ').next().unwrap()), "{line}");
    }
}

#[test]
fn a_weak_level_answers_at_once_and_the_random_mover_plays_legal_moves() {
    let mut e = Engine::start(&[]);
    e.send("setoption name LimitStrength value true");
    e.send("setoption name Elo value 0");
    e.send("position startpos");
    e.send("go depth 60");
    let lines = e.until("bestmove");
    // Level 1: one ply, four lines.
    assert!(lines
        .iter()
        .any(|l| l.starts_with("info depth 1 ") && l.contains(" multipv 4 ")));
    assert!(
        !lines.iter().any(|l| l.starts_with("info depth 3 ")),
        "{lines:?}"
    );

    let mut random = Engine::start(&["--random"]);
    random.send("setoption name Seed value 3");
    let game = self_play(&mut random, 40, 1);
    let mut check = Engine::start(&[]);
    for ply in 0..game.len() {
        check.send(&format!(
            "position startpos moves {}",
            game[..ply].join(" ")
        ));
        check.send("moves");
        let legal = check.until("Legal moves").pop().unwrap();
        assert!(
            legal.split(' ').any(|m| m == game[ply]),
            "{} in {legal}",
            game[ply]
        );
    }
    random.send("setoption name Seed value 3");
    assert_eq!(self_play(&mut random, 40, 1), game);
}
