//! The anti-chase rules (docs/jungle.md, rule 6 and notes 10–15), all in
//! this one place:
//!
//! * 7-3: animal P may not move onto square X if, among its side's
//!   previous 7 moves, P entered X at least 3 times — unless P entered a
//!   trap in any of those moves or is under attack right now by a capture
//!   the enemy could really play (its own anti-chase rules included, its
//!   own exemption judged by board captures only);
//! * 17-5: if its side's previous 17 moves were all made by P and entered
//!   at most 5 squares, none of them a trap, P may not enter those squares.

use qi_core::{Frame, MoveList, Position};

use super::{Entry, Game};
use crate::board::{ALL_TRAPS, NONE};
use crate::moves::Move;
use crate::position::Jungle;

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

impl Ply {
    /// What a pass (or the start) leaves in the history: a placeholder
    /// that keeps each side's plies at their parity and enters no square.
    pub(super) const NONE: Ply = Ply {
        animal: 0,
        to: NONE,
    };
}

/// Which anti-chase rule forbids a move.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum AntiChaseRule {
    /// The 7-3 rule.
    SevenThree,
    /// The 17-5 rule.
    SeventeenFive,
}

/// The squares each animal of the side to move may not enter now, under
/// the 7-3 rule and under the 17-5 rule (indexed by animal).
#[derive(Clone, Copy, Debug)]
pub(super) struct Forbidden {
    seven: [u64; 8],
    seventeen: [u64; 8],
}

impl Forbidden {
    /// What the rules forbid the side to move of the last frame, given the
    /// frames of the game (the start first).
    pub(super) fn new(frames: &[Frame<Jungle, Entry>]) -> Forbidden {
        let now = frames.len() - 1;
        // The side to move made the moves that led to the frames 1, 3, 5, …
        // back from now (sides alternate; a pass keeps the parity).
        let mut forbidden = Forbidden::of_side(frames, now.saturating_sub(1));
        if forbidden.seven.iter().any(|&m| m != 0) {
            forbidden.exempt_chased(frames);
        }
        forbidden
    }

    /// The squares the rules forbid to the side whose own moves led to the
    /// frames `last`, `last - 2`, … (the start frame records no move), with
    /// no "chased animal" exemption applied yet.
    fn of_side(frames: &[Frame<Jungle, Entry>], last: usize) -> Forbidden {
        let mut seven = [0u64; 8];
        let mut seventeen = [0u64; 8];
        let own =
            |k: usize| -> Option<Ply> { (2 * k < last).then(|| frames[last - 2 * k].extra().ply) };

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

        // 17-5: the last 17 own moves all by P, entering at most 5 squares.
        if own(WINDOW_17_5 - 1).is_some() {
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
        Forbidden { seven, seventeen }
    }

    /// Lifts the 7-3 rule from the side to move's animals that are chased:
    /// some enemy animal could capture one by a move the enemy could
    /// legally play next. A capture the enemy's own 7-3 or 17-5 rule
    /// forbids does not chase; the enemy's own exemption is judged by
    /// board captures alone, so this looks one level deep and no further.
    fn exempt_chased(&mut self, frames: &[Frame<Jungle, Entry>]) {
        let now = frames.len() - 1;
        let pos = frames[now].position();
        let side = pos.side_to_move();
        let enemy = side.opponent();
        let mut theirs = Forbidden::of_side(frames, now);
        // The enemy's chased animals, by board captures only.
        let ours_attack = pos.attacked_by(side).0;
        let enemy_squares = pos.animal_squares(enemy);
        for (a, mask) in theirs.seven.iter_mut().enumerate() {
            if *mask != 0 && ours_attack >> enemy_squares[a] & 1 != 0 {
                *mask = 0;
            }
        }
        let mut attacks = 0u64;
        for (a, targets) in pos.destination_bits(enemy).iter().enumerate() {
            attacks |= targets & !(theirs.seven[a] | theirs.seventeen[a]);
        }
        let squares = pos.animal_squares(side);
        for (a, mask) in self.seven.iter_mut().enumerate() {
            if *mask != 0 && attacks >> squares[a] & 1 != 0 {
                *mask = 0;
            }
        }
    }

    /// Whether any square is forbidden to any animal.
    #[inline]
    pub(super) fn any(&self) -> bool {
        self.seven.iter().chain(&self.seventeen).any(|&m| m != 0)
    }

    /// The rule that forbids animal `animal` to enter the square `to`.
    fn rule(&self, animal: usize, to: u64) -> Option<AntiChaseRule> {
        if self.seven[animal] & to != 0 {
            Some(AntiChaseRule::SevenThree)
        } else if self.seventeen[animal] & to != 0 {
            Some(AntiChaseRule::SeventeenFive)
        } else {
            None
        }
    }

    /// Removes the forbidden moves of `pos`'s side to move from
    /// `moves[start..]`, in place (the moves before `start` are the
    /// caller's and are left alone).
    pub(super) fn retain(&self, pos: &Jungle, moves: &mut MoveList<Move>, start: usize) {
        let mut forbidden = [0u64; 8];
        for (a, squares) in forbidden.iter_mut().enumerate() {
            *squares = self.seven[a] | self.seventeen[a];
        }
        let side = pos.side_to_move();
        let mut kept = start;
        for i in start..moves.len() {
            let mv = moves[i];
            let a = pos.animal_index_on(side, mv.from.index());
            if forbidden[a] & mv.to.bit() == 0 {
                moves[kept] = mv;
                kept += 1;
            }
        }
        moves.truncate(kept);
    }
}

impl Game {
    /// The anti-chase rule that forbids `mv` now, if any (`None` also when
    /// the rules have no anti-chase or `mv` is not a move of the side to move).
    ///
    /// ```
    /// use qi_jungle::{AntiChaseRule, Game, Jungle, Move, Rules};
    ///
    /// let mut game = Game::new(Jungle::new(Rules::yeshou()));
    /// for mv in ["a3a4", "g7g6", "a4a3", "g6g7"].repeat(3) {
    ///     game.play(mv.parse().unwrap()).unwrap();
    /// }
    /// // The Elephant entered a4 three times in Red's last seven moves.
    /// let mv: Move = "a3a4".parse().unwrap();
    /// assert_eq!(game.anti_chase_violation(mv), Some(AntiChaseRule::SevenThree));
    /// assert!(game.play(mv).is_err());
    /// ```
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
        Forbidden::new(self.history.frames()).rule(animal, mv.to.bit())
    }

    /// What the anti-chase rules forbid now, when they forbid anything.
    #[inline(always)]
    pub(super) fn anti_chase(&self) -> Option<Forbidden> {
        // Under two plies no side has a move of its own on record.
        if !self.position().rules().anti_chase || self.history.frames().len() < 3 {
            return None;
        }
        let forbidden = Forbidden::new(self.history.frames());
        forbidden.any().then_some(forbidden)
    }
}
