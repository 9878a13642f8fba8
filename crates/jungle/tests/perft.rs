//! Perft from the start and from hand-built positions under every preset.
//!
//! Every expected count below was checked three ways: bulk `perft`
//! (count_moves at the last ply), `perft_plain` (checked play down to depth
//! 0), and the independent square-by-square reference generator in
//! `common` (see also tests/reference.rs); the depth-1 moves are listed and
//! were checked by hand against the rules.

mod common;

use common::*;
use qi_core::Position;
use qi_jungle::{Jungle, Rules};
use qi_search::{divide, perft, perft_plain};

#[test]
fn perft_start_standard() {
    let pos = Jungle::new(Rules::standard());
    let expected = [24u64, 576, 12240, 260099, 5111620];
    for (depth, &n) in expected.iter().enumerate() {
        assert_eq!(perft(&pos, depth as u32 + 1), n, "depth {}", depth + 1);
    }
    for depth in 1..=3 {
        assert_eq!(perft_plain(&pos, depth), expected[depth as usize - 1]);
    }
    assert_eq!(pos.count_moves(), 24);
    // Tiger a1 (2), Elephant a3 (3), Cat b2 (4), Wolf c3 (3: c4 is water),
    // Leopard e3 (3: e4 is water), Dog f2 (4), Lion g1 (2), Rat g3 (3).
    assert_eq!(
        move_texts(&pos),
        [
            "a1a2", "a1b1", "a3a2", "a3a4", "a3b3", "b2a2", "b2b1", "b2b3", "b2c2", "c3b3", "c3c2",
            "c3d3", "e3d3", "e3e2", "e3f3", "f2e2", "f2f1", "f2f3", "f2g2", "g1f1", "g1g2", "g3f3",
            "g3g2", "g3g4"
        ]
    );
}

#[test]
fn perft_start_every_preset() {
    // The presets first differ deeper than 6 plies from the start.
    for (name, rules) in presets() {
        let pos = Jungle::new(rules);
        for (depth, n) in [(1, 24u64), (2, 576), (3, 12240), (4, 260099)] {
            assert_eq!(perft(&pos, depth), n, "{name} depth {depth}");
        }
    }
}

#[test]
fn divide_sums_to_perft() {
    let pos = Jungle::default();
    let parts = divide(&pos, 4);
    assert_eq!(parts.len(), 24);
    assert_eq!(parts.iter().map(|(_, n)| n).sum::<u64>(), 260099);
}

struct Case {
    pieces: &'static str,
    side: char,
    /// Depth-1 moves under `standard`.
    standard_moves: &'static [&'static str],
    /// Per preset (standard, yeshou, datou, traditional): moves added to and
    /// removed from the standard list, then perft at depths 1 to 4.
    presets: [(&'static [&'static str], &'static [&'static str], [u64; 4]); 4],
}

