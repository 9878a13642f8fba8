//! [`Setup`]: the plain contents of a position and the types of its
//! fields, to build custom positions and to stand between the position
//! text and [`FiveTigers`].

use qi_core::{Bitboard32, Side};
use thiserror::Error;

use crate::formation::{count_held_at, held_formations, loose_pieces, score, THROUGH};
use crate::point::{not_adjacent, Point, ALL_POINTS};
use crate::position::FiveTigers;
use crate::rules::{PlacementCapture, Rules};
use crate::text::{side_char, Field};

/// The two phases of the game.
///
/// ```
/// use qi_five_tigers::{FiveTigers, Phase, Rules};
///
/// let rules = Rules::shandong();
/// assert_eq!(FiveTigers::new(rules).phase(), Phase::Placement);
/// let pos = FiveTigers::from_text("5/5/2O2/5/X4 o move X:0,O:0 - o -,- 0", rules).unwrap();
/// assert_eq!(pos.phase(), Phase::Movement);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "snake_case"))]
pub enum Phase {
    /// Phase one, 布子: pieces are placed from hand (text `place`).
    Placement,
    /// Phase two, 行子: pieces step (text `move`).
    Movement,
}

// `Display` writes the phase as the position text does (`place`, `move`)
// and `FromStr` reads it back.
qi_core::text_names!(Phase {
    Placement => "place",
    Movement => "move",
});

/// The removal obligations still owed, in order: at most two entries, each
/// a side and a positive count (`x2,o3` in position text: First takes 2 of
/// Second's pieces, then Second takes 3 of First's).
///
/// ```
/// use qi_core::{Position, Side};
/// use qi_five_tigers::{FiveTigers, Owed, Rules};
///
/// let mut pos = FiveTigers::new(Rules::shandong());
/// for mv in ["a1", "e5", "b1", "e4", "a2", "d5", "b2"] {
///     pos.play(mv.parse().unwrap()).unwrap();
/// }
/// // First's small square a1 b1 a2 b2 earns one removal.
/// assert_eq!(pos.owed(), Owed::from_entries(&[(Side::First, 1)]).unwrap());
/// assert_eq!(pos.to_string(), "3OO/4O/5/XX3/XX3 x place X:9,O:10 x1 o -,- 0");
/// ```
#[derive(Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct Owed {
    counts: [u8; 2],
    sides: [u8; 2],
}

impl Owed {
    /// No obligation.
    ///
    /// ```
    /// use qi_five_tigers::{FiveTigers, Owed, Rules};
    ///
    /// assert!(Owed::NONE.is_empty());
    /// assert_eq!(Owed::NONE, Owed::default());
    /// assert_eq!(FiveTigers::new(Rules::shandong()).owed(), Owed::NONE);
    /// ```
    pub const NONE: Owed = Owed {
        counts: [0; 2],
        sides: [0; 2],
    };

    /// Whether nothing is owed.
    ///
    /// ```
    /// use qi_core::Side;
    /// use qi_five_tigers::Owed;
    ///
    /// assert!(Owed::NONE.is_empty());
    /// assert!(!Owed::from_entries(&[(Side::Second, 1)]).unwrap().is_empty());
    /// ```
    #[inline(always)]
    pub const fn is_empty(&self) -> bool {
        self.counts[0] == 0
    }

    /// The obligation being taken now: the side owed the removals and how
    /// many it is still owed.
    ///
    /// ```
    /// use qi_core::Side;
    /// use qi_five_tigers::Owed;
    ///
    /// let owed = Owed::from_entries(&[(Side::First, 2), (Side::Second, 3)]).unwrap();
    /// assert_eq!(owed.first(), Some((Side::First, 2)));
    /// assert_eq!(Owed::NONE.first(), None);
    /// ```
    #[inline(always)]
    pub const fn first(&self) -> Option<(Side, u8)> {
        if self.counts[0] == 0 {
            None
        } else {
            Some((side_of(self.sides[0]), self.counts[0]))
        }
    }

