//! The setup: custom positions built piece by piece, each validation error,
//! and round trips between positions, setups and JFEN.

use crate::common;

use common::*;
use proptest::prelude::*;
use qi_core::testkit::{random_playout, Rng};
use qi_core::{Position, Side};
use qi_jungle::{
    Animal, ImpossiblePosition, JfenError, Jungle, Piece, Rules, Setup, SetupError, Square,
    START_JFEN,
};

fn sq(text: &str) -> Square {
    text.parse().unwrap()
}

fn red(animal: Animal) -> Piece {
    Piece::new(Side::First, animal)
}

fn blue(animal: Animal) -> Piece {
    Piece::new(Side::Second, animal)
}

#[test]
fn a_built_position_equals_the_one_read_from_its_jfen() {
    let rules = Rules::yeshou();
    let built = Setup::empty()
        .place(sq("c2"), red(Animal::Elephant))
        .place(sq("b4"), red(Animal::Rat))
        .place(sq("d8"), red(Animal::Cat))
        .place(sq("e7"), blue(Animal::Lion))
        .place(sq("a9"), blue(Animal::Tiger))
        .set(sq("g5"), Some(blue(Animal::Wolf)))
        .side_to_move(Side::Second)
        .no_capture_plies(7)
        .fullmove(23)
        .into_position(rules)
        .unwrap();
    let read = pos("t6/3C3/4l2/7/6w/1R5/7/2E4/7 b 7 23", rules);
    assert_eq!(built, read);
    assert_eq!(built.zobrist(), read.zobrist_from_scratch());
    assert_eq!(built.rules(), &rules);
    assert_eq!(Jungle::from_setup(read.to_setup(), rules), Ok(read));
}

#[test]
fn setting_a_square_replaces_or_clears_it() {
    let setup = Setup::start()
        .set(sq("a3"), None)
        .place(sq("a1"), red(Animal::Rat))
        .set(sq("g3"), None);
    assert_eq!(setup.piece_at(sq("a3")), None);
    assert_eq!(setup.piece_at(sq("a1")), Some(red(Animal::Rat)));
    assert_eq!(
        setup.to_string(),
        "l5t/1d3c1/r1p1w1e/7/7/7/2W1P2/1C3D1/R5L w 0 1"
    );
    assert_eq!(
        setup,
        Setup::from(&pos(&setup.to_string(), Rules::standard()))
    );
}

#[test]
fn start_and_empty_setups() {
    assert_eq!(Setup::start().to_string(), START_JFEN);
    assert_eq!(Setup::default(), Setup::start());
    assert_eq!(Jungle::default().to_setup(), Setup::start());
    assert_eq!(
        format!("{:?}", Setup::start()),
        format!("Setup(\"{START_JFEN}\")")
    );
    // An empty board is refused (no game ends with both sides bare), and
    // read leniently, as its JFEN is (the game is decided).
    assert_eq!(
        Setup::empty().into_position(Rules::standard()),
        Err(SetupError::Impossible(ImpossiblePosition::EmptyBoard))
    );
    let empty = Setup::empty()
        .into_position_lenient(Rules::standard())
        .unwrap();
    assert_eq!(
        empty,
        pos_lenient("7/7/7/7/7/7/7/7/7 w 0 1", Rules::standard())
    );
    assert!(empty.outcome().is_some());
}

#[test]
fn duplicate_piece_is_refused_with_both_squares() {
    let err = Setup::empty()
        .place(sq("c5"), blue(Animal::Dog))
        .place(sq("a2"), blue(Animal::Dog))
        .place(sq("g2"), red(Animal::Dog))
        .into_position(Rules::standard())
        .unwrap_err();
    assert_eq!(
        err,
        SetupError::DuplicatePiece {
            piece: blue(Animal::Dog),
            first: sq("a2"),
            second: sq("c5"),
        }
    );
    assert_eq!(err.to_string(), "two Blue Dogs on the board, on a2 and c5");
}

#[test]
fn an_animal_in_water_is_refused_but_the_rat_swims() {
    let setup = Setup::empty().place(sq("b4"), blue(Animal::Rat));
    assert!(setup.into_position(Rules::standard()).is_ok());
    let err = setup
        .place(sq("f6"), red(Animal::Tiger))
        .into_position(Rules::standard())
        .unwrap_err();
    assert_eq!(
        err,
        SetupError::AnimalInWater {
            piece: red(Animal::Tiger),
            square: sq("f6"),
        }
    );
    assert_eq!(
        err.to_string(),
        "Red Tiger in water at f6: only the Rat may be in water"
    );
}

