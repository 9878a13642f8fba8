//! Parsers fed arbitrary text never panic; position text round-trips;
//! errors name the field.

use crate::common;

use common::{presets, random_line};
use proptest::prelude::*;
use qi_core::Position;
use qi_five_tigers::{Field, FiveTigers, Move, Point, PositionTextError, Rules};

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2000))]

    #[test]
    fn move_parser_never_panics(s in "\\PC{0,12}") {
        let _ = s.parse::<Move>();
        let _ = s.parse::<Point>();
        let _ = s.parse::<Rules>();
    }

    #[test]
    fn move_like_text_never_panics(s in "x?[a-f]?[0-9]{0,3}(-[a-f][0-9]{0,2})?") {
        if let Ok(m) = s.parse::<Move>() {
            prop_assert_eq!(m.to_string(), s);
        }
    }

    #[test]
    fn rules_like_text_never_panics(
        s in "(five-tigers:)?(shandong|ten|deferred|x)(,(pieces_per_side|shuttle|no_capture_draw|five_tigers_value|[a-z_]{1,8})=?[a-z0-9]{0,7}){0,3}"
    ) {
        if let Ok(rules) = s.parse::<Rules>() {
            prop_assert!(rules.validate().is_ok());
            prop_assert_eq!(rules.to_string().parse::<Rules>().unwrap(), rules);
        }
    }

    #[test]
    fn position_parser_never_panics(s in "\\PC{0,60}") {
        let _ = s.parse::<FiveTigers>();
    }

    #[test]
    fn position_like_text_never_panics(
        s in "[XO1-6/]{0,20} [xo]{1,2} (place|move|mov) X:[0-9]{1,3},O:[0-9]{1,3} (-|[xo][0-9]{1,3}(,[xo][0-9]{1,3}){0,2}) [xo] (-|[a-e][1-5]-[a-e][1-5]),(-|[a-e][1-5]-[a-e][1-5]) [0-9]{1,6}"
    ) {
        for (_, rules) in presets() {
            if let Ok(pos) = FiveTigers::from_text_lenient(&s, rules) {
                // Whatever the lenient reader accepts round-trips through it.
                prop_assert_eq!(FiveTigers::from_text_lenient(&pos.to_string(), rules).unwrap(), pos);
            }
            if let Ok(pos) = FiveTigers::from_text(&s, rules) {
                // Whatever is accepted round-trips and can be played.
                prop_assert_eq!(FiveTigers::from_text(&pos.to_string(), rules).unwrap(), pos);
                prop_assert_eq!(FiveTigers::from_text_lenient(&s, rules).unwrap(), pos);
                let _ = pos.outcome();
                for m in pos.legal_moves() {
                    let mut c = pos;
                    c.play(m).unwrap();
                    let _ = c.to_string();
                }
            }
        }
    }

    #[test]
    fn mutated_real_positions_never_panic(seed in 0u64..500, plies in 0usize..80, at in 0usize..60, ch in any::<char>()) {
        let rules = presets()[(seed % 4) as usize].1;
        let (pos, _) = random_line(rules, seed, plies);
        let text = pos.to_string();
        prop_assert_eq!(FiveTigers::from_text(&text, rules).unwrap(), pos);
        let mut chars: Vec<char> = text.chars().collect();
        let i = at % chars.len();
        chars[i] = ch;
        let mutated: String = chars.into_iter().collect();
        match FiveTigers::from_text(&mutated, rules) {
            Ok(p) => prop_assert_eq!(FiveTigers::from_text(&p.to_string(), rules).unwrap(), p),
            Err(e) => prop_assert!(!e.to_string().is_empty()),
        }
    }
}

#[test]
fn position_text_round_trips_through_whole_games() {
    for (_, rules) in presets() {
        for seed in 0..30 {
            for plies in [0, 5, 24, 26, 40, 80, 200] {
                let (pos, _) = random_line(rules, seed, plies);
                let text = pos.to_string();
                let back = FiveTigers::from_text(&text, rules).unwrap();
                assert_eq!(back, pos);
                assert_eq!(back.to_string(), text);
            }
        }
    }
}

