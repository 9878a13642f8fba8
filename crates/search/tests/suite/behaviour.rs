//! Search behaviour: mates at the minimal depth, limits and the stop flag,
//! determinism, the info callback, reuse of a searcher, finished games and
//! history rules from the game layer.

use crate::toy;

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::thread;
use std::time::{Duration, Instant};

use qi_core::{Game, Position};
use qi_search::reference::minimax;
use qi_search::{Limits, Score, SearchInfo, SearchOptions, Searcher, MAX_DEPTH};
use toy::{
    nim, tree_game, ttt, Cell, RepGame, Take, TreeConfig, TreeEval, TreeGame, TreeHooks, TreeMove,
    TreeNode, TttEval, TttHooks, ZeroEval,
};

fn no_stop() -> AtomicBool {
    AtomicBool::new(false)
}

/// A tree too big to finish: 1 to 6 moves a node, no end before level 200.
fn big_tree(seed: u64) -> TreeGame {
    let mut seed = seed;
    loop {
        let game = tree_game(TreeConfig {
            max_branching: 6,
            terminal_one_in: 0,
            ..TreeConfig::tree(seed, 200)
        });
        if game.outcome().is_none() {
            return game;
        }
        seed += 1000;
    }
}

#[test]
fn nim_win_is_found_at_the_minimal_depth_with_its_mate_score() {
    for options in [SearchOptions::default(), SearchOptions::exact(1)] {
        for stones in [1u8, 2, 3, 5, 6, 7, 9, 10, 11, 13, 14] {
            let k = u32::from(stones / 4);
            let plies = 2 * k + 1;
            let mut game = nim(stones);
            let mut searcher = Searcher::new(options);
            let mut infos: Vec<SearchInfo<Take>> = Vec::new();
            let result = searcher.search(
                &mut game,
                &ZeroEval,
                Limits::depth(plies + 4),
                &no_stop(),
                |i| infos.push(i.clone()),
            );
            let first_mate = infos.iter().find(|i| i.score.is_mate()).expect("a mate");
            assert_eq!(first_mate.depth, plies, "{stones} stones");
            assert_eq!(first_mate.score, Score::win_in(plies));
            assert_eq!(first_mate.score.to_string(), format!("mate {}", k + 1));
            assert!(infos
                .iter()
                .filter(|i| i.depth < plies)
                .all(|i| i.score == Score::DRAW));
            assert_eq!(result.score, Score::win_in(plies));
            assert_eq!(result.best_move, Some(Take(stones % 4)));
            assert_eq!(result.pv.len(), plies as usize, "pv {:?}", result.pv);
        }
    }
}

#[test]
fn nim_loss_is_scored_as_negative_mate() {
    for stones in [4u8, 8, 12] {
        let k = u32::from(stones / 4);
        let mut game = nim(stones);
        let mut searcher = Searcher::new(SearchOptions::default());
        let result = searcher.search(&mut game, &ZeroEval, Limits::depth(20), &no_stop(), |_| {});
        assert_eq!(result.score, Score::loss_in(2 * k));
        assert_eq!(result.score.to_string(), format!("mate -{k}"));
        assert!(result.best_move.is_some());
    }
}

#[test]
fn tic_tac_toe_immediate_win_and_forced_block() {
    for options in [SearchOptions::default(), SearchOptions::exact(0)] {
        let mut searcher = Searcher::with_hooks(options, TttHooks);
        // x to move wins on the spot at 2.
        let mut game = ttt("xx.oo....");
        let mut depths = Vec::new();
        let r = searcher.search(&mut game, &TttEval, Limits::depth(5), &no_stop(), |i| {
            depths.push((i.depth, i.score))
        });
        assert_eq!(r.best_move, Some(Cell(2)));
        assert_eq!(r.score, Score::win_in(1));
        assert_eq!(r.score.to_string(), "mate 1");
        assert_eq!(depths[0], (1, Score::win_in(1)), "found at depth 1");

        // o to move must block at 2, else x completes the row.
        searcher.clear();
        let mut game = ttt("xx..o....");
        let r = searcher.search(&mut game, &TttEval, Limits::depth(6), &no_stop(), |_| {});
        assert_eq!(r.best_move, Some(Cell(2)));
        assert!(!r.score.is_mate() || r.score > Score::DRAW);
    }
}

