//! The game layer: draws of section 7 rule 3, recorded results, undo.

use crate::common;

use common::{mv, pos, presets, sketch};
use qi_core::testkit::Rng;
use qi_core::{
    DrawReason, ExternalResult, Game as _, MoveList, Outcome, Position, Side, WinReason,
};
use qi_five_tigers::{FiveTigers, Game, Move, Rules};

fn game(text: &str, rules: Rules) -> Game {
    Game::new(pos(text, rules))
}

/// A game from a hand-made position no game reaches (see `common::sketch`).
fn sketch_game(text: &str, rules: Rules) -> Game {
    Game::new(sketch(text, rules))
}

#[test]
fn no_capture_draw_after_the_limit_of_quiet_movement_plies() {
    let mut g = sketch_game("4O/5/5/5/X4 x move X:0,O:0 - x -,- 98", Rules::shandong());
    g.play(mv("a1-a2")).unwrap();
    assert_eq!(g.outcome(), None);
    g.play(mv("e5-e4")).unwrap();
    assert_eq!(g.position().no_capture_plies(), 100);
    assert_eq!(g.outcome(), Some(Outcome::Draw(DrawReason::NoCapture)));
    assert!(g.legal_moves().is_empty());
    assert!(g.play(mv("a2-a3")).is_err());
    // The position alone (perft) ignores the draw.
    assert_eq!(g.position().outcome(), None);
    assert_eq!(g.undo(), Some(mv("e5-e4")));
    assert_eq!(g.outcome(), None);
}

#[test]
fn the_limit_is_an_option_and_zero_disables_it() {
    let rules = Rules {
        no_capture_draw: 2,
        ..Rules::shandong()
    };
    let mut g = sketch_game("4O/5/5/5/X4 x move X:0,O:0 - x -,- 0", rules);
    g.play(mv("a1-a2")).unwrap();
    g.play(mv("e5-e4")).unwrap();
    assert_eq!(g.outcome(), Some(Outcome::Draw(DrawReason::NoCapture)));
    let rules = Rules {
        no_capture_draw: 0,
        ..Rules::shandong()
    };
    let mut g = sketch_game("4O/5/5/5/X4 x move X:0,O:0 - x -,- 65000", rules);
    g.play(mv("a1-a2")).unwrap();
    assert_eq!(g.outcome(), None);
}

#[test]
fn the_third_occurrence_of_a_position_is_a_draw() {
    let mut g = sketch_game(
        "4O/5/5/5/X4 x move X:0,O:0 - x -,- 0",
        Rules::shandong_shuttle(),
    );
    let cycle = ["a1-a2", "e5-e4", "a2-a1", "e4-e5"];
    for m in cycle {
        g.play(mv(m)).unwrap();
    }
    assert_eq!(
        g.occurrences(),
        1,
        "the previous steps differ from the start"
    );
    for m in cycle {
        g.play(mv(m)).unwrap();
    }
    assert_eq!(g.occurrences(), 2);
    assert_eq!(g.outcome(), None);
    // Ply 10 repeats plies 2 and 6 (ply 1 differs: O had no previous step).
    g.play(mv(cycle[0])).unwrap();
    assert_eq!(g.outcome(), None);
    g.play(mv(cycle[1])).unwrap();
    assert_eq!(g.occurrences(), 3);
    assert_eq!(g.outcome(), Some(Outcome::Draw(DrawReason::Repetition)));
    assert_eq!(
        g.position().no_capture_plies(),
        10,
        "the quiet count is not compared"
    );
}

#[test]
fn repetition_under_the_shuttle_ban_takes_a_longer_cycle() {
    // X goes round a unit square; O shuffles between two points by way of a third.
    let mut g = sketch_game("4O/5/5/5/X4 x move X:0,O:0 - x -,- 0", Rules::shandong());
    let cycle = [
        "a1-a2", "e5-e4", "a2-b2", "e4-d4", "b2-b1", "d4-d5", "b1-a1", "d5-e5",
    ];
    for _ in 0..2 {
        for m in cycle {
            g.play(mv(m)).unwrap();
        }
    }
    assert_eq!(g.outcome(), None);
    // Ply 18 repeats plies 2 and 10.
    g.play(mv(cycle[0])).unwrap();
    assert_eq!(g.outcome(), None);
    g.play(mv(cycle[1])).unwrap();
    assert_eq!(g.outcome(), Some(Outcome::Draw(DrawReason::Repetition)));
    assert_eq!(g.ply(), 18);
}