    /// The obligations in order.
    ///
    /// ```
    /// use qi_core::Side;
    /// use qi_five_tigers::Owed;
    ///
    /// let owed = Owed::from_entries(&[(Side::First, 2), (Side::Second, 3)]).unwrap();
    /// let entries: Vec<(Side, u8)> = owed.iter().collect();
    /// assert_eq!(entries, [(Side::First, 2), (Side::Second, 3)]);
    /// assert_eq!(Owed::NONE.iter().count(), 0);
    /// ```
    pub fn iter(&self) -> impl Iterator<Item = (Side, u8)> + '_ {
        (0..2)
            .filter(|&i| self.counts[i] > 0)
            .map(|i| (side_of(self.sides[i]), self.counts[i]))
    }

    /// The number of entries (0, 1 or 2).
    ///
    /// ```
    /// use qi_core::Side;
    /// use qi_five_tigers::Owed;
    ///
    /// assert_eq!(Owed::NONE.len(), 0);
    /// assert_eq!(Owed::from_entries(&[(Side::First, 2), (Side::Second, 3)]).unwrap().len(), 2);
    /// ```
    pub fn len(&self) -> usize {
        self.counts.iter().filter(|&&c| c > 0).count()
    }

    /// The obligations from a list of at most two entries of positive count
    /// (`None` otherwise).
    ///
    /// ```
    /// use qi_core::Side;
    /// use qi_five_tigers::Owed;
    ///
    /// assert_eq!(Owed::from_entries(&[]), Some(Owed::NONE));
    /// assert_eq!(Owed::from_entries(&[(Side::First, 1)]).unwrap().first(), Some((Side::First, 1)));
    /// assert_eq!(Owed::from_entries(&[(Side::First, 0)]), None); // counts are positive
    /// assert_eq!(Owed::from_entries(&[(Side::First, 1); 3]), None); // two entries at most
    /// ```
    pub fn from_entries(entries: &[(Side, u8)]) -> Option<Owed> {
        if entries.len() > 2 || entries.iter().any(|e| e.1 == 0) {
            return None;
        }
        let mut owed = Owed::NONE;
        for (i, &(side, n)) in entries.iter().enumerate() {
            owed.counts[i] = n;
            owed.sides[i] = side.index() as u8;
        }
        Some(owed)
    }

    /// Appends an obligation (merged into the last one for the same side;
    /// with no room left, merged into the last entry).
    pub(crate) fn push(&mut self, side: Side, n: u8) {
        if n == 0 {
            return;
        }
        let s = side.index() as u8;
        if self.counts[0] == 0 {
            self.counts[0] = n;
            self.sides[0] = s;
        } else if self.counts[1] == 0 && self.sides[0] != s {
            self.counts[1] = n;
            self.sides[1] = s;
        } else {
            let last = if self.counts[1] == 0 { 0 } else { 1 };
            self.counts[last] = self.counts[last].saturating_add(n);
        }
    }

    /// Drops the first entry.
    #[inline(always)]
    pub(crate) fn pop(&mut self) {
        self.counts = [self.counts[1], 0];
        self.sides = [self.sides[1], 0];
    }

    /// One removal of the first entry was taken.
    #[inline(always)]
    pub(crate) fn take_one(&mut self) {
        self.counts[0] -= 1;
        if self.counts[0] == 0 {
            self.pop();
        }
    }

    pub(crate) fn pack(&self) -> u64 {
        self.counts[0] as u64
            | (self.sides[0] as u64) << 8
            | (self.counts[1] as u64) << 9
            | (self.sides[1] as u64) << 17
    }
}

#[inline(always)]
const fn side_of(index: u8) -> Side {
    if index == 0 {
        Side::First
    } else {
        Side::Second
    }
}

/// A side's previous step, kept for the shuttle rule.
///
/// ```
/// use qi_core::{Position, Side};
/// use qi_five_tigers::{FiveTigers, LastStep, Rules};
///
/// let pt = |t: &str| t.parse().unwrap();
/// let text = "5/5/2O2/5/X4 o move X:0,O:0 - o -,- 0";
/// let mut pos = FiveTigers::from_text(text, Rules::shandong()).unwrap();
/// pos.play("c3-c4".parse().unwrap()).unwrap();
/// assert_eq!(pos.last_step(Side::Second), Some(LastStep { from: pt("c3"), to: pt("c4") }));
/// assert_eq!(pos.to_string(), "5/2O2/5/5/X4 x move X:0,O:0 - x -,c3-c4 1");
/// ```
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct LastStep {
    /// The point left.
    pub from: Point,
    /// The point entered.
    pub to: Point,
}

/// The plain contents of a Five Tigers position: the eight fields of the
/// position text (which side's piece stands on which point, hands, phase,
/// side to move, next side, owed removals, previous steps, quiet count),
/// free to be set to anything and checked only when it becomes a
/// [`FiveTigers`].
///
/// Build one from [`Setup::empty`] or [`Setup::start`] with the chaining
/// methods (or by writing the public fields), then validate it with
/// [`Setup::into_position`] (the same as [`FiveTigers::from_setup`]). Its
/// `Display` is the position text, written as is (even when the setup is
/// not valid).
///
/// ```
/// use qi_core::Side;
/// use qi_five_tigers::{FiveTigers, Phase, Rules, Setup};
///
/// let pt = |t: &str| t.parse().unwrap();
/// let rules = Rules::shandong();
/// let pos = Setup::empty()
///     .phase(Phase::Movement)
///     .place(pt("a1"), Side::First)
///     .place(pt("c3"), Side::Second)
///     .side_to_move(Side::Second)
///     .next(Side::Second)
///     .into_position(rules)
///     .unwrap();
/// assert_eq!(pos, FiveTigers::from_text("5/5/2O2/5/X4 o move X:0,O:0 - o -,- 0", rules).unwrap());
/// assert_eq!(pos.to_setup().piece_at(pt("c3")), Some(Side::Second));
/// ```
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct Setup {
    /// The side whose piece stands on each point, indexed by
    /// [`Point::index`].
    pub board: [Option<Side>; 25],
    /// The pieces each side holds in hand, indexed by [`Side::index`].
    pub hands: [u8; 2],
    /// The phase.
    pub phase: Phase,
    /// The side to move.
    pub side_to_move: Side,
    /// The side with the regular turn once nothing is owed.
    pub next: Side,
    /// The removals still owed.
    pub owed: Owed,
    /// Each side's previous step, indexed by [`Side::index`].
    pub last_steps: [Option<LastStep>; 2],
    /// Plies of the movement phase since the last removal (the quiet count).
    pub no_capture_plies: u16,
}

impl Setup {
    /// An empty board, empty hands, placement with First to move and next,
    /// nothing owed, no previous step, quiet count 0. Not valid as it is
    /// (neither side has a piece): give it pieces or hands.
    ///
    /// ```
    /// use qi_five_tigers::{Rules, Setup, SetupError};
    ///
    /// let setup = Setup::empty();
    /// assert_eq!(setup.to_string(), "5/5/5/5/5 x place X:0,O:0 - x -,- 0");
    /// assert_eq!(setup.into_position(Rules::shandong()), Err(SetupError::NoPieces));
    /// ```
    pub const fn empty() -> Setup {
        Setup {
            board: [None; 25],
            hands: [0; 2],
            phase: Phase::Placement,
            side_to_move: Side::First,
            next: Side::First,
            owed: Owed::NONE,
            last_steps: [None; 2],
            no_capture_plies: 0,
        }
    }

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

