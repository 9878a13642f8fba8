//! Jungle tables generated on timely dataflow workers (the `distributed`
//! feature): each material a [`JungleSlice`] solved by the rounds of
//! [`crate::dataflow`], in threads of one process or in processes over
//! TCP, resumed from a directory's files.

use std::path::Path;

use qi_jungle::Rules;

use super::{JungleSlice, Material, Table, Tablebase};
use crate::dataflow::{Cluster, WorkerStats};
use crate::exec::GenerateDirError;
use crate::format::FormatError;
use crate::resume::resume_on_cluster;

/// Generates `materials` and the smaller materials their captures lead
/// to under `rules` into `dir` (which must exist), fewest animals first,
/// each solved by the workers of `cluster`
/// ([`crate::dataflow::solve_everywhere`]). Every process of the cluster runs
/// this with the same arguments and its own `dir`: it solves its share of
/// each material, gets the whole table back and writes it, so each
/// process can resume alone from its files; the processes agree to solve
/// what any of them lacks. `done` gets each table written, the seconds it
/// took, why a damaged file it replaced was refused, and the stats of
/// this process's workers. Returns every table of the closure (they are
/// all kept in memory: the 4-animal tables are 13.8 GB, so past 3 animals
/// generate a few materials at a time).
///
/// ```
/// use qi_games::jungle::Rules;
/// use qi_tablebase::dataflow::Cluster;
/// use qi_tablebase::jungle::{generate_distributed, Material, Tablebase};
///
/// let dir = std::env::temp_dir().join(format!("qi-jungle-dataflow-doc-{}", std::process::id()));
/// std::fs::create_dir_all(&dir).unwrap();
/// let rules = Rules::standard();
/// let m: Material = "LvC".parse().unwrap();
/// let mut written = Vec::new();
/// let tb = generate_distributed(&rules, &[m], &Cluster::Local { threads: 2 }, &dir, |t, _, _, _| {
///     written.push(t.material())
/// })
/// .unwrap();
/// assert_eq!(written, [m]);
/// assert_eq!(tb.table(m), Tablebase::generate(&rules, &[m], 1).unwrap().table(m));
/// std::fs::remove_dir_all(&dir).unwrap();
/// ```
pub fn generate_distributed(
    rules: &Rules,
    materials: &[Material],
    cluster: &Cluster,
    dir: &Path,
    mut done: impl FnMut(&Table, f64, Option<&FormatError>, &[WorkerStats]),
) -> Result<Tablebase, GenerateDirError> {
    let way = crate::resume::OnCluster {
        cluster,
        slice_of: |m: Material, tb: &Tablebase| {
            // The slice reads the tables its captures lead to: those with
            // fewer animals, copied so that the workers own them.
            let mut smaller = Tablebase::new(rules);
            for t in tb.tables().filter(|t| t.material().total() < m.total()) {
                smaller.insert_table(t.clone());
            }
            Ok(JungleSlice::new(m, rules, smaller))
        },
        table_of: |slice: &JungleSlice, values: &_| Ok(slice.table(values)),
        local: |_, _: &Tablebase| None,
        slice: std::marker::PhantomData,
    };
    resume_on_cluster(rules, materials, cluster, dir, &way, &mut done)
}

/// [`generate_distributed`] with no table gathered: each process of
/// `cluster` writes only its own workers' partitions of each material
/// into its `dir` (`MATERIAL.qtb.part-W-of-N`, [`crate::format::partition`]),
/// and each capture reads the value of the position it leads to from the
/// worker that owns it ([`crate::dataflow::solve_reading`] over
/// [`JungleSlice::reading`]): no process holds a whole table.
/// [`join_partitions`](super::join_partitions) makes the table files
/// afterwards. `done` gets each material solved, its seconds and this
/// process's workers' stats; returns the materials solved.
///
/// ```
/// use qi_games::jungle::Rules;
/// use qi_tablebase::dataflow::Cluster;
/// use qi_tablebase::jungle::{generate_partitioned, join_partitions, Material, Tablebase};
///
/// let parts = tempfile::tempdir().unwrap();
/// let out = tempfile::tempdir().unwrap();
/// let rules = Rules::standard();
/// let m: Material = "LvC".parse().unwrap();
/// let cluster = Cluster::Local { threads: 2 };
/// generate_partitioned(&rules, &[m], &cluster, parts.path(), |_, _, _| {}).unwrap();
/// join_partitions(&rules, &[m], &[parts.path().to_path_buf()], out.path(), |_| {}).unwrap();
/// let bytes = std::fs::read(Tablebase::file_path(out.path(), m)).unwrap();
/// let direct = Tablebase::generate(&rules, &[m], 1).unwrap();
/// assert!(bytes == direct.table(m).unwrap().to_bytes());
/// ```
pub fn generate_partitioned(
    rules: &Rules,
    materials: &[Material],
    cluster: &Cluster,
    dir: &Path,
    done: impl FnMut(Material, f64, &[WorkerStats]),
) -> Result<Vec<Material>, GenerateDirError> {
    crate::resume::resume_partitioned::<qi_jungle::Jungle, _>(
        rules,
        materials,
        cluster,
        dir,
        |m| Ok(JungleSlice::reading(m, rules)),
        done,
    )
}
