//! JFEN, the position text of spec section 7.

use std::fmt;
use std::str::FromStr;

use qi_core::Side;

use crate::board::{Piece, Square};
use crate::position::Jungle;
use crate::rules::Rules;
#[cfg(doc)]
use crate::setup::ImpossiblePosition;
use crate::setup::{Setup, SetupError};

mod error;

pub use error::JfenError;

impl Jungle {
    /// Reads JFEN text (`docs/jungle.md`, "Notation") under `rules`.
    /// Text that names its rules after the counters (as `Display` writes
    /// them when they are not the standard rules) must name these
    /// ([`JfenError::RulesMismatch`]). A position no game can reach is
    /// refused ([`JfenError::Impossible`]); [`Jungle::from_text_lenient`]
    /// reads it.
    ///
    /// ```
    /// use qi_jungle::{Jungle, Rules};
    ///
    /// let pos = Jungle::from_text("7/3L3/7/7/7/7/7/7/6l w 0 1", Rules::standard()).unwrap();
    /// assert_eq!(pos.animal_count(qi_core::Side::First), 1);
    /// let err = Jungle::from_text("7/3L3/7/7/7/7/7/7/6x w 0 1", Rules::standard()).unwrap_err();
    /// assert!(err.to_string().contains("'x'"));
    /// ```
    pub fn from_text(text: &str, rules: Rules) -> Result<Jungle, JfenError> {
        parse(text, RulesFrom::Given(&rules), true)
    }

    /// Reads JFEN text like [`Jungle::from_text`], but also accepts
    /// positions no game can reach (see [`ImpossiblePosition`]), for
    /// puzzles and analysis; the text must still be well formed and the
    /// board one the generator handles (see
    /// [`Setup::into_position_lenient`]).
    ///
    /// ```
    /// use qi_jungle::{Jungle, Rules};
    ///
    /// // Red to move, but a Red Dog already stands in the Blue den.
    /// let text = "3D3/7/7/7/7/7/7/7/6c w 0 1";
    /// assert!(Jungle::from_text(text, Rules::standard()).is_err());
    /// assert!(Jungle::from_text_lenient(text, Rules::standard()).is_ok());
    /// ```
    pub fn from_text_lenient(text: &str, rules: Rules) -> Result<Jungle, JfenError> {
        parse(text, RulesFrom::Given(&rules), false)
    }
}

/// JFEN under the rules it names after the counters, or the standard rules
/// if it names none (the text `Display` writes).
///
/// ```
/// use qi_jungle::{Jungle, Rules};
///
/// let text = "7/3L3/7/7/7/7/7/7/6l w 0 1";
/// assert_eq!(text.parse::<Jungle>()?, Jungle::from_text(text, Rules::standard())?);
/// let yeshou: Jungle = format!("{text} yeshou").parse()?;
/// assert_eq!(yeshou, Jungle::from_text(text, Rules::yeshou())?);
/// assert_eq!(yeshou.to_string(), format!("{text} yeshou"));
/// # Ok::<(), qi_jungle::JfenError>(())
/// ```
impl FromStr for Jungle {
    type Err = JfenError;
    fn from_str(s: &str) -> Result<Jungle, JfenError> {
        parse(s, RulesFrom::Text, true)
    }
}

/// Which rules a text is read under.
#[derive(Clone, Copy)]
pub(crate) enum RulesFrom<'a> {
    /// These rules; the text may name them, but no others.
    Given(&'a Rules),
    /// The rules the text names, or the standard rules if it names none.
    Text,
}

