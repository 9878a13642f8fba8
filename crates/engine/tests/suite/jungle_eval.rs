//! The Jungle evaluation and hooks: den races solved at the minimal depth,
//! colour symmetry, material dominance, bounds, and the search hooks.

use std::sync::atomic::AtomicBool;

use proptest::prelude::*;
use qi_core::{Evaluator, Position, Side};
use qi_engine::jungle::{den_distance, JungleEval, JungleHooks, JungleWeights, EVAL_LIMIT};
use qi_engine::{GameKit, JungleKit};
use qi_jungle::{Animal, Game, Jungle, Move, Rules, Square};
use qi_search::{Limits, Score, SearchHooks, SearchOptions, SearchResult, Searcher};

fn pos(jfen: &str) -> Jungle {
    Jungle::from_text(jfen, Rules::standard()).expect("valid JFEN")
}

fn mv(text: &str) -> Move {
    text.parse().expect("valid move")
}

fn search(jfen: &str, options: SearchOptions, depth: u32) -> SearchResult<Move> {
    let mut game = Game::new(pos(jfen));
    let eval = JungleEval::default();
    let mut searcher = Searcher::with_hooks(options, JungleHooks::default());
    let stop = AtomicBool::new(false);
    searcher.search(&mut game, &eval, Limits::depth(depth), &stop, |_| {})
}

/// The position rotated by 180° with the colours swapped (and the side to
/// move flipped): the same position seen from the other side.
fn mirror(p: &Jungle) -> Jungle {
    let mut board = [None; 63];
    for side in Side::BOTH {
        for (animal, sq) in p.pieces(side) {
            board[62 - sq.index() as usize] = Some(qi_jungle::Piece::new(side.opponent(), animal));
        }
    }
    let mut text = String::new();
    for rank in (0..9).rev() {
        let mut empty = 0;
        for file in 0..7 {
            match board[rank * 7 + file] {
                Some(piece) => {
                    if empty > 0 {
                        text.push_str(&empty.to_string());
                        empty = 0;
                    }
                    text.push(piece.letter());
                }
                None => empty += 1,
            }
        }
        if empty > 0 {
            text.push_str(&empty.to_string());
        }
        if rank > 0 {
            text.push('/');
        }
    }
    let side = match p.side_to_move() {
        Side::First => 'b',
        Side::Second => 'w',
    };
    // One full move more than the original keeps the counters consistent
    // (the mirrored side to move may have played one ply fewer).
    let text = format!(
        "{text} {side} {} {}",
        p.no_capture_plies(),
        p.fullmove() + 1
    );
    Jungle::from_text(&text, *p.rules()).expect("mirrored JFEN")
}

/// Positions reached by a deterministic pseudo-random playout.
fn playout(seed: u64, plies: usize, rules: Rules) -> Vec<Jungle> {
    let mut state = seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1;
    let mut p = Jungle::new(rules);
    let mut out = vec![p];
    for _ in 0..plies {
        let moves = p.legal_moves();
        if moves.is_empty() || p.outcome().is_some() {
            break;
        }
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        p.play_unchecked(moves[(state % moves.len() as u64) as usize]);
        if p.outcome().is_some() {
            break;
        }
        out.push(p);
    }
    out
}

// ---------------------------------------------------------------------------
// Den races.

#[test]
fn den_entry_found_at_depth_one() {
    // Red Lion on d8, next to the Blue den.
    let result = search("7/3L3/7/7/7/7/7/7/e6 w 0 1", JungleKit::tuned_options(), 1);
    assert_eq!(result.best_move, Some(mv("d8d9")));
    assert_eq!(result.score, Score::win_in(1));
}

#[test]
fn den_in_three_plies_solved_at_depth_three_not_two() {
    // Red Lion two steps from the undefended Blue den; the Blue Elephant on
    // a1 needs three moves to reach the Red den.
    let jfen = "7/7/3L3/7/7/7/7/7/e6 w 0 1";
    let exact = search(jfen, SearchOptions::exact(4), 3);
    assert_eq!(exact.score, Score::win_in(3));
    assert_eq!(exact.best_move, Some(mv("d7d8")));
    let full = search(jfen, JungleKit::tuned_options(), 3);
    assert_eq!(full.score, Score::win_in(3));
    // Full width without quiescence, two plies do not see it.
    let shallow = search(jfen, SearchOptions::exact(4), 2);
    assert!(!shallow.score.is_mate(), "{}", shallow.score);
}

#[test]
fn den_in_five_plies_solved_at_depth_five_not_four() {
    let jfen = "7/7/7/3L3/7/7/7/7/e6 w 0 1";
    let exact = search(jfen, SearchOptions::exact(4), 5);
    assert_eq!(exact.score, Score::win_in(5));
    let full = search(jfen, JungleKit::tuned_options(), 5);
    assert_eq!(full.score, Score::win_in(5));
    let shallow = search(jfen, SearchOptions::exact(4), 4);
    assert!(!shallow.score.is_mate(), "{}", shallow.score);
}