#[test]
fn tic_tac_toe_self_play_is_a_draw_and_solved_root_is_zero() {
    for options in [SearchOptions::default(), SearchOptions::exact(1)] {
        let mut searcher = Searcher::with_hooks(options, TttHooks);
        let mut game = ttt(".........");
        let r = searcher.search(&mut game, &TttEval, Limits::depth(9), &no_stop(), |_| {});
        assert_eq!(r.score, Score::DRAW);
        assert_eq!(minimax(&mut game, &TttEval, 9), Score::DRAW);
        while game.outcome().is_none() {
            let r = searcher.search(&mut game, &TttEval, Limits::depth(9), &no_stop(), |_| {});
            let mv = r.best_move.expect("a move");
            game.play(mv).expect("legal");
        }
        assert_eq!(
            game.outcome().unwrap().winner(),
            None,
            "{}",
            game.position()
        );
    }
}

#[test]
fn finished_game_gives_no_move_and_its_value() {
    let mut searcher = Searcher::new(SearchOptions::default());
    let stop = no_stop();
    // o to move, x has a row: o lost.
    let mut lost = ttt("xxxoo....");
    let r = searcher.search(&mut lost, &TttEval, Limits::depth(3), &stop, |_| {});
    assert_eq!(r.best_move, None);
    assert_eq!(r.score, Score::loss_in(0));
    let mut drawn = ttt("xoxxoooxx");
    let r = searcher.search(&mut drawn, &TttEval, Limits::depth(3), &stop, |_| {});
    assert_eq!((r.best_move, r.score), (None, Score::DRAW));
    let mut empty = nim(0);
    let mut nim_searcher = Searcher::new(SearchOptions::default());
    let r = nim_searcher.search(&mut empty, &ZeroEval, Limits::default(), &stop, |_| {});
    assert_eq!((r.best_move, r.score), (None, Score::loss_in(0)));
}

#[test]
fn raised_stop_flag_still_gives_a_legal_move() {
    let mut game = big_tree(1);
    let stop = AtomicBool::new(true);
    let mut searcher = Searcher::with_hooks(SearchOptions::default(), TreeHooks);
    let r = searcher.search(&mut game, &TreeEval, Limits::default(), &stop, |_| {});
    let mv = r.best_move.expect("a move even when stopped at once");
    assert!(game.legal_moves().contains(&mv));
    assert_eq!(game.ply(), 0);
    assert!(r.nodes < 10_000, "{}", r.nodes);
}

#[test]
fn stop_from_another_thread_ends_an_infinite_search() {
    let mut game = big_tree(2);
    let stop = Arc::new(AtomicBool::new(false));
    let start = Instant::now();
    let setter = {
        let stop = Arc::clone(&stop);
        thread::spawn(move || {
            thread::sleep(Duration::from_millis(150));
            stop.store(true, Ordering::Relaxed);
        })
    };
    let mut searcher = Searcher::with_hooks(SearchOptions::default(), TreeHooks);
    let r = searcher.search(&mut game, &TreeEval, Limits::infinite(), &stop, |_| {});
    let took = start.elapsed();
    setter.join().unwrap();
    assert!(took >= Duration::from_millis(150), "{took:?}");
    assert!(took < Duration::from_secs(5), "{took:?}");
    // Interrupted, not finished and waiting.
    assert!((1..MAX_DEPTH).contains(&r.depth), "{}", r.depth);
    assert!(game.legal_moves().contains(&r.best_move.unwrap()));
    assert_eq!(*game.position(), TreeNode::root(game.position().cfg));
}

