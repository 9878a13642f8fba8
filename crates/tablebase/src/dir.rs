//! Generation straight into a directory, holding in memory only the
//! tables the next size of materials needs ([`generate_dir`]).

use std::collections::BTreeMap;
use std::path::Path;

use crate::driver::{InCore, Solver};
use crate::exec::GenerateDirError;
use crate::exec::{execute, levels, Done, Hold, OnDamaged, Run};
use crate::game::table::Table;
use crate::game::TableGame;
use crate::probe::Tablebase;

/// What [`generate_dir`] will do, known before it starts
/// ([`plan_dir`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DirPlan<M> {
    /// Every material of the closure of those asked for, in generation
    /// order.
    pub all: Vec<M>,
    /// Those without a file in the directory: the ones to solve.
    pub todo: Vec<M>,
    /// Each material of `all`, in the same order: whether its file is
    /// there, what it reads, what it takes.
    pub steps: Vec<DirStep<M>>,
    /// The bound of the working memory of one table in progress, in bytes
    /// ([`TableGame::generation_memory`] of the largest material to solve).
    pub working_memory_per_table: u64,
    /// The most bytes of finished tables held in memory at once: those
    /// that a material still to come reads, while a level is solved
    /// ([`TableGame::table_bytes`]).
    pub resident_table_bytes: u64,
    /// The bytes of the new files ([`TableGame::table_bytes`]).
    pub file_bytes: u64,
}

/// One material of a [`DirPlan`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DirStep<M> {
    /// The material.
    pub material: M,
    /// Whether its file is in the directory (read and checked, not
    /// solved).
    pub present: bool,
    /// The materials its solution reads ([`TableGame::dependencies`]),
    /// all earlier in the plan.
    pub reads: Vec<M>,
    /// The bound of its working memory while solved, in bytes
    /// ([`TableGame::generation_memory`]).
    pub working_memory: u64,
    /// The bytes of its file ([`TableGame::table_bytes`]).
    pub file_bytes: u64,
}

/// For each material of `all` (a closure, in order), the index of the
/// last level of `levels` whose materials read its table (`None`: no
/// material of the closure reads it).
fn last_readers<G: TableGame>(
    rules: &G::Rules,
    levels: &[&[G::Material]],
) -> BTreeMap<G::Material, usize> {
    let mut last = BTreeMap::new();
    for (k, level) in levels.iter().enumerate() {
        for &m in level.iter() {
            for read in G::dependencies(m, rules) {
                last.insert(read, k);
            }
        }
    }
    last
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
    let steps: Vec<DirStep<G::Material>> = all
        .iter()
        .map(|&m| DirStep {
            material: m,
            present: Tablebase::<G>::file_path(dir, m).exists(),
            reads: G::dependencies(m, rules),
            working_memory: G::generation_memory(m, rules),
            file_bytes: table_bytes(m),
        })
        .collect();
    let todo: Vec<G::Material> = steps
        .iter()
        .filter(|s| !s.present)
        .map(|s| s.material)
        .collect();
    let levels = levels::<G>(&all);
    let last = last_readers::<G>(rules, &levels);
    // While level k is solved: the tables of earlier levels read at k or
    // later, and those of level k read later.
    let resident_table_bytes = (0..levels.len())
        .map(|k| {
            levels[..=k]
                .iter()
                .enumerate()
                .flat_map(|(j, level)| level.iter().map(move |m| (j, m)))
                .filter(|&(j, m)| {
                    last.get(m)
                        .is_some_and(|&r| if j < k { r >= k } else { r > k })
                })
                .map(|(_, &m)| table_bytes(m))
                .sum::<u64>()
        })
        .max()
        .unwrap_or(0);
    DirPlan {
        working_memory_per_table: steps
            .iter()
            .filter(|s| !s.present)
            .map(|s| s.working_memory)
            .max()
            .unwrap_or(0),
        file_bytes: steps
            .iter()
            .filter(|s| !s.present)
            .map(|s| s.file_bytes)
            .sum(),
        resident_table_bytes,
        todo,
        steps,
        all,
    }
}

/// Generates `materials` and every smaller material their captures lead to
/// into `dir` (which must exist), one file per material, on `threads`
/// threads, and returns how many tables it solved. Unlike
/// [`Tablebase::extend`] it keeps no table it does not need: a table
/// stays in memory only until the last material that reads it
/// ([`TableGame::dependencies`]) is solved, and a table nothing reads is
/// dropped as soon as its file is written. So every 4-animal
/// Jungle material (13.8 GB of tables) is generated with the 3-animal
/// tables (78 MB) in memory.
///
/// A file already in `dir` is not solved again: every one is checked
/// before anything is solved (a damaged file or one of other rules stops
/// the run with its error), and read when a material to solve needs it,
/// so an interrupted run resumes where it stopped. `done` is called with
/// each new table once its file is written.
///
/// ```
/// use qi_games::jungle::{Jungle, Rules};
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
pub fn generate_dir<G: Solver>(
    rules: &G::Rules,
    materials: &[G::Material],
    threads: usize,
    dir: &Path,
    done: &(dyn Fn(&Table<G>) + Sync),
) -> Result<usize, GenerateDirError> {
    let run = Run {
        dir: Some(dir),
        threads,
        hold: Hold::UntilLastReader,
        damaged: OnDamaged::Stop,
    };
    let way = InCore::<G> { rules };
    let mut done = |d: Done<'_, G, ()>| d.table.into_iter().for_each(done);
    let mut held = Tablebase::new(rules);
    execute(
        run,
        materials,
        &mut held,
        |l| Ok(l.to_vec()),
        &way,
        &mut done,
    )
}