#[test]
fn lion_jump_den_race_uses_the_river() {
    // The Red Lion on e3 jumps to e7, then goes e8, d8 (or e9) and into
    // the den: four Lion moves, 7 plies. The Blue Rat on a9 is far away.
    let jfen = "r6/7/7/7/7/7/4L2/7/7 w 0 1";
    let full = search(jfen, JungleKit::tuned_options(), 7);
    assert_eq!(full.score, Score::win_in(7));
    assert_eq!(full.best_move, Some(mv("e3e7")));
}

#[test]
fn defended_den_is_not_a_mate() {
    // The Blue Elephant on e8 guards its trap d8: the Lion dies there.
    let jfen = "7/4e2/3L3/7/7/7/7/7/7 w 0 1";
    let result = search(jfen, JungleKit::tuned_options(), 4);
    assert!(!result.score.is_mate(), "{}", result.score);
    assert_ne!(result.best_move, Some(mv("d7d8")));
}

#[test]
fn blue_defends_by_capturing_the_intruder() {
    // Red Wolf on d8 (Blue's trap) with Blue to move: the Blue Rat next to
    // it must take it, since a trapped animal is powerless.
    let jfen = "7/3Wr2/7/7/7/7/7/7/E6 b 0 1";
    let result = search(jfen, JungleKit::tuned_options(), 2);
    assert_eq!(result.best_move, Some(mv("e8d8")));
    assert!(!result.score.is_mate(), "{}", result.score);
}

#[test]
fn two_intruders_are_decisive() {
    // Red animals on d8 and c9 and Blue can take one only.
    let eval = JungleEval::default();
    let p = pos("2D4/3Wr2/7/7/7/7/7/7/E6 b 0 1");
    assert!(eval.evaluate(&p) <= -10_000);
    let result = search(
        "2D4/3Wr2/7/7/7/7/7/7/E6 b 0 1",
        JungleKit::tuned_options(),
        3,
    );
    assert_eq!(result.score, Score::loss_in(2));
}

#[test]
fn open_traps_next_to_the_den_cost_the_side_to_move() {
    let with = JungleEval::default();
    let without = JungleEval::new(JungleWeights {
        open_trap: [0; 3],
        ..JungleWeights::default()
    });
    let open = JungleWeights::default().open_trap;
    // The Blue Lion on c2 can step onto c1 and d2, and no Red animal
    // stands next to either.
    let both = pos("7/7/7/7/7/7/7/2l4/6E w 0 1");
    assert_eq!(without.evaluate(&both) - with.evaluate(&both), open[2]);
    // The Red Elephant on e2 guards d2 (and e1); c1 stays open.
    let one = pos("7/7/7/7/7/7/7/2l1E2/7 w 0 1");
    assert_eq!(without.evaluate(&one) - with.evaluate(&one), open[1]);
    // A Red Cat on b1 guards c1 as well.
    let none = pos("7/7/7/7/7/7/7/2l1E2/1C5 w 0 1");
    assert_eq!(without.evaluate(&none), with.evaluate(&none));
}

// ---------------------------------------------------------------------------
// Evaluation properties.

#[test]
fn start_position_scores_the_tempo_only() {
    let eval = JungleEval::default();
    let start = Jungle::new(Rules::standard());
    assert_eq!(eval.evaluate(&start), JungleWeights::default().tempo);
}

#[test]
fn mirror_gives_the_same_score() {
    let eval = JungleEval::default();
    let material = JungleEval::new(JungleWeights::material_only());
    let mut checked = 0;
    for rules in [
        Rules::standard(),
        Rules::yeshou(),
        Rules::datou(),
        Rules::traditional(),
    ] {
        for seed in 1..=12u64 {
            for p in playout(seed, 120, rules) {
                let m = mirror(&p);
                assert!(mirror(&m).same_board(&p), "mirror is an involution");
                assert_eq!(eval.evaluate(&p), eval.evaluate(&m), "{p} vs {m}");
                assert_eq!(material.evaluate(&p), material.evaluate(&m), "{p}");
                checked += 1;
            }
        }
    }
    assert!(checked > 1000, "{checked}");
}

#[test]
fn mirror_of_a_lopsided_position_is_exact() {
    let eval = JungleEval::default();
    let p = pos("l5t/1d3c1/r1p3e/3w3/3L3/7/E1W1P1R/1C3D1/T6 b 3 9");
    let m = mirror(&p);
    assert_eq!(eval.evaluate(&p), eval.evaluate(&m));
    // The other side's view is (roughly) the negation: only the side to
    // move's terms differ.
    let flipped =
        Jungle::from_text(&p.to_string().replace(" b ", " w "), Rules::standard()).expect("valid");
    assert!(eval.evaluate(&flipped) > 0);
    assert!(eval.evaluate(&p) < 0);
}

