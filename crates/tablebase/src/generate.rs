//! The one entry that fills a directory, [`generate_plan`]: a [`Plan`]
//! run through the one executor, each material as its step says
//! ([`ByPlan`], the tables read held as [`Plan::holding`] says), or, on a
//! cluster, by the ways of `on_cluster` ([`Gathered`], [`Partitioned`]).

use std::path::Path;

#[cfg(feature = "distributed")]
use crate::dataflow::any_everywhere;
use crate::driver::{execute_plan, Generator, Made, Wrote};
use crate::error::GenerateError;
use crate::exec::{GenerateDirError, Hold, Run, Way};
use crate::format::FormatError;
use crate::game::table::Table;
use crate::game::TableGame;
#[cfg(feature = "distributed")]
use crate::on_cluster::{Gathered, Partitioned};
use crate::plan::{Holding, How, Plan};
use crate::probe::Tablebase;

/// Generates the materials of `plan` (made for `dir` under `rules`) into
/// `dir`, each as its step says, on `threads` threads: the one entry of a
/// generation into a directory, in one process or as one process of a
/// cluster ([`Plan::holding`]). Through the one executor: `dir` created
/// if missing and claimed (a second writer refused with
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
    let run = |hold| Run {
        dir: Some(dir),
        threads,
        hold,
    };
    let alone = |lacking: &[bool]| Ok(lacking.to_vec());
    let way = ByPlan::<G> {
        rules,
        plan,
        dir,
        progress,
    };
    match &plan.holding {
        Holding::Held => execute_plan(run(Hold::UntilLastReader), plan, rules, alone, &way, done),
        Holding::FromDir { .. } => execute_plan(run(Hold::Nothing), plan, rules, alone, &way, done),
        // The processes of a cluster make what any of them lacks (they may
        // resume from different files). A gathered run's slices read the
        // finished tables (and a table made from its twin, the twin's):
        // every one is held.
        #[cfg(feature = "distributed")]
        Holding::Gathered(cluster) => {
            let agree = |lacking: &[bool]| Ok(any_everywhere(cluster, lacking)?);
            let way = Gathered { rules, cluster };
            execute_plan(run(Hold::All), plan, rules, agree, &way, done)
        }
        // A partitioned run's slices read their sources' partition files:
        // no table held.
        #[cfg(feature = "distributed")]
        Holding::Partitioned(cluster) => {
            let agree = |lacking: &[bool]| Ok(any_everywhere(cluster, lacking)?);
            let way = Partitioned {
                rules,
                cluster,
                dir,
            };
            execute_plan(run(Hold::Nothing), plan, rules, agree, &way, done)
        }
    }
}

/// The way of [`generate_plan`]: each material made as its step says.
struct ByPlan<'a, G: TableGame> {
    rules: &'a G::Rules,
    plan: &'a Plan<G::Material>,
    dir: &'a Path,
    progress: &'a (dyn Fn(&str) + Sync),
}

impl<G: Generator> ByPlan<'_, G> {
    /// How `m` is made: as planned, or, when its file was planned as
    /// present and found damaged, as a plan without that file says.
    fn how(&self, m: G::Material) -> Result<How, GenerateDirError> {
        let planned = self.plan.steps.iter().find(|s| s.material == m);
        if let Some(how) = planned.map(|s| s.how).filter(|&how| how != How::Present) {
            return Ok(how);
        }
        let path = Tablebase::<G>::file_path(self.dir, m);
        if path.exists() {
            std::fs::remove_file(&path).map_err(|e| FormatError::io(&path, e))?;
        }
        let memory = match self.plan.holding {
            Holding::FromDir { memory } => memory,
            _ => u64::MAX,
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
    type Made = Wrote<G::Stats>;

    /// Side by side when the tables read are held (each material in
    /// core), one at a time within the plan's memory otherwise.
    fn side_by_side(&self) -> bool {
        self.plan.holding == Holding::Held
    }

    fn make(
        &self,
        m: G::Material,
        held: &Tablebase<G>,
        threads: usize,
    ) -> Result<(Option<Table<G>>, Self::Made), GenerateDirError> {
        let (rules, dir) = (self.rules, self.dir);
        let how = self.how(m)?;
        if how != How::InCore {
            let file = G::make_in_dir(rules, m, how, dir, threads, self.progress)?;
            return Ok((None, Wrote::here(how, Some(file))));
        }
        let read;
        let smaller = match self.plan.holding {
            Holding::FromDir { .. } => {
                read = Tablebase::load_present(dir, rules, &G::dependencies(m, rules))?;
                &read
            }
            _ => held,
        };
        Ok((
            Some(G::solve(rules, m, smaller, threads)?),
            Wrote::here(how, None),
        ))
    }
}
