//! A position's steps as the generators walk them: each piece of the
//! side to move onto each adjacent empty point but its banned step back
//! ([`for_each_step`]), and how a position starts from them
//! ([`start_by_steps`]): a step that forms a formation is a conversion
//! into the smaller tables ([`convert_step`]), any other one a successor
//! in the material. The in-core generator (`cells`, with `bans`'s
//! shared starts of a board slot's cells) and the out-of-core one
//! (`out_of_core`) share it.

use qi_core::{Bitboard32, Position, Side};
use qi_five_tigers::{FiveTigers, Move, Point, NEIGHBOURS, THROUGH};

use super::key::{Ban, ALL};
use super::table::internal;
use crate::driver::GenerateError;
use crate::retrograde::{Open, Start};
use crate::round::Exits;
use crate::value::Wdl;

/// Whether a step of the side on `own` (after the step) onto `to` forms a
/// formation.
#[inline]
pub(super) fn forms(own: u32, to: u8, values: &[u8; 5]) -> bool {
    THROUGH[usize::from(to)].value_held(Bitboard32(own), values) > 0
}

/// The boards with `side`'s replaced by `board`.
#[inline]
pub(super) fn with(boards: [u32; 2], side: usize, board: u32) -> [u32; 2] {
    let mut b = boards;
    b[side] = board;
    b
}

/// How a slot starts, from its steps.
#[derive(Debug, PartialEq)]
pub(super) enum SlotStart {
    /// The side to move has no step: lost at 0.
    NoStep,
    /// Its steps: those that stay in the material were appended to the
    /// caller's `children` (sorted, distinct); those that form a formation
    /// lead through the removals into smaller tables, and what they reach
    /// is folded into these exits.
    Moves(Exits),
}

impl SlotStart {
    /// The start of the solvers, with `children` distinct successors in
    /// the material: a position with no step is lost at 0.
    pub(super) fn into_start(self, children: usize) -> Start {
        match self {
            SlotStart::NoStep => Start::Decided(Wdl::Loss, 0),
            SlotStart::Moves(exits) => Start::Open(Open {
                successors: children as u32,
                exits,
            }),
        }
    }
}

/// Whether the step `from → to` is the side's `banned` step back.
#[inline(always)]
pub(super) fn is_banned(banned: Option<Ban>, from: u8, to: u8) -> bool {
    banned == Some(Ban { at: from, back: to })
}

/// The steps of the side to move (`stm`, on `boards`), in order: each
/// piece onto each adjacent empty point but `banned` (its step back, under
/// the shuttle ban), given to `step(from, to, after, forming)` with the
/// side's board `after` the step and whether the step forms a formation
/// (it then leads into the removals, out of the material), which says
/// whether to go on. The one walk of a position's steps: its start
/// ([`start_by_steps`]) and the out-of-core generator's check of a loss
/// take it. `Some(whether there was a step)`, or `None` as soon as `step`
/// says to stop.
#[inline]
pub(super) fn for_each_step(
    boards: [u32; 2],
    stm: usize,
    banned: Option<Ban>,
    values: &[u8; 5],
    mut step: impl FnMut(u8, u8, u32, bool) -> bool,
) -> Option<bool> {
    let own = boards[stm];
    let empty = Bitboard32(ALL & !(boards[0] | boards[1]));
    let mut any = false;
    for from in Bitboard32(own) {
        for to in NEIGHBOURS[usize::from(from)] & empty {
            if is_banned(banned, from, to) {
                continue;
            }
            any = true;
            let after = own ^ (1 << from) ^ (1 << to);
            if !step(from, to, after, forms(after, to, values)) {
                return None;
            }
        }
    }
    Some(any)
}

/// How a position starts, from its steps ([`for_each_step`]): the walk
/// both generators share. A step that forms a formation leads into the
/// removals: `conversion(step)` values the position after it (for that
/// position's side to move, and whether that is still this side, with a
/// removal left to take: [`convert_step`] makes it). Any other step is a
/// successor in the material, whose slot `successor(from, to, after)`
/// gives (`after`: the side's board after the step), collected into
/// `children` (sorted and distinct).
pub(super) fn start_by_steps(
    boards: [u32; 2],
    stm: usize,
    banned: Option<Ban>,
    values: &[u8; 5],
    mut conversion: impl FnMut(Move) -> Result<Converted, GenerateError>,
    mut successor: impl FnMut(u8, u8, u32) -> u64,
    children: &mut Vec<u64>,
) -> Result<SlotStart, GenerateError> {
    let mut exits = Exits::default();
    let mut failed = None;
    let walked = for_each_step(boards, stm, banned, values, |from, to, after, forming| {
        if !forming {
            children.push(successor(from, to, after));
            return true;
        }
        let converted = match (Point::new(from), Point::new(to)) {
            (Some(from), Some(to)) => conversion(Move::Step { from, to }),
            _ => Err(internal("point".into())),
        };
        // `exits` read the value for the side that moves next: the
        // conversion's is for its side to move, this side if a removal is
        // left to take.
        let noted = converted
            .and_then(|(v, d, same_side)| Ok(exits.note(if same_side { v.flip() } else { v }, d)?));
        if let Err(e) = noted {
            failed = Some(e);
        }
        failed.is_none()
    });
    match walked {
        None => Err(failed.unwrap_or_else(|| internal("a step walk stopped".into()))),
        Some(false) => Ok(SlotStart::NoStep),
        Some(true) => {
            children.sort_unstable();
            children.dedup();
            Ok(SlotStart::Moves(exits))
        }
    }
}

/// A conversion's value and distance for the side to move after it, and
/// whether that is still the side that stepped (a removal left to take).
pub(super) type Converted = (Wdl, u32, bool);

/// The conversion of the step `mv` that forms a formation in the position
/// `here` makes (made into `position` at the first such step, then
/// reused): the position after the step valued by `value`, and whether
/// its side to move is still `side` (a removal left to take), as
/// [`start_by_steps`] wants it.
pub(super) fn convert_step(
    position: &mut Option<FiveTigers>,
    here: impl FnOnce() -> Result<FiveTigers, GenerateError>,
    mv: Move,
    side: Side,
    value: impl FnOnce(&FiveTigers) -> Result<(Wdl, u32), GenerateError>,
) -> Result<Converted, GenerateError> {
    let mut child = match position {
        Some(p) => *p,
        None => *position.insert(here()?),
    };
    child.play_unchecked(mv);
    let (v, d) = value(&child)?;
    Ok((v, d, child.side_to_move() == side))
}
