//! The engine against the independent reference implementation in
//! `common`: identical legal move sets on every position of random games
//! under every preset and random custom rule sets, and identical perft.

use crate::common;

use common::*;
use qi_core::testkit::{walk, Rng};
use qi_jungle::Jungle;
use qi_search::perft;

fn compare_walks(start: &Jungle, games: usize, plies: usize, seed: u64) -> usize {
    walk(start, games, plies - 1, seed, |pos| {
        assert_eq!(
            move_texts(pos),
            RefBoard::from_jungle(pos).legal_moves(),
            "move sets differ at {pos} under {}",
            pos.rules()
        );
    })
}

#[test]
fn engine_matches_reference_on_random_games_every_preset() {
    for (i, (_, rules)) in presets().into_iter().enumerate() {
        let n = compare_walks(&Jungle::new(rules), 60, 300, 11 + i as u64);
        assert!(n > 5_000, "too few positions checked: {n}");
    }
}

#[test]
fn engine_matches_reference_on_random_custom_rules() {
    let mut rng = Rng::new(99);
    for i in 0..40 {
        let rules = random_rules(&mut rng);
        compare_walks(&Jungle::new(rules), 5, 300, 1000 + i);
    }
}

#[test]
fn perft_matches_reference() {
    for (name, rules) in presets() {
        let start = Jungle::new(rules);
        let reference = RefBoard::from_jungle(&start);
        for depth in 1..=3 {
            assert_eq!(
                perft(&start, depth),
                reference.perft(depth),
                "{name} depth {depth}"
            );
        }
    }
}
