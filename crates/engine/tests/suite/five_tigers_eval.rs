//! The Five Tigers evaluation and search hooks, with the searcher: tactics
//! found, threats blocked, symmetry, bounds, whole games, the opening suite.

use std::collections::HashSet;
use std::sync::atomic::AtomicBool;

use proptest::prelude::*;
use qi_core::{Evaluator, Game as _, Position, Side};
use qi_engine::five_tigers::{FiveTigersEval, FiveTigersHooks, FiveTigersWeights};
use qi_engine::{FiveTigersKit, GameKit};
use qi_five_tigers::{FiveTigers, Game, Move, Phase, Rules, Symmetry};
use qi_search::{Limits, SearchHooks, SearchResult, Searcher};

/// The opening suite, as committed.
const OPENINGS: &str = include_str!("../../openings/five-tigers.txt");

fn mv(text: &str) -> Move {
    text.parse().unwrap()
}

/// A hand-made position probing the evaluation, read leniently: several
/// are sketches no game reaches (First to move in the movement phase
/// before any step, hands out of turn), which does not matter to the
/// evaluation they probe.
fn pos(text: &str) -> FiveTigers {
    FiveTigers::from_text_lenient(text, Rules::shandong()).unwrap()
}

fn game_after(moves: &[&str]) -> Game {
    let mut game = Game::new(FiveTigers::new(Rules::shandong()));
    for m in moves {
        game.play(mv(m)).unwrap();
    }
    game
}

fn search(game: &mut Game, eval: &FiveTigersEval, depth: u32) -> SearchResult<Move> {
    let mut searcher =
        Searcher::with_hooks(FiveTigersKit::tuned_options(), FiveTigersHooks::default());
    let stop = AtomicBool::new(false);
    searcher.search(game, eval, Limits::depth(depth), &stop, |_| {})
}

/// Plays the moves picked by `choices` (indices into the legal moves) from
/// the start, stopping early if the game ends.
fn random_game(rules: Rules, choices: &[u16]) -> Game {
    let mut game = Game::new(FiveTigers::new(rules));
    for &c in choices {
        let moves = game.legal_moves();
        if moves.is_empty() {
            break;
        }
        game.play_unchecked(moves[c as usize % moves.len()]);
    }
    game
}

#[test]
fn placement_completing_a_formation_is_found_at_depth_1() {
    // X holds a1, b1, a2: b2 completes a small square and wins a piece.
    let mut game = game_after(&["a1", "e5", "b1", "c5", "a2", "e2"]);
    let eval = FiveTigersEval::default();
    let result = search(&mut game, &eval, 1);
    assert_eq!(result.best_move, Some(mv("b2")));
    assert!(result.score.value() > 60, "score {:?}", result.score);
}

#[test]
fn formation_completion_and_removals_are_tactical() {
    let game = game_after(&["a1", "e5", "b1", "c5", "a2", "e2"]);
    let hooks = FiveTigersHooks::default();
    assert!(hooks.is_tactical(&game, mv("b2")));
    assert!(!hooks.is_tactical(&game, mv("c3")));
    let mut game = game;
    game.play(mv("b2")).unwrap();
    // X owes one removal: exactly one removal is searched in quiescence.
    let removals = game.legal_moves();
    assert!(removals.len() >= 3);
    let tactical: Vec<Move> = removals
        .iter()
        .copied()
        .filter(|&m| hooks.is_tactical(&game, m))
        .collect();
    assert_eq!(tactical.len(), 1);
    assert_eq!(
        tactical.first().copied(),
        FiveTigersHooks::best_removal(game.position())
    );
}

#[test]
fn removals_prefer_pieces_of_near_formations() {
    // O holds d4, e4, d5 (missing e5 of a small square) and a loose a3;
    // X has just formed a square and owes a removal.
    let text = "3O1/3OO/O4/XX3/XX3 x place X:9,O:9 x1 o -,- 0";
    let game = Game::new(pos(text));
    let hooks = FiveTigersHooks::default();
    let near = hooks.capture_order(&game, mv("xd4"));
    let far = hooks.capture_order(&game, mv("xa3"));
    assert!(near > far, "near {near} far {far}");
    let result = search(&mut game.clone(), &FiveTigersEval::default(), 2);
    assert_ne!(result.best_move, Some(mv("xa3")));
}