/// Reads JFEN: the text is read into a [`Setup`], which is then validated
/// into the position under the rules `from` says (refusing positions no
/// game reaches when `reachable` says so).
pub(crate) fn parse(text: &str, from: RulesFrom, reachable: bool) -> Result<Jungle, JfenError> {
    let mut fields = text.split_whitespace();
    let board = fields.next().ok_or(JfenError::Empty)?;
    let mut setup = read_board(board, true)?;
    // Errors are reported in reading order, so the board is validated
    // before an error in the fields after it is returned.
    let rest = read_side_and_counters(fields);
    if let Ok((side, no_capture, fullmove, _)) = rest {
        setup = setup
            .side_to_move(side)
            .no_capture_plies(no_capture)
            .fullmove(fullmove);
    }
    // The well-formedness checks of the setup, then the rest of the text,
    // and only then whether a game reaches the position (which needs the
    // counters).
    setup.validate_board(reachable).map_err(setup_error)?;
    let named = rest?.3;
    let rules = match (from, named) {
        (RulesFrom::Given(given), Some(text)) if text != *given => {
            return Err(JfenError::RulesMismatch {
                text,
                given: *given,
            })
        }
        (RulesFrom::Given(given), _) => *given,
        (RulesFrom::Text, named) => named.unwrap_or_default(),
    };
    let position = if reachable {
        Jungle::from_setup(setup, rules)
    } else {
        Jungle::from_setup_lenient(setup, rules)
    };
    position.map_err(setup_error)
}

/// Reads the board field into an otherwise empty setup; with
/// `duplicates_refused`, an animal twice is an error.
fn read_board(board: &str, duplicates_refused: bool) -> Result<Setup, JfenError> {
    let ranks: Vec<&str> = board.split('/').collect();
    if ranks.len() != 9 {
        return Err(JfenError::RankCount(ranks.len()));
    }
    let mut setup = Setup::empty();
    // A duplicate is reported where it is read, before any error later in
    // the text, so it is caught here and not left to the validation.
    let mut seen = 0u16;
    for (i, rank_text) in ranks.iter().enumerate() {
        let rank = 8 - i as u8; // 0-based
        let label = rank + 1;
        let mut file = 0usize;
        for ch in rank_text.chars() {
            if let Some(d) = ch.to_digit(10) {
                if !(1..=7).contains(&d) {
                    return Err(JfenError::BadDigit {
                        digit: ch,
                        rank: label,
                    });
                }
                file += d as usize;
            } else {
                let piece = Piece::from_letter(ch).ok_or(JfenError::UnknownPiece {
                    letter: ch,
                    rank: label,
                })?;
                if file < 7 {
                    if duplicates_refused && seen & 1 << piece.index() != 0 {
                        return Err(JfenError::DuplicatePiece(piece));
                    }
                    seen |= 1 << piece.index();
                    let square = Square::from_index_unchecked(rank * 7 + file as u8);
                    setup = setup.place(square, piece);
                }
                file += 1;
            }
            if file > 7 {
                return Err(JfenError::RankWidth {
                    rank: label,
                    squares: file,
                });
            }
        }
        if file != 7 {
            return Err(JfenError::RankWidth {
                rank: label,
                squares: file,
            });
        }
    }
    Ok(setup)
}

/// Reads the fields after the board: the side to move, the optional
/// counters and, after both counters, the optional rules.
fn read_side_and_counters<'a>(
    mut fields: impl Iterator<Item = &'a str>,
) -> Result<(Side, u32, u32, Option<Rules>), JfenError> {
    let side = match fields.next() {
        None => return Err(JfenError::MissingSide),
        Some("w") | Some("r") | Some("W") | Some("R") => Side::First,
        Some("b") | Some("B") => Side::Second,
        Some(other) => return Err(JfenError::BadSide(other.to_string())),
    };
    let no_capture = match fields.next() {
        None => 0,
        Some(t) => parse_counter(t, "no-capture")?,
    };
    let fullmove = match fields.next() {
        None => 1,
        Some(t) => match parse_counter(t, "full-move")? {
            0 => {
                return Err(JfenError::BadCounter {
                    field: "full-move",
                    text: t.to_string(),
                })
            }
            n => n,
        },
    };
    // Text that is no rules is refused as an extra field, as it was before
    // the text could name its rules.
    let rules = match fields.next() {
        None => None,
        Some(t) => Some(
            t.parse::<Rules>()
                .map_err(|_| JfenError::ExtraField(t.to_string()))?,
        ),
    };
    if let Some(extra) = fields.next() {
        return Err(JfenError::ExtraField(extra.to_string()));
    }
    Ok((side, no_capture, fullmove, rules))
}

