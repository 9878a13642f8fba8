//! Perft: from the empty board, from mid-game positions of every preset
//! (reached by move sequences and given as position text), from positions
//! written by hand, and under the 8 symmetries.
//!
//! The expected counts are data, in `tests/data/*.perft` (the format of
//! `qi_core::testkit::perft_suite`), run here with the search's bulk
//! `perft` and the testkit's own perft. Every value was computed three
//! ways before being written there (bulk `perft`, `perft_plain`, and the
//! naive second implementation in `common`), and the small ones are
//! re-checked that way here.

use crate::common;

use common::{after, naive_after, Naive};
use qi_core::testkit::perft_suite::{self, Suite};
use qi_core::Position;
use qi_five_tigers::{FiveTigers, Move, Rules, Symmetry};
use qi_search::{divide, perft, perft_plain};

const SUITES: [(&str, &str); 3] = [
    (
        "empty-board.perft",
        include_str!("../data/empty-board.perft"),
    ),
    ("mid-game.perft", include_str!("../data/mid-game.perft")),
    (
        "hand-written.perft",
        include_str!("../data/hand-written.perft"),
    ),
];

fn suite(name: &str) -> Suite<FiveTigers> {
    Suite::parse_file(&SUITES, name)
}

fn suites() -> Vec<Suite<FiveTigers>> {
    Suite::parse_files(&SUITES)
}

#[test]
fn suites_pass_with_the_search_perft() {
    let checked: usize = suites().iter().map(|s| s.check(perft)).sum();
    // empty board (7 + 3 × 4 + 1), mid-game (9 × 4), hand-written (5 × 4):
    // a shorter suite would have lost expectations.
    assert_eq!(checked, 20 + 36 + 20);
}

#[test]
fn suites_pass_with_the_testkit_perft() {
    // Depth 7 from the empty board (billions of leaves) would double the
    // time of the whole file; the search's perft checks it above.
    for s in suites() {
        s.filtered(|_, e| e.count < 1_000_000_000)
            .check(perft_suite::perft);
    }
}

#[test]
fn plain_perft_agrees_with_the_suites_to_depth_5() {
    for s in suites() {
        s.filtered(|_, e| e.depth <= 5).check(perft_plain);
    }
}

#[test]
fn suite_positions_are_read_under_their_rules() {
    for s in suites() {
        for case in &s.cases {
            assert_eq!(case.position.rules(), &case.rules, "{}", case.id);
            if case.text != "start" {
                assert_eq!(
                    case.position.to_setup().to_string(),
                    case.text,
                    "{}",
                    case.id
                );
            }
        }
    }
}

#[test]
fn perft_from_the_empty_board_shandong() {
    let start = suite("empty-board.perft").case("empty/shandong").clone();
    assert_eq!(start.position, FiveTigers::new(Rules::shandong()));
    assert_eq!(Some(Naive::new(Rules::shandong()).perft(3)), start.count(3));
}

/// Depths 5 and 6 from the empty board, with their values derived by
/// counting: no formation can form before First's third piece (ply 5), and
/// then only a three-diagonal (3 points) can, earning one removal of one of
/// Second's two (loose) pieces.
#[test]
fn perft_5_and_6_from_the_empty_board_match_the_combinatorial_count() {
    let start = suite("empty-board.perft").case("empty/shandong").clone();
    let d5: u64 = 25 * 24 * 23 * 22 * 21;
    // First's three pieces on one of the 4 three-diagonals, in any of 3!
    // orders; Second's two pieces on any 2 of the other 22 points, in order.
    let formed: u64 = 4 * 6 * 22 * 21;
    let d6 = (d5 - formed) * 20 + formed * 2;
    assert_eq!(d5, 6_375_600);
    assert_eq!(d6, 127_312_416);
    assert_eq!(start.count(5), Some(d5));
    assert_eq!(start.count(6), Some(d6));
}