    /// The setup with a piece of `side` on `point` (replacing what stood
    /// there).
    ///
    /// ```
    /// use qi_core::Side;
    /// use qi_five_tigers::{Rules, Setup};
    ///
    /// let pt = |t: &str| t.parse().unwrap();
    /// let rules = Rules::shandong();
    /// // The start after First places on c3.
    /// let setup = Setup::start(rules).place(pt("c3"), Side::First).hand(Side::First, 12);
    /// let setup = setup.side_to_move(Side::Second).next(Side::Second);
    /// assert_eq!(setup.to_string(), "5/5/2X2/5/5 o place X:12,O:13 - o -,- 0");
    /// assert!(setup.into_position(rules).is_ok());
    /// ```
    pub const fn place(self, point: Point, side: Side) -> Setup {
        self.set(point, Some(side))
    }

    /// The setup with `point` holding a piece of `side`, or emptied by
    /// `None`.
    ///
    /// ```
    /// use qi_core::{Position, Side};
    /// use qi_five_tigers::{FiveTigers, LastStep, Rules};
    ///
    /// let pt = |t: &str| t.parse().unwrap();
    /// let rules = Rules::shandong();
    /// let mut pos = FiveTigers::from_text("5/5/2O2/5/X4 o move X:0,O:0 - o -,- 0", rules).unwrap();
    /// // Second's step c3-c4, made by hand.
    /// let setup = pos.to_setup().set(pt("c3"), None).set(pt("c4"), Some(Side::Second));
    /// let step = LastStep { from: pt("c3"), to: pt("c4") };
    /// let setup = setup.last_step(Side::Second, Some(step)).side_to_move(Side::First).next(Side::First);
    /// pos.play("c3-c4".parse().unwrap()).unwrap();
    /// assert_eq!(setup.no_capture_plies(1).into_position(rules), Ok(pos));
    /// ```
    pub const fn set(mut self, point: Point, side: Option<Side>) -> Setup {
        self.board[point.index() as usize] = side;
        self
    }

    /// The setup with `side` holding `pieces` in hand.
    ///
    /// ```
    /// use qi_core::Side;
    /// use qi_five_tigers::{Rules, Setup};
    ///
    /// let setup = Setup::empty().hand(Side::First, 13).hand(Side::Second, 13);
    /// assert_eq!(setup, Setup::start(Rules::shandong()));
    /// assert_eq!(Setup::start(Rules::ten()).hands, [10, 10]);
    /// ```
    pub const fn hand(mut self, side: Side, pieces: u8) -> Setup {
        self.hands[side.index()] = pieces;
        self
    }

    /// The setup in `phase`.
    ///
    /// ```
    /// use qi_five_tigers::{FiveTigers, Phase, Rules, Setup, SetupError};
    ///
    /// let rules = Rules::shandong();
    /// let pos = FiveTigers::from_text("5/5/2O2/5/X4 o move X:0,O:0 - o -,- 0", rules).unwrap();
    /// assert_eq!(pos.to_setup().phase, Phase::Movement);
    /// // Pieces in hand: placement has not ended.
    /// let err = Setup::start(rules).phase(Phase::Movement).into_position(rules);
    /// assert_eq!(err, Err(SetupError::HandsInMovement { hands: [13, 13] }));
    /// ```
    pub const fn phase(mut self, phase: Phase) -> Setup {
        self.phase = phase;
        self
    }

    /// The setup with `side` to move.
    ///
    /// ```
    /// use qi_core::Side;
    /// use qi_five_tigers::{Rules, Setup, SetupError};
    ///
    /// let rules = Rules::shandong();
    /// // First places first.
    /// let err = Setup::start(rules).side_to_move(Side::Second).into_position(rules);
    /// assert_eq!(err, Err(SetupError::WrongSideToMove { found: Side::Second, expected: Side::First }));
    /// ```
    pub const fn side_to_move(mut self, side: Side) -> Setup {
        self.side_to_move = side;
        self
    }

    /// The setup with `side` having the regular turn.
    ///
    /// ```
    /// use qi_core::{Position, Side};
    /// use qi_five_tigers::{FiveTigers, Rules};
    ///
    /// let mut pos = FiveTigers::new(Rules::shandong());
    /// for mv in ["a1", "e5", "b1", "e4", "a2", "d5", "b2"] {
    ///     pos.play(mv.parse().unwrap()).unwrap();
    /// }
    /// // First takes its removal, then Second has the regular turn.
    /// let setup = pos.to_setup();
    /// assert_eq!((setup.side_to_move, setup.next), (Side::First, Side::Second));
    /// ```
    pub const fn next(mut self, side: Side) -> Setup {
        self.next = side;
        self
    }

    /// The setup owing `owed`.
    ///
    /// ```
    /// use qi_core::{Position, Side};
    /// use qi_five_tigers::{FiveTigers, Owed, Rules, SetupError};
    ///
    /// let rules = Rules::shandong();
    /// let mut pos = FiveTigers::new(rules);
    /// for mv in ["a1", "e5", "b1", "e4", "a2", "d5", "b2"] {
    ///     pos.play(mv.parse().unwrap()).unwrap();
    /// }
    /// // One small square earns one removal, not two.
    /// let two = Owed::from_entries(&[(Side::First, 2)]).unwrap();
    /// let err = pos.to_setup().owed(two).into_position(rules);
    /// assert_eq!(err, Err(SetupError::OwedWithoutFormation { taker: Side::First, count: 2 }));
    /// ```
    pub const fn owed(mut self, owed: Owed) -> Setup {
        self.owed = owed;
        self
    }

