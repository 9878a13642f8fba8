//! The transition rule of retrograde analysis, written once for every
//! solver (Jungle's and Five Tigers' in core, the rounds under the
//! shuttle ban, out of core, and the [`crate::retrograde::Ledger`] of the
//! one-thread and distributed runs).
//!
//! A position's value is for its side to move, its distance the plies to
//! the end of the game against best play:
//!
//! * **won** at `d + 1` when a move reaches a position lost (for its own
//!   side to move) at `d`, the least such `d`;
//! * **lost** when every move reaches a won position, one ply past the
//!   longest of them;
//! * **drawn** otherwise (what no round decides).
//!
//! Distances are at most [`LONGEST`] plies (`u16::MAX` stays free as a
//! solver's "not known yet"); a position further from the end is a
//! [`TooDeep`] error, in every solver alike, never a distance cut short.
//! It imports only the leaves [`crate::value`] and [`crate::error`].

use crate::error::GenerateError;
use crate::value::Wdl;

/// The longest distance a table holds, in plies.
pub(crate) const LONGEST: u16 = u16::MAX - 1;

/// A position would be decided further from the end than [`LONGEST`]
/// plies: no table can hold it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
#[error("a position is decided at more than {LONGEST} plies")]
pub(crate) struct TooDeep;

impl From<TooDeep> for GenerateError {
    fn from(_: TooDeep) -> GenerateError {
        GenerateError::TooDeep
    }
}

/// The distance of a position one ply before a position decided at `d`:
/// `d + 1`.
///
/// # Errors
///
/// [`TooDeep`] when `d + 1` is past [`LONGEST`].
#[inline]
pub(crate) fn ply_before(d: u32) -> Result<u16, TooDeep> {
    if d < u32::from(LONGEST) {
        Ok(d as u16 + 1)
    } else {
        Err(TooDeep)
    }
}

/// The distance of a position lost once its last undecided successor is
/// won at `last`, its other successors and exits won at most at `longest`:
/// one ply past the longer.
///
/// # Errors
///
/// [`TooDeep`] as [`ply_before`].
#[inline]
pub(crate) fn loss_after(last: u16, longest: u16) -> Result<u16, TooDeep> {
    ply_before(u32::from(last.max(longest)))
}

/// What a position's moves into positions already valued (the exits of a
/// slice into smaller tables, or the moves that end the game) say before
/// any round: folded one move at a time by [`Exits::note`].
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct Exits {
    /// The shortest distance of a position lost for its side to move
    /// that a move reaches.
    pub(crate) shortest_lost: Option<u16>,
    /// The longest distance of a position won for its side to move that
    /// a move reaches.
    pub(crate) longest_won: Option<u16>,
    /// A move reaches a drawn position.
    pub(crate) draw: bool,
}

impl Exits {
    /// One move into a position worth `value` at `d` plies for its own
    /// side to move (the mover's opponent).
    ///
    /// # Errors
    ///
    /// [`TooDeep`] when `d` is past [`LONGEST`] (no table holds it).
    #[inline]
    pub(crate) fn note(&mut self, value: Wdl, d: u32) -> Result<(), TooDeep> {
        let d = u16::try_from(d)
            .ok()
            .filter(|&d| d <= LONGEST)
            .ok_or(TooDeep)?;
        match value {
            Wdl::Loss => self.shortest_lost = Some(self.shortest_lost.map_or(d, |s| s.min(d))),
            Wdl::Win => self.longest_won = Some(self.longest_won.map_or(d, |l| l.max(d))),
            Wdl::Draw => self.draw = true,
        }
        Ok(())
    }

    /// The distance these moves win at, if one wins.
    ///
    /// # Errors
    ///
    /// [`TooDeep`] as [`ply_before`].
    #[inline]
    pub(crate) fn win_at(&self) -> Result<Option<u16>, TooDeep> {
        self.shortest_lost
            .map(|d| ply_before(u32::from(d)))
            .transpose()
    }

    /// Whether some move draws or wins: the position is never lost.
    #[inline]
    pub(crate) fn never_lost(&self) -> bool {
        self.draw || self.shortest_lost.is_some()
    }

    /// The least distance the position can be lost at through these
    /// moves: one ply past the longest won position they reach (0 for
    /// none).
    ///
    /// # Errors
    ///
    /// [`TooDeep`] as [`ply_before`].
    #[inline]
    pub(crate) fn loss_floor(&self) -> Result<u16, TooDeep> {
        self.longest_won.map_or(Ok(0), |d| ply_before(u32::from(d)))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_win_and_a_loss_are_one_ply_past_what_they_reach() {
        assert_eq!(ply_before(0), Ok(1));
        assert_eq!(ply_before(41), Ok(42));
        assert_eq!(loss_after(3, 7), Ok(8));
        assert_eq!(loss_after(9, 7), Ok(10));
        assert_eq!(loss_after(0, 0), Ok(1));
    }

    #[test]
    fn past_the_longest_distance_is_an_error_not_a_cut() {
        assert_eq!(ply_before(u32::from(LONGEST) - 1), Ok(LONGEST));
        assert_eq!(ply_before(u32::from(LONGEST)), Err(TooDeep));
        assert_eq!(ply_before(u32::MAX), Err(TooDeep));
        assert_eq!(loss_after(LONGEST, 0), Err(TooDeep));
        assert_eq!(loss_after(0, LONGEST), Err(TooDeep));
        let mut exits = Exits::default();
        assert_eq!(exits.note(Wdl::Win, u32::from(LONGEST) + 1), Err(TooDeep));
        assert_eq!(exits, Exits::default(), "a refused move changes nothing");
        exits.note(Wdl::Loss, u32::from(LONGEST)).unwrap();
        assert_eq!(exits.win_at(), Err(TooDeep));
        exits.note(Wdl::Win, u32::from(LONGEST)).unwrap();
        assert_eq!(exits.loss_floor(), Err(TooDeep));
        // Every caller's error says the same.
        assert_eq!(
            GenerateError::from(TooDeep).to_string(),
            TooDeep.to_string()
        );
        let retro = crate::retrograde::RetroError::from(TooDeep).to_string();
        assert!(
            retro.ends_with(&TooDeep.to_string()["a position".len()..]),
            "{retro}"
        );
    }

    #[test]
    fn exits_keep_the_shortest_win_and_the_longest_loss() {
        let mut exits = Exits::default();
        assert_eq!(exits.win_at(), Ok(None));
        assert_eq!(exits.loss_floor(), Ok(0));
        assert!(!exits.never_lost());
        for (value, d) in [(Wdl::Win, 4), (Wdl::Win, 9), (Wdl::Win, 2)] {
            exits.note(value, d).unwrap();
        }
        assert_eq!(exits.loss_floor(), Ok(10), "lost one ply past the longest");
        assert!(!exits.never_lost(), "every move so far reaches a win");
        exits.note(Wdl::Draw, 0).unwrap();
        assert!(exits.never_lost());
        assert_eq!(exits.win_at(), Ok(None));
        for (value, d) in [(Wdl::Loss, 6), (Wdl::Loss, 3), (Wdl::Loss, 8)] {
            exits.note(value, d).unwrap();
        }
        assert_eq!(exits.win_at(), Ok(Some(4)), "won one ply past the shortest");
        assert_eq!(
            exits,
            Exits {
                shortest_lost: Some(3),
                longest_won: Some(9),
                draw: true
            }
        );
    }
}
