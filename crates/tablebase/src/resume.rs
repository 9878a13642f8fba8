//! The resumable generation of a directory, for either game: each
//! finished table is written through a temporary file renamed into place
//! (`save_table`), so a killed run leaves only whole files; a rerun checks
//! and loads those and solves the rest. A file that fails its checks (cut
//! short, bytes changed) is never used: it is solved again and replaced.
//! A file of other rules or another material is refused (it is not ours
//! to overwrite).

use std::path::Path;

#[cfg(feature = "distributed")]
use crate::exec::damaged;
use crate::exec::GenerateDirError;
use crate::exec::{execute, Hold, OnDamaged, Run, Way};
use crate::format::FormatError;
use crate::game::TableGame;
use crate::{Table, Tablebase};

/// The resumable generation of a directory, in one process or as one
/// process of a cluster ([`execute`] holding every table): the tables
/// found in `dir` are checked first, `agree` says from which of them are
/// lacking what to make (what any process of a cluster lacks; alone,
/// just these), `way` makes each from the finished ones on `threads`
/// threads, and `done` hears of each table written.
pub(crate) fn resume_with<G: TableGame, W: Way<G>>(
    rules: &G::Rules,
    materials: &[G::Material],
    dir: &Path,
    threads: usize,
    agree: impl FnOnce(&[bool]) -> Result<Vec<bool>, GenerateDirError>,
    way: &W,
    mut done: impl FnMut(&Table<G>, f64, Option<&FormatError>, W::Made),
) -> Result<Tablebase<G>, GenerateDirError> {
    let run = Run {
        dir: Some(dir),
        threads,
        hold: Hold::All,
        damaged: OnDamaged::Replace,
    };
    let mut tb = Tablebase::new(rules);
    execute(run, materials, &mut tb, agree, way, &mut |d| {
        if let Some(table) = d.table {
            done(table, d.seconds, d.replaced.as_ref(), d.made);
        }
    })?;
    Ok(tb)
}

/// [`resume_with`] on the workers of `cluster`, for either game, each
/// material made by `way` (an [`OnCluster`]). Every process of the
/// cluster runs this with the same arguments and makes what any of them
/// lacks (the processes may resume from different files, but hold the
/// same finished tables, so a twin is made alike in each); `done` also
/// gets this process's workers' stats (none for a twin).
#[cfg(feature = "distributed")]
pub(crate) fn resume_on_cluster<G, W>(
    rules: &G::Rules,
    materials: &[G::Material],
    cluster: &crate::dataflow::Cluster,
    dir: &Path,
    way: &W,
    mut done: impl FnMut(&Table<G>, f64, Option<&FormatError>, &[crate::dataflow::WorkerStats]),
) -> Result<Tablebase<G>, GenerateDirError>
where
    G: TableGame,
    W: Way<G, Made = Vec<crate::dataflow::WorkerStats>>,
{
    let agree = |lacking: &[bool]| Ok(crate::dataflow::any_everywhere(cluster, lacking)?);
    let threads = cluster.local_workers().len();
    resume_with(
        rules,
        materials,
        dir,
        threads,
        agree,
        way,
        |t, s, r, stats: Vec<_>| done(t, s, r, &stats),
    )
}

/// The way of a cluster's generation ([`resume_on_cluster`]): each
/// material's slice (`slice_of`, from the finished tables) solved by
/// [`crate::dataflow::solve_everywhere`] and its values made a table by
/// `table_of`, unless `local` makes its table from the finished ones
/// alone (a twin), which each process then does by itself (no workers'
/// stats).
#[cfg(feature = "distributed")]
pub(crate) struct OnCluster<'a, S, F, T, L> {
    /// The cluster.
    pub cluster: &'a crate::dataflow::Cluster,
    /// A material's slice.
    pub slice_of: F,
    /// The table of a slice's values.
    pub table_of: T,
    /// A table made by each process alone, if it can be.
    pub local: L,
    /// The slice type.
    pub slice: std::marker::PhantomData<fn() -> S>,
}

