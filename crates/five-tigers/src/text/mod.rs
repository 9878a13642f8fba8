//! Position text (section 9): writing and reading, with errors that name
//! the field and the character.

use std::fmt;

use qi_core::Side;

use crate::point::Point;
use crate::position::{Check, FiveTigers};
use crate::rules::Rules;
use crate::setup::{side_char, Field, LastStep, Owed, Phase, Setup};

mod error;

pub use error::{FieldError, PositionTextError};

impl FiveTigers {
    /// Reads position text (`docs/five-tigers.md`, "Notation") under
    /// `rules`: the fields must agree with each other and some game from
    /// the start position must be able to reach the position (see
    /// [`SetupError`](crate::SetupError)).
    ///
    /// ```
    /// use qi_core::{Position as _, Side};
    /// use qi_five_tigers::{FiveTigers, Rules};
    ///
    /// let pos = FiveTigers::from_text("5/5/2O2/5/X4 o move X:0,O:0 - o -,- 0", Rules::shandong()).unwrap();
    /// assert_eq!(pos.side_to_move(), Side::Second);
    /// // A full board in the movement phase owes the opening removals.
    /// let full = "XXXXX/XXXXX/XXOOO/OOOOO/OOOOO x move X:0,O:0 - x -,- 0";
    /// assert!(FiveTigers::from_text(full, Rules::shandong()).is_err());
    /// ```
    pub fn from_text(text: &str, rules: Rules) -> Result<FiveTigers, PositionTextError> {
        crate::text::parse(text, RulesFrom::Given(&rules), Check::Reachable)
    }

    /// Reads position text under `rules` as [`FiveTigers::from_text`] does,
    /// but accepts positions no game can reach, as long as the fields
    /// agree with each other as the rules need them to (the
    /// [`SetupError`](crate::SetupError) variants up to `WrongSideToMove`): for puzzles and
    /// the analysis of hypothetical positions. The text is read just as
    /// strictly.
    ///
    /// ```
    /// use qi_five_tigers::{FiveTigers, Rules};
    ///
    /// // A full board in the movement phase with nothing owed: the opening
    /// // removals would have followed placement.
    /// let text = "XXXXX/XXXXX/XXOOO/OOOOO/OOOOO o move X:0,O:0 - o -,- 0";
    /// assert!(FiveTigers::from_text(text, Rules::shandong()).is_err());
    /// let pos = FiveTigers::from_text_lenient(text, Rules::shandong()).unwrap();
    /// assert_eq!(pos.to_string(), text);
    /// ```
    pub fn from_text_lenient(text: &str, rules: Rules) -> Result<FiveTigers, PositionTextError> {
        crate::text::parse(text, RulesFrom::Given(&rules), Check::Consistent)
    }
}

/// Position text under the rules it names after the quiet-ply count, or
/// the Shandong rules if it names none (the text `Display` writes).
///
/// ```
/// use qi_five_tigers::{FiveTigers, Rules};
///
/// let text = "5/5/2O2/5/X4 o move X:0,O:0 - o -,- 0";
/// assert_eq!(text.parse::<FiveTigers>()?, FiveTigers::from_text(text, Rules::shandong())?);
/// let shuttle: FiveTigers = format!("{text} five-tigers:shandong-shuttle").parse()?;
/// assert_eq!(shuttle, FiveTigers::from_text(text, Rules::shandong_shuttle())?);
/// # Ok::<(), qi_five_tigers::PositionTextError>(())
/// ```
impl std::str::FromStr for FiveTigers {
    type Err = PositionTextError;
    fn from_str(s: &str) -> Result<FiveTigers, PositionTextError> {
        crate::text::parse(s, RulesFrom::Text, Check::Reachable)
    }
}

fn invalid(field: Field, reason: FieldError) -> PositionTextError {
    PositionTextError::Invalid { field, reason }
}

fn bad_char(field: Field, ch: char) -> PositionTextError {
    PositionTextError::BadChar { field, ch }
}