#[test]
fn an_animal_on_its_own_den_is_refused() {
    let err = Setup::empty()
        .place(sq("d9"), blue(Animal::Elephant))
        .into_position(Rules::standard())
        .unwrap_err();
    assert_eq!(
        err,
        SetupError::OwnDen {
            piece: blue(Animal::Elephant),
            square: sq("d9"),
        }
    );
    assert_eq!(err.to_string(), "Blue Elephant on its own den d9");
}

#[test]
fn both_dens_entered_is_refused() {
    let one = Setup::empty()
        .place(sq("d9"), red(Animal::Cat))
        .place(sq("a5"), blue(Animal::Cat))
        .side_to_move(Side::Second);
    assert!(one.into_position(Rules::standard()).is_ok());
    let err = one
        .place(sq("d1"), blue(Animal::Rat))
        .into_position(Rules::standard())
        .unwrap_err();
    assert_eq!(err, SetupError::BothDensEntered);
    // JFEN reports the setup's error, in its words.
    let text = one.place(sq("d1"), blue(Animal::Rat)).to_string();
    let jfen = text.parse::<Jungle>().unwrap_err();
    assert_eq!(jfen, JfenError::Setup(SetupError::BothDensEntered));
    assert_eq!(
        jfen.to_string(),
        "both sides have an animal in the enemy den"
    );
}

#[test]
fn full_move_zero_is_refused() {
    let err = Setup::start()
        .fullmove(0)
        .into_position(Rules::standard())
        .unwrap_err();
    assert_eq!(err, SetupError::ZeroFullmove);
    assert_eq!(
        Jungle::from_text(
            "l5t/1d3c1/r1p1w1e/7/7/7/E1W1P1R/1C3D1/T5L w 0 0",
            Rules::standard()
        ),
        Err(JfenError::BadCounter {
            field: "full-move",
            text: "0".to_string()
        })
    );
}

#[test]
fn board_errors_come_before_counter_errors() {
    // JFEN reports in reading order: the water on the board before the
    // bad side field after it.
    assert_eq!(
        "7/7/7/7/1E5/7/7/7/7 q".parse::<Jungle>(),
        Err(JfenError::Setup(SetupError::AnimalInWater {
            piece: red(Animal::Elephant),
            square: sq("b5"),
        }))
    );
    assert_eq!(
        "7/7/7/7/7/7/7/7/7 q".parse::<Jungle>(),
        Err(JfenError::BadSide("q".to_string()))
    );
}

fn reachable(seed: u64, plies: usize, rules: Rules) -> Jungle {
    random_playout(&Jungle::new(rules), plies, &mut Rng::new(seed))
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(500))]

    #[test]
    fn setups_round_trip_through_positions_and_jfen(seed in any::<u64>(), plies in 0usize..300, preset in 0usize..4) {
        let rules = presets()[preset].1;
        let pos = reachable(seed, plies, rules);
        let setup = pos.to_setup();
        prop_assert_eq!(Setup::from(pos), setup);
        prop_assert_eq!(setup.side_to_move, pos.side_to_move());
        prop_assert_eq!(setup.no_capture_plies, pos.no_capture_plies());
        prop_assert_eq!(setup.fullmove, pos.fullmove());
        for square in Square::all() {
            prop_assert_eq!(setup.piece_at(square), pos.piece_at(square));
        }
        // position -> setup -> position
        let back = setup.into_position(rules).unwrap();
        prop_assert_eq!(back, pos);
        prop_assert_eq!(back.zobrist(), pos.zobrist());
        // text -> position -> text; the setup writes the same text but
        // for the rules, which the position names unless they are standard
        let text = pos.to_string();
        let named = if rules == Rules::standard() { String::new() } else { format!(" {rules}") };
        prop_assert_eq!(format!("{setup}{named}"), text.clone());
        let read = Jungle::from_text(&text, rules).unwrap();
        prop_assert_eq!(read.to_setup(), setup);
        prop_assert_eq!(read.to_string(), text.clone());
        // the text alone names the position: it reads back equal
        prop_assert_eq!(text.parse::<Jungle>(), Ok(pos));
        prop_assert_eq!(Jungle::from_text(&setup.to_string(), rules), Ok(pos));
    }
}