    /// The setup with `step` as `side`'s previous step.
    ///
    /// ```
    /// use qi_core::{Position, Side};
    /// use qi_five_tigers::{FiveTigers, LastStep, Rules};
    ///
    /// let pt = |t: &str| t.parse().unwrap();
    /// let rules = Rules::shandong();
    /// let mut pos = FiveTigers::from_text("5/5/2O2/5/X4 o move X:0,O:0 - o -,- 0", rules).unwrap();
    /// pos.play("c3-c4".parse().unwrap()).unwrap();
    /// let setup = pos.to_setup();
    /// assert_eq!(setup.last_steps[1], Some(LastStep { from: pt("c3"), to: pt("c4") }));
    /// // Second has stepped, so its previous step cannot be missing.
    /// assert!(setup.last_step(Side::Second, None).into_position(rules).is_err());
    /// ```
    pub const fn last_step(mut self, side: Side, step: Option<LastStep>) -> Setup {
        self.last_steps[side.index()] = step;
        self
    }

    /// The setup with `plies` quiet plies.
    ///
    /// ```
    /// use qi_core::Position;
    /// use qi_five_tigers::{FiveTigers, Rules, Setup, SetupError};
    ///
    /// let rules = Rules::shandong();
    /// let mut pos = FiveTigers::from_text("5/5/2O2/5/X4 o move X:0,O:0 - o -,- 0", rules).unwrap();
    /// pos.play("c3-c4".parse().unwrap()).unwrap();
    /// pos.play("a1-a2".parse().unwrap()).unwrap();
    /// assert_eq!(pos.to_setup().no_capture_plies, 2);
    /// let err = Setup::start(rules).no_capture_plies(3).into_position(rules);
    /// assert_eq!(err, Err(SetupError::QuietPliesInPlacement { plies: 3 })); // only steps count
    /// ```
    pub const fn no_capture_plies(mut self, plies: u16) -> Setup {
        self.no_capture_plies = plies;
        self
    }

    /// The side whose piece stands on `point`, if any.
    ///
    /// ```
    /// use qi_core::{Position, Side};
    /// use qi_five_tigers::{FiveTigers, Rules};
    ///
    /// let pt = |t: &str| t.parse().unwrap();
    /// let mut pos = FiveTigers::new(Rules::shandong());
    /// pos.play("c3".parse().unwrap()).unwrap();
    /// assert_eq!(pos.to_setup().piece_at(pt("c3")), Some(Side::First));
    /// assert_eq!(pos.to_setup().piece_at(pt("a1")), None);
    /// ```
    pub const fn piece_at(&self, point: Point) -> Option<Side> {
        self.board[point.index() as usize]
    }

