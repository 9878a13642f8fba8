//! A resumable generation into a directory: each finished table is
//! written through a temporary file renamed into place (`save_table`), so
//! a killed run leaves only whole files; a rerun checks and loads those
//! and solves the rest. A file that fails its checks (cut short, bytes
//! changed) is never used: it is solved again and replaced. A file of
//! other rules or another material is refused (it is not ours to
//! overwrite).

use std::path::Path;
use std::time::Instant;

use qi_five_tigers::Rules;

use super::{closure, solve_material, Generator, Material, Table, Tablebase};
use crate::dir::GenerateDirError;
use crate::format::{load_table, save_table, FormatError};

/// Whether `e` says a file's bytes are damaged (what a half-written or
/// cut file gives), as opposed to a good file of other rules or material,
/// or a failure to read.
fn damaged(e: &FormatError) -> bool {
    matches!(
        e,
        FormatError::File { .. }
            | FormatError::BadMaterial(_)
            | FormatError::BadRules { .. }
            | FormatError::CountMismatch { .. }
            | FormatError::BadKey(_)
    )
}

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
/// gets the stats of this process's workers. `shuttle = allowed` only.
#[cfg(feature = "distributed")]
pub fn generate_distributed(
    rules: &Rules,
    materials: &[Material],
    cluster: &crate::dataflow::Cluster,
    dir: &Path,
    mut done: impl FnMut(&Table, f64, Option<&FormatError>, &[crate::dataflow::WorkerStats]),
) -> Result<Tablebase, GenerateDirError> {
    use super::FiveTigersSlice;

    let mut solve = |m: Material, tb: &Tablebase| {
        let slice = std::sync::Arc::new(FiveTigersSlice::new(m, rules, tb)?);
        let (values, stats) = crate::dataflow::solve_everywhere(slice.clone(), cluster)?;
        let table = slice.table(&values, 1)?;
        Ok((table, stats))
    };
    // Every process solves what any process lacks: the processes may
    // resume from different files.
    let agree = |lacking: &[bool]| Ok(crate::dataflow::any_everywhere(cluster, lacking)?);
    resume_with(
        rules,
        materials,
        dir,
        agree,
        &mut solve,
        |t: &Table, s: f64, r: Option<&FormatError>, stats: Vec<crate::dataflow::WorkerStats>| {
            done(t, s, r, &stats)
        },
    )
}

/// The resumable loop of both: the tables found in `dir` are checked
/// first, `agree` says from which of them are lacking what to solve
/// (what any process of a cluster lacks; alone, just these), `solve`
/// makes a table from the finished ones, and its by-product goes to
/// `done`.
fn resume_with<X>(
    rules: &Rules,
    materials: &[Material],
    dir: &Path,
    agree: impl FnOnce(&[bool]) -> Result<Vec<bool>, GenerateDirError>,
    mut solve: impl FnMut(Material, &Tablebase) -> Result<(Table, X), GenerateDirError>,
    mut done: impl FnMut(&Table, f64, Option<&FormatError>, X),
) -> Result<Tablebase, GenerateDirError> {
    let order = closure(materials, rules);
    // A good file, or why there is none (`None`: no file).
    let mut found: Vec<Result<Table, Option<FormatError>>> = Vec::with_capacity(order.len());
    for &m in &order {
        let path = Tablebase::file_path(dir, m);
        found.push(if path.exists() {
            match load_table(&path, rules) {
                Ok(table) => Ok(table),
                Err(e) if damaged(&e) => Err(Some(e)),
                Err(e) => return Err(e.into()),
            }
        } else {
            Err(None)
        });
    }
    let lacking: Vec<bool> = found.iter().map(Result::is_err).collect();
    let to_solve = agree(&lacking)?;
    let mut tb = Tablebase::new(rules);
    for ((m, found), solve_it) in order.into_iter().zip(found).zip(to_solve) {
        if !solve_it {
            if let Ok(table) = found {
                tb.insert_table(table);
                continue;
            }
        }
        let start = Instant::now();
        let (table, by_product) = solve(m, &tb)?;
        let seconds = start.elapsed().as_secs_f64();
        match found {
            // Solved for the other processes: this directory's file is
            // good and stays.
            Ok(good) => tb.insert_table(good),
            Err(refused) => {
                save_table(dir, &table)?;
                done(&table, seconds, refused.as_ref(), by_product);
                tb.insert_table(table);
            }
        }
    }
    Ok(tb)
}
