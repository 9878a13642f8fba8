//! Generation: how one material is solved in core is the game's
//! ([`Solver::solve`]: its slice's cells, starts and un-moves run through
//! the crate's one in-core solver, `in_core`), made a way of the one
//! executor ([`InCore`], run by `exec::execute`: the closure of the
//! materials asked for cut into levels, the materials of one level solved
//! side by side on several threads). Into a directory, a game plans the
//! run ([`Generator::plan_within`]), or a cluster's run is planned
//! (`plan_on_cluster`), and the one entry, `generate::generate_plan`,
//! makes each material as its step says ([`How`]): in core, from its
//! twin or out of core (the game's own ways, [`Generator::make_in_dir`]),
//! or on the cluster (the ways of `on_cluster`, over the game's
//! [`Generator::Slice`]). What every way tells of a material ([`Made`])
//! and the join of a partitioned run's files ([`join_partitions`]) are
//! here too.

use std::path::Path;

pub use crate::error::GenerateError;
use crate::exec::GenerateDirError;
use crate::exec::{execute, Done, Hold, Run, Way};
use crate::format::FormatError;
use crate::game::table::Table;
use crate::game::TableGame;
use crate::plan::{plan_all, plan_dir, How, Plan};
use crate::probe::Tablebase;
use crate::retrograde::{ReadingSlice, SliceValues};

/// A game whose tables this crate generates: how one material is solved,
/// given the tables it reads. Apart from [`TableGame`], which is all that
/// probing needs.
///
/// ```
/// use qi_games::jungle::{Jungle, Rules};
/// use qi_tablebase::{Solver, TableGame, Tablebase};
///
/// // One material solved by hand from the tables it reads, as
/// // `Tablebase::generate` does it.
/// let rules = Rules::standard();
/// let m = "LvC".parse()?;
/// let smaller = Tablebase::<Jungle>::generate(&rules, &Jungle::dependencies(m, &rules), 1)?;
/// let table = Jungle::solve(&rules, m, &smaller, 1)?;
/// let tb = Tablebase::<Jungle>::generate(&rules, &[m], 1)?;
/// assert_eq!(table.to_bytes(), tb.table(m).unwrap().to_bytes());
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub trait Solver: TableGame {
    /// Solves `material` given the tables its captures or removals lead to
    /// ([`TableGame::dependencies`], in `smaller`), on `threads` threads.
    fn solve(
        rules: &Self::Rules,
        material: Self::Material,
        smaller: &Tablebase<Self>,
        threads: usize,
    ) -> Result<Table<Self>, GenerateError>;
}

/// Generation into a tablebase in memory.
impl<G: Solver> Tablebase<G> {
    /// Solves `materials` and every smaller material their captures lead to
    /// under `rules`, on `threads` threads (the materials of one level are
    /// shared out among them; when there are fewer materials than threads,
    /// each material's solution is cut among the rest).
    pub fn generate(
        rules: &G::Rules,
        materials: &[G::Material],
        threads: usize,
    ) -> Result<Tablebase<G>, GenerateError> {
        let mut tb = Tablebase::new(rules);
        tb.extend(materials, threads, &|_| {})?;
        Ok(tb)
    }

