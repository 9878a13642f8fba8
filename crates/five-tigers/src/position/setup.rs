//! A position from a [`Setup`] and back.

use qi_core::Side;

use super::{Check, FiveTigers};
use crate::rules::Rules;
use crate::setup::{Setup, SetupError};

impl FiveTigers {
    /// The position a setup describes under `rules`, if the setup is valid
    /// and some game can reach it (see [`SetupError`] for what is
    /// checked). The rules are taken as given, as by [`FiveTigers::new`];
    /// [`Rules::validate`] checks them.
    ///
    /// ```
    /// use qi_core::{Position as _, Side};
    /// use qi_five_tigers::{FiveTigers, Phase, Rules, Setup};
    ///
    /// let pt = |t: &str| -> qi_five_tigers::Point { t.parse().unwrap() };
    /// let setup = Setup::empty()
    ///     .phase(Phase::Movement)
    ///     .place(pt("a1"), Side::First)
    ///     .place(pt("c3"), Side::Second)
    ///     .side_to_move(Side::Second)
    ///     .next(Side::Second);
    /// let pos = FiveTigers::from_setup(setup, Rules::shandong()).unwrap();
    /// assert_eq!(pos.legal_moves().len(), 4); // the piece on c3 steps
    /// ```
    pub fn from_setup(setup: Setup, rules: Rules) -> Result<FiveTigers, SetupError> {
        setup.validate(&rules)?;
        Ok(FiveTigers::from_setup_unchecked(&setup, rules))
    }

    /// The position a setup describes under `rules`, if its fields agree
    /// with each other, whether or not a game can reach it (see
    /// [`FiveTigers::from_text_lenient`]).
    ///
    /// ```
    /// use qi_core::{Position as _, Side};
    /// use qi_five_tigers::{FiveTigers, Phase, Rules, Setup};
    ///
    /// let pt = |t: &str| -> qi_five_tigers::Point { t.parse().unwrap() };
    /// // First to move in the movement phase, though Second steps first.
    /// let setup = Setup::empty()
    ///     .phase(Phase::Movement)
    ///     .place(pt("a1"), Side::First)
    ///     .place(pt("c3"), Side::Second);
    /// assert!(FiveTigers::from_setup(setup, Rules::shandong()).is_err());
    /// assert!(FiveTigers::from_setup_lenient(setup, Rules::shandong()).is_ok());
    /// ```
    pub fn from_setup_lenient(setup: Setup, rules: Rules) -> Result<FiveTigers, SetupError> {
        setup.validate_consistent(&rules)?;
        Ok(FiveTigers::from_setup_unchecked(&setup, rules))
    }

    /// The position a setup describes under `rules`, checked as `check`
    /// says.
    pub(crate) fn from_setup_checked(
        setup: Setup,
        rules: &Rules,
        check: Check,
    ) -> Result<FiveTigers, SetupError> {
        match check {
            Check::Reachable => FiveTigers::from_setup(setup, *rules),
            Check::Consistent => FiveTigers::from_setup_lenient(setup, *rules),
        }
    }

    /// The position a setup describes, taken as valid: for setups made from
    /// valid positions by a change that keeps them valid (a symmetry).
    pub(crate) fn from_setup_unchecked(setup: &Setup, rules: Rules) -> FiveTigers {
        let boards = [setup.pieces(Side::First), setup.pieces(Side::Second)];
        FiveTigers {
            boards,
            hands: setup.hands,
            phase: setup.phase,
            to_move: setup.side_to_move,
            next: setup.next,
            owed: setup.owed,
            last: setup.last_steps,
            quiet: setup.no_capture_plies,
            key: FiveTigers::board_key_from_scratch(&boards),
            rules,
        }
    }

