//! The state machine of sections 3–7: the moves of a position, playing
//! one, and the hash kept along.

use qi_core::zobrist::splitmix64;
use qi_core::{
    Bitboard32, IllegalMove, MoveList, MoveSpace, Outcome, Position, Refusal, Side, WinReason,
};

use super::{FiveTigers, BOARD_KEYS, KEYS, STATE_SALT};
use crate::formation::{count_held_at, loose_pieces, score, THROUGH};
use crate::point::{step_count, step_targets, Move, Point};
use crate::rules::{PlacementCapture, Rules, Shuttle};
use crate::setup::{LastStep, Owed, Phase};
use crate::text::PositionTextError;

impl FiveTigers {
    /// Whether the state of the game forbids any move because a side has
    /// no piece left.
    #[inline(always)]
    fn someone_out(&self) -> bool {
        (self.boards[0].0 == 0 && self.hands[0] == 0)
            || (self.boards[1].0 == 0 && self.hands[1] == 0)
    }

    /// The pieces the side to move may remove now (owed removals only).
    #[inline(always)]
    fn removable(&self, taker: Side) -> Bitboard32 {
        let victim = self.boards[taker.opponent().index()];
        let loose = loose_pieces(victim);
        if loose.any() {
            loose
        } else {
            victim
        }
    }

    /// Whether the forbidden shuttle step of the side to move would
    /// otherwise be a legal step.
    #[inline(always)]
    fn forbidden_is_playable(&self, own: Bitboard32, empty: Bitboard32) -> Option<LastStep> {
        if self.rules.shuttle == Shuttle::Forbidden {
            if let Some(l) = self.last[self.to_move.index()] {
                if own.contains(l.to.index())
                    && empty.contains(l.from.index())
                    && l.from.is_adjacent(l.to)
                {
                    return Some(l);
                }
            }
        }
        None
    }

    fn count_steps(&self) -> usize {
        let own = self.boards[self.to_move.index()];
        let empty = self.empty();
        let n = step_count(own, empty);
        (n as usize).saturating_sub(self.forbidden_is_playable(own, empty).is_some() as usize)
    }

    /// The board hash (incremental) mixed with the small state fields.
    #[inline]
    fn state_key(&self) -> u64 {
        let pack_last = |l: Option<LastStep>| match l {
            None => 0u64,
            Some(l) => 1 | (l.from.index() as u64) << 1 | (l.to.index() as u64) << 6,
        };
        let packed = self.hands[0] as u64
            | (self.hands[1] as u64) << 8
            | (self.phase as u64) << 16
            | (self.to_move as u64) << 17
            | (self.next as u64) << 18
            | self.owed.pack() << 19
            | pack_last(self.last[0]) << 37
            | pack_last(self.last[1]) << 48;
        splitmix64(packed ^ STATE_SALT).1
    }

    #[inline(always)]
    fn toggle(&mut self, side: Side, p: u8) {
        self.boards[side.index()].0 ^= 1 << p;
        self.key ^= KEYS[side.index() & 1][(p & 31) as usize];
    }

    pub(super) fn board_key_from_scratch(boards: &[Bitboard32; 2]) -> u64 {
        let mut k = 0;
        for side in Side::BOTH {
            for p in boards[side.index()] {
                k ^= BOARD_KEYS[side.index() * 25 + p as usize];
            }
        }
        k
    }

    /// Ends the placement phase (section 3): unplaced pieces leave, deferred
    /// scores and the opening removals of section 5 become owed, and the
    /// movement phase begins with Second to move.
    pub(super) fn end_placement(&mut self) {
        self.hands = [0, 0];
        self.phase = Phase::Movement;
        self.next = Side::Second;
        if self.rules.placement_capture == PlacementCapture::Deferred {
            let sx = score(self.boards[0], &self.rules);
            let so = score(self.boards[1], &self.rules);
            self.owed.push(Side::First, sx);
            self.owed.push(Side::Second, so);
        }
        if self.owed.is_empty() && self.empty().is_empty() {
            self.owed.push(Side::Second, 1);
            self.owed.push(Side::First, 1);
        }
    }