/// Depth 7, also derived by counting: after the sixth ply either Second's
/// three pieces complete a three-diagonal (Second then removes one of
/// First's three loose pieces), or First places on one of 19 empty points;
/// after First's three-diagonal and its removal, Second places on one of 21.
#[test]
fn perft_7_from_the_empty_board_matches_the_combinatorial_count() {
    let start = suite("empty-board.perft").case("empty/shandong").clone();
    let formed_x: u64 = 4 * 6 * 22 * 21;
    let quiet_d5: u64 = 25 * 24 * 23 * 22 * 21 - formed_x;
    // Second's three pieces on a three-diagonal (4 × 3! orders), First's
    // three on 3 of the other 22 points in order, less the one disjoint
    // three-diagonal First would have completed itself.
    let formed_o: u64 = 4 * 6 * (22 * 21 * 20 - 6);
    let d7 = (quiet_d5 * 20 - formed_o) * 19 + formed_o * 3 + formed_x * 2 * 21;
    assert_eq!(d7, 2_415_434_400);
    assert_eq!(start.count(7), Some(d7));
}

#[test]
fn perft_from_the_empty_board_is_the_same_under_every_preset_to_depth_4() {
    // No formation can be completed in the first four plies.
    let suite = suite("empty-board.perft");
    for name in Rules::PRESETS {
        let case = suite.case(&format!("empty/{name}"));
        assert_eq!(case.position, FiveTigers::new(Rules::preset(name).unwrap()));
        assert_eq!(case.count(4), Some(303_600), "{name}");
    }
}

#[test]
fn perft_6_under_deferred_ignores_the_three_diagonal() {
    // Under deferred capture nothing is taken during placement.
    let case = suite("empty-board.perft").case("empty/deferred").clone();
    assert_eq!(case.count(6), Some(6_375_600 * 20));
}

/// The move lines from the start that reach the positions of
/// `data/mid-game.perft`, by case id.
const LINES: [(&str, &str); 9] = [
    (
        "shandong-1",
        "a3 e5 e1 b2 c4 d2 a1 a5 c1 b5 e2 c3 d1 e3 c5 a2 b3 d5 d4 b1 b4 xd5 e4 c2",
    ),
    (
        "shandong-2",
        "b5 a2 d3 e2 c5 d1 e4 b3 b4 b1 a1 b2 a4 e3 c3 d2 a3 xb3 d5 e5 e1 xc3 c2 b3 c1 c3 a5 xa2 c4 b2-a2",
    ),
    (
        "shandong-3",
        "b5 a2 d3 e2 c5 d1 e4 b3 b4 b1 a1 b2 a4 e3 c3 d2 a3 xb3 d5 e5 e1 xc3 c2 b3 c1 c3 a5 xa2 c4 b2-a2 \
         xc1 xd3 xe4 e5-e4 d2-d3 c2-d2 b3-b2 e4-d4 d5-e5 a3-b3 e3-e4 c5-d5 c3-c2 xd4 xd5",
    ),
    (
        "shandong-shuttle-1",
        "b5 a2 d3 e2 c5 d1 e4 b3 b4 b1 a1 b2 a4 e3 c3 d2 a3 xb3 d5 e5 e1 xc3 c2 b3 c1 c3 a5 xa2 c4 b2-a2 \
         xc1 xd3 xe4 e5-e4 a2-b2 a1-a2 b1-c1 xe4 xa2 a3-a2 b2-b1 a2-a3 xb3 xd5 c3-d3",
    ),
    (
        "ten-1",
        "a3 e5 e1 b2 c4 d2 a1 a5 c1 b5 e2 c3 d1 e3 c5 a2 b3 d5 d4 b1 d2-c2 c4-b4 xc2 xb1",
    ),
    (
        "ten-2",
        "b5 a2 d3 e2 c5 d1 e4 b3 b4 b1 a1 b2 a4 e3 c3 d2 a3 xb3 d5 e5 e1 xc3 b1-c1 xd3 xa1 b4-c4 d5-d4 a4-b4 xb2 xd4",
    ),
    (
        "ten-3",
        "b5 a2 d3 e2 c5 d1 e4 b3 b4 b1 a1 b2 a4 e3 c3 d2 a3 xb3 d5 e5 e1 xc3 b1-c1 xd3 xa1 b4-c4 d5-d4 a4-b4 xb2 xd4 \
         xa2 c1-b1 a3-a4 d2-d3 b4-b3 d1-d2 xb5 a4-b4 e1-d1 c4-c3 d3-d4 c5-b5 e2-e1 e5-d5 b1-b2",
    ),
    (
        "deferred-1",
        "b5 a2 d3 e2 c5 d1 e4 b3 b4 b1 a1 b2 a4 e3 c3 d2 a3 d5 d4 e5 c4 c1 a5 c2 e1 xd5 xe5 xb3 xc1 xe3",
    ),
    (
        "deferred-2",
        "b5 a2 d3 e2 c5 d1 e4 b3 b4 b1 a1 b2 a4 e3 c3 d2 a3 d5 d4 e5 c4 c1 a5 c2 e1 xd5 xe5 xb3 xc1 xe3 \
         xd1 xb1 xa2 xc2 xd2 xe1 xa1 xd4 xe4 xc3 xd3 xb4 xc5 xa5 b2-a2",
    ),
];