#[test]
fn infinite_search_of_a_solved_game_waits_for_stop() {
    let mut game = nim(5);
    let stop = Arc::new(AtomicBool::new(false));
    let start = Instant::now();
    let setter = {
        let stop = Arc::clone(&stop);
        thread::spawn(move || {
            thread::sleep(Duration::from_millis(100));
            stop.store(true, Ordering::Relaxed);
        })
    };
    let mut searcher = Searcher::new(SearchOptions::default());
    let r = searcher.search(&mut game, &ZeroEval, Limits::infinite(), &stop, |_| {});
    setter.join().unwrap();
    assert!(start.elapsed() >= Duration::from_millis(100));
    assert_eq!(r.best_move, Some(Take(1)));
    assert_eq!(r.score, Score::win_in(3));
}

#[test]
fn node_limit_ends_the_search_with_a_legal_move() {
    for limit in [1u64, 2, 10, 1_000, 50_000] {
        let mut game = big_tree(3);
        let mut searcher = Searcher::with_hooks(SearchOptions::default(), TreeHooks);
        let r = searcher.search(
            &mut game,
            &TreeEval,
            Limits::nodes(limit),
            &no_stop(),
            |_| {},
        );
        assert!(r.nodes <= limit, "{} > {limit}", r.nodes);
        let mv = r.best_move.expect("a move");
        assert!(game.legal_moves().contains(&mv));
        if limit >= 1_000 {
            assert!(r.depth >= 2, "depth {} at {limit} nodes", r.depth);
        }
    }
}

#[test]
fn fixed_node_count_is_deterministic() {
    for seed in 0..5 {
        let run = |searcher: &mut Searcher<TreeGame, TreeHooks>| {
            let mut game = big_tree(seed);
            searcher.search(
                &mut game,
                &TreeEval,
                Limits::nodes(30_000),
                &no_stop(),
                |_| {},
            )
        };
        let mut a = Searcher::with_hooks(SearchOptions::default(), TreeHooks);
        let mut b = Searcher::with_hooks(SearchOptions::default(), TreeHooks);
        let ra = run(&mut a);
        let rb = run(&mut b);
        assert_eq!(
            (ra.best_move, ra.score, ra.depth, ra.nodes, &ra.pv),
            (rb.best_move, rb.score, rb.depth, rb.nodes, &rb.pv)
        );
        // After clear() a used searcher repeats itself too.
        a.clear();
        let rc = run(&mut a);
        assert_eq!(
            (ra.best_move, ra.score, ra.nodes),
            (rc.best_move, rc.score, rc.nodes)
        );
    }
}

#[test]
fn movetime_is_respected() {
    let mut game = big_tree(4);
    let mut searcher = Searcher::with_hooks(SearchOptions::default(), TreeHooks);
    let start = Instant::now();
    let r = searcher.search(
        &mut game,
        &TreeEval,
        Limits::movetime(Duration::from_millis(100)),
        &no_stop(),
        |_| {},
    );
    let took = start.elapsed();
    assert!(took < Duration::from_millis(2000), "{took:?}");
    assert!(r.elapsed <= took);
    assert!(r.depth >= 3, "{}", r.depth);
    assert!(game.legal_moves().contains(&r.best_move.unwrap()));
}

#[test]
fn info_lines_deepen_and_carry_playable_pvs() {
    let mut game = big_tree(5);
    let mut searcher = Searcher::with_hooks(SearchOptions::default(), TreeHooks);
    let mut infos: Vec<SearchInfo<TreeMove>> = Vec::new();
    let r = searcher.search(&mut game, &TreeEval, Limits::depth(8), &no_stop(), |i| {
        infos.push(i.clone())
    });
    assert_eq!(infos.len(), 8);
    for (n, info) in infos.iter().enumerate() {
        assert_eq!(info.depth, n as u32 + 1);
        assert!(info.seldepth >= info.depth.min(info.pv.len() as u32));
        assert!(!info.pv.is_empty());
        let mut replay = game.clone();
        for &mv in &info.pv {
            replay.play(mv).expect("pv moves are legal in turn");
        }
        assert!(info.time <= r.elapsed);
    }
    assert!(infos.windows(2).all(|w| w[0].nodes <= w[1].nodes));
    let last = infos.last().unwrap();
    assert_eq!((last.score, &last.pv), (r.score, &r.pv));
    assert_eq!(r.pv.first().copied(), r.best_move);
    assert_eq!(r.depth, 8);
    assert!(r.seldepth >= 8);
}