/// The position text of the setup, written as is (valid or not).
impl fmt::Display for Setup {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for rank in (0..5u8).rev() {
            let mut run = 0;
            for file in 0..5u8 {
                let c = match self.board[usize::from(rank * 5 + file)] {
                    Some(Side::First) => 'X',
                    Some(Side::Second) => 'O',
                    None => {
                        run += 1;
                        continue;
                    }
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
            Some(l) => l.to_string(),
        };
        write!(
            f,
            " {} {} X:{},O:{} {} {} {},{} {}",
            side_char(self.side_to_move),
            self.phase,
            self.hands[0],
            self.hands[1],
            self.owed,
            side_char(self.next),
            last(self.last_steps[0]),
            last(self.last_steps[1]),
            self.no_capture_plies
        )
    }
}

/// The position text, then the rules (their `Display`) when they are not
/// the Shandong rules, so that the text names the position whole:
/// [`FromStr`](std::str::FromStr) reads it back to an equal position.
///
/// ```
/// use qi_five_tigers::{FiveTigers, Rules};
///
/// let start = "5/5/5/5/5 x place X:13,O:13 - x -,- 0";
/// assert_eq!(FiveTigers::new(Rules::shandong()).to_string(), start);
/// let ten = FiveTigers::new(Rules::ten());
/// assert_eq!(ten.to_string(), "5/5/5/5/5 x place X:10,O:10 - x -,- 0 five-tigers:ten");
/// assert_eq!(ten.to_string().parse::<FiveTigers>(), Ok(ten));
/// ```
impl fmt::Display for FiveTigers {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(&self.to_setup(), f)?;
        if self.rules() != &Rules::default() {
            write!(f, " {}", self.rules())?;
        }
        Ok(())
    }
}

/// `-` or the entries, e.g. `x2,o3`.
impl fmt::Display for Owed {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.is_empty() {
            return f.write_str("-");
        }
        for (i, (side, n)) in self.iter().enumerate() {
            if i > 0 {
                f.write_str(",")?;
            }
            write!(f, "{}{n}", side_char(side))?;
        }
        Ok(())
    }
}

fn parse_board(text: &str) -> Result<[Option<Side>; 25], PositionTextError> {
    let ranks: Vec<&str> = text.split('/').collect();
    if ranks.len() != 5 {
        return Err(invalid(Field::Board, FieldError::RankCount(ranks.len())));
    }
    let mut board = [None; 25];
    for (i, rank_text) in ranks.iter().enumerate() {
        let rank = 4 - i as u8;
        let mut file = 0u8;
        let mut after_digit = false;
        for ch in rank_text.chars() {
            let (n, side) = match ch {
                'X' => (1, Some(Side::First)),
                'O' => (1, Some(Side::Second)),
                '1'..='5' => (ch as u8 - b'0', None),
                _ => return Err(bad_char(Field::Board, ch)),
            };
            // A run of empty points is one digit: `23` or `11` is not
            // how the text writes a rank, and is refused, not rewritten.
            if side.is_none() && after_digit {
                return Err(invalid(
                    Field::Board,
                    FieldError::DigitsInARow { rank: rank + 1 },
                ));
            }
            after_digit = side.is_none();
            if file + n > 5 {
                return Err(invalid(
                    Field::Board,
                    FieldError::RankTooLong { rank: rank + 1 },
                ));
            }
            if side.is_some() {
                board[usize::from(rank * 5 + file)] = side;
            }
            file += n;
        }
        if file != 5 {
            return Err(invalid(
                Field::Board,
                FieldError::RankWidth {
                    rank: rank + 1,
                    points: file,
                },
            ));
        }
    }
    Ok(board)
}

fn parse_side(text: &str, field: Field) -> Result<Side, PositionTextError> {
    let mut chars = text.chars();
    let side = match chars.next() {
        Some('x') => Side::First,
        Some('o') => Side::Second,
        Some(c) => return Err(bad_char(field, c)),
        None => return Err(invalid(field, FieldError::Empty)),
    };
    match chars.next() {
        Some(c) => Err(bad_char(field, c)),
        None => Ok(side),
    }
}

fn parse_number(text: &str, field: Field, max: u32) -> Result<u32, PositionTextError> {
    if text.is_empty() {
        return Err(invalid(field, FieldError::MissingNumber));
    }
    if let Some(c) = text.chars().find(|c| !c.is_ascii_digit()) {
        return Err(bad_char(field, c));
    }
    if text.len() > 1 && text.starts_with('0') {
        return Err(invalid(field, FieldError::LeadingZero(text.to_string())));
    }
    match text.parse::<u32>() {
        Ok(n) if n <= max => Ok(n),
        _ => Err(invalid(
            field,
            FieldError::TooLarge {
                text: text.to_string(),
                max,
            },
        )),
    }
}

fn parse_hands(text: &str, max: u8) -> Result<[u8; 2], PositionTextError> {
    let (x, o) = text
        .split_once(',')
        .ok_or_else(|| invalid(Field::Hands, FieldError::HandsForm))?;
    let x = x
        .strip_prefix("X:")
        .ok_or_else(|| invalid(Field::Hands, FieldError::HandsFirst))?;
    let o = o
        .strip_prefix("O:")
        .ok_or_else(|| invalid(Field::Hands, FieldError::HandsSecond))?;
    Ok([
        parse_hand(x, Side::First, max)?,
        parse_hand(o, Side::Second, max)?,
    ])
}

