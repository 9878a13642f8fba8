//! The retrograde generator of one Five Tigers material under `shuttle =
//! forbidden`: `retro`'s analysis (its state bytes, initial pass and
//! propagation) over the cells of a [`BanIndex`], a state per pair of
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
//!   owed than a key holds) into the smaller tables, looked up by the
//!   canonical key of the state the removals leave.
//!
//! * The propagation goes round by round (distance by distance), each
//!   round a scan of the state and distance arrays for the states decided
//!   at that distance, so no queue of decided states is held: what a
//!   state waits for is in its own bytes (a decided state's distance, a
//!   winning conversion's distance, a lost state's longest losing
//!   conversion).
//!
//! The table handed on is dense, cell by cell (a blocked file of version
//! 3, written from the arrays with no key and no sort); its keyed form
//! (`Table::keyed`) has the graph generator's canonical keys, values and
//! distances (`solve`), so those files are byte-identical.

use std::cell::Cell;
use std::collections::HashMap;
use std::sync::Arc;

use qi_core::{Bitboard32, Position, Side};
use qi_five_tigers::{
    quiet_unsteps, FiveTigers, LastStep, Move, Point, Rules, Shuttle, NEIGHBOURS,
};

use super::dense_ban::{bans_in_order, BanIndex, Block, Near};
use super::key::{Ban, State, MAX_KEYED_OWED};
use super::removals::through_removals;
use super::retro::{
    convert_step, decided, forms, internal, needed_table, pack_states, points, predecessors, side,
    start_by_steps, with, Converted, Lookup, SlotStart, COUNT, LOSS, LOSS_NEW, NON_LOSING,
    UNUSED_STATE, WIN, WIN_NEW,
};
use super::{DenseBan, Material, Slots, Table, Tablebase};
use crate::driver::{join_workers, GenerateError};
use crate::round;
use crate::value::{Distances, Wdl, ONE_BYTE_LONGEST};

const ALL: u32 = (1 << 25) - 1;

/// Working bytes per 4 states: the state byte and a one-byte distance
/// while solving (see [`Distance`]), then, while the table handed on is
/// packed from them, 2 bits of value (its distances are the solving
/// distances, zeroed where undecided, in place): 9 bytes, no queue and no
/// key (the frontier of a round is a block of [`BLOCK`] cells at a time).
/// A material with a distance past 254 plies is solved again with two
/// bytes a distance (none is known: the longest under the ban so far is
/// 109 plies, `4v4`).
pub(crate) const BYTES_PER_4_STATES: u64 = 4 * 2 + 1;

/// A distance while solving: one byte while every distance of the
/// material fits in one (below [`Distance::LIMIT`]), else two.
pub(super) trait Distance: Copy + Default + Send + Sync + 'static {
    /// Distances must stay below this.
    const LIMIT: u32;
    /// `d`, cut to the width (the callers check it against
    /// [`Distance::LIMIT`]).
    fn of(d: u16) -> Self;
    /// The distance.
    fn get(self) -> u16;
    /// The table's distances: each decided cell's (`WIN`, `LOSS`), 0 for
    /// the others, in the narrowest width that holds them.
    fn table_distances(dist: Vec<Self>, states: &[u8]) -> Distances;
    /// The cells of `dist` that may be decided at `here` ([`candidates`]).
    fn candidates(dist: &[Self], here: u16) -> u64 {
        candidates(dist, here)
    }
}

impl Distance for u8 {
    const LIMIT: u32 = ONE_BYTE_LONGEST;
    fn of(d: u16) -> u8 {
        d as u8
    }
    fn get(self) -> u16 {
        u16::from(self)
    }
    fn candidates(dist: &[u8], here: u16) -> u64 {
        match <&[u8; SCAN]>::try_from(dist) {
            Ok(chunk) => byte_candidates(chunk, here),
            Err(_) => candidates(dist, here),
        }
    }
    /// In place: the table's distances are the solving array.
    fn table_distances(mut dist: Vec<u8>, states: &[u8]) -> Distances {
        for (d, &s) in dist.iter_mut().zip(states) {
            if !decided(s) {
                *d = 0;
            }
        }
        Distances::U8(dist)
    }
}

impl Distance for u16 {
    const LIMIT: u32 = round::LONGEST as u32 + 1;
    fn of(d: u16) -> u16 {
        d
    }
    fn get(self) -> u16 {
        self
    }
    fn table_distances(dist: Vec<u16>, states: &[u8]) -> Distances {
        super::retro::table_distances(states, &dist)
    }
}

/// Cells decided per block of a round: enough to share among the threads,
/// few enough that the updates of one block stay small.
const BLOCK: usize = 1 << 16;

