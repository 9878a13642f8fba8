//! What a generation will do, known before it starts ([`Plan`]): per
//! material of the closure of those asked for, in generation order,
//! whether its table is there, how it is made ([`How`]), the tables it
//! reads (the materials a capture or removal leads to, from the game:
//! [`TableGame::dependencies`]), its memory and its file. One type for
//! every way of generating: [`plan_dir`](crate::plan_dir),
//! [`Tablebase::plan`](crate::Tablebase::plan), Five Tigers'
//! `plan_bounded` and, on a cluster, `plan_on_cluster` fill it;
//! [`generate_plan`](crate::generate_plan) runs any of them through the
//! one executor, which follows the same closure, levels and readers.

use std::collections::BTreeMap;
use std::fmt;
use std::path::Path;

use crate::game::TableGame;
use crate::probe::Tablebase;

/// How one material of a [`Plan`] is made.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum How {
    /// Its table is there (a file in the directory, or loaded): read,
    /// not made.
    Present,
    /// Solved in core.
    InCore,
    /// Solved out of core, its values on disk beside its table (Five
    /// Tigers under the shuttle ban).
    OutOfCore,
    /// Written from its twin's table (the colours swapped): no solve.
    FromTwin,
    /// Solved by the workers of a cluster.
    OnCluster,
}

impl fmt::Display for How {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            How::Present => "present",
            How::InCore => "in core",
            How::OutOfCore => "out of core",
            How::FromTwin => "from its twin",
            How::OnCluster => "on the cluster",
        })
    }
}

/// One material of a [`Plan`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Step<M> {
    /// The material.
    pub material: M,
    /// How it is made.
    pub how: How,
    /// The materials its solution reads ([`TableGame::dependencies`]),
    /// all earlier in the plan.
    pub reads: Vec<M>,
    /// The bytes of memory it takes while made (0 when present): a bound
    /// or an estimate of its working memory
    /// ([`TableGame::generation_memory`]), and for a run that reads the
    /// tables it needs from the directory, those tables.
    pub memory: u64,
    /// The bytes of its file ([`TableGame::table_bytes`] until it is
    /// made).
    pub file_bytes: u64,
}

/// What a generation will do: every material of the closure of those
/// asked for, in generation order.
///
/// ```
/// use qi_games::jungle::{Jungle, Rules};
/// use qi_tablebase::{How, Tablebase};
///
/// let rules = Rules::standard();
/// let m = "LvC".parse()?;
/// let mut tb = Tablebase::<Jungle>::new(&rules);
/// let plan = tb.plan(&[m]);
/// assert_eq!((plan.todo().last(), plan.present()), (Some(&m), 0));
/// assert!(plan.steps.iter().all(|s| s.how == How::InCore));
/// tb.extend(&[m], 1, &|_| {})?;
/// let again = tb.plan(&[m]);
/// assert!(again.todo().is_empty());
/// assert_eq!(again.present(), plan.todo().len());
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Plan<M> {
    /// Each material, in generation order.
    pub steps: Vec<Step<M>>,
    /// The most bytes of finished tables held in memory at once by a run
    /// that keeps a table until the last material that reads it is made
    /// ([`Holding::Held`]): those a material still
    /// to come reads, while a level is made. 0 for a run that reads them
    /// from the directory (their bytes are in each step's memory).
    pub resident_table_bytes: u64,
    /// How the run holds the tables its materials read.
    pub holding: Holding,
}

/// How a run of a [`Plan`] holds the finished tables its materials read,
/// and so where it runs: in this process, or as one process of a cluster
/// (every process runs the same plan's materials, each with its own
/// directory).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Holding {
    /// In memory, each until the last material that reads it is made;
    /// the materials of one level are made side by side.
    Held,
    /// Read from the directory by each material as it is made, one
    /// material at a time, so that a run takes at most `memory` bytes
    /// (Five Tigers under the shuttle ban).
    FromDir {
        /// The memory the plan was made within, in bytes (a damaged file
        /// planned as present is planned again within it).
        memory: u64,
    },
    /// Every finished table held by each process of a cluster, each
    /// material solved by the cluster's workers and its table gathered
    /// and written by every process (one made from its twin's table,
    /// [`Generator::from_twin`](crate::Generator::from_twin), by each
    /// process alone); the processes make what any of them lacks.
    #[cfg(feature = "distributed")]
    Gathered(crate::dataflow::Cluster),
    /// No table held: each process of a cluster writes only its own
    /// workers' partitions of each material
    /// ([`crate::partition`]), and each material's exits read the smaller
    /// materials' values from the workers that own them; a material is
    /// made again by all when any process lacks one of its partitions.
    #[cfg(feature = "distributed")]
    Partitioned(crate::dataflow::Cluster),
}

impl<M: Copy> Plan<M> {
    /// Every material, in generation order.
    pub fn all(&self) -> Vec<M> {
        self.steps.iter().map(|s| s.material).collect()
    }

