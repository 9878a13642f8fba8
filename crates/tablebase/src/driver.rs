//! Generation: how one material is solved in core is the game's
//! ([`Solver::solve`]: its slice's cells, starts and un-moves run through
//! the crate's one in-core solver, `in_core`), made a way of the one
//! executor ([`InCore`], run by `exec::execute`: the closure of the
//! materials asked for cut into levels, the materials of one level solved
//! side by side on several threads). Into a directory, a game plans the
//! run ([`Generator::plan_within`]) and [`generate_plan`] makes each
//! material as its step says ([`How`]): in core, from its twin or out of
//! core (the game's own ways, [`Generator::make_in_dir`]).

use std::collections::BTreeMap;
use std::path::Path;

pub use crate::error::GenerateError;
use crate::exec::GenerateDirError;
use crate::exec::{execute, Done, Hold, OnDamaged, Run, Way};
use crate::format::{load_table, FormatError};
use crate::game::table::Table;
use crate::game::TableGame;
use crate::plan::{plan_all, plan_dir, Holding, How, Plan};
use crate::probe::Tablebase;

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
            damaged: OnDamaged::Stop,
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
        _replacing: bool,
    ) -> Result<(Option<Table<G>>, ()), GenerateDirError> {
        Ok((Some(G::solve(self.rules, material, held, threads)?), ()))
    }
}

/// A game whose tables are generated into a directory by a [`Plan`]
/// ([`generate_plan`]): how it plans a run, and the ways of making a
/// table that are its own beside solving it in core.
pub trait Generator: Solver<Stats: Send> {
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

/// One material [`generate_plan`] made, once its file is written.
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
}

/// What a step of [`generate_plan`] made besides its file.
pub enum Output<'a, G: TableGame> {
    /// Its table, made in memory (solved in core).
    Table(&'a Table<G>),
    /// Nothing in memory: the way wrote the file itself (from its twin,
    /// out of core); its slots and statistics, read back from it.
    File {
        /// Its slots.
        slots: u64,
        /// Its statistics.
        stats: G::Stats,
    },
}

/// Generates the materials of `plan` (made for `dir` under `rules`) into
/// `dir` (which must exist), each as its step says, on `threads` threads:
/// the one entry of a generation in one process. Through the one
/// executor: `dir` claimed (a second writer refused with
/// [`GenerateDirError::Locked`]), a killed run's temporary files removed,
/// the files there checked first (a damaged one made again and replaced,
/// one of other rules or material refused), each table written through a
/// temporary file renamed into place, so a killed run resumes from its
/// files. The finished tables a material reads are held as
/// [`Plan::holding`] says. `progress` hears what a long solve (out of
/// core) does, `done` each material made; returns how many were made.
///
/// ```
/// use qi_games::five_tigers::{FiveTigers, Rules};
/// use qi_tablebase::{generate_plan, Generator, How};
///
/// let dir = tempfile::tempdir()?;
/// let rules = Rules::shandong();
/// // 2v1 and its twin 1v2, within 1 GB.
/// let plan = FiveTigers::plan_within(&rules, &["2v1".parse()?, "1v2".parse()?], dir.path(), 1 << 30)?;
/// let mut made = Vec::new();
/// generate_plan::<FiveTigers>(&rules, &plan, dir.path(), 2, &|_| {}, &mut |m| {
///     made.push((m.material.to_string(), m.how))
/// })?;
/// assert_eq!(made, [("2v1".into(), How::InCore), ("1v2".into(), How::FromTwin)]);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn generate_plan<G: Generator>(
    rules: &G::Rules,
    plan: &Plan<G::Material>,
    dir: &Path,
    threads: usize,
    progress: &(dyn Fn(&str) + Sync),
    done: &mut dyn FnMut(Made<'_, G>),
) -> Result<usize, GenerateDirError> {
    run_plan(
        rules,
        plan,
        dir,
        threads,
        OnDamaged::Replace,
        progress,
        done,
    )
}

