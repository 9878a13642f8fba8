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
//!
//! A slice made by [`FiveTigersSlice::reading`] holds no smaller table:
//! it is a [`ReadingSlice`], whose conversions end in a read of the
//! smaller material's slot (its dense slot, or the cell of the state's
//! canonical key under the ban: the slots those tables are solved in),
//! answered by whoever holds that table's values (`dataflow::solve_reading`
//! asks the worker that owns the slot).

use std::cell::RefCell;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;
use std::thread::LocalKey;

use qi_five_tigers::{Rules, Shuttle};

use qi_core::{Position, Side};
use qi_five_tigers::FiveTigers;

use super::dense::DenseIndex;
use super::dense_ban::BanIndex;
use super::removals::{Lookup, Memo};
use super::retro::{self, SlotStart, Targets};
use super::retro_ban::{self, BlockStart};
use super::{Dense, DenseBan, Material, Slots, Table, Tablebase};
use crate::driver::GenerateError;
use crate::in_core;
use crate::retrograde::{Reader, ReadingSlice, RetroError, RetroSlice, SliceValues, Source, Start};
use crate::value::Wdl;

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
    kind: Kind,
    /// The materials the removals lead into and their tables' slots, in
    /// the order of [`ReadingSlice::sources`] (a reading slice's; empty
    /// for one that holds its tables).
    sources: Vec<(Material, Slots)>,
    /// Tells this slice's removal memo from another's on a thread: `id`
    /// for the starts from the tables it holds or from values read, `id +
    /// 1` for the starts that only record their reads (their memo holds
    /// no true values).
    id: u64,
}

/// What the slots are, by the shuttle option.
enum Kind {
    /// `shuttle = allowed`: the board slots, and the tables the removals
    /// lead into by dense slot (none in a reading slice).
    Shuttle {
        index: DenseIndex,
        targets: Option<Targets>,
    },
    /// `shuttle = forbidden`: the cells (boards and bans), and the
    /// smaller tables the removals lead into (a copy of those of them
    /// that a removal reaches), looked up by canonical key (none in a
    /// reading slice).
    Ban {
        index: Arc<BanIndex>,
        smaller: Option<Tablebase>,
    },
}

/// A reading slice's conversions: the material's slot in `sources`, read
/// from `reader`.
struct Reading<'a> {
    sources: &'a [(Material, Slots)],
    reader: &'a dyn Reader,
}