#[test]
fn a_side_removing_its_own_piece_gives_up_the_least_useful() {
    // X formed a square and owes a removal; O has no loose piece, so O
    // removes one of its own: not b4 or b5, which stand in both squares.
    let text = "OOO2/OOO2/5/XX3/XX3 o place X:9,O:7 x1 o -,- 0";
    let game = Game::new(pos(text));
    assert_eq!(game.position().side_to_move(), Side::Second);
    let hooks = FiveTigersHooks::default();
    assert!(hooks.capture_order(&game, mv("xa4")) > hooks.capture_order(&game, mv("xb4")));
    let best = FiveTigersHooks::best_removal(game.position()).unwrap();
    assert!(
        ["xa4", "xa5", "xc4", "xc5"].contains(&best.to_string().as_str()),
        "{best}"
    );
}

#[test]
fn stepping_straight_back_is_no_threat_when_shuttling_is_forbidden() {
    // X stepped b2-c2 out of its square; only c2 can step back into b2.
    let text = "3OO/4O/5/X1X2/XX3 o move X:0,O:0 - o b2-c2,- 3";
    let eval = FiveTigersEval::default();
    let forbidden = FiveTigers::from_text_lenient(text, Rules::shandong()).unwrap();
    let allowed = FiveTigers::from_text_lenient(text, Rules::shandong_shuttle()).unwrap();
    assert!(eval.score_for_first(&allowed) > eval.score_for_first(&forbidden));
    // With another X piece next to b2 the threat is back.
    let text = "3OO/4O/1X3/X1X2/XX3 o move X:0,O:0 - o b2-c2,- 3";
    let forbidden_b3 = FiveTigers::from_text_lenient(text, Rules::shandong()).unwrap();
    let allowed_b3 = FiveTigers::from_text_lenient(text, Rules::shandong_shuttle()).unwrap();
    assert_eq!(
        eval.score_for_first(&allowed_b3),
        eval.score_for_first(&forbidden_b3)
    );
}

#[test]
fn a_single_step_left_is_check() {
    let hooks = FiveTigersHooks::default();
    // O's only step is a1-b1 (O to move).
    let stuck = Game::new(pos("5/5/2X2/X4/O1X2 o move X:0,O:0 - o -,- 0"));
    assert!(hooks.in_check(&stuck));
    let free = Game::new(pos("5/5/2X2/5/O1X2 o move X:0,O:0 - o -,- 0"));
    assert!(!hooks.in_check(&free));
    let placement = game_after(&["a1", "b1", "e5", "a2"]);
    assert!(!hooks.in_check(&placement));
}

#[test]
fn owed_removals_count_like_pieces() {
    let eval = FiveTigersEval::default();
    let before = "3O1/3OO/O4/XX3/XX3 o place X:9,O:9 - o -,- 0";
    let after = "3O1/3OO/O4/XX3/XX3 x place X:9,O:9 x1 o -,- 0";
    let gain = eval.score_for_first(&pos(after)) - eval.score_for_first(&pos(before));
    assert!((80..=120).contains(&gain), "gain {gain}");
}

#[test]
fn blocks_a_five_tigers_line() {
    // O holds a3-d3 and can step e4-e3 for a five-tigers line (4
    // removals); X's only defence is e2-e3.
    let text = "X1X1X/1X2O/OOOO1/X1X1X/1O1O1 x move X:0,O:0 - x -,- 0";
    let mut game = Game::new(pos(text));
    let eval = FiveTigersEval::default();
    for depth in [2, 3, 4] {
        let result = search(&mut game, &eval, depth);
        assert_eq!(result.best_move, Some(mv("e2-e3")), "depth {depth}");
    }
}

#[test]
fn a_side_without_steps_is_scored_as_lost_soon() {
    // O (not to move) has no step; the same board with O mobile is better
    // for O.
    let eval = FiveTigersEval::default();
    let stuck = pos("5/5/2X2/X4/OX3 x move X:0,O:0 - x -,- 0");
    let free = pos("5/5/2X2/X4/O1X2 x move X:0,O:0 - x -,- 0");
    assert!(eval.score_for_first(&stuck) > eval.score_for_first(&free));
}

