//! Perft from the start, from hand-built and from finished positions
//! under every preset.
//!
//! The expected counts are data, in `tests/data/*.perft` (the format of
//! `qi_core::testkit::perft_suite`), run here with the search's bulk
//! `perft` and the testkit's own perft, and checked two more ways:
//! `perft_plain` (checked play down to depth 0) and the independent
//! square-by-square reference generator in `common` (see also
//! tests/suite/reference.rs). The depth-1 moves are listed here and were checked
//! by hand against the rules.

use crate::common;

use common::*;
use qi_core::testkit::perft_suite::{self, Suite, SuiteError};
use qi_core::Position;
use qi_jungle::{Jungle, Rules};
use qi_search::{divide, perft, perft_plain};

const SUITES: [(&str, &str); 3] = [
    ("start.perft", include_str!("../data/start.perft")),
    ("hand-built.perft", include_str!("../data/hand-built.perft")),
    ("finished.perft", include_str!("../data/finished.perft")),
];

fn suite(name: &str) -> Suite<Jungle> {
    Suite::parse_file(&SUITES, name)
}

fn suites() -> Vec<Suite<Jungle>> {
    Suite::parse_files(&SUITES)
}

#[test]
fn suites_pass_with_the_search_perft() {
    let checked: usize = suites().iter().map(|s| s.check(perft)).sum();
    // start (5 + 3 × 4), hand-built (9 positions × 4 presets × 4 depths),
    // finished (3 × 3): a shorter suite would have lost expectations.
    assert_eq!(checked, 17 + 144 + 9);
}

#[test]
fn suites_pass_with_the_testkit_perft() {
    for s in suites() {
        s.check(perft_suite::perft);
    }
}

#[test]
fn plain_perft_agrees_with_the_suites_to_depth_3() {
    for s in suites() {
        s.filtered(|_, e| e.depth <= 3).check(perft_plain);
    }
}

#[test]
fn the_reference_agrees_with_the_suites_at_depth_3() {
    for s in suites() {
        s.filtered(|_, e| e.depth == 3)
            .check(|pos, depth| RefBoard::from_jungle(pos).perft(depth));
    }
}

#[test]
fn suite_positions_are_read_under_their_rules() {
    for s in suites() {
        for case in &s.cases {
            assert_eq!(case.position.rules(), &case.rules, "{}", case.id);
            let preset = case.id.rsplit('/').next().unwrap();
            if Rules::PRESETS.contains(&preset) {
                assert_eq!(Rules::preset(preset), Ok(case.rules), "{}", case.id);
            }
        }
    }
}

#[test]
fn start_moves_standard() {
    let pos = suite("start.perft").case("start/standard").position;
    assert_eq!(pos, Jungle::new(Rules::standard()));
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
fn the_start_is_in_the_suite_under_every_preset() {
    let suite = suite("start.perft");
    for (name, rules) in presets() {
        let case = suite.case(&format!("start/{name}"));
        assert_eq!(case.position, Jungle::new(rules), "{name}");
        assert!(case.perft.len() >= 4, "{name}");
    }
}

#[test]
fn divide_sums_to_perft() {
    let start = suite("start.perft").case("start/standard").clone();
    let parts = divide(&start.position, 4);
    assert_eq!(Some(parts.len() as u64), start.count(1));
    assert_eq!(
        Some(parts.iter().map(|(_, n)| n).sum::<u64>()),
        start.count(4)
    );
}

struct Case {
    /// The suite's id of the position is `<id>/<preset>`.
    id: &'static str,
    pieces: &'static str,
    side: char,
    /// Depth-1 moves under `standard`.
    standard_moves: &'static [&'static str],
    /// Per preset (standard, yeshou, datou, traditional): moves added to and
    /// removed from the standard list.
    presets: [(&'static [&'static str], &'static [&'static str]); 4],
}

