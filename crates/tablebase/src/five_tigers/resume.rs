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
    let mut tb = Tablebase::new(rules);
    for m in closure(materials, rules) {
        let path = Tablebase::file_path(dir, m);
        let mut refused = None;
        if path.exists() {
            match load_table(&path, rules) {
                Ok(table) => {
                    tb.insert_table(table);
                    continue;
                }
                Err(e) if damaged(&e) => refused = Some(e),
                Err(e) => return Err(e.into()),
            }
        }
        let start = Instant::now();
        let table = solve_material(choose(m), rules, m, &tb, threads)?;
        let seconds = start.elapsed().as_secs_f64();
        save_table(dir, &table)?;
        done(&table, seconds, refused.as_ref());
        tb.insert_table(table);
    }
    Ok(tb)
}