#[test]
fn errors_name_the_field_and_the_character() {
    let cases: [(&str, Field, Option<char>); 12] = [
        (
            "5/5/5/5/4Q x place X:13,O:13 - x -,- 0",
            Field::Board,
            Some('Q'),
        ),
        (
            "5/5/5/5/5 X place X:13,O:13 - x -,- 0",
            Field::ToMove,
            Some('X'),
        ),
        (
            "5/5/5/5/5 x placé X:13,O:13 - x -,- 0",
            Field::Phase,
            Some('é'),
        ),
        (
            "5/5/5/5/5 x place X:1a,O:13 - x -,- 0",
            Field::Hands,
            Some('a'),
        ),
        (
            "5/5/5/5/5 x place X:13,O:13 y1 x -,- 0",
            Field::Owed,
            Some('y'),
        ),
        (
            "5/5/5/5/5 x place X:13,O:13 x1! x -,- 0",
            Field::Owed,
            Some('!'),
        ),
        (
            "5/5/5/5/5 x place X:13,O:13 - ? -,- 0",
            Field::Next,
            Some('?'),
        ),
        (
            "5/5/5/5/5 x place X:13,O:13 - x -,- 0x",
            Field::Quiet,
            Some('x'),
        ),
        (
            "5/5/5/5/5 x place X:13,O:13 - x -;- 0",
            Field::LastSteps,
            None,
        ),
        ("5/5/5/5/5 x place X:13,O:13 - o -,- 0", Field::ToMove, None),
        (
            "XXXXX/XXXXX/XXXX/5/5 x place X:0,O:13 - x -,- 0",
            Field::Board,
            None,
        ),
        ("5/5/5/5/5 x move X:0,O:0 - x -,- 0", Field::Board, None),
    ];
    for (text, field, ch) in cases {
        let err = text.parse::<FiveTigers>().unwrap_err();
        assert_eq!(err.field(), Some(field), "{text}: {err}");
        assert!(err.to_string().starts_with(field.name()), "{err}");
        if let Some(c) = ch {
            assert_eq!(err, PositionTextError::BadChar { field, ch: c }, "{text}");
        }
    }
}

#[test]
fn inconsistent_fields_are_refused() {
    let bad = [
        // Placement on a full board has ended.
        "XOXOX/OXOXO/XOXOX/OXOXO/XOXOX x place X:1,O:1 - x -,- 0",
        // Too many pieces for 13 a side.
        "XXXXX/XXXXX/XXXX1/5/5 x place X:0,O:13 - o -,- 0",
        // Owed entries in a row for one side, or of zero.
        "O4/5/5/5/X4 x move X:0,O:0 x1,x1 o -,- 0",
        "O4/5/5/5/X4 x move X:0,O:0 x0 o -,- 0",
        // Three entries.
        "O4/5/5/5/X4 x move X:0,O:0 x1,o1,x1 o -,- 0",
        // Steps recorded during placement; quiet plies during placement.
        "O4/5/5/5/X4 x place X:5,O:5 - x a1-a2,- 0",
        "O4/5/5/5/X4 x place X:5,O:5 - x -,- 3",
        // A side skipped although it has pieces in hand is fine, but the
        // next side must have pieces in hand during placement.
        "O4/5/5/5/X4 x place X:0,O:5 - x -,- 0",
        // Leading zeros.
        "O4/5/5/5/X4 x move X:0,O:0 - x -,- 03",
    ];
    for text in bad {
        assert!(text.parse::<FiveTigers>().is_err(), "{text} accepted");
    }
}

#[test]
fn under_ten_pieces_more_than_ten_is_refused() {
    let text = "5/5/5/5/5 x place X:13,O:13 - x -,- 0";
    assert!(FiveTigers::from_text(text, Rules::ten()).is_err());
    assert!(FiveTigers::from_text("5/5/5/5/5 x place X:10,O:10 - x -,- 0", Rules::ten()).is_ok());
}

