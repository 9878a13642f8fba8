//! The search parameters an evaluation profile carries: the hand-written
//! evaluation's search is node for node what it was before profiles could
//! carry any, and parameters given to the hooks reach the search. The
//! network's profiles search as they did before the network file's
//! version 2, from the embedded file and from the same network in
//! version 1.

use std::sync::atomic::AtomicBool;

use qi_engine::jungle::{JungleEval, JungleHooks};
use qi_engine::{EvalProfile, GameKit, JungleKit};
use qi_jungle::{Game, Jungle, Rules};
use qi_search::{Limits, SearchHooks, SearchParams, Searcher};

/// Nodes, best move and score of a fresh search of `profile` to `depth`.
fn search(
    profile: EvalProfile,
    hooks: JungleHooks,
    moves: &[&str],
    depth: u32,
) -> (u64, String, i32) {
    search_with(&JungleKit::eval(profile), hooks, moves, depth)
}

/// Nodes, best move and score of a fresh search with `eval` to `depth`.
fn search_with(
    eval: &JungleEval,
    hooks: JungleHooks,
    moves: &[&str],
    depth: u32,
) -> (u64, String, i32) {
    let mut game = Game::new(Jungle::new(Rules::standard()));
    for mv in moves {
        game.play(mv.parse().unwrap()).unwrap();
    }
    let mut searcher = Searcher::with_hooks(JungleKit::tuned_options(), hooks);
    let r = searcher.search(
        &mut game,
        eval,
        Limits::depth(depth),
        &AtomicBool::new(false),
        |_| {},
    );
    (r.nodes, r.best_move.unwrap().to_string(), r.score.value())
}

#[test]
fn the_hand_written_profile_searches_as_before() {
    // A fresh `qi engine`'s `go depth 11` from the start and `go depth 12`
    // after a3a4, built before the hooks carried search parameters
    // (commit f0d504b).
    let hooks = || JungleKit::hooks(EvalProfile::Hand);
    assert_eq!(
        search(EvalProfile::Hand, hooks(), &[], 11),
        (99_574, "g3g4".to_string(), 13)
    );
    assert_eq!(
        search(EvalProfile::Hand, hooks(), &["a3a4"], 12),
        (129_260, "a7a6".to_string(), 30)
    );
    assert_eq!(
        SearchHooks::<Game>::search_params(&hooks()),
        SearchParams::default()
    );
}

#[test]
fn the_hooks_search_parameters_reach_the_search() {
    let default = search(EvalProfile::Hand, JungleHooks::default(), &[], 8);
    // Late-move pruning after one quiet move: a much smaller tree.
    let pruning = SearchParams {
        lmp_moves: [0, 1, 1, 1, 1],
        ..SearchParams::default()
    };
    let hooks = JungleHooks::default().with_search_params(pruning);
    let pruned = search(EvalProfile::Hand, hooks, &[], 8);
    assert!(pruned.0 * 2 < default.0, "{pruned:?} against {default:?}");
    // An aspiration window of 1 centi-unit fails and widens more often.
    let narrow = SearchParams {
        aspiration_delta: 1,
        ..SearchParams::default()
    };
    let hooks = JungleHooks::default().with_search_params(narrow);
    assert_ne!(search(EvalProfile::Hand, hooks, &[], 8).0, default.0);
}

#[test]
fn the_network_searches_as_before_from_either_file_version() {
    // The same searches of `go depth 10` from the start and `go depth 11`
    // after a3a4, built with the network file of version 1 (commit
    // 248108b).
    let before = [
        (EvalProfile::Nnue, &[][..], 10, (92_861, "g3g4", 20)),
        (EvalProfile::Nnue, &["a3a4"][..], 11, (87_221, "a7a6", 32)),
        (EvalProfile::Hybrid, &[][..], 10, (60_462, "g3g4", 22)),
        (EvalProfile::Hybrid, &["a3a4"][..], 11, (63_841, "a7a6", 33)),
    ];
    let v1 = std::path::Path::new(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/data/jungle-v1.nnue"
    ));
    for (profile, moves, depth, (nodes, best, score)) in before {
        let expected = (nodes, best.to_string(), score);
        let hooks = || JungleKit::hooks(profile);
        assert_eq!(
            search(profile, hooks(), moves, depth),
            expected,
            "{profile:?} {moves:?}"
        );
        let from_v1 = JungleKit::eval_with_file(profile, Some(v1)).unwrap();
        assert_eq!(
            search_with(&from_v1, hooks(), moves, depth),
            expected,
            "{profile:?} {moves:?}, version 1"
        );
    }
}
