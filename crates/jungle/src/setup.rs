//! [`Setup`]: the plain contents of a position, to build custom positions
//! and to stand between the JFEN text and [`Jungle`](crate::Jungle).

use std::fmt;

use qi_core::Side;
use thiserror::Error;

use crate::board::{side_name, Animal, Piece, Square, DEN_SQUARES, NONE};

/// The plain contents of a Jungle position (which animal stands on which
/// square, the side to move and the two counters of JFEN), free to be set
/// to anything and checked only when it becomes a [`Jungle`](crate::Jungle).
///
/// Build one from [`Setup::empty`] or [`Setup::start`] with the chaining
/// methods (or by writing the public fields), then validate it with
/// [`Setup::into_position`] (the same as [`Jungle::from_setup`](crate::Jungle::from_setup)), which
/// also refuses positions no game can reach ([`ImpossiblePosition`]), or
/// with [`Setup::into_position_lenient`], which accepts those for puzzles
/// and analysis. Its `Display` is JFEN, written as is (even when the setup
/// is not valid).
///
/// ```
/// use qi_core::Side;
/// use qi_jungle::{Animal, Jungle, Piece, Rules, Setup};
///
/// let sq = |t: &str| t.parse().unwrap();
/// let pos = Setup::empty()
///     .place(sq("a1"), Piece::new(Side::First, Animal::Lion))
///     .place(sq("g9"), Piece::new(Side::Second, Animal::Rat))
///     .side_to_move(Side::Second)
///     .into_position(Rules::standard())
///     .unwrap();
/// assert_eq!(pos, Jungle::from_text("6r/7/7/7/7/7/7/7/L6 b 0 1", Rules::standard()).unwrap());
/// assert_eq!(pos.to_setup().piece_at(sq("a1")), Some(Piece::new(Side::First, Animal::Lion)));
/// ```
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct Setup {
    /// The animal on each square, indexed by [`Square::index`].
    pub board: [Option<Piece>; 63],
    /// The side to move.
    pub side_to_move: Side,
    /// Plies since the last capture (JFEN's third field).
    pub no_capture_plies: u32,
    /// The full-move number (JFEN's fourth field, at least 1).
    pub fullmove: u32,
}

impl Setup {
    /// An empty board, Red to move, counters `0 1`.
    ///
    /// ```
    /// use qi_jungle::{Rules, Setup};
    ///
    /// let setup = Setup::empty();
    /// assert_eq!(setup.to_string(), "7/7/7/7/7/7/7/7/7 w 0 1");
    /// assert!(setup.into_position(Rules::standard()).is_err()); // no game empties the board
    /// ```
    pub const fn empty() -> Setup {
        Setup {
            board: [None; 63],
            side_to_move: Side::First,
            no_capture_plies: 0,
            fullmove: 1,
        }
    }

    /// The setup with `piece` on `square` (replacing what stood there).
    ///
    /// ```
    /// use qi_core::Side;
    /// use qi_jungle::{Animal, Piece, Setup};
    ///
    /// let sq = |t: &str| t.parse().unwrap();
    /// let setup = Setup::empty()
    ///     .place(sq("d8"), Piece::new(Side::First, Animal::Lion))
    ///     .place(sq("g9"), Piece::new(Side::Second, Animal::Lion));
    /// assert_eq!(setup.to_string(), "6l/3L3/7/7/7/7/7/7/7 w 0 1");
    /// ```
    pub const fn place(self, square: Square, piece: Piece) -> Setup {
        self.set(square, Some(piece))
    }

    /// The setup with `square` holding `piece`, or emptied by `None`.
    ///
    /// ```
    /// use qi_core::{Position, Side};
    /// use qi_jungle::{Jungle, Rules, Setup};
    ///
    /// let sq = |t: &str| t.parse().unwrap();
    /// // The start after a3a4, built by hand.
    /// let elephant = Setup::start().piece_at(sq("a3"));
    /// let setup = Setup::start().set(sq("a3"), None).set(sq("a4"), elephant);
    /// let setup = setup.side_to_move(Side::Second).no_capture_plies(1);
    /// let mut pos = Jungle::default();
    /// pos.play("a3a4".parse().unwrap()).unwrap();
    /// assert_eq!(setup.into_position(Rules::standard()), Ok(pos));
    /// ```
    pub const fn set(mut self, square: Square, piece: Option<Piece>) -> Setup {
        self.board[square.index() as usize] = piece;
        self
    }

