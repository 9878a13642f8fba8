//! The setup: custom positions built point by point, each validation error
//! (and the position text error it becomes), and round trips between
//! positions, setups and position text.

use crate::common;

use common::{presets, random_line};
use proptest::prelude::*;
use qi_core::{Position, Side};
use qi_five_tigers::{
    Field, FiveTigers, LastStep, Owed, Phase, Point, PositionTextError, Rules, Setup, SetupError,
    Symmetry,
};

fn pt(text: &str) -> Point {
    text.parse().unwrap()
}

fn step(from: &str, to: &str) -> Option<LastStep> {
    Some(LastStep {
        from: pt(from),
        to: pt(to),
    })
}

/// A movement-phase setup with one piece a side (valid as it is).
fn duel() -> Setup {
    Setup::empty()
        .phase(Phase::Movement)
        .place(pt("a1"), Side::First)
        .place(pt("e5"), Side::Second)
}

/// Checks the builder's error, its field and message.
fn refused(setup: Setup, error: SetupError, field: Field, message: &str) {
    let rules = Rules::shandong();
    assert_eq!(setup.into_position(rules), Err(error), "{setup:?}");
    assert_eq!(error.field(), field);
    assert_eq!(error.to_string(), message);
    // Its text is refused with the same field and message (the text
    // refuses what it cannot express as it reads the field).
    let text = setup.to_string();
    let err = FiveTigers::from_text(&text, rules).unwrap_err();
    match &err {
        PositionTextError::Setup(e) => assert_eq!(*e, error, "{text}"),
        PositionTextError::Invalid { .. } => {}
        _ => panic!("{text}: {err:?}"),
    }
    assert_eq!(err.field(), Some(field));
    assert_eq!(err.to_string(), format!("{field}: {message}"));
}

#[test]
fn a_built_position_equals_the_one_read_from_its_text() {
    let rules = Rules::shandong();
    let built = Setup::empty()
        .phase(Phase::Movement)
        .place(pt("a1"), Side::First)
        .place(pt("b1"), Side::First)
        .place(pt("a2"), Side::First)
        .set(pt("b2"), Some(Side::First))
        .place(pt("d5"), Side::Second)
        .place(pt("e5"), Side::Second)
        .place(pt("c3"), Side::Second)
        .owed(Owed::from_entries(&[(Side::First, 1)]).unwrap())
        .side_to_move(Side::First)
        .next(Side::Second)
        .last_step(Side::First, step("b3", "b2"))
        .last_step(Side::Second, step("c4", "c3"))
        .no_capture_plies(4)
        .into_position(rules)
        .unwrap();
    let text = "3OO/5/2O2/XX3/XX3 x move X:0,O:0 x1 o b3-b2,c4-c3 4";
    let read = FiveTigers::from_text(text, rules).unwrap();
    assert_eq!(built, read);
    assert_eq!(built.to_string(), text);
    assert_eq!(built.zobrist(), read.zobrist_from_scratch());
    assert_eq!(FiveTigers::from_setup(read.to_setup(), rules), Ok(read));
}

#[test]
fn placement_setups_with_hands() {
    let rules = Rules::ten();
    let pos = Setup::start(rules)
        .place(pt("c3"), Side::First)
        .hand(Side::First, 9)
        .side_to_move(Side::Second)
        .next(Side::Second)
        .into_position(rules)
        .unwrap();
    let mut played = FiveTigers::new(rules);
    played.play("c3".parse().unwrap()).unwrap();
    assert_eq!(pos, played);
    assert_eq!(pos.to_setup().hands, [9, 10]);
    assert_eq!(pos.to_setup().piece_at(pt("c3")), Some(Side::First));
    assert_eq!(pos.to_setup().set(pt("c3"), None).piece_at(pt("c3")), None);
}

#[test]
fn start_and_empty_setups() {
    for (_, rules) in presets() {
        let start = Setup::start(rules);
        assert_eq!(start.into_position(rules), Ok(FiveTigers::new(rules)));
        assert_eq!(start, Setup::from(&FiveTigers::new(rules)));
    }
    let start = Setup::start(Rules::shandong());
    assert_eq!(start.to_string(), "5/5/5/5/5 x place X:13,O:13 - x -,- 0");
    assert_eq!(
        format!("{start:?}"),
        "Setup(\"5/5/5/5/5 x place X:13,O:13 - x -,- 0\")"
    );
    assert_eq!(
        Setup::empty().to_string(),
        "5/5/5/5/5 x place X:0,O:0 - x -,- 0"
    );
}

#[test]
fn owed_twice_in_a_row_for_one_side() {
    let owed = Owed::from_entries(&[(Side::First, 1), (Side::First, 2)]).unwrap();
    refused(
        duel().owed(owed),
        SetupError::OwedTwiceInARow { side: Side::First },
        Field::Owed,
        "two entries in a row for one side",
    );
}

#[test]
fn last_step_not_adjacent() {
    refused(
        duel().last_step(Side::Second, step("a1", "c1")),
        SetupError::LastStepNotAdjacent {
            side: Side::Second,
            step: step("a1", "c1").unwrap(),
        },
        Field::LastSteps,
        "a1-c1 is not a step to an adjacent point",
    );
}

#[test]
fn hand_too_large() {
    refused(
        Setup::start(Rules::shandong()).hand(Side::Second, 14),
        SetupError::HandTooLarge {
            side: Side::Second,
            hand: 14,
            max: 13,
        },
        Field::Hands,
        "second holds 14 pieces, more than 13",
    );
}

