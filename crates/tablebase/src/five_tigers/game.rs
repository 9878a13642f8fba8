//! What the table core needs of Five Tigers: [`TableGame`] and
//! [`Solver`] for [`FiveTigers`].

use qi_core::Position;
use qi_five_tigers::{FiveTigers, Phase, Rules, RulesError};

use super::cells::solve_material;
use super::count::estimated_state_count;
use super::key::State;
use super::layout::{Dense, Slots};
use super::material::{closure, forbids_shuttle, same_board_rules, Material, MaterialError};
use super::stats::Stats;
use super::table::{Table, Tablebase};
use crate::driver::{GenerateError, Solver};
use crate::format::versions::{version_of, SlotIndex};
use crate::format::FormatError;
use crate::game::{Settled, TableGame};
use crate::value::Wdl;

impl TableGame for FiveTigers {
    type Rules = Rules;
    type RulesError = RulesError;
    type Material = Material;
    type MaterialError = MaterialError;
    /// The canonical keys of the stored states, or the dense index.
    type Index = Slots;
    type Stats = Stats;

    const NAME: &'static str = "five-tigers";
    /// Not the Jungle `qtb`, so that a directory may hold both games'
    /// tables.
    const EXTENSION: &'static str = "qft";
    const RULES_DIFFER: &'static str = "another shuttle rule or other formation values";

    fn same_board_rules(a: &Rules, b: &Rules) -> bool {
        same_board_rules(a, b)
    }

    fn rules_of(pos: &FiveTigers) -> &Rules {
        pos.rules()
    }

    /// The placement phase and positions with removals owed are not
    /// covered; a finished game (a side without pieces, or no legal step)
    /// answers at distance 0.
    fn settle(pos: &FiveTigers) -> Settled<Material> {
        if pos.phase() != Phase::Movement || !pos.owed().is_empty() {
            return Settled::Answer(None);
        }
        if let Some(outcome) = pos.outcome() {
            let value = Wdl::of_outcome(outcome, pos.side_to_move());
            return Settled::Answer(Some((value, 0)));
        }
        match Material::of(pos) {
            Some(material) => Settled::Table(material),
            None => Settled::Answer(None),
        }
    }

    /// `None` as well for a previous step whose way back the side to move
    /// blocks (no position of play has it). The index is `material`'s: a
    /// state of another material, or owing removals, is not in it.
    fn slot(_material: Material, index: &Slots, pos: &FiveTigers) -> Option<u64> {
        let state = State::from_position(pos).ok()?;
        match index {
            Slots::Keys(keys) => keys
                .binary_search(&state.canonical()?.0)
                .ok()
                .map(|i| i as u64),
            Slots::Dense(d) => d.cell(&state),
        }
    }

    /// The pieces of the larger side.
    fn size(material: Material) -> u32 {
        material.first.max(material.second)
    }

    fn closure(materials: &[Material], rules: &Rules) -> Vec<Material> {
        closure(materials, rules)
    }

    fn level(material: Material) -> u32 {
        material.total()
    }

    fn dependencies(material: Material, rules: &Rules) -> Vec<Material> {
        material.after_removals(rules)
    }

    /// An estimate: the raw states ([`estimated_state_count`], sampled
    /// for the large materials under the ban) over 8 (the symmetry
    /// classes; a few states fixed by a symmetry make the true count
    /// slightly larger), at the in-core solver's bytes a cell.
    fn generation_memory(material: Material, rules: &Rules) -> u64 {
        let states = estimated_state_count(material, rules).div_ceil(8);
        (states * crate::in_core::BYTES_PER_4_CELLS).div_ceil(4)
    }

    /// An estimate, from the same count of states: a one-byte distance
    /// and 2 bits a state (a dense table stores no key).
    fn table_bytes(material: Material, rules: &Rules) -> u64 {
        let states = estimated_state_count(material, rules).div_ceil(8);
        states + states.div_ceil(4)
    }

    fn index_bytes(index: &Slots) -> Vec<u8> {
        match index {
            Slots::Keys(keys) => keys.iter().flat_map(|k| k.to_le_bytes()).collect(),
            Slots::Dense(_) => Vec::new(),
        }
    }

    fn slot_index(index: &Slots) -> SlotIndex {
        match index {
            Slots::Keys(_) => SlotIndex::FiveTigersKeys,
            Slots::Dense(d) if d.has_bans() => SlotIndex::FiveTigersDenseBan,
            Slots::Dense(_) => SlotIndex::FiveTigersDense,
        }
    }

    /// The sorted keys of a keyed file, or the dense index of `material`
    /// (refused under `shuttle = forbidden`: its states hold previous
    /// steps, which the dense index has not) or its ban index (refused
    /// under `shuttle = allowed`).
    fn read_index(
        material: Material,
        rules: &Rules,
        slots: SlotIndex,
        count: u64,
        bytes: &[u8],
    ) -> Result<Slots, FormatError> {
        let wrong = |needs: &str| {
            let version = version_of(slots);
            Err(FormatError::BadRules {
                text: rules.to_string(),
                source: format!("a dense table of version {version} needs {needs}").into(),
            })
        };
        let dense = match slots {
            SlotIndex::FiveTigersKeys => return read_keys(material, rules, bytes),
            SlotIndex::FiveTigersDense if forbids_shuttle(rules) => {
                return wrong("shuttle = allowed")
            }
            SlotIndex::FiveTigersDense => Dense::new(material),
            SlotIndex::FiveTigersDenseBan if !forbids_shuttle(rules) => {
                return wrong("shuttle = forbidden")
            }
            SlotIndex::FiveTigersDenseBan => Dense::under(material, rules),
            SlotIndex::JungleRank => {
                return Err(FormatError::file::<FiveTigers>(
                    crate::format::container::FileError::WrongGame("jungle".into()),
                ))
            }
        };
        if dense.len() != count {
            return Err(FormatError::CountMismatch {
                material: material.to_string(),
                expected: dense.len(),
                found: count,
            });
        }
        Ok(Slots::Dense(dense))
    }

    /// The statistics by the counting convention (see [`Stats`]).
    fn stats(table: &Table) -> Stats {
        table.count()
    }
}

/// The sorted canonical keys of a keyed file (8 bytes each), refusing
/// keys out of order or not of `material` under `rules`.
fn read_keys(material: Material, rules: &Rules, bytes: &[u8]) -> Result<Slots, FormatError> {
    let mut keys: Vec<u64> = Vec::with_capacity(bytes.len() / 8);
    for (i, &c) in bytes.as_chunks::<8>().0.iter().enumerate() {
        let k = u64::from_le_bytes(c);
        if keys.last().is_some_and(|&last| last >= k) || !valid_key(k, material, rules) {
            return Err(FormatError::BadKey(i as u64));
        }
        keys.push(k);
    }
    Ok(Slots::Keys(keys))
}

impl Solver for FiveTigers {
    /// By [`solve_material`].
    fn solve(
        rules: &Rules,
        material: Material,
        smaller: &Tablebase,
        threads: usize,
    ) -> Result<Table, GenerateError> {
        solve_material(rules, material, smaller, threads)
    }
}

/// Whether `key` is a state a table of `material` under `rules` stores.
fn valid_key(key: u64, material: Material, rules: &Rules) -> bool {
    let Some(state) = State::from_key(key) else {
        return false;
    };
    state.owed == 0
        && Material::of_boards(state.boards) == Some(material)
        && (forbids_shuttle(rules) || state.bans == [None, None])
        && state.key() == Some(key)
        && state.canonical().map(|c| c.0) == Some(key)
}