impl Lookup for Reading<'_> {
    fn value(&self, pos: &FiveTigers, material: Material) -> Result<(Wdl, u32), GenerateError> {
        let m = Material::of(pos)
            .ok_or_else(|| retro::internal(format!("the conversion {pos} has no material")))?;
        let (source, (_, slots)) = self
            .sources
            .iter()
            .enumerate()
            .find(|(_, s)| s.0 == m)
            .ok_or_else(|| retro::missing(material, m))?;
        let slot = match slots {
            Slots::DenseBan(_) => slots.slot_of_key(retro_ban::canonical_key(pos)?),
            _ => slots.plain_slot(
                [pos.pieces(Side::First).0, pos.pieces(Side::Second).0],
                pos.side_to_move(),
            ),
        }
        .ok_or_else(|| retro::internal(format!("the conversion {pos} has no slot in {m}")))?;
        let (v, d) = self
            .reader
            .read(source, slot)
            .map_err(|e| retro::internal(format!("the conversion {pos} into {m}: {e}")))?;
        Ok((v, u32::from(d)))
    }
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
    memo: Memo,
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
        let kind = match rules.shuttle {
            Shuttle::Allowed => Kind::Shuttle {
                index: DenseIndex::new(material.first, material.second),
                targets: Some(Targets::new(material, rules, smaller)?),
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
                    smaller: Some(own),
                }
            }
        };
        Ok(FiveTigersSlice {
            material,
            rules: *rules,
            kind,
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
        let kind = match rules.shuttle {
            Shuttle::Allowed => Kind::Shuttle {
                index: DenseIndex::new(material.first, material.second),
                targets: None,
            },
            Shuttle::Forbidden => Kind::Ban {
                index: Arc::new(BanIndex::new(material.first, material.second)),
                smaller: None,
            },
        };
        let sources = material
            .after_removals(rules)
            .into_iter()
            .map(|m| {
                let slots = match rules.shuttle {
                    Shuttle::Allowed => Slots::Dense(Dense::new(m)),
                    Shuttle::Forbidden => Slots::DenseBan(DenseBan::new(m)),
                };
                (m, slots)
            })
            .collect();
        Ok(FiveTigersSlice {
            material,
            rules: *rules,
            kind,
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

    /// Whether the slice holds the tables its removals lead into (made by
    /// [`FiveTigersSlice::new`]).
    fn holds_tables(&self) -> bool {
        match &self.kind {
            Kind::Shuttle { targets, .. } => targets.is_some(),
            Kind::Ban { smaller, .. } => smaller.is_some(),
        }
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
        let states: Vec<u8> = values
            .codes
            .iter()
            .map(|&c| in_core::state_of_code(c))
            .collect();
        let packed = in_core::pack_states(&states, threads.max(1));
        let distances = in_core::table_distances(&states, &values.distances);
        drop(states);
        match &self.kind {
            Kind::Shuttle { index, .. } => {
                retro::table_of(self.material, &self.rules, index, packed, distances)
            }
            Kind::Ban { index, .. } => {
                retro_ban::table_of(self.material, &self.rules, index.clone(), packed, distances)
            }
        }
    }

    /// How slot `slot` (a board slot of `index`) starts, into `children`,
    /// its conversions looked up in `targets`, memoised under `id`.
    fn start_shuttle<L: Lookup + ?Sized>(
        &self,
        index: &DenseIndex,
        targets: &L,
        id: u64,
        slot: u64,
        children: &mut Vec<u64>,
    ) -> Result<Option<SlotStart>, GenerateError> {
        if !index.is_canonical(slot) {
            return Ok(None);
        }
        let (x, o, stm) = index.decode(slot);
        with_memo(&MEMO, id, |memo| {
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

    /// How cell `cell` of `index` starts, into `children`, its
    /// conversions looked up in `smaller`, memoised under `id`.
    fn start_ban<L: Lookup + ?Sized>(
        &self,
        index: &BanIndex,
        smaller: &L,
        id: u64,
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
        with_memo(&BAN_MEMO, id, |work| {
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

    /// How `slot` starts, its conversions looked up in `lookup` (the
    /// tables held, or the values read) and memoised under `id`.
    fn start_with<L: Lookup + ?Sized>(
        &self,
        slot: u64,
        lookup: &L,
        id: u64,
    ) -> Result<Start, RetroError> {
        let mut children = Vec::new();
        let start = match &self.kind {
            Kind::Shuttle { index, .. } => {
                self.start_shuttle(index, lookup, id, slot, &mut children)
            }
            Kind::Ban { index, .. } => self.start_ban(index, lookup, id, slot, &mut children),
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
        Ok(start.into_start(children.len()))
    }
}

impl RetroSlice for FiveTigersSlice {
    fn slots(&self) -> u64 {
        match &self.kind {
            Kind::Shuttle { index, .. } => index.len(),
            Kind::Ban { index, .. } => index.len(),
        }
    }

    /// From the tables the slice holds; a reading slice
    /// ([`FiveTigersSlice::reading`]) holds none and starts only through
    /// [`ReadingSlice::start_reading`].
    fn start(&self, slot: u64) -> Result<Start, RetroError> {
        match &self.kind {
            Kind::Shuttle {
                targets: Some(targets),
                ..
            } => self.start_with(slot, targets, self.id),
            Kind::Ban {
                smaller: Some(smaller),
                ..
            } => self.start_with(slot, smaller, self.id),
            _ => Err(RetroError::Slice {
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

impl ReadingSlice for FiveTigersSlice {
    fn sources(&self) -> Vec<Source> {
        let shift = self.run_shift();
        self.sources
            .iter()
            .map(|(m, slots)| Source {
                name: m.to_string(),
                slots: match slots {
                    Slots::Dense(d) => d.len(),
                    Slots::DenseBan(d) => d.len(),
                    Slots::Keys(k) => k.len() as u64,
                },
                shift,
            })
            .collect()
    }

    /// A slice that holds its tables reads nothing (its conversions look
    /// the values up there, `reader` unused).
    fn start_reading(&self, slot: u64, reader: &dyn Reader) -> Result<Start, RetroError> {
        if self.holds_tables() {
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
mod tests {
    use super::*;
    use crate::five_tigers::{closure, solve_material};

    /// Answers a read from the tables themselves, slot for slot.
    struct FromTables<'a>(Vec<&'a Table>);

    impl Reader for FromTables<'_> {
        fn read(&self, source: usize, slot: u64) -> Result<(Wdl, u16), RetroError> {
            let (v, d) = self.0[source].at(slot).expect("a slot in range");
            Ok((v, d as u16))
        }
    }

    /// Every stored state of the tables `3v3`'s removals lead into,
    /// looked up as a reading slice reads it (its slot in the source),
    /// has the value the generators' own lookup gives (by key under the
    /// ban, by dense slot with the shuttle): a read that dropped the
    /// bans, or took a non-canonical image's slot, would differ.
    fn reads_agree_with_the_lookups(rules: &Rules) {
        let m: Material = "3v3".parse().unwrap();
        let mut tb = Tablebase::new(rules);
        for s in closure(&[m], rules).into_iter().filter(|&s| s != m) {
            let table = solve_material(rules, s, &tb, 2).unwrap();
            assert!(tb.insert(table).is_ok());
        }
        let slice = FiveTigersSlice::reading(m, rules).unwrap();
        let tables: Vec<&Table> = slice
            .sources
            .iter()
            .map(|(s, _)| tb.table(*s).unwrap())
            .collect();
        let reader = FromTables(tables.clone());
        let reading = Reading {
            sources: &slice.sources,
            reader: &reader,
        };
        let held = FiveTigersSlice::new(m, rules, &tb).unwrap();
        let mut checked = 0;
        for table in &tables {
            for (pos, v, d) in table.entries() {
                let expected = match &held.kind {
                    Kind::Shuttle {
                        targets: Some(t), ..
                    } => t.value(&pos, m).unwrap(),
                    Kind::Ban {
                        smaller: Some(t), ..
                    } => t.value(&pos, m).unwrap(),
                    _ => unreachable!("a slice with its tables"),
                };
                assert_eq!(expected, (v, d), "{pos}");
                // Every image of it (a conversion reaches any) reads the
                // same value.
                for sym in qi_five_tigers::Symmetry::ALL {
                    let image = sym.position(&pos);
                    assert_eq!(reading.value(&image, m).unwrap(), expected, "{image}");
                }
                checked += 1;
            }
        }
        assert!(checked > 1000, "{checked}");
    }

    #[test]
    fn reads_under_the_shuttle_ban_agree_with_the_lookups_by_key() {
        reads_agree_with_the_lookups(&Rules::shandong());
    }

    #[test]
    fn reads_with_the_shuttle_agree_with_the_lookups_by_slot() {
        reads_agree_with_the_lookups(&Rules::shandong_shuttle());
    }
}
