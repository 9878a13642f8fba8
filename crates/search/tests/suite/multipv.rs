//! MultiPV against plain minimax on random game trees: with the options
//! whose values equal minimax, line K's score is the K-th best of the root
//! moves' minimax values, the lines are distinct, legal and sorted, and
//! line 1 is the single-line search's answer.

use crate::toy;

use std::sync::atomic::AtomicBool;

use qi_core::{Game, Position};
use qi_search::reference::minimax;
use qi_search::{Limits, SearchOptions, Searcher, MATE_BOUND};
use toy::{tree_game, TreeConfig, TreeEval, TreeGame};

/// Every root move's minimax value at `depth`, seen from the root.
fn root_values(game: &mut TreeGame, depth: u32) -> Vec<(qi_search::MoveOf<TreeGame>, i32)> {
    let stm = game.position().side_to_move();
    let moves = game.legal_moves();
    moves
        .iter()
        .map(|&mv| {
            game.play_unchecked(mv);
            let same = game.position().side_to_move() == stm;
            let child = minimax(game, &TreeEval, depth - 1).value();
            game.undo();
            // Seen from the root, the child's mates are one ply further.
            let child = if child >= MATE_BOUND {
                child - 1
            } else if child <= -MATE_BOUND {
                child + 1
            } else {
                child
            };
            (mv, if same { child } else { -child })
        })
        .collect()
}

fn check(options: SearchOptions) {
    let stop = AtomicBool::new(false);
    let mut several = 0;
    for seed in 0..150u64 {
        for cfg in [TreeConfig::tree(seed, 6), TreeConfig::dag(seed, 6, 5)] {
            let mut game = tree_game(cfg);
            if game.outcome().is_some() {
                continue;
            }
            for depth in 1..=4 {
                for lines in [2, 3, 5] {
                    let mut searcher = Searcher::new(options.with_multi_pv(lines));
                    let result =
                        searcher.search(&mut game, &TreeEval, Limits::depth(depth), &stop, |_| {});
                    let mut values = root_values(&mut game, depth);
                    values.sort_by_key(|v| std::cmp::Reverse(v.1));
                    let legal = game.legal_moves();
                    assert_eq!(result.lines.len(), lines.min(legal.len()), "{cfg:?}");
                    // Sorted, distinct, legal, and each the K-th best value.
                    for (k, line) in result.lines.iter().enumerate() {
                        assert!(legal.contains(&line.pv[0]));
                        assert_eq!(
                            line.score.value(),
                            values[k].1,
                            "line {} of {cfg:?} depth {depth}",
                            k + 1
                        );
                        let own = values.iter().find(|(m, _)| *m == line.pv[0]).unwrap().1;
                        assert_eq!(
                            own,
                            line.score.value(),
                            "line {} is not its move's value",
                            k + 1
                        );
                        assert!(result.lines[..k].iter().all(|l| l.pv[0] != line.pv[0]));
                    }
                    assert!(result.lines.windows(2).all(|w| w[0].score >= w[1].score));
                    assert_eq!(result.best_move, Some(result.lines[0].pv[0]));
                    assert_eq!(result.score, result.lines[0].score);
                    assert_eq!(result.pv, result.lines[0].pv);
                    // Line 1 has the single-line search's score.
                    let single = Searcher::new(options).search(
                        &mut game,
                        &TreeEval,
                        Limits::depth(depth),
                        &stop,
                        |_| {},
                    );
                    assert_eq!(single.score, result.score);
                    if result.lines.len() > 1 {
                        several += 1;
                    }
                }
            }
        }
    }
    assert!(several > 1000, "{several}");
}

#[test]
fn lines_are_the_best_root_moves_in_order_without_a_table() {
    check(SearchOptions::exact(0));
}

#[test]
fn lines_are_the_best_root_moves_in_order_with_a_table_and_windows() {
    check(SearchOptions::exact(1).with_aspiration(true));
}

