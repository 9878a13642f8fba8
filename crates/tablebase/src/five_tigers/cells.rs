//! The retrograde generator of one Five Tigers material, under either
//! shuttle option: the cells of the material's index ([`BanIndex`]; with
//! the shuttle allowed, the index with no bans, a cell per board slot) as
//! the cells of the in-core solver ([`crate::in_core`]), with no move
//! graph stored. Five Tigers with the shuttle allowed is the ban index
//! with no bans: the same solver, starts and rounds; what the bans add
//! (the cells of a board slot, a step's bans after it, the un-step a ban
//! forces) is in `bans`.
//!
//! * The starts, cut among the threads: a position with no step is lost
//!   at 0; a step that forms a formation leads into owed removals, which
//!   only ever lead into smaller materials or the end of the game, so its
//!   value is known at once (the removal sequence is solved forward,
//!   memoised, from the smaller tables: a conversion,
//!   [`removals::best_removal`](super::removals::best_removal)); every
//!   other step leads to a position of the material, and the state byte
//!   counts the distinct ones.
//! * The un-moves: the side that did not move at a position un-steps a
//!   piece onto an adjacent empty point, unless that step would have
//!   formed a formation, which leads to an owed state instead
//!   ([`qi_five_tigers::quiet_unsteps`]); under the ban only the step
//!   back its ban says.
//!
//! The tests check the table handed on against the forward move graph of
//! the material, labelled backwards, state by state.

use std::ops::Range;
use std::sync::Arc;

use qi_core::Bitboard32;
use qi_five_tigers::{quiet_unsteps, FiveTigers, Rules};

use super::bans::{self, BlockStart};
use super::dense_ban::BanIndex;
use super::key::{Ban, ALL};
use super::removals::{Lookup, Memo};
use super::steps::SlotStart;
use super::table::internal;
use super::{same_board_rules, within_rules, Dense, Material, Slots, Table, Tablebase};
use crate::driver::GenerateError;
use crate::in_core;
use crate::retrograde::Start;
use crate::value::{Distances, Wdl};

/// The tables of `smaller` that a removal from `material` leads to, each
/// of `rules`' board rules (a table made under the other shuttle option
/// holds other states): what a conversion reads.
pub(super) fn tables_read<'a>(
    material: Material,
    rules: &Rules,
    smaller: &'a Tablebase,
) -> Result<Vec<&'a Table>, GenerateError> {
    if !same_board_rules(smaller.rules(), rules) {
        return Err(internal(format!(
            "{material}: the smaller tables are of other rules"
        )));
    }
    let mut tables = Vec::new();
    for m in material.after_removals(rules) {
        let table = smaller.needed(material, m)?;
        if !same_board_rules(table.rules(), rules) {
            return Err(internal(format!(
                "{material}: the table of {m} is of other rules"
            )));
        }
        tables.push(table);
    }
    Ok(tables)
}

/// A conversion ends in a read of the position the removals leave in its
/// table (by its cell, or its key in a keyed table).
impl Lookup for Tablebase {
    fn value(&self, pos: &FiveTigers, material: Material) -> Result<(Wdl, u32), GenerateError> {
        let m = Material::of(pos)
            .ok_or_else(|| internal(format!("the conversion {pos} has no material")))?;
        self.needed(material, m)?
            .get(pos)
            .ok_or_else(|| internal(format!("the conversion {pos} is not in table {m}")))
    }
}

