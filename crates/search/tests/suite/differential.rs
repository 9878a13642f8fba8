//! The alpha-beta search against plain minimax on random game trees and
//! DAGs (variable branching, same side moving twice running, terminal wins,
//! losses and draws): with the pruning features that change values off,
//! every combination of transposition table, aspiration windows,
//! quiescence and move-ordering hooks must return the minimax score, and a
//! best move that achieves it.

use crate::toy;

use std::sync::atomic::AtomicBool;

use qi_core::{Game, Position};
use qi_search::reference::{minimax, minimax_quiescence};
use qi_search::{DefaultHooks, Limits, Score, SearchHooks, SearchOptions, Searcher, MATE_BOUND};
use toy::{tree_game, TreeConfig, TreeEval, TreeGame, TreeHooks};

fn shapes(seed: u64) -> [TreeConfig; 4] {
    [
        TreeConfig::tree(seed, 7),
        TreeConfig::dag(seed, 7, 5),
        // Few distinct values: many ties, so off-by-one bounds show.
        TreeConfig {
            eval_range: 2,
            ..TreeConfig::dag(seed ^ 0x5555, 8, 4)
        },
        TreeConfig {
            max_branching: 8,
            ..TreeConfig::dag(seed ^ 0xABCD, 6, 40)
        },
    ]
}

/// The reference value of `game` at `depth`.
fn reference<H: SearchHooks<TreeGame>>(
    game: &mut TreeGame,
    hooks: &H,
    quiescence: bool,
    depth: u32,
) -> Score {
    if quiescence {
        minimax_quiescence(game, &TreeEval, hooks, depth)
    } else {
        minimax(game, &TreeEval, depth)
    }
}

/// Runs one option set with hooks `H` over many trees and depths 1..=5.
fn check_against_minimax<H: SearchHooks<TreeGame> + Clone>(options: SearchOptions, hooks: H) {
    let stop = AtomicBool::new(false);
    let mut searcher = Searcher::with_hooks(options, hooks.clone());
    let mut same_side_roots = 0;
    let mut mates = 0;
    for seed in 0..120u64 {
        for cfg in shapes(seed) {
            let mut game = tree_game(cfg);
            let root = *game.position();
            if game.outcome().is_some() {
                let result = searcher.search(&mut game, &TreeEval, Limits::depth(3), &stop, |_| {});
                assert_eq!(result.best_move, None);
                assert!(result.score.is_mate());
                continue;
            }
            for depth in 1..=5 {
                searcher.clear();
                let result =
                    searcher.search(&mut game, &TreeEval, Limits::depth(depth), &stop, |_| {});
                assert_eq!(*game.position(), root, "search must restore the game");
                assert_eq!(game.ply(), 0);
                let expected = reference(&mut game, &hooks, options.quiescence, depth);
                assert_eq!(
                    result.score, expected,
                    "score differs from minimax: {cfg:?} depth {depth} options {options:?}"
                );
                // A solved tree ends the deepening early.
                assert!((1..=depth).contains(&result.depth));
                let mv = result.best_move.expect("the root has moves");
                assert!(game.legal_moves().contains(&mv));
                assert_eq!(result.pv.first(), Some(&mv));
                // The best move achieves the score.
                let stm = game.position().side_to_move();
                game.play_unchecked(mv);
                let same = game.position().side_to_move() == stm;
                if same {
                    same_side_roots += 1;
                }
                let child = reference(&mut game, &hooks, options.quiescence, depth - 1).value();
                // Seen from the root, the child's mates are one ply further.
                let child = if child >= MATE_BOUND {
                    child - 1
                } else if child <= -MATE_BOUND {
                    child + 1
                } else {
                    child
                };
                game.undo();
                let achieved = if same { child } else { -child };
                assert_eq!(
                    achieved,
                    expected.value(),
                    "best move {mv} does not achieve the score: {cfg:?} depth {depth}"
                );
                if expected.is_mate() {
                    mates += 1;
                }
            }
        }
    }
    // The trees exercise what they are meant to.
    assert!(same_side_roots > 50, "{same_side_roots}");
    assert!(mates > 50, "{mates}");
}

#[test]
fn plain_alpha_beta_equals_minimax() {
    check_against_minimax(SearchOptions::exact(0), DefaultHooks);
}

#[test]
fn alpha_beta_with_tt_equals_minimax() {
    check_against_minimax(SearchOptions::exact(1), DefaultHooks);
}

#[test]
fn aspiration_and_pvs_equal_minimax() {
    for hash_mib in [0, 1] {
        check_against_minimax(
            SearchOptions::exact(hash_mib).with_aspiration(true),
            DefaultHooks,
        );
    }
}

#[test]
fn quiescence_equals_minimax_quiescence() {
    for aspiration in [false, true] {
        for hash_mib in [0, 1] {
            check_against_minimax(
                SearchOptions::exact(hash_mib)
                    .with_aspiration(aspiration)
                    .with_quiescence(true),
                DefaultHooks,
            );
        }
    }
}

