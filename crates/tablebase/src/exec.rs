//! The one executor of a generation ([`execute`]), whatever makes each
//! table: the closure of the materials asked for in generation order, the
//! tables already there checked first (a damaged file made again and
//! replaced, a file of other rules or material refused), the processes of a
//! cluster agreed on what to make, then each material made level by level
//! by a [`Way`] (in core, from its twin, out of core, on the cluster),
//! written through a temporary file renamed into place, and held in memory
//! only as long as [`Hold`] says. Generation in memory
//! ([`Tablebase::extend`]), a [`Plan`](crate::Plan) run into a directory
//! ([`crate::generate_plan`]: in one process, or as one process of a
//! cluster) and a join of partitions ([`crate::join_partitions`]) are
//! this loop with another way and policy.
//!
//! A run into a directory claims it before anything else
//! ([`dir_lock::claim`](crate::dir_lock)): its write lock taken for the
//! whole run (a second run refuses with [`GenerateDirError::Locked`]
//! rather than wait: a process of a cluster must not stall the others),
//! then the temporary files a killed run left removed. A directory that
//! cannot be locked (read only) is only read: a run that finds every
//! table there has nothing to write, any other refuses.

use std::path::Path;
use std::time::Instant;

use thiserror::Error;

use crate::dir_lock::{claim, Claim, LOCK_FILE};
use crate::error::GenerateError;
use crate::format::{check_table_file, load_table, save_table, FormatError};
use crate::game::table::Table;
use crate::game::TableGame;
use crate::plan::{last_readers, levels};
use crate::probe::Tablebase;
use crate::threads;

/// Which finished tables the executor keeps in memory.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Hold {
    /// Every table of the closure (the caller gets them all back).
    All,
    /// A table until the last material that reads it
    /// ([`TableGame::dependencies`]) is made, none that nothing reads.
    UntilLastReader,
    /// None: each way reads what it needs from the directory.
    Nothing,
}

/// How one material is made: the executor's one choice per way of
/// generating.
pub(crate) trait Way<G: TableGame>: Sync {
    /// What a made material tells besides its table (statistics of the
    /// workers, how it was made).
    type Made: Send;

    /// Whether the materials of one level may be made side by side, the
    /// threads shared out among them (otherwise one after another, each
    /// with every thread, in the same order in every process).
    fn side_by_side(&self) -> bool {
        false
    }

    /// Whether the files of `material` in `dir` are there and sound
    /// (`Ok(true)`), or lacking or damaged (`Ok(false)`), for a way that
    /// writes other files than the material's table (partitions); `None`
    /// (the default): the executor checks the table file.
    fn present(
        &self,
        _material: G::Material,
        _dir: &Path,
    ) -> Option<Result<bool, GenerateDirError>> {
        None
    }

    /// Makes `material` from `held` (every table it reads, unless the
    /// run holds [`Hold::Nothing`]) on `threads` threads. Its table, or
    /// `None` when the way wrote its file itself.
    fn make(
        &self,
        material: G::Material,
        held: &Tablebase<G>,
        threads: usize,
    ) -> Result<(Option<Table<G>>, Self::Made), GenerateDirError>;
}

/// One material made by [`execute`], as its `done` hears of it (once its
/// file is written).
pub(crate) struct Done<'a, G: TableGame, X> {
    /// The material.
    pub material: G::Material,
    /// Its table, when the way made it in memory.
    pub table: Option<&'a Table<G>>,
    /// Seconds it took, writing its file included.
    pub seconds: f64,
    /// Why the file it replaced was refused, if it replaced one.
    pub replaced: Option<FormatError>,
    /// What the way told besides.
    pub made: X,
}

/// What hears of each material [`execute`] made.
pub(crate) type Tell<'f, G, X> = dyn FnMut(Done<'_, G, X>) + 'f;

/// How [`execute`] runs.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Run<'a> {
    /// The directory of the files (`None`: in memory only, the tables
    /// held are the ones present).
    pub dir: Option<&'a Path>,
    /// The threads.
    pub threads: usize,
    /// Which tables stay in memory.
    pub hold: Hold,
}

/// What the executor found of one material before making anything.
enum Found<G: TableGame> {
    /// Its table is in memory already.
    Held,
    /// Its file is sound (and read, when the run holds every table).
    Good(Option<Table<G>>),
    /// Its file is damaged, for this reason.
    Refused(FormatError),
    /// No file.
    Absent,
}