/// The memoised values of owed-removal states.
pub(super) type Memo = HashMap<MemoKey, (Wdl, u32)>;

/// What an owed-removal state is memoised by: its canonical key, or, with
/// more removals owed than a key holds (a formation of 5 pieces can owe 4
/// or more, and no table stores such a state), the position's own boards,
/// turn, debt and previous steps: not canonical, but only the first
/// removals of such a formation are met that way.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub(super) enum MemoKey {
    Canonical(u64),
    Raw {
        boards: [u32; 2],
        stm: Side,
        owed: (Side, u8),
        steps: [Option<LastStep>; 2],
    },
}

impl MemoKey {
    fn of(pos: &FiveTigers) -> Result<MemoKey, GenerateError> {
        match pos.owed().first() {
            Some((taker, count)) if count > MAX_KEYED_OWED => Ok(MemoKey::Raw {
                boards: [pos.pieces(Side::First).0, pos.pieces(Side::Second).0],
                stm: pos.side_to_move(),
                owed: (taker, count),
                steps: [pos.last_step(Side::First), pos.last_step(Side::Second)],
            }),
            _ => canonical_key(pos).map(MemoKey::Canonical),
        }
    }
}

/// The state with nothing owed of a cell.
fn state_of(boards: [u32; 2], stm: usize, bans: [Option<Ban>; 2]) -> State {
    State {
        boards,
        stm: side(stm),
        bans,
        owed: 0,
        taker: Side::First,
    }
}

/// The canonical key of the state of `pos`.
pub(super) fn canonical_key(pos: &FiveTigers) -> Result<u64, GenerateError> {
    let state = State::from_position(pos)
        .map_err(|e| internal(format!("the position {pos} has no state ({e:?})")))?;
    Ok(state
        .canonical()
        .ok_or_else(|| internal(format!("the position {pos} has no key")))?
        .0)
}

/// The value and distance, for its side to move, of a position reached by
/// a step that formed a formation (or of the removals after it).
fn conversion<L: Lookup + ?Sized>(
    pos: &FiveTigers,
    smaller: &L,
    material: Material,
    memo: &mut Memo,
) -> Result<(Wdl, u32), GenerateError> {
    let key = |pos: &FiveTigers| MemoKey::of(pos).map(Some);
    through_removals(pos, &key, memo, &mut |p| {
        smaller.value(p, material).map(Some)
    })?
    .ok_or_else(|| internal(format!("the owed position {pos} has no move")))
}

/// Under the shuttle ban the tables are looked up by canonical key (the
/// state with both previous steps).
impl Lookup for Tablebase {
    fn value(&self, pos: &FiveTigers, material: Material) -> Result<(Wdl, u32), GenerateError> {
        let key = canonical_key(pos)?;
        let m = Material::of(pos)
            .ok_or_else(|| internal(format!("the conversion {pos} has no material")))?;
        let table = needed_table(self, material, m)?;
        table
            .get_key(key)
            .ok_or_else(|| internal(format!("the conversion {pos} is not in table {m}")))
    }
}