#[cfg(feature = "distributed")]
impl<G, S, F, T, L> Way<G> for OnCluster<'_, S, F, T, L>
where
    G: TableGame,
    S: crate::retrograde::RetroSlice + Send + Sync + 'static,
    F: Fn(G::Material, &Tablebase<G>) -> Result<S, GenerateDirError> + Sync,
    T: Fn(&S, &crate::retrograde::SliceValues) -> Result<Table<G>, GenerateDirError> + Sync,
    L: Fn(G::Material, &Tablebase<G>) -> Option<Result<Table<G>, GenerateDirError>> + Sync,
{
    type Made = Vec<crate::dataflow::WorkerStats>;

    fn make(
        &self,
        m: G::Material,
        held: &Tablebase<G>,
        _threads: usize,
        _replacing: bool,
    ) -> Result<(Option<Table<G>>, Self::Made), GenerateDirError> {
        if let Some(table) = (self.local)(m, held) {
            return Ok((Some(table?), Vec::new()));
        }
        let slice = std::sync::Arc::new((self.slice_of)(m, held)?);
        let (values, stats) = crate::dataflow::solve_everywhere(slice.clone(), self.cluster)?;
        Ok((Some((self.table_of)(&slice, &values)?), stats))
    }
}

/// A cluster's generation that keeps every table spread over its
/// workers: each process writes only its own workers' partitions of each
/// material ([`crate::format::partition`]) into its `dir`, and each material's
/// starts read the smaller materials' values from the workers that own
/// them ([`crate::dataflow::solve_reading`]); no process holds or writes
/// a whole table. Every process runs this with the same arguments (and
/// the same cluster shape: the partitions of a run with other numbers of
/// workers are not this run's). A material is solved again by all when
/// any process lacks one of its partitions, or holds a damaged one (the
/// others write theirs again, the same values). `done` gets each material solved, the
/// seconds it took and this process's workers' stats. Returns the
/// materials of the closure, in the order solved.
#[cfg(feature = "distributed")]
pub(crate) fn resume_partitioned<G, S>(
    rules: &G::Rules,
    materials: &[G::Material],
    cluster: &crate::dataflow::Cluster,
    dir: &Path,
    slice_of: impl Fn(G::Material) -> Result<S, GenerateDirError> + Sync,
    mut done: impl FnMut(G::Material, f64, &[crate::dataflow::WorkerStats]),
) -> Result<Vec<G::Material>, GenerateDirError>
where
    G: TableGame,
    S: crate::retrograde::ReadingSlice + Send + Sync + 'static,
{
    let way: Partitioned<'_, G, _> = Partitioned {
        rules,
        cluster,
        dir,
        slice_of,
    };
    let run = Run {
        dir: Some(dir),
        threads: cluster.local_workers().len(),
        hold: Hold::Nothing,
        damaged: OnDamaged::Replace,
    };
    let agree = |lacking: &[bool]| Ok(crate::dataflow::any_everywhere(cluster, lacking)?);
    let mut solved = Vec::new();
    execute(
        run,
        materials,
        &mut Tablebase::new(rules),
        agree,
        &way,
        &mut |d| {
            done(d.material, d.seconds, &d.made);
            solved.push(d.material);
        },
    )?;
    Ok(solved)
}

/// What a partitioned run ([`crate::jungle::generate_partitioned`],
/// [`crate::five_tigers::generate_partitioned`]) of `materials` under
/// `rules` into `dir` takes, as this process of `cluster` sees it: a
/// material is present when the files of its partitions of this
/// process's workers are all there (checked when the run starts, as
/// [`plan_dir`](crate::plan_dir) counts table files), the others made on
/// the cluster.
#[cfg(feature = "distributed")]
pub fn plan_partitioned<G: TableGame>(
    dir: &Path,
    rules: &G::Rules,
    materials: &[G::Material],
    cluster: &crate::dataflow::Cluster,
) -> crate::Plan<G::Material> {
    use crate::format::partition::Partition;
    let workers = cluster.workers();
    let present = |m| {
        cluster
            .local_workers()
            .all(|owner| Partition::<G>::path(dir, m, owner, workers).exists())
    };
    crate::plan::plan_all::<G>(rules, materials, present, crate::How::OnCluster)
}

