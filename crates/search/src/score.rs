//! Search scores: centi-units, or a forced win or loss in a number of plies.

use std::fmt;

use qi_core::{Outcome, Side};

/// The value of a win on the spot (a terminal position won by the side to
/// move at ply 0). A win `n` plies from the root is worth `MATE - n`.
pub const MATE: i32 = 30_000;

/// The deepest ply the search reaches (main search plus quiescence).
pub const MAX_PLY: usize = 128;

/// Values at least this large in magnitude are mate scores.
pub const MATE_BOUND: i32 = MATE - MAX_PLY as i32 - 1;

/// A value beyond every score, for open alpha-beta windows.
pub const INFINITY: i32 = MATE + 1;

/// The bound every evaluator's score must stay within:
/// `|score| <= EVAL_LIMIT`. It lies far below [`MATE_BOUND`], so that no
/// evaluation, nor one moved by a search margin, passes for a mate score.
pub const EVAL_LIMIT: i32 = 19_000;

const _: () = assert!(EVAL_LIMIT < MATE_BOUND);

/// A search score from the point of view of the side to move.
///
/// Either centi-units (an evaluation, `|cp| < MATE_BOUND`), or a mate score:
/// `MATE - n` for a win `n` plies ahead, `-(MATE - n)` for a loss `n` plies
/// ahead. Scores compare as values (a faster win is larger).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Default)]
pub struct Score(i32);

impl Score {
    /// A drawn position.
    pub const DRAW: Score = Score(0);

    /// A score from its raw value (centi-units, or `±(MATE - plies)`).
    /// Values are clamped to `±MATE`.
    pub const fn from_value(value: i32) -> Score {
        if value > MATE {
            Score(MATE)
        } else if value < -MATE {
            Score(-MATE)
        } else {
            Score(value)
        }
    }

    /// An evaluation of `cp` centi-units (clamped below the mate scores).
    pub const fn cp(cp: i32) -> Score {
        if cp >= MATE_BOUND {
            Score(MATE_BOUND - 1)
        } else if cp <= -MATE_BOUND {
            Score(-MATE_BOUND + 1)
        } else {
            Score(cp)
        }
    }

    /// A win for the side to move with the game ending `plies` plies ahead
    /// (a distance beyond the longest a mate score holds, `MAX_PLY + 1`,
    /// counts as that longest).
    ///
    /// ```
    /// use qi_games::search::{Score, MAX_PLY};
    ///
    /// assert_eq!(Score::win_in(3).to_string(), "mate 2");
    /// assert!(Score::win_in(u32::MAX).is_mate());
    /// assert_eq!(Score::win_in(u32::MAX), Score::win_in(MAX_PLY as u32 + 1));
    /// ```
    pub const fn win_in(plies: u32) -> Score {
        Score(MATE - mate_distance(plies))
    }

    /// A loss for the side to move with the game ending `plies` plies
    /// ahead (clamped as in [`win_in`](Score::win_in)).
    ///
    /// ```
    /// use qi_games::search::Score;
    ///
    /// assert_eq!(Score::loss_in(4).to_string(), "mate -2");
    /// assert_eq!(Score::loss_in(u32::MAX).value(), -Score::win_in(u32::MAX).value());
    /// ```
    pub const fn loss_in(plies: u32) -> Score {
        Score(-(MATE - mate_distance(plies)))
    }

    /// The raw value: centi-units, or `±(MATE - plies)`.
    pub const fn value(self) -> i32 {
        self.0
    }

    /// Whether this is a forced win or loss.
    pub const fn is_mate(self) -> bool {
        self.0 >= MATE_BOUND || self.0 <= -MATE_BOUND
    }

    /// The evaluation in centi-units, or `None` for a mate score.
    pub const fn centi_units(self) -> Option<i32> {
        if self.is_mate() {
            None
        } else {
            Some(self.0)
        }
    }

    /// Plies until the game ends for a mate score: positive when the side to
    /// move wins, negative (or `0` when lost on the spot) when it loses;
    /// `None` for an evaluation.
    pub const fn mate_plies(self) -> Option<i32> {
        if self.0 >= MATE_BOUND {
            Some(MATE - self.0)
        } else if self.0 <= -MATE_BOUND {
            Some(-(MATE + self.0))
        } else {
            None
        }
    }