/// The bans after a step `from → to` of side `stm` that forms nothing,
/// the other side's ban being `kept` before it: the side's is the way back
/// (`to → from`), the other side's is kept unless the step entered its way
/// back (see the module docs).
#[inline(always)]
pub(super) fn bans_after_step(
    stm: usize,
    kept: Option<Ban>,
    from: u32,
    to: u32,
) -> [Option<Ban>; 2] {
    let mut next = [None, None];
    next[stm] = Some(Ban {
        at: to as u8,
        back: from as u8,
    });
    next[1 - stm] = kept.filter(|b| u32::from(b.back) != to);
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
/// depends on the step and the other side's ban only.
#[derive(Default)]
pub(super) struct BlockStart {
    boards: [u32; 2],
    stm: usize,
    values: [u8; 5],
    /// The steps forming nothing, in the order `start_by_steps` walks
    /// them, each with the block of the boards after it.
    steps: Vec<(u8, u8, Block)>,
    /// The other side's bans, in the order of their coordinates.
    others: Vec<Option<Ban>>,
    /// By step and the other side's ban (`step · others.len() + k`), the
    /// successor's cell, found at its first use ([`UNKNOWN`] before).
    cells: Vec<u64>,
    /// The conversions met in this block: by step and the other side's
    /// ban, their values as `start_by_steps` wants them.
    conversions: Vec<((Move, Option<Ban>), Converted)>,
}

impl BlockStart {
    /// Starts over on the board slot of `boards` with `stm` to move.
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
        self.steps.clear();
        self.conversions.clear();
        let own = boards[stm];
        let empty = ALL & !(boards[0] | boards[1]);
        bans_in_order(boards[1 - stm], empty, &mut self.others);
        for from in points(own) {
            for to in points(NEIGHBOURS[from as usize].0 & empty) {
                let after = own ^ (1 << from) ^ (1 << to);
                if !forms(after, to, values) {
                    let block = index.block(with(boards, stm, after), 1 - stm);
                    self.steps.push((from as u8, to as u8, block));
                }
            }
        }
        self.cells.clear();
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
        let side = side(stm);
        let (steps, conversions, cells) = (&self.steps, &mut self.conversions, &mut self.cells);
        let n = self.others.len();
        let kept_at = self.others.iter().position(|&b| b == kept);
        let mut here = None;
        let mut cursor = 0;
        start_by_steps(
            boards,
            stm,
            bans[stm],
            &self.values,
            |mv| {
                if let Some(&(_, v)) = conversions.iter().find(|(k, _)| *k == (mv, kept)) {
                    return Ok(v);
                }
                let v = convert_step(
                    &mut here,
                    || {
                        state_of(boards, stm, bans)
                            .to_position(rules)
                            .ok_or_else(|| internal(format!("no position for {boards:?}")))
                    },
                    mv,
                    side,
                    |child| conversion(child, smaller, material, memo),
                )?;
                conversions.push(((mv, kept), v));
                Ok(v)
            },
            |from, to, after| {
                let next = bans_after_step(stm, kept, from, to);
                // The steps come in the walk's order (the banned one
                // skipped), so the search goes on from the last found.
                let step = (from as u8, to as u8);
                let Some(k) = steps[cursor..].iter().position(|s| (s.0, s.1) == step) else {
                    return index.cell(with(boards, stm, after), other, next);
                };
                cursor += k;
                let Some(at) = kept_at.map(|b| cursor * n + b) else {
                    return steps[cursor].2.cell(next);
                };
                if cells[at] == UNKNOWN {
                    cells[at] = steps[cursor].2.cell(next);
                }
                cells[at]
            },
            children,
        )
    }
}

/// The un-moves of `cell`: the cells from which a step of the side not to
/// move there, forming nothing, leads to it, appended to `preds` (not
/// deduplicated; see the module docs).
pub(super) fn unmoves(index: &BanIndex, cell: u64, values: &[u8; 5], preds: &mut Vec<u64>) {
    unmoves_each(index, cell, values, |p, _, _| preds.push(p));
}

/// The state a predecessor of a cell is in: the boards before the step
/// back and the side to move there (the side that stepped), the same for
/// all the predecessors [`unmoves_each`] gives of one cell.
#[derive(Clone, Copy, Debug)]
pub(super) struct Before {
    pub boards: [u32; 2],
    pub stm: usize,
}

/// [`unmoves`], each predecessor given to `each(cell, own, other)` with
/// its bans there, of its side to move (`own`) and of the other side
/// (those of an image of its state under a symmetry: the same successors'
/// cells).
#[inline]
pub(super) fn unmoves_each(
    index: &BanIndex,
    cell: u64,
    values: &[u8; 5],
    each: impl FnMut(u64, Option<Ban>, Option<Ban>),
) {
    unmoves_from(index, cell, values, false, |_| {}, each);
}

/// [`unmoves_each`], the boards and side to move the predecessors share
/// told to `before_state` first (not at all for a cell without
/// predecessors). With `twins`, a predecessor with Second to move is
/// given as the cell of its twin (the colours swapped: the boards
/// exchanged, First to move, the bans exchanged), which has the same
/// value and distance: in `a v a` the cells with Second to move are
/// solved as their twins ([`retro_disk`](super::retro_disk)). The bans
/// given beside it stay the predecessor's own.
#[inline]
pub(super) fn unmoves_from(
    index: &BanIndex,
    cell: u64,
    values: &[u8; 5],
    twins: bool,
    before_state: impl FnOnce(Before),
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
            for at in points(boards[stm] & NEIGHBOURS[usize::from(to)].0) {
                others[n_others] = Some(Ban {
                    at: at as u8,
                    back: to,
                });
                n_others += 1;
            }
        }
    }
    before_state(Before {
        boards: before,
        stm: mover,
    });
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
    for at in points(before[mover]) {
        for back in points(NEIGHBOURS[at as usize].0 & empty) {
            let own = Ban {
                at: at as u8,
                back: back as u8,
            };
            if own != banned {
                push(Some(own));
            }
        }
    }
}