fn moves_of(line: &str) -> Vec<Move> {
    line.split_whitespace()
        .map(|m| m.parse().unwrap())
        .collect()
}

#[test]
fn perft_from_mid_game_positions_reached_by_moves() {
    let suite = suite("mid-game.perft");
    assert_eq!(suite.cases.len(), LINES.len());
    for (id, line) in LINES {
        let case = suite.case(id);
        let pos = after(case.rules, line);
        assert_eq!(pos.to_setup().to_string(), case.text, "{id}: {line}");
        let naive = naive_after(case.rules, &moves_of(line));
        assert_eq!(naive.text(), case.text);
        for e in &case.perft {
            let (d, n) = (e.depth, e.count);
            assert_eq!(perft(&pos, d), n, "{id} depth {d}");
            assert_eq!(perft_plain(&pos, d), n, "{id} plain depth {d}");
            assert_eq!(naive.perft(d), n, "{id} naive depth {d}");
        }
    }
}

/// Positions written by hand, each probing one part of the state machine,
/// with perft checked against the naive implementation.
#[test]
fn perft_of_hand_written_positions_agrees_with_the_naive_implementation() {
    for case in suite("hand-written.perft").cases {
        let naive = Naive::from_engine(&case.position);
        assert_eq!(naive.text(), case.text);
        for e in &case.perft {
            assert_eq!(
                naive.perft(e.depth),
                e.count,
                "{} naive depth {}",
                case.id,
                e.depth
            );
        }
    }
}

#[test]
fn perft_is_invariant_under_the_8_symmetries() {
    let mut positions: Vec<FiveTigers> = suite("mid-game.perft")
        .cases
        .into_iter()
        .map(|c| c.position)
        .collect();
    positions.push(after(Rules::shandong(), "a1 e5 b2 d4 a2"));
    for pos in positions {
        let base: Vec<u64> = (1..=3).map(|d| perft(&pos, d)).collect();
        for s in Symmetry::ALL {
            let image = s.position(&pos);
            let counts: Vec<u64> = (1..=3).map(|d| perft(&image, d)).collect();
            assert_eq!(counts, base, "{s:?} of {pos}");
            // Moves map onto moves, subtree by subtree.
            let div = divide(&pos, 2);
            for (mv, n) in div {
                let mut child = image;
                child.play(s.apply_move(mv)).unwrap();
                assert_eq!(perft(&child, 1), n, "{s:?} {mv} of {pos}");
            }
            assert_eq!(image.canonical_hash(), pos.canonical_hash());
            assert_eq!(s.inverse().position(&image), pos);
        }
    }
}
