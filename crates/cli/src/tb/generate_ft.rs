//! `qi tb generate --game five-tigers`: straight into the directory as
//! Jungle's, one material at a time under the shuttle ban (in core, out of
//! core or from its twin), or on a cluster.

use std::io::IsTerminal;
use std::time::Instant;

use qi_engine::{spec_of, FiveTigersKit};
use qi_five_tigers::FiveTigers;
use qi_tablebase::five_tigers as ft;
use qi_tablebase::{How, Plan};

use super::dir_lock::waiting;
use super::generate::{
    create_dir, ft_materials, in_dir, nothing_to_do, progress_bar, threads, GenerateArgs,
};
use super::generate_cluster::{cluster_of, generate_on_cluster, generate_partitioned, settings};
use super::plan;
use super::resources::{check_memory, machine_memory};
use crate::error::CliError;

/// `qi tb generate` of Five Tigers tables under `rules`.
pub(super) fn ft_generate(
    args: &GenerateArgs,
    rules: &qi_five_tigers::Rules,
) -> Result<(), CliError> {
    let materials = ft_materials(args)?;
    let plan = plan::five_tigers(args, rules, &materials)?;
    if args.plan {
        plan::print(&plan);
        return Ok(());
    }
    if plan::bounded(args, rules) {
        plan::say(&plan, "about");
        return ft_generate_bounded(args, rules, &materials, &plan);
    }
    let largest = plan.steps.iter().filter(|s| s.how != How::Present);
    if let Some(step) = largest.max_by_key(|s| s.memory) {
        if !plan::on_cluster(args) {
            check_memory(step.material, step.memory)?;
        }
    }
    plan::say(&plan, "about");
    if let Some(cluster) = cluster_of(args)? {
        let settings = settings::<FiveTigers>(args, &cluster, spec_of::<FiveTigersKit>(rules));
        if args.partitioned {
            return generate_partitioned(args, &cluster, &settings, |dir, done| {
                ft::generate_partitioned(rules, &materials, &cluster, dir, done)
            });
        }
        return generate_on_cluster(args, &cluster, &settings, |dir, done| {
            ft::generate_distributed(rules, &materials, &cluster, dir, done)
        });
    }
    in_dir::<FiveTigers>(args, rules, &materials, &plan)
}

/// `ft_generate` under the shuttle ban, as `plan` says: one material at a
/// time, each with only the tables it reads in memory, in core where that
/// fits the machine's memory, out of core or from its twin
/// (`ft::generate_bounded`).
pub(super) fn ft_generate_bounded(
    args: &GenerateArgs,
    rules: &qi_five_tigers::Rules,
    materials: &[ft::Material],
    plan: &Plan<ft::Material>,
) -> Result<(), CliError> {
    let threads = threads(args);
    create_dir(args)?;
    let memory = machine_memory()?.unwrap_or(u64::MAX);
    let todo = plan.todo();
    let start = Instant::now();
    let drawn = std::io::stderr().is_terminal();
    let bar = progress_bar(todo.len() as u64, drawn);
    // Above the bar when it is drawn (a hidden bar prints nothing).
    let say = |line: &str| {
        if drawn {
            bar.println(line);
        } else {
            eprintln!("{line}");
        }
    };
    let mut solved = 0;
    let result = waiting(&args.dir, || {
        ft::generate_bounded(
            rules,
            materials,
            &args.dir,
            threads,
            memory,
            &say,
            &mut |s| {
                if let Some(e) = &s.replaced {
                    say(&format!(
                        "{}: the damaged file was replaced ({e})",
                        s.material
                    ));
                }
                let how = match s.how {
                    How::FromTwin => "from its twin (colours swapped)".to_string(),
                    how => how.to_string(),
                };
                say(&format!(
                "{}: {} states {how} in {:.1} s; of its {} positions {} won, {} drawn, {} lost \
                 for the side to move, the longest win {} plies",
                s.material,
                s.slots,
                s.seconds,
                s.stats.positions,
                s.stats.wins,
                s.stats.draws,
                s.stats.losses,
                s.stats.longest_win
            ));
                bar.set_message(format!("last {}", s.material));
                bar.inc(1);
                solved += 1;
            },
        )
    });
    bar.finish_and_clear();
    result?;
    if solved == 0 && todo.is_empty() {
        return nothing_to_do(args, plan.steps.len());
    }
    eprintln!(
        "{solved} tables generated in {:.1} s into {}",
        start.elapsed().as_secs_f64(),
        args.dir.display()
    );
    Ok(())
}