/// Records the start of a cell in its state byte and distance: a cell
/// without a step is lost at 0 (`LOSS_NEW`), an undecided one keeps its
/// count of distinct successors and `NON_LOSING`, and its distance is the
/// distance of its shortest winning conversion (a `NON_LOSING` cell; 0 for
/// none) or of its longest losing one (the others): what the rounds scan
/// for. Returns the greatest distance this cell may be decided at.
/// A distance at or past the width's [`Distance::LIMIT`] is stored cut
/// short; the caller sees it in the distance returned.
fn record_cell<D: Distance>(
    start: SlotStart,
    children: usize,
    state: &mut u8,
    far: &mut D,
) -> Result<u32, GenerateError> {
    match start {
        SlotStart::NoStep => {
            *state = LOSS_NEW;
            *far = D::of(0);
            Ok(0)
        }
        SlotStart::Moves(exits) => {
            if children > usize::from(COUNT) {
                return Err(internal(format!("{children} successors")));
            }
            let non_losing = exits.never_lost();
            *state = children as u8 | if non_losing { NON_LOSING } else { 0 };
            if non_losing {
                let w = exits.win_at()?.unwrap_or(0);
                *far = D::of(w);
                return Ok(u32::from(w));
            }
            *far = D::of(exits.longest_won.unwrap_or(0));
            Ok(u32::from(exits.loss_floor()?))
        }
    }
}

/// How each cell of the board slots `lo..hi` (of those with `only` to
/// move, or all) starts, in order: `record(cell, start)` gets `None` for a
/// cell no state uses, else the cell's start and its number of distinct
/// successors in the material. The walk of the cells every generator
/// under the ban starts them by.
#[allow(clippy::too_many_arguments)]
pub(super) fn start_cells(
    index: &BanIndex,
    lo: u64,
    hi: u64,
    only: Option<usize>,
    rules: &Rules,
    material: Material,
    smaller: &Tablebase,
    mut record: impl FnMut(u64, Option<(SlotStart, usize)>) -> Result<(), GenerateError>,
) -> Result<(), GenerateError> {
    let mut memo = Memo::new();
    let mut children: Vec<u64> = Vec::with_capacity(20);
    let mut block = BlockStart::default();
    let (mut firsts, mut seconds) = (Vec::new(), Vec::new());
    let values = rules.values();
    for (slot, x, o, stm) in index.boards.range(lo, hi) {
        let cells = index.cells_of(slot);
        if cells.is_empty() || only.is_some_and(|s| s != stm) {
            continue;
        }
        let stab = BanIndex::stabiliser([x, o]);
        let empty = ALL & !(x | o);
        // The cells in order: First's ban the outer coordinate.
        bans_in_order(x, empty, &mut firsts);
        bans_in_order(o, empty, &mut seconds);
        block.reset(index, [x, o], stm, &values);
        let mut cell = cells.start;
        for &first in &firsts {
            for &second in &seconds {
                let here = cell;
                cell += 1;
                if !BanIndex::is_canonical([x, o], stab, here - cells.start) {
                    record(here, None)?;
                    continue;
                }
                children.clear();
                let start = block.start(
                    index,
                    [first, second],
                    rules,
                    material,
                    smaller,
                    &mut memo,
                    &mut children,
                )?;
                record(here, Some((start, children.len())))?;
            }
        }
        if cell != cells.end {
            return Err(internal(format!(
                "slot {slot}: {} cells, {} bans",
                cells.end - cells.start,
                cell - cells.start
            )));
        }
    }
    Ok(())
}

/// The initial pass over the board slots `lo..hi`, whose cells start at
/// `base` (`states` and `dist` hold exactly their cells); the greatest
/// distance a cell may be decided at.
#[allow(clippy::too_many_arguments)]
fn init_range<D: Distance>(
    index: &BanIndex,
    lo: u64,
    hi: u64,
    states: &mut [u8],
    dist: &mut [D],
    rules: &Rules,
    material: Material,
    smaller: &Tablebase,
) -> Result<u32, GenerateError> {
    let mut horizon = 0;
    let base = index.start(lo);
    start_cells(
        index,
        lo,
        hi,
        None,
        rules,
        material,
        smaller,
        |cell, start| {
            let i = (cell - base) as usize;
            match start {
                None => states[i] = UNUSED_STATE,
                Some((start, children)) => {
                    let at = record_cell(start, children, &mut states[i], &mut dist[i])?;
                    horizon = horizon.max(at);
                }
            }
            Ok(())
        },
    )?;
    Ok(horizon)
}

