//! A setup made a position and a position taken apart into a setup.

use super::Jungle;
use crate::rules::Rules;
#[cfg(doc)]
use crate::setup::ImpossiblePosition;
use crate::setup::{Setup, SetupError};

/// Between setups and positions: a setup knows nothing of positions, a
/// position is built from one and taken apart into one.
impl Setup {
    /// The start position ([`START_JFEN`](crate::START_JFEN)).
    ///
    /// ```
    /// use qi_jungle::{Jungle, Rules, Setup, START_JFEN};
    ///
    /// assert_eq!(Setup::start().to_string(), START_JFEN);
    /// assert_eq!(Setup::start().into_position(Rules::standard()), Ok(Jungle::default()));
    /// ```
    pub fn start() -> Setup {
        Jungle::new(Rules::standard()).to_setup()
    }

    /// The position, if the setup is valid (see [`SetupError`] for what is
    /// checked) and some game can reach it (see [`ImpossiblePosition`]);
    /// the same as [`Jungle::from_setup`].
    ///
    /// ```
    /// use qi_core::Side;
    /// use qi_jungle::{Animal, Piece, Rules, Setup, SetupError};
    ///
    /// let sq = |t: &str| t.parse().unwrap();
    /// let lions = Setup::empty()
    ///     .place(sq("d8"), Piece::new(Side::First, Animal::Lion))
    ///     .place(sq("g9"), Piece::new(Side::Second, Animal::Lion));
    /// assert!(lions.into_position(Rules::standard()).is_ok());
    /// let wet = lions.place(sq("b4"), Piece::new(Side::First, Animal::Dog)); // only the Rat swims
    /// assert!(matches!(wet.into_position(Rules::standard()), Err(SetupError::AnimalInWater { .. })));
    /// ```
    pub fn into_position(self, rules: Rules) -> Result<Jungle, SetupError> {
        Jungle::from_setup(self, rules)
    }

    /// The position, if the board can hold the setup at all: like
    /// [`Setup::into_position`] but without the checks that the position
    /// can occur in a game ([`ImpossiblePosition`]), for puzzles and
    /// analysis (an empty board, an animal in the enemy den with its side
    /// to move, counters that contradict each other, …). The same as
    /// [`Jungle::from_setup_lenient`]. Every position is still one the
    /// move generator handles: each animal at most once, none in water but
    /// the Rat, none in its own den, a full-move number of at least 1.
    ///
    /// ```
    /// use qi_jungle::{Jungle, Rules, Setup, SetupError, ImpossiblePosition};
    ///
    /// let rules = Rules::standard();
    /// assert_eq!(
    ///     Setup::empty().into_position(rules),
    ///     Err(SetupError::Impossible(ImpossiblePosition::EmptyBoard))
    /// );
    /// let empty = Setup::empty().into_position_lenient(rules).unwrap();
    /// assert_eq!(empty.to_string(), "7/7/7/7/7/7/7/7/7 w 0 1");
    /// ```
    pub fn into_position_lenient(self, rules: Rules) -> Result<Jungle, SetupError> {
        Jungle::from_setup_lenient(self, rules)
    }
}

/// The plain contents of a position (the same as [`Jungle::to_setup`]).
///
/// ```
/// use qi_jungle::{Jungle, Setup};
///
/// assert_eq!(Setup::from(&Jungle::default()), Setup::start());
/// ```
impl From<&Jungle> for Setup {
    fn from(pos: &Jungle) -> Setup {
        pos.to_setup()
    }
}

impl From<Jungle> for Setup {
    fn from(pos: Jungle) -> Setup {
        pos.to_setup()
    }
}