const CASES: &[Case] = &[
    // Jump lanes: the Red Lion's lane b3-b7 holds its own Rat (blocks unless
    // yeshou), the Tiger's c3-c7 lands on a Blue Leopard (not in datou:
    // vertical), the Red Dog faces a Blue Wolf (traditional: Dog over Wolf).
    Case {
        pieces: "Lb3 Tc3 Rb5 Ea1 ld5 rf4 pc7 eg7 wa7 Da6 ca5",
        side: 'w',
        standard_moves: &[
            "a1a2", "a1b1", "a6a5", "b3a3", "b3b2", "b5b4", "b5b6", "b5c5", "c3c2", "c3c7", "c3d3",
        ],
        presets: [
            (&[], &[], [11, 183, 2259, 36544]),
            (&["b3b7"], &[], [12, 198, 2619, 42216]),
            (&[], &["c3c7"], [10, 169, 1957, 32390]),
            (&["a6a7"], &[], [12, 188, 2480, 38219]),
        ],
    },
    // Same, Blue to move: the Blue Lion's lane d5-a5 is blocked by the Red
    // Rat; the Blue Rat swims out to land; the Blue Wolf takes the Red Dog
    // unless Dog is over Wolf.
    Case {
        pieces: "Lb3 Tc3 Rb5 Ea1 ld5 rf4 pc7 eg7 wa7 Da6 ca5",
        side: 'b',
        standard_moves: &[
            "a5a4", "a7a6", "a7a8", "a7b7", "c7b7", "c7c8", "c7d7", "d5d4", "d5d6", "d5g5", "f4e4",
            "f4f3", "f4f5", "f4g4", "g7f7", "g7g6", "g7g8",
        ],
        presets: [
            (&[], &[], [17, 189, 3101, 38409]),
            (&[], &[], [17, 206, 3379, 44841]),
            (&[], &[], [17, 172, 2861, 33226]),
            (&[], &["a7a6"], [16, 193, 3021, 39859]),
        ],
    },
    // Water rats: Red Rat c4 takes Blue Rat c5 in the water; the Red Lion's
    // lane d4-a4 holds its own Rat (yeshou: not blocked), d4-g4 lands on the
    // Blue Tiger.
    Case {
        pieces: "Rc4 rc5 Ld4 tg4 lb7 Eb3 ea9",
        side: 'w',
        standard_moves: &[
            "b3a3", "b3b2", "b3c3", "c4b4", "c4c3", "c4c5", "d4d3", "d4d5", "d4g4",
        ],
        presets: [
            (&[], &[], [9, 97, 909, 9932]),
            (&["d4a4"], &[], [10, 109, 1067, 11941]),
            (&[], &[], [9, 97, 909, 9932]),
            (&[], &[], [9, 97, 909, 9932]),
        ],
    },
    // Blue to move: the Blue Lion may not jump onto the Red Elephant, the
    // Blue Tiger not onto the Red Lion; the Blue Rat takes the Red Rat.
    Case {
        pieces: "Rc4 rc5 Ld4 tg4 lb7 Eb3 ea9",
        side: 'b',
        standard_moves: &[
            "a9a8", "a9b9", "b7a7", "b7b8", "b7c7", "c5b5", "c5c4", "c5c6", "c5d5", "g4g3", "g4g5",
        ],
        presets: [
            (&[], &[], [11, 96, 1069, 9929]),
            (&[], &[], [11, 106, 1198, 11627]),
            (&[], &[], [11, 96, 1069, 9929]),
            (&[], &[], [11, 96, 1069, 9929]),
        ],
    },
    // The bank: Red Rat on land d6, Blue Rat in water e6 (yeshou: they may
    // take each other); the Red Elephant on e7 cannot take the swimming Rat.
    Case {
        pieces: "Rd6 re6 Ee7 La5 lg5 Cg1 ca9",
        side: 'w',
        standard_moves: &[
            "a5a4", "a5a6", "a5d5", "d6c6", "d6d5", "d6d7", "e7d7", "e7e8", "e7f7", "g1f1", "g1g2",
        ],
        presets: [
            (&[], &[], [11, 83, 913, 7533]),
            (&["d6e6"], &[], [12, 96, 1078, 9255]),
            (&[], &[], [11, 83, 913, 7533]),
            (&[], &[], [11, 83, 913, 7533]),
        ],
    },
    // Blue to move: the swimming Rat never takes the Elephant on e7.
    Case {
        pieces: "Rd6 re6 Ee7 La5 lg5 Cg1 ca9",
        side: 'b',
        standard_moves: &["a9a8", "a9b9", "e6e5", "e6f6", "g5d5", "g5g4", "g5g6"],
        presets: [
            (&[], &[], [7, 78, 625, 6926]),
            (&["e6d6"], &[], [8, 91, 787, 8620]),
            (&[], &[], [7, 78, 625, 6926]),
            (&[], &[], [7, 78, 625, 6926]),
        ],
    },
    // Traps: a Blue Elephant on Red's trap d2 falls to the Red Rat, a Blue
    // Lion on Red's trap c1 to the Red Cat; the Red Wolf on its own trap e1
    // faces a Blue Dog; the Red Tiger on Blue's trap d8 beside the den.
    Case {
        pieces: "Rd3 ed2 Cb1 lc1 We1 de2 Td8 cc8 Pa1 pg9",
        side: 'w',
        standard_moves: &[
            "a1a2", "b1b2", "b1c1", "d3c3", "d3d2", "d3d4", "d3e3", "d8c8", "d8d7", "d8d9", "d8e8",
            "e1e2", "e1f1",
        ],
        presets: [
            (&[], &[], [13, 151, 1673, 19949]),
            (&[], &[], [13, 151, 1673, 19949]),
            (&[], &[], [13, 151, 1673, 19949]),
            (&[], &["e1e2"], [12, 149, 1562, 19970]),
        ],
    },
    // Blue to move: the trapped Blue Lion still takes the Red Cat; the Blue
    // Cat takes the Red Tiger on Blue's trap; the Elephant never the Rat;
    // in traditional the Blue Dog takes the Red Wolf on its own trap.
    Case {
        pieces: "Rd3 ed2 Cb1 lc1 We1 de2 Td8 cc8 Pa1 pg9",
        side: 'b',
        standard_moves: &[
            "c1b1", "c1c2", "c1d1", "c8b8", "c8c7", "c8c9", "c8d8", "d2c2", "d2d1", "e2e3", "e2f2",
            "g9f9", "g9g8",
        ],
        presets: [
            (&[], &[], [13, 136, 1628, 18001]),
            (&[], &[], [13, 136, 1628, 18001]),
            (&[], &[], [13, 136, 1628, 18001]),
            (&["e2e1"], &[], [14, 138, 1755, 18230]),
        ],
    },
    // Dens: two Red animals may enter the Blue den; those lines end there.
    Case {
        pieces: "Dd8 ra9 eg9 Cc9 Ld7",
        side: 'w',
        standard_moves: &[
            "c9b9", "c9c8", "c9d9", "d7c7", "d7d6", "d7e7", "d8c8", "d8d9", "d8e8",
        ],
        presets: [
            (&[], &[], [9, 27, 271, 1115]),
            (&[], &[], [9, 27, 271, 1115]),
            (&[], &[], [9, 27, 271, 1115]),
            (&[], &[], [9, 27, 271, 1115]),
        ],
    },
];