/// Solves `material` (`shuttle = forbidden`) given the tables of the
/// materials its removals lead to, on `threads` threads (the initial
/// pass, the un-moves and the packing of the table).
pub(crate) fn solve(
    material: Material,
    rules: &Rules,
    smaller: &Tablebase,
    threads: usize,
) -> Result<Table, GenerateError> {
    if rules.shuttle != Shuttle::Forbidden {
        return Err(internal(
            "the generator with bans needs shuttle = forbidden".into(),
        ));
    }
    let index = Arc::new(BanIndex::new(material.first, material.second));
    if let Some(table) = solve_in::<u8>(material, rules, smaller, threads, &index)? {
        return Ok(table);
    }
    solve_in::<u16>(material, rules, smaller, threads, &index)?.ok_or(GenerateError::TooDeep)
}

/// [`solve`] with distances of type `D` while solving, or `None` if some
/// distance does not fit in `D`.
fn solve_in<D: Distance>(
    material: Material,
    rules: &Rules,
    smaller: &Tablebase,
    threads: usize,
    index: &Arc<BanIndex>,
) -> Result<Option<Table>, GenerateError> {
    let (mut states, mut dist) = super::retro::state_arrays::<D>(material, index.len())?;

    // Board slots cut into a few ranges per thread (their cells are
    // contiguous), so a thread's share splits off the state arrays.
    let threads = threads.max(1);
    let slots = index.board_slots();
    let parts = (threads as u64 * 4).min(slots.max(1));
    let bounds: Vec<u64> = (0..=parts).map(|i| slots * i / parts).collect();
    let mut horizon = 0;
    {
        let mut jobs = Vec::new();
        let (mut s_rest, mut d_rest) = (&mut states[..], &mut dist[..]);
        for w in bounds.windows(2) {
            let len = (index.start(w[1]) - index.start(w[0])) as usize;
            let (s, sr) = s_rest.split_at_mut(len);
            let (d, dr) = d_rest.split_at_mut(len);
            (s_rest, d_rest) = (sr, dr);
            jobs.push((w[0], w[1], s, d));
        }
        let next = std::sync::Mutex::new(jobs);
        let results: Vec<Result<u32, GenerateError>> = std::thread::scope(|scope| {
            let workers: Vec<_> = (0..threads)
                .map(|_| {
                    let (index, next) = (&**index, &next);
                    scope.spawn(move || {
                        let mut far = 0;
                        loop {
                            let job = crate::driver::lock(next).pop();
                            let Some((lo, hi, s, d)) = job else { break };
                            let h = init_range(index, lo, hi, s, d, rules, material, smaller)?;
                            far = far.max(h);
                        }
                        Ok(far)
                    })
                })
                .collect();
            join_workers(workers)
        });
        for r in results {
            horizon = horizon.max(r?);
        }
    }
    if horizon >= D::LIMIT {
        return Ok(None);
    }
    let values = rules.values();
    let fits = rounds(&mut states, &mut dist, horizon, threads, &|cell, preds| {
        unmoves(index, cell, &values, preds)
    })?;
    if !fits {
        return Ok(None);
    }
    table_of(material, rules, index.clone(), states, dist, threads).map(Some)
}

/// Whether the cell with state byte `s` and distance `d` is decided at
/// distance `here`, and if so whether it is won for its side to move.
#[inline]
fn decided_at(s: u8, d: u16, here: u16) -> Option<bool> {
    match s {
        WIN | LOSS | UNUSED_STATE => None,
        WIN_NEW | LOSS_NEW => (d == here).then_some(s == WIN_NEW),
        // A winning conversion at `here`.
        _ if s & NON_LOSING != 0 => (d == here && here > 0).then_some(true),
        // Every successor won for the opponent; the longest losing
        // conversion was longer.
        0 => (u32::from(d) + 1 == u32::from(here)).then_some(false),
        _ => None,
    }
}

/// Marks cell `i` decided if it is at distance `here`, into `todo`.
#[inline]
fn decide<D: Distance>(
    states: &mut [u8],
    dist: &mut [D],
    i: usize,
    here: u16,
    todo: &mut Vec<(u64, bool)>,
) {
    if let Some(won) = decided_at(states[i], dist[i].get(), here) {
        states[i] = if won { WIN } else { LOSS };
        dist[i] = D::of(here);
        todo.push((i as u64, won));
    }
}

/// Cells a round's scan tests by their distances at once.
const SCAN: usize = 64;

/// The cells of `dist` (at most 64) that may be decided at distance
/// `here`, as a bit set: a cell decided at `here` has the distance `here`
/// (decided by an update, or a winning conversion's) or `here − 1` (lost
/// once its last successor was decided, after its longest losing
/// conversion). The scans were a fifth of the generator's instructions
/// on `3v2`, most of them on cells with another distance; this plain
/// test serves two-byte distances, and one-byte ones go eight at a time
/// ([`byte_candidates`], checked against this).
#[inline]
fn candidates<D: Distance>(dist: &[D], here: u16) -> u64 {
    let before = here.wrapping_sub(1);
    dist.iter().enumerate().fold(0u64, |mask, (j, d)| {
        let d = d.get();
        mask | (u64::from((d == here) | (d == before)) << j)
    })
}