    /// The setup with `side` to move.
    ///
    /// ```
    /// use qi_core::Side;
    /// use qi_jungle::{Jungle, Rules};
    ///
    /// let pos = Jungle::from_text("7/3L3/7/7/7/7/7/7/6l w 0 1", Rules::standard()).unwrap();
    /// let setup = pos.to_setup().side_to_move(Side::Second);
    /// assert_eq!(setup.to_string(), "7/3L3/7/7/7/7/7/7/6l b 0 1");
    /// assert_eq!(setup.plies_played(), 1);
    /// ```
    pub const fn side_to_move(mut self, side: Side) -> Setup {
        self.side_to_move = side;
        self
    }

    /// The setup with `plies` since the last capture.
    ///
    /// ```
    /// use qi_jungle::{ImpossiblePosition, Rules, SetupError, Setup};
    ///
    /// let setup = Setup::start().fullmove(12).no_capture_plies(22);
    /// assert_eq!(setup.to_string(), "l5t/1d3c1/r1p1w1e/7/7/7/E1W1P1R/1C3D1/T5L w 22 12");
    /// assert!(setup.into_position(Rules::standard()).is_ok());
    /// // More plies without a capture than plies played:
    /// let err = Setup::start().no_capture_plies(3).into_position(Rules::standard());
    /// assert!(matches!(err, Err(SetupError::Impossible(ImpossiblePosition::CountersContradict { .. }))));
    /// ```
    pub const fn no_capture_plies(mut self, plies: u32) -> Setup {
        self.no_capture_plies = plies;
        self
    }

    /// The setup with full-move number `number`.
    ///
    /// ```
    /// use qi_jungle::{Rules, SetupError, Setup};
    ///
    /// let pos = Setup::start().fullmove(30).into_position(Rules::standard()).unwrap();
    /// assert_eq!(pos.fullmove(), 30);
    /// assert_eq!(Setup::start().fullmove(0).into_position(Rules::standard()), Err(SetupError::ZeroFullmove));
    /// ```
    pub const fn fullmove(mut self, number: u32) -> Setup {
        self.fullmove = number;
        self
    }

    /// The animal on `square`, if any.
    ///
    /// ```
    /// use qi_core::Side;
    /// use qi_jungle::{Animal, Piece, Setup};
    ///
    /// let sq = |t: &str| t.parse().unwrap();
    /// let setup = Setup::start();
    /// assert_eq!(setup.piece_at(sq("a1")), Some(Piece::new(Side::First, Animal::Tiger)));
    /// assert_eq!(setup.piece_at(sq("a7")), Some(Piece::new(Side::Second, Animal::Rat)));
    /// assert_eq!(setup.piece_at(sq("d5")), None);
    /// ```
    pub const fn piece_at(&self, square: Square) -> Option<Piece> {
        self.board[square.index() as usize]
    }

    /// Checks the setup and gives the square of each animal of each side,
    /// Rat first (`NONE` when absent), as [`Jungle`](crate::Jungle) keeps them.
    ///
    /// The checks run in the order the JFEN reader reported them before it
    /// read through a setup, so that its first error stays the same; the
    /// checks that the position can occur in a game come last, and only
    /// when `reachable` asks for them.
    pub(crate) fn validate(&self, reachable: bool) -> Result<[[u8; 8]; 2], SetupError> {
        let squares = self.validate_board(reachable)?;
        if reachable {
            self.check_reachable(&squares)?;
        }
        Ok(squares)
    }

    /// The checks of [`validate`](Setup::validate) that the JFEN reader
    /// makes before it reads the fields after the board: all but those
    /// that a game reaches the position, except that both dens entered is
    /// refused here when `reachable` asks for it.
    pub(crate) fn validate_board(&self, reachable: bool) -> Result<[[u8; 8]; 2], SetupError> {
        let mut squares = [[NONE; 8]; 2];
        for (sq, piece) in Square::all().zip(self.board) {
            let Some(piece) = piece else { continue };
            let slot = &mut squares[piece.side.index()][piece.animal.index()];
            if let Some(first) = Square::new(*slot) {
                return Err(SetupError::DuplicatePiece {
                    piece,
                    first,
                    second: sq,
                });
            }
            *slot = sq.index();
        }
        for side in Side::BOTH {
            for (animal, square) in Animal::ALL.into_iter().zip(squares[side.index()]) {
                if let Some(square) = Square::new(square) {
                    may_stand(Piece::new(side, animal), square)?;
                }
            }
        }
        let in_den =
            |side: Side| squares[side.index()].contains(&DEN_SQUARES[side.opponent().index()]);
        if reachable && in_den(Side::First) && in_den(Side::Second) {
            return Err(SetupError::BothDensEntered);
        }
        if self.fullmove == 0 {
            return Err(SetupError::ZeroFullmove);
        }
        Ok(squares)
    }

