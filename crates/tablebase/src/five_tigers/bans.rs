//! What the shuttle ban adds to the retrograde generator (`cells`), whose
//! cells are then those of a [`BanIndex`] with bans, a state per pair of
//! bans the two sides can be under.
//!
//! * A step of the side to move may not be its ban's step back; after a
//!   step `from → to` that forms nothing, its ban is `to → from` (the way
//!   back is the point just left, so it is empty) and the other side's
//!   ban is kept unless the step entered its way back (then the other
//!   side, to move, is blocked by the enemy until it steps: void).
//! * So the un-move of a state is forced by the ban of the side that just
//!   stepped (none: no predecessor in the material), and a predecessor's
//!   own earlier ban is any of its steps back but the one that bans this
//!   step. The other side's ban was the same, or, if it has none now, none
//!   or a step back onto the point entered; a ban whose way back is the
//!   point left would have been blocked by the stepping side's piece with
//!   the banned side not to move, a state no position of play has.
//! * A step that forms a formation is a conversion, solved forward
//!   through the removals (memoised by the owed state's canonical key,
//!   its bans included, or by the position itself while more removals are
//!   owed than a key holds) into the smaller tables, read at the cell of
//!   the state the removals leave.
//!
//! The table handed on is dense, cell by cell (a blocked file of version
//! 3, written from the arrays with no key and no sort); its keyed form
//! (`Table::keyed`) is what a version-1 file of the material holds.

use std::cell::Cell;

use qi_core::{Bitboard32, Side};
use qi_five_tigers::{quiet_unsteps, LastStep, Move, Point, Rules, NEIGHBOURS};

use super::dense::StepFrame;
use super::dense_ban::{BanIndex, Block, Near};
use super::key::{Ban, State, ALL};
use super::removals::{conversion, Lookup, Memo};
use super::steps::{
    convert_step, for_each_step, is_banned, start_by_steps, with, Converted, SlotStart,
};
use super::table::internal;
use super::Material;
use crate::driver::GenerateError;

/// The bans after a step `from → to` of side `stm` that forms nothing,
/// the other side's ban being `kept` before it: the side's is the way back
/// (`to → from`), the other side's is kept unless the step entered its way
/// back (see the module docs).
#[inline(always)]
pub(super) fn bans_after_step(stm: usize, kept: Option<Ban>, from: u8, to: u8) -> [Option<Ban>; 2] {
    let mut next = [None, None];
    next[stm] = Some(Ban { at: to, back: from });
    next[1 - stm] = kept.filter(|b| b.back != to);
    next
}

/// A successor's cell not yet found (no cell has this number).
const UNKNOWN: u64 = u64::MAX;

/// How the states of one board slot (its boards and side to move; the
/// cells differ in bans) start, and what they share, found once for all
/// of them: each step forming nothing with the block of the boards after
/// it and its successors' cells by the other side's ban, and the
/// conversions met so far. After a step `from → to` that forms nothing
/// the side's ban is `to → from`, and the other side's is kept unless the
/// step entered its way back (see the module docs); after a step that
/// forms a formation the side's own earlier ban is gone, so a conversion
/// depends on the step and the other side's ban only. Without bans (the
/// shuttle allowed) a board slot is its one cell, whose successors are
/// board slots: nothing is shared, and the steps are not kept.
#[derive(Default)]
pub(super) struct BlockStart {
    boards: [u32; 2],
    stm: usize,
    values: [u8; 5],
    /// The steps forming nothing, in the order `start_by_steps` walks
    /// them, each with the boards after it and their block, found at its
    /// first use (a check of a loss mostly stops at the first successor).
    steps: Vec<(u8, u8, [u32; 2], Option<Block>)>,
    /// The other side's bans, in the order of their coordinates.
    others: Vec<Option<Ban>>,
    /// By step and the other side's ban (`step · others.len() + k`), the
    /// successor's cell, found at its first use ([`UNKNOWN`] before).
    cells: Vec<u64>,
    /// The conversions met in this block: by step and the other side's
    /// ban, their values as `start_by_steps` wants them.
    conversions: Vec<((Move, Option<Ban>), Converted)>,
    /// Without bans, with Second to move: Second's steps leave First's
    /// board as it is, so its class is found once (without bans the
    /// steps, the other side's bans and the cells are not kept).
    frame: Option<StepFrame>,
}