/// Makes the closure of `materials` under `held`'s rules as `run` says,
/// adding the tables `run.hold` keeps to `held`: every material
/// `agree` says to make (given which ones lack a sound file; alone, just
/// those) is made by `way`, written into `run.dir` unless a sound file of
/// it is there already (then it was made for the other processes of a
/// cluster), and told to `done`. The first error (of a file, of a way, of
/// `agree`) stops the run and is returned; the tables finished before it
/// stay written. Returns how many materials were written.
pub(crate) fn execute<G: TableGame, W: Way<G>>(
    run: Run<'_>,
    materials: &[G::Material],
    held: &mut Tablebase<G>,
    agree: impl FnOnce(&[bool]) -> Result<Vec<bool>, GenerateDirError>,
    way: &W,
    done: &mut Tell<'_, G, W::Made>,
) -> Result<usize, GenerateDirError> {
    let rules = *held.rules();
    // Held, or unlockable (read only); one another run holds is refused.
    let claim = match run
        .dir
        .map(|dir| (dir.display().to_string(), claim::<G>(dir)))
    {
        None => None,
        Some((_, Ok(claim @ (Claim::Held { .. } | Claim::Unlockable(_))))) => Some(claim),
        Some((dir, Ok(Claim::Taken))) => return Err(GenerateDirError::Locked { dir }),
        Some((dir, Err(source))) => return Err(GenerateDirError::Lock { dir, source }),
    };
    let order = G::closure(materials, &rules);
    let mut found = Vec::with_capacity(order.len());
    for &m in &order {
        let present = run.dir.and_then(|dir| way.present(m, dir));
        found.push(match present {
            Some(sound) => match sound? {
                true => Found::Good(None),
                false => Found::Absent,
            },
            None => inspect(run, &rules, m, held)?,
        });
    }
    let lacking: Vec<bool> = (found.iter())
        .map(|f| matches!(f, Found::Refused(_) | Found::Absent))
        .collect();
    let to_make = agree(&lacking)?;
    if to_make.len() != order.len() {
        return Err(crate::GenerateError::Internal(format!(
            "{} materials agreed on, {} in the closure",
            to_make.len(),
            order.len()
        ))
        .into());
    }
    // Held until the run ends.
    let _claim = match (run.dir, claim) {
        (Some(dir), Some(Claim::Unlockable(source))) if to_make.contains(&true) => {
            return Err(GenerateDirError::Lock {
                dir: dir.display().to_string(),
                source,
            })
        }
        (_, claim) => claim,
    };
    let levels = levels::<G>(&order);
    // The last level whose materials to make read each table.
    let last_reader = last_readers::<G>(&rules, &levels, &to_make);
    // Whether the table of `m` stays in memory past level `k`.
    let keep = |m: &G::Material, k: usize| match run.hold {
        Hold::All => true,
        Hold::UntilLastReader => last_reader.get(m).is_some_and(|&r| r > k),
        Hold::Nothing => false,
    };
    let mut found = found.into_iter().zip(to_make);
    let mut written = 0;
    for (k, level) in levels.iter().enumerate() {
        let mut makes = Vec::new();
        // The levels cut `order`, which `found` follows.
        for (&m, (found, make)) in level.iter().zip(found.by_ref()) {
            if make {
                makes.push((m, found));
                continue;
            }
            if let Found::Good(table) = found {
                if keep(&m, k) {
                    held.insert_table(match (table, run.dir) {
                        (Some(table), _) => table,
                        (None, Some(dir)) => {
                            load_table(&Tablebase::<G>::file_path(dir, m), &rules)?
                        }
                        (None, None) => continue,
                    });
                }
            }
        }
        let make_one =
            |(m, found): (G::Material, Found<G>), threads: usize, held: &Tablebase<G>| {
                let start = Instant::now();
                let (table, made) = way.make(m, held, threads)?;
                Ok::<_, GenerateDirError>(match found {
                    // Made for the other processes of a cluster: this
                    // directory's file is sound and stays (a way that writes
                    // its files itself has written them again).
                    Found::Good(good) if table.is_some() => Finished {
                        material: m,
                        table: good.or(table),
                        told: None,
                    },
                    found => {
                        if let (Some(dir), Some(table)) = (run.dir, &table) {
                            save_table(dir, table)?;
                        }
                        let refused = match found {
                            Found::Refused(e) => Some(e),
                            _ => None,
                        };
                        Finished {
                            material: m,
                            table,
                            told: Some((start.elapsed().as_secs_f64(), refused, made)),
                        }
                    }
                })
            };
        // What `done` hears of a finished material, and its table if it
        // stays in memory.
        let mut finish = |f: Finished<G, W::Made>| {
            if let Some((seconds, refused, made)) = f.told {
                done(Done {
                    material: f.material,
                    table: f.table.as_ref(),
                    seconds,
                    replaced: refused,
                    made,
                });
                written += 1;
            }
            f.table.filter(|_| keep(&f.material, k))
        };
        if way.side_by_side() {
            // The materials shared out among the threads, and when there
            // are fewer materials than threads each one's making cut among
            // the rest; each goes to `finish` as soon as it is made.
            let shared: &Tablebase<G> = held;
            let per_make = (run.threads / makes.len().max(1)).max(1);
            let mut kept = Vec::new();
            threads::as_made(
                makes,
                run.threads,
                |make| make_one(make, per_make, shared),
                |f| kept.extend(finish(f)),
            )?;
            for table in kept {
                held.insert_table(table);
            }
        } else {
            // One after another: each reads the tables made before it
            // (a twin made just before, in the same level).
            for make in makes {
                if let Some(table) = finish(make_one(make, run.threads, held)?) {
                    held.insert_table(table);
                }
            }
        }
        if run.hold == Hold::UntilLastReader {
            held.retain(|m| keep(&m, k));
        }
    }
    Ok(written)
}

