//! No public entry point of the search panics on input a caller can pass:
//! limits and clocks of any size (up to `Duration::MAX`), any option
//! switches, thread and line counts, perft at any thread count, from
//! positions reached by random play.

use std::sync::atomic::AtomicBool;
use std::time::Duration;

use proptest::prelude::*;
use qi_core::{Outcome, Position, Side, WinReason};
use qi_five_tigers::{FiveTigers, Game, MaterialEvaluator};
use qi_search::{
    divide_parallel, perft, perft_parallel, terminal_value, Clock, Level, Limits, PvLine, Score,
    SearchOptions, Searcher, Strength, StrengthScale, TimeManager, MATE_BOUND,
};

fn duration() -> impl Strategy<Value = Duration> {
    prop_oneof![
        (0u64..50).prop_map(Duration::from_millis),
        Just(Duration::MAX),
        any::<u64>().prop_map(Duration::from_secs),
        any::<u64>().prop_map(Duration::from_nanos),
    ]
}

fn clock() -> impl Strategy<Value = Clock> {
    (
        [
            proptest::option::of(duration()),
            proptest::option::of(duration()),
        ],
        [
            proptest::option::of(duration()),
            proptest::option::of(duration()),
        ],
        proptest::option::of(any::<u32>()),
    )
        .prop_map(|(time, inc, movestogo)| {
            let mut clock = Clock::default();
            clock.time = time;
            clock.inc = inc;
            clock.movestogo = movestogo;
            clock
        })
}

/// Limits of any kind, always bounded by depth so that the search ends
/// whatever its clock says (but for `infinite`, which waits for the stop
/// flag).
fn limits() -> impl Strategy<Value = Limits> {
    (
        0u32..4,
        proptest::option::of(0u64..3000),
        proptest::option::of(duration()),
        any::<bool>(),
        clock(),
    )
        .prop_map(|(depth, nodes, movetime, infinite, clock)| {
            let mut limits = Limits::depth(depth)
                .with_infinite(infinite)
                .with_clock(clock);
            limits.nodes = nodes;
            limits.movetime = movetime;
            limits
        })
}

fn game_after(plies: usize, seed: u64) -> Game {
    let mut game = Game::default();
    let mut seed = seed;
    for _ in 0..plies {
        let moves = game.legal_moves();
        if moves.is_empty() {
            break;
        }
        seed = seed
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        game.play(moves[(seed >> 33) as usize % moves.len()])
            .unwrap();
    }
    game
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    #[test]
    fn time_managers_take_any_clock(limits in limits(), elapsed in proptest::collection::vec((duration(), any::<u64>()), 0..6)) {
        for side in Side::BOTH {
            let _ = limits.clock.budget(side);
            let mut timer = TimeManager::new(&limits, side);
            if let Some(&(t, _)) = elapsed.first() {
                let left = timer.time_left(t);
                prop_assert_eq!(left.is_some(), timer.budget().is_some());
            }
            for &(t, nodes) in &elapsed {
                let _ = timer.next_iteration_fits(t, nodes);
            }
        }
    }

    #[test]
    fn searches_take_any_limits_and_options(
        limits in limits(),
        plies in 0usize..60,
        seed in any::<u64>(),
        threads in 0usize..3,
        multi_pv in 0usize..30,
        hash_mib in 0usize..2,
        switches in any::<[bool; 5]>(),
    ) {
        let mut game = game_after(plies, seed);
        let before = game.clone();
        let options = SearchOptions::default()
            .with_hash_mib(hash_mib)
            .with_threads(threads)
            .with_multi_pv(multi_pv)
            .with_null_move(switches[0])
            .with_lmr(switches[1])
            .with_aspiration(switches[2])
            .with_quiescence(switches[3])
            .with_reverse_futility(switches[4]);
        let mut searcher: Searcher<Game> = Searcher::new(options);
        let stop = AtomicBool::new(false);
        // An infinite search waits for the stop flag once its depth is
        // reached: here it must return.
        let limits = limits.with_infinite(false);
        let result = searcher.search(&mut game, &MaterialEvaluator, limits, &stop, |_| {});
        if let Some(best) = result.best_move {
            prop_assert!(game.legal_moves().contains(&best));
        }
        prop_assert_eq!(game.position(), before.position());
    }

    #[test]
    fn perft_takes_any_depth_and_thread_count(plies in 0usize..60, seed in any::<u64>(), depth in 0u32..3, threads in 0usize..5) {
        let pos: FiveTigers = *game_after(plies, seed).position();
        let n = perft(&pos, depth);
        prop_assert_eq!(perft_parallel(&pos, depth, threads), n);
        let divided = divide_parallel(&pos, depth, threads);
        prop_assert!(divided.len() <= pos.legal_moves().len());
    }

    #[test]
    fn scores_take_any_distance(plies in any::<u32>(), ply in any::<usize>()) {
        // A mate at any distance is a mate score, the nearer the larger.
        let (win, loss) = (Score::win_in(plies), Score::loss_in(plies));
        prop_assert!(win.is_mate() && loss.is_mate());
        prop_assert_eq!(win.value(), -loss.value());
        prop_assert!(win >= Score::win_in(plies.saturating_add(1)));
        let _ = (win.to_string(), loss.mate_moves());
        let won = Outcome::win(Side::First, WinReason::NoLegalMove);
        prop_assert!(terminal_value(won, Side::First, ply) >= MATE_BOUND);
        prop_assert!(terminal_value(won, Side::Second, ply) <= -MATE_BOUND);
    }

    #[test]
    fn levels_take_any_scale_and_lines(
        unit in any::<i32>(),
        nodes in any::<[u64; 9]>(),
        ratings in any::<[i32; 10]>(),
        elo in any::<i32>(),
        seed in any::<u64>(),
        values in proptest::collection::vec(any::<i32>(), 0..6),
    ) {
        let scale = StrengthScale { unit, nodes, ratings };
        let _ = Level::for_elo(elo, &scale);
        let mut lines: Vec<PvLine<u8>> = values
            .iter()
            .map(|&v| PvLine { score: Score::from_value(v), depth: 1, pv: vec![0] })
            .collect();
        lines.sort_by_key(|l| std::cmp::Reverse(l.score));
        for level in Level::all() {
            let Some(plan) = level.plan(&scale) else { continue };
            let chosen = Strength::new(level, seed).choose(&lines, &plan);
            prop_assert!(chosen < lines.len().max(1));
        }
    }
}