#[test]
fn material_dominates() {
    let eval = JungleEval::default();
    // The start position without the Blue Lion (a9), either side to move.
    let red = pos("6t/1d3c1/r1p1w1e/7/7/7/E1W1P1R/1C3D1/T5L w 0 1");
    let blue = pos("6t/1d3c1/r1p1w1e/7/7/7/E1W1P1R/1C3D1/T5L b 0 1");
    assert!(eval.evaluate(&red) > 700, "{}", eval.evaluate(&red));
    assert!(eval.evaluate(&blue) < -700, "{}", eval.evaluate(&blue));
    // A Red Leopard deep in Blue's camp does not outweigh a missing Red Tiger.
    let advanced = pos("l5t/1d3c1/r1pPw1e/7/7/7/E1W3R/1C3D1/6L w 0 1");
    let without = pos("l5t/1d3c1/r1p1w1e/7/7/7/E1W1P1R/1C3D1/T5L w 0 1");
    assert!(eval.evaluate(&advanced) < eval.evaluate(&without));
    // More material is better for every weight set.
    for weights in [JungleWeights::default(), JungleWeights::material_only()] {
        let e = JungleEval::new(weights);
        assert!(e.evaluate(&red) > e.evaluate(&pos(qi_jungle::START_JFEN)));
    }
}

#[test]
fn rank_order_swaps_wolf_and_dog_values() {
    let material = JungleEval::new(JungleWeights::material_only());
    // Red lacks its Dog; Blue lacks its Wolf.
    let text = "l5t/1d3c1/r1p3e/7/7/7/E1W1P1R/1C5/T5L w 0 1";
    let standard = Jungle::from_text(text, Rules::standard()).expect("valid");
    let traditional = Jungle::from_text(text, Rules::traditional()).expect("valid");
    let w = JungleWeights::default().material;
    let diff = w[Animal::Wolf.index()] - w[Animal::Dog.index()];
    assert_eq!(material.evaluate(&standard), diff);
    assert_eq!(material.evaluate(&traditional), -diff);
}

#[test]
fn den_distances_respect_water_and_jumps() {
    let rules = Rules::standard();
    let e3: Square = "e3".parse().expect("square");
    let d8: Square = "d8".parse().expect("square");
    assert_eq!(den_distance(&rules, Side::First, Animal::Dog, e3), 7);
    assert_eq!(den_distance(&rules, Side::First, Animal::Lion, e3), 4);
    assert_eq!(den_distance(&rules, Side::First, Animal::Rat, e3), 7);
    assert_eq!(den_distance(&rules, Side::First, Animal::Cat, d8), 1);
    // Blue is measured towards d1; from e7 the Blue Tiger jumps to e3.
    let e7: Square = "e7".parse().expect("square");
    assert_eq!(den_distance(&rules, Side::Second, Animal::Tiger, e7), 4);
    // Under datou the Tiger jumps along ranks only.
    assert_eq!(
        den_distance(&Rules::datou(), Side::Second, Animal::Tiger, e7),
        7
    );
    assert_eq!(den_distance(&rules, Side::Second, Animal::Lion, e7), 4);
    // Water is far for a walker, near for the Rat.
    let c5: Square = "c5".parse().expect("square");
    assert_eq!(den_distance(&rules, Side::First, Animal::Dog, c5), 15);
    assert!(den_distance(&rules, Side::First, Animal::Rat, c5) < 8);
}

#[test]
fn named_profiles() {
    for name in JungleWeights::PROFILES {
        assert!(JungleWeights::named(name).is_some(), "{name}");
    }
    assert_eq!(
        JungleWeights::named("Material"),
        Some(JungleWeights::material_only())
    );
    assert_eq!(JungleWeights::named("nonsense"), None);
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    #[test]
    fn eval_stays_within_bounds(seed in any::<u64>(), plies in 0usize..300, preset in 0usize..4) {
        let rules = Rules::preset(Rules::PRESETS[preset]).expect("preset");
        let eval = JungleEval::default();
        for p in playout(seed, plies, rules) {
            let v = eval.evaluate(&p);
            prop_assert!(v.abs() <= EVAL_LIMIT, "{} scored {}", p, v);
            prop_assert!(v.abs() <= 19_000);
        }
    }
}