/// [`candidates`] of one-byte distances, eight at a time in a word (`here`
/// is below [`Distance::LIMIT`], and no distance is 255, so `here − 1` of
/// 0 matches none). The compiler's vectorised loop of bytes took most of
/// a `5v3` solve; a word's zero bytes are found without a branch.
#[inline]
fn byte_candidates(dist: &[u8; SCAN], here: u16) -> u64 {
    const LOW7: u64 = 0x7f7f_7f7f_7f7f_7f7f;
    const ONES: u64 = 0x0101_0101_0101_0101;
    // The top bit of each zero byte of `x` (exact: no borrow between
    // bytes).
    let zero_bytes = |x: u64| !(((x & LOW7) + LOW7) | x) & !LOW7;
    let here_bytes = u64::from(here as u8) * ONES;
    let before_bytes = u64::from((here as u8).wrapping_sub(1)) * ONES;
    let mut mask = 0u64;
    for (k, word) in dist.chunks_exact(8).enumerate() {
        let mut w = [0u8; 8];
        w.copy_from_slice(word);
        let w = u64::from_le_bytes(w);
        let hits = (zero_bytes(w ^ here_bytes) | zero_bytes(w ^ before_bytes)) >> 7;
        // One bit a byte, at 8·i: gathered into the top byte, i at bit i.
        mask |= (hits.wrapping_mul(0x0102_0408_1020_4080) >> 56) << (8 * k);
    }
    mask
}

/// The propagation, round by round from distance 0 to `horizon` (which
/// grows as cells are scheduled), on `states` and `dist` as the initial
/// pass left them (see [`record_cell`]): each round scans the arrays for
/// the cells decided at its distance, a block at a time, marks them
/// decided, generates their predecessors on the threads (the costly part,
/// which only reads) and applies them in order. A predecessor won one ply
/// later is marked `WIN_NEW` at that distance (unless a conversion wins it
/// at this one, which the scan then finds); one whose last successor is
/// decided is marked `LOSS_NEW` if lost at the next distance, else left at
/// 0 to be found at `1 +` its longest losing conversion. False, and
/// stopped, when a distance would reach `D::LIMIT`.
fn rounds<D: Distance>(
    states: &mut [u8],
    dist: &mut [D],
    mut horizon: u32,
    threads: usize,
    unmove: &super::retro::Unmove<'_>,
) -> Result<bool, GenerateError> {
    let n = states.len();
    let mut todo: Vec<(u64, bool)> = Vec::with_capacity(BLOCK);
    let mut d = 0u32;
    while d <= horizon {
        if d + 1 >= D::LIMIT {
            return Ok(false);
        }
        let here = d as u16;
        let mut i = 0usize;
        while i < n {
            todo.clear();
            while i < n && todo.len() < BLOCK {
                if i + SCAN <= n {
                    // Most cells are not decided at this distance; their
                    // distances alone say so, `SCAN` at a time.
                    let mut mask = D::candidates(&dist[i..i + SCAN], here);
                    while mask != 0 {
                        decide(
                            states,
                            dist,
                            i + mask.trailing_zeros() as usize,
                            here,
                            &mut todo,
                        );
                        mask &= mask - 1;
                    }
                    i += SCAN;
                } else {
                    decide(states, dist, i, here, &mut todo);
                    i += 1;
                }
            }
            if todo.is_empty() {
                continue;
            }
            let updates = predecessors(&todo, unmove, threads)?;
            let further = apply_updates(states, dist, &updates, here, threads)?;
            horizon = horizon.max(further);
        }
        d += 1;
    }
    Ok(true)
}

