//! [`Setup`]: the plain contents of a position and the types of its
//! fields, to build custom positions and to stand between the position
//! text and [`FiveTigers`](crate::FiveTigers).

use qi_core::{Bitboard32, Side};

use crate::point::Point;

mod error;
mod validate;

pub(crate) use error::hand_too_large;
pub use error::{Field, SetupError};

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
/// [`FiveTigers`](crate::FiveTigers).
///
/// Build one from [`Setup::empty`] or [`Setup::start`] with the chaining
/// methods (or by writing the public fields), then validate it with
/// [`Setup::into_position`] (the same as [`FiveTigers::from_setup`](crate::FiveTigers::from_setup)). Its
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
}

/// `x` for First, `o` for Second.
pub(crate) const fn side_char(side: Side) -> char {
    match side {
        Side::First => 'x',
        Side::Second => 'o',
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
