//! `qi tb generate`: its arguments, the plan printed, then run by the
//! library's one entry ([`generate_plan`]), in this process or as one
//! process of a cluster, the same way for either game.

use std::io::IsTerminal;
use std::path::PathBuf;
use std::time::{Duration, Instant};

use clap::Args;
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use qi_engine::{spec_of, FiveTigersKit, JungleKit};
use qi_five_tigers::FiveTigers;
use qi_jungle::Jungle;
use qi_tablebase::dataflow::WorkerStats;
use qi_tablebase::five_tigers as ft;
use qi_tablebase::jungle::Material;
use qi_tablebase::{generate_plan, Generator, Holding, How, Made, Output};

use super::dir_lock::waiting;
use super::generate_cluster::{settings, start_on_cluster};
use super::resources::{check_disk, check_memory};
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
fn threads(args: &GenerateArgs) -> usize {
    threads_or_cores(args.threads)
}

/// The materials `--material` or `--pieces` name.
fn materials(args: &GenerateArgs) -> Result<Vec<Material>, CliError> {
    materials_of(&args.material, args.pieces, MAX_PIECES)
}

/// The Five Tigers materials `--material` or `--pieces` (a side) name:
/// up to 5 pieces a side under either shuttle option.
fn ft_materials(args: &GenerateArgs) -> Result<Vec<ft::Material>, CliError> {
    ft_materials_of(&args.material, args.pieces, ft::MAX_PIECES)
}

pub(super) fn generate(args: &GenerateArgs) -> Result<(), CliError> {
    if args.partitioned && !plan::on_cluster(args) {
        return Err(CliError::Usage(
            "--partitioned is for a cluster's run: give --workers (and --hosts, --process)".into(),
        ));
    }
    match args.game.game_rules()? {
        GameRules::Jungle(rules) => run::<Jungle>(args, &rules, &materials(args)?),
        GameRules::FiveTigers(rules) => run::<FiveTigers>(args, &rules, &ft_materials(args)?),
    }
}

/// What `qi tb generate` needs of a game beside the library's
/// [`Generator`]: how its plan's memory is said, a table's statistics
/// in a line, its rules as text.
pub(super) trait GenerateGame: Generator {
    /// Whether the plan's memory is a bound ("at most") or an estimate
    /// ("about").
    const MEMORY: &'static str;

    /// The canonical text of `rules` (what every process of a cluster
    /// must agree on).
    fn spec(rules: &Self::Rules) -> String;

    /// A table's positions won, drawn and lost and its longest win.
    fn stats_line(stats: &Self::Stats) -> String;
}

impl GenerateGame for Jungle {
    const MEMORY: &'static str = "at most";

    fn spec(rules: &qi_jungle::Rules) -> String {
        spec_of::<JungleKit>(rules)
    }

    fn stats_line(s: &qi_tablebase::jungle::Stats) -> String {
        stats_line(s.positions, [s.wins, s.draws, s.losses], s.longest_win)
    }
}

impl GenerateGame for FiveTigers {
    const MEMORY: &'static str = "about";

    fn spec(rules: &qi_five_tigers::Rules) -> String {
        spec_of::<FiveTigersKit>(rules)
    }

    fn stats_line(s: &ft::Stats) -> String {
        stats_line(s.positions, [s.wins, s.draws, s.losses], s.longest_win)
    }
}

/// A table's statistics in words: of its `positions`, those won, drawn
/// and lost for the side to move, and its longest win.
fn stats_line(positions: u64, [wins, draws, losses]: [u64; 3], longest_win: u32) -> String {
    format!(
        "of its {positions} positions {wins} won, {draws} drawn, {losses} lost for the side \
         to move, the longest win {longest_win} plies"
    )
}