    /// The points `side`'s pieces stand on.
    ///
    /// ```
    /// use qi_core::{Position, Side};
    /// use qi_five_tigers::{FiveTigers, Point, Rules};
    ///
    /// let mut pos = FiveTigers::new(Rules::shandong());
    /// for mv in ["a1", "e5", "b1", "e4", "a2", "d5", "b2"] {
    ///     pos.play(mv.parse().unwrap()).unwrap();
    /// }
    /// let mine = Point::points_of(pos.to_setup().pieces(Side::First));
    /// assert_eq!(mine.map(|p| p.to_string()).collect::<Vec<_>>(), ["a1", "b1", "a2", "b2"]);
    /// ```
    pub fn pieces(&self, side: Side) -> Bitboard32 {
        Point::all()
            .filter(|&p| self.piece_at(p) == Some(side))
            .map(Point::index)
            .collect()
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

    /// Checks that the fields agree with each other as they do in every
    /// position the state machine produces, then that some game can reach
    /// the position.
    pub(crate) fn validate(&self, rules: &Rules) -> Result<(), SetupError> {
        self.validate_consistent(rules)?;
        self.validate_reachable(rules)
    }

    /// Checks that the fields agree with each other as they do in every
    /// position the state machine produces: what the lenient readers check.
    ///
    /// The checks the position text makes after reading its fields run in
    /// the order the text reported them before it read through a setup, so
    /// that its first error stays the same; they come after the checks of
    /// what the text cannot express (it refuses those as it reads them).
    pub(crate) fn validate_consistent(&self, rules: &Rules) -> Result<(), SetupError> {
        let mut entries = self.owed.iter();
        if let (Some((a, _)), Some((b, _))) = (entries.next(), entries.next()) {
            if a == b {
                return Err(SetupError::OwedTwiceInARow { side: a });
            }
        }
        for side in Side::BOTH {
            if let Some(step) = self.last_steps[side.index()] {
                if !step.from.is_adjacent(step.to) {
                    return Err(SetupError::LastStepNotAdjacent { side, step });
                }
            }
        }
        let boards = [self.pieces(Side::First), self.pieces(Side::Second)];
        let hands = self.hands;
        let max = rules.pieces_per_side;
        for side in Side::BOTH {
            let i = side.index();
            if hands[i] > max {
                return Err(SetupError::HandTooLarge {
                    side,
                    hand: hands[i],
                    max,
                });
            }
            if boards[i].count() + hands[i] as u32 > max as u32 {
                return Err(SetupError::TooManyPieces { side, max });
            }
        }
        let out = |i: usize| boards[i].is_empty() && hands[i] == 0;
        if out(0) && out(1) {
            return Err(SetupError::NoPieces);
        }
        match self.phase {
            Phase::Placement => {
                if hands == [0, 0] {
                    return Err(SetupError::PlacementWithEmptyHands);
                }
                if (boards[0] | boards[1]) == ALL_POINTS {
                    return Err(SetupError::PlacementOnFullBoard);
                }
                if hands[self.next.index()] == 0 {
                    return Err(SetupError::NextHandEmpty { next: self.next });
                }
                if self.no_capture_plies != 0 {
                    return Err(SetupError::QuietPliesInPlacement {
                        plies: self.no_capture_plies,
                    });
                }
                if self.last_steps != [None, None] {
                    return Err(SetupError::StepInPlacement);
                }
            }
            Phase::Movement => {
                if hands != [0, 0] {
                    return Err(SetupError::HandsInMovement { hands });
                }
            }
        }
        let expected = match self.owed.first() {
            None => self.next,
            Some((taker, _)) => {
                let victim = taker.opponent();
                if out(0) || out(1) {
                    return Err(SetupError::OwedAfterLoss);
                }
                if boards[victim.index()].is_empty() {
                    return Err(SetupError::OwedFromEmptyBoard { victim });
                }
                if loose_pieces(boards[victim.index()]).any() {
                    taker
                } else {
                    victim
                }
            }
        };
        if self.side_to_move != expected {
            return Err(SetupError::WrongSideToMove {
                found: self.side_to_move,
                expected,
            });
        }
        Ok(())
    }
    /// Checks, on a consistent setup, what a game from the start position
    /// implies (`docs/five-tigers.md`, "Positions no game can reach"):
    /// alternating placement, the removals the counts imply, the owed
    /// removals and the previous steps as the last moves leave them.
    fn validate_reachable(&self, rules: &Rules) -> Result<(), SetupError> {
        match self.phase {
            Phase::Placement => self.reachable_in_placement(rules),
            Phase::Movement => self.reachable_in_movement(rules),
        }
    }

    fn reachable_in_placement(&self, rules: &Rules) -> Result<(), SetupError> {
        let max = rules.pieces_per_side;
        // Hands are at most `max` (checked before): what each side placed.
        let placed = self.hands.map(|h| max - h);
        if placed[0] != placed[1] && Some(placed[0]) != placed[1].checked_add(1) {
            return Err(SetupError::PlacedOutOfTurn { placed });
        }
        let expected = if placed[0] == placed[1] {
            Side::First
        } else {
            Side::Second
        };
        if self.next != expected {
            return Err(SetupError::NextOutOfTurn {
                found: self.next,
                expected,
            });
        }
        // Board and hand are at most `max` (checked before): what each side
        // lost.
        let lost = Side::BOTH.map(|side| placed[side.index()] - self.pieces(side).count() as u8);
        match rules.placement_capture {
            PlacementCapture::Deferred => {
                if !self.owed.is_empty() {
                    return Err(SetupError::OwedInDeferredPlacement);
                }
                if let Some(side) = Side::BOTH.into_iter().find(|s| lost[s.index()] > 0) {
                    return Err(SetupError::RemovedInDeferredPlacement {
                        side,
                        lost: lost[side.index()],
                    });
                }
            }
            PlacementCapture::Immediate => {
                if self.owed.len() == 2 {
                    return Err(SetupError::TwoOwedInPlacement);
                }
                if let Some((taker, count)) = self.owed.first() {
                    if taker != self.next.opponent() {
                        return Err(SetupError::OwedNotToLastPlacer { taker });
                    }
                    self.formed_by_one_piece(taker, count)?;
                }
                for side in Side::BOTH {
                    let taker = side.opponent();
                    if lost[side.index()] > 0 && placed[taker.index()] < 3 {
                        return Err(SetupError::RemovedBeforeFormation { side });
                    }
                }
                // Each formation a side holds earned one removal when its
                // placement formed it, taken before the other side's next
                // placement; the other side then had pieces on the board
                // (it had placed 2 or more), so the removal was not dropped.
                // A side whose opponent has lost nothing has therefore taken
                // nothing, and every formation it holds is still owed.
                for side in Side::BOTH {
                    if lost[side.opponent().index()] > 0 {
                        continue;
                    }
                    let held = held_formations(self.pieces(side)).count();
                    let owed = self
                        .owed
                        .first()
                        .filter(|&(taker, _)| taker == side)
                        .map_or(0, |(_, count)| count);
                    if held > usize::from(owed) {
                        return Err(SetupError::UnpaidFormations { side, held, owed });
                    }
                }
            }
        }
        Ok(())
    }

    /// `taker`, owed `count` removals by one placement, has a piece through
    /// which it holds that many formations (its pieces are not taken while
    /// it is owed removals, so the placed piece still stands).
    fn formed_by_one_piece(&self, taker: Side, count: u8) -> Result<(), SetupError> {
        let pieces = self.pieces(taker);
        let most = pieces
            .into_iter()
            .map(|p| count_held_at(usize::from(p), pieces))
            .max()
            .unwrap_or(0);
        if most < count {
            return Err(SetupError::OwedWithoutFormation { taker, count });
        }
        Ok(())
    }

    /// The error for owed removals the end of placement cannot leave.
    fn not_from_placement(&self, rules: &Rules) -> SetupError {
        SetupError::OwedNotFromPlacement {
            owed: self.owed,
            capture: rules.placement_capture,
        }
    }

    fn reachable_in_movement(&self, rules: &Rules) -> Result<(), SetupError> {
        let boards = [self.pieces(Side::First), self.pieces(Side::Second)];
        let full = (boards[0] | boards[1]) == ALL_POINTS;
        if full {
            self.reachable_on_full_board(rules, boards)?;
        }
        let steps = self.last_steps.map(|l| l.is_some());
        let in_turn = match self.next {
            // Second steps first, then the sides alternate: with Second
            // next, both sides have stepped as often, maybe never.
            Side::Second => steps[0] == steps[1],
            // With First next, Second stepped last.
            Side::First => steps[1],
        };
        if !in_turn {
            return Err(SetupError::StepsOutOfTurn);
        }
        // The side that stepped last (if any step was made): only removals
        // of the other side's pieces have followed its step.
        let last = self.next.opponent();
        let Some(step) = self.last_steps[last.index()] else {
            if self.no_capture_plies != 0 {
                return Err(SetupError::QuietWithoutSteps {
                    plies: self.no_capture_plies,
                });
            }
            // A full board was checked on its own.
            if full {
                return Ok(());
            }
            return self.owed_at_start_of_movement(rules);
        };
        if self.piece_at(step.to) != Some(last) || self.piece_at(step.from).is_some() {
            return Err(SetupError::LastStepOffBoard { side: last, step });
        }
        // The other side stepped before: since then one step of `last`
        // (which may have entered the point left) and removals (which may
        // have taken the piece that stepped).
        let other = self.next;
        if let Some(before) = self.last_steps[other.index()] {
            if self.piece_at(before.from) == Some(other) || self.piece_at(before.to) == Some(last) {
                return Err(SetupError::LastStepOffBoard {
                    side: other,
                    step: before,
                });
            }
        }
        let value =
            THROUGH[usize::from(step.to.index())].value_held(boards[last.index()], &rules.values());
        let follows = if self.no_capture_plies > 0 {
            // The step was the last ply: it left exactly its earnings owed.
            let mut owed = Owed::NONE;
            owed.push(last, value);
            self.owed == owed
        } else {
            // A removal followed the step: the step earned some, and what
            // is still owed is part of them.
            value > 0
                && match (self.owed.len(), self.owed.first()) {
                    (0, _) => true,
                    (1, Some((side, n))) => side == last && n < value,
                    _ => false,
                }
        };
        if !follows {
            return Err(SetupError::OwedNotFromStep {
                side: last,
                step,
                value,
            });
        }
        Ok(())
    }

    /// A full board in the movement phase: nothing was removed since
    /// placement ended (a removal empties a point, and a step needs an
    /// empty point), so the owed removals are those the end of placement
    /// left, untouched.
    fn reachable_on_full_board(
        &self,
        rules: &Rules,
        boards: [Bitboard32; 2],
    ) -> Result<(), SetupError> {
        if self.owed.is_empty() {
            return Err(SetupError::FullBoardNothingOwed);
        }
        // 25 pieces of at most 13 a side: 13 and 12. With First's 13 and
        // Second's 12, First's 13th placement filled the board; otherwise
        // (a piece was taken) both placed 13 and Second placed last.
        let first_full = boards[0].count() == 13;
        let opening = Owed::from_entries(&[(Side::Second, 1), (Side::First, 1)]);
        match rules.placement_capture {
            PlacementCapture::Deferred => {
                if !first_full {
                    return Err(SetupError::RemovedInDeferredPlacement {
                        side: Side::First,
                        lost: 1,
                    });
                }
                let mut expected = Owed::NONE;
                expected.push(Side::First, score(boards[0], rules));
                expected.push(Side::Second, score(boards[1], rules));
                if expected.is_empty() {
                    expected = opening.unwrap_or_default();
                }
                if self.owed != expected {
                    return Err(self.not_from_placement(rules));
                }
            }
            PlacementCapture::Immediate => {
                // With at most one removal before the board filled, no
                // removal was ever dropped, and each formation formed
                // during placement earned one: a side holds the formations
                // it formed (its pieces were not taken) or none of them.
                // Either First's 13th placement filled the board with no
                // removal before it, or Second placed last after one
                // removal, which the side that lost no piece took.
                let held = boards.map(|b| held_formations(b).count());
                let through = |side: Side, n: u8| {
                    let pieces = boards[side.index()];
                    pieces
                        .into_iter()
                        .any(|p| count_held_at(usize::from(p), pieces) == n)
                };
                let reached = match (first_full, self.owed.len(), self.owed.first()) {
                    // The last placement formed nothing.
                    (true, 2, _) => Some(self.owed) == opening && held[1] == 0 && held[0] <= 1,
                    (false, 2, _) => Some(self.owed) == opening && held == [0, 1],
                    // The last placement formed `n`.
                    (true, 1, Some((Side::First, n))) => {
                        held[1] == 0 && held[0] == usize::from(n) && through(Side::First, n)
                    }
                    (true, 1, Some((Side::Second, n))) => {
                        held[0] == 1 && held[1] == usize::from(n) && through(Side::Second, n)
                    }
                    (false, 1, Some((Side::Second, n))) => {
                        held[0] == 0 && held[1] == usize::from(n) + 1 && through(Side::Second, n)
                    }
                    _ => false,
                };
                if !reached {
                    return Err(self.not_from_placement(rules));
                }
            }
        }
        Ok(())
    }

    /// The movement phase before any step, on a board with an empty
    /// point: removals left by the end of placement, some taken.
    fn owed_at_start_of_movement(&self, rules: &Rules) -> Result<(), SetupError> {
        let first_pieces = self.pieces(Side::First);
        let bad = || self.not_from_placement(rules);
        let mut entries = self.owed.iter();
        let (first, second) = (entries.next(), entries.next());
        match (rules.placement_capture, first, second) {
            (_, None, _) => Ok(()),
            // First's opening removal, after Second took its own.
            (_, Some((Side::First, 1)), None) => Ok(()),
            // The opening removals begin on a full board.
            (_, Some((Side::Second, _)), Some(_)) => Err(bad()),
            // Deferred scores: First takes its own first, and First's
            // pieces stay whole until then.
            (PlacementCapture::Deferred, Some((Side::First, n)), _) => {
                if first_pieces.count() != u32::from(rules.pieces_per_side)
                    || score(first_pieces, rules) < n
                {
                    return Err(bad());
                }
                Ok(())
            }
            (PlacementCapture::Deferred, Some((Side::Second, _)), None) => Ok(()),
            // Immediate: one entry, earned by the last placement.
            (PlacementCapture::Immediate, Some(_), Some(_)) => Err(bad()),
            (PlacementCapture::Immediate, Some((taker, n)), None) => {
                self.formed_by_one_piece(taker, n)
            }
        }
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

/// The position text, as in `Setup("5/5/5/5/5 x place X:13,O:13 - x -,- 0")`.
///
/// ```
/// use qi_five_tigers::{Rules, Setup};
///
/// let setup = Setup::start(Rules::shandong());
/// assert_eq!(format!("{setup:?}"), "Setup(\"5/5/5/5/5 x place X:13,O:13 - x -,- 0\")");
/// ```
impl std::fmt::Debug for Setup {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Setup(\"{self}\")")
    }
}

/// Why a [`Setup`] is not a valid position: its fields do not agree with
/// each other as they do in every position the state machine produces
/// (the variants up to [`SetupError::WrongSideToMove`], all that the
/// lenient readers check), or no game from the start position can reach
/// it (the later ones). The first problem found is reported;
/// [`SetupError::field`] names the field of the position text it is
/// reported on.
///
/// ```
/// use qi_five_tigers::{Rules, Setup, SetupError};
///
/// let rules = Rules::shandong();
/// let err = Setup::empty().into_position(rules).unwrap_err();
/// assert_eq!(err, SetupError::NoPieces);
/// assert!(Setup::empty().into_position_lenient(rules).is_err()); // the lenient readers refuse it too
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Error)]
pub enum SetupError {
    /// Two owed entries in a row for one side (they would be one entry).
    #[error("two entries in a row for one side")]
    OwedTwiceInARow {
        /// The side of both entries.
        side: Side,
    },
    /// A previous step that is not a step to an adjacent point.
    #[error("{}", not_adjacent(.step.from, .step.to))]
    LastStepNotAdjacent {
        /// The side that made it.
        side: Side,
        /// The step.
        step: LastStep,
    },
    /// A side holds more pieces in hand than the rules give it.
    #[error("{}", hand_too_large(*.side, .hand, *.max))]
    HandTooLarge {
        /// The side.
        side: Side,
        /// Its hand.
        hand: u8,
        /// The pieces per side of the rules.
        max: u8,
    },
    /// A side has more pieces on the board and in hand than the rules give
    /// it.
    #[error("{side} has more than {max} pieces on the board and in hand")]
    TooManyPieces {
        /// The side.
        side: Side,
        /// The pieces per side of the rules.
        max: u8,
    },
    /// Neither side has a piece, on the board or in hand.
    #[error("neither side has a piece")]
    NoPieces,
    /// Placement with both hands empty (it has ended).
    #[error("placement with both hands empty has ended")]
    PlacementWithEmptyHands,
    /// Placement on a full board (it has ended).
    #[error("placement on a full board has ended")]
    PlacementOnFullBoard,
    /// In placement, the next side has an empty hand (it would be skipped).
    #[error("a side with an empty hand is skipped in placement")]
    NextHandEmpty {
        /// The next side.
        next: Side,
    },
    /// Quiet plies counted in placement (only movement plies count).
    #[error("no movement ply during placement")]
    QuietPliesInPlacement {
        /// The count.
        plies: u16,
    },
    /// A previous step in placement.
    #[error("no step during placement")]
    StepInPlacement,
    /// Pieces in hand in the movement phase.
    #[error("both hands are 0 once placement has ended")]
    HandsInMovement {
        /// The hands, First's first.
        hands: [u8; 2],
    },
    /// Removals owed while a side has no piece left (they are dropped).
    #[error("nothing is owed once a side has no pieces")]
    OwedAfterLoss,
    /// Removals owed from a side with no piece on the board (they are
    /// dropped).
    #[error("removals owed from a side with no piece on the board are dropped")]
    OwedFromEmptyBoard {
        /// The side the removals would be taken from.
        victim: Side,
    },
    /// The side to move is not the one the other fields decide.
    #[error("'{}' should be '{}'", side_char(*.found), side_char(*.expected))]
    WrongSideToMove {
        /// The side to move given.
        found: Side,
        /// The side the other fields decide.
        expected: Side,
    },
    /// In placement, the hands say the sides did not place in turn: First
    /// places first and the sides alternate, so First has placed as many
    /// pieces as Second or one more.
    #[error(
        "first has placed {} pieces and second {}, but the sides place in turn, first beginning",
        .placed[0],
        .placed[1]
    )]
    PlacedOutOfTurn {
        /// The pieces each side has placed (`pieces_per_side` minus its
        /// hand), First's first.
        placed: [u8; 2],
    },
    /// In placement, the next side is not the one whose turn the hands
    /// say it is.
    #[error(
        "'{}' should be '{}': first places when both have placed as many pieces, second when first has placed one more",
        side_char(*.found),
        side_char(*.expected)
    )]
    NextOutOfTurn {
        /// The next side given.
        found: Side,
        /// The side whose turn it is.
        expected: Side,
    },
    /// Removals owed during placement under deferred capture.
    #[error("nothing is owed during placement under deferred capture")]
    OwedInDeferredPlacement,
    /// Pieces taken before placement ended under deferred capture.
    #[error(
        "{side} has lost {lost} piece(s), but nothing is taken before placement ends under deferred capture"
    )]
    RemovedInDeferredPlacement {
        /// The side that lost pieces.
        side: Side,
        /// How many pieces it lost.
        lost: u8,
    },
    /// Two owed entries during placement under immediate capture: only the
    /// last placement earns removals, and they are taken before the next.
    #[error("two owed entries during placement: only the last placement earns removals")]
    TwoOwedInPlacement,
    /// Removals owed during placement to the side that did not place last.
    #[error("{taker} is owed removals during placement, but the other side placed last")]
    OwedNotToLastPlacer {
        /// The side owed the removals.
        taker: Side,
    },
    /// More removals owed for one move than the formations through any
    /// one of the taker's pieces.
    #[error(
        "{taker} is owed {count} removal(s), more than the formations it holds through any one of its pieces"
    )]
    OwedWithoutFormation {
        /// The side owed the removals.
        taker: Side,
        /// The removals owed.
        count: u8,
    },
    /// During immediate placement, a side holds more formations than the
    /// removals owed to it, though its opponent has lost no piece: each
    /// formation earned a removal that was neither taken nor is still owed.
    #[error(
        "{side} holds {held} formation(s) but is owed {owed} removal(s), and the other side has lost no piece: every formation formed in placement earns a removal"
    )]
    UnpaidFormations {
        /// The side holding the formations.
        side: Side,
        /// The formations it holds.
        held: usize,
        /// The removals owed to it.
        owed: u8,
    },
    /// A side lost pieces in placement before the other side placed the 3
    /// pieces the smallest formation needs.
    #[error(
        "{side} has lost pieces, but the other side has placed fewer than the 3 pieces a formation needs"
    )]
    RemovedBeforeFormation {
        /// The side that lost pieces.
        side: Side,
    },
    /// A full board in the movement phase with nothing owed: the end of
    /// placement on a full board always leaves removals owed (the opening
    /// removals if nothing else).
    #[error(
        "a full board in the movement phase owes removals: the opening removals follow placement"
    )]
    FullBoardNothingOwed,
    /// Owed removals in the movement phase, before any step, that the end
    /// of placement cannot leave on this board (on a full board, nothing
    /// was removed since placement ended, so the owed removals must be
    /// exactly what the formations on the board earned).
    #[error("'{owed}' cannot be owed on this board when placement ends under {capture} capture")]
    OwedNotFromPlacement {
        /// The owed removals given.
        owed: Owed,
        /// The placement capture of the rules.
        capture: PlacementCapture,
    },
    /// The previous steps do not fit the turn: Second steps first and the
    /// sides alternate.
    #[error(
        "the previous steps do not fit the turn: second steps first, then the sides alternate"
    )]
    StepsOutOfTurn,
    /// A previous step that the board contradicts: after its step a side's
    /// piece stands on the point entered unless a removal took it, and
    /// the point left is empty unless the other side stepped into it
    /// since.
    #[error("{side}'s previous step {}-{} does not match the board", .step.from, .step.to)]
    LastStepOffBoard {
        /// The side that made it.
        side: Side,
        /// The step.
        step: LastStep,
    },
    /// Quiet plies in the movement phase before any step.
    #[error("the quiet count is {plies}, but no side has stepped yet")]
    QuietWithoutSteps {
        /// The count.
        plies: u16,
    },
    /// The owed removals and the quiet count do not follow from the last
    /// step: the step leaves what it earns owed (quiet count above 0), and
    /// a quiet count of 0 says that one of its removals was taken.
    #[error(
        "{side}'s step {}-{} earns {value} removal(s): the owed removals and the quiet count do not follow from it",
        .step.from,
        .step.to
    )]
    OwedNotFromStep {
        /// The side that stepped last.
        side: Side,
        /// Its step.
        step: LastStep,
        /// The removals the step earns on the board as it stands.
        value: u8,
    },
}

