//! Perft: from the empty board, from mid-game positions of every preset
//! (reached by move sequences and given as position text), and under the 8
//! symmetries. Every expected value was computed three ways before being
//! written here (bulk `perft`, `perft_plain`, and the naive second
//! implementation in `common`), and the small ones are re-checked that way.

mod common;

use common::{after, naive_after, Naive};
use qi_core::Position;
use qi_five_tigers::{FiveTigers, Move, Rules, Symmetry};
use qi_search::{divide, perft, perft_plain};

#[test]
fn perft_from_the_empty_board_shandong() {
    let start = FiveTigers::new(Rules::shandong());
    let expected = [25u64, 600, 13_800, 303_600];
    for (d, &n) in expected.iter().enumerate() {
        let d = d as u32 + 1;
        assert_eq!(perft(&start, d), n, "depth {d}");
        assert_eq!(perft_plain(&start, d), n, "plain depth {d}");
    }
    assert_eq!(Naive::new(Rules::shandong()).perft(3), 13_800);
}

/// Depths 5 and 6 from the empty board, with their values derived by
/// counting: no formation can form before First's third piece (ply 5), and
/// then only a three-diagonal (3 points) can, earning one removal of one of
/// Second's two (loose) pieces.
#[test]
fn perft_5_and_6_from_the_empty_board_match_the_combinatorial_count() {
    let start = FiveTigers::new(Rules::shandong());
    let d5: u64 = 25 * 24 * 23 * 22 * 21;
    // First's three pieces on one of the 4 three-diagonals, in any of 3!
    // orders; Second's two pieces on any 2 of the other 22 points, in order.
    let formed: u64 = 4 * 6 * 22 * 21;
    let d6 = (d5 - formed) * 20 + formed * 2;
    assert_eq!(d5, 6_375_600);
    assert_eq!(d6, 127_312_416);
    assert_eq!(perft(&start, 5), d5);
    assert_eq!(perft_plain(&start, 5), d5);
    assert_eq!(perft(&start, 6), d6);
}

/// Depth 7, also derived by counting: after the sixth ply either Second's
/// three pieces complete a three-diagonal (Second then removes one of
/// First's three loose pieces), or First places on one of 19 empty points;
/// after First's three-diagonal and its removal, Second places on one of 21.
#[test]
fn perft_7_from_the_empty_board_matches_the_combinatorial_count() {
    let start = FiveTigers::new(Rules::shandong());
    let formed_x: u64 = 4 * 6 * 22 * 21;
    let quiet_d5: u64 = 25 * 24 * 23 * 22 * 21 - formed_x;
    // Second's three pieces on a three-diagonal (4 × 3! orders), First's
    // three on 3 of the other 22 points in order, less the one disjoint
    // three-diagonal First would have completed itself.
    let formed_o: u64 = 4 * 6 * (22 * 21 * 20 - 6);
    let d7 = (quiet_d5 * 20 - formed_o) * 19 + formed_o * 3 + formed_x * 2 * 21;
    assert_eq!(d7, 2_415_434_400);
    assert_eq!(perft(&start, 7), d7);
}

#[test]
fn perft_from_the_empty_board_is_the_same_under_every_preset_to_depth_4() {
    // No formation can be completed in the first four plies.
    for name in Rules::PRESETS {
        let start = FiveTigers::new(Rules::preset(name).unwrap());
        assert_eq!(perft(&start, 4), 303_600, "{name}");
    }
}

#[test]
fn perft_5_under_deferred_ignores_the_three_diagonal() {
    // Under deferred capture nothing is taken during placement.
    let start = FiveTigers::new(Rules::deferred());
    assert_eq!(perft(&start, 6), 6_375_600 * 20);
}