/// [`generate_plan`], a damaged file doing what `damaged` says.
pub(crate) fn run_plan<G: Generator>(
    rules: &G::Rules,
    plan: &Plan<G::Material>,
    dir: &Path,
    threads: usize,
    damaged: OnDamaged,
    progress: &(dyn Fn(&str) + Sync),
    done: &mut dyn FnMut(Made<'_, G>),
) -> Result<usize, GenerateDirError> {
    let hold = match plan.holding {
        Holding::Held => Hold::UntilLastReader,
        Holding::FromDir { .. } => Hold::Nothing,
    };
    let run = Run {
        dir: Some(dir),
        threads,
        hold,
        damaged,
    };
    let way = ByPlan::<G> {
        rules,
        how: plan.steps.iter().map(|s| (s.material, s.how)).collect(),
        holding: plan.holding,
        dir,
        progress,
    };
    let mut held = Tablebase::new(rules);
    let agree = |lacking: &[bool]| Ok(lacking.to_vec());
    let mut lost = None;
    let made = execute(run, &plan.all(), &mut held, agree, &way, &mut |d| {
        let (how, file) = d.made;
        let output = match (d.table, file) {
            (_, Some((slots, stats))) => Output::File { slots, stats },
            (Some(table), None) => Output::Table(table),
            (None, None) => {
                lost.get_or_insert(d.material);
                return;
            }
        };
        done(Made {
            material: d.material,
            how,
            output,
            seconds: d.seconds,
            replaced: d.replaced,
        })
    })?;
    match lost {
        Some(m) => {
            Err(GenerateError::Internal(format!("{m}: made, neither table nor file")).into())
        }
        None => Ok(made),
    }
}

/// The way of [`generate_plan`]: each material made as its step says.
struct ByPlan<'a, G: TableGame> {
    rules: &'a G::Rules,
    how: BTreeMap<G::Material, How>,
    holding: Holding,
    dir: &'a Path,
    progress: &'a (dyn Fn(&str) + Sync),
}

impl<G: Generator> ByPlan<'_, G> {
    /// How `m` is made: as planned, or, when its file was planned as
    /// present and found damaged, as a plan without that file says.
    fn how(&self, m: G::Material) -> Result<How, GenerateDirError> {
        if let Some(&how) = self.how.get(&m).filter(|&&how| how != How::Present) {
            return Ok(how);
        }
        let path = Tablebase::<G>::file_path(self.dir, m);
        if path.exists() {
            std::fs::remove_file(&path).map_err(|source| FormatError::Io {
                path: path.display().to_string(),
                source,
            })?;
        }
        let memory = match self.holding {
            Holding::FromDir { memory } => memory,
            Holding::Held => u64::MAX,
        };
        match G::plan_within(self.rules, &[m], self.dir, memory)?
            .steps
            .pop()
        {
            Some(step) if step.material == m => Ok(step.how),
            _ => Err(GenerateError::Internal(format!("{m}: no plan")).into()),
        }
    }
}

impl<G: Generator> Way<G> for ByPlan<'_, G> {
    type Made = (How, Option<(u64, G::Stats)>);

    /// Side by side when the tables read are held (each material in
    /// core), one at a time within the plan's memory otherwise.
    fn side_by_side(&self) -> bool {
        self.holding == Holding::Held
    }

    fn make(
        &self,
        m: G::Material,
        held: &Tablebase<G>,
        threads: usize,
        _replacing: bool,
    ) -> Result<(Option<Table<G>>, Self::Made), GenerateDirError> {
        let (rules, dir) = (self.rules, self.dir);
        let how = self.how(m)?;
        if how != How::InCore {
            let file = G::make_in_dir(rules, m, how, dir, threads, self.progress)?;
            return Ok((None, (how, Some(file))));
        }
        let read;
        let smaller = match self.holding {
            Holding::Held => held,
            Holding::FromDir { .. } => {
                let mut tb = Tablebase::new(rules);
                for t in G::dependencies(m, rules) {
                    tb.insert_table(load_table(&Tablebase::<G>::file_path(dir, t), rules)?);
                }
                read = tb;
                &read
            }
        };
        Ok((Some(G::solve(rules, m, smaller, threads)?), (how, None)))
    }
}