/// A hand: a hand beyond 255 is refused in the words the setup uses for a
/// hand beyond `pieces_per_side`.
fn parse_hand(text: &str, side: Side, max: u8) -> Result<u8, PositionTextError> {
    let plain = !text.is_empty()
        && text.bytes().all(|b| b.is_ascii_digit())
        && !(text.len() > 1 && text.starts_with('0'));
    match parse_number(text, Field::Hands, 255) {
        Err(PositionTextError::Invalid { .. }) if plain => Err(invalid(
            Field::Hands,
            FieldError::HandTooLarge {
                side,
                hand: text.to_string(),
                max,
            },
        )),
        read => read.map(|n| n as u8),
    }
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
            None => return Err(invalid(Field::Owed, FieldError::EmptyEntry)),
        };
        let n = parse_number(chars.as_str(), Field::Owed, 255)?;
        if n == 0 {
            return Err(invalid(Field::Owed, FieldError::ZeroEntry));
        }
        if entries.len() == 2 {
            return Err(invalid(Field::Owed, FieldError::TooManyEntries));
        }
        if entries.last().is_some_and(|&(s, _)| s == side) {
            return Err(invalid(Field::Owed, FieldError::EntriesInARow));
        }
        entries.push((side, n as u8));
    }
    Owed::from_entries(&entries).ok_or_else(|| invalid(Field::Owed, FieldError::BadEntries))
}

fn parse_last(text: &str) -> Result<Option<LastStep>, PositionTextError> {
    if text == "-" {
        return Ok(None);
    }
    let (a, b) = text
        .split_once('-')
        .ok_or_else(|| invalid(Field::LastSteps, FieldError::NotAStep(text.to_string())))?;
    let point = |s: &str| {
        s.parse::<Point>().map_err(|error| {
            let text = s.to_string();
            invalid(Field::LastSteps, FieldError::BadPoint { text, error })
        })
    };
    let (from, to) = (point(a)?, point(b)?);
    if !from.is_adjacent(to) {
        return Err(invalid(
            Field::LastSteps,
            FieldError::NotAdjacent { from, to },
        ));
    }
    Ok(Some(LastStep { from, to }))
}

/// Reads position text under `rules` into a [`Setup`], which is then
/// validated into the position as `check` says: the fields must agree with
/// each other as they do in every position the state machine produces,
/// and with [`Check::Reachable`] some game must reach the position.
/// Which rules a text is read under.
#[derive(Clone, Copy)]
pub(crate) enum RulesFrom<'a> {
    /// These rules; the text may name them, but no others.
    Given(&'a Rules),
    /// The rules the text names, or the Shandong rules if it names none.
    Text,
}

pub(crate) fn parse(
    text: &str,
    from: RulesFrom,
    check: Check,
) -> Result<FiveTigers, PositionTextError> {
    if let RulesFrom::Given(rules) = from {
        rules.validate()?;
    }
    let fields: Vec<&str> = text.split_ascii_whitespace().collect();
    // A ninth field names the rules; text that is no rules is refused as
    // a ninth field was before the text could name its rules.
    let named = match fields.get(8) {
        Some(t) if fields.len() == 9 => Some(
            t.parse::<Rules>()
                .map_err(|_| PositionTextError::FieldCount(9))?,
        ),
        _ if fields.len() != 8 => return Err(PositionTextError::FieldCount(fields.len())),
        _ => None,
    };
    let rules = match (from, named) {
        (RulesFrom::Given(given), Some(text)) if text != *given => {
            return Err(PositionTextError::RulesMismatch {
                text,
                given: *given,
            })
        }
        (RulesFrom::Given(given), _) => *given,
        (RulesFrom::Text, named) => named.unwrap_or_default(),
    };
    let setup = read_setup(&fields[..8], rules.pieces_per_side)?;
    Ok(FiveTigers::from_setup_checked(setup, &rules, check)?)
}