/// A material made, as a worker hands it to the run.
struct Finished<G: TableGame, X> {
    material: G::Material,
    /// Its table, if in memory.
    table: Option<Table<G>>,
    /// For `done` (`None`: made for the other processes of a cluster,
    /// this directory's file kept): the seconds, the refused file's
    /// error, the way's by-product.
    told: Option<(f64, Option<FormatError>, X)>,
}

/// What there is of `m` before the run: in `held`, or its file in
/// `run.dir` checked (and read when the run holds every table).
fn inspect<G: TableGame>(
    run: Run<'_>,
    rules: &G::Rules,
    m: G::Material,
    held: &Tablebase<G>,
) -> Result<Found<G>, GenerateDirError> {
    if held.table(m).is_some() {
        return Ok(Found::Held);
    }
    let Some(dir) = run.dir else {
        return Ok(Found::Absent);
    };
    let path = Tablebase::<G>::file_path(dir, m);
    if !path.exists() {
        return Ok(Found::Absent);
    }
    let checked = if run.hold == Hold::All {
        load_table(&path, rules).map(Some)
    } else {
        check_table_file::<G>(&path, rules).map(|_| None)
    };
    match checked {
        Ok(table) => Ok(Found::Good(table)),
        Err(e) if damaged(&e) => Ok(Found::Refused(e)),
        Err(e) => Err(e.into()),
    }
}

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

/// Why a generation into a directory
/// ([`generate_plan`](crate::generate_plan), a join of partitions)
/// stopped.
#[derive(Debug, Error)]
pub enum GenerateDirError {
    /// A file could not be read, written, or was refused.
    #[error(transparent)]
    Format(#[from] FormatError),
    /// A table could not be solved.
    #[error(transparent)]
    Generate(#[from] GenerateError),
    /// Another run holds the directory's write lock.
    #[error(
        "another run is writing {dir} (it holds {LOCK_FILE}): one writer at a time, each \
         process of a cluster in a directory of its own"
    )]
    Locked {
        /// The directory.
        dir: String,
    },
    /// The directory could not be created, locked or cleaned of a killed
    /// run's temporary files.
    #[error("cannot lock {dir}/{LOCK_FILE} for writing: {source}")]
    Lock {
        /// The directory.
        dir: String,
        /// Why.
        #[source]
        source: std::io::Error,
    },
    /// A distributed run failed.
    #[cfg(feature = "distributed")]
    #[error(transparent)]
    Dataflow(#[from] crate::cluster::DataflowError),
}