    /// Solves those of `materials` (and of their sub-materials) that are not
    /// loaded yet, calling `done` with each new table as it is finished.
    ///
    /// ```
    /// use std::sync::atomic::{AtomicUsize, Ordering};
    /// use qi_games::jungle::{Jungle, Rules};
    /// use qi_tablebase::Tablebase;
    ///
    /// let rules = Rules::standard();
    /// let mut tb = Tablebase::<Jungle>::generate(&rules, &["LvC".parse()?], 1)?;
    /// let plan = tb.plan(&["LvE".parse()?]);
    /// let done = AtomicUsize::new(0);
    /// tb.extend(&["LvE".parse()?], 2, &|_| {
    ///     done.fetch_add(1, Ordering::Relaxed);
    /// })?;
    /// assert_eq!(done.into_inner(), plan.todo().len()); // what is loaded is not solved again
    /// assert!(tb.table("LvE".parse()?).is_some());
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn extend(
        &mut self,
        materials: &[G::Material],
        threads: usize,
        done: &(dyn Fn(&Table<G>) + Sync),
    ) -> Result<(), GenerateError> {
        let run = Run {
            dir: None,
            threads,
            hold: Hold::All,
        };
        let rules = *self.rules();
        let way = InCore::<G> { rules: &rules };
        let mut done = |d: Done<'_, G, ()>| d.table.into_iter().for_each(done);
        match execute(run, materials, self, |l| Ok(l.to_vec()), &way, &mut done) {
            Ok(_) => Ok(()),
            Err(GenerateDirError::Generate(e)) => Err(e),
            // No file is read or written in memory.
            Err(e) => Err(GenerateError::Internal(e.to_string())),
        }
    }

    /// What generating `materials` on top of the loaded tables takes: the
    /// materials to solve (in core) and their memory.
    pub fn plan(&self, materials: &[G::Material]) -> Plan<G::Material> {
        let rules = self.rules();
        let present = |m| self.table(m).is_some();
        plan_all::<G>(rules, materials, present, How::InCore)
    }
}

/// The way of [`Solver::solve`]: each material solved in core from the
/// tables it reads, the materials of a level side by side.
pub(crate) struct InCore<'a, G: TableGame> {
    /// The rules.
    pub rules: &'a G::Rules,
}

impl<G: Solver> Way<G> for InCore<'_, G> {
    type Made = ();

    fn side_by_side(&self) -> bool {
        true
    }

    fn make(
        &self,
        material: G::Material,
        held: &Tablebase<G>,
        threads: usize,
    ) -> Result<(Option<Table<G>>, ()), GenerateDirError> {
        Ok((Some(G::solve(self.rules, material, held, threads)?), ()))
    }
}

/// A game whose tables are generated into a directory by a [`Plan`]
/// ([`generate_plan`](crate::generate_plan)): how it plans a run, the
/// ways of making a table that are its own beside solving it in core,
/// and its slice for the rounds a cluster's workers run.
pub trait Generator: Solver<Stats: Send> {
    /// A material as a slice of the retrograde rounds
    /// ([`crate::retrograde`]), what a cluster's workers solve.
    type Slice: ReadingSlice + Send + Sync + 'static;

    /// The slice of `material` under `rules`: its exits read the tables
    /// in `smaller` (every one it reads,
    /// [`TableGame::dependencies`]), or, with `None`, the values of the
    /// smaller materials from the workers that own them
    /// ([`ReadingSlice`]: a partitioned run, or a join of one).
    fn slice(
        rules: &Self::Rules,
        material: Self::Material,
        smaller: Option<&Tablebase<Self>>,
    ) -> Result<Self::Slice, GenerateError>;

    /// The table of `slice` from the values the rounds gave its slots,
    /// made on `threads` threads.
    fn slice_table(
        slice: &Self::Slice,
        values: &SliceValues,
        threads: usize,
    ) -> Result<Table<Self>, GenerateError>;

    /// The table of `material` made from its *twin*'s in `held` (the
    /// table of the material with the colours swapped, which has the
    /// same values), if the game has twins and that table is held: what
    /// each process of a cluster makes by itself, on `threads` threads,
    /// no worker solving it. By default none.
    #[cfg(feature = "distributed")]
    fn from_twin(
        material: Self::Material,
        held: &Tablebase<Self>,
        threads: usize,
    ) -> Option<Result<Table<Self>, GenerateError>> {
        let _ = (material, held, threads);
        None
    }