#[test]
fn too_many_pieces() {
    refused(
        Setup::start(Rules::shandong()).place(pt("c3"), Side::First),
        SetupError::TooManyPieces {
            side: Side::First,
            max: 13,
        },
        Field::Board,
        "first has more than 13 pieces on the board and in hand",
    );
}

#[test]
fn no_pieces() {
    refused(
        Setup::empty(),
        SetupError::NoPieces,
        Field::Board,
        "neither side has a piece",
    );
}

#[test]
fn placement_with_empty_hands() {
    refused(
        duel().phase(Phase::Placement),
        SetupError::PlacementWithEmptyHands,
        Field::Phase,
        "placement with both hands empty has ended",
    );
}

#[test]
fn placement_on_full_board() {
    let mut setup = Setup::empty().hand(Side::Second, 1);
    for p in Point::all() {
        let side = if p.index() < 13 {
            Side::First
        } else {
            Side::Second
        };
        setup = setup.place(p, side);
    }
    refused(
        setup,
        SetupError::PlacementOnFullBoard,
        Field::Phase,
        "placement on a full board has ended",
    );
}

#[test]
fn next_hand_empty() {
    refused(
        Setup::empty()
            .place(pt("a1"), Side::First)
            .hand(Side::Second, 5),
        SetupError::NextHandEmpty { next: Side::First },
        Field::Next,
        "a side with an empty hand is skipped in placement",
    );
}

#[test]
fn quiet_plies_in_placement() {
    refused(
        Setup::start(Rules::shandong()).no_capture_plies(3),
        SetupError::QuietPliesInPlacement { plies: 3 },
        Field::Quiet,
        "no movement ply during placement",
    );
}

#[test]
fn step_in_placement() {
    refused(
        Setup::start(Rules::shandong()).last_step(Side::First, step("a2", "a1")),
        SetupError::StepInPlacement,
        Field::LastSteps,
        "no step during placement",
    );
}

#[test]
fn hands_in_movement() {
    refused(
        duel().hand(Side::First, 1),
        SetupError::HandsInMovement { hands: [1, 0] },
        Field::Hands,
        "both hands are 0 once placement has ended",
    );
}

#[test]
fn owed_after_loss() {
    refused(
        duel()
            .set(pt("e5"), None)
            .owed(Owed::from_entries(&[(Side::First, 1)]).unwrap()),
        SetupError::OwedAfterLoss,
        Field::Owed,
        "nothing is owed once a side has no pieces",
    );
}

#[test]
fn owed_from_empty_board() {
    refused(
        Setup::empty()
            .place(pt("a1"), Side::First)
            .hand(Side::First, 5)
            .hand(Side::Second, 5)
            .owed(Owed::from_entries(&[(Side::First, 1)]).unwrap()),
        SetupError::OwedFromEmptyBoard {
            victim: Side::Second,
        },
        Field::Owed,
        "removals owed from a side with no piece on the board are dropped",
    );
}

#[test]
fn wrong_side_to_move() {
    refused(
        Setup::start(Rules::shandong()).side_to_move(Side::Second),
        SetupError::WrongSideToMove {
            found: Side::Second,
            expected: Side::First,
        },
        Field::ToMove,
        "'o' should be 'x'",
    );
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(500))]

    #[test]
    fn setups_round_trip_through_positions_and_text(seed in any::<u64>(), plies in 0usize..120, preset in 0usize..4) {
        let rules = presets()[preset % presets().len()].1;
        let (pos, _) = random_line(rules, seed, plies);
        let setup = pos.to_setup();
        prop_assert_eq!(Setup::from(pos), setup);
        for side in Side::BOTH {
            prop_assert_eq!(setup.pieces(side), pos.pieces(side));
            prop_assert_eq!(setup.hands[side.index()], pos.hand(side));
            prop_assert_eq!(setup.last_steps[side.index()], pos.last_step(side));
        }
        prop_assert_eq!(setup.phase, pos.phase());
        prop_assert_eq!(setup.side_to_move, pos.side_to_move());
        prop_assert_eq!(setup.next, pos.next());
        prop_assert_eq!(setup.owed, pos.owed());
        prop_assert_eq!(u32::from(setup.no_capture_plies), pos.no_capture_plies());
        // position -> setup -> position
        let back = setup.into_position(rules).unwrap();
        prop_assert_eq!(back, pos);
        prop_assert_eq!(back.zobrist(), pos.zobrist());
        // text -> position -> text; the setup writes the same text but
        // for the rules, which the position names unless they are Shandong
        let text = pos.to_string();
        let named = if rules == Rules::shandong() { String::new() } else { format!(" {rules}") };
        prop_assert_eq!(format!("{setup}{named}"), text.clone());
        let read = FiveTigers::from_text(&text, rules).unwrap();
        prop_assert_eq!(read.to_setup(), setup);
        prop_assert_eq!(read.to_string(), text.clone());
        // the text alone names the position: it reads back equal
        prop_assert_eq!(text.parse::<FiveTigers>(), Ok(pos));
        prop_assert_eq!(FiveTigers::from_text(&setup.to_string(), rules), Ok(pos));
        // the image of the setup is valid and is the image of the position
        for s in Symmetry::ALL {
            let image = s.setup(&setup).into_position(rules).unwrap();
            prop_assert_eq!(image, s.position(&pos));
            prop_assert_eq!(image.zobrist(), image.zobrist_from_scratch());
        }
    }
}