/// Reads the eight fields of position text into a setup (not validated);
/// `max_hand` is the largest hand the error of a hand beyond 255 names.
fn read_setup(fields: &[&str], max_hand: u8) -> Result<Setup, PositionTextError> {
    let board = parse_board(fields[0])?;
    let side_to_move = parse_side(fields[1], Field::ToMove)?;
    let phase = match fields[2].parse::<Phase>() {
        Ok(phase) => phase,
        Err(_) => {
            let other = fields[2];
            return Err(match other.chars().find(|c| !c.is_ascii_lowercase()) {
                Some(c) => bad_char(Field::Phase, c),
                None => invalid(Field::Phase, FieldError::BadPhase(other.to_string())),
            });
        }
    };
    let hands = parse_hands(fields[3], max_hand)?;
    let owed = parse_owed(fields[4])?;
    let next = parse_side(fields[5], Field::Next)?;
    let (lx, lo) = fields[6]
        .split_once(',')
        .ok_or_else(|| invalid(Field::LastSteps, FieldError::StepsForm))?;
    let last_steps = [parse_last(lx)?, parse_last(lo)?];
    let no_capture_plies = parse_number(fields[7], Field::Quiet, u16::MAX as u32)? as u16;
    Ok(Setup {
        board,
        hands,
        phase,
        side_to_move,
        next,
        owed,
        last_steps,
        no_capture_plies,
    })
}

/// Reads what `Display` writes: the eight fields of position text, not
/// validated (a setup holds any contents; [`Setup::into_position`] checks
/// them). A setup has no rules, so text that names rules is refused.
///
/// ```
/// use qi_games::five_tigers::{Rules, Setup};
///
/// let text = "5/5/2O2/5/X4 o move X:0,O:0 - o -,- 0";
/// let setup: Setup = text.parse()?;
/// assert_eq!(setup.to_string(), text);
/// assert_eq!(setup.into_position(Rules::shandong())?.to_string(), text);
/// assert_eq!("5/5/5/5/5 x place X:13,O:13 - x -,- 0".parse::<Setup>()?, Setup::start(Rules::shandong()));
/// assert!(format!("{text} five-tigers:ten").parse::<Setup>().is_err());
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
impl std::str::FromStr for Setup {
    type Err = PositionTextError;
    fn from_str(text: &str) -> Result<Setup, PositionTextError> {
        let fields: Vec<&str> = text.split_ascii_whitespace().collect();
        if fields.len() != 8 {
            return Err(PositionTextError::FieldCount(fields.len()));
        }
        read_setup(&fields, u8::MAX)
    }
}

/// Reads what `Display` writes: `-` or one or two entries such as `x2,o3`
/// (errors name the field [`Field::Owed`]).
///
/// ```
/// use qi_games::prelude::*;
/// use qi_games::five_tigers::Owed;
///
/// let owed: Owed = "x2,o3".parse()?;
/// assert_eq!(owed, Owed::from_entries(&[(Side::First, 2), (Side::Second, 3)]).unwrap());
/// assert_eq!(owed.to_string(), "x2,o3");
/// assert_eq!(format!("{owed:?}"), "Owed(x2,o3)");
/// assert_eq!("-".parse::<Owed>()?, Owed::NONE);
/// assert!("x0".parse::<Owed>().is_err());
/// # Ok::<(), qi_games::five_tigers::PositionTextError>(())
/// ```
impl std::str::FromStr for Owed {
    type Err = PositionTextError;
    fn from_str(text: &str) -> Result<Owed, PositionTextError> {
        parse_owed(text)
    }
}

impl fmt::Debug for Owed {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Owed({self})")
    }
}

/// The step as position text writes it: `c3-c4`.
impl fmt::Display for LastStep {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}-{}", self.from, self.to)
    }
}

/// `LastStep(c3-c4)`.
impl fmt::Debug for LastStep {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "LastStep({self})")
    }
}

/// Reads what `Display` writes: two adjacent points, `c3-c4` (errors name
/// the field [`Field::LastSteps`]).
///
/// ```
/// use qi_games::five_tigers::LastStep;
///
/// let step: LastStep = "c3-c4".parse()?;
/// assert_eq!((step.from.to_string(), step.to.to_string()), ("c3".into(), "c4".into()));
/// assert_eq!(step.to_string(), "c3-c4");
/// assert_eq!(format!("{step:?}"), "LastStep(c3-c4)");
/// assert!("c3-c5".parse::<LastStep>().is_err()); // not adjacent
/// assert!("-".parse::<LastStep>().is_err());
/// # Ok::<(), qi_games::five_tigers::PositionTextError>(())
/// ```
impl std::str::FromStr for LastStep {
    type Err = PositionTextError;
    fn from_str(text: &str) -> Result<LastStep, PositionTextError> {
        parse_last(text)?.ok_or_else(|| invalid(Field::LastSteps, FieldError::NoStep))
    }
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
