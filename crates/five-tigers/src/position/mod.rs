//! The position: boards, hands, phase, removal obligations, and the whole
//! state machine of sections 3–7.

use qi_core::zobrist::table;
use qi_core::{Bitboard32, Side};

use crate::formation::{held_mask, loose_pieces};
use crate::point::{Move, Point, ALL_POINTS};
use crate::rules::{Rules, RulesError, Shuttle};
use crate::setup::{LastStep, Owed, Phase};

mod play;
mod setup;

/// How much of a setup is checked when it becomes a position.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Check {
    /// The fields agree with each other (the lenient readers).
    Consistent,
    /// The fields agree and some game can reach the position.
    Reachable,
}

const BOARD_KEYS: [u64; 50] = table(0x5F1E_7164_E25A_0001);

/// [`BOARD_KEYS`] as one row of 32 per side (same keys, zero padding), so
/// that a masked index needs no bounds check.
const KEYS: [[u64; 32]; 2] = {
    let mut t = [[0u64; 32]; 2];
    let mut i = 0;
    while i < 50 {
        t[i / 25][i % 25] = BOARD_KEYS[i];
        i += 1;
    }
    t
};
const STATE_SALT: u64 = 0xA076_1D64_78BD_642F;

/// A Five Tigers position: the eight fields of the position text (section
/// 9) plus the rules and the incremental hash.
///
/// Small and `Copy` (48 bytes): play by copy-make. The `Display` form is
/// the position text (with the rules when they are not the default ones);
/// `FromStr` reads it back and [`FiveTigers::from_text`] reads the text
/// under rules given apart. `Debug` is the text too: `FiveTigers(5/5/…)`.
///
/// ```
/// use qi_games::prelude::*;
///
/// let pos = FiveTigers::default();
/// assert_eq!(format!("{pos:?}"), "FiveTigers(5/5/5/5/5 x place X:13,O:13 - x -,- 0)");
/// assert_eq!(pos.to_string().parse::<FiveTigers>()?, pos);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct FiveTigers {
    boards: [Bitboard32; 2],
    hands: [u8; 2],
    phase: Phase,
    to_move: Side,
    next: Side,
    owed: Owed,
    last: [Option<LastStep>; 2],
    quiet: u16,
    key: u64,
    rules: Rules,
}

impl std::fmt::Debug for FiveTigers {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "FiveTigers({self})")
    }
}

impl Default for FiveTigers {
    fn default() -> FiveTigers {
        FiveTigers::new(Rules::default())
    }
}

impl FiveTigers {
    /// The empty board at the start of placement, First to move, both hands
    /// full. The rules are taken as given (never panics); use
    /// [`FiveTigers::try_new`] to have them validated.
    ///
    /// ```
    /// use qi_core::{Position as _, Side};
    /// use qi_five_tigers::{FiveTigers, Rules};
    ///
    /// let pos = FiveTigers::new(Rules::shandong());
    /// assert_eq!(pos.hand(Side::First), 13);
    /// assert_eq!(pos.legal_moves().len(), 25);
    /// ```
    pub fn new(rules: Rules) -> FiveTigers {
        let mut pos = FiveTigers {
            boards: [Bitboard32::EMPTY; 2],
            hands: [rules.pieces_per_side; 2],
            phase: Phase::Placement,
            to_move: Side::First,
            next: Side::First,
            owed: Owed::NONE,
            last: [None; 2],
            quiet: 0,
            key: 0,
            rules,
        };
        if rules.pieces_per_side == 0 {
            // Nothing to place: the placement ends at once.
            pos.end_placement();
            pos.settle();
        }
        pos
    }

    /// The start position under validated rules.
    ///
    /// ```
    /// use qi_five_tigers::{FiveTigers, Rules};
    ///
    /// assert!(FiveTigers::try_new(Rules::ten()).is_ok());
    /// let mut rules = Rules::shandong();
    /// rules.pieces_per_side = 0;
    /// assert!(FiveTigers::try_new(rules).is_err());
    /// ```
    pub fn try_new(rules: Rules) -> Result<FiveTigers, RulesError> {
        rules.validate()?;
        Ok(FiveTigers::new(rules))
    }

    /// The rules.
    ///
    /// ```
    /// use qi_five_tigers::{FiveTigers, Rules};
    ///
    /// assert_eq!(FiveTigers::new(Rules::ten()).rules().pieces_per_side, 10);
    /// ```
    pub fn rules(&self) -> &Rules {
        &self.rules
    }

