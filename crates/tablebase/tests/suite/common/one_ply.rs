//! One ply of minimax over the Five Tigers tables, the naive check the
//! retrograde generators' tests (with and without the shuttle ban) and
//! the `ft_one_ply` example run on random positions, and the dice that
//! pick them.

#![allow(dead_code)]

use qi_core::{Position, Side};
use qi_five_tigers::{FiveTigers, LastStep, Phase, Point, Rules, Setup, Shuttle, NEIGHBOURS};
use qi_tablebase::five_tigers::{Material, Tablebase};
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
    one_ply_by(pos, |child| Some(value(tb, child))).expect("every successor has a value")
}

/// [`one_ply`] with each successor valued by `value` (for its own side to
/// move); `None` if one has no value.
pub fn one_ply_by(
    pos: &FiveTigers,
    mut value: impl FnMut(&FiveTigers) -> Option<(Wdl, u32)>,
) -> Option<(Wdl, u32)> {
    if let Some(o) = pos.outcome() {
        return Some((Wdl::of_outcome(o, pos.side_to_move()), 0));
    }
    let me = pos.side_to_move();
    let mut win: Option<u32> = None;
    let mut draw = false;
    let mut loss = 0;
    for mv in pos.legal_moves() {
        let mut child = *pos;
        child.play_unchecked(mv);
        let (v, d) = value(&child)?;
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
    Some(match (win, draw) {
        (Some(w), _) => (Wdl::Win, w),
        (None, true) => (Wdl::Draw, 0),
        (None, false) => (Wdl::Loss, loss),
    })
}

/// A random position of `m`, nothing owed, its side to move random and,
/// under the shuttle ban, for each side a random previous step (or none)
/// that the tables keep: onto one of its pieces from an empty neighbour.
/// `None` for a position the rules refuse (a ban the side to move blocks).
pub fn random_position(rng: &mut Rng, m: Material, rules: &Rules) -> Option<FiveTigers> {
    let mut setup = Setup::empty().phase(Phase::Movement);
    let mut boards = [0u32; 2];
    for (side, count) in [(Side::First, m.first), (Side::Second, m.second)] {
        for _ in 0..count {
            let p = loop {
                let p = rng.below(25) as u8;
                if (boards[0] | boards[1]) & (1 << p) == 0 {
                    break p;
                }
            };
            boards[side.index()] |= 1 << p;
            setup = setup.place(Point::new(p)?, side);
        }
    }
    let stm = if rng.below(2) == 0 {
        Side::First
    } else {
        Side::Second
    };
    if rules.shuttle == Shuttle::Forbidden {
        let empty = !(boards[0] | boards[1]) & ((1 << 25) - 1);
        for side in Side::BOTH {
            let own = boards[side.index()];
            let mut steps = Vec::new();
            for at in (0..25u8).filter(|p| own & (1 << p) != 0) {
                for from in (0..25u8).filter(|p| NEIGHBOURS[at as usize].0 & empty & (1 << p) != 0)
                {
                    steps.push(LastStep {
                        from: Point::new(from)?,
                        to: Point::new(at)?,
                    });
                }
            }
            let pick = rng.below(steps.len() as u64 + 1) as usize;
            if pick < steps.len() {
                setup = setup.last_step(side, Some(steps[pick]));
            }
        }
    }
    setup
        .side_to_move(stm)
        .next(stm)
        .into_position_lenient(*rules)
        .ok()
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
