//! The Jungle opening suite `openings/jungle.txt`: every line is a
//! distinct, undecided position a few plies from the start that the engine
//! scores as balanced.

use std::collections::HashSet;
use std::sync::atomic::AtomicBool;

use qi_core::{Position, Side};
use qi_engine::jungle::{JungleEval, JungleHooks};
use qi_engine::{GameKit, JungleKit};
use qi_jungle::{Game, Jungle, Rules};
use qi_search::{Limits, Searcher};

const SUITE: &str = include_str!("../../openings/jungle.txt");

/// Largest |score| (centi-units, depth 4) a suite position may have.
const BALANCE: i32 = 50;

fn positions() -> Vec<Jungle> {
    SUITE
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty() && !l.starts_with('#'))
        .map(|l| Jungle::from_text(l, Rules::standard()).unwrap_or_else(|e| panic!("{l}: {e}")))
        .collect()
}

#[test]
fn suite_lines_are_distinct_undecided_early_positions() {
    let suite = positions();
    assert!(
        (45..=60).contains(&suite.len()),
        "{} positions",
        suite.len()
    );
    let mut boards = HashSet::new();
    for p in &suite {
        let text = p.to_string();
        let board: Vec<&str> = text.split(' ').take(2).collect();
        assert!(boards.insert(board.join(" ")), "duplicate {text}");
        let game = Game::new(*p);
        assert_eq!(game.outcome(), None, "{text}");
        assert!(!game.legal_moves().is_empty(), "{text}");
        // Nothing captured, and 4 to 8 plies played from the start.
        for side in Side::BOTH {
            assert_eq!(p.animal_count(side), 8, "{text}");
        }
        let plies = 2 * (p.fullmove() - 1) + u32::from(p.side_to_move() == Side::Second);
        assert!((4..=8).contains(&plies), "{text}: {plies} plies");
        assert_eq!(p.no_capture_plies(), plies, "{text}");
        assert_ne!(*p, Jungle::new(Rules::standard()));
    }
}

#[test]
fn suite_positions_are_balanced_at_depth_four() {
    let eval = JungleEval::default();
    for p in positions() {
        let mut game = Game::new(p);
        let mut searcher = Searcher::with_hooks(JungleKit::tuned_options(), JungleHooks::default());
        let stop = AtomicBool::new(false);
        let result = searcher.search(&mut game, &eval, Limits::depth(4), &stop, |_| {});
        let score = result.score.centi_units();
        assert!(
            score.is_some_and(|cp| cp.abs() < BALANCE),
            "{p}: {}",
            result.score
        );
    }
}
