//! Positions no game can reach are refused, each with its reason, and
//! every position a game reaches is accepted.

use crate::common;

use qi_core::testkit::Rng;
use qi_core::{Position, Side};
use qi_five_tigers::{
    Field, FiveTigers, LastStep, Owed, PlacementCapture, PositionTextError, Rules, SetupError,
};

/// Rules to play under: the presets and other piece counts under both
/// placement captures.
fn rule_sets() -> Vec<Rules> {
    let mut all: Vec<Rules> = common::presets().into_iter().map(|(_, r)| r).collect();
    for pieces_per_side in [1, 2, 3, 5, 8, 12] {
        for placement_capture in [PlacementCapture::Immediate, PlacementCapture::Deferred] {
            all.push(Rules {
                pieces_per_side,
                placement_capture,
                ..Rules::shandong()
            });
        }
    }
    all
}

#[test]
fn every_position_of_random_games_is_accepted() {
    let games: u64 = std::env::var("QI_REACHABLE_GAMES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(40);
    for (i, rules) in rule_sets().into_iter().enumerate() {
        for seed in 0..games {
            let mut rng = Rng::new(seed * 131 + i as u64);
            let mut pos = FiveTigers::new(rules);
            for _ in 0..400 {
                let text = pos.to_string();
                let read = FiveTigers::from_text(&text, rules)
                    .unwrap_or_else(|e| panic!("{rules}: {text}: {e}"));
                assert_eq!(read, pos);
                assert_eq!(FiveTigers::from_setup(pos.to_setup(), rules), Ok(pos));
                let moves = pos.legal_moves();
                if moves.is_empty() {
                    break;
                }
                // Every other game prefers moves that earn removals, to
                // reach formations, full boards and long owed lists.
                let earning: Vec<_> = moves
                    .iter()
                    .copied()
                    .filter(|&m| {
                        let mut c = pos;
                        c.play(m).unwrap();
                        !m.is_removal() && !c.owed().is_empty()
                    })
                    .collect();
                let mv = if seed % 2 == 1 && !earning.is_empty() && rng.below(4) > 0 {
                    earning[rng.below(earning.len())]
                } else {
                    moves[rng.below(moves.len())]
                };
                pos.play(mv).unwrap();
            }
        }
    }
}

/// Checks that `text` is refused under `rules` with `error`, reported on
/// its field, and that the lenient reader accepts it and writes it back.
fn unreachable(text: &str, rules: Rules, error: SetupError) {
    let err = FiveTigers::from_text(text, rules).unwrap_err();
    assert_eq!(
        err,
        PositionTextError::Setup(error),
        "{rules}: {text}: {err}"
    );
    assert_eq!(err.field(), Some(error.field()));
    assert_eq!(err.to_string(), format!("{}: {error}", error.field()));
    let lenient = FiveTigers::from_text_lenient(text, rules)
        .unwrap_or_else(|e| panic!("{rules}: {text}: {e}"));
    assert_eq!(lenient.to_setup().to_string(), text);
    // The setup is refused the same way, and leniently accepted.
    let setup = lenient.to_setup();
    assert_eq!(setup.into_position(rules), Err(error));
    assert_eq!(setup.into_position_lenient(rules), Ok(lenient));
}

fn accepted(text: &str, rules: Rules) {
    let pos = FiveTigers::from_text(text, rules).unwrap_or_else(|e| panic!("{text}: {e}"));
    assert_eq!(pos.to_setup().to_string(), text);
}

fn step(from: &str, to: &str) -> LastStep {
    LastStep {
        from: from.parse().unwrap(),
        to: to.parse().unwrap(),
    }
}

fn owed(entries: &[(Side, u8)]) -> Owed {
    Owed::from_entries(entries).unwrap()
}

#[test]
fn a_full_board_in_movement_with_nothing_owed_is_refused() {
    // The opening removals would have followed placement.
    unreachable(
        "XXXXX/XXXXX/XXOOO/OOOOO/OOOOO x move X:0,O:0 - x -,- 0",
        Rules::shandong(),
        SetupError::FullBoardNothingOwed,
    );
    unreachable(
        "XXOOO/XOOXX/XXXOO/OXOXX/XOOXO o move X:0,O:0 - o -,- 0",
        Rules::deferred(),
        SetupError::FullBoardNothingOwed,
    );
    // With the opening removals owed it is a position of the game.
    accepted(
        "XXOOO/XOOXX/XXXOO/OXOXX/XOOXO o move X:0,O:0 o1,x1 o -,- 0",
        Rules::shandong(),
    );
    accepted(
        "XXOOO/XOOXX/XXXOO/OXOXX/XOOXO o move X:0,O:0 o1,x1 o -,- 0",
        Rules::deferred(),
    );
}

#[test]
fn a_full_board_owes_what_its_formations_earned() {
    // Deferred: the scores (both 0 here), nothing else.
    unreachable(
        "XXOOO/XOOXX/XXXOO/OXOXX/XOOXO x move X:0,O:0 x1 o -,- 0",
        Rules::deferred(),
        SetupError::OwedNotFromPlacement {
            owed: owed(&[(Side::First, 1)]),
            capture: PlacementCapture::Deferred,
        },
    );
    accepted(
        "XXXOO/XXXXX/XOXXO/OOOOO/XOOOX x move X:0,O:0 x10,o9 o -,- 0",
        Rules::deferred(),
    );
    unreachable(
        "XXXOO/XXXXX/XOXXO/OOOOO/XOOOX x move X:0,O:0 x9,o9 o -,- 0",
        Rules::deferred(),
        SetupError::OwedNotFromPlacement {
            owed: owed(&[(Side::First, 9), (Side::Second, 9)]),
            capture: PlacementCapture::Deferred,
        },
    );
    // Deferred: nothing was taken, so First has its 13 pieces.
    unreachable(
        "XXXXX/XXXXX/XXOOO/OOOOO/OOOOO o move X:0,O:0 x4,o8 o -,- 0",
        Rules::deferred(),
        SetupError::RemovedInDeferredPlacement {
            side: Side::First,
            lost: 1,
        },
    );
    // Immediate: X holds no formation, so it earned nothing.
    unreachable(
        "XXOOO/XOOXX/XXXOO/OXOXX/XOOXO x move X:0,O:0 x1 o -,- 0",
        Rules::shandong(),
        SetupError::OwedNotFromPlacement {
            owed: owed(&[(Side::First, 1)]),
            capture: PlacementCapture::Immediate,
        },
    );
    // Immediate: a board full of formations would have earned removals
    // as it filled, not left the opening removals.
    unreachable(
        "XOXOX/OXOXO/XOXOX/OXOXO/XOXOX x move X:0,O:0 o1,x1 o -,- 0",
        Rules::shandong(),
        SetupError::OwedNotFromPlacement {
            owed: owed(&[(Side::Second, 1), (Side::First, 1)]),
            capture: PlacementCapture::Immediate,
        },
    );
}

#[test]
fn hands_out_of_turn_are_refused() {
    // X has placed 8, O 10: O cannot be ahead.
    unreachable(
        "5/5/5/5/X4 o place X:5,O:3 - o -,- 0",
        Rules::shandong(),
        SetupError::PlacedOutOfTurn { placed: [8, 10] },
    );
    // X two ahead.
    unreachable(
        "5/5/X4/1X3/5 x place X:11,O:13 - x -,- 0",
        Rules::shandong(),
        SetupError::PlacedOutOfTurn { placed: [2, 0] },
    );
    // X has placed one more: O places next.
    unreachable(
        "5/5/5/5/X4 x place X:12,O:13 - x -,- 0",
        Rules::shandong(),
        SetupError::NextOutOfTurn {
            found: Side::First,
            expected: Side::Second,
        },
    );
    accepted("5/5/5/5/X4 o place X:12,O:13 - o -,- 0", Rules::shandong());
    // More on the board and in hand than the rules give.
    let err = FiveTigers::from_text("X4/5/5/5/5 o place X:13,O:13 - o -,- 0", Rules::shandong())
        .unwrap_err();
    assert_eq!(
        err,
        PositionTextError::Setup(SetupError::TooManyPieces {
            side: Side::First,
            max: 13
        })
    );
}

#[test]
fn removals_in_placement_follow_the_capture_option() {
    // Deferred: nothing owed, nothing taken during placement.
    unreachable(
        "O4/5/5/5/XX3 x place X:11,O:12 x1 o -,- 0",
        Rules::deferred(),
        SetupError::OwedInDeferredPlacement,
    );
    unreachable(
        "5/5/5/5/X4 o place X:11,O:12 - o -,- 0",
        Rules::deferred(),
        SetupError::RemovedInDeferredPlacement {
            side: Side::First,
            lost: 1,
        },
    );
    // Immediate: a removal needs a formation, which needs 3 pieces.
    unreachable(
        "5/5/5/5/X4 o place X:11,O:12 - o -,- 0",
        Rules::shandong(),
        SetupError::RemovedBeforeFormation { side: Side::First },
    );
    unreachable(
        "O4/5/5/5/XX3 x place X:11,O:12 x1 o -,- 0",
        Rules::shandong(),
        SetupError::OwedWithoutFormation {
            taker: Side::First,
            count: 1,
        },
    );
    // X's third piece, c1, completed the three-diagonal a3-b2-c1.
    accepted(
        "OO3/5/X4/1X3/2X2 x place X:10,O:11 x1 o -,- 0",
        Rules::shandong(),
    );
    unreachable(
        "OO3/5/X4/1X3/2X2 x place X:10,O:11 x2 o -,- 0",
        Rules::shandong(),
        SetupError::OwedWithoutFormation {
            taker: Side::First,
            count: 2,
        },
    );
    // A formation formed in placement earns a removal at once: X's square
    // a1-b1-a2-b2 with nothing owed and O still holding all it placed is
    // no game's position (the removal was neither taken nor is owed).
    unreachable(
        "3OO/4O/5/XX3/XX3 o place X:9,O:10 - o -,- 0",
        Rules::shandong(),
        SetupError::UnpaidFormations {
            side: Side::First,
            held: 1,
            owed: 0,
        },
    );
    // The same square with its removal owed, or taken, is.
    accepted(
        "3OO/4O/5/XX3/XX3 x place X:9,O:10 x1 o -,- 0",
        Rules::shandong(),
    );
    accepted(
        "3OO/5/5/XX3/XX3 o place X:9,O:10 - o -,- 0",
        Rules::shandong(),
    );
    // Only the side that placed last is owed removals.
    unreachable(
        "OOO2/5/X4/1X3/2X2 x place X:10,O:10 x1 x -,- 0",
        Rules::shandong(),
        SetupError::OwedNotToLastPlacer { taker: Side::First },
    );
    // Two pending entries during immediate placement.
    unreachable(
        "OO3/5/X4/1X3/2X2 x place X:10,O:11 x1,o1 o -,- 0",
        Rules::shandong(),
        SetupError::TwoOwedInPlacement,
    );
}

#[test]
fn owed_removals_at_the_start_of_movement_come_from_placement() {
    // Two entries, First first: deferred scores only, with First's
    // pieces all on the board.
    for rules in [Rules::shandong(), Rules::deferred()] {
        unreachable(
            "OO3/5/5/5/XX3 x move X:0,O:0 x1,o1 o -,- 0",
            rules,
            SetupError::OwedNotFromPlacement {
                owed: owed(&[(Side::First, 1), (Side::Second, 1)]),
                capture: rules.placement_capture,
            },
        );
    }
    // The opening removals begin on a full board.
    unreachable(
        "OO3/5/5/5/XX3 o move X:0,O:0 o1,x1 o -,- 0",
        Rules::shandong(),
        SetupError::OwedNotFromPlacement {
            owed: owed(&[(Side::Second, 1), (Side::First, 1)]),
            capture: PlacementCapture::Immediate,
        },
    );
    // First's opening removal, after Second took its own.
    accepted("OO3/5/5/5/XX3 x move X:0,O:0 x1 o -,- 0", Rules::shandong());
    // Second's last placement formed the square d1-e2.
    accepted(
        "5/5/5/XX1OO/XX1OO x move X:0,O:0 o1 o -,- 0",
        Rules::shandong(),
    );
    unreachable(
        "5/5/5/XX1OO/XX1OO x move X:0,O:0 o2 o -,- 0",
        Rules::shandong(),
        SetupError::OwedWithoutFormation {
            taker: Side::Second,
            count: 2,
        },
    );
}

#[test]
fn previous_steps_must_fit_the_turn_and_the_board() {
    // X to move before any step: Second steps first.
    unreachable(
        "4O/5/5/5/X4 x move X:0,O:0 - x -,- 0",
        Rules::shandong(),
        SetupError::StepsOutOfTurn,
    );
    // X stepped, O never did.
    unreachable(
        "4O/5/5/5/X4 o move X:0,O:0 - o a2-a1,- 1",
        Rules::shandong(),
        SetupError::StepsOutOfTurn,
    );
    accepted(
        "4O/5/5/5/X4 x move X:0,O:0 - x -,e4-e5 1",
        Rules::shandong(),
    );
    // O's last step entered e3, which is empty.
    unreachable(
        "4O/5/5/5/X4 x move X:0,O:0 - x -,e4-e3 1",
        Rules::shandong(),
        SetupError::LastStepOffBoard {
            side: Side::Second,
            step: step("e4", "e3"),
        },
    );
    // O's earlier step left e4, where an O piece stands again.
    unreachable(
        "4O/4O/5/5/X4 o move X:0,O:0 - o b1-a1,e4-e5 2",
        Rules::shandong(),
        SetupError::LastStepOffBoard {
            side: Side::Second,
            step: step("e4", "e5"),
        },
    );
    accepted(
        "4O/5/5/5/X4 o move X:0,O:0 - o b1-a1,e4-e5 2",
        Rules::shandong(),
    );
    // X entered a1 last and nothing was removed since: X is on a1.
    unreachable(
        "4O/5/5/5/1X3 o move X:0,O:0 - o b1-a1,e4-e5 2",
        Rules::shandong(),
        SetupError::LastStepOffBoard {
            side: Side::First,
            step: step("b1", "a1"),
        },
    );
}

#[test]
fn the_quiet_count_and_owed_removals_follow_the_last_step() {
    unreachable(
        "4O/5/5/5/X4 o move X:0,O:0 - o -,- 5",
        Rules::shandong(),
        SetupError::QuietWithoutSteps { plies: 5 },
    );
    // b3-b2 completed the square a1-b2: one removal owed until taken.
    accepted(
        "4O/5/5/XX3/XX3 x move X:0,O:0 x1 o b3-b2,e4-e5 2",
        Rules::shandong(),
    );
    unreachable(
        "4O/5/5/XX3/XX3 o move X:0,O:0 - o b3-b2,e4-e5 2",
        Rules::shandong(),
        SetupError::OwedNotFromStep {
            side: Side::First,
            step: step("b3", "b2"),
            value: 1,
        },
    );
    // Quiet 0 says a removal followed the step, which formed nothing.
    unreachable(
        "4O/5/5/5/XX3 o move X:0,O:0 - o c1-b1,e4-e5 0",
        Rules::shandong(),
        SetupError::OwedNotFromStep {
            side: Side::First,
            step: step("c1", "b1"),
            value: 0,
        },
    );
}

#[test]
fn a_board_field_must_spell_five_ranks_of_five() {
    for text in [
        "23/5/5/5/5 x place X:13,O:13 - x -,- 0",
        "5/5/11111/5/5 x place X:13,O:13 - x -,- 0",
        "5/5/5/5/X13 o place X:12,O:13 - o -,- 0",
    ] {
        for read in [FiveTigers::from_text, FiveTigers::from_text_lenient] {
            let err = read(text, Rules::shandong()).unwrap_err();
            assert_eq!(err.field(), Some(Field::Board), "{text}: {err}");
            assert!(err.to_string().contains("two digits in a row"), "{err}");
        }
    }
    accepted("5/5/5/5/X4 o place X:12,O:13 - o -,- 0", Rules::shandong());
}

#[test]
fn rules_outside_the_limits_never_make_the_checks_panic() {
    // from_setup takes the rules as given: whatever they say, the checks
    // answer without panicking.
    for pieces_per_side in [0, 14, 200, 255] {
        let rules = Rules {
            pieces_per_side,
            four_diagonal_value: 255,
            ..Rules::shandong()
        };
        for (_, preset) in common::presets() {
            for seed in 0..20 {
                for plies in [0, 3, 20, 40, 80] {
                    let (pos, _) = common::random_line(preset, seed, plies);
                    let mut setup = pos.to_setup();
                    let _ = FiveTigers::from_setup(setup, rules);
                    let _ = FiveTigers::from_setup_lenient(setup, rules);
                    setup.hands = [0, 255];
                    let _ = FiveTigers::from_setup(setup, rules);
                    setup.hands = [255, 0];
                    let _ = FiveTigers::from_setup(setup, rules);
                }
            }
        }
    }
}
