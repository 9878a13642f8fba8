//! Generation straight into a directory, holding in memory only the
//! tables the materials still to make read ([`generate_dir`]), as its
//! plan ([`plan_dir`]) says.

use std::path::Path;

use crate::driver::{run_plan, Generator, Output};
use crate::exec::GenerateDirError;
use crate::exec::OnDamaged;
use crate::game::table::Table;
use crate::plan::plan_dir;

/// Generates `materials` and every smaller material their captures lead to
/// into `dir` (which must exist), one file per material, on `threads`
/// threads, and returns how many tables it solved. Unlike
/// [`Tablebase::extend`](crate::Tablebase::extend) it keeps no table it does not need: a table
/// stays in memory only until the last material that reads it
/// ([`TableGame::dependencies`](crate::TableGame::dependencies)) is solved, and a table nothing reads is
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
/// assert_eq!(plan_dir::<Jungle>(&dir, &rules, &materials).todo().len(), 1);
/// let solved = generate_dir::<Jungle>(&rules, &materials, 2, &dir, &|_| {}).unwrap();
/// assert_eq!(solved, 1);
/// // Everything is on disk now: a second run solves nothing.
/// assert!(plan_dir::<Jungle>(&dir, &rules, &materials).todo().is_empty());
/// assert_eq!(generate_dir::<Jungle>(&rules, &materials, 2, &dir, &|_| {}).unwrap(), 0);
/// std::fs::remove_dir_all(&dir).unwrap();
/// ```
pub fn generate_dir<G: Generator>(
    rules: &G::Rules,
    materials: &[G::Material],
    threads: usize,
    dir: &Path,
    done: &(dyn Fn(&Table<G>) + Sync),
) -> Result<usize, GenerateDirError> {
    let plan = plan_dir::<G>(dir, rules, materials);
    run_plan(
        rules,
        &plan,
        dir,
        threads,
        OnDamaged::Stop,
        &|_| {},
        &mut |made| {
            if let Output::Table(table) = made.output {
                done(table);
            }
        },
    )
}