impl BlockStart {
    /// Starts over on the board slot of `boards` with `stm` to move.
    #[inline]
    pub(super) fn reset(
        &mut self,
        index: &BanIndex,
        boards: [u32; 2],
        stm: usize,
        values: &[u8; 5],
    ) {
        self.boards = boards;
        self.stm = stm;
        self.values = *values;
        self.conversions.clear();
        if !index.has_bans() {
            let dense = &index.boards;
            self.frame = (stm == 1).then(|| dense.step_frame(dense.first(boards[0]), boards[1]));
            return;
        }
        self.steps.clear();
        self.cells.clear();
        let empty = ALL & !(boards[0] | boards[1]);
        index.bans_in_order(boards[1 - stm], empty, &mut self.others);
        let steps = &mut self.steps;
        for_each_step(boards, stm, None, values, |from, to, after, forming| {
            if !forming {
                steps.push((from, to, with(boards, stm, after), None));
            }
            true
        });
        self.cells
            .resize(self.steps.len() * self.others.len(), UNKNOWN);
    }

    /// The start of the block's state with `bans`: its successors in the
    /// material (into `children`, sorted and distinct) and its
    /// conversions' values.
    #[allow(clippy::too_many_arguments)]
    pub(super) fn start<L: Lookup + ?Sized>(
        &mut self,
        index: &BanIndex,
        bans: [Option<Ban>; 2],
        rules: &Rules,
        material: Material,
        smaller: &L,
        memo: &mut Memo,
        children: &mut Vec<u64>,
    ) -> Result<SlotStart, GenerateError> {
        let (boards, stm) = (self.boards, self.stm);
        let other = 1 - stm;
        let kept = bans[other];
        let side = Side::BOTH[stm];
        let (steps, conversions, cells) = (&mut self.steps, &mut self.conversions, &mut self.cells);
        let frame = &self.frame;
        let n = self.others.len();
        let kept_at = self.others.iter().position(|&b| b == kept);
        let mut here = None;
        let convert = |mv| {
            if let Some(&(_, v)) = conversions.iter().find(|(k, _)| *k == (mv, kept)) {
                return Ok(v);
            }
            let v = convert_step(
                &mut here,
                || {
                    State::at_rest(boards, stm, bans)
                        .to_position(rules)
                        .ok_or_else(|| internal(format!("no position for {boards:?}")))
                },
                mv,
                side,
                |child| conversion(child, smaller, material, memo),
            )?;
            conversions.push(((mv, kept), v));
            Ok(v)
        };
        let values = &self.values;
        if !index.has_bans() {
            // A successor is a board slot (Second's steps from the
            // frame): a walk of its own, the ban path's lookup not in
            // its loop.
            let successor = |from, to, after| match frame {
                Some(frame) => index.boards.slot_after_step(frame, from, to, 0),
                None => index.boards.slot(after, boards[1], 1),
            };
            return start_by_steps(boards, stm, None, values, convert, successor, children);
        }
        let mut cursor = 0;
        start_by_steps(
            boards,
            stm,
            bans[stm],
            values,
            convert,
            |from, to, after| {
                // The steps come in the walk's order (the banned one
                // skipped), so the search goes on from the last found.
                let step = (from, to);
                let Some(k) = steps[cursor..].iter().position(|s| (s.0, s.1) == step) else {
                    let next = bans_after_step(stm, kept, from, to);
                    return index.cell(with(boards, stm, after), other, next);
                };
                cursor += k;
                let at = kept_at.map(|b| cursor * n + b);
                successor(index, steps, cells, stm, cursor, kept, at)
            },
            children,
        )
    }

    /// Whether every successor in the material of the block's state with
    /// the side to move's ban `own` and the other's `other` is `won`, its
    /// steps walked as [`BlockStart::start`] walks them: the out-of-core
    /// generator's check of a loss (its conversions all lose there).
    pub(super) fn all_successors(
        &mut self,
        index: &BanIndex,
        own: Option<Ban>,
        other: Option<Ban>,
        mut won: impl FnMut(u64) -> bool,
    ) -> bool {
        let n = self.others.len();
        let kept_at = self.others.iter().position(|&b| b == other);
        let (stm, steps, cells) = (self.stm, &mut self.steps, &mut self.cells);
        for i in 0..steps.len() {
            if is_banned(own, steps[i].0, steps[i].1) {
                continue;
            }
            let at = kept_at.map(|b| i * n + b);
            if !won(successor(index, steps, cells, stm, i, other, at)) {
                return false;
            }
        }
        true
    }
}