    /// Brings the derived fields up to date after a move: drops removals
    /// that cannot be taken, and decides who decides next.
    #[inline]
    pub(super) fn settle(&mut self) {
        if !self.owed.is_empty() && self.someone_out() {
            // A side has lost: whatever is still owed is dropped.
            self.owed = Owed::NONE;
        }
        while let Some((taker, _)) = self.owed.first() {
            let victim = taker.opponent().index();
            if self.boards[victim].0 != 0 {
                break;
            }
            // Nothing on the board to take (placement, the enemy still has
            // pieces in hand): this obligation is dropped.
            self.owed.pop();
        }
        self.to_move = match self.owed.first() {
            None => self.next,
            Some((taker, _)) => {
                if loose_pieces(self.boards[taker.opponent().index()]).any() {
                    taker
                } else {
                    taker.opponent()
                }
            }
        };
    }

    /// Whether `mv` is legal here (fast, without generating a list).
    ///
    /// ```
    /// use qi_five_tigers::{FiveTigers, Rules};
    ///
    /// let pos = FiveTigers::new(Rules::shandong());
    /// assert!(pos.is_legal_move("c3".parse().unwrap()));
    /// assert!(!pos.is_legal_move("xc3".parse().unwrap())); // nothing is owed
    /// ```
    pub fn is_legal_move(&self, mv: Move) -> bool {
        if self.someone_out() {
            return false;
        }
        match (mv, self.owed.first()) {
            (Move::Remove(p), Some((taker, _))) => self.removable(taker).contains(p.index()),
            (Move::Remove(_), None) | (_, Some(_)) => false,
            (Move::Place(p), None) => {
                self.phase == Phase::Placement && self.empty().contains(p.index())
            }
            (Move::Step { from, to }, None) => {
                self.phase == Phase::Movement
                    && from.is_adjacent(to)
                    && self.boards[self.to_move.index()].contains(from.index())
                    && self.empty().contains(to.index())
                    && self.forbidden_step(self.to_move) != Some(mv)
            }
        }
    }
}

impl Position for FiveTigers {
    type Rules = Rules;
    type Move = Move;
    type ParseError = PositionTextError;

    /// Placements `0..25`, removals `25..50`, steps `50 + from * 25 + to`.
    const MOVE_INDEX_COUNT: usize = 50 + 25 * 25;

    fn new(rules: Rules) -> FiveTigers {
        FiveTigers::new(rules)
    }

    fn from_text(text: &str, rules: Rules) -> Result<FiveTigers, PositionTextError> {
        FiveTigers::from_text(text, rules)
    }

    fn rules(&self) -> &Rules {
        &self.rules
    }

    #[inline(always)]
    fn move_index(mv: Move) -> usize {
        match mv {
            Move::Place(p) => usize::from(p.index()),
            Move::Remove(p) => 25 + usize::from(p.index()),
            Move::Step { from, to } => {
                50 + usize::from(from.index()) * 25 + usize::from(to.index())
            }
        }
    }

    fn no_capture_plies(&self) -> u32 {
        u32::from(self.quiet)
    }

    #[inline(always)]
    fn side_to_move(&self) -> Side {
        self.to_move
    }

    fn generate_moves(&self, moves: &mut MoveList<Move>) {
        if self.someone_out() {
            return;
        }
        if let Some((taker, _)) = self.owed.first() {
            for p in self.removable(taker) {
                moves.push(Move::Remove(Point::from_index(p)));
            }
            return;
        }
        match self.phase {
            Phase::Placement => {
                for p in self.empty() {
                    moves.push(Move::Place(Point::from_index(p)));
                }
            }
            Phase::Movement => {
                let own = self.boards[self.to_move.index()];
                let empty = self.empty();
                let forbidden = self.forbidden_is_playable(own, empty);
                let t = step_targets(own, empty);
                // North, South, East, West: the origin is 5 below, 5 above,
                // 1 left, 1 right of the target.
                const BACK: [i8; 4] = [-5, 5, -1, 1];
                for (targets, back) in t.into_iter().zip(BACK) {
                    for to in targets {
                        let from = Point::from_index((to as i8 + back) as u8);
                        let to = Point::from_index(to);
                        if let Some(l) = forbidden {
                            if l.to == from && l.from == to {
                                continue;
                            }
                        }
                        moves.push(Move::Step { from, to });
                    }
                }
            }
        }
    }

