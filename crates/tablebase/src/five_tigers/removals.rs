//! The best removal: the value of a Five Tigers position with removals
//! owed, for its side to move, written once for the generators (the
//! conversions a forming step leads into) and the prober
//! ([`crate::LazyTablebase::probe_through_removals`]).
//!
//! The side owed a removal picks the best for itself (a win over a draw
//! over a loss, the shortest win, the longest loss), each removal a ply,
//! down to a finished game (its outcome at distance 0) or a position with
//! nothing owed, which the caller values from a table.

use std::collections::HashMap;
use std::hash::Hash;

use qi_core::Position;
use qi_five_tigers::FiveTigers;

use crate::value::Wdl;

/// A value and its distance in plies, for the side to move.
pub(super) type Valued = (Wdl, u32);

/// The better of two values for the side to move: a win over a draw over
/// a loss, the shortest win, the longest loss.
pub(crate) fn better(a: Valued, b: Valued) -> Valued {
    match a.0.cmp(&b.0) {
        std::cmp::Ordering::Greater => a,
        std::cmp::Ordering::Less => b,
        std::cmp::Ordering::Equal => match a.0 {
            Wdl::Win => (Wdl::Win, a.1.min(b.1)),
            Wdl::Loss => (Wdl::Loss, a.1.max(b.1)),
            Wdl::Draw => a,
        },
    }
}

/// The value and distance of `pos` for its side to move, through the
/// removals it owes: a finished game's outcome at 0; a position with
/// nothing owed as `settled` values it; else the best of its removals
/// (see the module docs). `None` when `settled` knows no value for a
/// position reached, or a position owing removals has none.
///
/// `memo` keeps the values of positions owing removals met before, under
/// the key `key` gives (`None`: not kept): a generation meets the same
/// owed positions again and again, a probe once.
pub(super) fn through_removals<K: Eq + Hash, E>(
    pos: &FiveTigers,
    key: &impl Fn(&FiveTigers) -> Result<Option<K>, E>,
    memo: &mut HashMap<K, Valued>,
    settled: &mut impl FnMut(&FiveTigers) -> Result<Option<Valued>, E>,
) -> Result<Option<Valued>, E> {
    let me = pos.side_to_move();
    if let Some(o) = pos.outcome() {
        return Ok(Some((Wdl::of_outcome(o, me), 0)));
    }
    if pos.owed().is_empty() {
        return settled(pos);
    }
    let k = key(pos)?;
    if let Some(&v) = k.as_ref().and_then(|k| memo.get(k)) {
        return Ok(Some(v));
    }
    let mut best: Option<Valued> = None;
    for mv in pos.legal_moves() {
        let mut child = *pos;
        child.play_unchecked(mv);
        let Some((v, d)) = through_removals(&child, key, memo, settled)? else {
            return Ok(None);
        };
        let v = if child.side_to_move() == me {
            v
        } else {
            v.flip()
        };
        // A draw's distance is 0, as in the tables.
        let candidate = (v, if v == Wdl::Draw { 0 } else { d + 1 });
        best = Some(best.map_or(candidate, |b| better(b, candidate)));
    }
    if let (Some(k), Some(b)) = (k, best) {
        memo.insert(k, b);
    }
    Ok(best)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_win_beats_a_draw_beats_a_loss_and_distances_break_ties() {
        assert_eq!(better((Wdl::Loss, 3), (Wdl::Draw, 0)), (Wdl::Draw, 0));
        assert_eq!(better((Wdl::Win, 9), (Wdl::Draw, 0)), (Wdl::Win, 9));
        assert_eq!(better((Wdl::Win, 9), (Wdl::Win, 4)), (Wdl::Win, 4));
        assert_eq!(better((Wdl::Loss, 2), (Wdl::Loss, 7)), (Wdl::Loss, 7));
    }
}
