//! Error messages: every error that repeats the user's input shows it with
//! control characters escaped (`\u{1b}`, `\n`, ...), and faults of one kind
//! are worded alike (`bad <what> '<input>' (expected ...)`,
//! `unknown <what> '<input>' (known ...)`).

use qi_core::Position;
use qi_jungle::{Jungle, Move, Rules};

const ESC: &str = "\u{1b}[2J";
const START_BOARD: &str = "l5t/1d3c1/r1p1w1e/7/7/7/E1W1P1R/1C3D1/T5L";

/// The message of an error, checked to hold no raw control character.
fn message(error: impl std::fmt::Display) -> String {
    let text = error.to_string();
    assert!(
        !text.chars().any(char::is_control),
        "raw control in {text:?}"
    );
    text
}

#[test]
fn move_text_is_echoed_escaped() {
    let cases = [
        (
            "a3\u{1b}",
            "bad move 'a3\\u{1b}' (expected two squares like 'a3a4')",
        ),
        (
            "\u{1b}3a4",
            "bad origin square in move '\\u{1b}3a4': '\\u{1b}' is not a file letter (expected a lower-case letter)",
        ),
        (
            "a3a\u{7}",
            "bad destination square in move 'a3a\\u{7}': '\\u{7}' is not a rank digit",
        ),
    ];
    for (text, expected) in cases {
        assert_eq!(message(text.parse::<Move>().unwrap_err()), expected);
    }
    assert_eq!(
        message("a3a3".parse::<Move>().unwrap_err()),
        "bad move 'a3a3' (it does not leave its square)"
    );
    // A move text that the position refuses is echoed escaped too (by
    // qi_core::IllegalMove).
    let mut pos = Jungle::default();
    let err = pos.play("g9g8".parse().unwrap()).unwrap_err();
    assert_eq!(
        message(err),
        "illegal move g9g8: not a legal move in this position"
    );
}

#[test]
fn jfen_text_is_echoed_escaped() {
    let p = |text: String| message(text.parse::<Jungle>().unwrap_err());
    assert_eq!(
        p("l5t/1d3c1/r1p1w1e/7/\u{1b}6/7/E1W1P1R/1C3D1/T5L w".to_string()),
        "unknown piece letter '\\u{1b}' at rank 5"
    );
    assert_eq!(
        p(format!("{START_BOARD} {ESC}")),
        "bad side to move '\\u{1b}[2J' (expected 'w' or 'r' for Red, 'b' for Blue)"
    );
    assert_eq!(
        p(START_BOARD.to_string()),
        "missing side to move after the board (expected 'w' or 'r' for Red, 'b' for Blue)"
    );
    assert_eq!(
        p(format!("{START_BOARD} w 1\u{7f}")),
        "bad no-capture counter '1\\u{7f}' (expected a number from 0 to 4294967295)"
    );
    assert_eq!(
        p(format!("{START_BOARD} w 0 0")),
        "bad full-move counter '0' (expected a number from 1 to 4294967295)"
    );
    assert_eq!(
        p(format!("{START_BOARD} w 0 1 \u{9b}x")),
        "unexpected extra field '\\u{9b}x' after the full-move number"
    );
    assert_eq!(
        p("l5t/1d3c1/r1p1w1e/7/08/7/E1W1P1R/1C3D1/T5L w".to_string()),
        "bad empty-square count '0' at rank 5 (expected 1-7)"
    );
}

#[test]
fn rule_text_is_echoed_escaped() {
    let p = |text: &str| message(text.parse::<Rules>().unwrap_err());
    assert_eq!(
        p(ESC),
        "unknown Jungle rule preset '\\u{1b}[2J' (known presets: standard, yeshou, datou, traditional; optionally prefixed 'jungle:')"
    );
    assert_eq!(
        message(Rules::preset("jungle:\r").unwrap_err()),
        "unknown Jungle rule preset 'jungle:\\r' (known presets: standard, yeshou, datou, traditional; optionally prefixed 'jungle:')"
    );
    assert!(p("standard,colour\n=red")
        .starts_with("unknown Jungle rule option 'colour\\n' (known options: rank_order, "));
    assert!(p("standard,x=1").contains("trapped_attacks"));
    assert_eq!(
        p("standard,anti_chase"),
        "bad rule option item 'anti_chase' (expected option=value)"
    );
    assert_eq!(
        p("standard,\u{1b}"),
        "bad rule option item '\\u{1b}' (expected option=value)"
    );
    assert_eq!(
        p("standard,anti_chase=\u{1b}on"),
        "bad value '\\u{1b}on' for rule option anti_chase (expected on or off)"
    );
    assert_eq!(
        p("standard,trapped_attacks=\t"),
        "bad value '\\t' for rule option trapped_attacks (expected normal or none)"
    );
    assert_eq!(
        p("standard,repetition=mover_loses"),
        "renamed value 'mover_loses' for rule option repetition: use 'initiator_loses' (the rule it names changed)"
    );
    // The option enums' own parsers (qi_core::ParseNameError) escape too.
    assert_eq!(
        message("\u{1b}".parse::<qi_jungle::TrappedAttacks>().unwrap_err()),
        "unknown value '\\u{1b}' (expected normal or none)"
    );
}