    /// The plan of generating `materials` under `rules` into `dir` in one
    /// process with `memory` bytes: by default every material without a
    /// file solved in core, the tables it reads held
    /// ([`plan_dir`]); a game may plan other ways
    /// within `memory`, and refuse a material that fits none
    /// ([`GenerateError::OutOfMemory`]).
    fn plan_within(
        rules: &Self::Rules,
        materials: &[Self::Material],
        dir: &Path,
        memory: u64,
    ) -> Result<Plan<Self::Material>, GenerateError> {
        let _ = memory;
        Ok(plan_dir::<Self>(dir, rules, materials))
    }

    /// Makes the table file of `material` into `dir` as `how` says, a way
    /// that writes the file itself (from its twin, out of core), on
    /// `threads` threads, `progress` hearing what a long solve does; its
    /// slots and statistics, read back from the file. By default no way
    /// is the game's own: refused.
    fn make_in_dir(
        rules: &Self::Rules,
        material: Self::Material,
        how: How,
        dir: &Path,
        threads: usize,
        progress: &(dyn Fn(&str) + Sync),
    ) -> Result<(u64, Self::Stats), GenerateDirError> {
        let _ = (rules, dir, threads, progress);
        Err(GenerateError::Internal(format!(
            "{material}: a {} table is not made {how}",
            Self::NAME
        ))
        .into())
    }
}

/// One material [`generate_plan`](crate::generate_plan) made, once its file is written.
pub struct Made<'a, G: TableGame> {
    /// The material.
    pub material: G::Material,
    /// How it was made (never [`How::Present`]).
    pub how: How,
    /// What was made.
    pub output: Output<'a, G>,
    /// Seconds it took, writing its file included.
    pub seconds: f64,
    /// Why the file it replaced was refused, if it replaced one.
    pub replaced: Option<FormatError>,
    /// The statistics of this process's workers, on a cluster (none for
    /// a table a process made alone, or in one process).
    #[cfg(feature = "distributed")]
    pub workers: Vec<crate::dataflow::WorkerStats>,
}

/// What a step of [`generate_plan`](crate::generate_plan) made besides its file.
pub enum Output<'a, G: TableGame> {
    /// Its table, made in memory (solved in core, or gathered from a
    /// cluster's workers).
    Table(&'a Table<G>),
    /// Nothing in memory: the way wrote the file itself (from its twin,
    /// out of core); its slots and statistics, read back from it.
    File {
        /// Its slots.
        slots: u64,
        /// Its statistics.
        stats: G::Stats,
    },
    /// This process's partitions of it, written into the directory
    /// (`Holding::Partitioned`).
    Partitions,
}

/// What a way of [`generate_plan`](crate::generate_plan) tells of a material besides its table
/// in memory.
pub(crate) struct Wrote<S> {
    /// How it was made.
    pub how: How,
    /// Its slots and statistics, when the way wrote its file itself.
    pub file: Option<(u64, S)>,
    /// The statistics of this process's workers.
    #[cfg(feature = "distributed")]
    pub workers: Vec<crate::dataflow::WorkerStats>,
}

impl<S> Wrote<S> {
    /// Made `how`, by no worker of a cluster.
    pub fn here(how: How, file: Option<(u64, S)>) -> Self {
        Wrote {
            how,
            file,
            #[cfg(feature = "distributed")]
            workers: Vec::new(),
        }
    }
}