const CASES: &[Case] = &[
    // Jump lanes: the Red Lion's lane b3-b7 holds its own Rat (blocks unless
    // yeshou), the Tiger's c3-c7 lands on a Blue Leopard (not in datou:
    // vertical), the Red Dog faces a Blue Wolf (traditional: Dog over Wolf).
    Case {
        id: "lanes-red",
        pieces: "Lb3 Tc3 Rb5 Ea1 ld5 rf4 pc7 eg7 wa7 Da6 ca5",
        side: 'w',
        standard_moves: &[
            "a1a2", "a1b1", "a6a5", "b3a3", "b3b2", "b5b4", "b5b6", "b5c5", "c3c2", "c3c7", "c3d3",
        ],
        presets: [
            (&[], &[]),
            (&["b3b7"], &[]),
            (&[], &["c3c7"]),
            (&["a6a7"], &[]),
        ],
    },
    // Same, Blue to move: the Blue Lion's lane d5-a5 is blocked by the Red
    // Rat; the Blue Rat swims out to land (in datou, from f4 it blocks the
    // Lion's d5-g5: a Rat anywhere in the river blocks); the Blue Wolf
    // takes the Red Dog unless Dog is over Wolf.
    Case {
        id: "lanes-blue",
        pieces: "Lb3 Tc3 Rb5 Ea1 ld5 rf4 pc7 eg7 wa7 Da6 ca5",
        side: 'b',
        standard_moves: &[
            "a5a4", "a7a6", "a7a8", "a7b7", "c7b7", "c7c8", "c7d7", "d5d4", "d5d6", "d5g5", "f4e4",
            "f4f3", "f4f5", "f4g4", "g7f7", "g7g6", "g7g8",
        ],
        presets: [(&[], &[]), (&[], &[]), (&[], &["d5g5"]), (&[], &["a7a6"])],
    },
    // Water rats: Red Rat c4 takes Blue Rat c5 in the water; the Red Lion's
    // lane d4-a4 holds its own Rat (yeshou: not blocked), d4-g4 lands on the
    // Blue Tiger.
    Case {
        id: "water-rats-red",
        pieces: "Rc4 rc5 Ld4 tg4 lb7 Eb3 ea9",
        side: 'w',
        standard_moves: &[
            "b3a3", "b3b2", "b3c3", "c4b4", "c4c3", "c4c5", "d4d3", "d4d5", "d4g4",
        ],
        presets: [(&[], &[]), (&["d4a4"], &[]), (&[], &[]), (&[], &[])],
    },
    // Blue to move: the Blue Lion may not jump onto the Red Elephant, the
    // Blue Tiger not onto the Red Lion; the Blue Rat takes the Red Rat.
    Case {
        id: "water-rats-blue",
        pieces: "Rc4 rc5 Ld4 tg4 lb7 Eb3 ea9",
        side: 'b',
        standard_moves: &[
            "a9a8", "a9b9", "b7a7", "b7b8", "b7c7", "c5b5", "c5c4", "c5c6", "c5d5", "g4g3", "g4g5",
        ],
        presets: [(&[], &[]), (&[], &[]), (&[], &[]), (&[], &[])],
    },
    // The bank: Red Rat on land d6, Blue Rat in water e6 (yeshou: they may
    // take each other); the Red Elephant on e7 cannot take the swimming Rat.
    Case {
        id: "bank-red",
        pieces: "Rd6 re6 Ee7 La5 lg5 Cg1 ca9",
        side: 'w',
        standard_moves: &[
            "a5a4", "a5a6", "a5d5", "d6c6", "d6d5", "d6d7", "e7d7", "e7e8", "e7f7", "g1f1", "g1g2",
        ],
        presets: [(&[], &[]), (&["d6e6"], &[]), (&[], &[]), (&[], &[])],
    },
    // Blue to move: the swimming Rat never takes the Elephant on e7; in
    // datou, from e6 it blocks its own Lion's g5-d5.
    Case {
        id: "bank-blue",
        pieces: "Rd6 re6 Ee7 La5 lg5 Cg1 ca9",
        side: 'b',
        standard_moves: &["a9a8", "a9b9", "e6e5", "e6f6", "g5d5", "g5g4", "g5g6"],
        presets: [(&[], &[]), (&["e6d6"], &[]), (&[], &["g5d5"]), (&[], &[])],
    },
    // Traps: a Blue Elephant on Red's trap d2 falls to the Red Rat, a Blue
    // Lion on Red's trap c1 to the Red Cat; the Red Wolf on its own trap e1
    // faces a Blue Dog; the Red Tiger on Blue's trap d8 beside the den
    // takes the Blue Cat on c8 (not in yeshou: a trapped animal captures
    // nothing).
    Case {
        id: "traps-red",
        pieces: "Rd3 ed2 Cb1 lc1 We1 de2 Td8 cc8 Pa1 pg9",
        side: 'w',
        standard_moves: &[
            "a1a2", "b1b2", "b1c1", "d3c3", "d3d2", "d3d4", "d3e3", "d8c8", "d8d7", "d8d9", "d8e8",
            "e1e2", "e1f1",
        ],
        presets: [(&[], &[]), (&[], &["d8c8"]), (&[], &[]), (&[], &["e1e2"])],
    },
    // Blue to move: the trapped Blue Lion still takes the Red Cat (not in
    // yeshou); the Blue
    // Cat takes the Red Tiger on Blue's trap; the Elephant never the Rat;
    // in traditional the Blue Dog takes the Red Wolf on its own trap.
    Case {
        id: "traps-blue",
        pieces: "Rd3 ed2 Cb1 lc1 We1 de2 Td8 cc8 Pa1 pg9",
        side: 'b',
        standard_moves: &[
            "c1b1", "c1c2", "c1d1", "c8b8", "c8c7", "c8c9", "c8d8", "d2c2", "d2d1", "e2e3", "e2f2",
            "g9f9", "g9g8",
        ],
        presets: [(&[], &[]), (&[], &["c1b1"]), (&[], &[]), (&["e2e1"], &[])],
    },
    // Dens: two Red animals may enter the Blue den; those lines end there.
    Case {
        id: "dens-red",
        pieces: "Dd8 ra9 eg9 Cc9 Ld7",
        side: 'w',
        standard_moves: &[
            "c9b9", "c9c8", "c9d9", "d7c7", "d7d6", "d7e7", "d8c8", "d8d9", "d8e8",
        ],
        presets: [(&[], &[]), (&[], &[]), (&[], &[]), (&[], &[])],
    },
];

