//! A plan's run on the workers of a cluster ([`Holding::Gathered`],
//! [`Holding::Partitioned`]), as [`generate_plan`](crate::generate_plan)
//! runs it through the one executor: every process of the cluster runs
//! the same plan's materials with its own directory, and the processes
//! agree to make what any of them lacks (the processes may resume from
//! different files); each material's slice ([`Generator::slice`]) is
//! solved by the rounds of [`crate::dataflow`].

use std::path::Path;
use std::sync::Arc;

use crate::dataflow::{solve_everywhere, solve_reading, Cluster, READ_CHUNK};
use crate::driver::{Generator, Wrote};
use crate::exec::{damaged, GenerateDirError, Way};
use crate::format::partition::{PartInfo, Partition};
use crate::format::FormatError;
use crate::game::TableGame;
use crate::plan::{Holding, How, Plan};
use crate::retrograde::{ReadingSlice, RetroSlice};
use crate::{Table, Tablebase};

/// The way of [`Holding::Gathered`]: each material's slice, reading the
/// finished tables, solved by [`solve_everywhere`] and its values made a
/// table, unless the game makes it from its twin's table
/// ([`Generator::from_twin`]), which each process then does by itself
/// (no workers' stats).
pub(crate) struct Gathered<'a, G: Generator> {
    pub rules: &'a G::Rules,
    pub cluster: &'a Cluster,
}

impl<G: Generator> Way<G> for Gathered<'_, G> {
    type Made = Wrote<G::Stats>;

    fn make(
        &self,
        m: G::Material,
        held: &Tablebase<G>,
        threads: usize,
    ) -> Result<(Option<Table<G>>, Self::Made), GenerateDirError> {
        if let Some(table) = G::from_twin(m, held, threads) {
            return Ok((Some(table?), Wrote::here(How::FromTwin, None)));
        }
        let slice = Arc::new(G::slice(self.rules, m, Some(held))?);
        let (values, workers) = solve_everywhere(slice.clone(), self.cluster)?;
        let table = G::slice_table(&slice, &values, threads)?;
        let made = Wrote {
            workers,
            ..Wrote::here(How::OnCluster, None)
        };
        Ok((Some(table), made))
    }
}

/// The way of [`Holding::Partitioned`]: each material's slice reading
/// the smaller materials' partitions solved by [`solve_reading`], its
/// starts reading this process's partitions of the smaller materials,
/// and this process's partitions of it written into `dir`.
pub(crate) struct Partitioned<'a, G: Generator> {
    pub rules: &'a G::Rules,
    pub cluster: &'a Cluster,
    pub dir: &'a Path,
}

impl<G: Generator> Way<G> for Partitioned<'_, G> {
    type Made = Wrote<G::Stats>;

    /// Sound when every partition of this process's workers is there,
    /// whole and of this run's deal (checked a megabyte at a time: no
    /// partition is held); a damaged one is lacking, like a missing one.
    fn present(&self, m: G::Material, dir: &Path) -> Option<Result<bool, GenerateDirError>> {
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
    ) -> Result<(Option<Table<G>>, Self::Made), GenerateDirError> {
        let (rules, dir) = (self.rules, self.dir);
        let workers = self.cluster.workers();
        let mine = self.cluster.local_workers();
        let slice = Arc::new(G::slice(rules, m, None)?);
        // This process's partitions of what the starts read.
        let sources = slice.sources();
        let mut held = crate::dataflow::Held::new(sources.len());
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
                head.info.expect(
                    &path,
                    material,
                    owner,
                    workers,
                    (source.slots, source.shift),
                )?;
                held.insert_file(i, owner, &path, head.data_at, head.count)
                    .map_err(|e| FormatError::io(&path, e))?;
            }
        }
        let share = solve_reading(slice.clone(), self.cluster, Arc::new(held), READ_CHUNK)?;
        let slots = slice.slots();
        let mut workers_stats = Vec::with_capacity(share.parts.len());
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
            workers_stats.push(st);
        }
        let made = Wrote {
            workers: workers_stats,
            ..Wrote::here(How::OnCluster, None)
        };
        Ok((None, made))
    }
}

/// What a run of `materials` under `rules` into `dir` on `cluster` takes,
/// as this process sees it: every material to make solved on the
/// cluster, its table gathered ([`Holding::Gathered`]) or, `partitioned`,
/// only this process's partitions written ([`Holding::Partitioned`]). A
/// material is present when its table file is there, or, partitioned,
/// the files of its partitions of this process's workers (checked when
/// the run starts, as [`plan_dir`](crate::plan_dir) counts table files).
pub fn plan_on_cluster<G: TableGame>(
    dir: &Path,
    rules: &G::Rules,
    materials: &[G::Material],
    cluster: &crate::dataflow::Cluster,
    partitioned: bool,
) -> Plan<G::Material> {
    let present = |m| match partitioned {
        true => cluster
            .local_workers()
            .all(|owner| Partition::<G>::path(dir, m, owner, cluster.workers()).exists()),
        false => Tablebase::<G>::file_path(dir, m).exists(),
    };
    let mut plan = crate::plan::plan_all::<G>(rules, materials, present, How::OnCluster);
    // A gathered run holds every table of the closure; a partitioned one
    // none.
    (plan.resident_table_bytes, plan.holding) = match partitioned {
        true => (0, Holding::Partitioned(cluster.clone())),
        false => {
            let bytes = plan.steps.iter().map(|s| s.file_bytes).sum();
            (bytes, Holding::Gathered(cluster.clone()))
        }
    };
    plan
}