    /// The checks that a game can reach the position (see
    /// [`ImpossiblePosition`]), on the squares `validate` found.
    fn check_reachable(&self, squares: &[[u8; 8]; 2]) -> Result<(), ImpossiblePosition> {
        let mover = self.side_to_move;
        let other = mover.opponent();
        let has_animals = |side: Side| squares[side.index()].iter().any(|&sq| sq != NONE);
        if !has_animals(mover) && !has_animals(other) {
            return Err(ImpossiblePosition::EmptyBoard);
        }
        let den = DEN_SQUARES[other.index()];
        if let Some(animal) = squares[mover.index()].iter().position(|&sq| sq == den) {
            return Err(ImpossiblePosition::MoverInEnemyDen {
                piece: Piece::new(mover, Animal::ALL[animal]),
                square: Square::from_index_unchecked(den),
            });
        }
        if !has_animals(other) {
            return Err(ImpossiblePosition::LastMoverWithoutAnimals { side: other });
        }
        let plies = self.plies_played();
        if u64::from(self.no_capture_plies) > plies {
            return Err(ImpossiblePosition::CountersContradict {
                no_capture_plies: self.no_capture_plies,
                plies,
            });
        }
        Ok(())
    }

    /// The plies played before this position, by the full-move number and
    /// the side to move: `2 × (fullmove − 1)`, plus one with Blue to move
    /// (0 for a full-move number of 0, which is refused anyway).
    ///
    /// ```
    /// use qi_core::Position;
    /// use qi_jungle::{Jungle, Setup};
    ///
    /// assert_eq!(Setup::start().plies_played(), 0);
    /// let mut pos = Jungle::default();
    /// for mv in ["a3a4", "g7g6", "a4a5"] {
    ///     pos.play(mv.parse().unwrap()).unwrap();
    /// }
    /// assert_eq!(pos.to_setup().plies_played(), 3);
    /// ```
    pub fn plies_played(&self) -> u64 {
        let before = 2 * u64::from(self.fullmove.saturating_sub(1));
        before + u64::from(self.side_to_move == Side::Second)
    }
}

/// Whether `piece` may stand on `square` on any board a position holds:
/// only the Rat in water, no animal on its own den.
pub(crate) fn may_stand(piece: Piece, square: Square) -> Result<(), SetupError> {
    if square.is_water() && piece.animal != Animal::Rat {
        return Err(SetupError::AnimalInWater { piece, square });
    }
    if square.den_owner() == Some(piece.side) {
        return Err(SetupError::OwnDen { piece, square });
    }
    Ok(())
}

impl Default for Setup {
    /// The start position.
    ///
    /// ```
    /// use qi_jungle::Setup;
    ///
    /// assert_eq!(Setup::default(), Setup::start());
    /// ```
    fn default() -> Setup {
        Setup::start()
    }
}

/// JFEN, as in `Setup("l5t/... w 0 1")`.
///
/// ```
/// use qi_jungle::Setup;
///
/// assert_eq!(format!("{:?}", Setup::empty()), "Setup(\"7/7/7/7/7/7/7/7/7 w 0 1\")");
/// ```
impl fmt::Debug for Setup {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Setup(\"{self}\")")
    }
}

