//! The best removal: the value of a Five Tigers position with removals
//! owed, for its side to move, written once ([`best_removal`]) for the
//! generators (the conversions a forming step leads into:
//! [`conversion`]) and the prober
//! ([`crate::LazyTablebase::probe_through_removals`]).
//!
//! The side owed a removal picks the best for itself (a win over a draw
//! over a loss, the shortest win, the longest loss), each removal a ply,
//! down to a finished game (its outcome at distance 0) or a position with
//! nothing owed, which the caller values from a table.

use std::collections::HashMap;

use qi_core::{Position, Side};
use qi_five_tigers::{FiveTigers, LastStep};

use super::key::{State, MAX_KEYED_OWED};
use super::{forbids_shuttle, Material};
use crate::driver::GenerateError;
use crate::value::Wdl;

/// A value and its distance in plies, for the side to move.
pub(super) type Valued = (Wdl, u32);

/// The values of positions owing removals met before, by [`MemoKey`]: a
/// generation meets the same owed positions again and again.
pub(super) type Memo = HashMap<MemoKey, Valued>;

/// What a position owing removals is memoised by: the canonical key of its
/// state (its bans included under `shuttle = forbidden`), or, with more
/// removals owed than a key holds (a formation of 5 pieces can owe 4 or
/// more, and no table stores such a state), the position's own boards,
/// turn, debt and previous steps (those only under the ban): not
/// canonical, but only the first removals of such a formation are met
/// that way.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub(super) enum MemoKey {
    /// The canonical key of the state.
    Canonical(u64),
    /// The position itself.
    Raw {
        boards: [u32; 2],
        stm: Side,
        owed: (Side, u8),
        steps: [Option<LastStep>; 2],
    },
}

impl MemoKey {
    /// The key of `pos` (owing removals), `None` if it has no state.
    fn of(pos: &FiveTigers) -> Option<MemoKey> {
        match pos.owed().first() {
            Some((taker, count)) if count > MAX_KEYED_OWED => {
                let ban = forbids_shuttle(pos.rules());
                let step = |side| if ban { pos.last_step(side) } else { None };
                Some(MemoKey::Raw {
                    boards: [pos.pieces(Side::First).0, pos.pieces(Side::Second).0],
                    stm: pos.side_to_move(),
                    owed: (taker, count),
                    steps: [step(Side::First), step(Side::Second)],
                })
            }
            _ => Some(MemoKey::Canonical(
                State::from_position(pos).ok()?.canonical()?.0,
            )),
        }
    }
}

/// Where a conversion ends: the value and distance of a position with
/// nothing owed in the table of its (smaller) material. The generators
/// look it up in the tables they hold (at the position's cell, as a probe
/// does); a slice of a cluster reads it from the worker that owns it.
pub(super) trait Lookup {
    /// The value and distance of `pos` (nothing owed), for its side to
    /// move, reached from a position of `material`.
    fn value(&self, pos: &FiveTigers, material: Material) -> Result<Valued, GenerateError>;
}

/// The value and distance, for its side to move, of a position of
/// `material` reached by a step that formed a formation (or of the
/// removals after it): [`best_removal`] down to the smaller tables
/// `smaller` holds, memoised in `memo`.
pub(super) fn conversion<L: Lookup + ?Sized>(
    pos: &FiveTigers,
    smaller: &L,
    material: Material,
    memo: &mut Memo,
) -> Result<Valued, GenerateError> {
    best_removal(pos, memo, &mut |p| smaller.value(p, material).map(Some))?
        .ok_or_else(|| GenerateError::Internal(format!("the owed position {pos} has no move")))
}

/// The better of two values for the side to move: a win over a draw over
/// a loss, the shortest win, the longest loss.
fn better(a: Valued, b: Valued) -> Valued {
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
/// (see the module docs), kept in `memo`. `None` when `settled` knows no
/// value for a position reached, or a position owing removals has none.
pub(super) fn best_removal<E>(
    pos: &FiveTigers,
    memo: &mut Memo,
    settled: &mut impl FnMut(&FiveTigers) -> Result<Option<Valued>, E>,
) -> Result<Option<Valued>, E> {
    let me = pos.side_to_move();
    if let Some(o) = pos.outcome() {
        return Ok(Some((Wdl::of_outcome(o, me), 0)));
    }
    if pos.owed().is_empty() {
        return settled(pos);
    }
    let k = MemoKey::of(pos);
    if let Some(&v) = k.as_ref().and_then(|k| memo.get(k)) {
        return Ok(Some(v));
    }
    let mut best: Option<Valued> = None;
    for mv in pos.legal_moves() {
        let mut child = *pos;
        child.play_unchecked(mv);
        let Some((v, d)) = best_removal(&child, memo, settled)? else {
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
mod tests;
