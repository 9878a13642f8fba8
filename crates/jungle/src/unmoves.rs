//! Un-moves: the moves that captured nothing and can have led to a
//! position, for retrograde analysis (a tablebase generator walks them
//! backwards). Each candidate square comes from a table of every square a
//! move can come from; [`Jungle::unplay_quiet`] then asks the move
//! generator whether the move was legal in the position before, so the
//! rules of steps, jumps and their blocking, the Rat's swimming and the
//! dens stay in one place.

use qi_core::{MoveList, Position};

use crate::board::Square;
use crate::moves::Move;
use crate::position::Jungle;
use crate::tables::ORIGINS;

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
    /// let pos = Jungle::from_text("6l/7/7/7/7/3L3/7/7/6E b 0 1", &Rules::standard()).unwrap();
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
        let mover = self.side_to_move().opponent();
        let empty = !self.occupied().0;
        for to in self.animal_squares(mover) {
            let Some(to) = Square::new(to) else {
                continue; // captured
            };
            let mut from = ORIGINS[usize::from(to.index())] & empty;
            while from != 0 {
                let f = from.trailing_zeros() as u8;
                from &= from - 1;
                let mv = Move::new(Square::from_index_unchecked(f), to);
                if self.unplay_quiet(mv).is_some() {
                    out.push(mv);
                }
            }
        }
    }
}
