//! Why a setup is not a position, and the field of the position text
//! each reason is reported on.

use std::fmt;

use qi_core::Side;
use thiserror::Error;

use super::{side_char, LastStep, Owed};
use crate::point::not_adjacent;
use crate::rules::PlacementCapture;

/// A field of the position text.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Field {
    /// The board (`5/5/5/5/5`).
    Board,
    /// The side to move (`x` or `o`).
    ToMove,
    /// The phase (`place` or `move`).
    Phase,
    /// The pieces in hand (`X:13,O:13`).
    Hands,
    /// The removals owed (`-`, `x2`, `x2,o3`).
    Owed,
    /// The side with the regular turn (`x` or `o`).
    Next,
    /// The previous steps (`-,-`, `c3-c4,-`).
    LastSteps,
    /// The quiet-ply count.
    Quiet,
}

impl Field {
    /// The name used in error messages.
    pub const fn name(self) -> &'static str {
        match self {
            Field::Board => "board",
            Field::ToMove => "to-move",
            Field::Phase => "phase",
            Field::Hands => "hands",
            Field::Owed => "owed",
            Field::Next => "next",
            Field::LastSteps => "last-steps",
            Field::Quiet => "quiet",
        }
    }
}

impl fmt::Display for Field {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// Why a [`Setup`](crate::Setup) is not a valid position: its fields do not agree with
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
#[cfg_attr(
    feature = "serde",
    derive(serde::Serialize),
    serde(tag = "code", content = "fields")
)]
pub enum SetupError {
    /// Two owed entries in a row for one side (they would be one entry).
    #[error("two entries in a row for one side")]
    #[cfg_attr(feature = "serde", serde(rename = "ft-setup.owed-twice-in-a-row"))]
    OwedTwiceInARow {
        /// The side of both entries.
        side: Side,
    },
    /// A previous step that is not a step to an adjacent point.
    #[error("{}", not_adjacent(.step.from, .step.to))]
    #[cfg_attr(feature = "serde", serde(rename = "ft-setup.last-step-not-adjacent"))]
    LastStepNotAdjacent {
        /// The side that made it.
        side: Side,
        /// The step.
        step: LastStep,
    },
    /// A side holds more pieces in hand than the rules give it.
    #[error("{}", hand_too_large(*.side, .hand, *.max))]
    #[cfg_attr(feature = "serde", serde(rename = "ft-setup.hand-too-large"))]
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
    #[cfg_attr(feature = "serde", serde(rename = "ft-setup.too-many-pieces"))]
    TooManyPieces {
        /// The side.
        side: Side,
        /// The pieces per side of the rules.
        max: u8,
    },
    /// Neither side has a piece, on the board or in hand.
    #[error("neither side has a piece")]
    #[cfg_attr(feature = "serde", serde(rename = "ft-setup.no-pieces"))]
    NoPieces,
    /// Placement with both hands empty (it has ended).
    #[error("placement with both hands empty has ended")]
    #[cfg_attr(
        feature = "serde",
        serde(rename = "ft-setup.placement-with-empty-hands")
    )]
    PlacementWithEmptyHands,
    /// Placement on a full board (it has ended).
    #[error("placement on a full board has ended")]
    #[cfg_attr(feature = "serde", serde(rename = "ft-setup.placement-on-full-board"))]
    PlacementOnFullBoard,
    /// In placement, the next side has an empty hand (it would be skipped).
    #[error("a side with an empty hand is skipped in placement")]
    #[cfg_attr(feature = "serde", serde(rename = "ft-setup.next-hand-empty"))]
    NextHandEmpty {
        /// The next side.
        next: Side,
    },
    /// Quiet plies counted in placement (only movement plies count).
    #[error("no movement ply during placement")]
    #[cfg_attr(feature = "serde", serde(rename = "ft-setup.quiet-plies-in-placement"))]
    QuietPliesInPlacement {
        /// The count.
        plies: u16,
    },
    /// A previous step in placement.
    #[error("no step during placement")]
    #[cfg_attr(feature = "serde", serde(rename = "ft-setup.step-in-placement"))]
    StepInPlacement,
    /// Pieces in hand in the movement phase.
    #[error("both hands are 0 once placement has ended")]
    #[cfg_attr(feature = "serde", serde(rename = "ft-setup.hands-in-movement"))]
    HandsInMovement {
        /// The hands, First's first.
        hands: [u8; 2],
    },
    /// Removals owed while a side has no piece left (they are dropped).
    #[error("nothing is owed once a side has no pieces")]
    #[cfg_attr(feature = "serde", serde(rename = "ft-setup.owed-after-loss"))]
    OwedAfterLoss,
    /// Removals owed from a side with no piece on the board (they are
    /// dropped).
    #[error("removals owed from a side with no piece on the board are dropped")]
    #[cfg_attr(feature = "serde", serde(rename = "ft-setup.owed-from-empty-board"))]
    OwedFromEmptyBoard {
        /// The side the removals would be taken from.
        victim: Side,
    },
    /// The side to move is not the one the other fields decide.
    #[error("'{}' should be '{}'", side_char(*.found), side_char(*.expected))]
    #[cfg_attr(feature = "serde", serde(rename = "ft-setup.wrong-side-to-move"))]
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
    #[cfg_attr(feature = "serde", serde(rename = "ft-setup.placed-out-of-turn"))]
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
    #[cfg_attr(feature = "serde", serde(rename = "ft-setup.next-out-of-turn"))]
    NextOutOfTurn {
        /// The next side given.
        found: Side,
        /// The side whose turn it is.
        expected: Side,
    },
    /// Removals owed during placement under deferred capture.
    #[error("nothing is owed during placement under deferred capture")]
    #[cfg_attr(
        feature = "serde",
        serde(rename = "ft-setup.owed-in-deferred-placement")
    )]
    OwedInDeferredPlacement,
    /// Pieces taken before placement ended under deferred capture.
    #[error(
        "{side} has lost {lost} piece(s), but nothing is taken before placement ends under deferred capture"
    )]
    #[cfg_attr(
        feature = "serde",
        serde(rename = "ft-setup.removed-in-deferred-placement")
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
    #[cfg_attr(feature = "serde", serde(rename = "ft-setup.two-owed-in-placement"))]
    TwoOwedInPlacement,
    /// Removals owed during placement to the side that did not place last.
    #[error("{taker} is owed removals during placement, but the other side placed last")]
    #[cfg_attr(feature = "serde", serde(rename = "ft-setup.owed-not-to-last-placer"))]
    OwedNotToLastPlacer {
        /// The side owed the removals.
        taker: Side,
    },
    /// More removals owed for one move than the formations through any
    /// one of the taker's pieces.
    #[error(
        "{taker} is owed {count} removal(s), more than the formations it holds through any one of its pieces"
    )]
    #[cfg_attr(feature = "serde", serde(rename = "ft-setup.owed-without-formation"))]
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
    #[cfg_attr(feature = "serde", serde(rename = "ft-setup.unpaid-formations"))]
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
    #[cfg_attr(feature = "serde", serde(rename = "ft-setup.removed-before-formation"))]
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
    #[cfg_attr(feature = "serde", serde(rename = "ft-setup.full-board-nothing-owed"))]
    FullBoardNothingOwed,
    /// Owed removals in the movement phase, before any step, that the end
    /// of placement cannot leave on this board (on a full board, nothing
    /// was removed since placement ended, so the owed removals must be
    /// exactly what the formations on the board earned).
    #[error("'{owed}' cannot be owed on this board when placement ends under {capture} capture")]
    #[cfg_attr(feature = "serde", serde(rename = "ft-setup.owed-not-from-placement"))]
    OwedNotFromPlacement {
        /// The owed removals given.
        #[cfg_attr(
            feature = "serde",
            serde(serialize_with = "qi_core::serde_text::serialize_text")
        )]
        owed: Owed,
        /// The placement capture of the rules.
        #[cfg_attr(
            feature = "serde",
            serde(serialize_with = "qi_core::serde_text::serialize_text")
        )]
        capture: PlacementCapture,
    },
    /// The previous steps do not fit the turn: Second steps first and the
    /// sides alternate.
    #[error(
        "the previous steps do not fit the turn: second steps first, then the sides alternate"
    )]
    #[cfg_attr(feature = "serde", serde(rename = "ft-setup.steps-out-of-turn"))]
    StepsOutOfTurn,
    /// A previous step that the board contradicts: after its step a side's
    /// piece stands on the point entered unless a removal took it, and
    /// the point left is empty unless the other side stepped into it
    /// since.
    #[error("{side}'s previous step {}-{} does not match the board", .step.from, .step.to)]
    #[cfg_attr(feature = "serde", serde(rename = "ft-setup.last-step-off-board"))]
    LastStepOffBoard {
        /// The side that made it.
        side: Side,
        /// The step.
        step: LastStep,
    },
    /// Quiet plies in the movement phase before any step.
    #[error("the quiet count is {plies}, but no side has stepped yet")]
    #[cfg_attr(feature = "serde", serde(rename = "ft-setup.quiet-without-steps"))]
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
    #[cfg_attr(feature = "serde", serde(rename = "ft-setup.owed-not-from-step"))]
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