    /// The points `side`'s pieces stand on.
    #[inline(always)]
    ///
    /// ```
    /// use qi_core::{Position as _, Side};
    /// use qi_five_tigers::{FiveTigers, Rules};
    ///
    /// let mut pos = FiveTigers::new(Rules::shandong());
    /// pos.play("c3".parse().unwrap()).unwrap();
    /// assert_eq!(pos.pieces(Side::First).count(), 1);
    /// assert!(pos.pieces(Side::First).contains(12)); // c3 = rank 2 * 5 + file 2
    /// ```
    pub fn pieces(&self, side: Side) -> Bitboard32 {
        self.boards[side.index()]
    }

    /// The empty points.
    #[inline(always)]
    ///
    /// ```
    /// use qi_core::{Position as _, Side};
    /// use qi_five_tigers::{FiveTigers, Rules};
    ///
    /// let mut pos = FiveTigers::new(Rules::shandong());
    /// assert_eq!(pos.empty().count(), 25);
    /// pos.play("c3".parse().unwrap()).unwrap();
    /// assert_eq!(pos.empty().count(), 24);
    /// ```
    pub fn empty(&self) -> Bitboard32 {
        ALL_POINTS - (self.boards[0] | self.boards[1])
    }

    /// The side whose piece stands on `point`, if any.
    ///
    /// ```
    /// use qi_core::{Position as _, Side};
    /// use qi_five_tigers::{FiveTigers, Rules};
    ///
    /// let pt = |t: &str| -> qi_five_tigers::Point { t.parse().unwrap() };
    /// let mut pos = FiveTigers::new(Rules::shandong());
    /// pos.play("c3".parse().unwrap()).unwrap();
    /// assert_eq!(pos.piece_at(pt("c3")), Some(Side::First));
    /// assert_eq!(pos.piece_at(pt("c4")), None);
    /// ```
    pub fn piece_at(&self, point: Point) -> Option<Side> {
        Side::BOTH
            .into_iter()
            .find(|s| self.boards[s.index()].contains(point.index()))
    }

    /// The pieces `side` still has in hand.
    ///
    /// ```
    /// use qi_core::{Position as _, Side};
    /// use qi_five_tigers::{FiveTigers, Rules};
    ///
    /// let mut pos = FiveTigers::new(Rules::ten());
    /// pos.play("c3".parse().unwrap()).unwrap();
    /// assert_eq!((pos.hand(Side::First), pos.hand(Side::Second)), (9, 10));
    /// ```
    pub fn hand(&self, side: Side) -> u8 {
        self.hands[side.index()]
    }

    /// The pieces `side` has in all (board and hand).
    ///
    /// ```
    /// use qi_core::{Position as _, Side};
    /// use qi_five_tigers::{FiveTigers, Rules};
    ///
    /// let mut pos = FiveTigers::new(Rules::shandong());
    /// pos.play("c3".parse().unwrap()).unwrap();
    /// assert_eq!(pos.material(Side::First), 13); // 1 on the board, 12 in hand
    /// ```
    pub fn material(&self, side: Side) -> u32 {
        self.boards[side.index()].count() + self.hands[side.index()] as u32
    }

    /// The phase.
    ///
    /// ```
    /// use qi_core::{Position as _, Side};
    /// use qi_five_tigers::{FiveTigers, Phase, Rules};
    ///
    /// assert_eq!(FiveTigers::new(Rules::shandong()).phase(), Phase::Placement);
    /// let pos = FiveTigers::from_text("5/5/2O2/5/X4 o move X:0,O:0 - o -,- 0", Rules::shandong()).unwrap();
    /// assert_eq!(pos.phase(), Phase::Movement);
    /// ```
    pub fn phase(&self) -> Phase {
        self.phase
    }

    /// The removal obligations still owed.
    ///
    /// ```
    /// use qi_core::{Position as _, Side};
    /// use qi_five_tigers::{FiveTigers, Rules};
    ///
    /// let mut pos = FiveTigers::new(Rules::shandong());
    /// for mv in ["a1", "e5", "b1", "e4", "a2", "d5", "b2"] {
    ///     pos.play(mv.parse().unwrap()).unwrap();
    /// }
    /// // b2 completed First's small square a1-b1-a2-b2: one removal owed.
    /// assert_eq!(pos.owed().iter().collect::<Vec<_>>(), [(Side::First, 1)]);
    /// assert_eq!(pos.side_to_move(), Side::First);
    /// assert!(pos.legal_moves().iter().all(|mv| mv.is_removal()));
    /// ```
    pub fn owed(&self) -> Owed {
        self.owed
    }