/// The un-moves of `cell`: the cells from which a step of the side that
/// is not to move there, forming nothing, leads to it (a step that formed
/// a formation leads to owed removals instead, so it is not one),
/// appended to `preds` (sorted and distinct among themselves). Without
/// bans every quiet un-step of that side; under the ban the one its ban
/// says, each with the bans the predecessor can have been under
/// ([`bans::unmoves_from`]).
pub(super) fn unmoves(index: &BanIndex, cell: u64, values: &[u8; 5], preds: &mut Vec<u64>) {
    let first = preds.len();
    if index.has_bans() {
        bans::unmoves_from(index, cell, values, false, |_| {}, |p, _, _| preds.push(p));
    } else {
        let index = &index.boards;
        let (x, o, stm) = index.decode(cell);
        let mover = 1 - stm;
        let theirs = [x, o][mover];
        // Second's un-steps leave First's board as it is: its class is
        // found once.
        let frame = (mover == 1).then(|| index.step_frame(index.first(x), o));
        let empty = Bitboard32(ALL & !(x | o));
        quiet_unsteps(Bitboard32(theirs), empty, values, None, |back, at| {
            preds.push(match &frame {
                Some(frame) => index.slot_after_step(frame, at, back, 1),
                None => index.slot(theirs ^ (1 << at) ^ (1 << back), o, 0),
            });
        });
    }
    crate::retrograde::sort_and_dedup_from(preds, first);
}

/// What a thread keeps from one cell's start to the next: the removal
/// memo, and the board slot it started last, whose cells start from the
/// same [`BlockStart`].
#[derive(Default)]
pub(super) struct Work {
    memo: Memo,
    block: BlockStart,
    slot: Option<u64>,
}

/// How the cell with `bans` of board slot `slot` (boards `boards`, `stm`
/// to move) starts: its successors in the material (into `children`,
/// sorted and distinct) and its conversions' values, looked up in
/// `smaller`. The cells of a board slot (its one cell without bans)
/// share what the bans leave alike ([`BlockStart`], kept in `work` from
/// the slot's first cell on).
#[allow(clippy::too_many_arguments)]
pub(super) fn start_cell<L: Lookup + ?Sized>(
    index: &BanIndex,
    slot: u64,
    boards: [u32; 2],
    stm: usize,
    bans: [Option<Ban>; 2],
    rules: &Rules,
    material: Material,
    smaller: &L,
    work: &mut Work,
    children: &mut Vec<u64>,
) -> Result<SlotStart, GenerateError> {
    let Work {
        memo,
        block,
        slot: last,
    } = work;
    if *last != Some(slot) {
        block.reset(index, boards, stm, &rules.values());
        *last = Some(slot);
    }
    block.start(index, bans, rules, material, smaller, memo, children)
}

