//! Positions no game can reach are refused, each with its reason, and
//! every position a game reaches is accepted.

mod common;

use qi_core::testkit::Rng;
use qi_core::Position;
use qi_five_tigers::{FiveTigers, PlacementCapture, Rules};

/// Rules to play under: the presets and other piece counts under both
/// placement captures.
fn rule_sets() -> Vec<Rules> {
    let mut all: Vec<Rules> = common::presets().into_iter().map(|(_, r)| r).collect();
    for pieces_per_side in [1, 2, 3, 5, 8, 12] {
        for placement_capture in [PlacementCapture::Immediate, PlacementCapture::Deferred] {
            all.push(Rules {
                pieces_per_side,
                placement_capture,
                ..Rules::shandong()
            });
        }
    }
    all
}

#[test]
fn every_position_of_random_games_is_accepted() {
    let games: u64 = std::env::var("QI_REACHABLE_GAMES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(40);
    for (i, rules) in rule_sets().into_iter().enumerate() {
        for seed in 0..games {
            let mut rng = Rng::new(seed * 131 + i as u64);
            let mut pos = FiveTigers::new(rules);
            for _ in 0..400 {
                let text = pos.to_string();
                let read = FiveTigers::from_text(&text, &rules)
                    .unwrap_or_else(|e| panic!("{rules}: {text}: {e}"));
                assert_eq!(read, pos);
                assert_eq!(FiveTigers::from_setup(pos.to_setup(), &rules), Ok(pos));
                let moves = pos.legal_moves();
                if moves.is_empty() {
                    break;
                }
                // Every other game prefers moves that earn removals, to
                // reach formations, full boards and long owed lists.
                let earning: Vec<_> = moves
                    .iter()
                    .copied()
                    .filter(|&m| {
                        let mut c = pos;
                        c.play(m).unwrap();
                        !m.is_removal() && !c.owed().is_empty()
                    })
                    .collect();
                let mv = if seed % 2 == 1 && !earning.is_empty() && rng.below(4) > 0 {
                    earning[rng.below(earning.len())]
                } else {
                    moves[rng.below(moves.len())]
                };
                pos.play(mv).unwrap();
            }
        }
    }
}