    /// Mate distance in moves of the side to move, UCI style: a win ending
    /// `p` plies ahead is `(p + 1) / 2`, a loss ending `p` plies ahead is
    /// `-(p / 2)`. `None` for an evaluation.
    pub const fn mate_moves(self) -> Option<i32> {
        match self.mate_plies() {
            Some(p) if p > 0 => Some((p + 1) / 2),
            Some(p) => Some(p / 2),
            None => None,
        }
    }
}

impl fmt::Display for Score {
    /// `cp 35`, `mate 3` (the side to move wins) or `mate -2` (it loses).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.mate_moves() {
            Some(m) => write!(f, "mate {m}"),
            None => write!(f, "cp {}", self.0),
        }
    }
}

/// The score of a finished game for the side to move `stm`, `ply` plies
/// below the root: a win is `MATE - ply`, a loss `-(MATE - ply)`, a draw 0.
#[inline]
pub fn terminal_value(outcome: Outcome, stm: Side, ply: usize) -> i32 {
    // The search never goes below `MAX_PLY`; a caller's deeper ply counts
    // as the deepest mate rather than overflow.
    let ply = if ply > MAX_PLY { MAX_PLY + 1 } else { ply };
    match outcome.winner() {
        Some(winner) if winner == stm => MATE - ply as i32,
        Some(_) => -(MATE - ply as i32),
        None => 0,
    }
}

/// `plies` as a mate distance: at most `MAX_PLY + 1`, the longest a mate
/// score holds (`MATE - (MAX_PLY + 1) == MATE_BOUND`).
const fn mate_distance(plies: u32) -> i32 {
    if plies > MAX_PLY as u32 + 1 {
        MAX_PLY as i32 + 1
    } else {
        plies as i32
    }
}

/// Converts a value of a node `ply` plies below the root into the form
/// stored in the transposition table (mate scores relative to the node).
#[inline]
pub(crate) fn to_tt(value: i32, ply: usize) -> i32 {
    if value >= MATE_BOUND {
        value + ply as i32
    } else if value <= -MATE_BOUND {
        value - ply as i32
    } else {
        value
    }
}

/// Inverse of [`to_tt`]: a stored value seen from a node `ply` plies deep.
#[inline]
pub(crate) fn from_tt(value: i32, ply: usize) -> i32 {
    if value >= MATE_BOUND {
        value - ply as i32
    } else if value <= -MATE_BOUND {
        value + ply as i32
    } else {
        value
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn display_uci_style() {
        assert_eq!(Score::cp(35).to_string(), "cp 35");
        assert_eq!(Score::cp(-7).to_string(), "cp -7");
        assert_eq!(Score::win_in(1).to_string(), "mate 1");
        assert_eq!(Score::win_in(5).to_string(), "mate 3");
        assert_eq!(Score::loss_in(4).to_string(), "mate -2");
        assert_eq!(Score::loss_in(2).to_string(), "mate -1");
        assert_eq!(Score::DRAW.to_string(), "cp 0");
    }

    #[test]
    fn mate_plies_and_ordering() {
        assert_eq!(Score::win_in(3).mate_plies(), Some(3));
        assert_eq!(Score::loss_in(6).mate_plies(), Some(-6));
        assert_eq!(Score::cp(100).mate_plies(), None);
        assert_eq!(Score::cp(100).centi_units(), Some(100));
        assert!(Score::win_in(1) > Score::win_in(3));
        assert!(Score::loss_in(2) < Score::loss_in(8));
        assert!(Score::cp(MATE).centi_units().is_some());
        assert!(Score::loss_in(0).is_mate());
    }

    #[test]
    fn tt_adjustment_round_trips() {
        for v in [0, 57, -300, MATE - 3, -(MATE - 9)] {
            for ply in [0usize, 1, 7, 40] {
                assert_eq!(from_tt(to_tt(v, ply), ply), v);
            }
        }
        // A win 5 plies below the root found at ply 2 is a win in 3 from
        // the node, and seen again at ply 4 it is a win 7 plies below root.
        assert_eq!(to_tt(MATE - 5, 2), MATE - 3);
        assert_eq!(from_tt(MATE - 3, 4), MATE - 7);
    }
}