/// How each cell of the board slots `lo..hi` (of those with `only` to
/// move, or all) starts, in order ([`start_cell`]): `record(cell, start)`
/// gets `None` for a cell no state uses, else the cell's start and its
/// number of distinct successors in the material, its conversions looked
/// up in `smaller`. The walk of the cells every generator starts them by.
#[allow(clippy::too_many_arguments)]
pub(super) fn start_cells<L: Lookup + ?Sized>(
    index: &BanIndex,
    lo: u64,
    hi: u64,
    only: Option<usize>,
    rules: &Rules,
    material: Material,
    smaller: &L,
    mut record: impl FnMut(u64, Option<(SlotStart, usize)>) -> Result<(), GenerateError>,
) -> Result<(), GenerateError> {
    let mut work = Work::default();
    let mut children: Vec<u64> = Vec::with_capacity(20);
    let (mut firsts, mut seconds) = (Vec::new(), Vec::new());
    for (slot, x, o, stm) in index.boards.range(lo, hi) {
        let cells = index.cells_of(slot);
        if cells.is_empty() || only.is_some_and(|s| s != stm) {
            continue;
        }
        let stab = index.cells_stabiliser([x, o]);
        let empty = ALL & !(x | o);
        // The cells in order: First's ban the outer coordinate.
        index.bans_in_order(x, empty, &mut firsts);
        index.bans_in_order(o, empty, &mut seconds);
        let mut cell = cells.start;
        for &first in &firsts {
            for &second in &seconds {
                let here = cell;
                cell += 1;
                if !index.holds_state(slot, [x, o], stab, here - cells.start) {
                    record(here, None)?;
                    continue;
                }
                children.clear();
                let start = start_cell(
                    index,
                    slot,
                    [x, o],
                    stm,
                    [first, second],
                    rules,
                    material,
                    smaller,
                    &mut work,
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

/// The cells of a material's index as the in-core solver's cells,
/// started a board slot at a time ([`start_cells`]), their conversions
/// looked up in `smaller`.
pub(super) struct Cells<'a, L: ?Sized> {
    pub(super) index: &'a BanIndex,
    pub(super) material: Material,
    pub(super) rules: &'a Rules,
    pub(super) smaller: &'a L,
}

impl<L: Lookup + Sync + ?Sized> in_core::Cells for Cells<'_, L> {
    type Error = GenerateError;

    fn cells(&self) -> u64 {
        self.index.len()
    }

    /// Board slots (their cells are contiguous).
    fn units(&self) -> u64 {
        self.index.board_slots()
    }

    fn first_cell(&self, slot: u64) -> u64 {
        self.index.start(slot)
    }

    fn start_part(
        &self,
        part: Range<u64>,
        record: &mut dyn FnMut(u64, Start) -> Result<(), GenerateError>,
    ) -> Result<(), GenerateError> {
        start_cells(
            self.index,
            part.start,
            part.end,
            None,
            self.rules,
            self.material,
            self.smaller,
            |cell, start| {
                record(
                    cell,
                    match start {
                        None => Start::Unused,
                        Some((start, children)) => start.into_start(children),
                    },
                )
            },
        )
    }

    fn unmoves(&self, cell: u64, out: &mut Vec<u64>) {
        unmoves(self.index, cell, &self.rules.values(), out);
    }
}

/// Solves `material` under `rules` by retrograde analysis over its dense
/// index (under `shuttle = forbidden` over the cells of the ban index),
/// given the tables of the materials its removals lead to (in `smaller`),
/// on `threads` threads (the starts, the un-moves and the packing of the
/// table): the in-core solver over the cells of the material's index
/// (`BanIndex::under`), the conversions read in `smaller`.
///
/// ```
/// use qi_games::five_tigers::Rules;
/// use qi_tablebase::five_tigers::{solve_material, Tablebase};
///
/// // 1v1 leads to no smaller material: no tables are needed.
/// let rules = Rules::shandong();
/// let none = Tablebase::generate(&rules, &[], 1)?;
/// let table = solve_material(&rules, "1v1".parse()?, &none, 1)?;
/// assert!(table.stats().positions > 0);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn solve_material(
    rules: &Rules,
    material: Material,
    smaller: &Tablebase,
    threads: usize,
) -> Result<Table, GenerateError> {
    within_rules(material, rules)?;
    tables_read(material, rules, smaller)?;
    let index = Arc::new(BanIndex::under(material, rules));
    let cells = Cells {
        index: &index,
        material,
        rules,
        smaller,
    };
    let solved = in_core::solve(material, &cells, threads)?;
    let (values, distances) = solved.pack(threads.max(1));
    table_of(material, rules, index, values, distances)
}

/// The table of the solved cells, cell by cell (no key, no sort: what a
/// blocked file holds, of version 3 with bans, else 2), from their packed
/// values and distances ([`in_core::Solved::pack`]).
pub(super) fn table_of(
    material: Material,
    rules: &Rules,
    index: Arc<BanIndex>,
    values: Vec<u8>,
    distances: Distances,
) -> Result<Table, GenerateError> {
    let n = index.len();
    if distances.len() as u64 != n || (values.len() as u64) < n.div_ceil(4) {
        return Err(internal(format!(
            "{material}: {} distances for {n} slots",
            distances.len()
        )));
    }
    Ok(Table {
        material,
        rules: *rules,
        index: Slots::Dense(Dense { material, index }),
        values,
        distances,
        len: n,
    })
}