/// `qi tb generate` of the game `G`: the plan of `materials` under
/// `rules` into DIR, printed, then run by [`generate_plan`].
fn run<G: GenerateGame>(
    args: &GenerateArgs,
    rules: &G::Rules,
    materials: &[G::Material],
) -> Result<(), CliError> {
    let plan = plan::of::<G>(args, rules, materials)?;
    if args.plan {
        plan::print(&plan);
        return Ok(());
    }
    if plan.holding == Holding::Held {
        let largest = plan.steps.iter().filter(|s| s.how != How::Present);
        if let Some(step) = largest.max_by_key(|s| s.memory) {
            check_memory(step.material, step.memory)?;
        }
    }
    plan::say(&plan, G::MEMORY);
    let threads = threads(args);
    create_dir(args)?;
    check_disk(&args.dir, plan.file_bytes())?;
    let cluster = match &plan.holding {
        Holding::Gathered(cluster) | Holding::Partitioned(cluster) => Some(cluster),
        _ => None,
    };
    // A process of a cluster meets the others first, and is refused
    // rather than left waiting by a directory another run holds (the
    // others would wait for it).
    let watch = match cluster {
        Some(cluster) => {
            let settings = settings::<G>(args, cluster, G::spec(rules));
            start_on_cluster(args, cluster, &settings)?
        }
        None => None,
    };
    let todo = plan.todo().len();
    let start = Instant::now();
    let drawn = std::io::stderr().is_terminal();
    let bar = progress_bar(todo as u64, drawn);
    // Above the bar when it is drawn (a hidden bar prints nothing).
    let say = |line: &str| {
        if drawn {
            bar.println(line);
        } else {
            eprintln!("{line}");
        }
    };
    // A line per material unless many are made side by side in core.
    let each = plan.holding != Holding::Held;
    let mut done = |made: Made<'_, G>| {
        if let Some(watch) = &watch {
            watch.tick();
        }
        if let Some(e) = &made.replaced {
            say(&format!(
                "{}: the damaged file was replaced ({e})",
                made.material
            ));
        }
        match made_line(&made, each) {
            Some(line) => say(&line),
            None => bar.set_message(format!("last {}", made.material)),
        }
        bar.inc(1);
    };
    let made = match cluster {
        Some(_) => {
            generate_plan::<G>(rules, &plan, &args.dir, threads, &say, &mut done).map_err(tb_error)
        }
        None => waiting(&args.dir, || {
            generate_plan::<G>(rules, &plan, &args.dir, threads, &say, &mut done)
        }),
    };
    bar.finish_and_clear();
    // A damaged file planned as present is made too.
    let made = made?;
    if let Some(watch) = watch {
        watch.finish();
    }
    let seconds = start.elapsed().as_secs_f64();
    let shown = args.dir.display();
    match &plan.holding {
        Holding::Partitioned(cluster) => eprintln!(
            "{made} materials solved in {seconds:.1} s, this process's partitions in {shown} ({} \
             workers in all; join them with qi tb join)",
            cluster.workers()
        ),
        Holding::Gathered(cluster) => eprintln!(
            "{made} tables generated in {seconds:.1} s into {shown} ({} workers in all)",
            cluster.workers()
        ),
        _ if made == 0 && todo == 0 => return nothing_to_do(args, plan.steps.len()),
        _ => eprintln!("{made} tables generated in {seconds:.1} s into {shown}"),
    }
    Ok(())
}

/// The line that says what one material `made` took, if one is said
/// (`each`: for every material, else for those that take long, made out
/// of core or from their twin): its states, how, the seconds and its
/// statistics, and what the workers of a cluster did.
fn made_line<G: GenerateGame>(made: &Made<'_, G>, each: bool) -> Option<String> {
    let m = made.material;
    let seconds = made.seconds;
    let w = WorkerStats::total(&made.workers);
    let (slots, stats) = match &made.output {
        Output::Table(table) if each => (table.len(), G::stats_line(&table.stats())),
        Output::Table(_) => return None,
        Output::File { slots, stats } => (*slots, G::stats_line(stats)),
        Output::Partitions => {
            return Some(format!(
                "{m}: this process's partitions in {seconds:.2} s, {} rounds; its workers read \
                 {} values ({} from other processes) and sent {} tidings ({} to other processes)",
                w.rounds, w.reads, w.remote_reads, w.sent, w.remote
            ))
        }
    };
    let how = match made.how {
        How::FromTwin => "from its twin (colours swapped)".to_string(),
        how => how.to_string(),
    };
    let mut line = format!("{m}: {slots} states {how} in {seconds:.1} s; {stats}");
    if !made.workers.is_empty() {
        line += &format!(
            "; {} rounds, this process's workers sent {} tidings, {} to other processes",
            w.rounds, w.sent, w.remote
        );
    }
    Some(line)
}

/// Creates DIR if it is missing (the free room on its disk is asked
/// before the run).
fn create_dir(args: &GenerateArgs) -> Result<(), CliError> {
    std::fs::create_dir_all(&args.dir)
        .map_err(|e| tb_error(format!("cannot create {}: {e}", args.dir.display())))
}

/// Says that the `count` tables asked for are all in DIR already: the
/// run's end.
fn nothing_to_do(args: &GenerateArgs, count: usize) -> Result<(), CliError> {
    eprintln!(
        "all {count} tables are in {}: nothing to do",
        args.dir.display()
    );
    Ok(())
}

/// The bar of `generate`: tables done of `total`, the elapsed time and the
/// last table finished, on stderr when it is a terminal (`drawn`), hidden
/// otherwise (a log or a pipe gets the lines before and after only).
fn progress_bar(total: u64, drawn: bool) -> ProgressBar {
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
