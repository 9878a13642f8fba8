//! A Five Tigers material as a [`RetroSlice`]: the slots of the dense
//! index, each started by its steps (the ones that form a formation are
//! exits, solved through the removals into the smaller tables), and the
//! un-moves of the retrograde generator. This is what the generic rounds
//! (`retrograde::solve`, and `dataflow::solve` on many workers) need of
//! the game; the single-process generator (`retro`) runs the same starts
//! and un-moves in place.

use std::cell::RefCell;
use std::sync::atomic::{AtomicU64, Ordering};

use qi_five_tigers::{Rules, Shuttle};

use super::dense::DenseIndex;
use super::retro::{self, Memo, SlotStart, Targets};
use super::{Material, Table, Tablebase};
use crate::driver::GenerateError;
use crate::retrograde::{Open, RetroError, RetroSlice, SliceValues, Start};
use crate::table::Wdl;

/// One Five Tigers material (`shuttle = allowed`) with the tables its
/// removals lead to.
pub struct FiveTigersSlice {
    material: Material,
    rules: Rules,
    index: DenseIndex,
    /// The tables its removals lead into, by dense slot.
    targets: Targets,
    /// Tells this slice's removal memo from another's on a thread.
    id: u64,
}

static NEXT_ID: AtomicU64 = AtomicU64::new(0);

thread_local! {
    /// The removal sequences solved on this thread, for the slice `.0`.
    static MEMO: RefCell<(u64, Memo)> = RefCell::new((u64::MAX, Memo::new()));
}

impl FiveTigersSlice {
    /// The slice of `material` under `rules`, whose removals lead into
    /// the tables of `smaller` (every material with fewer pieces that a
    /// removal reaches; read into the slice).
    pub fn new(
        material: Material,
        rules: &Rules,
        smaller: &Tablebase,
    ) -> Result<FiveTigersSlice, GenerateError> {
        if rules.shuttle != Shuttle::Allowed {
            return Err(GenerateError::Internal(
                "the retrograde rounds keep no previous steps: shuttle must be allowed".into(),
            ));
        }
        Ok(FiveTigersSlice {
            material,
            rules: *rules,
            index: DenseIndex::new(material.first, material.second),
            targets: Targets::new(material, rules, smaller)?,
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
        retro::table_of(
            self.material,
            &self.rules,
            &self.index,
            &states,
            &values.distances,
            threads.max(1),
        )
    }
}

impl RetroSlice for FiveTigersSlice {
    fn slots(&self) -> u64 {
        self.index.len()
    }

    fn start(&self, slot: u64) -> Result<Start, RetroError> {
        if !self.index.is_canonical(slot) {
            return Ok(Start::Unused);
        }
        let (x, o, stm) = self.index.decode(slot);
        let mut children = Vec::new();
        let start = MEMO.with(|memo| {
            let mut memo = memo.borrow_mut();
            if memo.0 != self.id {
                *memo = (self.id, Memo::new());
            }
            retro::start_slot(
                &self.index,
                [x, o],
                stm,
                &self.rules,
                self.material,
                &self.targets,
                &mut memo.1,
                &mut children,
            )
        });
        let start = start.map_err(|e| RetroError::Slice {
            slot,
            message: e.to_string(),
        })?;
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

    /// The two slots of a board (each side to move) go together: a
    /// position's predecessors all have the other side to move, so dealt
    /// slot by slot every tiding would go to another worker.
    fn run_shift(&self) -> u32 {
        1
    }

    fn predecessors(&self, slot: u64, out: &mut Vec<u64>) {
        let start = out.len();
        retro::unmoves(&self.index, slot, &self.rules.values(), out);
        crate::retrograde::sort_and_dedup_from(out, start);
    }
}
