//! Position text (section 9): writing and reading, with errors that name
//! the field and the character.

use std::fmt;

use qi_core::{Bitboard32, Side};
use thiserror::Error;

use crate::formation::loose_pieces;
use crate::point::{Point, ALL_POINTS};
use crate::position::{side_char, FiveTigers, LastStep, Owed, Phase};
use crate::rules::{Rules, RulesError};

/// A field of the position text.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Field {
    /// The board (`5/5/5/5/5`).
    Board,
    /// The side to move (`x` or `o`).
    ToMove,
    /// The phase (`place` or `move`).
    Phase,
    /// The pieces in hand (`X:13,O:13`).
    Hands,
    /// The removals owed (`-`, `x2`, `x2,o3`).
    Owed,
    /// The side with the regular turn (`x` or `o`).
    Next,
    /// The previous steps (`-,-`, `c3-c4,-`).
    LastSteps,
    /// The quiet-ply count.
    Quiet,
}

impl Field {
    /// The name used in error messages.
    pub const fn name(self) -> &'static str {
        match self {
            Field::Board => "board",
            Field::ToMove => "to-move",
            Field::Phase => "phase",
            Field::Hands => "hands",
            Field::Owed => "owed",
            Field::Next => "next",
            Field::LastSteps => "last-steps",
            Field::Quiet => "quiet",
        }
    }
}