#[test]
fn one_line_reports_as_before_and_several_number_their_info_lines() {
    let stop = AtomicBool::new(false);
    let mut game = (0..)
        .map(|seed| tree_game(TreeConfig::tree(seed, 6)))
        .find(|g| g.outcome().is_none() && g.legal_moves().len() >= 2)
        .unwrap();
    let mut reported = Vec::new();
    let single = Searcher::new(SearchOptions::exact(1)).search(
        &mut game,
        &TreeEval,
        Limits::depth(3),
        &stop,
        |info| reported.push((info.depth, info.multipv)),
    );
    let expected: Vec<_> = (1..=single.depth).map(|d| (d, None)).collect();
    assert_eq!(reported, expected);
    assert_eq!(single.lines.len(), 1);
    let mut reported = Vec::new();
    let several = Searcher::new(SearchOptions::exact(1).with_multi_pv(2)).search(
        &mut game,
        &TreeEval,
        Limits::depth(2),
        &stop,
        |info| reported.push((info.depth, info.multipv)),
    );
    let expected: Vec<_> = (1..=several.depth)
        .flat_map(|d| [(d, Some(1)), (d, Some(2))])
        .collect();
    assert_eq!(reported, expected);
}

#[test]
fn a_search_stopped_between_lines_keeps_its_finished_lines_and_fills_the_rest() {
    let stop = AtomicBool::new(false);
    let (mut checked, mut mixed) = (0, 0);
    for seed in 0..60u64 {
        let mut game = tree_game(TreeConfig::tree(seed, 7));
        if game.outcome().is_some() || game.legal_moves().len() < 3 {
            continue;
        }
        let options = SearchOptions::exact(1).with_multi_pv(3);
        // The nodes of the whole search to depth 3, then a limit inside
        // its last iteration.
        let full =
            Searcher::new(options).search(&mut game, &TreeEval, Limits::depth(3), &stop, |_| {});
        let mut complete = 0;
        Searcher::new(options).search(&mut game, &TreeEval, Limits::depth(2), &stop, |_| {
            complete += 1
        });
        for nodes in [full.nodes * 2 / 3, full.nodes * 5 / 6] {
            let cut = Searcher::new(options).search(
                &mut game,
                &TreeEval,
                Limits::depth(3).with_nodes(nodes),
                &stop,
                |_| {},
            );
            if cut.lines.is_empty() || complete == 0 {
                continue;
            }
            let legal = game.legal_moves();
            assert_eq!(cut.lines.len(), 3, "{seed}");
            let mut firsts: Vec<_> = cut.lines.iter().map(|l| l.pv[0]).collect();
            assert!(firsts.iter().all(|m| legal.contains(m)));
            firsts.sort_by_key(|m| format!("{m:?}"));
            firsts.dedup();
            assert_eq!(firsts.len(), 3, "distinct lines after a stop: {seed}");
            // The best line is always the deepest one found.
            assert!(cut.lines.iter().all(|l| l.depth <= cut.lines[0].depth));
            assert_eq!(cut.best_move, Some(cut.lines[0].pv[0]));
            checked += 1;
            if cut.lines.iter().any(|l| l.depth != cut.lines[0].depth) {
                mixed += 1;
            }
        }
    }
    assert!(checked > 20, "{checked}");
    // Some stops fell between the lines of an iteration.
    assert!(mixed > 0, "{mixed} of {checked}");
}

#[test]
fn searches_restricted_to_disjoint_root_moves_split_the_root_between_them() {
    let stop = AtomicBool::new(false);
    let mut split = 0;
    for seed in 0..80u64 {
        let mut game = tree_game(TreeConfig::dag(seed, 6, 5));
        let legal = game.legal_moves();
        if game.outcome().is_some() || legal.len() < 2 {
            continue;
        }
        for depth in 1..=4 {
            let values = root_values(&mut game, depth);
            let full = Searcher::new(SearchOptions::exact(1)).search(
                &mut game,
                &TreeEval,
                Limits::depth(depth),
                &stop,
                |_| {},
            );
            let mut best_of_parts = Vec::new();
            // Every other move, as the page deals them to its workers.
            for part in 0..2 {
                let only: Vec<_> = legal.iter().copied().skip(part).step_by(2).collect();
                let mut searcher = Searcher::new(SearchOptions::exact(1));
                searcher.set_root_moves(&only);
                let result =
                    searcher.search(&mut game, &TreeEval, Limits::depth(depth), &stop, |_| {});
                let best = result.best_move.unwrap();
                assert!(only.contains(&best), "{seed} depth {depth}");
                let own_best = values
                    .iter()
                    .filter(|(m, _)| only.contains(m))
                    .map(|v| v.1)
                    .max();
                assert_eq!(Some(result.score.value()), own_best, "{seed} depth {depth}");
                best_of_parts.push(result.score);
            }
            // The better part's score is the whole root's.
            assert_eq!(best_of_parts.into_iter().max(), Some(full.score));
            split += 1;
        }
    }
    assert!(split > 100, "{split}");
}
