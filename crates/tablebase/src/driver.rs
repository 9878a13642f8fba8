//! Generation in memory: how one material is solved is the game's
//! ([`Solver::solve`]: its slice's cells, starts and un-moves run through
//! the crate's one in-core solver, `in_core`), made a way of the one
//! executor ([`InCore`], run by `exec::execute`: the closure of the
//! materials asked for cut into levels, the materials of one level solved
//! side by side on several threads).

pub use crate::error::GenerateError;
use crate::exec::GenerateDirError;
use crate::exec::{execute, Done, Hold, OnDamaged, Run, Way};
use crate::game::table::Table;
use crate::game::TableGame;
use crate::plan::{plan_all, How, Plan};
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

/// The results of scoped workers in order, a panicked one as an internal
/// error.
pub(crate) fn join_workers<T>(
    workers: Vec<std::thread::ScopedJoinHandle<'_, Result<T, GenerateError>>>,
) -> Vec<Result<T, GenerateError>> {
    workers
        .into_iter()
        .map(|w| {
            w.join()
                .unwrap_or_else(|_| Err(GenerateError::Internal("a worker panicked".into())))
        })
        .collect()
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