/// Why a [`Setup`] is not a valid position. The board is checked before the
/// counters, and whether a game can reach the position last; the first
/// problem found is reported.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Error)]
#[cfg_attr(
    feature = "serde",
    derive(serde::Serialize),
    serde(tag = "code", content = "fields")
)]
pub enum SetupError {
    /// The same animal of the same side stands on two squares.
    #[error("two {piece}s on the board, on {first} and {second}")]
    #[cfg_attr(feature = "serde", serde(rename = "jungle-setup.duplicate-piece"))]
    DuplicatePiece {
        /// The piece.
        piece: Piece,
        /// The first of its squares (lowest index).
        first: Square,
        /// The next one.
        second: Square,
    },
    /// An animal other than the Rat stands in water.
    #[error("{piece} in water at {square}: only the Rat may be in water")]
    #[cfg_attr(feature = "serde", serde(rename = "jungle-setup.animal-in-water"))]
    AnimalInWater {
        /// The piece.
        piece: Piece,
        /// Its square.
        square: Square,
    },
    /// An animal stands on its own den.
    #[error("{piece} on its own den {square}")]
    #[cfg_attr(feature = "serde", serde(rename = "jungle-setup.own-den"))]
    OwnDen {
        /// The piece.
        piece: Piece,
        /// Its square.
        square: Square,
    },
    /// Both dens are occupied by enemy animals (the game cannot have gone
    /// on after the first entry).
    #[error("both sides have an animal in the enemy den")]
    #[cfg_attr(feature = "serde", serde(rename = "jungle-setup.both-dens-entered"))]
    BothDensEntered,
    /// The full-move number is 0 (it starts at 1).
    #[error("the full-move number is 0 (it starts at 1)")]
    #[cfg_attr(feature = "serde", serde(rename = "jungle-setup.zero-fullmove"))]
    ZeroFullmove,
    /// The board can hold the position, but no game reaches it (refused by
    /// [`Setup::into_position`], accepted by
    /// [`Setup::into_position_lenient`]).
    #[error(transparent)]
    #[cfg_attr(feature = "serde", serde(untagged))]
    Impossible(#[from] ImpossiblePosition),
}

/// Why a position that the board can hold cannot occur in a game. Refused
/// by [`Setup::into_position`], [`Jungle::from_setup`](crate::Jungle::from_setup) and
/// [`Jungle::from_text`](crate::Jungle::from_text) (and so by `FromStr`); accepted by their lenient
/// forms ([`Setup::into_position_lenient`],
/// [`Jungle::from_setup_lenient`](crate::Jungle::from_setup_lenient), [`Jungle::from_text_lenient`](crate::Jungle::from_text_lenient)).
///
/// A finished position that a game does reach is accepted: the side to
/// move without animals (the other side took the last one), or an animal
/// of the side that just moved in the den of the side to move.
///
/// ```
/// use qi_jungle::{ImpossiblePosition, JfenError, Jungle, Rules};
///
/// // Red to move with its Dog in the Blue den: the game ended when it entered.
/// let err = Jungle::from_text("3D3/7/7/7/7/7/7/7/6c w 0 1", Rules::standard());
/// assert!(matches!(err, Err(JfenError::Impossible(ImpossiblePosition::MoverInEnemyDen { .. }))));
/// // With Blue to move, the Dog has just won.
/// assert!(Jungle::from_text("3D3/7/7/7/7/7/7/7/6c b 0 1", Rules::standard()).is_ok());
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Error)]
#[cfg_attr(
    feature = "serde",
    derive(serde::Serialize),
    serde(tag = "code", content = "fields")
)]
pub enum ImpossiblePosition {
    /// No animal on the board: a game ends when a side loses its last
    /// animal, so the other always keeps one.
    #[error("impossible position: the board is empty")]
    #[cfg_attr(feature = "serde", serde(rename = "impossible.empty-board"))]
    EmptyBoard,
    /// An animal of the side to move stands in the enemy den: it entered
    /// on its side's previous move, which ended the game, so the other
    /// side never moved since.
    #[error("impossible position: {piece} stands in the enemy den {square} with its side to move (the game ended when it entered)")]
    #[cfg_attr(feature = "serde", serde(rename = "impossible.mover-in-enemy-den"))]
    MoverInEnemyDen {
        /// The animal in the den.
        piece: Piece,
        /// The den.
        square: Square,
    },
    /// The side that just moved has no animals: it moved one.
    #[error("impossible position: {} has no animals, yet it made the last move", side_name(*.side))]
    #[cfg_attr(
        feature = "serde",
        serde(rename = "impossible.last-mover-without-animals")
    )]
    LastMoverWithoutAnimals {
        /// The side not to move.
        side: Side,
    },
    /// The no-capture ply count is larger than the plies played, which the
    /// full-move number and the side to move fix: `2 × (fullmove − 1)`,
    /// plus one with Blue to move ([`Setup::plies_played`]).
    #[error("impossible position: the no-capture count {no_capture_plies} is larger than the {plies} plies played by this full-move number and side to move")]
    #[cfg_attr(feature = "serde", serde(rename = "impossible.counters-contradict"))]
    CountersContradict {
        /// The no-capture ply count.
        no_capture_plies: u32,
        /// The plies played.
        plies: u64,
    },
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::position::{Jungle, START_JFEN};
    use crate::rules::Rules;

    #[test]
    fn start_setup_is_the_start_jfen() {
        assert_eq!(Setup::start().to_string(), START_JFEN);
        assert_eq!(
            Setup::start().into_position(Rules::standard()),
            Ok(Jungle::new(Rules::standard()))
        );
    }
}