    #[inline]
    fn count_moves(&self) -> usize {
        if self.someone_out() {
            return 0;
        }
        if let Some((taker, _)) = self.owed.first() {
            return self.removable(taker).count() as usize;
        }
        match self.phase {
            Phase::Placement => self.empty().count() as usize,
            Phase::Movement => self.count_steps(),
        }
    }

    fn is_legal(&self, mv: Move) -> bool {
        self.is_legal_move(mv)
    }

    fn play(&mut self, mv: Move) -> Result<(), IllegalMove> {
        if self.is_legal_move(mv) {
            self.play_unchecked(mv);
            return Ok(());
        }
        let reason = if let Some(outcome) = self.outcome() {
            Refusal::GameOver {
                outcome: outcome.to_string(),
            }
        } else if let Some((taker, count)) = self.owed.first() {
            if matches!(mv, Move::Remove(_)) {
                Refusal::RemoveOnly {
                    side: self.to_move,
                    own: !self.loose(taker.opponent()).any(),
                }
            } else {
                Refusal::Owed { side: taker, count }
            }
        } else {
            match (mv, self.phase) {
                (Move::Remove(_), _) => Refusal::NoRemovalOwed,
                (Move::Place(_), Phase::Placement) => Refusal::Occupied,
                (Move::Place(_), Phase::Movement) => Refusal::PlacementOver,
                (Move::Step { .. }, Phase::Placement) => Refusal::StepInPlacement,
                (Move::Step { .. }, Phase::Movement) => {
                    if self.forbidden_step(self.to_move) == Some(mv) {
                        Refusal::Shuttle
                    } else {
                        Refusal::NotAStep { side: self.to_move }
                    }
                }
            }
        };
        Err(IllegalMove::new(mv, reason))
    }

    fn play_unchecked(&mut self, mv: Move) {
        let s = self.to_move;
        match mv {
            Move::Place(p) => {
                let pi = p.index();
                self.toggle(s, pi);
                self.hands[s.index()] = self.hands[s.index()].saturating_sub(1);
                if self.rules.placement_capture == PlacementCapture::Immediate {
                    let n = count_held_at(pi as usize, self.boards[s.index()]);
                    self.owed.push(s, n);
                }
                let o = s.opponent();
                if (self.hands[0] == 0 && self.hands[1] == 0) || self.empty().is_empty() {
                    self.end_placement();
                } else if self.hands[o.index()] > 0 {
                    self.next = o;
                } else {
                    self.next = s;
                }
            }
            Move::Step { from, to } => {
                self.toggle(s, from.index());
                self.toggle(s, to.index());
                let values = self.rules.values();
                let v = THROUGH[to.index() as usize].value_held(self.boards[s.index()], &values);
                self.owed.push(s, v);
                self.last[s.index()] = Some(LastStep { from, to });
                self.quiet = self.quiet.saturating_add(1);
                self.next = s.opponent();
            }
            Move::Remove(p) => {
                if let Some((taker, _)) = self.owed.first() {
                    let victim = taker.opponent();
                    if self.boards[victim.index()].contains(p.index()) {
                        self.toggle(victim, p.index());
                    }
                    self.owed.take_one();
                }
                self.quiet = 0;
            }
        }
        self.settle();
    }

    fn outcome(&self) -> Option<Outcome> {
        for side in Side::BOTH {
            if self.boards[side.index()].0 == 0 && self.hands[side.index()] == 0 {
                return Some(Outcome::win(side.opponent(), WinReason::NoPieces));
            }
        }
        if self.phase == Phase::Movement && self.owed.is_empty() && self.count_steps() == 0 {
            return Some(Outcome::win(
                self.to_move.opponent(),
                WinReason::NoLegalMove,
            ));
        }
        None
    }

    fn is_capture(&self, mv: Move) -> bool {
        mv.is_removal()
    }

    #[inline]
    fn zobrist(&self) -> u64 {
        self.key ^ self.state_key()
    }

    fn zobrist_from_scratch(&self) -> u64 {
        Self::board_key_from_scratch(&self.boards) ^ self.state_key()
    }
}

impl MoveSpace for FiveTigers {
    fn move_space(&self) -> Vec<Move> {
        let mut all = Vec::with_capacity(130);
        for p in Point::all() {
            all.push(Move::Place(p));
            all.push(Move::Remove(p));
            for q in Point::all() {
                if p.is_adjacent(q) {
                    all.push(Move::Step { from: p, to: q });
                }
            }
        }
        all
    }
}