/// The cell after step `i` of `steps` (of [`BlockStart`], `stm` to move)
/// of the state whose other side's ban is `kept`: kept in `cells` at
/// `at` (none: `kept` is not among the block's bans), found at its first
/// use.
#[inline(always)]
fn successor(
    index: &BanIndex,
    steps: &mut [(u8, u8, [u32; 2], Option<Block>)],
    cells: &mut [u64],
    stm: usize,
    i: usize,
    kept: Option<Ban>,
    at: Option<usize>,
) -> u64 {
    let (from, to, after, block) = &mut steps[i];
    let mut cell = || {
        let block = block.get_or_insert_with(|| index.block(*after, 1 - stm));
        block.cell(bans_after_step(stm, kept, *from, *to))
    };
    let Some(at) = at else {
        return cell();
    };
    if cells[at] == UNKNOWN {
        cells[at] = cell();
    }
    cells[at]
}

/// The un-moves of `cell` under the ban (see the module docs and
/// [`cells::unmoves`](super::cells::unmoves)), each predecessor given to
/// `each(cell, own, other)` with its bans there, of its side to move
/// (`own`) and of the other side (those of an image of its state under a
/// symmetry: the same successors' cells); the boards and side to move the
/// predecessors share (the boards before the step back, the side that
/// stepped) told to `before_state((boards, stm))` first (not at all for
/// a cell without predecessors). With `twins`, a predecessor with Second
/// to move is given as the cell of its twin (the colours swapped: the boards
/// exchanged, First to move, the bans exchanged), which has the same
/// value and distance: in `a v a` the cells with Second to move are
/// solved as their twins ([`out_of_core`](super::out_of_core)). The bans
/// given beside it stay the predecessor's own.
#[inline]
pub(super) fn unmoves_from(
    index: &BanIndex,
    cell: u64,
    values: &[u8; 5],
    twins: bool,
    before_state: impl FnOnce(([u32; 2], usize)),
    mut each: impl FnMut(u64, Option<Ban>, Option<Ban>),
) {
    thread_local! {
        static NEAR: Cell<Near> = Cell::new(Near::default());
    }
    let (boards, stm, bans) = NEAR.with(|near| {
        let mut n = near.get();
        let decoded = index.decode_near(cell, &mut n);
        near.set(n);
        decoded
    });
    let mover = 1 - stm;
    // The step was `from → to`, its reverse the mover's ban: the one
    // un-step, if it formed nothing.
    let Some(Ban { at, back }) = bans[mover] else {
        return;
    };
    let theirs = boards[mover];
    let (Some(from), Some(to)) = (Point::new(back), Point::new(at)) else {
        return;
    };
    let mut quiet = false;
    let empty_now = Bitboard32(ALL & !(boards[0] | boards[1]));
    let last = Some(LastStep { from, to });
    quiet_unsteps(Bitboard32(theirs), empty_now, values, last, |_, _| {
        quiet = true
    });
    if !quiet {
        return;
    }
    let (from, to) = (back, at);
    let before = with(boards, mover, theirs ^ (1 << to) ^ (1 << from));
    let mut others: [Option<Ban>; 5] = [None; 5];
    let mut n_others = 1;
    match bans[stm] {
        Some(b) if b.back == from => return,
        Some(b) => others[0] = Some(b),
        None => {
            for at in Bitboard32(boards[stm]) & NEIGHBOURS[usize::from(to)] {
                others[n_others] = Some(Ban { at, back: to });
                n_others += 1;
            }
        }
    }
    before_state((before, mover));
    let empty = ALL & !(before[0] | before[1]);
    let banned = Ban { at: from, back: to };
    // The side whose bans are `own` in the block found (the mover, or
    // First in a twin's block), and the other.
    let (block, own_side) = if twins && mover == 1 {
        (index.block([before[1], before[0]], 0), 0)
    } else {
        (index.block(before, mover), mover)
    };
    let other_side = 1 - own_side;
    // With one symmetry onto the block (most), each ban's coordinate is
    // found once, not once per pair.
    let other_at = block
        .single()
        .then(|| others.map(|b| block.coordinate(other_side, b)));
    let mut push = |own: Option<Ban>| match &other_at {
        Some(other_at) => {
            let c = block.coordinate(own_side, own);
            for (&o, &other) in other_at[..n_others].iter().zip(&others) {
                let p = if own_side == 0 {
                    block.cell_at(c, o)
                } else {
                    block.cell_at(o, c)
                };
                each(p, own, other);
            }
        }
        None => {
            for &other in &others[..n_others] {
                let mut b = [None, None];
                b[own_side] = own;
                b[other_side] = other;
                each(block.cell(b), own, other);
            }
        }
    };
    push(None);
    for at in Bitboard32(before[mover]) {
        for back in NEIGHBOURS[usize::from(at)] & Bitboard32(empty) {
            let own = Ban { at, back };
            if own != banned {
                push(Some(own));
            }
        }
    }
}

#[cfg(test)]
mod tests;