/// The JFEN error of a setup that does not validate: JFEN's own variants
/// where it has them (a duplicate named without squares, as the reader
/// finds it; the full-move counter; an impossible position), the setup's
/// error otherwise.
fn setup_error(error: SetupError) -> JfenError {
    match error {
        SetupError::DuplicatePiece { piece, .. } => JfenError::DuplicatePiece(piece),
        SetupError::ZeroFullmove => JfenError::BadCounter {
            field: "full-move",
            text: "0".to_string(),
        },
        SetupError::Impossible(why) => JfenError::Impossible(why),
        board @ (SetupError::AnimalInWater { .. }
        | SetupError::OwnDen { .. }
        | SetupError::BothDensEntered) => JfenError::Setup(board),
    }
}

fn parse_counter(text: &str, field: &'static str) -> Result<u32, JfenError> {
    if !text.bytes().all(|b| b.is_ascii_digit()) {
        return Err(JfenError::BadCounter {
            field,
            text: text.to_string(),
        });
    }
    text.parse().map_err(|_| JfenError::BadCounter {
        field,
        text: text.to_string(),
    })
}

/// JFEN, with both counters (written as is, valid or not).
impl fmt::Display for Setup {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for rank in (0..9).rev() {
            let mut empty = 0;
            for file in 0..7 {
                match self.board[rank * 7 + file] {
                    Some(p) => {
                        if empty > 0 {
                            write!(f, "{empty}")?;
                            empty = 0;
                        }
                        write!(f, "{}", p.letter())?;
                    }
                    None => empty += 1,
                }
            }
            if empty > 0 {
                write!(f, "{empty}")?;
            }
            if rank > 0 {
                f.write_str("/")?;
            }
        }
        let side = match self.side_to_move {
            Side::First => 'w',
            Side::Second => 'b',
        };
        write!(f, " {side} {} {}", self.no_capture_plies, self.fullmove)
    }
}

/// Reads what `Display` writes: the board, the side to move and the
/// counters of JFEN (missing counters read as `0 1`), not validated (a
/// setup holds any contents; [`Setup::into_position`] checks them). A
/// setup has no rules, so text that names rules is refused.
///
/// ```
/// use qi_games::jungle::{Setup, START_JFEN};
///
/// let setup: Setup = START_JFEN.parse()?;
/// assert_eq!(setup, Setup::start());
/// assert_eq!(setup.to_string().parse::<Setup>()?, setup);
/// // Two Red Lions: a setup, but no position.
/// let lions: Setup = "7/7/7/7/7/7/7/7/LL5 w 0 1".parse()?;
/// assert!(lions.into_position(qi_games::jungle::Rules::standard()).is_err());
/// assert!(format!("{START_JFEN} datou").parse::<Setup>().is_err());
/// # Ok::<(), qi_games::jungle::JfenError>(())
/// ```
impl FromStr for Setup {
    type Err = JfenError;
    fn from_str(text: &str) -> Result<Setup, JfenError> {
        let mut fields = text.split_whitespace();
        let board = fields.next().ok_or(JfenError::Empty)?;
        let setup = read_board(board, false)?;
        let (side, no_capture, fullmove, rules) = read_side_and_counters(fields.clone())?;
        if rules.is_some() {
            let extra = fields.nth(3).unwrap_or_default();
            return Err(JfenError::ExtraField(extra.to_string()));
        }
        Ok(setup
            .side_to_move(side)
            .no_capture_plies(no_capture)
            .fullmove(fullmove))
    }
}

/// JFEN, always with both counters, then the rules (their `Display`) when
/// they are not the standard rules, so that the text names the position
/// whole: [`FromStr`](std::str::FromStr) reads it back to an equal
/// position.
///
/// ```
/// use qi_jungle::{Jungle, Rules};
///
/// assert_eq!(Jungle::new(Rules::standard()).to_string(), qi_jungle::START_JFEN);
/// let datou = Jungle::new(Rules::datou());
/// assert_eq!(datou.to_string(), format!("{} datou", qi_jungle::START_JFEN));
/// assert_eq!(datou.to_string().parse::<Jungle>(), Ok(datou));
/// ```
impl fmt::Display for Jungle {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(&self.to_setup(), f)?;
        if self.rules() != &Rules::standard() {
            write!(f, " {}", self.rules())?;
        }
        Ok(())
    }
}
