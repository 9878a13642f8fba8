//! JFEN, the position text of spec section 7.

use std::fmt;

use qi_core::{Escaped, EscapedChar, Side};
use thiserror::Error;

use crate::board::{Piece, Square};
use crate::position::Jungle;
use crate::rules::Rules;
use crate::setup::{ImpossiblePosition, Setup, SetupError};

/// Why JFEN text could not be read. Ranks are named as on the board
/// (`rank 9` is the first `/`-separated field).
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum JfenError {
    /// The text is empty or blank.
    #[error("empty JFEN")]
    Empty,
    /// The board field does not have 9 ranks.
    #[error("the board has {0} ranks separated by '/', expected 9")]
    RankCount(usize),
    /// A rank does not describe exactly 7 squares.
    #[error("rank {rank} has {squares} squares, expected 7")]
    RankWidth {
        /// The rank (1..9).
        rank: u8,
        /// How many squares it describes (counted up to the first excess).
        squares: usize,
    },
    /// A character of the board is neither a piece letter nor a digit 1-7.
    #[error("unknown piece letter '{}' at rank {rank}", EscapedChar(*.letter))]
    UnknownPiece {
        /// The character.
        letter: char,
        /// The rank (1..9).
        rank: u8,
    },
    /// A digit that is not 1–7 (empty runs are 1 to 7 squares).
    #[error("bad empty-square count '{}' at rank {rank} (expected 1-7)", EscapedChar(*.digit))]
    BadDigit {
        /// The digit.
        digit: char,
        /// The rank (1..9).
        rank: u8,
    },
    /// The same animal of the same side appears twice.
    #[error("two {0}s on the board")]
    DuplicatePiece(Piece),
    /// An animal other than the Rat stands in water.
    #[error("{piece} in water at {square}: only the Rat may be in water")]
    AnimalInWater {
        /// The piece.
        piece: Piece,
        /// Its square.
        square: Square,
    },
    /// An animal stands on its own den.
    #[error("{piece} on its own den {square}")]
    OwnDen {
        /// The piece.
        piece: Piece,
        /// Its square.
        square: Square,
    },
    /// Both dens are occupied by enemy animals (the game cannot have gone on).
    #[error("both sides have an animal in the enemy den")]
    BothDensEntered,
    /// The side-to-move field is missing.
    #[error("missing side to move after the board (expected 'w' or 'r' for Red, 'b' for Blue)")]
    MissingSide,
    /// The side-to-move field is not `w`, `b` or `r`.
    #[error("bad side to move '{}' (expected 'w' or 'r' for Red, 'b' for Blue)", Escaped(.0))]
    BadSide(String),
    /// A counter is not a number in range.
    #[error("bad {field} counter '{}' (expected {})", Escaped(.text), counter_range(.field))]
    BadCounter {
        /// `no-capture` or `full-move`.
        field: &'static str,
        /// The text given.
        text: String,
    },
    /// A field after the full-move number that is not rules text, or a
    /// field after the rules.
    #[error("unexpected extra field '{}' after the full-move number", Escaped(.0))]
    ExtraField(String),
    /// The text names rules other than those it is read under (by
    /// [`Jungle::from_text`] and [`Jungle::from_text_lenient`]).
    #[error(
        "the position text is under the rules {text}, not the rules it is read under ({given})"
    )]
    RulesMismatch {
        /// The rules the text names.
        text: Rules,
        /// The rules it was read under.
        given: Rules,
    },
    /// The text is well formed but no game reaches the position (only
    /// [`Jungle::from_text_lenient`] reads it).
    #[error(transparent)]
    Impossible(#[from] ImpossiblePosition),
}

/// What a counter field accepts, for its error message.
fn counter_range(field: &str) -> &'static str {
    if field == "full-move" {
        "a number from 1 to 4294967295"
    } else {
        "a number from 0 to 4294967295"
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
    let mut setup = read_board(board)?;
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
        Jungle::from_setup(setup, &rules)
    } else {
        Jungle::from_setup_lenient(setup, &rules)
    };
    position.map_err(setup_error)
}

/// Reads the board field into an otherwise empty setup.
fn read_board(board: &str) -> Result<Setup, JfenError> {
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
                    if seen & 1 << piece.index() != 0 {
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

/// The JFEN error of a setup that does not validate: JFEN's own variants,
/// which name no square for a duplicate.
fn setup_error(error: SetupError) -> JfenError {
    match error {
        SetupError::DuplicatePiece { piece, .. } => JfenError::DuplicatePiece(piece),
        SetupError::AnimalInWater { piece, square } => JfenError::AnimalInWater { piece, square },
        SetupError::OwnDen { piece, square } => JfenError::OwnDen { piece, square },
        SetupError::BothDensEntered => JfenError::BothDensEntered,
        SetupError::ZeroFullmove => JfenError::BadCounter {
            field: "full-move",
            text: "0".to_string(),
        },
        SetupError::Impossible(why) => JfenError::Impossible(why),
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
