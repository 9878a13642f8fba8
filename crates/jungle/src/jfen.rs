//! JFEN, the position text of spec section 7.

use qi_core::Side;
use thiserror::Error;

use crate::board::{Piece, Square, DEN_SQUARES, NONE};
use crate::position::Jungle;
use crate::rules::Rules;

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
    #[error("unknown piece letter '{letter}' at rank {rank}")]
    UnknownPiece {
        /// The character.
        letter: char,
        /// The rank (1..9).
        rank: u8,
    },
    /// A digit that is not 1–7 (empty runs are 1 to 7 squares).
    #[error("bad empty-square count '{digit}' at rank {rank} (expected 1-7)")]
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
    #[error("missing side to move after the board (expected 'w', 'b' or 'r')")]
    MissingSide,
    /// The side-to-move field is not `w`, `b` or `r`.
    #[error("bad side field \"{0}\" (expected 'w' or 'r' for Red, 'b' for Blue)")]
    BadSide(String),
    /// A counter is not a number in range.
    #[error("bad {field} counter \"{text}\"")]
    BadCounter {
        /// `no-capture` or `full-move`.
        field: &'static str,
        /// The text given.
        text: String,
    },
    /// More than four whitespace-separated fields.
    #[error("unexpected extra field \"{0}\" after the full-move number")]
    ExtraField(String),
}

/// Reads JFEN under `rules`.
pub(crate) fn parse(text: &str, rules: Rules) -> Result<Jungle, JfenError> {
    let mut fields = text.split_whitespace();
    let board = fields.next().ok_or(JfenError::Empty)?;
    let ranks: Vec<&str> = board.split('/').collect();
    if ranks.len() != 9 {
        return Err(JfenError::RankCount(ranks.len()));
    }
    let mut squares = [[NONE; 8]; 2];
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
                    let sq = rank * 7 + file as u8;
                    let slot = &mut squares[piece.side.index()][piece.animal.index()];
                    if *slot != NONE {
                        return Err(JfenError::DuplicatePiece(piece));
                    }
                    *slot = sq;
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
    for side in Side::BOTH {
        for (a, &sq) in squares[side.index()].iter().enumerate() {
            if sq == NONE {
                continue;
            }
            let piece = Piece::new(side, crate::board::Animal::ALL[a]);
            let square = Square::from_index_unchecked(sq); // sq < 63 here
            if square.is_water() && a != 0 {
                return Err(JfenError::AnimalInWater { piece, square });
            }
            if sq == DEN_SQUARES[side.index()] {
                return Err(JfenError::OwnDen { piece, square });
            }
        }
    }
    let in_den = |side: Side| squares[side.index()].contains(&DEN_SQUARES[side.opponent().index()]);
    if in_den(Side::First) && in_den(Side::Second) {
        return Err(JfenError::BothDensEntered);
    }
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
    if let Some(extra) = fields.next() {
        return Err(JfenError::ExtraField(extra.to_string()));
    }
    Ok(Jungle::from_parts(
        squares, side, no_capture, fullmove, rules,
    ))
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