/// Applies a block's updates (predecessor `<< 1`, 1 if it was won for
/// its side to move) of round `here` (see [`rounds`]), on `threads`
/// threads, each over its own range of cells (each reads every update and
/// applies those in its range: the updates land anywhere, and the cache
/// misses, not the reading, are what costs); the furthest distance they
/// schedule a cell at, or `here`. The order does not matter: a cell's
/// distinct successors are each decided once, with one value.
fn apply_updates<D: Distance>(
    states: &mut [u8],
    dist: &mut [D],
    updates: &[Vec<u64>],
    here: u16,
    threads: usize,
) -> Result<u32, GenerateError> {
    let n = states.len();
    let total: usize = updates.iter().map(Vec::len).sum();
    let threads = if total < 1 << 16 {
        1
    } else {
        threads.clamp(1, 16)
    };
    let per = n.div_ceil(threads).max(1);
    let range = |lo: usize, states: &mut [u8], dist: &mut [D]| {
        let hi = lo + states.len();
        let mut further = u32::from(here);
        for u in updates.iter().flatten() {
            let q = (u >> 1) as usize;
            if q < lo || q >= hi {
                continue;
            }
            let won = u & 1 == 1;
            let (state, far) = (&mut states[q - lo], &mut dist[q - lo]);
            let s = *state;
            if s >= WIN_NEW {
                continue;
            }
            if !won {
                // A conversion that wins at this distance holds.
                if s & NON_LOSING != 0 && far.get() != 0 && far.get() <= here {
                    continue;
                }
                let at = round::ply_before(u32::from(here))?;
                *state = WIN_NEW;
                *far = D::of(at);
                further = further.max(u32::from(at));
                continue;
            }
            if s & COUNT == 0 {
                return Err(internal(format!(
                    "cell {q} has more decided successors than it counted"
                )));
            }
            let s = s - 1;
            *state = s;
            if s == 0 {
                let at = round::loss_after(here, far.get())?;
                if at == here + 1 {
                    *state = LOSS_NEW;
                    *far = D::of(at);
                }
                further = further.max(u32::from(at));
            }
        }
        Ok(further)
    };
    if threads == 1 {
        return range(0, states, dist);
    }
    let results: Vec<Result<u32, GenerateError>> = std::thread::scope(|scope| {
        let range = &range;
        let workers: Vec<_> = states
            .chunks_mut(per)
            .zip(dist.chunks_mut(per))
            .enumerate()
            .map(|(i, (s, d))| scope.spawn(move || range(i * per, s, d)))
            .collect();
        join_workers(workers)
    });
    results
        .into_iter()
        .try_fold(u32::from(here), |far, r| Ok(far.max(r?)))
}

/// The table of the solved cells, cell by cell (no key, no sort: what a
/// blocked file of version 3 holds), packed on `threads` threads: a cell no
/// state uses gets the value code 3, a draw distance 0. The arrays are
/// taken so that each is freed as soon as it is packed.
pub(super) fn table_of<D: Distance>(
    material: Material,
    rules: &Rules,
    index: Arc<BanIndex>,
    states: Vec<u8>,
    dist: Vec<D>,
    threads: usize,
) -> Result<Table, GenerateError> {
    let n = states.len();
    if index.len() != n as u64 || dist.len() != n {
        return Err(internal(format!(
            "{material}: {n} states for {} cells",
            index.len()
        )));
    }
    let distances = D::table_distances(dist, &states);
    let values = pack_states(&states, threads);
    drop(states);
    Ok(Table {
        material,
        rules: *rules,
        index: Slots::DenseBan(DenseBan::of(material, index)),
        values,
        distances,
        len: n as u64,
    })
}

#[cfg(test)]
mod tests {
    use super::super::{closure, solve_material, Generator};
    use super::*;

    /// Distances below 20: a width that small materials outgrow.
    #[derive(Clone, Copy, Default)]
    struct Narrow(u16);

    impl Distance for Narrow {
        const LIMIT: u32 = 20;
        fn of(d: u16) -> Narrow {
            Narrow(d)
        }
        fn get(self) -> u16 {
            self.0
        }
        fn table_distances(dist: Vec<Narrow>, states: &[u8]) -> Distances {
            u16::table_distances(dist.into_iter().map(|d| d.0).collect(), states)
        }
    }

    #[test]
    fn updates_applied_on_threads_equal_those_applied_on_one() {
        // 10 000 cells, 200 000 updates (past the threads' threshold):
        // counts, winning conversions and won predecessors mixed.
        let mut x = 0x9e37_79b9_7f4a_7c15u64;
        let mut next = || {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            x
        };
        let n = 10_000usize;
        // A cell with a winning conversion never runs out of successors
        // here; the others (1 to 20 successors) may, and are then lost.
        let states: Vec<u8> = (0..n)
            .map(|_| match next() % 4 {
                0 => COUNT | NON_LOSING,
                _ => 1 + (next() % 20) as u8,
            })
            .collect();
        let dist: Vec<u8> = (0..n).map(|_| (next() % 4) as u8).collect();
        let updates: Vec<Vec<u64>> = (0..2)
            .map(|_| {
                (0..100_000)
                    .map(|_| (next() % n as u64) << 1 | u64::from(next() % 3 != 0))
                    .collect()
            })
            .collect();
        let (mut s1, mut d1) = (states.clone(), dist.clone());
        let (mut s2, mut d2) = (states, dist);
        let one = apply_updates(&mut s1, &mut d1, &updates, 4, 1).unwrap();
        let two = apply_updates(&mut s2, &mut d2, &updates, 4, 2).unwrap();
        assert_eq!((one, &s1, &d1), (two, &s2, &d2));
        assert!(s1.contains(&WIN_NEW) && s1.contains(&LOSS_NEW));
    }

