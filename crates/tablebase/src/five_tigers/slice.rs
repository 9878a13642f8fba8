//! A Five Tigers material as a [`RetroSlice`]: the positions of the
//! material numbered densely, each started by its steps (the ones that
//! form a formation are exits, solved through the removals into the
//! smaller tables), and the un-moves of the retrograde generators. This
//! is what the generic rounds (`retrograde::solve`, and `dataflow::solve`
//! on many workers) need of the game; the single-process generators
//! (`retro`, `retro_ban`) run the same starts and un-moves in place.
//!
//! Under `shuttle = allowed` a slot is a board slot of the dense index
//! (`retro`); under `shuttle = forbidden` it is a cell of the ban index,
//! a position with the steps back its two sides may not play
//! (`retro_ban`).

use std::cell::RefCell;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;
use std::thread::LocalKey;

use qi_five_tigers::{Rules, Shuttle};

use super::dense::DenseIndex;
use super::dense_ban::BanIndex;
use super::retro::{self, Memo, SlotStart, Targets};
use super::retro_ban::{self, BlockStart};
use super::{Material, Table, Tablebase};
use crate::driver::GenerateError;
use crate::retrograde::{Open, RetroError, RetroSlice, SliceValues, Start};
use crate::table::Wdl;

/// One Five Tigers material with the tables its removals lead to, under
/// either shuttle option.
pub struct FiveTigersSlice {
    material: Material,
    rules: Rules,
    kind: Kind,
    /// Tells this slice's removal memo from another's on a thread.
    id: u64,
}

/// What the slots are, by the shuttle option.
enum Kind {
    /// `shuttle = allowed`: the board slots, and the tables the removals
    /// lead into by dense slot.
    Shuttle { index: DenseIndex, targets: Targets },
    /// `shuttle = forbidden`: the cells (boards and bans), and the
    /// smaller tables the removals lead into (a copy of those of them
    /// that a removal reaches), looked up by canonical key.
    Ban {
        index: Arc<BanIndex>,
        smaller: Tablebase,
    },
}

static NEXT_ID: AtomicU64 = AtomicU64::new(0);

thread_local! {
    /// The removal sequences solved on this thread, for the slice `.0`.
    static MEMO: RefCell<(u64, Memo)> = RefCell::new((u64::MAX, Memo::new()));
    /// The same under the shuttle ban (states with bans), with the board
    /// slot last started (the cells of a run are mostly a few slots').
    static BAN_MEMO: RefCell<(u64, BanWork)> = RefCell::new((u64::MAX, BanWork::default()));
}

/// A thread's memo under the shuttle ban and the board slot it started
/// last, whose cells start from the same [`BlockStart`].
#[derive(Default)]
struct BanWork {
    memo: retro_ban::Memo,
    block: BlockStart,
    slot: Option<u64>,
}

/// Runs `f` with this thread's memo of `key` for the slice `id`, emptied
/// first if it was another slice's.
fn with_memo<M: Default, R>(
    key: &'static LocalKey<RefCell<(u64, M)>>,
    id: u64,
    f: impl FnOnce(&mut M) -> R,
) -> R {
    key.with(|memo| {
        let mut memo = memo.borrow_mut();
        if memo.0 != id {
            *memo = (id, M::default());
        }
        f(&mut memo.1)
    })
}

impl FiveTigersSlice {
    /// The slice of `material` under `rules`, whose removals lead into
    /// the tables of `smaller` (every material with fewer pieces that a
    /// removal reaches; read into the slice). Under the shuttle ban the
    /// tables in `smaller` must be those of the ban (`qi tb generate
    /// --game five-tigers:shandong`).
    pub fn new(
        material: Material,
        rules: &Rules,
        smaller: &Tablebase,
    ) -> Result<FiveTigersSlice, GenerateError> {
        let kind = match rules.shuttle {
            Shuttle::Allowed => Kind::Shuttle {
                index: DenseIndex::new(material.first, material.second),
                targets: Targets::new(material, rules, smaller)?,
            },
            Shuttle::Forbidden => {
                if !super::same_board_rules(smaller.rules(), rules) {
                    return Err(GenerateError::Internal(format!(
                        "{material}: the smaller tables are of other rules"
                    )));
                }
                let mut own = Tablebase::new(rules);
                for m in material.after_removals(rules) {
                    let table = retro::needed_table(smaller, material, m)?;
                    own.insert(table.clone()).map_err(|_| {
                        GenerateError::Internal(format!("{m}: a table of other rules"))
                    })?;
                }
                Kind::Ban {
                    index: Arc::new(BanIndex::new(material.first, material.second)),
                    smaller: own,
                }
            }
        };
        Ok(FiveTigersSlice {
            material,
            rules: *rules,
            kind,
            id: NEXT_ID.fetch_add(1, Ordering::Relaxed),
        })
    }

