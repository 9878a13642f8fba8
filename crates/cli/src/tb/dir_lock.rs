//! The write lock of a table directory, held for a `qi tb generate` or
//! `qi tb join`: the directory created if need be, its lock taken (waited
//! for, or refused for a process of a cluster), and what a killed run left
//! removed, in one place for every subcommand that writes tables.

use std::path::Path;

use qi_tablebase::{remove_stale_temporaries, TableGame, Tablebase, WriteLock, LOCK_FILE};

use super::tb_error;
use crate::error::CliError;

/// Creates `dir` if need be and holds its write lock for the run (a
/// second `qi tb generate` into it waits, then finds the tables made),
/// then removes the temporary files a killed run left there. A directory
/// that cannot be locked (read-only) but already holds every table
/// (`present`: `Some(count)` when all are there) has nothing to do:
/// `None`, after a line that says so.
pub(super) fn lock_dir(
    dir: &Path,
    present: impl FnOnce() -> Option<usize>,
) -> Result<Option<WriteLock>, CliError> {
    let shown = dir.display();
    create(dir)?;
    let tried = match WriteLock::try_acquire(dir) {
        Err(e) => match present() {
            Some(all) => {
                eprintln!("all {all} tables are in {shown}: nothing to do");
                return Ok(None);
            }
            None => return Err(locked(dir, e)),
        },
        Ok(tried) => tried,
    };
    let lock = match tried {
        Some(lock) => lock,
        None => {
            eprintln!("waiting for another qi tb generate to finish writing {shown}");
            WriteLock::acquire(dir).map_err(|e| locked(dir, e))?
        }
    };
    clean(dir, &lock)?;
    Ok(Some(lock))
}

/// `dir`'s write lock for one process of a cluster, refusing to wait for
/// it (a process waiting would stall the whole cluster), what a killed run
/// left removed.
pub(super) fn lock_cluster_dir(dir: &Path) -> Result<WriteLock, CliError> {
    create(dir)?;
    let Some(lock) = WriteLock::try_acquire(dir).map_err(|e| locked(dir, e))? else {
        return Err(tb_error(format!(
            "another qi tb generate is writing {}: each process of a cluster needs its own \
             directory",
            dir.display()
        )));
    };
    clean(dir, &lock)?;
    Ok(lock)
}

/// `dir`'s write lock, waited for, what a killed run left removed.
pub(super) fn lock_waiting(dir: &Path) -> Result<WriteLock, CliError> {
    create(dir)?;
    let lock = WriteLock::acquire(dir).map_err(|e| locked(dir, e))?;
    clean(dir, &lock)?;
    Ok(lock)
}

fn create(dir: &Path) -> Result<(), CliError> {
    std::fs::create_dir_all(dir)
        .map_err(|e| tb_error(format!("cannot create {}: {e}", dir.display())))
}

fn locked(dir: &Path, e: std::io::Error) -> CliError {
    tb_error(format!("cannot lock {}/{LOCK_FILE}: {e}", dir.display()))
}

/// Removes the temporary files a killed writer left in `dir`, saying how
/// many when there were some.
fn clean(dir: &Path, lock: &WriteLock) -> Result<(), CliError> {
    let removed = remove_stale_temporaries(dir, lock)
        .map_err(|e| tb_error(format!("cannot clean {}: {e}", dir.display())))?;
    if !removed.is_empty() {
        eprintln!(
            "removed {} temporary files an interrupted run left in {}",
            removed.len(),
            dir.display()
        );
    }
    Ok(())
}

/// `Some(count)` when every table of the closure of `materials` under
/// `rules` has a file in `dir`.
pub(super) fn all_present<G: TableGame>(
    dir: &Path,
    rules: &G::Rules,
    materials: &[G::Material],
) -> Option<usize> {
    let all = G::closure(materials, rules);
    all.iter()
        .all(|&m| Tablebase::<G>::file_path(dir, m).exists())
        .then_some(all.len())
}