#[test]
fn invalid_rules_are_refused_by_from_text_and_try_new() {
    let rules = Rules {
        five_tigers_value: 9,
        ..Rules::shandong()
    };
    assert!(matches!(
        FiveTigers::from_text("5/5/5/5/5 x place X:13,O:13 - x -,- 0", rules),
        Err(PositionTextError::Rules(_))
    ));
    assert!(FiveTigers::try_new(rules).is_err());
    // The engine itself never panics on such rules.
    let pos = FiveTigers::new(Rules {
        pieces_per_side: 0,
        ..Rules::shandong()
    });
    assert_eq!(pos.count_moves(), 0);
    assert!(pos.outcome().is_some());
    let big = FiveTigers::new(Rules {
        pieces_per_side: 200,
        four_diagonal_value: 255,
        ..Rules::shandong()
    });
    let mut rng = qi_core::testkit::Rng::new(3);
    for _ in 0..5 {
        let mut p = big;
        for _ in 0..300 {
            let moves = p.legal_moves();
            assert_eq!(moves.len(), p.count_moves());
            if moves.is_empty() {
                break;
            }
            p.play(moves[rng.below(moves.len())]).unwrap();
            let _ = (p.to_string(), p.outcome());
        }
    }
}

#[test]
fn echoed_input_has_its_control_characters_escaped() {
    let esc = '\u{1b}';
    let move_error = |t: String| t.parse::<Move>().unwrap_err().to_string();
    let position_error = |t: String| t.parse::<FiveTigers>().unwrap_err().to_string();
    let rules_error = |t: String| t.parse::<Rules>().unwrap_err().to_string();
    let start = "5/5/5/5/5 x place X:13,O:13 - x";
    let messages = [
        move_error(format!("a1{esc}[2J")),
        move_error(format!("c{esc}")),
        position_error(format!("5/5/5/5/4{esc} x place X:13,O:13 - x -,- 0")),
        position_error(format!("{start} a1{esc}-a2,- 0")),
        position_error(format!("{start} a1-a2{esc},- 0")),
        rules_error(format!("shandong{esc}")),
        rules_error(format!("shandong,shuttle{esc}")),
        rules_error(format!("shandong,{esc}=1")),
        rules_error(format!("shandong,shuttle={esc}")),
        rules_error(format!("shandong,pieces_per_side=1{esc}")),
    ];
    for message in messages {
        assert!(!message.contains(esc), "{message:?}");
        assert!(message.contains("\\u{1b}"), "{message:?}");
    }
}

#[test]
fn every_option_value_outside_the_rules_reads_the_same_way() {
    let message = |option: &str, value: &str, allowed: &str| {
        format!("option {option} = '{value}' is not allowed (allowed: {allowed})")
    };
    // As text, out of range or unreadable, and as a field of Rules.
    for value in ["0", "14", "x", "-1"] {
        let err = format!("shandong,pieces_per_side={value}")
            .parse::<Rules>()
            .unwrap_err();
        assert_eq!(
            err.to_string(),
            message("pieces_per_side", value, "1 to 13")
        );
    }
    for pieces_per_side in [0, 14, 200] {
        let err = Rules {
            pieces_per_side,
            ..Rules::shandong()
        }
        .validate()
        .unwrap_err();
        assert_eq!(
            err.to_string(),
            message("pieces_per_side", &pieces_per_side.to_string(), "1 to 13")
        );
    }
    for (field, text) in [
        (
            Rules {
                four_diagonal_value: 5,
                ..Rules::shandong()
            },
            "shandong,four_diagonal_value=5",
        ),
        (
            Rules {
                four_diagonal_value: 2,
                ..Rules::shandong()
            },
            "shandong,four_diagonal_value=2",
        ),
        (
            Rules {
                five_tigers_value: 3,
                ..Rules::shandong()
            },
            "shandong,five_tigers_value=3",
        ),
    ] {
        assert_eq!(
            field.validate().unwrap_err(),
            text.parse::<Rules>().unwrap_err(),
            "{text}"
        );
    }
    assert_eq!(
        "shandong,shuttle=sometimes"
            .parse::<Rules>()
            .unwrap_err()
            .to_string(),
        message("shuttle", "sometimes", "allowed or forbidden")
    );
    // Position text under such rules reports the same.
    let err = FiveTigers::from_text(
        "5/5/5/5/5 x place X:13,O:13 - x -,- 0",
        Rules {
            pieces_per_side: 0,
            ..Rules::shandong()
        },
    )
    .unwrap_err();
    assert_eq!(
        err.to_string(),
        format!("rules: {}", message("pieces_per_side", "0", "1 to 13"))
    );
}