/// (preset, moves from the start, position text reached, perft 1..=4)
const LINES: [(&str, &str, &str, [u64; 4]); 9] = [
    (
        "shandong",
        "a3 e5 e1 b2 c4 d2 a1 a5 c1 b5 e2 c3 d1 e3 c5 a2 b3 d5 d4 b1 b4 xd5 e4 c2",
        "OOX1O/1XXXO/XXO1O/OOXOX/XOXXX o place X:1,O:2 - o -,- 0",
        [3, 6, 46, 284],
    ),
    (
        "shandong",
        "b5 a2 d3 e2 c5 d1 e4 b3 b4 b1 a1 b2 a4 e3 c3 d2 a3 xb3 d5 e5 e1 xc3 c2 b3 c1 c3 a5 xa2 c4 b2-a2",
        "XXXOX/XXO1X/XOOXO/O1XOO/XOXOO o move X:0,O:0 o3 x -,b2-a2 1",
        [6, 30, 120, 324],
    ),
    (
        "shandong",
        "b5 a2 d3 e2 c5 d1 e4 b3 b4 b1 a1 b2 a4 e3 c3 d2 a3 xb3 d5 e5 e1 xc3 c2 b3 c1 c3 a5 xa2 c4 b2-a2 \
         xc1 xd3 xe4 e5-e4 d2-d3 c2-d2 b3-b2 e4-d4 d5-e5 a3-b3 e3-e4 c5-d5 c3-c2 xd4 xd5",
        "XX2O/XXO1O/1X1O1/OOOXO/XO1OO o move X:0,O:0 o1 x c5-d5,c3-c2 0",
        [3, 11, 173, 765],
    ),
    (
        "shandong-shuttle",
        "b5 a2 d3 e2 c5 d1 e4 b3 b4 b1 a1 b2 a4 e3 c3 d2 a3 xb3 d5 e5 e1 xc3 c2 b3 c1 c3 a5 xa2 c4 b2-a2 \
         xc1 xd3 xe4 e5-e4 a2-b2 a1-a2 b1-c1 xe4 xa2 a3-a2 b2-b1 a2-a3 xb3 xd5 c3-d3",
        "XXX2/XXO2/X2OO/2XOO/1OOOO o move X:0,O:0 o1 x a2-a3,c3-d3 1",
        [1, 4, 38, 238],
    ),
    (
        "ten",
        "a3 e5 e1 b2 c4 d2 a1 a5 c1 b5 e2 c3 d1 e3 c5 a2 b3 d5 d4 b1 d2-c2 c4-b4 xc2 xb1",
        "OOXOO/1X1X1/XXO1O/OO2X/X1XXX o move X:0,O:0 - o c4-b4,d2-c2 0",
        [9, 94, 668, 6429],
    ),
    (
        "ten",
        "b5 a2 d3 e2 c5 d1 e4 b3 b4 b1 a1 b2 a4 e3 c3 d2 a3 xb3 d5 e5 e1 xc3 b1-c1 xd3 xa1 b4-c4 d5-d4 a4-b4 xb2 xd4",
        "1XX1X/1XX1X/X3O/O2OO/2OOO x move X:0,O:0 x1 o a4-b4,d5-d4 0",
        [1, 5, 51, 291],
    ),
    (
        "ten",
        "b5 a2 d3 e2 c5 d1 e4 b3 b4 b1 a1 b2 a4 e3 c3 d2 a3 xb3 d5 e5 e1 xc3 b1-c1 xd3 xa1 b4-c4 d5-d4 a4-b4 xb2 xd4 \
         xa2 c1-b1 a3-a4 d2-d3 b4-b3 d1-d2 xb5 a4-b4 e1-d1 c4-c3 d3-d4 c5-b5 e2-e1 e5-d5 b1-b2",
        "1X1X1/1X1OX/1XX1O/1O1O1/3OO x move X:0,O:0 - x e5-d5,b1-b2 8",
        [10, 107, 1051, 9347],
    ),
    (
        "deferred",
        "b5 a2 d3 e2 c5 d1 e4 b3 b4 b1 a1 b2 a4 e3 c3 d2 a3 d5 d4 e5 c4 c1 a5 c2 e1 xd5 xe5 xb3 xc1 xe3",
        "XXX2/XXXXX/X1XX1/OOOOO/XO1OX x move X:0,O:0 x5,o9 o -,- 0",
        [2, 2, 10, 40],
    ),
    (
        "deferred",
        "b5 a2 d3 e2 c5 d1 e4 b3 b4 b1 a1 b2 a4 e3 c3 d2 a3 d5 d4 e5 c4 c1 a5 c2 e1 xd5 xe5 xb3 xc1 xe3 \
         xd1 xb1 xa2 xc2 xd2 xe1 xa1 xd4 xe4 xc3 xd3 xb4 xc5 xa5 b2-a2",
        "1X3/X1X2/X4/O3O/5 x move X:0,O:0 - x -,b2-a2 1",
        [10, 41, 329, 1305],
    ),
];