/// The one wording of a hand larger than the rules allow, for the setup
/// and for a hand the position text cannot even hold in a `u8`.
pub(crate) fn hand_too_large(side: Side, hand: impl std::fmt::Display, max: u8) -> String {
    format!("{side} holds {hand} pieces, more than {max}")
}

impl SetupError {
    /// The field of the position text the error is about.
    ///
    /// ```
    /// use qi_five_tigers::{Field, Rules, Setup};
    ///
    /// let rules = Rules::shandong();
    /// let err = Setup::start(rules).no_capture_plies(3).into_position(rules).unwrap_err();
    /// assert_eq!(err.field(), Field::Quiet);
    /// ```
    pub const fn field(&self) -> Field {
        match self {
            SetupError::OwedTwiceInARow { .. }
            | SetupError::OwedAfterLoss
            | SetupError::OwedFromEmptyBoard { .. } => Field::Owed,
            SetupError::LastStepNotAdjacent { .. } | SetupError::StepInPlacement => {
                Field::LastSteps
            }
            SetupError::HandTooLarge { .. } | SetupError::HandsInMovement { .. } => Field::Hands,
            SetupError::TooManyPieces { .. } | SetupError::NoPieces => Field::Board,
            SetupError::PlacementWithEmptyHands | SetupError::PlacementOnFullBoard => Field::Phase,
            SetupError::NextHandEmpty { .. } => Field::Next,
            SetupError::QuietPliesInPlacement { .. } => Field::Quiet,
            SetupError::WrongSideToMove { .. } => Field::ToMove,
            SetupError::PlacedOutOfTurn { .. } => Field::Hands,
            SetupError::NextOutOfTurn { .. } => Field::Next,
            SetupError::RemovedInDeferredPlacement { .. }
            | SetupError::RemovedBeforeFormation { .. } => Field::Board,
            SetupError::OwedInDeferredPlacement
            | SetupError::TwoOwedInPlacement
            | SetupError::OwedNotToLastPlacer { .. }
            | SetupError::OwedWithoutFormation { .. }
            | SetupError::UnpaidFormations { .. }
            | SetupError::FullBoardNothingOwed
            | SetupError::OwedNotFromPlacement { .. }
            | SetupError::OwedNotFromStep { .. } => Field::Owed,
            SetupError::StepsOutOfTurn | SetupError::LastStepOffBoard { .. } => Field::LastSteps,
            SetupError::QuietWithoutSteps { .. } => Field::Quiet,
        }
    }
}
