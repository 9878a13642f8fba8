//! The resumable generation of a directory, for either game: each
//! finished table is written through a temporary file renamed into place
//! (`save_table`), so a killed run leaves only whole files; a rerun checks
//! and loads those and solves the rest. A file that fails its checks (cut
//! short, bytes changed) is never used: it is solved again and replaced.
//! A file of other rules or another material is refused (it is not ours
//! to overwrite).

use std::path::Path;
use std::time::Instant;

use crate::dir::GenerateDirError;
use crate::format::{load_table, save_table, FormatError};
use crate::game::TableGame;
use crate::{Table, Tablebase};

/// Whether `e` says a file's bytes are damaged (what a half-written or
/// cut file gives), as opposed to a good file of other rules or material,
/// or a failure to read.
pub(crate) fn damaged(e: &FormatError) -> bool {
    matches!(
        e,
        FormatError::File { .. }
            | FormatError::BadMaterial(_)
            | FormatError::BadRules { .. }
            | FormatError::CountMismatch { .. }
            | FormatError::BadKey(_)
            | FormatError::PartitionMismatch { .. }
    )
}

/// The resumable loop of a directory's generation, in one process or as
/// one process of a cluster: the tables found in `dir` are checked
/// first, `agree` says from which of them are lacking what to solve
/// (what any process of a cluster lacks; alone, just these), `solve`
/// makes a table from the finished ones, and its by-product goes to
/// `done`.
pub(crate) fn resume_with<G: TableGame, X>(
    rules: &G::Rules,
    materials: &[G::Material],
    dir: &Path,
    agree: impl FnOnce(&[bool]) -> Result<Vec<bool>, GenerateDirError>,
    mut solve: impl FnMut(G::Material, &Tablebase<G>) -> Result<(Table<G>, X), GenerateDirError>,
    mut done: impl FnMut(&Table<G>, f64, Option<&FormatError>, X),
) -> Result<Tablebase<G>, GenerateDirError> {
    let order = G::closure(materials, rules);
    // A good file, or why there is none (`None`: no file).
    let mut found: Vec<Result<Table<G>, Option<FormatError>>> = Vec::with_capacity(order.len());
    for &m in &order {
        let path = Tablebase::<G>::file_path(dir, m);
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

/// [`resume_with`] on the workers of `cluster`, for either game: each
/// material's slice (`slice_of`, from the finished tables) is solved by
/// [`crate::dataflow::solve_everywhere`] and its values made a table by
/// `table_of`, unless `local` makes its table from the finished ones
/// alone (a twin), which each process then does by itself. Every process
/// of the cluster runs this with the same arguments and solves what any
/// of them lacks (the processes may resume from different files, but hold
/// the same finished tables, so `local` answers alike in each); `done`
/// also gets this process's workers' stats (none for a table `local`
/// made).
#[cfg(feature = "distributed")]
#[allow(clippy::too_many_arguments)]
pub(crate) fn resume_on_cluster<G, S>(
    rules: &G::Rules,
    materials: &[G::Material],
    cluster: &crate::dataflow::Cluster,
    dir: &Path,
    mut slice_of: impl FnMut(G::Material, &Tablebase<G>) -> Result<S, GenerateDirError>,
    mut table_of: impl FnMut(&S, &crate::retrograde::SliceValues) -> Result<Table<G>, GenerateDirError>,
    mut local: impl FnMut(G::Material, &Tablebase<G>) -> Option<Result<Table<G>, GenerateDirError>>,
    mut done: impl FnMut(&Table<G>, f64, Option<&FormatError>, &[crate::dataflow::WorkerStats]),
) -> Result<Tablebase<G>, GenerateDirError>
where
    G: TableGame,
    S: crate::retrograde::RetroSlice + Send + Sync + 'static,
{
    use crate::dataflow::{any_everywhere, solve_everywhere};

    let solve = |m: G::Material, tb: &Tablebase<G>| {
        if let Some(table) = local(m, tb) {
            return Ok((table?, Vec::new()));
        }
        let slice = std::sync::Arc::new(slice_of(m, tb)?);
        let (values, stats) = solve_everywhere(slice.clone(), cluster)?;
        Ok((table_of(&slice, &values)?, stats))
    };
    let agree = |lacking: &[bool]| Ok(any_everywhere(cluster, lacking)?);
    resume_with(
        rules,
        materials,
        dir,
        agree,
        solve,
        |t, s, r, stats: Vec<_>| done(t, s, r, &stats),
    )
}

/// A cluster's generation that keeps every table spread over its
/// workers: each process writes only its own workers' partitions of each
/// material ([`crate::partition`]) into its `dir`, and each material's
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
    mut slice_of: impl FnMut(G::Material) -> Result<S, GenerateDirError>,
    mut done: impl FnMut(G::Material, f64, &[crate::dataflow::WorkerStats]),
) -> Result<Vec<G::Material>, GenerateDirError>
where
    G: TableGame,
    S: crate::retrograde::ReadingSlice + Send + Sync + 'static,
{
    use crate::dataflow::{any_everywhere, solve_reading, Held};
    use crate::partition::{PartInfo, Partition};
    use std::sync::Arc;

    let order = G::closure(materials, rules);
    let workers = cluster.workers();
    let mine = cluster.local_workers();
    // A partition that is missing, damaged or of another deal is lacking.
    let mut lacking = Vec::with_capacity(order.len());
    for &m in &order {
        let mut lacks = false;
        for owner in mine.clone() {
            let path = Partition::<G>::path(dir, m, owner, workers);
            if !path.exists() {
                lacks = true;
                break;
            }
            // Checked a megabyte at a time: no partition is held.
            match Partition::<G>::check(&path, rules) {
                Ok(p) if (p.info.material, p.info.owner, p.info.workers) == (m, owner, workers) => {
                }
                Ok(_) => lacks = true,
                Err(e) if damaged(&e) => lacks = true,
                Err(e) => return Err(e.into()),
            }
            if lacks {
                break;
            }
        }
        lacking.push(lacks);
    }
    let to_solve = any_everywhere(cluster, &lacking)?;
    let mut solved = Vec::new();
    for (&m, solve_it) in order.iter().zip(to_solve) {
        if !solve_it {
            continue;
        }
        let start = Instant::now();
        let slice = Arc::new(slice_of(m)?);
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
        let share = solve_reading(slice.clone(), cluster, Arc::new(held))?;
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
        done(m, start.elapsed().as_secs_f64(), &stats);
        solved.push(m);
    }
    Ok(solved)
}