impl fmt::Display for Field {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// Why position text could not be read.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum PositionTextError {
    /// The text does not have eight space-separated fields.
    #[error("expected 8 space-separated fields, found {0}")]
    FieldCount(usize),
    /// A character that has no place in the field.
    #[error("{field}: unexpected character '{ch}'")]
    BadChar {
        /// The field.
        field: Field,
        /// The character.
        ch: char,
    },
    /// The field is well formed but its value is impossible or inconsistent
    /// with the other fields.
    #[error("{field}: {reason}")]
    Invalid {
        /// The field.
        field: Field,
        /// What is wrong.
        reason: String,
    },
    /// The rules given are not valid.
    #[error("rules: {0}")]
    Rules(#[from] RulesError),
}

impl PositionTextError {
    /// The field the error is about (`None` for a wrong field count or bad
    /// rules).
    pub fn field(&self) -> Option<Field> {
        match self {
            PositionTextError::BadChar { field, .. } | PositionTextError::Invalid { field, .. } => {
                Some(*field)
            }
            _ => None,
        }
    }
}

fn invalid(field: Field, reason: impl Into<String>) -> PositionTextError {
    PositionTextError::Invalid {
        field,
        reason: reason.into(),
    }
}

fn bad_char(field: Field, ch: char) -> PositionTextError {
    PositionTextError::BadChar { field, ch }
}

/// Writes the position text of `pos`.
pub(crate) fn write(pos: &FiveTigers, f: &mut fmt::Formatter<'_>) -> fmt::Result {
    for rank in (0..5u8).rev() {
        let mut run = 0;
        for file in 0..5u8 {
            let i = rank * 5 + file;
            let c = if pos.boards[0].contains(i) {
                'X'
            } else if pos.boards[1].contains(i) {
                'O'
            } else {
                run += 1;
                continue;
            };
            if run > 0 {
                write!(f, "{run}")?;
                run = 0;
            }
            write!(f, "{c}")?;
        }
        if run > 0 {
            write!(f, "{run}")?;
        }
        if rank > 0 {
            f.write_str("/")?;
        }
    }
    let last = |l: Option<LastStep>| match l {
        None => "-".to_string(),
        Some(l) => format!("{}-{}", l.from, l.to),
    };
    write!(
        f,
        " {} {} X:{},O:{} {} {} {},{} {}",
        side_char(pos.to_move),
        match pos.phase {
            Phase::Placement => "place",
            Phase::Movement => "move",
        },
        pos.hands[0],
        pos.hands[1],
        pos.owed,
        side_char(pos.next),
        last(pos.last[0]),
        last(pos.last[1]),
        pos.quiet
    )
}

fn parse_board(text: &str) -> Result<[Bitboard32; 2], PositionTextError> {
    let ranks: Vec<&str> = text.split('/').collect();
    if ranks.len() != 5 {
        return Err(invalid(
            Field::Board,
            format!("expected 5 ranks separated by '/', found {}", ranks.len()),
        ));
    }
    let mut boards = [Bitboard32::EMPTY; 2];
    for (i, rank_text) in ranks.iter().enumerate() {
        let rank = 4 - i as u8;
        let mut file = 0u8;
        for ch in rank_text.chars() {
            let (n, side) = match ch {
                'X' => (1, Some(0)),
                'O' => (1, Some(1)),
                '1'..='5' => (ch as u8 - b'0', None),
                _ => return Err(bad_char(Field::Board, ch)),
            };
            if file + n > 5 {
                return Err(invalid(
                    Field::Board,
                    format!("rank {} has more than 5 points", rank + 1),
                ));
            }
            if let Some(s) = side {
                boards[s].insert(rank * 5 + file);
            }
            file += n;
        }
        if file != 5 {
            return Err(invalid(
                Field::Board,
                format!("rank {} has {file} points, not 5", rank + 1),
            ));
        }
    }
    Ok(boards)
}

fn parse_side(text: &str, field: Field) -> Result<Side, PositionTextError> {
    let mut chars = text.chars();
    let side = match chars.next() {
        Some('x') => Side::First,
        Some('o') => Side::Second,
        Some(c) => return Err(bad_char(field, c)),
        None => return Err(invalid(field, "empty")),
    };
    match chars.next() {
        Some(c) => Err(bad_char(field, c)),
        None => Ok(side),
    }
}

fn parse_number(text: &str, field: Field, max: u32) -> Result<u32, PositionTextError> {
    if text.is_empty() {
        return Err(invalid(field, "missing number"));
    }
    if let Some(c) = text.chars().find(|c| !c.is_ascii_digit()) {
        return Err(bad_char(field, c));
    }
    if text.len() > 1 && text.starts_with('0') {
        return Err(invalid(field, format!("leading zero in {text}")));
    }
    match text.parse::<u32>() {
        Ok(n) if n <= max => Ok(n),
        _ => Err(invalid(field, format!("{text} exceeds {max}"))),
    }
}

fn parse_hands(text: &str) -> Result<[u8; 2], PositionTextError> {
    let (x, o) = text
        .split_once(',')
        .ok_or_else(|| invalid(Field::Hands, "expected X:<n>,O:<n>"))?;
    let x = x
        .strip_prefix("X:")
        .ok_or_else(|| invalid(Field::Hands, "expected X:<n> first"))?;
    let o = o
        .strip_prefix("O:")
        .ok_or_else(|| invalid(Field::Hands, "expected O:<n> second"))?;
    Ok([
        parse_number(x, Field::Hands, 255)? as u8,
        parse_number(o, Field::Hands, 255)? as u8,
    ])
}

fn parse_owed(text: &str) -> Result<Owed, PositionTextError> {
    if text == "-" {
        return Ok(Owed::NONE);
    }
    let mut entries = Vec::new();
    for entry in text.split(',') {
        let mut chars = entry.chars();
        let side = match chars.next() {
            Some('x') => Side::First,
            Some('o') => Side::Second,
            Some(c) => return Err(bad_char(Field::Owed, c)),
            None => return Err(invalid(Field::Owed, "empty entry")),
        };
        let n = parse_number(chars.as_str(), Field::Owed, 255)?;
        if n == 0 {
            return Err(invalid(Field::Owed, "an entry owes 0 removals"));
        }
        if entries.len() == 2 {
            return Err(invalid(Field::Owed, "more than two entries"));
        }
        if entries.last().is_some_and(|&(s, _)| s == side) {
            return Err(invalid(Field::Owed, "two entries in a row for one side"));
        }
        entries.push((side, n as u8));
    }
    Owed::from_entries(&entries).ok_or_else(|| invalid(Field::Owed, "bad entries"))
}

fn parse_last(text: &str) -> Result<Option<LastStep>, PositionTextError> {
    if text == "-" {
        return Ok(None);
    }
    let (a, b) = text
        .split_once('-')
        .ok_or_else(|| invalid(Field::LastSteps, format!("'{text}' is not a step or '-'")))?;
    let point = |s: &str| {
        s.parse::<Point>()
            .map_err(|e| invalid(Field::LastSteps, format!("'{s}': {e}")))
    };
    let (from, to) = (point(a)?, point(b)?);
    if !from.is_adjacent(to) {
        return Err(invalid(
            Field::LastSteps,
            format!("{from}-{to} is not a step to an adjacent point"),
        ));
    }
    Ok(Some(LastStep { from, to }))
}

/// Reads position text under `rules`, checking that the fields agree with
/// each other as they do in every position the state machine produces.
pub(crate) fn parse(text: &str, rules: Rules) -> Result<FiveTigers, PositionTextError> {
    rules.validate()?;
    let fields: Vec<&str> = text.split_ascii_whitespace().collect();
    if fields.len() != 8 {
        return Err(PositionTextError::FieldCount(fields.len()));
    }
    let boards = parse_board(fields[0])?;
    let to_move = parse_side(fields[1], Field::ToMove)?;
    let phase = match fields[2] {
        "place" => Phase::Placement,
        "move" => Phase::Movement,
        other => {
            return Err(match other.chars().find(|c| !c.is_ascii_lowercase()) {
                Some(c) => bad_char(Field::Phase, c),
                None => invalid(Field::Phase, format!("'{other}' is not 'place' or 'move'")),
            })
        }
    };
    let hands = parse_hands(fields[3])?;
    let owed = parse_owed(fields[4])?;
    let next = parse_side(fields[5], Field::Next)?;
    let (lx, lo) = fields[6]
        .split_once(',')
        .ok_or_else(|| invalid(Field::LastSteps, "expected <last-X>,<last-O>"))?;
    let last = [parse_last(lx)?, parse_last(lo)?];
    let quiet = parse_number(fields[7], Field::Quiet, u16::MAX as u32)? as u16;

    // Consistency of the fields.
    let n = rules.pieces_per_side as u32;
    for side in Side::BOTH {
        let i = side.index();
        if hands[i] as u32 > n {
            return Err(invalid(
                Field::Hands,
                format!("{side} holds {} pieces, more than {n}", hands[i]),
            ));
        }
        if boards[i].count() + hands[i] as u32 > n {
            return Err(invalid(
                Field::Board,
                format!("{side} has more than {n} pieces on the board and in hand"),
            ));
        }
    }
    let out = |i: usize| boards[i].is_empty() && hands[i] == 0;
    if out(0) && out(1) {
        return Err(invalid(Field::Board, "neither side has a piece"));
    }
    let full = (boards[0] | boards[1]) == ALL_POINTS;
    match phase {
        Phase::Placement => {
            if hands == [0, 0] {
                return Err(invalid(
                    Field::Phase,
                    "placement with both hands empty has ended",
                ));
            }
            if full {
                return Err(invalid(Field::Phase, "placement on a full board has ended"));
            }
            if hands[next.index()] == 0 {
                return Err(invalid(
                    Field::Next,
                    "a side with an empty hand is skipped in placement",
                ));
            }
            if quiet != 0 {
                return Err(invalid(Field::Quiet, "no movement ply during placement"));
            }
            if last != [None, None] {
                return Err(invalid(Field::LastSteps, "no step during placement"));
            }
        }
        Phase::Movement => {
            if hands != [0, 0] {
                return Err(invalid(
                    Field::Hands,
                    "both hands are 0 once placement has ended",
                ));
            }
        }
    }
    let expected_to_move = match owed.first() {
        None => next,
        Some((taker, _)) => {
            let victim = taker.opponent().index();
            if out(0) || out(1) {
                return Err(invalid(
                    Field::Owed,
                    "nothing is owed once a side has no pieces",
                ));
            }
            if boards[victim].is_empty() {
                return Err(invalid(
                    Field::Owed,
                    "removals owed from a side with no piece on the board are dropped",
                ));
            }
            if loose_pieces(boards[victim]).any() {
                taker
            } else {
                taker.opponent()
            }
        }
    };
    if to_move != expected_to_move {
        return Err(invalid(
            Field::ToMove,
            format!(
                "'{}' should be '{}'",
                side_char(to_move),
                side_char(expected_to_move)
            ),
        ));
    }
    let key = FiveTigers::board_key_from_scratch(&boards);
    Ok(FiveTigers {
        boards,
        hands,
        phase,
        to_move,
        next,
        owed,
        last,
        quiet,
        key,
        rules,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn start_text() {
        let start = FiveTigers::default();
        assert_eq!(start.to_string(), "5/5/5/5/5 x place X:13,O:13 - x -,- 0");
        assert_eq!(
            "5/5/5/5/5 x place X:13,O:13 - x -,- 0"
                .parse::<FiveTigers>()
                .unwrap(),
            start
        );
    }

    #[test]
    fn errors_name_the_field() {
        let cases = [
            ("5/5/5/5/4Z x place X:13,O:13 - x -,- 0", Field::Board),
            ("5/5/5/5 x place X:13,O:13 - x -,- 0", Field::Board),
            ("5/5/5/5/6 x place X:13,O:13 - x -,- 0", Field::Board),
            ("5/5/5/5/4 x place X:13,O:13 - x -,- 0", Field::Board),
            ("5/5/5/5/5 y place X:13,O:13 - x -,- 0", Field::ToMove),
            ("5/5/5/5/5 x plaice X:13,O:13 - x -,- 0", Field::Phase),
            ("5/5/5/5/5 x place X:14,O:13 - x -,- 0", Field::Hands),
            ("5/5/5/5/5 x place X:13;O:13 - x -,- 0", Field::Hands),
            ("5/5/5/5/5 x place X:13,O:13 q x -,- 0", Field::Owed),
            ("5/5/5/5/5 x place X:13,O:13 - z -,- 0", Field::Next),
            (
                "5/5/5/5/5 x place X:13,O:13 - x a1-c1,- 0",
                Field::LastSteps,
            ),
            ("5/5/5/5/5 x place X:13,O:13 - x -,- q", Field::Quiet),
            ("5/5/5/5/5 o place X:13,O:13 - x -,- 0", Field::ToMove),
            ("5/5/5/5/5 x move X:13,O:13 - x -,- 0", Field::Hands),
        ];
        for (text, field) in cases {
            let err = text.parse::<FiveTigers>().unwrap_err();
            assert_eq!(err.field(), Some(field), "{text}: {err}");
            assert!(err.to_string().starts_with(field.name()), "{err}");
        }
        let err = "5/5/5/5/4Z x place X:13,O:13 - x -,- 0"
            .parse::<FiveTigers>()
            .unwrap_err();
        assert_eq!(
            err,
            PositionTextError::BadChar {
                field: Field::Board,
                ch: 'Z'
            }
        );
        assert_eq!(
            "5/5/5/5/5 x place".parse::<FiveTigers>(),
            Err(PositionTextError::FieldCount(3))
        );
    }
}
