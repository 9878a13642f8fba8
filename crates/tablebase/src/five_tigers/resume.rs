//! A resumable generation into a directory: each finished table is
//! written through a temporary file renamed into place (`save_table`), so
//! a killed run leaves only whole files; a rerun checks and loads those
//! and solves the rest. A file that fails its checks (cut short, bytes
//! changed) is never used: it is solved again and replaced. A file of
//! other rules or another material is refused (it is not ours to
//! overwrite).

use std::path::Path;

use qi_five_tigers::Rules;

use super::{solve_material, Generator, Material, Table, Tablebase};
use crate::dir::GenerateDirError;
use crate::format::FormatError;
use crate::resume::resume_with;

/// Generates `materials` and what they need under `rules` into `dir`
/// (which must exist), solving each missing or damaged table with
/// `choose(material)`'s generator on `threads` threads, fewest pieces
/// first. `done` gets each table solved, the seconds it took and, when it
/// replaced a damaged file, why that file was refused. Returns every table
/// of the closure.
pub fn generate_resumable(
    rules: &Rules,
    materials: &[Material],
    threads: usize,
    dir: &Path,
    choose: &dyn Fn(Material) -> Generator,
    done: &mut dyn FnMut(&Table, f64, Option<&FormatError>),
) -> Result<Tablebase, GenerateDirError> {
    let mut solve = |m: Material, tb: &Tablebase| {
        let table = solve_material(choose(m), rules, m, tb, threads)?;
        Ok((table, ()))
    };
    resume_with(
        rules,
        materials,
        dir,
        |lacking| Ok(lacking.to_vec()),
        &mut solve,
        |t: &Table, s: f64, r: Option<&FormatError>, ()| done(t, s, r),
    )
}

/// [`generate_resumable`] with each table solved by the workers of
/// `cluster` (`dataflow::solve_everywhere`): every process of the cluster
/// runs this with the same arguments, solves its share of each material,
/// gets the whole table back and writes it into its own `dir` (or the
/// same directory: each writes the same bytes through its own temporary
/// file), so each process can resume alone from its files. `done` also
/// gets the stats of this process's workers. Either shuttle option (under
/// the ban the slots are the cells of the ban index).
#[cfg(feature = "distributed")]
pub fn generate_distributed(
    rules: &Rules,
    materials: &[Material],
    cluster: &crate::dataflow::Cluster,
    dir: &Path,
    mut done: impl FnMut(&Table, f64, Option<&FormatError>, &[crate::dataflow::WorkerStats]),
) -> Result<Tablebase, GenerateDirError> {
    crate::resume::resume_on_cluster(
        rules,
        materials,
        cluster,
        dir,
        |m, tb| Ok(super::FiveTigersSlice::new(m, rules, tb)?),
        |slice, values| Ok(slice.table(values, 1)?),
        &mut done,
    )
}
