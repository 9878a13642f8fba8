//! The anti-chase rules (docs/jungle.md, rule 6 and notes 10–15), all in
//! this one place:
//!
//! * 7-3: animal P may not move onto square X if, among its side's
//!   previous 7 moves, P entered X at least 3 times — unless P entered a
//!   trap in any of those moves or is under attack right now;
//! * 17-5: if its side's previous 17 moves were all made by P and entered
//!   at most 5 squares, none of them a trap, P may not enter those squares.

use qi_core::{MoveList, Position};

use super::Game;
use crate::board::ALL_TRAPS;
use crate::moves::Move;

/// Length of the 7-3 rule's window (own moves).
const WINDOW_7_3: usize = 7;
/// Entries into one square within the window that forbid another.
const ENTRIES_7_3: u32 = 3;
/// Length of the 17-5 rule's window (own moves).
const WINDOW_17_5: usize = 17;
/// Largest set of squares that the 17-5 rule locks.
const SQUARES_17_5: u32 = 5;

/// One played move as the anti-chase rules see it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct Ply {
    /// The animal that moved (index 0..8 within its side).
    pub(super) animal: u8,
    /// The square it entered.
    pub(super) to: u8,
}

/// Which anti-chase rule forbids a move.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum AntiChaseRule {
    /// The 7-3 rule.
    SevenThree,
    /// The 17-5 rule.
    SeventeenFive,
}

impl Game {
    /// The anti-chase rule that forbids `mv` now, if any (`None` also when
    /// the rules have no anti-chase or `mv` is not a move of the side to move).
    pub fn anti_chase_violation(&self, mv: Move) -> Option<AntiChaseRule> {
        if !self.position().rules().anti_chase {
            return None;
        }
        let pos = self.position();
        let side = pos.side_to_move();
        if pos.occupancy(side).0 & mv.from.bit() == 0 {
            return None;
        }
        let animal = pos.animal_index_on(side, mv.from.index());
        let (seven, seventeen) = self.forbidden_squares();
        if seven[animal] & mv.to.bit() != 0 {
            Some(AntiChaseRule::SevenThree)
        } else if seventeen[animal] & mv.to.bit() != 0 {
            Some(AntiChaseRule::SeventeenFive)
        } else {
            None
        }
    }

    /// The squares each animal of the side to move may not enter now under
    /// the 7-3 rule and under the 17-5 rule (indexed by animal).
    pub(super) fn forbidden_squares(&self) -> ([u64; 8], [u64; 8]) {
        let mut seven = [0u64; 8];
        let mut seventeen = [0u64; 8];
        let n = self.plies.len();
        // The side to move made the plies n-2, n-4, … (sides alternate).
        let own = |k: usize| -> Option<Ply> {
            let back = 2 * (k + 1);
            if back <= n {
                Some(self.plies[n - back])
            } else {
                None
            }
        };

        // 7-3: among the last (up to) 7 own moves, P entered X at least 3 times.
        let mut window = [Ply { animal: 0, to: 0 }; WINDOW_7_3];
        let mut len = 0;
        while len < WINDOW_7_3 {
            match own(len) {
                Some(p) => {
                    window[len] = p;
                    len += 1;
                }
                None => break,
            }
        }
        let window = &window[..len];
        let mut trapped = [false; 8];
        for p in window {
            if ALL_TRAPS >> p.to & 1 != 0 {
                trapped[p.animal as usize] = true;
            }
        }
        for p in window {
            let a = p.animal as usize;
            if trapped[a] {
                continue;
            }
            let entries = window
                .iter()
                .filter(|q| q.animal == p.animal && q.to == p.to)
                .count() as u32;
            if entries >= ENTRIES_7_3 {
                seven[a] |= 1u64 << p.to;
            }
        }
        if seven.iter().any(|&m| m != 0) {
            // The chased animal is exempt: an animal under attack right now
            // (an enemy animal could legally capture it next move).
            let pos = self.position();
            let side = pos.side_to_move();
            let attacked = pos.attacked_by(side.opponent()).0;
            let squares = pos.animal_squares(side);
            for (a, mask) in seven.iter_mut().enumerate() {
                if *mask != 0 && attacked >> squares[a] & 1 != 0 {
                    *mask = 0;
                }
            }
        }

        // 17-5: the last 17 own moves all by P, entering at most 5 squares.
        if n >= 2 * WINDOW_17_5 {
            let first = own(0).map(|p| p.animal);
            let mut set = 0u64;
            let mut same = true;
            for k in 0..WINDOW_17_5 {
                match own(k) {
                    Some(p) if Some(p.animal) == first => set |= 1u64 << p.to,
                    _ => {
                        same = false;
                        break;
                    }
                }
            }
            if let (true, Some(a)) = (same, first) {
                if set.count_ones() <= SQUARES_17_5 && set & ALL_TRAPS == 0 {
                    seventeen[a as usize] |= set;
                }
            }
        }
        (seven, seventeen)
    }

    /// Removes the moves the anti-chase rules forbid.
    pub(super) fn filter_anti_chase(&self, moves: &mut MoveList<Move>) {
        if self.plies.len() < 2 {
            return;
        }
        let (seven, seventeen) = self.forbidden_squares();
        let mut forbidden = [0u64; 8];
        let mut any = false;
        for a in 0..8 {
            forbidden[a] = seven[a] | seventeen[a];
            any |= forbidden[a] != 0;
        }
        if !any {
            return;
        }
        let pos = self.position();
        let side = pos.side_to_move();
        moves.retain(|mv| {
            let a = pos.animal_index_on(side, mv.from.index());
            forbidden[a] & mv.to.bit() == 0
        });
    }
}