#[test]
fn recorded_results_end_the_game_until_undone() {
    let mut g = Game::new(FiveTigers::new(Rules::shandong()));
    g.play(mv("c3")).unwrap();
    g.record(ExternalResult::Resignation(Side::Second));
    assert_eq!(
        g.outcome(),
        Some(Outcome::win(Side::First, WinReason::Resignation))
    );
    assert!(g.legal_moves().is_empty());
    assert!(g.play(mv("a1")).is_err());
    assert_eq!(
        g.external_result(),
        Some(ExternalResult::Resignation(Side::Second))
    );
    assert_eq!(g.undo(), Some(mv("c3")));
    assert_eq!(g.outcome(), None);
    assert_eq!(g.ply(), 0);
    assert_eq!(g.undo(), None);
    g.record(ExternalResult::AgreedDraw);
    assert_eq!(g.outcome(), Some(Outcome::Draw(DrawReason::Agreed)));
}

#[test]
fn board_outcomes_come_through_the_game() {
    let g = game("5/5/5/X4/OX3 o move X:0,O:0 - o -,- 0", Rules::shandong());
    assert_eq!(
        g.outcome(),
        Some(Outcome::win(Side::First, WinReason::NoLegalMove))
    );
}

#[test]
fn illegal_moves_leave_the_game_unchanged() {
    let mut g = Game::new(FiveTigers::new(Rules::shandong()));
    g.play(mv("c3")).unwrap();
    let before = g.clone();
    assert!(g.play(mv("c3")).is_err());
    assert!(g.play(mv("c3-c4")).is_err());
    assert!(g.play(mv("xc3")).is_err());
    assert_eq!(g, before);
}

#[test]
fn random_games_under_every_preset_end_and_undo_back_to_the_start() {
    for (i, (name, rules)) in presets().into_iter().enumerate() {
        let mut draws = 0;
        for seed in 0..40u64 {
            let mut rng = Rng::new(seed * 13 + i as u64);
            let mut g = Game::new(FiveTigers::new(rules));
            let mut positions = vec![*g.position()];
            while g.outcome().is_none() {
                let moves = g.legal_moves();
                assert!(!moves.is_empty(), "{name}: no moves but no outcome");
                let m = moves[rng.below(moves.len())];
                g.play_unchecked(m);
                positions.push(*g.position());
                assert!(g.ply() < 4000, "{name}: game did not end");
            }
            assert_eq!(g.moves().len(), g.ply());
            if matches!(g.outcome(), Some(Outcome::Draw(_))) {
                draws += 1;
            }
            let mut n = g.ply();
            while n > 0 {
                assert_eq!(g.position(), &positions[n]);
                assert!(g.undo().is_some());
                n -= 1;
            }
            assert_eq!(g.position(), &FiveTigers::new(rules));
            assert_eq!(g.undo(), None);
        }
        assert!(draws < 40, "{name}: every game drawn");
    }
}

#[test]
fn outcome_and_moves_agrees_with_outcome_and_legal_moves() {
    // A move already in the list must be left alone: the call appends.
    let sentinel = mv("xa1");
    for (i, (name, rules)) in presets().into_iter().enumerate() {
        let (mut positions, mut wins, mut draws) = (0, 0, 0);
        for seed in 0..40u64 {
            let mut rng = Rng::new(seed * 17 + i as u64);
            // Every fourth game from a lone piece each, where only the
            // draws end the game.
            let mut g = if seed % 4 == 0 {
                sketch_game("4O/5/5/5/X4 x move X:0,O:0 - x -,- 0", rules)
            } else {
                Game::new(FiveTigers::new(rules))
            };
            loop {
                let outcome = g.outcome();
                let mut list = MoveList::new();
                list.push(sentinel);
                assert_eq!(g.outcome_and_moves(&mut list), outcome, "{name}");
                assert_eq!(list[0], sentinel);
                let moves = &list[1..];
                assert_eq!(moves, &g.legal_moves()[..], "{name}");
                let expected = if outcome.is_some() {
                    MoveList::new()
                } else {
                    g.position().legal_moves()
                };
                assert_eq!(moves, &expected[..], "{name} at {}", g.position());
                positions += 1;
                match outcome {
                    Some(Outcome::Win { .. }) => wins += 1,
                    Some(Outcome::Draw(_)) => draws += 1,
                    None => {}
                }
                if outcome.is_some() || g.ply() >= 600 {
                    break;
                }
                // Stepping back where the last own step came from, now and
                // then, brings positions back (the repetition draw) where
                // the rules allow it.
                let back = g
                    .moves()
                    .len()
                    .checked_sub(2)
                    .and_then(|i| match g.moves()[i] {
                        Move::Step { from, to } => Some(Move::Step { from: to, to: from }),
                        _ => None,
                    });
                let pick = match back.filter(|m| moves.contains(m)) {
                    Some(m) if rng.below(3) == 0 => m,
                    _ => moves[rng.below(moves.len())],
                };
                g.play(pick).unwrap();
            }
        }
        assert!(
            positions > 1000 && wins > 0 && draws > 0,
            "{name}: {positions} {wins} {draws}"
        );
    }
}
