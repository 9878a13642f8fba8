//! A Five Tigers material as a [`RetroSlice`]: the positions of the
//! material numbered densely, each started by its steps (the ones that
//! form a formation are exits, solved through the removals into the
//! smaller tables), and the un-moves of the retrograde generator. This
//! is what the generic solvers (`retrograde::solve`, and `dataflow`'s
//! on many workers) need of the game; the single-process generator
//! (`cells`) runs the same starts and un-moves in place.
//!
//! A slot is a cell of the material's index (`BanIndex::under`): under
//! `shuttle = allowed` a board slot (the index has no bans); under
//! `shuttle = forbidden` a position with the steps back its two sides may
//! not play (`bans`).
//!
//! A slice made by [`FiveTigersSlice::reading`] holds no smaller table:
//! it is a [`ReadingSlice`], whose conversions end in a read of the
//! smaller material's slot (the cell of the state the removals leave: the
//! slots those tables are solved in), answered by whoever holds that table's values (`dataflow::solve_reading`
//! asks the worker that owns the slot).

use std::cell::RefCell;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;

use qi_five_tigers::{FiveTigers, Rules};

use super::cells::{self, Work};
use super::dense_ban::BanIndex;
use super::key::State;
use super::removals::Lookup;
use super::table::internal;
use super::{Dense, Material, Table, Tablebase};
use crate::driver::GenerateError;
use crate::retrograde::{Reader, ReadingSlice, RetroError, RetroSlice, SliceValues, Source, Start};
use crate::value::{pack_codes, Distances, Wdl};

/// One Five Tigers material with the tables its removals lead to, under
/// either shuttle option.
///
/// `3v3` solved by the rounds, reading the tables its removals lead
/// into (`3v1` and `1v3`): the same table as the in-core generator's.
///
/// ```
/// use qi_games::five_tigers::Rules;
/// use qi_tablebase::five_tigers::{FiveTigersSlice, Material, Tablebase};
/// use qi_tablebase::retrograde;
///
/// let rules = Rules::shandong_shuttle();
/// let m: Material = "3v3".parse()?;
/// let smaller = Tablebase::generate(&rules, &m.after_removals(&rules), 2)?;
/// let slice = FiveTigersSlice::new(m, &rules, &smaller)?;
/// let table = slice.table(&retrograde::solve(&slice)?, 2)?;
/// let direct = Tablebase::generate(&rules, &[m], 2)?;
/// assert_eq!(table.to_bytes(), direct.table(m).unwrap().to_bytes());
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub struct FiveTigersSlice {
    material: Material,
    rules: Rules,
    /// The cells (with bans under `shuttle = forbidden`).
    index: Arc<BanIndex>,
    /// The tables the removals lead into (none in a reading slice).
    held: Option<Tablebase>,
    /// The materials the removals lead into and their tables' cells, in
    /// the order of [`ReadingSlice::sources`] (a reading slice's; empty
    /// for one that holds its tables).
    sources: Vec<(Material, Dense)>,
    /// Tells this slice's removal memo from another's on a thread: `id`
    /// for the starts from the tables it holds or from values read, `id +
    /// 1` for the starts that only record their reads (their memo holds
    /// no true values).
    id: u64,
}

/// A reading slice's conversions: the material's slot in `sources`, read
/// from `reader`.
struct Reading<'a> {
    sources: &'a [(Material, Dense)],
    reader: &'a dyn Reader,
}

impl Lookup for Reading<'_> {
    fn value(&self, pos: &FiveTigers, material: Material) -> Result<(Wdl, u32), GenerateError> {
        let m = Material::of(pos)
            .ok_or_else(|| internal(format!("the conversion {pos} has no material")))?;
        let (source, (_, dense)) = self
            .sources
            .iter()
            .enumerate()
            .find(|(_, s)| s.0 == m)
            .ok_or_else(|| GenerateError::MissingSubtable {
                material: material.to_string(),
                needed: m.to_string(),
            })?;
        let slot = State::from_position(pos)
            .ok()
            .and_then(|state| dense.cell(&state))
            .ok_or_else(|| internal(format!("the conversion {pos} has no slot in {m}")))?;
        let (v, d) = self
            .reader
            .read(source, slot)
            .map_err(|e| internal(format!("the conversion {pos} into {m}: {e}")))?;
        Ok((v, u32::from(d)))
    }
}

static NEXT_ID: AtomicU64 = AtomicU64::new(0);