#[test]
fn warm_table_repeats_the_score_with_fewer_nodes() {
    for seed in 0..10 {
        let mut game = tree_game(TreeConfig::tree(seed, 12));
        if game.outcome().is_some() {
            continue;
        }
        let mut searcher = Searcher::new(SearchOptions::exact(4));
        let cold = searcher.search(&mut game, &TreeEval, Limits::depth(6), &no_stop(), |_| {});
        let warm = searcher.search(&mut game, &TreeEval, Limits::depth(6), &no_stop(), |_| {});
        assert_eq!(cold.score, warm.score);
        assert_eq!(cold.score, minimax(&mut game, &TreeEval, cold.depth));
        assert!(warm.nodes <= cold.nodes, "{} > {}", warm.nodes, cold.nodes);
    }
}

#[test]
fn changing_options_resizes_and_keeps_working() {
    let mut game = big_tree(6);
    let mut searcher = Searcher::with_hooks(SearchOptions::default(), TreeHooks);
    searcher.set_options(SearchOptions::default().with_hash_mib(0).with_threads(4));
    assert_eq!(searcher.options().hash_mib, 0);
    let r = searcher.search(&mut game, &TreeEval, Limits::depth(5), &no_stop(), |_| {});
    assert_eq!(r.depth, 5);
    assert!(game.legal_moves().contains(&r.best_move.unwrap()));
}

/// History rules come from the game layer: without a table the search
/// equals minimax exactly on a cyclic graph with a repetition rule, with
/// repetition drawn or lost by the mover.
#[test]
fn repetition_rules_of_the_game_layer_are_obeyed() {
    let stop = no_stop();
    let mut decided = 0;
    for seed in 0..60u64 {
        for mover_loses in [false, true] {
            let cfg = TreeConfig {
                max_branching: 3,
                ..TreeConfig::cyclic(seed, 4)
            };
            let mut game = RepGame::new(TreeNode::root(cfg), mover_loses);
            if game.outcome().is_some() {
                continue;
            }
            for options in [
                SearchOptions::exact(0),
                SearchOptions::exact(0).with_aspiration(true),
            ] {
                let mut searcher = Searcher::new(options);
                for depth in 1..=7 {
                    let r =
                        searcher.search(&mut game, &TreeEval, Limits::depth(depth), &stop, |_| {});
                    let expected = minimax(&mut game, &TreeEval, depth);
                    assert_eq!(r.score, expected, "seed {seed} depth {depth} {mover_loses}");
                    if expected.is_mate() || expected == Score::DRAW {
                        decided += 1;
                    }
                    assert_eq!(game.ply(), 0);
                }
            }
        }
    }
    assert!(decided > 20, "{decided}");
}

#[test]
fn mover_loses_repetition_is_avoided() {
    // A ring of positions where the only way forward repeats: with the
    // mover-loses rule, the side to move must not make the third occurrence.
    let cfg = TreeConfig {
        max_branching: 2,
        ..TreeConfig::cyclic(11, 3)
    };
    let mut game = RepGame::new(TreeNode::root(cfg), true);
    let mut searcher = Searcher::new(SearchOptions::default());
    // Play until the game ends; no repetition loss may fall to a side
    // that had an alternative scored better by a full-width search.
    let mut plies = 0;
    while game.outcome().is_none() && plies < 40 {
        let r = searcher.search(&mut game, &TreeEval, Limits::depth(6), &no_stop(), |_| {});
        let mv = r.best_move.expect("a move");
        let stm = game.position().side_to_move();
        game.play(mv).expect("legal");
        if let Some(outcome) = game.outcome() {
            // The mover only loses by repetition if the search saw it.
            if outcome.winner() == Some(stm.opponent()) {
                assert!(r.score.is_mate() && r.score < Score::DRAW, "{r:?}");
            }
        }
        plies += 1;
    }
    assert!(plies > 0);
}

