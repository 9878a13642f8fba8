//! `qi tb generate`: its arguments, the choice of a way to generate, and
//! Jungle's generation straight into a directory ([`generate_dir`]).

use std::io::IsTerminal;
use std::path::PathBuf;
use std::time::{Duration, Instant};

use clap::Args;
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use qi_engine::{spec_of, JungleKit};
use qi_jungle::Jungle;
use qi_tablebase::five_tigers as ft;
use qi_tablebase::jungle::Material;
use qi_tablebase::{generate_dir, Plan, Solver};

use super::dir_lock::waiting;
use super::generate_cluster::{cluster_of, generate_on_cluster, generate_partitioned, settings};
use super::generate_ft::ft_generate;
use super::resources::check_disk;
use super::{
    ft_materials_of, materials_of, meeting, plan, tb_error, threads_or_cores, GameArg, GameRules,
    MAX_PIECES,
};
use crate::error::CliError;

#[derive(Args, Debug)]
pub(super) struct GenerateArgs {
    #[command(flatten)]
    pub(super) game: GameArg,
    /// Every material of up to N animals (both sides together, at most 4),
    /// when no --material is given; for five-tigers, up to N pieces a side
    /// (at most 5; with the shuttle forbidden one material at a time, in
    /// core where it fits the machine's memory, else out of core with its
    /// values on disk in DIR: 5v4 about 21 GB in core, 5v5 19 GB out of
    /// core and a file of 31 GB, 56 GB if its distances outgrow one byte).
    #[arg(long, value_name = "N", default_value_t = 3, value_parser = clap::value_parser!(u32).range(2..=ft::MAX_PIECES as i64))]
    pub(super) pieces: u32,
    /// A material to generate instead (Red letters, v, Blue letters:
    /// LCvED; for five-tigers the counts: 3v2); may be repeated.
    #[arg(long, value_name = "LCvED")]
    pub(super) material: Vec<String>,
    /// Worker threads (default: the machine's cores).
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u32).range(1..=1024))]
    pub(super) threads: Option<u32>,
    /// Solve each material with N timely dataflow workers in this process
    /// (with --hosts: per process of the cluster) instead of the
    /// generator's threads (docs/solving.md); Jungle, and Five Tigers
    /// under either shuttle option.
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u32).range(1..=1024))]
    pub(super) workers: Option<u32>,
    /// Run as process --process of a cluster whose FILE lists every
    /// process's host:port, one a line, in the order of their indices.
    /// Each process needs its own DIR.
    #[arg(long, value_name = "FILE", requires = "process")]
    pub(super) hosts: Option<PathBuf>,
    /// This process's index in --hosts, from 0.
    #[arg(long, value_name = "I", requires = "hosts")]
    pub(super) process: Option<usize>,
    /// With --workers or --hosts: gather no table. Each process writes
    /// only its own workers' partitions of each material into DIR
    /// (MATERIAL.EXT.part-W-of-N), and each material's moves out of it
    /// read the smaller materials' values from the workers that own them,
    /// so no process holds a whole table; `qi tb join` makes the table
    /// files afterwards.
    #[arg(long)]
    pub(super) partitioned: bool,
    /// Print the plan and generate nothing: per material of the closure,
    /// how it is made (present, in core, out of core, from its twin, on
    /// the cluster), the materials it reads, its working memory and its
    /// file's size (tab-separated).
    #[arg(long)]
    pub(super) plan: bool,
    /// With --hosts: how long to wait for the other processes before any
    /// work (where every process checks that all run with the same
    /// settings: one that differs is refused) and at each material's
    /// start; a process that does not come by then ends the run.
    #[arg(long, value_name = "SECONDS", default_value_t = meeting::DEFAULT_CONNECT_TIMEOUT, value_parser = clap::value_parser!(u64).range(1..=86_400))]
    pub(super) connect_timeout: u64,
    /// With --hosts: how long a process may go without a word from a
    /// peer once the run has started (the processes beat every second on
    /// the connections of their first meeting) before the peer is taken
    /// as lost (stopped, frozen or cut off) and the run ends. A peer that
    /// dies is lost at once.
    #[arg(long, value_name = "SECONDS", default_value_t = meeting::DEFAULT_PEER_TIMEOUT, value_parser = clap::value_parser!(u64).range(1..=86_400))]
    pub(super) peer_timeout: u64,
    /// The directory of the tables (created if missing).
    #[arg(value_name = "DIR")]
    pub(super) dir: PathBuf,
}

/// The worker threads: `--threads`, or the machine's cores.
pub(super) fn threads(args: &GenerateArgs) -> usize {
    threads_or_cores(args.threads)
}