thread_local! {
    /// The work of the cells started on this thread (the removal
    /// sequences solved, the board slot last started), for the slice
    /// `.0`: the cells of a run are mostly a few slots'.
    static WORK: RefCell<(u64, Work)> = RefCell::new((u64::MAX, Work::default()));
}

impl FiveTigersSlice {
    /// The slice of `material` under `rules`, whose removals lead into
    /// the tables of `smaller` (every material with fewer pieces that a
    /// removal reaches; read into the slice). Under the shuttle ban the
    /// tables in `smaller` must be those of the ban (`qi tb generate
    /// --game five-tigers:shandong`).
    ///
    /// ```
    /// use qi_games::five_tigers::Rules;
    /// use qi_tablebase::five_tigers::{FiveTigersSlice, Material, Tablebase};
    /// use qi_tablebase::retrograde;
    ///
    /// let ban = Rules::shandong(); // shuttle = forbidden
    /// let m: Material = "2v2".parse()?;
    /// let smaller = Tablebase::generate(&ban, &m.after_removals(&ban), 2)?;
    /// let slice = FiveTigersSlice::new(m, &ban, &smaller)?;
    /// let table = slice.table(&retrograde::solve(&slice)?, 1)?;
    /// assert_eq!(Some(&table), Tablebase::generate(&ban, &[m], 2)?.table(m));
    /// // Tables made with the shuttle allowed are no use under the ban.
    /// let allowed = Rules::shandong_shuttle();
    /// let other = Tablebase::generate(&allowed, &m.after_removals(&allowed), 2)?;
    /// assert!(FiveTigersSlice::new(m, &ban, &other).is_err());
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn new(
        material: Material,
        rules: &Rules,
        smaller: &Tablebase,
    ) -> Result<FiveTigersSlice, GenerateError> {
        let mut held = Tablebase::new(rules);
        for table in cells::tables_read(material, rules, smaller)? {
            held.insert_table(table.clone());
        }
        Ok(FiveTigersSlice {
            material,
            rules: *rules,
            index: Arc::new(BanIndex::under(material, rules)),
            held: Some(held),
            sources: Vec::new(),
            id: NEXT_ID.fetch_add(2, Ordering::Relaxed),
        })
    }

    /// The slice of `material` under `rules` as a [`ReadingSlice`]: it
    /// holds no smaller table, its conversions read the slots of the
    /// materials its removals lead into ([`ReadingSlice::sources`], each
    /// solved as a slice of the same kind). What a cluster that keeps
    /// every table spread over its workers solves
    /// (`dataflow::solve_reading`).
    ///
    /// ```
    /// use qi_games::five_tigers::Rules;
    /// use qi_tablebase::five_tigers::{FiveTigersSlice, Material};
    /// use qi_tablebase::retrograde::ReadingSlice;
    ///
    /// let rules = Rules::shandong_shuttle();
    /// let m: Material = "3v3".parse()?;
    /// let slice = FiveTigersSlice::reading(m, &rules)?;
    /// let names: Vec<String> = slice.sources().into_iter().map(|s| s.name).collect();
    /// let leads_to: Vec<String> = m.after_removals(&rules).iter().map(|m| m.to_string()).collect();
    /// assert_eq!(names, leads_to);
    /// assert_eq!(names, ["3v1", "1v3"]);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn reading(material: Material, rules: &Rules) -> Result<FiveTigersSlice, GenerateError> {
        super::within_rules(material, rules)?;
        let sources = material
            .after_removals(rules)
            .into_iter()
            .map(|m| (m, Dense::under(m, rules)))
            .collect();
        Ok(FiveTigersSlice {
            material,
            rules: *rules,
            index: Arc::new(BanIndex::under(material, rules)),
            held: None,
            sources,
            id: NEXT_ID.fetch_add(2, Ordering::Relaxed),
        })
    }

    /// The material.
    ///
    /// ```
    /// use qi_games::five_tigers::Rules;
    /// use qi_tablebase::five_tigers::FiveTigersSlice;
    ///
    /// let slice = FiveTigersSlice::reading("3v2".parse()?, &Rules::shandong())?;
    /// assert_eq!(slice.material().to_string(), "3v2");
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn material(&self) -> Material {
        self.material
    }

    /// The table of the solved slice's values, in the file layout of the
    /// other generators (so the same bytes), packed on `threads` threads.
    ///
    /// ```
    /// use qi_games::five_tigers::Rules;
    /// use qi_tablebase::five_tigers::{FiveTigersSlice, Material, Tablebase};
    /// use qi_tablebase::retrograde;
    ///
    /// let rules = Rules::shandong_shuttle();
    /// let m: Material = "1v1".parse()?;
    /// let slice = FiveTigersSlice::new(m, &rules, &Tablebase::new(&rules))?;
    /// let values = retrograde::solve(&slice)?;
    /// assert_eq!(slice.table(&values, 1)?, slice.table(&values, 4)?);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn table(&self, values: &SliceValues, threads: usize) -> Result<Table, GenerateError> {
        let codes = &values.codes;
        let packed = pack_codes(codes.len(), threads.max(1), |i| codes[i]);
        // A draw's or unused slot's distance is 0 in a table.
        let decided = |(&c, &d): (&u8, &u16)| match Wdl::from_code(c) {
            Some(Wdl::Win | Wdl::Loss) => d,
            _ => 0,
        };
        let distances = Distances::narrowest(codes.iter().zip(&values.distances).map(decided));
        cells::table_of(
            self.material,
            &self.rules,
            self.index.clone(),
            packed,
            distances,
        )
    }

    /// How cell `slot` starts, its conversions looked up in `lookup` (the
    /// tables held, or the values read) and memoised under `id` (this
    /// thread's [`Work`], emptied first if it was another slice's).
    fn start_with<L: Lookup + ?Sized>(
        &self,
        slot: u64,
        lookup: &L,
        id: u64,
    ) -> Result<Start, RetroError> {
        let index = &*self.index;
        let board_slot = index.slot_of(slot);
        let (x, o, stm) = index.boards.decode(board_slot);
        let off = slot - index.start(board_slot);
        if !index.holds_state(board_slot, [x, o], index.cells_stabiliser([x, o]), off) {
            return Ok(Start::Unused);
        }
        let mut children = Vec::new();
        let start = WORK.with(|work| {
            let mut work = work.borrow_mut();
            if work.0 != id {
                *work = (id, Work::default());
            }
            let bans = BanIndex::bans_at([x, o], off);
            let (rules, material) = (&self.rules, self.material);
            cells::start_cell(
                index,
                board_slot,
                [x, o],
                stm,
                bans,
                rules,
                material,
                lookup,
                &mut work.1,
                &mut children,
            )
        });
        match start {
            Ok(start) => Ok(start.into_start(children.len())),
            Err(e) => Err(RetroError::Slice {
                slot,
                message: e.to_string(),
            }),
        }
    }
}

