//! Un-moves: the quiet steps that can have led to a position, for
//! retrograde analysis (a tablebase generator walks them backwards).
//! A step that forms a formation is followed by removals, so it never
//! leads straight to a position with the other side to move: a generator
//! reaches those positions from the smaller materials. [`quiet_unsteps`]
//! is the board rule every generator calls on its own index;
//! [`FiveTigers::quiet_unmoves`] and [`FiveTigers::unplay_quiet`] give it
//! on positions.

use qi_core::{Bitboard32, MoveList, Position, Side};

use crate::formation::THROUGH;
use crate::point::{Move, Point, NEIGHBOURS};
use crate::position::FiveTigers;
use crate::rules::Shuttle;
use crate::setup::{LastStep, Phase};

/// Calls `each(from, to)` (point indices) for every quiet step that can
/// have led a side to its pieces `pieces` on a board whose empty points
/// are `empty`: a piece on `to` that holds no formation through `to`
/// worth anything under `values` ([`Rules::values`](crate::Rules::values)),
/// stepped there from an empty neighbour `from`. With `last`, the side's
/// last step is known (the shuttle ban records it): only that step, if it
/// is quiet and fits the board.
///
/// ```
/// use qi_core::Side;
/// use qi_five_tigers::{quiet_unsteps, FiveTigers, Point, Rules};
///
/// // O on c3 and e5, X to move: O stepped onto c3 or e5 from an empty
/// // neighbour.
/// let text = "4O/5/2O2/5/X4 x move X:0,O:0 - x -,- 0";
/// let pos = FiveTigers::from_text_lenient(text, Rules::shandong_shuttle()).unwrap();
/// let mut steps = Vec::new();
/// quiet_unsteps(pos.pieces(Side::Second), pos.empty(), &pos.rules().values(), None, |from, to| {
///     steps.push(format!("{}-{}", Point::new(from).unwrap(), Point::new(to).unwrap()));
/// });
/// assert_eq!(steps, ["c2-c3", "b3-c3", "d3-c3", "c4-c3", "e4-e5", "d5-e5"]);
/// ```
#[inline(always)]
pub fn quiet_unsteps(
    pieces: Bitboard32,
    empty: Bitboard32,
    values: &[u8; 5],
    last: Option<LastStep>,
    mut each: impl FnMut(u8, u8),
) {
    let quiet = |to: u8| THROUGH[usize::from(to)].value_held(pieces, values) == 0;
    if let Some(l) = last {
        let (from, to) = (l.from.index(), l.to.index());
        if pieces.contains(to) && empty.contains(from) && quiet(to) {
            each(from, to);
        }
        return;
    }
    for to in pieces {
        if !quiet(to) {
            continue;
        }
        for from in NEIGHBOURS[usize::from(to)] & empty {
            each(from, to);
        }
    }
}

impl FiveTigers {
    /// Appends to `out` the quiet steps that can have led to this
    /// position: steps of the side that just moved (the opponent of the
    /// side to move) that formed nothing, each legal in the position
    /// [`unplay_quiet`](FiveTigers::unplay_quiet) gives back. None in the
    /// placement phase, with removals owed, or with a side out of pieces
    /// (the game was over before). When the shuttle is
    /// forbidden the position records the side's last step, the only one
    /// it can have made (none recorded: it has not stepped); when allowed,
    /// every quiet step back is one.
    ///
    /// ```
    /// use qi_core::{MoveList, Position};
    /// use qi_five_tigers::{FiveTigers, Rules};
    ///
    /// let mut pos = FiveTigers::from_text("5/5/2O2/5/X4 o move X:0,O:0 - o -,- 0", Rules::shandong()).unwrap();
    /// pos.play("c3-c4".parse().unwrap()).unwrap();
    /// let mut unmoves = MoveList::new();
    /// pos.quiet_unmoves(&mut unmoves);
    /// assert_eq!(unmoves.iter().map(|m| m.to_string()).collect::<Vec<_>>(), ["c3-c4"]);
    /// let mut before = pos.unplay_quiet(unmoves[0]).unwrap();
    /// before.play(unmoves[0]).unwrap();
    /// assert_eq!(before.pieces(qi_core::Side::Second), pos.pieces(qi_core::Side::Second));
    /// ```
    pub fn quiet_unmoves(&self, out: &mut MoveList<Move>) {
        if !self.may_follow_a_step() {
            return;
        }
        let mover = self.side_to_move().opponent();
        let last = match self.rules().shuttle {
            Shuttle::Allowed => None,
            Shuttle::Forbidden => match self.last_step(mover) {
                Some(l) => Some(l),
                None => return,
            },
        };
        let values = self.rules().values();
        quiet_unsteps(
            self.pieces(mover),
            self.empty(),
            &values,
            last,
            |from, to| {
                out.push(Move::Step {
                    from: Point::from_index(from),
                    to: Point::from_index(to),
                })
            },
        );
    }

    /// Whether a quiet step can have led here: the movement phase,
    /// nothing owed, and both sides with a piece (else the position
    /// before was over already: no step was played from it).
    fn may_follow_a_step(&self) -> bool {
        let out = |side: Side| self.pieces(side).is_empty() && self.hand(side) == 0;
        self.phase() == Phase::Movement
            && self.owed().is_empty()
            && !out(Side::First)
            && !out(Side::Second)
    }

    /// The position before the quiet step `mv` of the side that just moved
    /// ([`quiet_unmoves`](FiveTigers::quiet_unmoves)): its piece back on
    /// `from`, that side to move, its own last step unknown (none
    /// recorded), the no-capture count one less. `None` when `mv` is not
    /// such a step: not a step, not onto a piece of that side, not from
    /// an empty point, forming a formation, not legal in the position
    /// before, or where [`quiet_unmoves`](FiveTigers::quiet_unmoves)
    /// gives none.
    pub fn unplay_quiet(&self, mv: Move) -> Option<FiveTigers> {
        let Move::Step { from, to } = mv else {
            return None;
        };
        if !self.may_follow_a_step() {
            return None;
        }
        let mover: Side = self.side_to_move().opponent();
        if self.piece_at(to) != Some(mover) || self.piece_at(from).is_some() {
            return None;
        }
        let setup = self
            .to_setup()
            .set(to, None)
            .set(from, Some(mover))
            .side_to_move(mover)
            .next(mover)
            .last_step(mover, None)
            .no_capture_plies(
                u16::try_from(self.no_capture_plies().saturating_sub(1)).unwrap_or(u16::MAX),
            );
        let before = FiveTigers::from_setup_lenient(setup, *self.rules()).ok()?;
        let mut after = before;
        if !before.is_legal_move(mv) {
            return None;
        }
        after.play_unchecked(mv);
        (after.owed().is_empty() && after.pieces(mover) == self.pieces(mover)).then_some(before)
    }
}