/// Runs `plan`'s materials through [`execute`] with `way`, `agree` saying
/// what to make, and tells `done` of each.
pub(crate) fn execute_plan<G: Generator, W: Way<G, Made = Wrote<G::Stats>>>(
    run: Run<'_>,
    plan: &Plan<G::Material>,
    rules: &G::Rules,
    agree: impl FnOnce(&[bool]) -> Result<Vec<bool>, GenerateDirError>,
    way: &W,
    done: &mut dyn FnMut(Made<'_, G>),
) -> Result<usize, GenerateDirError> {
    let mut held = Tablebase::new(rules);
    execute(run, &plan.all(), &mut held, agree, way, &mut |d| {
        let output = match (d.table, d.made.file) {
            (_, Some((slots, stats))) => Output::File { slots, stats },
            (Some(table), None) => Output::Table(table),
            (None, None) => Output::Partitions,
        };
        done(Made {
            material: d.material,
            how: d.made.how,
            output,
            seconds: d.seconds,
            replaced: d.replaced,
            #[cfg(feature = "distributed")]
            workers: d.made.workers,
        })
    })
}

/// The table files in `out` of `materials` and every material they need
/// (in generation order), each joined from the partition files a
/// partitioned run (`Holding::Partitioned`, the `distributed` feature)
/// left in `dirs` (every process's directory, or copies of them), made
/// on `threads` threads through the one executor. A table already in
/// `out` is left as it is. `done` gets each table written; returns the
/// materials written.
///
/// ```
/// use qi_games::jungle::{Jungle, Rules};
/// use qi_tablebase::join_partitions;
///
/// let rules = Rules::standard();
/// let m = "LvC".parse()?;
/// let (parts, out) = (tempfile::tempdir()?, tempfile::tempdir()?);
/// // No run left its partitions here: nothing to join.
/// let dirs = [parts.path().to_path_buf()];
/// assert!(join_partitions::<Jungle>(&rules, &[m], &dirs, out.path(), 1, |_| {}).is_err());
/// # #[cfg(feature = "distributed")] {
/// use qi_tablebase::dataflow::Cluster;
/// use qi_tablebase::{generate_plan, load_table, plan_on_cluster, Table, Tablebase};
///
/// let cluster = Cluster::Local { threads: 2 };
/// let plan = plan_on_cluster::<Jungle>(parts.path(), &rules, &[m], &cluster, true);
/// generate_plan::<Jungle>(&rules, &plan, parts.path(), 1, &|_| {}, &mut |_| {})?;
/// let mut joined = Vec::new();
/// let written = join_partitions::<Jungle>(&rules, &[m], &dirs, out.path(), 1, |t| joined.push(t.material()))?;
/// assert_eq!((written, joined), (vec![m], vec![m]));
/// let table: Table<Jungle> = load_table(&Tablebase::<Jungle>::file_path(out.path(), m), &rules)?;
/// assert_eq!(Some(&table), Tablebase::generate(&rules, &[m], 1)?.table(m));
/// // A table already there is left as it is.
/// assert!(join_partitions::<Jungle>(&rules, &[m], &dirs, out.path(), 1, |_| {})?.is_empty());
/// # }
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn join_partitions<G: Generator>(
    rules: &G::Rules,
    materials: &[G::Material],
    dirs: &[std::path::PathBuf],
    out: &Path,
    threads: usize,
    mut done: impl FnMut(&Table<G>),
) -> Result<Vec<G::Material>, GenerateDirError> {
    let run = Run {
        dir: Some(out),
        threads,
        hold: Hold::Nothing,
    };
    let mut written = Vec::new();
    let way = Join { rules, dirs };
    let mut held = Tablebase::new(rules);
    execute(
        run,
        materials,
        &mut held,
        |l| Ok(l.to_vec()),
        &way,
        &mut |d| {
            d.table.into_iter().for_each(&mut done);
            written.push(d.material);
        },
    )?;
    Ok(written)
}

/// The way of [`join_partitions`]: a table made from the partitions of
/// a cluster's run, not solved.
struct Join<'a, G: TableGame> {
    rules: &'a G::Rules,
    dirs: &'a [std::path::PathBuf],
}

impl<G: Generator> Way<G> for Join<'_, G> {
    type Made = ();

    fn make(
        &self,
        m: G::Material,
        _held: &Tablebase<G>,
        threads: usize,
    ) -> Result<(Option<Table<G>>, ()), GenerateDirError> {
        let values = crate::partition::join_partitions::<G>(self.rules, m, self.dirs)?;
        let table = G::slice_table(&G::slice(self.rules, m, None)?, &values, threads)?;
        Ok((Some(table), ()))
    }
}