impl RetroSlice for FiveTigersSlice {
    fn slots(&self) -> u64 {
        self.index.len()
    }

    /// From the tables the slice holds; a reading slice
    /// ([`FiveTigersSlice::reading`]) holds none and starts only through
    /// [`ReadingSlice::start_reading`].
    fn start(&self, slot: u64) -> Result<Start, RetroError> {
        match &self.held {
            Some(held) => self.start_with(slot, held, self.id),
            None => Err(RetroError::Slice {
                slot,
                message: format!(
                    "{}: a reading slice holds no table, its starts read their values",
                    self.material
                ),
            }),
        }
    }

    /// Under the shuttle, the two slots of a board (each side to move) go
    /// together: a position's predecessors all have the other side to
    /// move, so dealt slot by slot every tiding would go to another
    /// worker. Under the ban, the un-moves of a cell all lie in one board
    /// slot's block of cells (a few dozen to a few hundred): runs of 256
    /// keep most of a block on one worker.
    fn run_shift(&self) -> u32 {
        if self.index.has_bans() {
            8
        } else {
            1
        }
    }

    fn predecessors(&self, slot: u64, out: &mut Vec<u64>) {
        cells::unmoves(&self.index, slot, &self.rules.values(), out);
    }
}

impl ReadingSlice for FiveTigersSlice {
    fn sources(&self) -> Vec<Source> {
        let shift = self.run_shift();
        self.sources
            .iter()
            .map(|(m, dense)| Source {
                name: m.to_string(),
                slots: dense.len(),
                shift,
            })
            .collect()
    }

    /// A slice that holds its tables reads nothing (its conversions look
    /// the values up there, `reader` unused).
    fn start_reading(&self, slot: u64, reader: &dyn Reader) -> Result<Start, RetroError> {
        if self.held.is_some() {
            return self.start(slot);
        }
        let reading = Reading {
            sources: &self.sources,
            reader,
        };
        // A reader that records answers anything: its starts must not
        // leave those values in the memo the true starts use.
        let id = if reader.records() {
            self.id + 1
        } else {
            self.id
        };
        self.start_with(slot, &reading, id)
    }
}

#[cfg(test)]
mod tests;