#[test]
fn perft_hand_built_positions_every_preset() {
    for case in CASES {
        for (i, (name, rules)) in presets().into_iter().enumerate() {
            let pos = board(case.pieces, case.side, rules);
            let (added, removed, counts) = &case.presets[i];
            let mut expected: Vec<String> = case
                .standard_moves
                .iter()
                .filter(|m| !removed.contains(m))
                .map(|m| m.to_string())
                .chain(added.iter().map(|m| m.to_string()))
                .collect();
            expected.sort();
            assert_eq!(move_texts(&pos), expected, "{} {name}", case.pieces);
            for (d, &n) in counts.iter().enumerate() {
                let depth = d as u32 + 1;
                assert_eq!(perft(&pos, depth), n, "{} {name} depth {depth}", pos);
                if depth <= 3 {
                    assert_eq!(perft_plain(&pos, depth), n, "{} {name} plain", pos);
                }
            }
            // and the independent reference agrees at depth 3
            assert_eq!(RefBoard::from_jungle(&pos).perft(3), counts[2]);
        }
    }
}

#[test]
fn presets_give_different_counts() {
    let case = &CASES[0];
    let counts: Vec<u64> = presets()
        .iter()
        .map(|(_, r)| perft(&board(case.pieces, case.side, *r), 3))
        .collect();
    assert_eq!(counts, [2259, 2619, 1957, 2480]);
}

#[test]
fn finished_positions_have_no_perft() {
    for pieces in ["Dd9 ra9", "La2", "ra9 Ca8 Db9"] {
        for side in ['w', 'b'] {
            let pos = board(pieces, side, Rules::standard());
            if pos.outcome().is_some() {
                assert_eq!(perft(&pos, 1), 0, "{pos}");
                assert_eq!(perft(&pos, 3), 0, "{pos}");
                assert_eq!(perft_plain(&pos, 2), 0, "{pos}");
            }
        }
    }
}