fn moves_of(line: &str) -> Vec<Move> {
    line.split_whitespace()
        .map(|m| m.parse().unwrap())
        .collect()
}

#[test]
fn perft_from_mid_game_positions_reached_by_moves() {
    for (name, line, text, expected) in LINES {
        let rules = Rules::preset(name).unwrap();
        let pos = after(rules, line);
        assert_eq!(pos.to_string(), text, "{name}: {line}");
        let naive = naive_after(rules, &moves_of(line));
        assert_eq!(naive.text(), text);
        for (d, &n) in expected.iter().enumerate() {
            let d = d as u32 + 1;
            assert_eq!(perft(&pos, d), n, "{name} {text} depth {d}");
            assert_eq!(perft_plain(&pos, d), n, "{name} {text} plain depth {d}");
            assert_eq!(naive.perft(d), n, "{name} {text} naive depth {d}");
        }
    }
}

#[test]
fn perft_from_mid_game_positions_given_as_text() {
    for (name, _, text, expected) in LINES {
        let rules = Rules::preset(name).unwrap();
        let pos = FiveTigers::from_text(text, &rules).unwrap();
        assert_eq!(pos.to_string(), text);
        for (d, &n) in expected.iter().enumerate() {
            assert_eq!(perft(&pos, d as u32 + 1), n, "{name} {text}");
        }
    }
}

/// Positions written by hand, each probing one part of the state machine,
/// with perft checked against the naive implementation (reached by moves).
#[test]
fn perft_of_hand_written_positions() {
    let cases: [(&str, &str, [u64; 4]); 5] = [
        // Full board, nobody took anything: opening removals, Second first;
        // every piece of both sides is in a formation, so each side gives
        // up one of its own.
        (
            "shandong",
            "XOXOX/OXOXO/XOXOX/OXOXO/XOXOX x move X:0,O:0 o1,x1 o -,- 0",
            [13, 156, 440, 2428],
        ),
        // X holds only formation pieces: X itself gives one up.
        (
            "shandong",
            "5/5/5/XX1OO/XX1OO x move X:0,O:0 o1 o -,- 0",
            [4, 16, 74, 475],
        ),
        // Shuttle forbidden: stepping back c2-c3 is refused.
        (
            "shandong",
            "5/2O2/5/2X2/5 x move X:0,O:0 - x c3-c2,- 3",
            [3, 12, 32, 84],
        ),
        (
            "shandong-shuttle",
            "5/2O2/5/2X2/5 x move X:0,O:0 - x c3-c2,- 3",
            [4, 15, 56, 197],
        ),
        // Deferred scoring owed by both sides.
        (
            "deferred",
            "XXXOO/XXXXX/XOXXO/OOOOO/XOOOX x move X:0,O:0 x10,o9 o -,- 0",
            [3, 6, 6, 54],
        ),
    ];
    for (name, text, expected) in cases {
        let rules = Rules::preset(name).unwrap();
        let pos = FiveTigers::from_text(text, &rules).unwrap();
        let naive = Naive::from_engine(&pos);
        assert_eq!(naive.text(), text);
        for (d, &n) in expected.iter().enumerate() {
            let d = d as u32 + 1;
            let got = perft(&pos, d);
            assert_eq!(got, perft_plain(&pos, d), "{name} {text} plain depth {d}");
            assert_eq!(got, naive.perft(d), "{name} {text} naive depth {d}");
            assert_eq!(got, n, "{name} {text} depth {d}");
        }
    }
}

#[test]
fn perft_is_invariant_under_the_8_symmetries() {
    let mut positions: Vec<FiveTigers> = LINES
        .iter()
        .map(|(name, _, text, _)| {
            FiveTigers::from_text(text, &Rules::preset(name).unwrap()).unwrap()
        })
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
