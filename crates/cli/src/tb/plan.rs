//! The plan of a `qi tb generate` (the library's [`Plan`]: per material
//! of the closure, how it is made, what it reads, its memory and its
//! file): printed whole by `--plan`, which generates nothing, and before
//! every generation, its totals and the materials to make.

use std::fmt::Display;

use qi_tablebase::{plan_on_cluster, Generator, How, Plan};

use super::generate::GenerateArgs;
use super::generate_cluster::cluster_of;
use super::resources::machine_memory;
use super::tb_error;
use crate::error::CliError;
use crate::out::outln;

/// Whether `args` run on timely dataflow workers.
pub(super) fn on_cluster(args: &GenerateArgs) -> bool {
    args.workers.is_some() || args.hosts.is_some()
}

/// The plan of `materials` under `rules` into DIR: in this process the
/// game's within the machine's memory ([`Generator::plan_within`]: Five
/// Tigers under the shuttle ban makes each material in core, out of core
/// or from its twin, and refuses one that fits no way); on the cluster
/// every material to make made there (a partitioned run counts this
/// process's partition files, not tables).
pub(super) fn of<G: Generator>(
    args: &GenerateArgs,
    rules: &G::Rules,
    materials: &[G::Material],
) -> Result<Plan<G::Material>, CliError> {
    if let Some(cluster) = cluster_of(args)? {
        let partitioned = args.partitioned;
        return Ok(plan_on_cluster::<G>(
            &args.dir,
            rules,
            materials,
            &cluster,
            partitioned,
        ));
    }
    let memory = machine_memory()?.unwrap_or(u64::MAX);
    G::plan_within(rules, materials, &args.dir, memory).map_err(|e| match e {
        qi_tablebase::GenerateError::OutOfMemory {
            material, needed, ..
        } => CliError::Usage(format!(
            "the table {material} needs about {:.1} GB of working memory to generate, more \
             than the {:.1} GB of this machine, in core or out of core (docs/tablebases.md): \
             ask for fewer pieces (--pieces, --material)",
            needed as f64 / 1e9,
            memory as f64 / 1e9
        )),
        e => tb_error(e),
    })
}

/// `--plan`: every material of `plan`, then the totals, on stdout.
pub(super) fn print<M: Display + Copy>(plan: &Plan<M>) {
    outln!("material\thow\treads\tworking memory\tfile");
    for line in rows(plan, true) {
        outln!("{line}");
    }
    outln!(
        "total\t{} of {} to make\t\tat most {} a table\t{} new, {} of finished tables held at \
         once at most",
        plan.todo().len(),
        plan.steps.len(),
        mb(plan.memory()),
        mb(plan.file_bytes()),
        mb(plan.resident_table_bytes)
    );
}

/// Before a generation: the totals of `plan` (`bound` says whether its
/// memory is a bound, "at most", or an estimate, "about"), then each
/// material to make, on stderr.
pub(super) fn say<M: Display + Copy>(plan: &Plan<M>, bound: &str) {
    let todo = plan.todo().len();
    eprintln!(
        "{todo} of {} tables to generate ({} present): {bound} {} of memory per table in \
         progress, {} of finished tables in memory and {} of new files",
        plan.steps.len(),
        plan.present(),
        mb(plan.memory()),
        mb(plan.resident_table_bytes),
        mb(plan.file_bytes())
    );
    for line in rows(plan, false) {
        eprintln!("{line}");
    }
}

/// One line a material of `plan` (`all`, or those to make): the
/// material, how it is made, what it reads, its memory and its file,
/// tab-separated.
fn rows<M: Display + Copy>(plan: &Plan<M>, all: bool) -> Vec<String> {
    plan.steps
        .iter()
        .filter(|s| all || s.how != How::Present)
        .map(|s| {
            let reads: Vec<String> = s.reads.iter().map(M::to_string).collect();
            let reads = if reads.is_empty() {
                "-".to_string()
            } else {
                reads.join(",")
            };
            format!(
                "{}\t{}\t{reads}\t{}\t{}",
                s.material,
                s.how,
                mb(s.memory),
                mb(s.file_bytes)
            )
        })
        .collect()
}

/// `bytes` in MB, one decimal.
fn mb(bytes: u64) -> String {
    format!("{:.1} MB", bytes as f64 / 1e6)
}