/// Quiescence scores standing pat before it reads the outcome, so finished
/// positions (a den entered, a side without animals or moves) are scored
/// too, and must be scored within bounds.
#[test]
fn finished_positions_are_scored_within_bounds() {
    let eval = JungleEval::default();
    let mut finished = 0;
    for (i, &preset) in Rules::PRESETS.iter().enumerate() {
        let rules = Rules::preset(preset).expect("preset");
        for seed in 0..50u64 {
            let mut state = (seed * 4 + i as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1;
            let mut p = Jungle::new(rules);
            for _ in 0..3000 {
                let moves = p.legal_moves();
                if moves.is_empty() {
                    break;
                }
                state ^= state << 13;
                state ^= state >> 7;
                state ^= state << 17;
                p.play_unchecked(moves[(state % moves.len() as u64) as usize]);
            }
            if p.outcome().is_some() {
                finished += 1;
                let v = eval.evaluate(&p);
                assert!(v.abs() <= EVAL_LIMIT, "{p} scored {v}");
            }
        }
    }
    assert!(finished > 100, "{finished} finished games");
}

// ---------------------------------------------------------------------------
// Hooks.

#[test]
fn captures_ordered_most_valuable_victim_first() {
    // The Red Rat on c2 can take the Blue Elephant on c3; the Red Lion on
    // d3 cannot, but it can take the Blue Cat on d4.
    let game = Game::new(pos("7/7/7/7/7/3c3/2eL3/2R4/7 w 0 1"));
    let hooks = JungleHooks::default();
    let rat_takes_elephant = mv("c2c3");
    let lion_takes_elephant = mv("d3c3");
    let lion_takes_cat = mv("d3d4");
    for m in [rat_takes_elephant, lion_takes_cat] {
        assert!(game.position().is_capture(m));
        assert!(game.legal_moves().contains(&m), "{m}");
    }
    assert!(!game.legal_moves().contains(&lion_takes_elephant));
    assert!(
        hooks.capture_order(&game, rat_takes_elephant) > hooks.capture_order(&game, lion_takes_cat)
    );
}

#[test]
fn tactical_moves_are_captures_and_den_threats() {
    let hooks = JungleHooks::default();
    let game = Game::new(pos("7/7/3L3/7/7/7/7/7/e6 w 0 1"));
    assert!(hooks.is_tactical(&game, mv("d7d8")));
    assert!(!hooks.is_tactical(&game, mv("d7c7")));
    assert!(!hooks.is_tactical(&game, mv("d7d6")));
    let start = Game::new(Jungle::new(Rules::standard()));
    for m in start.legal_moves() {
        assert!(!hooks.is_tactical(&start, m), "{m}");
    }
    // Blue's den threats are next to d1.
    let blue = Game::new(pos("7/7/7/7/7/7/7/2l4/6E b 0 1"));
    assert!(hooks.is_tactical(&blue, mv("c2c1")));
    assert!(hooks.is_tactical(&blue, mv("c2d2")));
    assert!(!hooks.is_tactical(&blue, mv("c2b2")));
}

#[test]
fn check_and_null_moves() {
    let hooks = JungleHooks::default();
    // Red Wolf on d8 next to the Blue den: Blue, to move, is in check.
    let mut checked = Game::new(pos("7/3Wr2/7/7/7/7/7/7/E6 b 0 1"));
    assert!(hooks.in_check(&checked));
    assert!(!hooks.make_null(&mut checked));
    let red = Game::new(pos("7/3Wr2/7/7/7/7/7/7/E6 w 0 1"));
    assert!(!hooks.in_check(&red));
    // The start position: a pass hands the move to Blue and is undone.
    let mut game = Game::new(Jungle::new(Rules::standard()));
    let before = *game.position();
    assert!(!hooks.in_check(&game));
    assert!(hooks.make_null(&mut game));
    assert_eq!(game.position().side_to_move(), Side::Second);
    assert!(!game.position().same_board(&before));
    hooks.undo_null(&mut game);
    assert_eq!(*game.position(), before);
    // Two animals or fewer: no pass (zugzwang is real there).
    let mut few = Game::new(pos("7/7/3L3/7/7/7/7/7/e6 w 0 1"));
    assert!(!hooks.make_null(&mut few));
    assert_eq!(few.position().side_to_move(), Side::First);
}

#[test]
fn tuned_options_are_jungles_own() {
    // Written out, so that a change to either these values or the hooks'
    // (for instance by SearchOptions::default changing under them) fails.
    let fields = |o: SearchOptions| {
        (
            (o.hash_mib, o.threads, o.multi_pv),
            [o.null_move, o.lmr, o.futility, o.aspiration, o.quiescence],
            [
                o.reverse_futility,
                o.late_move_pruning,
                o.check_extension,
                o.mate_distance,
                o.iir,
            ],
        )
    };
    let expected = (
        (16, 1, 1),
        [false, true, true, true, true],
        [false, true, false, true, true],
    );
    assert_eq!(fields(JungleKit::tuned_options()), expected);
    let material = JungleHooks::new(&JungleWeights::material_only());
    assert_eq!(fields(material.tuned_options()), expected);
}
