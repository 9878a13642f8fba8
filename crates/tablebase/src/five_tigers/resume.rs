//! A resumable generation into a directory: each finished table is
//! written through a temporary file renamed into place (`save_table`), so
//! a killed run leaves only whole files; a rerun checks and loads those
//! and solves the rest. A file that fails its checks (cut short, bytes
//! changed) is never used: it is solved again and replaced. A file of
//! other rules or another material is refused (it is not ours to
//! overwrite).

use std::path::Path;

use qi_five_tigers::{FiveTigers, Rules};

use super::{Material, Table, Tablebase};
use crate::driver::InCore;
use crate::exec::GenerateDirError;
use crate::format::FormatError;
use crate::resume::resume_with;

/// Generates `materials` and what they need under `rules` into `dir`
/// (which must exist), solving each missing or damaged table in core
/// ([`solve_material`](super::solve_material)) on `threads` threads,
/// fewest pieces first, the materials of one level side by side. `done` gets each table solved, the seconds it took and, when it
/// replaced a damaged file, why that file was refused. Returns every table
/// of the closure.
pub fn generate_resumable(
    rules: &Rules,
    materials: &[Material],
    threads: usize,
    dir: &Path,
    done: &mut dyn FnMut(&Table, f64, Option<&FormatError>),
) -> Result<Tablebase, GenerateDirError> {
    let way = InCore::<FiveTigers> { rules };
    let agree = |lacking: &[bool]| Ok(lacking.to_vec());
    resume_with(
        rules,
        materials,
        dir,
        threads,
        agree,
        &way,
        |t, s, r, ()| done(t, s, r),
    )
}

/// [`generate_resumable`] with each table solved by the workers of
/// `cluster` (`dataflow::solve_everywhere`): every process of the cluster
/// runs this with the same arguments, solves its share of each material,
/// gets the whole table back and writes it into its own `dir` (or the
/// same directory: each writes the same bytes through its own temporary
/// file), so each process can resume alone from its files. `done` also
/// gets the stats of this process's workers. Either shuttle option (under
/// the ban the slots are the cells of the ban index). A material whose
/// twin (`a v b` for `b v a`) is finished is written from it with the
/// colours swapped by each process alone, as the one-machine generation
/// does (docs/tablebases.md, "How a table is made"): `done` then gets no workers'
/// stats.
#[cfg(feature = "distributed")]
pub fn generate_distributed(
    rules: &Rules,
    materials: &[Material],
    cluster: &crate::dataflow::Cluster,
    dir: &Path,
    mut done: impl FnMut(&Table, f64, Option<&FormatError>, &[crate::dataflow::WorkerStats]),
) -> Result<Tablebase, GenerateDirError> {
    let way = crate::resume::OnCluster {
        cluster,
        slice_of: |m, tb: &Tablebase| Ok(super::FiveTigersSlice::new(m, rules, tb)?),
        table_of: |slice: &super::FiveTigersSlice, values: &_| Ok(slice.table(values, 1)?),
        local: |m, tb: &Tablebase| {
            let twin = tb.table(super::twin::twin(m))?;
            if matches!(twin.index(), super::Slots::Keys(_)) {
                return None;
            }
            let threads = cluster.local_workers().len();
            Some(super::twin::twin_table(twin, threads).map_err(Into::into))
        },
        slice: std::marker::PhantomData,
    };
    crate::resume::resume_on_cluster(rules, materials, cluster, dir, &way, &mut done)
}

/// [`generate_distributed`] with no table gathered: each process of
/// `cluster` writes only its own workers' partitions of each material
/// into its `dir` (`MATERIAL.qft.part-W-of-N`, [`crate::format::partition`]),
/// and the conversions of each material read the smaller materials'
/// values from the workers that own them
/// ([`crate::dataflow::solve_reading`] over
/// [`FiveTigersSlice::reading`](super::FiveTigersSlice::reading)): no
/// process holds a whole table, so the cluster's memory, not one
/// machine's, bounds the materials. [`join_partitions`] makes the table
/// files from the partitions afterwards. `done` gets each material
/// solved, its seconds and this process's workers' stats; returns the
/// materials solved.
///
/// ```
/// use qi_games::five_tigers::Rules;
/// use qi_tablebase::dataflow::Cluster;
/// use qi_tablebase::five_tigers::{generate_partitioned, join_partitions, Material, Tablebase};
///
/// let parts = tempfile::tempdir().unwrap();
/// let out = tempfile::tempdir().unwrap();
/// let rules = Rules::shandong_shuttle();
/// let m: Material = "2v2".parse().unwrap();
/// let cluster = Cluster::Local { threads: 2 };
/// let solved = generate_partitioned(&rules, &[m], &cluster, parts.path(), |_, _, _| {}).unwrap();
/// assert_eq!(solved, [m]);
/// let dirs = [parts.path().to_path_buf()];
/// join_partitions(&rules, &[m], &dirs, out.path(), 1, |_| {}).unwrap();
/// let bytes = std::fs::read(Tablebase::file_path(out.path(), m)).unwrap();
/// let direct = Tablebase::generate(&rules, &[m], 1).unwrap();
/// assert!(bytes == direct.table(m).unwrap().to_bytes());
/// ```
#[cfg(feature = "distributed")]
pub fn generate_partitioned(
    rules: &Rules,
    materials: &[Material],
    cluster: &crate::dataflow::Cluster,
    dir: &Path,
    done: impl FnMut(Material, f64, &[crate::dataflow::WorkerStats]),
) -> Result<Vec<Material>, GenerateDirError> {
    crate::resume::resume_partitioned::<qi_five_tigers::FiveTigers, _>(
        rules,
        materials,
        cluster,
        dir,
        |m| Ok(super::FiveTigersSlice::reading(m, rules)?),
        done,
    )
}

/// The table files in `out` of `materials` and every material they need
/// (fewest pieces first), each joined from the partition files a
/// `generate_partitioned` run (the `distributed` feature) left in `dirs`
/// (every process's directory, or copies of them); the tables are made
/// on `threads` threads. A table already in `out` is left as it is. `done` gets each
/// table written; returns the materials written.
pub fn join_partitions(
    rules: &Rules,
    materials: &[Material],
    dirs: &[std::path::PathBuf],
    out: &Path,
    threads: usize,
    done: impl FnMut(&Table),
) -> Result<Vec<Material>, GenerateDirError> {
    let order = super::closure(materials, rules);
    crate::format::partition::join_dirs(
        rules,
        &order,
        dirs,
        out,
        |m, values| super::FiveTigersSlice::reading(m, rules)?.table(values, threads),
        done,
    )
}
