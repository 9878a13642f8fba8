//! Five Tigers' plan of a directory's run and its own ways of the one
//! executor ([`Generator`] for [`FiveTigers`]). Within a memory bound
//! ([`plan_bounded`]) each missing table is made with only the tables
//! its conversions read in memory (read from the directory, dropped
//! after): from its twin where that table is there, in core where that
//! fits, else, under `shuttle = forbidden`, out of core
//! ([`solve_out_of_core`]). On a cluster its slice is a
//! [`FiveTigersSlice`], and a twin is made by each process alone.
//! [`generate_plan`](crate::generate_plan) runs the plan.

use std::path::Path;

use qi_five_tigers::{FiveTigers, Rules};

use super::out_of_core::{memory_needed, solve_out_of_core};
#[cfg(feature = "distributed")]
use super::twin::twin_table;
use super::twin::{twin, write_twin};
use super::{forbids_shuttle, FiveTigersSlice, Material, Stats, Table, Tablebase};
use crate::driver::{GenerateError, Generator};
use crate::exec::GenerateDirError;
use crate::format::{blocked_format, load_table};
use crate::plan::{plan, Holding, How, Plan};
use crate::retrograde::SliceValues;
use crate::TableGame;

/// How each material of the closure of `materials` is to be made into
/// `dir` with at most `memory` bytes, in generation order: from its twin
/// where that table is made before it or present in a dense file, else
/// in core where that fits, else out of core under the shuttle ban; the
/// memory of each counts the tables it reads, at the size of their file
/// or estimated at [`TableGame::table_bytes`] (a present file is not
/// checked here). The first material that fits no way is refused.
///
/// ```
/// use qi_games::five_tigers::Rules;
/// use qi_tablebase::five_tigers::{plan_bounded, Material};
/// use qi_tablebase::{GenerateError, How};
///
/// let rules = Rules::shandong();
/// let dir = std::env::temp_dir().join("qi-doc-plan-bounded-empty");
/// let m: Material = "5v5".parse().unwrap();
/// // 2.5 · 10¹⁰ cells: about 56 GB in core, 19 GB out of core.
/// let plan = plan_bounded(&rules, &[m], &dir, 24_000_000_000).unwrap();
/// let last = plan.steps.last().unwrap();
/// assert_eq!((last.material, last.how), (m, How::OutOfCore));
/// let refused = plan_bounded(&rules, &[m], &dir, 10_000_000_000);
/// assert!(matches!(refused, Err(GenerateError::OutOfMemory { .. })));
/// ```
pub fn plan_bounded(
    rules: &Rules,
    materials: &[Material],
    dir: &Path,
    memory: u64,
) -> Result<Plan<Material>, GenerateError> {
    // What solving a material that reads the table of `m` holds of it in
    // memory: the bytes of its file in `dir`, or if none, its estimate.
    let bytes = |m: Material| match std::fs::metadata(Tablebase::file_path(dir, m)) {
        Ok(file) if file.len() > 0 => file.len(),
        _ => FiveTigers::table_bytes(m, rules),
    };
    // The materials this run solves before the next; with the dense
    // (blocked) files present, not the keyed ones of version 1, the
    // tables a twin can be read from.
    let mut solved = std::collections::HashSet::new();
    let dense_file = |m| blocked_format::<FiveTigers>(&Tablebase::file_path(dir, m)).is_some();
    let present = |m| Tablebase::file_path(dir, m).exists();
    let how = |m: Material| {
        solved.insert(m);
        let t = twin(m);
        if t != m && (solved.contains(&t) || dense_file(t)) {
            // The twin's table, and the two indexes' board slots.
            let slots = |m: Material| super::dense::DenseIndex::new(m.first, m.second).len();
            let swapped = bytes(t) + 8 * (slots(m) + slots(t));
            if swapped <= memory {
                return Ok((How::FromTwin, swapped));
            }
        }
        let in_core = FiveTigers::generation_memory(m, rules)
            + m.after_removals(rules).into_iter().map(bytes).sum::<u64>();
        if in_core <= memory {
            return Ok((How::InCore, in_core));
        }
        if forbids_shuttle(rules) {
            let out = memory_needed(m, rules, bytes);
            if out <= memory {
                return Ok((How::OutOfCore, out));
            }
            return Err(too_large(m, out.min(in_core), memory));
        }
        Err(too_large(m, in_core, memory))
    };
    let mut plan = plan::<FiveTigers, _>(rules, materials, present, how)?;
    // Each material reads its tables from the directory.
    plan.resident_table_bytes = 0;
    plan.holding = Holding::FromDir { memory };
    Ok(plan)
}

fn too_large(m: Material, needed: u64, memory: u64) -> GenerateError {
    GenerateError::OutOfMemory {
        material: m.to_string(),
        needed,
        memory,
    }
}

/// Five Tigers' plan within the machine's memory: [`plan_bounded`] under
/// the shuttle ban, every material in core otherwise; its own ways, from
/// its twin and out of core; on a cluster, a [`FiveTigersSlice`] (the
/// cells of the ban index under the ban), a twin made by each process
/// alone.
impl Generator for FiveTigers {
    type Slice = FiveTigersSlice;

    fn slice(
        rules: &Rules,
        m: Material,
        smaller: Option<&Tablebase>,
    ) -> Result<FiveTigersSlice, GenerateError> {
        match smaller {
            Some(smaller) => FiveTigersSlice::new(m, rules, smaller),
            None => FiveTigersSlice::reading(m, rules),
        }
    }

    fn slice_table(
        slice: &FiveTigersSlice,
        values: &SliceValues,
        threads: usize,
    ) -> Result<Table, GenerateError> {
        slice.table(values, threads)
    }

    /// From its twin (the colours swapped) when that table is held in a
    /// dense index (a keyed file's has no twin by index).
    #[cfg(feature = "distributed")]
    fn from_twin(
        m: Material,
        held: &Tablebase,
        threads: usize,
    ) -> Option<Result<Table, GenerateError>> {
        let source = held.table(twin(m))?;
        if matches!(source.index(), super::Slots::Keys(_)) {
            return None;
        }
        Some(twin_table(source, threads))
    }

    fn plan_within(
        rules: &Rules,
        materials: &[Material],
        dir: &Path,
        memory: u64,
    ) -> Result<Plan<Material>, GenerateError> {
        if forbids_shuttle(rules) {
            plan_bounded(rules, materials, dir, memory)
        } else {
            Ok(crate::plan_dir::<FiveTigers>(dir, rules, materials))
        }
    }

    fn make_in_dir(
        rules: &Rules,
        m: Material,
        how: How,
        dir: &Path,
        threads: usize,
        progress: &(dyn Fn(&str) + Sync),
    ) -> Result<(u64, Stats), GenerateDirError> {
        match how {
            How::FromTwin => {
                let source = load_table(&Tablebase::file_path(dir, twin(m)), rules)?;
                write_twin(&source, dir, threads)?;
                drop(source);
                let (_, slots, stats) = super::file_stats(&Tablebase::file_path(dir, m), rules)?;
                Ok((slots, stats))
            }
            How::OutOfCore => {
                let r = solve_out_of_core(m, rules, dir, threads, progress)?;
                Ok((r.cells, r.stats))
            }
            how => Err(GenerateError::Internal(format!(
                "{m}: a Five Tigers table is not made {how} into a directory"
            ))
            .into()),
        }
    }
}

#[cfg(test)]
mod tests;
