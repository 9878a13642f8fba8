//! The first layer's sums for both perspectives, kept up to date from one
//! evaluated position to the next.
//!
//! A Jungle position is played by copy-make and the generic search tells
//! the evaluator nothing but the position to score, so the accumulator
//! does not follow play and undo through hooks: it remembers the board it
//! last summed and, given the next one, subtracts and adds the rows of the
//! animals that moved or were captured in between (the moves played and
//! undone since). Consecutive evaluations in a search are a few moves
//! apart (siblings, or a quiescence line), so that is two to six rows per
//! perspective instead of sixteen; a board too different is summed afresh.

use qi_jungle::Jungle;

use super::data::CAPTURED;
use super::features::feature;
use super::file::{HIDDEN, QA, QB};
use super::network::Network;
use qi_core::Side;

/// Changed animals beyond which summing afresh is cheaper than updating
/// (each change costs a subtraction and an addition, a refresh one
/// addition per animal on the board).
const REFRESH_ABOVE: usize = 8;

/// The sums of one network's first layer for a board, Red's perspective
/// then Blue's.
#[derive(Clone, Debug)]
pub struct Accumulator {
    /// The network these sums are of (0: none yet).
    network: u64,
    squares: [[u8; 8]; 2],
    pub(crate) sums: [[i16; HIDDEN]; 2],
}

impl Default for Accumulator {
    fn default() -> Accumulator {
        Accumulator {
            network: 0,
            squares: [[CAPTURED; 8]; 2],
            sums: [[0; HIDDEN]; 2],
        }
    }
}

#[inline(always)]
fn add(sums: &mut [i16; HIDDEN], row: &[i16; HIDDEN]) {
    for (s, w) in sums.iter_mut().zip(row) {
        *s = s.wrapping_add(*w);
    }
}

#[inline(always)]
fn sub(sums: &mut [i16; HIDDEN], row: &[i16; HIDDEN]) {
    for (s, w) in sums.iter_mut().zip(row) {
        *s = s.wrapping_sub(*w);
    }
}

fn squares_of(pos: &Jungle) -> [[u8; 8]; 2] {
    [
        pos.animal_squares(Side::First),
        pos.animal_squares(Side::Second),
    ]
}

impl Accumulator {
    /// The sums of `net` for `pos`, from scratch.
    pub fn refresh(&mut self, net: &Network, pos: &Jungle) {
        self.network = net.id;
        self.squares = squares_of(pos);
        for (perspective, sums) in self.sums.iter_mut().enumerate() {
            *sums = net.b1;
            for (owner, animals) in self.squares.iter().enumerate() {
                for (animal, &sq) in animals.iter().enumerate() {
                    if sq != CAPTURED {
                        add(sums, &net.w1[feature(perspective, owner, animal, sq)]);
                    }
                }
            }
        }
    }

    /// Brings the sums to `pos`: by the animals that changed square since
    /// the last board, or afresh when the sums are of another network or
    /// too much changed.
    pub fn update(&mut self, net: &Network, pos: &Jungle) {
        let now = squares_of(pos);
        if self.network != net.id {
            return self.refresh(net, pos);
        }
        let changed = (0..2)
            .map(|o| (0..8).filter(|&a| now[o][a] != self.squares[o][a]).count())
            .sum::<usize>();
        if changed == 0 {
            return;
        }
        if changed > REFRESH_ABOVE {
            return self.refresh(net, pos);
        }
        for (owner, (was, is)) in self.squares.iter().zip(&now).enumerate() {
            for (animal, (&old, &new)) in was.iter().zip(is).enumerate() {
                if old == new {
                    continue;
                }
                for (perspective, sums) in self.sums.iter_mut().enumerate() {
                    if old != CAPTURED {
                        sub(sums, &net.w1[feature(perspective, owner, animal, old)]);
                    }
                    if new != CAPTURED {
                        add(sums, &net.w1[feature(perspective, owner, animal, new)]);
                    }
                }
            }
        }
        self.squares = now;
    }

    /// The sums of each perspective (Red's, then Blue's).
    pub fn sums(&self) -> &[[i16; HIDDEN]; 2] {
        &self.sums
    }
}

/// The network's output for the side to move, in centi-units.
#[inline]
pub(crate) fn output(net: &Network, acc: &Accumulator, side: Side) -> i32 {
    let us = side.index();
    let active = |s: i16| i32::from(s.clamp(0, QA as i16));
    let qaqb = i64::from(QA * QB);
    let cp = match &net.side_term {
        None => {
            let half = |sums: &[i16; HIDDEN], w: &[i16; HIDDEN]| -> i32 {
                sums.iter()
                    .zip(w)
                    .map(|(&s, &w)| active(s) * i32::from(w))
                    .sum()
            };
            let sum =
                half(&acc.sums[us], &net.w2[0]) + half(&acc.sums[1 - us], &net.w2[1]) + net.b2;
            i64::from(sum) * i64::from(net.scale) / qaqb
        }
        Some(term) => {
            // Each half fits 32 bits (`Network::with_tempo`); their
            // difference may not. Truncating the difference toward zero
            // keeps a board and its other side to move exactly opposite.
            let half = |sums: &[i16; HIDDEN]| -> i64 {
                i64::from(
                    sums.iter()
                        .zip(&term.weights)
                        .map(|(&s, &w)| active(s) * w)
                        .sum::<i32>(),
                )
            };
            let diff = half(&acc.sums[us]) - half(&acc.sums[1 - us]);
            diff * i64::from(net.scale) / (2 * qaqb) + i64::from(term.tempo)
        }
    };
    cp.clamp(
        -i64::from(qi_search::EVAL_LIMIT),
        i64::from(qi_search::EVAL_LIMIT),
    ) as i32
}