/// The way of [`resume_partitioned`]: each material's slice (`slice_of`)
/// solved by [`crate::dataflow::solve_reading`], its starts reading this
/// process's partitions of the smaller materials, and this process's
/// partitions of it written into `dir`.
#[cfg(feature = "distributed")]
struct Partitioned<'a, G: TableGame, F> {
    rules: &'a G::Rules,
    cluster: &'a crate::dataflow::Cluster,
    dir: &'a Path,
    slice_of: F,
}

#[cfg(feature = "distributed")]
impl<G, S, F> Way<G> for Partitioned<'_, G, F>
where
    G: TableGame,
    S: crate::retrograde::ReadingSlice + Send + Sync + 'static,
    F: Fn(G::Material) -> Result<S, GenerateDirError> + Sync,
{
    type Made = Vec<crate::dataflow::WorkerStats>;

    /// Sound when every partition of this process's workers is there,
    /// whole and of this run's deal (checked a megabyte at a time: no
    /// partition is held); a damaged one is lacking, like a missing one.
    fn present(&self, m: G::Material, dir: &Path) -> Option<Result<bool, GenerateDirError>> {
        use crate::format::partition::Partition;

        let workers = self.cluster.workers();
        for owner in self.cluster.local_workers() {
            let path = Partition::<G>::path(dir, m, owner, workers);
            if !path.exists() {
                return Some(Ok(false));
            }
            match Partition::<G>::check(&path, self.rules) {
                Ok(p) if (p.info.material, p.info.owner, p.info.workers) == (m, owner, workers) => {
                }
                Ok(_) => return Some(Ok(false)),
                Err(e) if damaged(&e) => return Some(Ok(false)),
                Err(e) => return Some(Err(e.into())),
            }
        }
        Some(Ok(true))
    }

    fn make(
        &self,
        m: G::Material,
        _held: &Tablebase<G>,
        _threads: usize,
        _replacing: bool,
    ) -> Result<(Option<Table<G>>, Self::Made), GenerateDirError> {
        use crate::dataflow::{solve_reading, Held};
        use crate::format::partition::{PartInfo, Partition};
        use std::sync::Arc;

        let (rules, dir) = (self.rules, self.dir);
        let workers = self.cluster.workers();
        let mine = self.cluster.local_workers();
        let slice = Arc::new((self.slice_of)(m)?);
        // This process's partitions of what the starts read.
        let sources = slice.sources();
        let mut held = Held::new(sources.len());
        for (i, source) in sources.iter().enumerate() {
            let material: G::Material = source
                .name
                .parse()
                .map_err(|e: G::MaterialError| FormatError::BadMaterial(Box::new(e)))?;
            for owner in mine.clone() {
                let path = Partition::<G>::path(dir, material, owner, workers);
                if !path.exists() {
                    return Err(crate::GenerateError::MissingSubtable {
                        material: m.to_string(),
                        needed: format!("{} (no file {})", source.name, path.display()),
                    }
                    .into());
                }
                // Checked at the start of the run, or written by it: the
                // header is enough, and the values are read from the file
                // when asked for.
                let head = Partition::<G>::header(&path, rules)?;
                let info = &head.info;
                if (info.material, info.owner, info.workers) != (material, owner, workers)
                    || (info.slots, info.shift) != (source.slots, source.shift)
                {
                    return Err(FormatError::PartitionMismatch {
                        path: path.display().to_string(),
                        found: format!(
                            "partition {} of {} of {}, {} slots in runs of 2^{}",
                            info.owner, info.workers, info.material, info.slots, info.shift
                        ),
                        expected: format!(
                            "partition {owner} of {workers} of {material}, {} slots in runs of 2^{}",
                            source.slots, source.shift
                        ),
                    }
                    .into());
                }
                held.insert_file(i, owner, &path, head.data_at, head.count)
                    .map_err(|source| FormatError::Io {
                        path: path.display().to_string(),
                        source,
                    })?;
            }
        }
        let share = solve_reading(slice.clone(), self.cluster, Arc::new(held))?;
        let slots = slice.slots();
        let mut stats = Vec::with_capacity(share.parts.len());
        for (owner, codes, distances, st) in share.parts {
            Partition::<G> {
                info: PartInfo {
                    material: m,
                    rules: *rules,
                    slots,
                    shift: share.shift,
                    owner,
                    workers,
                },
                codes,
                distances,
            }
            .save(dir)?;
            stats.push(st);
        }
        Ok((None, stats))
    }
}
