//! Generation straight into a directory, holding in memory only the
//! tables the next size of materials needs ([`generate_dir`]).

use std::path::Path;
use std::sync::Mutex;

use thiserror::Error;

use crate::driver::{levels, lock, solve_level, GenerateError};
use crate::format::{load_table, save_table, FormatError};
use crate::game::TableGame;
use crate::table::Table;
use crate::tablebase::Tablebase;

/// Why [`generate_dir`] stopped.
#[derive(Debug, Error)]
pub enum GenerateDirError {
    /// A file could not be read, written, or was refused.
    #[error(transparent)]
    Format(#[from] FormatError),
    /// A table could not be solved.
    #[error(transparent)]
    Generate(#[from] GenerateError),
    /// A distributed run failed.
    #[cfg(feature = "distributed")]
    #[error(transparent)]
    Dataflow(#[from] crate::dataflow::DataflowError),
}

/// What [`generate_dir`] will do, known before it starts
/// ([`plan_dir`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DirPlan<M> {
    /// Every material of the closure of those asked for, in generation
    /// order.
    pub all: Vec<M>,
    /// Those without a file in the directory: the ones to solve.
    pub todo: Vec<M>,
    /// The bound of the working memory of one table in progress, in bytes
    /// ([`TableGame::generation_memory`] of the largest material to solve).
    pub working_memory_per_table: u64,
    /// The most bytes of finished tables held in memory at once: those of
    /// one level while the next level is solved, plus those of the next
    /// level when a level after it needs them ([`TableGame::table_bytes`]).
    pub resident_table_bytes: u64,
    /// The bytes of the new files ([`TableGame::table_bytes`]).
    pub file_bytes: u64,
}

/// What generating `materials` under `rules` into `dir` takes, counting
/// the files already there as done (they are checked when the generation
/// reads them).
pub fn plan_dir<G: TableGame>(
    dir: &Path,
    rules: &G::Rules,
    materials: &[G::Material],
) -> DirPlan<G::Material> {
    let table_bytes = |m| G::table_bytes(m, rules);
    let all = G::closure(materials, rules);
    let todo: Vec<G::Material> = all
        .iter()
        .copied()
        .filter(|&m| !Tablebase::<G>::file_path(dir, m).exists())
        .collect();
    let sizes: Vec<u64> = levels::<G>(&all)
        .iter()
        .map(|level| level.iter().map(|&m| table_bytes(m)).sum())
        .collect();
    let resident_table_bytes = (0..sizes.len())
        .map(|k| {
            let below = if k > 0 { sizes[k - 1] } else { 0 };
            let kept = if k + 1 < sizes.len() { sizes[k] } else { 0 };
            below + kept
        })
        .max()
        .unwrap_or(0);
    DirPlan {
        working_memory_per_table: todo
            .iter()
            .map(|&m| G::generation_memory(m, rules))
            .max()
            .unwrap_or(0),
        file_bytes: todo.iter().map(|&m| table_bytes(m)).sum(),
        resident_table_bytes,
        todo,
        all,
    }
}

/// Generates `materials` and every smaller material their captures lead to
/// into `dir` (which must exist), one file per material, on `threads`
/// threads, and returns how many tables it solved. Unlike
/// [`Tablebase::extend`] it keeps no table it does not need: while the
/// materials of one level are solved, only the tables of the level below
/// (which their captures lead into) are in memory, and a table of the top
/// level is dropped as soon as its file is written. So every 4-animal
/// Jungle material (13.8 GB of tables) is generated with the 3-animal
/// tables (78 MB) in memory.
///
/// A file already in `dir` is not solved again: it is read (and checked)
/// when the size above needs it, or only checked when nothing does, so an
/// interrupted run resumes where it stopped. `done` is called with each
/// new table once its file is written.
///
/// ```
/// use qi_jungle::{Jungle, Rules};
/// use qi_tablebase::jungle::Material;
/// use qi_tablebase::{generate_dir, plan_dir};
///
/// let dir = std::env::temp_dir().join(format!("qi-tb-doc-{}", std::process::id()));
/// std::fs::create_dir_all(&dir).unwrap();
/// let rules = Rules::standard();
/// let materials = ["LvC".parse::<Material>().unwrap()];
/// assert_eq!(plan_dir::<Jungle>(&dir, &rules, &materials).todo.len(), 1);
/// let solved = generate_dir::<Jungle>(&rules, &materials, 2, &dir, &|_| {}).unwrap();
/// assert_eq!(solved, 1);
/// // Everything is on disk now: a second run solves nothing.
/// assert!(plan_dir::<Jungle>(&dir, &rules, &materials).todo.is_empty());
/// assert_eq!(generate_dir::<Jungle>(&rules, &materials, 2, &dir, &|_| {}).unwrap(), 0);
/// std::fs::remove_dir_all(&dir).unwrap();
/// ```
pub fn generate_dir<G: TableGame>(
    rules: &G::Rules,
    materials: &[G::Material],
    threads: usize,
    dir: &Path,
    done: &(dyn Fn(&Table<G>) + Sync),
) -> Result<usize, GenerateDirError> {
    let all = G::closure(materials, rules);
    let levels = levels::<G>(&all);
    let mut below = Tablebase::new(rules);
    let mut solved = 0;
    for (k, level) in levels.iter().enumerate() {
        let needed_above = k + 1 < levels.len();
        let mut this = Tablebase::new(rules);
        let mut todo = Vec::new();
        for &m in level.iter() {
            let path = Tablebase::<G>::file_path(dir, m);
            if path.exists() {
                let table = load_table(&path, rules)?;
                if needed_above {
                    this.insert_table(table);
                }
            } else {
                todo.push(m);
            }
        }
        let kept = Mutex::new(Vec::new());
        solve_level(rules, &todo, &below, threads, &|table: Table<G>| {
            save_table(dir, &table)?;
            done(&table);
            if needed_above {
                lock(&kept).push(table);
            }
            Ok::<(), GenerateDirError>(())
        })?;
        solved += todo.len();
        for table in kept.into_inner().unwrap_or_else(|e| e.into_inner()) {
            this.insert_table(table);
        }
        below = this;
    }
    Ok(solved)
}
