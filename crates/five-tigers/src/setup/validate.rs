//! Whether a setup is a position: its fields agree with each other, and
//! some game from the start position reaches it.

use qi_core::{Bitboard32, Side};

use super::{Owed, Phase, Setup, SetupError};
use crate::formation::{count_held_at, held_formations, loose_pieces, score, THROUGH};
use crate::point::ALL_POINTS;
use crate::rules::{PlacementCapture, Rules};

impl Setup {
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