#[test]
fn a_hand_too_large_reads_the_same_whatever_its_size() {
    for (hand, field) in [("14", true), ("300", false), ("99999999999", false)] {
        let text = format!("5/5/5/5/5 x place X:13,O:{hand} - x -,- 0");
        let err = text.parse::<FiveTigers>().unwrap_err();
        assert_eq!(err.field(), Some(Field::Hands), "{err}");
        assert_eq!(
            err.to_string(),
            format!("hands: second holds {hand} pieces, more than 13")
        );
        // Up to 255 the hand is read and the setup refuses it.
        assert_eq!(matches!(err, PositionTextError::Setup(_)), field, "{err:?}");
    }
}

#[test]
fn a_step_between_points_not_adjacent_reads_the_same_everywhere() {
    let message = "a1-c1 is not a step to an adjacent point";
    assert_eq!("a1-c1".parse::<Move>().unwrap_err().to_string(), message);
    let err = "5/5/5/5/5 x place X:13,O:13 - x a1-c1,- 0"
        .parse::<FiveTigers>()
        .unwrap_err();
    assert_eq!(err.to_string(), format!("last-steps: {message}"));
}

/// A position's text names its rules when they are not Shandong, so that
/// the text alone reads back to an equal position; text without rules
/// (all text written before it could name them) reads as Shandong, and a
/// reader given other rules refuses the text rather than change them.
#[test]
fn position_text_names_its_rules_and_reads_back_equal() {
    let text = "5/5/2O2/5/X4 o move X:0,O:0 - o -,- 3";
    let custom: Rules = "five-tigers:shandong,no_capture_draw=50".parse().unwrap();
    for rules in presets().iter().map(|(_, rules)| *rules).chain([custom]) {
        let pos = FiveTigers::from_text_lenient(text, rules).unwrap();
        let written = pos.to_string();
        assert_eq!(
            FiveTigers::from_text_lenient(&written, rules),
            Ok(pos),
            "{written}"
        );
        if rules != Rules::shandong() {
            assert_eq!(written, format!("{text} {rules}"));
            assert_eq!(
                FiveTigers::from_text_lenient(&written, Rules::shandong()),
                Err(PositionTextError::RulesMismatch {
                    text: rules,
                    given: Rules::shandong(),
                })
            );
        }
        let start = FiveTigers::new(rules);
        assert_eq!(start.to_string().parse::<FiveTigers>(), Ok(start));
        assert_eq!(FiveTigers::from_text(&start.to_string(), rules), Ok(start));
    }
    let start = "5/5/5/5/5 x place X:13,O:13 - x -,- 0";
    assert_eq!(start.parse::<FiveTigers>(), Ok(FiveTigers::default()));
    assert_eq!(
        format!("{start} five-tigers").parse::<FiveTigers>(),
        Ok(FiveTigers::default())
    );
    // What is no rules is a ninth field, as before; a tenth is refused.
    assert_eq!(
        format!("{start} z").parse::<FiveTigers>(),
        Err(PositionTextError::FieldCount(9))
    );
    assert_eq!(
        format!("{start} five-tigers five-tigers").parse::<FiveTigers>(),
        Err(PositionTextError::FieldCount(10))
    );
}