/// The impossible positions, each with the error that says why: as JFEN and
/// as a setup, refused by the strict readers and read by the lenient ones.
#[test]
fn positions_no_game_reaches_are_refused_and_read_leniently() {
    let rules = Rules::standard();
    let cases = [
        (
            "7/7/7/7/7/7/7/7/7 w 0 1",
            ImpossiblePosition::EmptyBoard,
            "impossible position: the board is empty",
        ),
        (
            "3D3/7/7/7/7/7/7/7/6c w 0 1",
            ImpossiblePosition::MoverInEnemyDen {
                piece: red(Animal::Dog),
                square: sq("d9"),
            },
            "impossible position: Red Dog stands in the enemy den d9 with its side to move (the game ended when it entered)",
        ),
        (
            "6C/7/7/7/7/7/7/7/3d3 b 0 1",
            ImpossiblePosition::MoverInEnemyDen {
                piece: blue(Animal::Dog),
                square: sq("d1"),
            },
            "impossible position: Blue Dog stands in the enemy den d1 with its side to move (the game ended when it entered)",
        ),
        (
            "7/7/7/7/7/7/7/7/6L w 0 1",
            ImpossiblePosition::LastMoverWithoutAnimals { side: Side::Second },
            "impossible position: Blue has no animals, yet it made the last move",
        ),
        (
            "l6/7/7/7/7/7/7/7/7 b 0 1",
            ImpossiblePosition::LastMoverWithoutAnimals { side: Side::First },
            "impossible position: Red has no animals, yet it made the last move",
        ),
        (
            "l5t/1d3c1/r1p1w1e/7/7/7/E1W1P1R/1C3D1/T5L w 1 1",
            ImpossiblePosition::CountersContradict {
                no_capture_plies: 1,
                plies: 0,
            },
            "impossible position: the no-capture count 1 is larger than the 0 plies played by this full-move number and side to move",
        ),
        (
            "l5t/1d3c1/r1p1w1e/7/7/7/E1W1P1R/1C3D1/T5L b 2 1",
            ImpossiblePosition::CountersContradict {
                no_capture_plies: 2,
                plies: 1,
            },
            "impossible position: the no-capture count 2 is larger than the 1 plies played by this full-move number and side to move",
        ),
        (
            "l5t/1d3c1/r1p1w1e/7/7/7/E1W1P1R/1C3D1/T5L w 201 101",
            ImpossiblePosition::CountersContradict {
                no_capture_plies: 201,
                plies: 200,
            },
            "impossible position: the no-capture count 201 is larger than the 200 plies played by this full-move number and side to move",
        ),
    ];
    for (text, why, message) in cases {
        let err = Jungle::from_text(text, rules).unwrap_err();
        assert_eq!(err, JfenError::Impossible(why), "{text}");
        assert_eq!(err.to_string(), message, "{text}");
        assert_eq!(text.parse::<Jungle>(), Err(err.clone()));
        // The setup of the same position: the same reason.
        let lenient = Jungle::from_text_lenient(text, rules).unwrap();
        assert_eq!(lenient.to_string(), text);
        let setup = lenient.to_setup();
        assert_eq!(setup.into_position(rules), Err(SetupError::Impossible(why)));
        assert_eq!(SetupError::Impossible(why).to_string(), message);
        assert_eq!(setup.into_position_lenient(rules), Ok(lenient));
        assert_eq!(Jungle::from_setup_lenient(setup, rules), Ok(lenient));
        assert_eq!(
            Jungle::from_setup(setup, rules),
            Err(SetupError::Impossible(why))
        );
    }
}

