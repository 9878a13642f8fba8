//! Un-moves: the moves that captured nothing and can have led to a
//! position, for retrograde analysis (a tablebase generator walks them
//! backwards). Each candidate square comes from a table of every square a
//! move can come from; [`Jungle::unplay_quiet`] then asks the move
//! generator whether the move was legal in the position before, so the
//! rules of steps, jumps and their blocking, the Rat's swimming and the
//! dens stay in one place.

use qi_core::{MoveList, Position, Side};

use super::movegen::{find_lane, ONES};
use super::{Jungle, RAT};
use crate::board::{Square, DENS, WATER};
use crate::moves::Move;
use crate::tables::{piece_key, ORIGINS, SIDE_KEY};

impl Jungle {
    /// Appends to `out` the moves that captured nothing and can have led
    /// to this position: moves of the side that just moved (the opponent
    /// of the side to move), each legal in the position
    /// [`unplay_quiet`](Jungle::unplay_quiet) gives back, which is not
    /// over. The counters play no part (a position read without its
    /// history, as a table's, still has its un-moves). Captures cannot be
    /// taken back from the board alone (which animal was taken?): a
    /// generator reaches those positions from the smaller materials.
    ///
    /// ```
    /// use qi_core::{MoveList, Position};
    /// use qi_jungle::{Jungle, Rules};
    ///
    /// // Red's Lion on d4 and Elephant on g1; Blue to move.
    /// let pos = Jungle::from_text("6l/7/7/7/7/3L3/7/7/6E b 0 1", Rules::standard()).unwrap();
    /// let mut unmoves = MoveList::new();
    /// pos.quiet_unmoves(&mut unmoves);
    /// let mut text: Vec<String> = unmoves.iter().map(|m| m.to_string()).collect();
    /// text.sort();
    /// // The Lion stepped from d3 or d5 or jumped the river from a4 or g4
    /// // (c4 and e4 are water); the Elephant stepped from f1 or g2.
    /// assert_eq!(text, ["a4d4", "d3d4", "d5d4", "f1g1", "g2g1", "g4d4"]);
    /// for mv in unmoves {
    ///     let mut before = pos.unplay_quiet(mv).unwrap();
    ///     before.play(mv).unwrap();
    ///     assert!(before.same_board(&pos));
    /// }
    /// ```
    pub fn quiet_unmoves(&self, out: &mut MoveList<Move>) {
        self.each_quiet_unmove(|mv, _| out.push(mv));
    }

    /// Calls `each(mv, before)` for each of the
    /// [`quiet_unmoves`](Jungle::quiet_unmoves), in their order, with the
    /// position [`unplay_quiet`](Jungle::unplay_quiet) gives back: what a
    /// generator walks, each un-move checked once.
    ///
    /// ```
    /// use qi_core::{MoveList, Position};
    /// use qi_jungle::{Jungle, Rules};
    ///
    /// let pos = Jungle::from_text("6l/7/7/7/7/3L3/7/7/6E b 0 1", Rules::standard()).unwrap();
    /// let mut unmoves = MoveList::new();
    /// pos.quiet_unmoves(&mut unmoves);
    /// let mut seen = Vec::new();
    /// pos.each_quiet_unmove(|mv, before| seen.push((mv, *before)));
    /// assert_eq!(seen.len(), unmoves.len());
    /// for ((mv, before), &listed) in seen.into_iter().zip(unmoves.iter()) {
    ///     assert_eq!((mv, Some(before)), (listed, pos.unplay_quiet(listed)));
    /// }
    /// ```
    pub fn each_quiet_unmove(&self, mut each: impl FnMut(Move, &Jungle)) {
        let mover = self.side_to_move().opponent();
        let empty = !self.occupied().0;
        // The squares of the mover's animals, lowest first.
        let mut movers = self.occ[mover.index()];
        while movers != 0 {
            let to = Square::from_index_unchecked(movers.trailing_zeros() as u8);
            movers &= movers - 1;
            let mut from = ORIGINS[usize::from(to.index())] & empty;
            while from != 0 {
                let f = from.trailing_zeros() as u8;
                from &= from - 1;
                let mv = Move::new(Square::from_index_unchecked(f), to);
                if let Some(before) = self.unplay_quiet(mv) {
                    each(mv, &before);
                }
            }
        }
    }

    /// The position before `mv`, a move that captured nothing and led
    /// here: the animal on `mv.to` back on `mv.from`, the side that made
    /// the move to move again, the counters one ply back (the no-capture
    /// count stops at 0, as in a position read without its history).
    /// `None` unless `mv` is one of
    /// [`quiet_unmoves`](Jungle::quiet_unmoves): an animal of the side
    /// that just moved stands on `mv.to`, `mv.from` is empty and a square
    /// that animal may stand on, and `mv` is legal in the position before
    /// (which is not over).
    ///
    /// ```
    /// use qi_core::Position;
    /// use qi_jungle::{Jungle, Move};
    ///
    /// let start = Jungle::default();
    /// let mv: Move = "a3a4".parse().unwrap();
    /// let mut pos = start;
    /// pos.play(mv).unwrap();
    /// assert_eq!(pos.unplay_quiet(mv), Some(start));
    /// // The Elephant cannot have come out of the water, nor has Blue
    /// // just moved.
    /// assert_eq!(pos.unplay_quiet("b4a4".parse().unwrap()), None);
    /// assert_eq!(pos.unplay_quiet("a6a7".parse().unwrap()), None);
    /// ```
    pub fn unplay_quiet(&self, mv: Move) -> Option<Jungle> {
        let mover = self.side.opponent();
        let s = mover.index();
        let (from, to) = (mv.from.index(), mv.to.index());
        let (from_bit, to_bit) = (mv.from.bit(), mv.to.bit());
        if self.occ[s] & to_bit == 0 || (self.occ[0] | self.occ[1]) & from_bit != 0 {
            return None;
        }
        let (a, lane) = find_lane(&self.squares[s], to);
        // Where the animal may stand (the setup's rules): never on its own
        // den, in the water only the Rat.
        if DENS[s] & from_bit != 0 || (a != RAT && WATER & from_bit != 0) {
            return None;
        }
        let mut before = *self;
        let word = u64::from_le_bytes(self.squares[s]) ^ (lane & (ONES * u64::from(from ^ to)));
        before.squares[s] = word.to_le_bytes();
        before.occ[s] ^= from_bit | to_bit;
        before.hash ^= piece_key(s * 8 + a, from) ^ piece_key(s * 8 + a, to) ^ SIDE_KEY;
        before.side = mover;
        before.no_capture = self.no_capture.saturating_sub(1);
        if mover == Side::Second {
            before.fullmove = self.fullmove.saturating_sub(1).max(1);
        }
        // The move generator decides, as `is_legal` does for a move onto
        // an empty square: the rules of steps, jumps and their blocking
        // and the Rat's swimming are the animal's reach; and the game
        // was not over before.
        (!before.is_terminal_cheap() && before.reach(s, a) & to_bit != 0).then_some(before)
    }
}