    /// The side with the regular turn once nothing is owed.
    ///
    /// ```
    /// use qi_core::{Position as _, Side};
    /// use qi_five_tigers::{FiveTigers, Rules};
    ///
    /// let mut pos = FiveTigers::new(Rules::shandong());
    /// for mv in ["a1", "e5", "b1", "e4", "a2", "d5", "b2"] {
    ///     pos.play(mv.parse().unwrap()).unwrap();
    /// }
    /// // First removes now; then Second has its regular turn.
    /// assert_eq!(pos.side_to_move(), Side::First);
    /// assert_eq!(pos.next(), Side::Second);
    /// ```
    pub fn next(&self) -> Side {
        self.next
    }

    /// `side`'s previous step (movement phase), for the shuttle rule.
    ///
    /// ```
    /// use qi_core::{Position as _, Side};
    /// use qi_five_tigers::{FiveTigers, LastStep, Rules};
    ///
    /// let mut pos = FiveTigers::from_text("5/5/2O2/5/X4 o move X:0,O:0 - o -,- 0", Rules::shandong()).unwrap();
    /// assert_eq!(pos.last_step(Side::Second), None);
    /// pos.play("c3-c4".parse().unwrap()).unwrap();
    /// let step = LastStep { from: "c3".parse().unwrap(), to: "c4".parse().unwrap() };
    /// assert_eq!(pos.last_step(Side::Second), Some(step));
    /// ```
    pub fn last_step(&self, side: Side) -> Option<LastStep> {
        self.last[side.index()]
    }

    /// Plies of the movement phase since the last removal (the position
    /// text's quiet count).
    ///
    /// ```
    /// use qi_core::{Position as _, Side};
    /// use qi_five_tigers::{FiveTigers, Rules};
    ///
    /// let mut pos = FiveTigers::from_text("5/5/2O2/5/X4 o move X:0,O:0 - o -,- 0", Rules::shandong()).unwrap();
    /// pos.play("c3-c4".parse().unwrap()).unwrap();
    /// assert_eq!(pos.no_capture_plies(), 1);
    /// ```
    pub fn no_capture_plies(&self) -> u32 {
        u32::from(self.quiet)
    }

    /// The loose pieces (散子) of `side`.
    ///
    /// ```
    /// use qi_core::{Position as _, Side};
    /// use qi_five_tigers::{FiveTigers, Rules};
    ///
    /// let mut pos = FiveTigers::new(Rules::shandong());
    /// for mv in ["a1", "e5", "b1", "e4", "a2", "d5", "b2"] {
    ///     pos.play(mv.parse().unwrap()).unwrap();
    /// }
    /// assert_eq!(pos.loose(Side::First).count(), 0); // all four in the square
    /// assert_eq!(pos.loose(Side::Second).count(), 3);
    /// ```
    pub fn loose(&self, side: Side) -> Bitboard32 {
        loose_pieces(self.boards[side.index()])
    }

    /// The points of `side`'s pieces that belong to a formation it holds.
    ///
    /// ```
    /// use qi_core::{Position as _, Side};
    /// use qi_five_tigers::{FiveTigers, Rules};
    ///
    /// let mut pos = FiveTigers::new(Rules::shandong());
    /// for mv in ["a1", "e5", "b1", "e4", "a2", "d5", "b2"] {
    ///     pos.play(mv.parse().unwrap()).unwrap();
    /// }
    /// assert_eq!(pos.held(Side::First).count(), 4);
    /// assert!(pos.held(Side::Second).is_empty());
    /// ```
    pub fn held(&self, side: Side) -> Bitboard32 {
        held_mask(self.boards[side.index()])
    }

    /// The step `side` may not play next under the shuttle rule, if any.
    ///
    /// ```
    /// use qi_core::{Position as _, Side};
    /// use qi_five_tigers::{FiveTigers, Rules};
    ///
    /// let text = "5/5/2O2/5/X4 o move X:0,O:0 - o -,- 0";
    /// // Shuttling is forbidden by default: a step may not be undone at once.
    /// let mut pos = FiveTigers::from_text(text, Rules::shandong()).unwrap();
    /// pos.play("c3-c4".parse().unwrap()).unwrap();
    /// assert_eq!(pos.forbidden_step(Side::Second), Some("c4-c3".parse().unwrap()));
    /// let mut pos = FiveTigers::from_text(text, Rules::shandong_shuttle()).unwrap();
    /// pos.play("c3-c4".parse().unwrap()).unwrap();
    /// assert_eq!(pos.forbidden_step(Side::Second), None);
    /// ```
    pub fn forbidden_step(&self, side: Side) -> Option<Move> {
        if self.rules.shuttle == Shuttle::Allowed {
            return None;
        }
        self.last[side.index()].map(|l| Move::Step {
            from: l.to,
            to: l.from,
        })
    }
}

#[cfg(test)]
mod size_tests {
    #[test]
    fn position_is_small() {
        let size = std::mem::size_of::<super::FiveTigers>();
        assert!(size <= 48, "{size} bytes");
    }
}