    /// The materials to make, in generation order.
    pub fn todo(&self) -> Vec<M> {
        self.to_make().map(|s| s.material).collect()
    }

    /// How many materials are there already.
    pub fn present(&self) -> usize {
        self.steps.len() - self.to_make().count()
    }

    /// The most memory one material to make takes, in bytes.
    pub fn memory(&self) -> u64 {
        self.to_make().map(|s| s.memory).max().unwrap_or(0)
    }

    /// The bytes of the new files.
    pub fn file_bytes(&self) -> u64 {
        self.to_make().map(|s| s.file_bytes).sum()
    }

    /// The plan with every material to make made `how` (every one out of
    /// core, say, where the game's plan would make some in core).
    pub fn made(mut self, how: How) -> Self {
        for step in &mut self.steps {
            if step.how != How::Present {
                step.how = how;
            }
        }
        self
    }

    fn to_make(&self) -> impl Iterator<Item = &Step<M>> {
        self.steps.iter().filter(|s| s.how != How::Present)
    }
}

/// The plan of `materials` and what they read under `rules`: a material
/// is present when `present` says so, and otherwise made as `how` says
/// (asked in generation order, with its memory), which may refuse it.
pub(crate) fn plan<G: TableGame, E>(
    rules: &G::Rules,
    materials: &[G::Material],
    present: impl Fn(G::Material) -> bool,
    mut how: impl FnMut(G::Material) -> Result<(How, u64), E>,
) -> Result<Plan<G::Material>, E> {
    let all = G::closure(materials, rules);
    let mut steps = Vec::with_capacity(all.len());
    for &m in &all {
        let (how, memory) = if present(m) {
            (How::Present, 0)
        } else {
            how(m)?
        };
        steps.push(Step {
            material: m,
            how,
            reads: G::dependencies(m, rules),
            memory,
            file_bytes: G::table_bytes(m, rules),
        });
    }
    let levels = levels::<G>(&all);
    let made: Vec<bool> = steps.iter().map(|s| s.how != How::Present).collect();
    let last = last_readers::<G>(rules, &levels, &made);
    // While level k is made: the tables of earlier levels read at k or
    // later, and those of level k read later.
    let resident_table_bytes = (0..levels.len())
        .map(|k| {
            levels[..=k]
                .iter()
                .enumerate()
                .flat_map(|(j, level)| level.iter().map(move |m| (j, m)))
                .filter(|&(j, m)| {
                    last.get(m)
                        .is_some_and(|&r| if j < k { r >= k } else { r > k })
                })
                .map(|(_, &m)| G::table_bytes(m, rules))
                .sum::<u64>()
        })
        .max()
        .unwrap_or(0);
    Ok(Plan {
        steps,
        resident_table_bytes,
        holding: Holding::Held,
    })
}

/// What generating `materials` under `rules` into `dir` takes
/// in one process, each material without a file solved in core, the
/// tables it reads held ([`Holding::Held`]),
/// counting the files already there as present (they are checked when
/// the generation starts).
pub fn plan_dir<G: TableGame>(
    dir: &Path,
    rules: &G::Rules,
    materials: &[G::Material],
) -> Plan<G::Material> {
    let present = |m| Tablebase::<G>::file_path(dir, m).exists();
    plan_all::<G>(rules, materials, present, How::InCore)
}

/// [`plan`] where every material not present is made one way, `how`,
/// with its working memory ([`TableGame::generation_memory`]).
pub(crate) fn plan_all<G: TableGame>(
    rules: &G::Rules,
    materials: &[G::Material],
    present: impl Fn(G::Material) -> bool,
    how: How,
) -> Plan<G::Material> {
    let made = |m| Ok((how, G::generation_memory(m, rules)));
    let Ok(plan) = plan::<G, std::convert::Infallible>(rules, materials, present, made);
    plan
}

/// `materials` (in [`TableGame::closure`]'s order) cut into runs of one
/// level: the materials of a level read none of each other's tables, so
/// they may be made side by side.
pub(crate) fn levels<G: TableGame>(materials: &[G::Material]) -> Vec<&[G::Material]> {
    materials
        .chunk_by(|a, b| G::level(*a) == G::level(*b))
        .collect()
}

/// For each table the materials of `levels` read, the index of the last
/// level whose materials to make (`made`, one a material in order) read
/// it; a table none of them reads has none.
pub(crate) fn last_readers<G: TableGame>(
    rules: &G::Rules,
    levels: &[&[G::Material]],
    made: &[bool],
) -> BTreeMap<G::Material, usize> {
    let mut last = BTreeMap::new();
    let mut made = made.iter();
    for (k, level) in levels.iter().enumerate() {
        for &m in level.iter() {
            if made.next() == Some(&true) {
                for read in G::dependencies(m, rules) {
                    last.insert(read, k);
                }
            }
        }
    }
    last
}
