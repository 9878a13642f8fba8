//! `qi tb generate --plan`: what a generation would do, printed, nothing
//! generated.

use std::collections::BTreeMap;
use std::fmt::Display;

use qi_five_tigers::{FiveTigers, Shuttle};
use qi_jungle::Jungle;
use qi_tablebase::five_tigers as ft;
use qi_tablebase::{plan_dir, DirPlan, DirStep};

use super::generate::{ft_materials, materials, GenerateArgs};
use super::resources::machine_memory;
use super::{tb_error, GameRules};
use crate::error::CliError;
use crate::out::outln;

/// Prints the plan of `qi tb generate` with `args`.
pub(super) fn print(args: &GenerateArgs) -> Result<(), CliError> {
    let cluster = args.workers.is_some() || args.hosts.is_some();
    let made = if cluster { "on the cluster" } else { "in core" };
    match args.game.game_rules()? {
        GameRules::Jungle(rules) => {
            let plan = plan_dir::<Jungle>(&args.dir, &rules, &materials(args)?);
            show(&plan, |_| made.to_string());
        }
        GameRules::FiveTigers(rules) => {
            let materials = ft_materials(args)?;
            let plan = plan_dir::<FiveTigers>(&args.dir, &rules, &materials);
            let bounded = rules.shuttle == Shuttle::Forbidden && !cluster;
            if !bounded {
                show(&plan, |_| made.to_string());
                return Ok(());
            }
            // One material at a time, each the way the machine's memory
            // allows (`ft::generate_bounded`).
            let memory = machine_memory()?.unwrap_or(u64::MAX);
            let ways: BTreeMap<ft::Material, ft::Solve> =
                ft::plan_bounded(&rules, &materials, &args.dir, memory)
                    .map_err(tb_error)?
                    .into_iter()
                    .collect();
            show(&plan, |s| match ways.get(&s.material) {
                Some(ft::Solve::InCore(bytes)) => format!("in core ({})", mb(*bytes)),
                Some(ft::Solve::OutOfCore(bytes)) => format!("out of core ({})", mb(*bytes)),
                Some(ft::Solve::Swapped(bytes)) => format!("from its twin ({})", mb(*bytes)),
                Some(ft::Solve::Present) | None => "present".to_string(),
            });
        }
    }
    Ok(())
}

/// `bytes` in MB, one decimal.
fn mb(bytes: u64) -> String {
    format!("{:.1} MB", bytes as f64 / 1e6)
}

/// One line per material of `plan`, `how` saying how a material to make
/// is made, then the totals.
fn show<M: Display + Copy>(plan: &DirPlan<M>, how: impl Fn(&DirStep<M>) -> String) {
    outln!("material\thow\treads\tworking memory\tfile");
    for step in &plan.steps {
        let reads: Vec<String> = step.reads.iter().map(M::to_string).collect();
        outln!(
            "{}\t{}\t{}\t{}\t{}",
            step.material,
            if step.present {
                "present".to_string()
            } else {
                how(step)
            },
            if reads.is_empty() {
                "-".to_string()
            } else {
                reads.join(",")
            },
            mb(step.working_memory),
            mb(step.file_bytes)
        );
    }
    outln!(
        "total\t{} of {} to make\t\tat most {} a table\t{} new, {} of finished tables \
         held at once at most",
        plan.todo.len(),
        plan.all.len(),
        mb(plan.working_memory_per_table),
        mb(plan.file_bytes),
        mb(plan.resident_table_bytes)
    );
}