#[test]
fn capture_ordering_hooks_keep_scores_exact() {
    check_against_minimax(
        SearchOptions::exact(1)
            .with_aspiration(true)
            .with_quiescence(true),
        TreeHooks,
    );
    check_against_minimax(SearchOptions::exact(1), TreeHooks);
}

/// With every feature on the search is no longer exact, but it must still
/// return a legal move, restore the game, and agree with minimax on
/// positions that are decided (mate scores found at full width).
#[test]
fn all_features_on_stay_sane() {
    let stop = AtomicBool::new(false);
    let mut searcher = Searcher::with_hooks(SearchOptions::default(), TreeHooks);
    let mut agree = 0;
    let mut total = 0;
    for seed in 0..150u64 {
        for cfg in shapes(seed) {
            let mut game = tree_game(cfg);
            if game.outcome().is_some() {
                continue;
            }
            for depth in 1..=5 {
                searcher.clear();
                let result =
                    searcher.search(&mut game, &TreeEval, Limits::depth(depth), &stop, |_| {});
                assert_eq!(game.ply(), 0);
                let mv = result.best_move.expect("the root has moves");
                assert!(game.legal_moves().contains(&mv));
                let expected = minimax_quiescence(&mut game, &TreeEval, &TreeHooks, depth);
                total += 1;
                if expected == result.score {
                    agree += 1;
                }
                assert!(result.score.value().abs() <= qi_search::MATE);
            }
        }
    }
    // Pruning changes some values, but most must still agree.
    assert!(agree * 10 >= total * 6, "{agree} of {total}");
}

#[test]
fn shared_table_searched_by_one_thread_equals_minimax() {
    check_against_minimax(
        SearchOptions::exact(1)
            .with_threads(2)
            .with_aspiration(true),
        DefaultHooks,
    );
}

#[test]
fn mate_distance_pruning_equals_minimax() {
    for aspiration in [false, true] {
        for hash_mib in [0, 1] {
            check_against_minimax(
                SearchOptions::exact(hash_mib)
                    .with_aspiration(aspiration)
                    .with_mate_distance(true),
                DefaultHooks,
            );
        }
    }
}

/// Says every position is "in check": with the check extension on, every
/// move is extended until the extension budget (twice the iteration
/// depth in plies) runs out.
#[derive(Clone, Copy)]
struct AlwaysInCheck;

impl SearchHooks<TreeGame> for AlwaysInCheck {
    fn in_check(&self, game: &TreeGame) -> bool {
        let _ = game;
        true
    }
}

/// Says a pseudo-random third of the positions are "in check".
#[derive(Clone, Copy)]
struct SomeInCheck;

impl SearchHooks<TreeGame> for SomeInCheck {
    fn in_check(&self, game: &TreeGame) -> bool {
        toy::mix(game.position().id) % 3 == 1
    }
}

/// Extensions deepen exactly: with every position in check, a depth `d`
/// search sees `3 d` plies (`2 d` extended, then `d`), so it equals
/// minimax at `3 d`.
#[test]
fn check_extension_deepens_by_the_extension_budget() {
    let stop = AtomicBool::new(false);
    let options = SearchOptions::exact(0).with_check_extension(true);
    let mut searcher = Searcher::with_hooks(options, AlwaysInCheck);
    for seed in 0..60u64 {
        let mut game = tree_game(TreeConfig::tree(seed, 7));
        if game.outcome().is_some() {
            continue;
        }
        for depth in 1..=2 {
            let result = searcher.search(&mut game, &TreeEval, Limits::depth(depth), &stop, |_| {});
            assert_eq!(game.ply(), 0);
            let expected = minimax(&mut game, &TreeEval, 3 * depth);
            assert_eq!(result.score, expected, "seed {seed} depth {depth}");
        }
    }
}

/// With some positions in check the search is deeper than the nominal
/// depth along some lines and never shallower: a forced win within the
/// nominal depth is still found, and the best move is legal.
#[test]
fn check_extension_keeps_nominal_mates() {
    let stop = AtomicBool::new(false);
    let options = SearchOptions::exact(1).with_check_extension(true);
    let mut searcher = Searcher::with_hooks(options, SomeInCheck);
    let mut mates = 0;
    for seed in 0..80u64 {
        for cfg in shapes(seed) {
            let mut game = tree_game(cfg);
            if game.outcome().is_some() {
                continue;
            }
            for depth in 1..=4 {
                searcher.clear();
                let result =
                    searcher.search(&mut game, &TreeEval, Limits::depth(depth), &stop, |_| {});
                let mv = result.best_move.expect("the root has moves");
                assert!(game.legal_moves().contains(&mv));
                let nominal = minimax(&mut game, &TreeEval, depth);
                if nominal.is_mate() && nominal.value() > 0 {
                    // A forced win within the nominal depth is still a
                    // forced win, found no later.
                    assert!(result.score >= nominal, "seed {seed} depth {depth}");
                    mates += 1;
                }
            }
        }
    }
    assert!(mates > 20, "{mates}");
}
