//! One ply of minimax over the Five Tigers tables, the naive check the
//! retrograde generators' tests (with and without the shuttle ban) run on
//! random positions, and the dice that pick them.

use qi_core::Position;
use qi_five_tigers::FiveTigers;
use qi_tablebase::five_tigers::Tablebase;
use qi_tablebase::Wdl;

/// The value of `pos` for its side to move, by the tables when nothing is
/// owed, else by minimax over its removals.
pub fn value(tb: &Tablebase, pos: &FiveTigers) -> (Wdl, u32) {
    if let Some(v) = tb.probe(pos).unwrap() {
        return v;
    }
    assert!(!pos.owed().is_empty(), "{pos} is not covered");
    one_ply(tb, pos)
}

/// What one ply of minimax over `pos`'s moves says, reading each
/// successor's value (the naive solver's step).
pub fn one_ply(tb: &Tablebase, pos: &FiveTigers) -> (Wdl, u32) {
    if let Some(o) = pos.outcome() {
        return (Wdl::of_outcome(o, pos.side_to_move()), 0);
    }
    let me = pos.side_to_move();
    let mut win: Option<u32> = None;
    let mut draw = false;
    let mut loss = 0;
    for mv in pos.legal_moves() {
        let mut child = *pos;
        child.play_unchecked(mv);
        let (v, d) = value(tb, &child);
        let v = if child.side_to_move() == me {
            v
        } else {
            v.flip()
        };
        match v {
            Wdl::Win => win = Some(win.map_or(d + 1, |w| w.min(d + 1))),
            Wdl::Draw => draw = true,
            Wdl::Loss => loss = loss.max(d + 1),
        }
    }
    match (win, draw) {
        (Some(w), _) => (Wdl::Win, w),
        (None, true) => (Wdl::Draw, 0),
        (None, false) => (Wdl::Loss, loss),
    }
}

/// A small deterministic generator (no dependency for a test's dice).
pub struct Rng(pub u64);

impl Rng {
    pub fn below(&mut self, n: u64) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0 % n
    }
}