#[test]
fn lazy_smp_finds_mates_draws_and_legal_moves() {
    let options = SearchOptions::default().with_threads(3);
    // Nim: the forced win and its distance.
    let mut searcher = Searcher::new(options);
    let mut game = nim(9);
    let r = searcher.search_smp(&mut game, &ZeroEval, Limits::depth(12), &no_stop(), |_| {});
    assert_eq!(r.score, Score::win_in(5));
    assert_eq!(r.best_move, Some(Take(1)));
    assert_eq!(game.ply(), 0);

    // Tic-tac-toe is a draw.
    let mut searcher = Searcher::with_hooks(options, TttHooks);
    let mut game = ttt(".........");
    let r = searcher.search_smp(&mut game, &TttEval, Limits::depth(9), &no_stop(), |_| {});
    assert_eq!(r.score, Score::DRAW);

    // A big tree under a time limit: all threads' nodes are counted.
    let mut searcher = Searcher::with_hooks(options, TreeHooks);
    let mut game = big_tree(7);
    let mut main_nodes = 0;
    let r = searcher.search_smp(
        &mut game,
        &TreeEval,
        Limits::movetime(Duration::from_millis(100)),
        &no_stop(),
        |i| main_nodes = i.nodes,
    );
    assert!(r.elapsed < Duration::from_millis(2000), "{:?}", r.elapsed);
    assert!(game.legal_moves().contains(&r.best_move.unwrap()));
    // Helper threads may get no CPU at all on a loaded machine, so only
    // "not fewer than the main thread's" is certain.
    // The info lines count the helpers' published nodes too, which never
    // exceed the final total.
    assert!(r.nodes >= main_nodes, "{} < {main_nodes}", r.nodes);
    assert!(main_nodes > 0);
    assert_eq!(*game.position(), TreeNode::root(game.position().cfg));

    // Stopped from outside while infinite.
    let stop = Arc::new(AtomicBool::new(false));
    let start = Instant::now();
    let setter = {
        let stop = Arc::clone(&stop);
        thread::spawn(move || {
            thread::sleep(Duration::from_millis(80));
            stop.store(true, Ordering::Relaxed);
        })
    };
    let r = searcher.search_smp(&mut game, &TreeEval, Limits::infinite(), &stop, |_| {});
    setter.join().unwrap();
    assert!(game.legal_moves().contains(&r.best_move.unwrap()));
    assert!(start.elapsed() >= Duration::from_millis(80));
}

#[test]
fn smp_with_one_thread_is_the_plain_search() {
    let mut a = Searcher::with_hooks(SearchOptions::default(), TreeHooks);
    let mut b = Searcher::with_hooks(SearchOptions::default(), TreeHooks);
    let mut game = big_tree(8);
    let ra = a.search(
        &mut game,
        &TreeEval,
        Limits::nodes(20_000),
        &no_stop(),
        |_| {},
    );
    let rb = b.search_smp(
        &mut game,
        &TreeEval,
        Limits::nodes(20_000),
        &no_stop(),
        |_| {},
    );
    assert_eq!(
        (ra.best_move, ra.score, ra.nodes, ra.pv),
        (rb.best_move, rb.score, rb.nodes, rb.pv)
    );
}

/// Each switch reaches the search: turning a pruning feature off changes
/// the tree searched (more nodes, same depth).
#[test]
fn each_pruning_switch_changes_the_search() {
    let run = |options: SearchOptions| {
        let mut total = 0;
        for seed in 10..16 {
            let mut game = big_tree(seed);
            let mut searcher = Searcher::with_hooks(options, TreeHooks);
            let r = searcher.search(&mut game, &TreeEval, Limits::depth(8), &no_stop(), |_| {});
            assert!(game.legal_moves().contains(&r.best_move.unwrap()));
            total += r.nodes;
        }
        total
    };
    // Every feature on (the default leaves null move, reverse futility, the
    // check extension and IIR off), then each switched off in turn.
    let every = SearchOptions::default()
        .with_null_move(true)
        .with_check_extension(true)
        .with_reverse_futility(true)
        .with_iir(true);
    let all = run(every);
    let off = [
        every.with_null_move(false),
        every.with_lmr(false),
        every.with_futility(false),
        every.with_quiescence(false),
        every.with_aspiration(false),
        every.with_reverse_futility(false),
        every.with_iir(false),
        every.with_hash_mib(0),
    ];
    for options in off {
        let nodes = run(options);
        assert_ne!(nodes, all, "{options:?} made no difference");
    }
    // The prunings save work overall.
    let none = run(SearchOptions::exact(16).with_hash_mib(16));
    let pruned = run(SearchOptions::default()
        .with_quiescence(false)
        .with_aspiration(false));
    assert!(pruned < none, "{pruned} >= {none}");
}

