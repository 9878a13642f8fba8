//! The qi-core conformance harness and a lockstep comparison with the naive
//! second implementation, under every preset, through whole games.

use crate::common;

use common::{lockstep_game, presets, random_line};
use qi_core::testkit::{check_position, random_walks};
use qi_core::{Position, Side};
use qi_five_tigers::{FiveTigers, Phase, Rules};

#[test]
fn random_walks_from_the_start_under_every_preset() {
    for (i, (name, rules)) in presets().into_iter().enumerate() {
        let start = FiveTigers::new(rules);
        let checked = random_walks(&start, 150, 1000, 1000 + i as u64);
        assert!(checked > 150 * 30, "{name}: only {checked} positions");
    }
}

#[test]
fn random_walks_from_mid_game_positions_under_every_preset() {
    for (i, (name, rules)) in presets().into_iter().enumerate() {
        for (j, plies) in [10, 25, 30, 40, 60].into_iter().enumerate() {
            let (mid, _) = random_line(rules, 77 + i as u64 * 10 + j as u64, plies);
            let checked = random_walks(&mid, 10, 300, 5 + j as u64);
            assert!(checked >= 10, "{name}: {checked}");
            // The same position read back from its text walks the same way.
            let reread = FiveTigers::from_text(&mid.to_string(), rules).unwrap();
            assert_eq!(reread, mid);
            check_position(&reread);
        }
    }
}

#[test]
fn games_reach_every_stage_of_the_state_machine() {
    // Over many random games, every kind of state appears: removals owed
    // during placement, self-removals, the movement phase, both kinds of win.
    let mut seen_self_removal = false;
    let mut seen_movement_removal = false;
    let mut seen_no_pieces = false;
    let mut seen_no_move = false;
    let mut seen_two_entries = false;
    for (i, (_, rules)) in presets().into_iter().enumerate() {
        for seed in 0..60u64 {
            let mut rng = qi_core::testkit::Rng::new(seed * 31 + i as u64);
            let mut pos = FiveTigers::new(rules);
            for _ in 0..600 {
                if let Some((taker, _)) = pos.owed().first() {
                    if pos.side_to_move() != taker {
                        seen_self_removal = true;
                    }
                    if pos.phase() == Phase::Movement && pos.last_step(Side::Second).is_some() {
                        seen_movement_removal = true;
                    }
                    if pos.owed().len() == 2 {
                        seen_two_entries = true;
                    }
                }
                let moves = pos.legal_moves();
                if moves.is_empty() {
                    match pos.outcome().map(|o| o.to_string()) {
                        Some(t) if t.contains("no pieces") => seen_no_pieces = true,
                        Some(t) if t.contains("no legal move") => seen_no_move = true,
                        other => panic!("no moves but outcome {other:?} at {pos}"),
                    }
                    break;
                }
                pos.play_unchecked(moves[rng.below(moves.len())]);
            }
        }
    }
    assert!(seen_self_removal);
    assert!(seen_movement_removal);
    assert!(seen_no_pieces);
    assert!(seen_no_move);
    assert!(seen_two_entries);
}

#[test]
fn engine_agrees_with_the_naive_implementation_in_random_games() {
    for (i, (_, rules)) in presets().into_iter().enumerate() {
        for seed in 0..50u64 {
            lockstep_game(rules, seed * 7 + i as u64, 500);
        }
    }
    // And with other piece counts.
    for n in [1, 2, 5, 12] {
        let rules = Rules {
            pieces_per_side: n,
            ..Rules::deferred()
        };
        for seed in 0..10u64 {
            lockstep_game(rules, seed, 300);
        }
    }
}

#[test]
fn play_unchecked_of_illegal_moves_never_panics() {
    use qi_core::MoveSpace;
    for (i, (_, rules)) in presets().into_iter().enumerate() {
        for seed in 0..20u64 {
            let (pos, _) = random_line(rules, seed + i as u64 * 100, (seed * 7 % 90) as usize);
            for mv in pos.move_space() {
                let mut p = pos;
                p.play_unchecked(mv);
                let _ = (p.count_moves(), p.legal_moves(), p.outcome(), p.to_string());
                let _ = (p.zobrist(), p.canonical_hash());
            }
        }
    }
}