#[test]
fn hand_built_positions_and_their_moves_every_preset() {
    let suite = suite("hand-built.perft");
    assert_eq!(suite.cases.len(), CASES.len() * 4);
    for case in CASES {
        for (i, (name, rules)) in presets().into_iter().enumerate() {
            let pos = board(case.pieces, case.side, rules);
            let data = suite.case(&format!("{}/{name}", case.id));
            assert_eq!(data.position, pos, "{} {name}", case.pieces);
            let (added, removed) = &case.presets[i];
            let mut expected: Vec<String> = case
                .standard_moves
                .iter()
                .filter(|m| !removed.contains(m))
                .map(|m| m.to_string())
                .chain(added.iter().map(|m| m.to_string()))
                .collect();
            expected.sort();
            assert_eq!(move_texts(&pos), expected, "{} {name}", case.pieces);
            assert_eq!(
                data.count(1),
                Some(expected.len() as u64),
                "{} {name}",
                case.id
            );
            assert!(data.perft.len() == 4, "{} {name}", case.id);
        }
    }
}

#[test]
fn presets_give_different_counts() {
    let suite = suite("hand-built.perft");
    let counts: Vec<u64> = Rules::PRESETS
        .iter()
        .map(|name| {
            suite
                .case(&format!("{}/{name}", CASES[0].id))
                .count(3)
                .unwrap()
        })
        .collect();
    for (i, a) in counts.iter().enumerate() {
        for b in &counts[i + 1..] {
            assert_ne!(a, b, "{counts:?}");
        }
    }
}

#[test]
fn finished_positions_have_no_perft() {
    let suite = suite("finished.perft");
    for case in &suite.cases {
        assert!(case.position.outcome().is_some(), "{}", case.id);
        assert!(case.perft.iter().all(|e| e.count == 0), "{}", case.id);
    }
    let mut finished = 0;
    let mut impossible = 0;
    for pieces in ["Dd9 ra9", "La2", "ra9 Ca8 Db9"] {
        for side in ['w', 'b'] {
            let pos = board_lenient(pieces, side, Rules::standard());
            if pos.outcome().is_none() {
                continue;
            }
            if Jungle::from_text(&jfen(pieces, side), Rules::standard()).is_ok() {
                finished += 1;
                assert!(
                    suite.cases.iter().any(|c| c.position == pos),
                    "{pos} is missing from finished.perft"
                );
            } else {
                // No game reaches it, but read leniently it has no perft
                // either.
                impossible += 1;
                for depth in 1..=3 {
                    assert_eq!(perft(&pos, depth), 0, "{pos}");
                    assert_eq!(perft_plain(&pos, depth), 0, "{pos}");
                }
            }
        }
    }
    assert_eq!(finished, suite.cases.len());
    assert_eq!(impossible, 2);
}

#[test]
fn suite_errors_name_the_line() {
    let err = |text: &str| Suite::<Jungle>::parse(text).unwrap_err();
    let good = "id a\nrules standard\nposition start\nperft 1 24\n";
    assert_eq!(Suite::<Jungle>::parse(good).unwrap().len(), 1);
    assert_eq!(
        err("# comment\n\nid a\nrules nonsense\n").line,
        4,
        "bad rules"
    );
    assert_eq!(err("id a\nrules standard\nposition 9/9 w\n").line, 3);
    assert_eq!(
        err("id a\nrules standard\nposition start\nperft x 1\n").line,
        4
    );
    assert_eq!(
        err("id a\nrules standard\nposition start\nperft 1\n").line,
        4
    );
    assert_eq!(err("id a\nrules standard\nposition start\nfen x\n").line, 4);
    assert_eq!(err("rules standard\n").line, 1);
    assert_eq!(err("id a\nposition start\n").line, 2);
    // A case without counts is reported at its id.
    let e: SuiteError = err("id a\nrules standard\nposition start\n\nid b\n");
    assert_eq!(
        (e.line, e.to_string()),
        (1, "line 1: case 'a' has no perft line".to_string())
    );
    assert_eq!(err(&format!("{good}\n{good}")).line, 6, "duplicate id");
}
