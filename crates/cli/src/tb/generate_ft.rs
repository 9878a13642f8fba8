//! `qi tb generate --game five-tigers`: straight into the directory as
//! Jungle's, one material at a time under the shuttle ban (in core, out of
//! core or from its twin), or on a cluster.

use std::io::IsTerminal;
use std::time::Instant;

use qi_engine::{spec_of, FiveTigersKit};
use qi_five_tigers::FiveTigers;
use qi_tablebase::five_tigers as ft;

use super::dir_lock::waiting;
use super::generate::{
    create_dir, ft_materials, in_dir, nothing_to_do, progress_bar, threads, GenerateArgs,
};
use super::generate_cluster::{cluster_of, generate_on_cluster, generate_partitioned, settings};
use super::resources::{ft_check_memory, machine_memory};
use super::tb_error;
use crate::error::CliError;

/// `qi tb generate` of Five Tigers tables under `rules`.
pub(super) fn ft_generate(
    args: &GenerateArgs,
    rules: &qi_five_tigers::Rules,
) -> Result<(), CliError> {
    let materials = ft_materials(args)?;
    let banned = rules.shuttle == qi_five_tigers::Shuttle::Forbidden;
    if banned && args.workers.is_none() && args.hosts.is_none() {
        return ft_generate_bounded(args, rules, &materials);
    }
    ft_check_memory(args, rules, &materials)?;
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
    in_dir::<FiveTigers>(args, rules, &materials, "about")
}

/// `ft_generate` under the shuttle ban: one material at a time, each with
/// only the tables it reads in memory, in core where that fits the
/// machine's memory and out of core where it does not
/// (`ft::generate_bounded`); refused up front if a material fits neither
/// way.
pub(super) fn ft_generate_bounded(
    args: &GenerateArgs,
    rules: &qi_five_tigers::Rules,
    materials: &[ft::Material],
) -> Result<(), CliError> {
    let threads = threads(args);
    create_dir(args)?;
    let memory = machine_memory()?.unwrap_or(u64::MAX);
    let plan = ft::plan_bounded(rules, materials, &args.dir, memory).map_err(|e| match e {
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
    })?;
    let todo: Vec<_> = plan
        .iter()
        .filter(|(_, how)| *how != ft::Solve::Present)
        .collect();
    let out_of_core: Vec<String> = todo
        .iter()
        .filter_map(|(m, how)| match how {
            ft::Solve::OutOfCore(bytes) => {
                Some(format!("{m} (about {:.1} GB)", *bytes as f64 / 1e9))
            }
            _ => None,
        })
        .collect();
    let in_core: Vec<u64> = todo
        .iter()
        .filter_map(|(_, how)| match how {
            ft::Solve::InCore(bytes) => Some(*bytes),
            _ => None,
        })
        .collect();
    let swapped: Vec<String> = todo
        .iter()
        .filter(|(_, how)| matches!(how, ft::Solve::Swapped(_)))
        .map(|(m, _)| m.to_string())
        .collect();
    let mut ways = Vec::new();
    if let Some(largest) = in_core.iter().max() {
        ways.push(format!(
            "{} in core (the largest with about {:.1} MB of memory)",
            in_core.len(),
            *largest as f64 / 1e6
        ));
    }
    if !out_of_core.is_empty() {
        ways.push(format!(
            "out of core, its values on disk in DIR: {}",
            out_of_core.join(", ")
        ));
    }
    if !swapped.is_empty() {
        ways.push(format!(
            "from the table with the colours swapped: {}",
            swapped.join(", ")
        ));
    }
    eprintln!(
        "{} of {} tables to generate ({} present), one at a time on {threads} threads{}{}",
        todo.len(),
        plan.len(),
        plan.len() - todo.len(),
        if ways.is_empty() { "" } else { ": " },
        ways.join("; ")
    );
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
                    ft::Solve::OutOfCore(_) => "out of core",
                    ft::Solve::Swapped(_) => "from its twin (colours swapped)",
                    _ => "in core",
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
        return nothing_to_do(args, plan.len());
    }
    eprintln!(
        "{solved} tables generated in {:.1} s into {}",
        start.elapsed().as_secs_f64(),
        args.dir.display()
    );
    Ok(())
}