    /// The plain contents of the position (everything but the rules).
    ///
    /// ```
    /// use qi_core::{Position as _, Side};
    /// use qi_five_tigers::{FiveTigers, Rules};
    ///
    /// let mut pos = FiveTigers::new(Rules::shandong());
    /// pos.play("c3".parse().unwrap()).unwrap();
    /// let setup = pos.to_setup();
    /// assert_eq!(setup.hands, [12, 13]);
    /// assert_eq!(setup.into_position(Rules::shandong()).unwrap(), pos);
    /// ```
    pub fn to_setup(&self) -> Setup {
        let mut board = [None; 25];
        for side in Side::BOTH {
            for p in self.boards[side.index()] {
                board[usize::from(p)] = Some(side);
            }
        }
        Setup {
            board,
            hands: self.hands,
            phase: self.phase,
            side_to_move: self.to_move,
            next: self.next,
            owed: self.owed,
            last_steps: self.last,
            no_capture_plies: self.quiet,
        }
    }
}

impl Setup {
    /// The start position under `rules` (as [`FiveTigers::new`] makes it).
    ///
    /// ```
    /// use qi_five_tigers::{FiveTigers, Rules, Setup};
    ///
    /// let rules = Rules::ten();
    /// let setup = Setup::start(rules);
    /// assert_eq!(setup.to_string(), "5/5/5/5/5 x place X:10,O:10 - x -,- 0");
    /// assert_eq!(setup.into_position(rules), Ok(FiveTigers::new(rules)));
    /// ```
    pub fn start(rules: Rules) -> Setup {
        FiveTigers::new(rules).to_setup()
    }

    /// The position under `rules`, if the setup is valid and some game can
    /// reach it (see [`SetupError`] for what is checked); the same as
    /// [`FiveTigers::from_setup`].
    ///
    /// ```
    /// use qi_core::Side;
    /// use qi_five_tigers::{FiveTigers, Rules, Setup};
    ///
    /// let rules = Rules::shandong();
    /// assert_eq!(Setup::start(rules).into_position(rules), Ok(FiveTigers::new(rules)));
    /// // A piece gone from First's hand but not on the board: it never placed.
    /// assert!(Setup::start(rules).hand(Side::First, 12).into_position(rules).is_err());
    /// ```
    pub fn into_position(self, rules: Rules) -> Result<FiveTigers, SetupError> {
        FiveTigers::from_setup(self, rules)
    }

    /// The position under `rules`, if the setup is valid, whether or not a
    /// game can reach it (for puzzles and the analysis of hypothetical
    /// positions); the same as [`FiveTigers::from_setup_lenient`].
    ///
    /// ```
    /// use qi_core::Side;
    /// use qi_five_tigers::{Phase, Rules, Setup, SetupError};
    ///
    /// let pt = |t: &str| t.parse().unwrap();
    /// let rules = Rules::shandong();
    /// // First to move in the movement phase, but Second steps first: no game gets here.
    /// let setup = Setup::empty().phase(Phase::Movement);
    /// let setup = setup.place(pt("a1"), Side::First).place(pt("c3"), Side::Second);
    /// assert_eq!(setup.into_position(rules), Err(SetupError::StepsOutOfTurn));
    /// let pos = setup.into_position_lenient(rules).unwrap();
    /// assert_eq!(pos.to_string(), "5/5/2O2/5/X4 x move X:0,O:0 - x -,- 0");
    /// ```
    pub fn into_position_lenient(self, rules: Rules) -> Result<FiveTigers, SetupError> {
        FiveTigers::from_setup_lenient(self, rules)
    }
}

/// The plain contents of a position (the same as [`FiveTigers::to_setup`]).
///
/// ```
/// use qi_five_tigers::{FiveTigers, Rules, Setup};
///
/// let pos = FiveTigers::new(Rules::ten());
/// assert_eq!(Setup::from(&pos), Setup::start(Rules::ten()));
/// ```
impl From<&FiveTigers> for Setup {
    fn from(pos: &FiveTigers) -> Setup {
        pos.to_setup()
    }
}

impl From<FiveTigers> for Setup {
    fn from(pos: FiveTigers) -> Setup {
        pos.to_setup()
    }
}