    #[test]
    fn byte_candidates_are_the_cells_at_the_distance_or_one_less() {
        let mut x = 0x2545_f491_4f6c_dd1du64;
        for round in 0..3000u16 {
            let mut dist = [0u8; SCAN];
            for d in dist.iter_mut() {
                // Distances near the round's, and some anywhere below 255.
                x ^= x << 13;
                x ^= x >> 7;
                x ^= x << 17;
                *d = if x.is_multiple_of(3) {
                    (x >> 8) as u8 % 255
                } else {
                    ((round % 254) as u8)
                        .wrapping_add((x >> 8) as u8 % 3)
                        .wrapping_sub(1)
                        % 255
                };
            }
            let here = round % 254;
            assert_eq!(
                byte_candidates(&dist, here),
                candidates(&dist[..], here),
                "{here} {dist:?}"
            );
        }
    }

    #[test]
    fn the_cells_of_a_board_slot_start_together_as_each_alone() {
        // The cells of a board slot share their steps' blocks and
        // conversions (`BlockStart`): every 29th board slot of `3v3`, the
        // smallest material where a conversion's value depends on the
        // other side's ban, is started both ways.
        let rules = Rules::shandong();
        let m: Material = "3v3".parse().unwrap();
        let mut tb = Tablebase::new(&rules);
        for smaller in closure(&[m], &rules).into_iter().filter(|&s| s != m) {
            let t = solve_material(Generator::Retrograde, &rules, smaller, &tb, 2).unwrap();
            assert!(tb.insert(t).is_ok());
        }
        let index = BanIndex::new(m.first, m.second);
        let values = rules.values();
        let (mut memo, mut alone_memo) = (Memo::new(), Memo::new());
        let mut block = BlockStart::default();
        let (mut together, mut alone) = (Vec::new(), Vec::new());
        let (mut firsts, mut seconds) = (Vec::new(), Vec::new());
        let (mut cells, mut converted) = (0, 0);
        for (slot, x, o, stm) in index.boards.range(0, index.board_slots()).step_by(29) {
            if index.cells_of(slot).is_empty() {
                continue;
            }
            block.reset(&index, [x, o], stm, &values);
            let empty = ALL & !(x | o);
            bans_in_order(x, empty, &mut firsts);
            bans_in_order(o, empty, &mut seconds);
            for &first in &firsts {
                for &second in &seconds {
                    let bans = [first, second];
                    together.clear();
                    alone.clear();
                    let a = block.start(&index, bans, &rules, m, &tb, &mut memo, &mut together);
                    let mut fresh = BlockStart::default();
                    fresh.reset(&index, [x, o], stm, &values);
                    let b = fresh.start(&index, bans, &rules, m, &tb, &mut alone_memo, &mut alone);
                    assert_eq!(
                        (a.unwrap(), &together),
                        (b.unwrap(), &alone),
                        "{x:#x} {o:#x} {stm} {bans:?}"
                    );
                    cells += 1;
                }
            }
            converted += block.conversions.len();
        }
        assert!(
            cells > 100_000 && converted > 1000,
            "{cells} cells, {converted} conversions"
        );
    }

    #[test]
    fn a_material_whose_distances_outgrow_the_width_is_solved_again_wider() {
        // Longest wins under the ban: 3v1 16 plies, 2v1 23, 1v1 29.
        let rules = Rules::shandong();
        for (name, fits) in [("3v1", true), ("2v1", false), ("1v1", false)] {
            let m: Material = name.parse().unwrap();
            let mut tb = Tablebase::new(&rules);
            for smaller in closure(&[m], &rules).into_iter().filter(|&s| s != m) {
                let t = solve_material(Generator::Retrograde, &rules, smaller, &tb, 2).unwrap();
                assert!(tb.insert(t).is_ok());
            }
            let index = Arc::new(BanIndex::new(m.first, m.second));
            let wide = solve_in::<u16>(m, &rules, &tb, 2, &index).unwrap().unwrap();
            let byte = solve_in::<u8>(m, &rules, &tb, 2, &index).unwrap().unwrap();
            assert!(byte.to_bytes() == wide.to_bytes(), "{m}: one byte");
            let narrow = solve_in::<Narrow>(m, &rules, &tb, 2, &index).unwrap();
            assert_eq!(narrow.is_some(), fits, "{m}");
            if let Some(t) = narrow {
                assert!(t.to_bytes() == wide.to_bytes(), "{m}: narrow");
            }
        }
    }
}