#[test]
fn start_position_is_even() {
    for rules in [Rules::shandong(), Rules::ten(), Rules::deferred()] {
        let start = FiveTigers::new(rules);
        let material = FiveTigersEval::new(FiveTigersWeights::material_only());
        assert_eq!(material.score_for_first(&start), 0);
        assert_eq!(FiveTigersEval::default().score_for_first(&start), 0);
    }
}

#[test]
fn whole_games_engine_against_engine_end() {
    for preset in Rules::PRESETS {
        whole_game(Rules::preset(preset).unwrap());
    }
}

/// Plays a game at depth 2, the full evaluation as First against the
/// material-only one, and checks that it ends in the movement phase.
fn whole_game(rules: Rules) {
    let eval_a = FiveTigersEval::default();
    let eval_b = FiveTigersEval::new(FiveTigersWeights::material_only());
    let stop = AtomicBool::new(false);
    let mut game = Game::new(FiveTigers::new(rules));
    let mut a = Searcher::with_hooks(FiveTigersKit::tuned_options(), FiveTigersHooks::default());
    let mut b = Searcher::with_hooks(FiveTigersKit::tuned_options(), FiveTigersHooks::default());
    for _ in 0..3000 {
        if game.outcome().is_some() {
            break;
        }
        let limits = Limits::depth(2);
        let result = if game.position().side_to_move() == Side::First {
            a.search(&mut game.clone(), &eval_a, limits, &stop, |_| {})
        } else {
            b.search(&mut game.clone(), &eval_b, limits, &stop, |_| {})
        };
        let m = result.best_move.expect("a move while the game is on");
        game.play(m).unwrap();
    }
    assert!(
        game.outcome().is_some(),
        "no outcome after {} plies",
        game.ply()
    );
    assert_eq!(game.position().phase(), Phase::Movement);
}

#[test]
fn opening_suite_is_valid() {
    let rules = Rules::shandong();
    let eval = FiveTigersEval::default();
    let mut seen = HashSet::new();
    let mut canonical = HashSet::new();
    let mut count = 0;
    for line in OPENINGS.lines() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        count += 1;
        let pos = FiveTigers::from_text(line, rules).unwrap_or_else(|e| panic!("{line}: {e}"));
        assert_eq!(pos.to_string(), line, "not in canonical text form");
        assert!(pos.outcome().is_none(), "{line} is decided");
        assert_eq!(pos.phase(), Phase::Placement, "{line}");
        assert!(pos.owed().is_empty(), "{line} owes removals");
        let placed = pos.pieces(Side::First).count() + pos.pieces(Side::Second).count();
        assert!((2..=6).contains(&placed), "{line}: {placed} pieces");
        assert!(seen.insert(line.to_string()), "{line} repeated");
        assert!(
            canonical.insert(pos.canonical_hash()),
            "{line} is a symmetric image of an earlier line"
        );
        let mut game = Game::new(pos);
        let result = search(&mut game, &eval, 3);
        assert!(
            result.score.value().abs() <= 60,
            "{line}: score {:?}",
            result.score
        );
    }
    assert!((25..=40).contains(&count), "{count} openings");
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]

    #[test]
    fn eval_is_symmetric_and_bounded(
        choices in proptest::collection::vec(any::<u16>(), 0..120),
        preset in 0usize..4,
    ) {
        let rules = Rules::preset(Rules::PRESETS[preset]).unwrap();
        let eval = FiveTigersEval::default();
        let game = random_game(rules, &choices);
        for p in game.positions() {
            let e = eval.evaluate(p);
            prop_assert!(e.abs() <= 19_000, "{} scores {}", p, e);
            for s in Symmetry::ALL {
                prop_assert_eq!(eval.evaluate(&p.transformed(s)), e, "{} under {:?}", p, s);
            }
            let material = FiveTigersEval::new(FiveTigersWeights::material_only());
            prop_assert!(material.evaluate(p).abs() <= 19_000);
        }
    }
}
