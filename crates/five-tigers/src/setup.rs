//! [`Setup`]: the plain contents of a position and the types of its
//! fields, to build custom positions and to stand between the position
//! text and [`FiveTigers`].

use qi_core::{Bitboard32, Side};
use thiserror::Error;

use crate::formation::loose_pieces;
use crate::point::{Point, ALL_POINTS};
use crate::position::FiveTigers;
use crate::rules::Rules;
use crate::text::{side_char, Field};

/// The two phases of the game.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "snake_case"))]
pub enum Phase {
    /// Phase one, 布子: pieces are placed from hand (text `place`).
    Placement,
    /// Phase two, 行子: pieces step (text `move`).
    Movement,
}

/// The removal obligations still owed, in order: at most two entries, each
/// a side and a positive count (`x2,o3` in position text: First takes 2 of
/// Second's pieces, then Second takes 3 of First's).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub struct Owed {
    counts: [u8; 2],
    sides: [u8; 2],
}

impl Owed {
    /// No obligation.
    pub const NONE: Owed = Owed {
        counts: [0; 2],
        sides: [0; 2],
    };

    /// Whether nothing is owed.
    #[inline(always)]
    pub const fn is_empty(&self) -> bool {
        self.counts[0] == 0
    }

    /// The obligation being taken now: the side owed the removals and how
    /// many it is still owed.
    #[inline(always)]
    pub const fn first(&self) -> Option<(Side, u8)> {
        if self.counts[0] == 0 {
            None
        } else {
            Some((side_of(self.sides[0]), self.counts[0]))
        }
    }

    /// The obligations in order.
    pub fn iter(&self) -> impl Iterator<Item = (Side, u8)> + '_ {
        (0..2)
            .filter(|&i| self.counts[i] > 0)
            .map(|i| (side_of(self.sides[i]), self.counts[i]))
    }

    /// The number of entries (0, 1 or 2).
    pub fn len(&self) -> usize {
        self.counts.iter().filter(|&&c| c > 0).count()
    }

    /// The obligations from a list of at most two entries of positive count
    /// (`None` otherwise).
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
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
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
///     .into_position(&rules)
///     .unwrap();
/// assert_eq!(pos, FiveTigers::from_text("5/5/2O2/5/X4 o move X:0,O:0 - o -,- 0", &rules).unwrap());
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
    pub fn start(rules: &Rules) -> Setup {
        FiveTigers::new(*rules).to_setup()
    }

    /// The setup with a piece of `side` on `point` (replacing what stood
    /// there).
    pub const fn place(self, point: Point, side: Side) -> Setup {
        self.set(point, Some(side))
    }

    /// The setup with `point` holding a piece of `side`, or emptied by
    /// `None`.
    pub const fn set(mut self, point: Point, side: Option<Side>) -> Setup {
        self.board[point.index() as usize] = side;
        self
    }

    /// The setup with `side` holding `pieces` in hand.
    pub const fn hand(mut self, side: Side, pieces: u8) -> Setup {
        self.hands[side.index()] = pieces;
        self
    }

    /// The setup in `phase`.
    pub const fn phase(mut self, phase: Phase) -> Setup {
        self.phase = phase;
        self
    }

    /// The setup with `side` to move.
    pub const fn side_to_move(mut self, side: Side) -> Setup {
        self.side_to_move = side;
        self
    }

    /// The setup with `side` having the regular turn.
    pub const fn next(mut self, side: Side) -> Setup {
        self.next = side;
        self
    }

    /// The setup owing `owed`.
    pub const fn owed(mut self, owed: Owed) -> Setup {
        self.owed = owed;
        self
    }

    /// The setup with `step` as `side`'s previous step.
    pub const fn last_step(mut self, side: Side, step: Option<LastStep>) -> Setup {
        self.last_steps[side.index()] = step;
        self
    }

    /// The setup with `plies` quiet plies.
    pub const fn no_capture_plies(mut self, plies: u16) -> Setup {
        self.no_capture_plies = plies;
        self
    }

    /// The side whose piece stands on `point`, if any.
    pub const fn piece_at(&self, point: Point) -> Option<Side> {
        self.board[point.index() as usize]
    }

    /// The points `side`'s pieces stand on.
    pub fn pieces(&self, side: Side) -> Bitboard32 {
        Point::all()
            .filter(|&p| self.piece_at(p) == Some(side))
            .map(Point::index)
            .collect()
    }

    /// The position under `rules`, if the setup is valid (see
    /// [`SetupError`] for what is checked); the same as
    /// [`FiveTigers::from_setup`].
    pub fn into_position(self, rules: &Rules) -> Result<FiveTigers, SetupError> {
        FiveTigers::from_setup(self, rules)
    }

    /// Checks that the fields agree with each other as they do in every
    /// position the state machine produces.
    ///
    /// The checks the position text makes after reading its fields run in
    /// the order the text reported them before it read through a setup, so
    /// that its first error stays the same; they come after the checks of
    /// what the text cannot express (it refuses those as it reads them).
    pub(crate) fn validate(&self, rules: &Rules) -> Result<(), SetupError> {
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
}

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
impl std::fmt::Debug for Setup {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Setup(\"{self}\")")
    }
}

/// Why a [`Setup`] is not a valid position: its fields do not agree with
/// each other as they do in every position the state machine produces.
/// The first problem found is reported; [`SetupError::field`] names the
/// field of the position text it is reported on.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Error)]
pub enum SetupError {
    /// Two owed entries in a row for one side (they would be one entry).
    #[error("two entries in a row for one side")]
    OwedTwiceInARow {
        /// The side of both entries.
        side: Side,
    },
    /// A previous step that is not a step to an adjacent point.
    #[error("{}-{} is not a step to an adjacent point", .step.from, .step.to)]
    LastStepNotAdjacent {
        /// The side that made it.
        side: Side,
        /// The step.
        step: LastStep,
    },
    /// A side holds more pieces in hand than the rules give it.
    #[error("{side} holds {hand} pieces, more than {max}")]
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
}

impl SetupError {
    /// The field of the position text the error is about.
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
        }
    }
}