/// Late-move pruning needs many quiet moves: on a wide tree it prunes, and
/// the search still returns a legal move at the same depth.
#[test]
fn late_move_pruning_prunes_wide_trees() {
    let run = |late_move_pruning: bool| {
        let mut total = 0;
        for seed in 20..24 {
            let mut game = tree_game(TreeConfig {
                max_branching: 12,
                terminal_one_in: 0,
                ..TreeConfig::tree(seed, 200)
            });
            if game.outcome().is_some() {
                continue;
            }
            let options = SearchOptions::default()
                .with_late_move_pruning(late_move_pruning)
                .with_quiescence(false);
            let mut searcher = Searcher::with_hooks(options, TreeHooks);
            let r = searcher.search(&mut game, &TreeEval, Limits::depth(5), &no_stop(), |_| {});
            assert!(game.legal_moves().contains(&r.best_move.unwrap()));
            assert_eq!(r.depth, 5);
            total += r.nodes;
        }
        total
    };
    let (on, off) = (run(true), run(false));
    assert!(on < off, "{on} >= {off}");
}

/// An engine runs the search on its own thread and stops it from another.
#[test]
fn searcher_and_results_can_move_between_threads() {
    fn assert_send<T: Send>() {}
    assert_send::<Searcher<TreeGame, TreeHooks>>();
    assert_send::<qi_search::SearchResult<TreeMove>>();
    assert_send::<SearchInfo<TreeMove>>();
    let mut searcher = Searcher::with_hooks(SearchOptions::default(), TreeHooks);
    let stop = Arc::new(AtomicBool::new(false));
    let handle = {
        let stop = Arc::clone(&stop);
        thread::spawn(move || {
            let mut game = big_tree(9);
            let r = searcher.search(&mut game, &TreeEval, Limits::infinite(), &stop, |_| {});
            (r, game)
        })
    };
    thread::sleep(Duration::from_millis(30));
    stop.store(true, Ordering::Relaxed);
    let (r, game) = handle.join().unwrap();
    assert!(game.legal_moves().contains(&r.best_move.unwrap()));
}

#[test]
fn a_proven_win_within_the_depth_ends_the_iterations() {
    // Nim of 13 stones: a win in 7 plies, though lines run up to 13.
    // Iterations past depth 7 would only repeat the same mate and line.
    for (stones, plies) in [(13u8, 7u32), (9, 5)] {
        let mut game = nim(stones);
        let mut searcher = Searcher::new(SearchOptions::default());
        let mut infos: Vec<SearchInfo<Take>> = Vec::new();
        let result = searcher.search(
            &mut game,
            &ZeroEval,
            Limits::depth(MAX_DEPTH),
            &no_stop(),
            |i| infos.push(i.clone()),
        );
        assert_eq!(result.score, Score::win_in(plies));
        assert_eq!(result.depth, plies, "{stones} stones");
        let last = infos.last().unwrap();
        assert_eq!(last.depth, plies, "no iteration after the proof");
        assert_eq!(
            infos
                .iter()
                .filter(|i| i.score == Score::win_in(plies))
                .count(),
            1,
            "the mate is reported once"
        );
    }
    // The side that loses: the same.
    let mut game = nim(12);
    let mut searcher = Searcher::new(SearchOptions::default());
    let mut depths = Vec::new();
    let result = searcher.search(
        &mut game,
        &ZeroEval,
        Limits::depth(MAX_DEPTH),
        &no_stop(),
        |i| depths.push(i.depth),
    );
    assert_eq!(result.score, Score::loss_in(6));
    assert_eq!(depths.last(), Some(&6));
}