/// The materials `--material` or `--pieces` name.
pub(super) fn materials(args: &GenerateArgs) -> Result<Vec<Material>, CliError> {
    materials_of(&args.material, args.pieces, MAX_PIECES)
}

/// The Five Tigers materials `--material` or `--pieces` (a side) name:
/// up to 5 pieces a side under either shuttle option.
pub(super) fn ft_materials(args: &GenerateArgs) -> Result<Vec<ft::Material>, CliError> {
    ft_materials_of(&args.material, args.pieces, ft::MAX_PIECES)
}

pub(super) fn generate(args: &GenerateArgs) -> Result<(), CliError> {
    if args.partitioned && !plan::on_cluster(args) {
        return Err(CliError::Usage(
            "--partitioned is for a cluster's run: give --workers (and --hosts, --process)".into(),
        ));
    }
    let rules = match args.game.game_rules()? {
        GameRules::Jungle(rules) => rules,
        GameRules::FiveTigers(rules) => return ft_generate(args, &rules),
    };
    let materials = materials(args)?;
    let plan = plan::jungle(args, &rules, &materials)?;
    if args.plan {
        plan::print(&plan);
        return Ok(());
    }
    plan::say(&plan, "at most");
    if let Some(cluster) = cluster_of(args)? {
        let settings = settings::<Jungle>(args, &cluster, spec_of::<JungleKit>(&rules));
        if args.partitioned {
            return generate_partitioned(args, &cluster, &settings, |dir, done| {
                qi_tablebase::jungle::generate_partitioned(&rules, &materials, &cluster, dir, done)
            });
        }
        return generate_on_cluster(args, &cluster, &settings, |dir, done| {
            qi_tablebase::jungle::generate_distributed(&rules, &materials, &cluster, dir, done)
        });
    }
    in_dir::<Jungle>(args, &rules, &materials, &plan)
}

/// Generates the closure of `materials` under `rules` straight into the
/// directory ([`generate_dir`]) as `plan` says: only the tables a
/// material still to come reads stay in memory, so every 4-animal Jungle
/// material runs beside the 78 MB of 3-animal tables.
pub(super) fn in_dir<G: Solver>(
    args: &GenerateArgs,
    rules: &G::Rules,
    materials: &[G::Material],
    plan: &Plan<G::Material>,
) -> Result<(), CliError> {
    let threads = threads(args);
    create_dir(args)?;
    check_disk(&args.dir, plan.file_bytes())?;
    let todo = plan.todo().len();
    let start = Instant::now();
    let bar = progress_bar(todo as u64, std::io::stderr().is_terminal());
    let generated = waiting(&args.dir, || {
        generate_dir::<G>(rules, materials, threads, &args.dir, &|table| {
            bar.set_message(format!("last {} ({} slots)", table.material(), table.len()));
            bar.inc(1);
        })
    });
    bar.finish_and_clear();
    if generated? == 0 && todo == 0 {
        return nothing_to_do(args, plan.steps.len());
    }
    eprintln!(
        "{todo} tables generated in {:.1} s into {}",
        start.elapsed().as_secs_f64(),
        args.dir.display()
    );
    Ok(())
}

/// Creates DIR if it is missing (the free room on its disk is asked
/// before the run).
pub(super) fn create_dir(args: &GenerateArgs) -> Result<(), CliError> {
    std::fs::create_dir_all(&args.dir)
        .map_err(|e| tb_error(format!("cannot create {}: {e}", args.dir.display())))
}

/// Says that the `count` tables asked for are all in DIR already: the
/// run's end.
pub(super) fn nothing_to_do(args: &GenerateArgs, count: usize) -> Result<(), CliError> {
    eprintln!(
        "all {count} tables are in {}: nothing to do",
        args.dir.display()
    );
    Ok(())
}

/// The bar of `generate`: tables done of `total`, the elapsed time and the
/// last table finished, on stderr when it is a terminal (`drawn`), hidden
/// otherwise (a log or a pipe gets the lines before and after only).
pub(super) fn progress_bar(total: u64, drawn: bool) -> ProgressBar {
    if !drawn || total == 0 {
        return ProgressBar::with_draw_target(Some(total), ProgressDrawTarget::hidden());
    }
    let bar = ProgressBar::with_draw_target(Some(total), ProgressDrawTarget::stderr());
    let style = ProgressStyle::with_template(
        "{elapsed_precise} [{bar:24}] {pos}/{len} tables, eta {eta} | {wide_msg}",
    )
    .map(|s| s.progress_chars("=> "))
    .unwrap_or_else(|_| ProgressStyle::default_bar());
    bar.set_style(style);
    bar.set_message("solving the smallest materials first");
    bar.enable_steady_tick(Duration::from_millis(250));
    bar
}