    /// The table of the solved slice's values, in the file layout of the
    /// other generators (so the same bytes).
    pub fn table(&self, values: &SliceValues, threads: usize) -> Result<Table, GenerateError> {
        let states: Vec<u8> = values
            .codes
            .iter()
            .map(|&c| retro::state_of_code(c))
            .collect();
        let threads = threads.max(1);
        match &self.kind {
            Kind::Shuttle { index, .. } => retro::table_of(
                self.material,
                &self.rules,
                index,
                &states,
                &values.distances,
                threads,
            ),
            Kind::Ban { index, .. } => retro_ban::table_of(
                self.material,
                &self.rules,
                index.clone(),
                states,
                values.distances.clone(),
                threads,
            ),
        }
    }

    /// How slot `slot` (a board slot of `index`) starts, into `children`.
    fn start_shuttle(
        &self,
        index: &DenseIndex,
        targets: &Targets,
        slot: u64,
        children: &mut Vec<u64>,
    ) -> Result<Option<SlotStart>, GenerateError> {
        if !index.is_canonical(slot) {
            return Ok(None);
        }
        let (x, o, stm) = index.decode(slot);
        with_memo(&MEMO, self.id, |memo| {
            retro::start_slot(
                index,
                [x, o],
                stm,
                &self.rules,
                self.material,
                targets,
                memo,
                children,
            )
        })
        .map(Some)
    }

    /// How cell `cell` of `index` starts, into `children`.
    fn start_ban(
        &self,
        index: &BanIndex,
        smaller: &Tablebase,
        cell: u64,
        children: &mut Vec<u64>,
    ) -> Result<Option<SlotStart>, GenerateError> {
        let slot = index.slot_of(cell);
        let (x, o, stm) = index.boards.decode(slot);
        let off = cell - index.start(slot);
        let stab = BanIndex::stabiliser([x, o]);
        if !BanIndex::is_canonical([x, o], stab, off) {
            return Ok(None);
        }
        let bans = BanIndex::bans_at([x, o], off);
        with_memo(&BAN_MEMO, self.id, |work| {
            if work.slot != Some(slot) {
                work.block.reset(index, [x, o], stm, &self.rules.values());
                work.slot = Some(slot);
            }
            let BanWork { memo, block, .. } = work;
            block.start(
                index,
                bans,
                &self.rules,
                self.material,
                smaller,
                memo,
                children,
            )
        })
        .map(Some)
    }
}

impl RetroSlice for FiveTigersSlice {
    fn slots(&self) -> u64 {
        match &self.kind {
            Kind::Shuttle { index, .. } => index.len(),
            Kind::Ban { index, .. } => index.len(),
        }
    }

    fn start(&self, slot: u64) -> Result<Start, RetroError> {
        let mut children = Vec::new();
        let start = match &self.kind {
            Kind::Shuttle { index, targets } => {
                self.start_shuttle(index, targets, slot, &mut children)
            }
            Kind::Ban { index, smaller } => self.start_ban(index, smaller, slot, &mut children),
        };
        let start = match start {
            Ok(Some(start)) => start,
            Ok(None) => return Ok(Start::Unused),
            Err(e) => {
                return Err(RetroError::Slice {
                    slot,
                    message: e.to_string(),
                })
            }
        };
        Ok(match start {
            SlotStart::NoStep => Start::Decided(Wdl::Loss, 0),
            SlotStart::Moves {
                win,
                non_losing,
                longest_loss,
            } => {
                let exit_win = win.map(|w| w - 1);
                Start::Open(Open {
                    successors: children.len() as u32,
                    exit_win,
                    exit_loss: longest_loss,
                    exit_draw: non_losing && exit_win.is_none(),
                })
            }
        })
    }

    /// Under the shuttle, the two slots of a board (each side to move) go
    /// together: a position's predecessors all have the other side to
    /// move, so dealt slot by slot every tiding would go to another
    /// worker. Under the ban, the un-moves of a cell all lie in one board
    /// slot's block of cells (a few dozen to a few hundred): runs of 256
    /// keep most of a block on one worker.
    fn run_shift(&self) -> u32 {
        match self.kind {
            Kind::Shuttle { .. } => 1,
            Kind::Ban { .. } => 8,
        }
    }

    fn predecessors(&self, slot: u64, out: &mut Vec<u64>) {
        let start = out.len();
        let values = self.rules.values();
        match &self.kind {
            Kind::Shuttle { index, .. } => retro::unmoves(index, slot, &values, out),
            Kind::Ban { index, .. } => retro_ban::unmoves(index, slot, &values, out),
        }
        crate::retrograde::sort_and_dedup_from(out, start);
    }
}