/// Finished positions a game does reach are read strictly.
#[test]
fn finished_but_reachable_positions_are_accepted() {
    let rules = Rules::standard();
    for text in [
        // a Red Dog entered the Blue den; Blue to move
        "3D3/7/7/7/7/7/7/7/6c b 1 1",
        // Red took Blue's last animal; Blue to move, no animals
        "7/7/7/7/7/7/7/7/6L b 0 1",
        // Blue took Red's last animal; Red to move
        "l6/7/7/7/7/7/7/7/7 w 0 2",
        // no-capture count equal to the plies played
        "l5t/1d3c1/r1p1w1e/7/7/7/E1W1P1R/1C3D1/T5L b 1 1",
        "l5t/1d3c1/r1p1w1e/7/7/7/E1W1P1R/1C3D1/T5L w 200 101",
    ] {
        let pos = Jungle::from_text(text, rules).unwrap_or_else(|e| panic!("{text}: {e}"));
        assert_eq!(pos.to_string(), text);
        assert_eq!(pos.to_setup().into_position(rules), Ok(pos));
    }
    // The huge counters of a full-move number near u32::MAX do not overflow.
    let far = format!(
        "l5t/1d3c1/r1p1w1e/7/7/7/E1W1P1R/1C3D1/T5L b {} {}",
        u32::MAX,
        u32::MAX
    );
    assert!(Jungle::from_text(&far, rules).is_ok());
    assert_eq!(
        Setup::start().fullmove(u32::MAX).plies_played(),
        2 * (u64::from(u32::MAX) - 1)
    );
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2000))]

    /// Any setup: the lenient reader refuses only boards no position can
    /// hold, the strict reader refuses in addition only impossible
    /// positions, and both readers of the text agree with them.
    #[test]
    fn strict_and_lenient_readers_agree_on_random_setups(
        picks in proptest::collection::vec((0usize..16, 0u8..63), 0..10),
        blue in any::<bool>(),
        no_capture in 0u32..40,
        fullmove in 1u32..20,
    ) {
        let rules = Rules::standard();
        let mut setup = Setup::empty()
            .side_to_move(if blue { Side::Second } else { Side::First })
            .no_capture_plies(no_capture)
            .fullmove(fullmove);
        for (p, square) in picks {
            let side = if p < 8 { Side::First } else { Side::Second };
            let square = Square::new(square).unwrap();
            setup = setup.place(square, Piece::new(side, Animal::ALL[p % 8]));
        }
        let strict = setup.into_position(rules);
        match setup.into_position_lenient(rules) {
            Err(e) => {
                prop_assert!(!matches!(e, SetupError::Impossible(_)), "{}", e);
                prop_assert_eq!(strict, Err(e));
            }
            Ok(pos) => {
                prop_assert_eq!(pos.to_setup(), setup);
                let text = pos.to_string();
                prop_assert_eq!(Jungle::from_text_lenient(&text, rules), Ok(pos));
                match strict {
                    Ok(strict) => {
                        prop_assert_eq!(strict, pos);
                        prop_assert_eq!(Jungle::from_text(&text, rules), Ok(pos));
                    }
                    Err(SetupError::Impossible(why)) => {
                        prop_assert_eq!(
                            Jungle::from_text(&text, rules),
                            Err(JfenError::Impossible(why))
                        );
                    }
                    // Both dens entered is refused by the strict reader
                    // alone, as the impossible positions are.
                    Err(SetupError::BothDensEntered) => {
                        prop_assert!(Jungle::from_text(&text, rules).is_err());
                    }
                    Err(e) => prop_assert!(false, "strict refused a lenient position: {}", e),
                }
            }
        }
    }
}

/// A position's text names its rules when they are not standard, so that
/// the text alone reads back to an equal position; text without rules
/// (all text written before it could name them) reads as standard, and a
/// reader given other rules refuses the text rather than change them.
#[test]
fn position_text_names_its_rules_and_reads_back_equal() {
    let text = "7/3L3/7/7/7/7/7/7/6l w 3 9";
    let custom: Rules = "standard,anti_chase=on,rank_order=dog_over_wolf"
        .parse()
        .unwrap();
    for rules in presets()
        .map(|(_, rules)| rules)
        .into_iter()
        .chain([custom])
    {
        let pos = Jungle::from_text(text, rules).unwrap();
        let written = pos.to_string();
        assert_eq!(written.parse::<Jungle>(), Ok(pos), "{written}");
        assert_eq!(Jungle::from_text(&written, rules), Ok(pos));
        assert_eq!(Jungle::from_text_lenient(&written, rules), Ok(pos));
        if rules != Rules::standard() {
            assert_eq!(written, format!("{text} {rules}"));
            assert_eq!(
                Jungle::from_text(&written, Rules::standard()),
                Err(JfenError::RulesMismatch {
                    text: rules,
                    given: Rules::standard(),
                })
            );
        }
    }
    assert_eq!(
        text.parse::<Jungle>(),
        Jungle::from_text(text, Rules::standard())
    );
    assert_eq!(
        format!("{text} standard").parse::<Jungle>(),
        Jungle::from_text(text, Rules::standard())
    );
    // What is no rules is an extra field, as before; so is a field after
    // the rules.
    for (extra, field) in [(" z", "z"), (" datou datou", "datou")] {
        assert_eq!(
            format!("{text}{extra}").parse::<Jungle>(),
            Err(JfenError::ExtraField(field.to_string()))
        );
    }
}
