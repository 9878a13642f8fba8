//! `qi tb`: endgame tablebases (`qi-tablebase`) from the command line:
//! `generate` a directory of tables, `probe` a position, print the `stats`
//! of a directory. Jungle endgames, or Five Tigers movement-phase endings
//! with `--game five-tigers[:PRESET]`.

use std::io::IsTerminal;
use std::path::PathBuf;
use std::sync::Mutex;
use std::time::{Duration, Instant};

use clap::{Args, Subcommand};
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use qi_engine::{spec_of, FiveTigersKit, GameKit, JungleKit, SpecError};
use qi_five_tigers::FiveTigers;
use qi_jungle::{Jungle, Rules};
use qi_tablebase::dataflow::{Cluster, WorkerStats};
use qi_tablebase::five_tigers as ft;
use qi_tablebase::jungle::{Material, Tablebase};
use qi_tablebase::{
    generate_dir, load_table, plan_dir, remove_stale_temporaries, FormatError, GenerateDirError,
    TableGame, Wdl, WriteLock, LOCK_FILE,
};

use crate::error::CliError;
use crate::out::outln;
use crate::tb_cluster::{self, Settings};

/// The most animals `--pieces` accepts: a 5-animal material alone needs
/// tens of gigabytes of working memory (docs/tablebases.md).
const MAX_PIECES: u32 = 4;

/// `qi tb` options.
#[derive(Args, Debug)]
pub struct TbArgs {
    #[command(subcommand)]
    command: TbCommand,
}

#[derive(Subcommand, Debug)]
enum TbCommand {
    /// Generate the tables of every material up to --pieces animals (or of
    /// each --material) and of the materials their captures lead to into
    /// DIR; files already in DIR are loaded, not generated again.
    Generate(GenerateArgs),
    /// Join the partition files that `qi tb generate --partitioned` left
    /// in each process's directory into table files in OUT (the closure
    /// of --pieces or --material, fewest pieces first; tables already in
    /// OUT are kept).
    Join(JoinArgs),
    /// Print the value of a position for its side to move: 'win in N
    /// plies', 'loss in N plies' or 'draw'.
    Probe(ProbeArgs),
    /// Per material of DIR: positions, wins, draws and losses for the side
    /// to move, the longest win and a position with it (tab-separated).
    Stats(StatsArgs),
}

/// `--game`: Jungle or Five Tigers.
#[derive(Args, Debug)]
struct GameArg {
    /// The game and its rules: jungle, jungle:PRESET, five-tigers or
    /// five-tigers:PRESET (the tables hold the board rules; the game-record
    /// rules are not in them).
    #[arg(long, value_name = "G", default_value = "jungle:standard")]
    game: String,
}

/// The rules `--game` names.
enum GameRules {
    Jungle(Rules),
    FiveTigers(qi_five_tigers::Rules),
}

impl GameArg {
    fn game_rules(&self) -> Result<GameRules, CliError> {
        let spec = self.game.trim();
        let name = spec.split([':', ',']).next().unwrap_or_default();
        if name == JungleKit::NAME {
            JungleKit::parse_rules(spec)
                .map(GameRules::Jungle)
                .map_err(|e| CliError::from(SpecError::bad_rules(JungleKit::NAME, e)))
        } else if name == FiveTigersKit::NAME {
            FiveTigersKit::parse_rules(spec)
                .map(GameRules::FiveTigers)
                .map_err(|e| CliError::from(SpecError::bad_rules(FiveTigersKit::NAME, e)))
        } else {
            Err(CliError::Usage(format!(
                "bad --game: tablebases exist for 'jungle' and 'five-tigers', not '{}'",
                qi_core::Escaped(name)
            )))
        }
    }
}

#[derive(Args, Debug)]
struct GenerateArgs {
    #[command(flatten)]
    game: GameArg,
    /// Every material of up to N animals (both sides together, at most 4),
    /// when no --material is given; for five-tigers, up to N pieces a side
    /// (at most 5; with the shuttle forbidden one material at a time, in
    /// core where it fits the machine's memory, else out of core with its
    /// values on disk in DIR: 5v4 about 21 GB in core, 5v5 19 GB out of
    /// core and a file of 31 GB, 56 GB if its distances outgrow one byte).
    #[arg(long, value_name = "N", default_value_t = 3, value_parser = clap::value_parser!(u32).range(2..=ft::MAX_PIECES as i64))]
    pieces: u32,
    /// A material to generate instead (Red letters, v, Blue letters:
    /// LCvED; for five-tigers the counts: 3v2); may be repeated.
    #[arg(long, value_name = "LCvED")]
    material: Vec<String>,
    /// Worker threads (default: the machine's cores).
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u32).range(1..=1024))]
    threads: Option<u32>,
    /// Solve each material with N timely dataflow workers in this process
    /// (with --hosts: per process of the cluster) instead of the
    /// generator's threads (docs/solving.md); Jungle, and Five Tigers
    /// under either shuttle option.
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u32).range(1..=1024))]
    workers: Option<u32>,
    /// Run as process --process of a cluster whose FILE lists every
    /// process's host:port, one a line, in the order of their indices.
    /// Each process needs its own DIR.
    #[arg(long, value_name = "FILE", requires = "process")]
    hosts: Option<PathBuf>,
    /// This process's index in --hosts, from 0.
    #[arg(long, value_name = "I", requires = "hosts")]
    process: Option<usize>,
    /// With --workers or --hosts: gather no table. Each process writes
    /// only its own workers' partitions of each material into DIR
    /// (MATERIAL.EXT.part-W-of-N), and each material's moves out of it
    /// read the smaller materials' values from the workers that own them,
    /// so no process holds a whole table; `qi tb join` makes the table
    /// files afterwards.
    #[arg(long)]
    partitioned: bool,
    /// With --hosts: how long to wait for the other processes before any
    /// work (where every process checks that all run with the same
    /// settings: one that differs is refused) and at each material's
    /// start; a process that does not come by then ends the run.
    #[arg(long, value_name = "SECONDS", default_value_t = tb_cluster::DEFAULT_CONNECT_TIMEOUT, value_parser = clap::value_parser!(u64).range(1..=86_400))]
    connect_timeout: u64,
    /// With --hosts: how long a process may go without a word from a
    /// peer once the run has started (the processes beat every second on
    /// the connections of their first meeting) before the peer is taken
    /// as lost (stopped, frozen or cut off) and the run ends. A peer that
    /// dies is lost at once.
    #[arg(long, value_name = "SECONDS", default_value_t = tb_cluster::DEFAULT_PEER_TIMEOUT, value_parser = clap::value_parser!(u64).range(1..=86_400))]
    peer_timeout: u64,
    /// Five Tigers: the generator of every table solved. graph: the move
    /// graph, every shuttle option, up to 3 pieces a side, keyed
    /// (version-1) files; retrograde: un-moves over a dense index, every
    /// shuttle option, up to 5 a side, blocked files (version 2, or 3
    /// under the shuttle ban). Both give the same values. Default:
    /// retrograde where it applies.
    #[arg(long, value_enum, value_name = "GENERATOR")]
    generator: Option<GeneratorArg>,
    /// The directory of the tables (created if missing).
    #[arg(value_name = "DIR")]
    dir: PathBuf,
}

/// `--generator`.
#[derive(clap::ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
enum GeneratorArg {
    /// The move graph, labelled backwards.
    Graph,
    /// Retrograde analysis by un-moves over a dense index.
    Retrograde,
}

impl From<GeneratorArg> for ft::Generator {
    fn from(g: GeneratorArg) -> ft::Generator {
        match g {
            GeneratorArg::Graph => ft::Generator::Graph,
            GeneratorArg::Retrograde => ft::Generator::Retrograde,
        }
    }
}

#[derive(Args, Debug)]
struct JoinArgs {
    #[command(flatten)]
    game: GameArg,
    /// Every material of up to N animals (Jungle) or pieces a side (Five
    /// Tigers), when no --material is given.
    #[arg(long, value_name = "N", default_value_t = 3, value_parser = clap::value_parser!(u32).range(2..=ft::MAX_PIECES as i64))]
    pieces: u32,
    /// A material to join instead, with those it needs; may be repeated.
    #[arg(long, value_name = "LCvED")]
    material: Vec<String>,
    /// Threads that make each table (default: the machine's cores).
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u32).range(1..=1024))]
    threads: Option<u32>,
    /// The directory of the table files made (created if missing).
    #[arg(long, value_name = "OUT")]
    out: PathBuf,
    /// The directories of the partition files (every process's, or
    /// copies of them).
    #[arg(value_name = "PARTS", required = true)]
    parts: Vec<PathBuf>,
}

#[derive(Args, Debug)]
struct ProbeArgs {
    #[command(flatten)]
    game: GameArg,
    /// The position text (five-tigers: read leniently, so that endings no
    /// game reaches can be probed).
    #[arg(long, value_name = "TEXT")]
    fen: String,
    /// The directory of the tables.
    #[arg(value_name = "DIR")]
    dir: PathBuf,
}

#[derive(Args, Debug)]
struct StatsArgs {
    #[command(flatten)]
    game: GameArg,
    /// The directory of the tables.
    #[arg(value_name = "DIR")]
    dir: PathBuf,
}

pub fn run(args: TbArgs) -> Result<(), CliError> {
    match args.command {
        TbCommand::Generate(args) => generate(&args),
        TbCommand::Join(args) => join(&args),
        TbCommand::Probe(args) => probe(&args),
        TbCommand::Stats(args) => stats(&args),
    }
}

fn tb_error(e: impl std::fmt::Display) -> CliError {
    CliError::Tablebase(e.to_string())
}

/// Creates `dir` if need be and holds its write lock for the run (a
/// second `qi tb generate` into it waits, then finds the tables made),
/// then removes the temporary files a killed run left there. A directory
/// that cannot be locked (read-only) but already holds every table
/// (`present`: `Some(count)` when all are there) has nothing to do:
/// `None`, after a line that says so.
fn lock_dir(
    dir: &std::path::Path,
    present: impl FnOnce() -> Option<usize>,
) -> Result<Option<WriteLock>, CliError> {
    let shown = dir.display();
    std::fs::create_dir_all(dir).map_err(|e| tb_error(format!("cannot create {shown}: {e}")))?;
    let locked = |e| tb_error(format!("cannot lock {shown}/{LOCK_FILE}: {e}"));
    let tried = match WriteLock::try_acquire(dir) {
        Err(e) => match present() {
            Some(all) => {
                eprintln!("all {all} tables are in {shown}: nothing to do");
                return Ok(None);
            }
            None => return Err(locked(e)),
        },
        Ok(tried) => tried,
    };
    let lock = match tried {
        Some(lock) => lock,
        None => {
            eprintln!("waiting for another qi tb generate to finish writing {shown}");
            WriteLock::acquire(dir).map_err(locked)?
        }
    };
    let removed = remove_stale_temporaries(dir, &lock)
        .map_err(|e| tb_error(format!("cannot clean {shown}: {e}")))?;
    if !removed.is_empty() {
        eprintln!(
            "removed {} temporary files an interrupted run left in {shown}",
            removed.len()
        );
    }
    Ok(Some(lock))
}

/// `Some(count)` when every table of the closure of `materials` has a
/// file in `dir`.
fn ft_all_present(
    dir: &std::path::Path,
    rules: &qi_five_tigers::Rules,
    materials: &[ft::Material],
) -> Option<usize> {
    let all = ft::closure(materials, rules);
    all.iter()
        .all(|&m| ft::Tablebase::file_path(dir, m).exists())
        .then_some(all.len())
}

/// The worker threads: `--threads`, or the machine's cores.
fn threads(args: &GenerateArgs) -> usize {
    args.threads.map(|t| t as usize).unwrap_or_else(|| {
        std::thread::available_parallelism()
            .map(|n| n.get())
            .unwrap_or(1)
    })
}

/// The materials `--material` or `--pieces` name.
fn materials(args: &GenerateArgs) -> Result<Vec<Material>, CliError> {
    materials_of(&args.material, args.pieces, MAX_PIECES)
}

/// The Jungle materials `material` (`--material`) or, if none, `pieces`
/// (`--pieces`) name, each of at most `most` animals.
fn materials_of(material: &[String], pieces: u32, most: u32) -> Result<Vec<Material>, CliError> {
    if material.is_empty() {
        if pieces > most {
            return Err(CliError::Usage(format!(
                "bad --pieces: jungle tables have at most {most} animals, not {pieces}"
            )));
        }
        return Ok(Material::all_up_to(pieces));
    }
    material
        .iter()
        .map(|text| {
            let m: Material = text
                .parse()
                .map_err(|e| CliError::Usage(format!("bad --material: {e}")))?;
            if m.total() > most {
                return Err(CliError::Usage(format!(
                    "bad --material: {m} has {} animals, at most {most} are supported",
                    m.total()
                )));
            }
            Ok(m)
        })
        .collect()
}

fn generate(args: &GenerateArgs) -> Result<(), CliError> {
    if args.partitioned && args.workers.is_none() && args.hosts.is_none() {
        return Err(CliError::Usage(
            "--partitioned is for a cluster's run: give --workers (and --hosts, --process)".into(),
        ));
    }
    let rules = match args.game.game_rules()? {
        GameRules::Jungle(rules) => rules,
        GameRules::FiveTigers(rules) => return ft_generate(args, &rules),
    };
    if args.generator.is_some() {
        return Err(CliError::Usage(
            "--generator chooses the generator of Five Tigers tables (--game five-tigers)".into(),
        ));
    }
    let materials = materials(args)?;
    if let Some(cluster) = cluster_of(args)? {
        let settings = settings::<Jungle>(args, &cluster, spec_of::<JungleKit>(&rules));
        if args.partitioned {
            return generate_partitioned(args, &cluster, &settings, |dir, done| {
                qi_tablebase::jungle::generate_partitioned(&rules, &materials, &cluster, dir, done)
            });
        }
        let all = qi_tablebase::jungle::closure(&materials);
        eprintln!(
            "{} tables of up to {} animals, each solved by {} dataflow workers in all; every \
             table stays in memory",
            all.len(),
            all.iter().map(|m| m.total()).max().unwrap_or(0),
            cluster.workers()
        );
        return generate_on_cluster(args, &cluster, &settings, |dir, done| {
            qi_tablebase::jungle::generate_distributed(&rules, &materials, &cluster, dir, done)
        });
    }
    let threads = threads(args);
    let present = || {
        let plan = plan_dir::<Jungle>(&args.dir, &rules, &materials);
        plan.todo.is_empty().then_some(plan.all.len())
    };
    let Some(_lock) = lock_dir(&args.dir, present)? else {
        return Ok(());
    };
    // Straight into the directory: only the tables of the size below the
    // one being solved stay in memory, so every 4-animal material runs
    // beside the 78 MB of 3-animal tables.
    let plan = plan_dir::<Jungle>(&args.dir, &rules, &materials);
    let todo = plan.todo.len();
    check_disk(&args.dir, plan.file_bytes)?;
    eprintln!(
        "{todo} of {} tables to generate ({} present): at most {:.1} MB of working memory per \
         table in progress, {} at once at most, {:.1} MB of finished tables in memory and \
         {:.1} MB of new files",
        plan.all.len(),
        plan.all.len() - todo,
        plan.working_memory_per_table as f64 / 1e6,
        threads.min(todo.max(1)),
        plan.resident_table_bytes as f64 / 1e6,
        plan.file_bytes as f64 / 1e6
    );
    let start = Instant::now();
    let bar = progress_bar(todo as u64, std::io::stderr().is_terminal());
    let generated = generate_dir::<Jungle>(&rules, &materials, threads, &args.dir, &|table| {
        bar.set_message(format!(
            "last {} ({} indices)",
            table.material(),
            table.len()
        ));
        bar.inc(1);
    });
    bar.finish_and_clear();
    generated.map_err(tb_error)?;
    eprintln!(
        "{todo} tables generated in {:.1} s into {}",
        start.elapsed().as_secs_f64(),
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

/// `win in N plies`, `loss in N plies` or `draw`.
pub(crate) fn value_text(wdl: Wdl, distance: u32) -> String {
    let plies = if distance == 1 { "ply" } else { "plies" };
    match wdl {
        Wdl::Draw => "draw".to_string(),
        _ => format!("{wdl} in {distance} {plies}"),
    }
}

fn probe(args: &ProbeArgs) -> Result<(), CliError> {
    let rules = match args.game.game_rules()? {
        GameRules::Jungle(rules) => rules,
        GameRules::FiveTigers(rules) => return ft_probe(args, &rules),
    };
    let pos = Jungle::from_text(&args.fen, &rules).map_err(|e| CliError::Fen(e.to_string()))?;
    let mut tb = Tablebase::new(&rules);
    if let Some(material) = Material::of(&pos) {
        tb = Tablebase::load_present(&args.dir, &rules, &[material]).map_err(tb_error)?;
    }
    match tb.probe(&pos).map_err(tb_error)? {
        Some((wdl, distance)) => {
            outln!("{}", value_text(wdl, distance));
            Ok(())
        }
        None => Err(tb_error(format!(
            "the material {} is not in {}",
            Material::of(&pos)
                .map(|m| m.to_string())
                .unwrap_or_default(),
            args.dir.display()
        ))),
    }
}

fn stats(args: &StatsArgs) -> Result<(), CliError> {
    let rules = match args.game.game_rules()? {
        GameRules::Jungle(rules) => rules,
        GameRules::FiveTigers(rules) => return ft_stats(args, &rules),
    };
    // One table in memory at a time: a directory of every 4-animal
    // material holds 13.9 GB.
    let io = |e: std::io::Error| tb_error(format!("I/O error on {}: {e}", args.dir.display()));
    let mut files: Vec<(Option<Material>, PathBuf)> = Vec::new();
    for entry in std::fs::read_dir(&args.dir).map_err(io)? {
        let path = entry.map_err(io)?.path();
        if path.extension().and_then(|e| e.to_str()) == Some(Jungle::EXTENSION) {
            let material = path
                .file_stem()
                .and_then(|s| s.to_str())
                .and_then(|s| s.parse().ok());
            files.push((material, path));
        }
    }
    if files.is_empty() {
        return Err(tb_error(format!("no tables in {}", args.dir.display())));
    }
    // Material order, as the tables of a `Tablebase`; a file whose name is
    // no material sorts first and is refused by `load_table`.
    files.sort();
    outln!("material\tpositions\twins\tdraws\tlosses\tlongest win\tlongest win position");
    let mut total = qi_tablebase::jungle::Stats::default();
    for (_, path) in files {
        let table = load_table::<Jungle>(&path, &rules).map_err(tb_error)?;
        let (m, s) = (table.material(), table.stats());
        let example = s
            .longest_win_index
            .and_then(|i| m.position(i, &rules))
            .map(|p| p.to_string())
            .unwrap_or_default();
        outln!(
            "{m}\t{}\t{}\t{}\t{}\t{}\t{example}",
            s.positions,
            s.wins,
            s.draws,
            s.losses,
            s.longest_win
        );
        total.positions += s.positions;
        total.wins += s.wins;
        total.draws += s.draws;
        total.losses += s.losses;
        total.longest_win = total.longest_win.max(s.longest_win);
    }
    outln!(
        "total\t{}\t{}\t{}\t{}\t{}\t",
        total.positions,
        total.wins,
        total.draws,
        total.losses,
        total.longest_win
    );
    Ok(())
}

/// The Five Tigers materials `--material` or `--pieces` (a side) name:
/// up to 5 pieces a side under either shuttle option.
fn ft_materials(args: &GenerateArgs) -> Result<Vec<ft::Material>, CliError> {
    ft_materials_of(&args.material, args.pieces, ft::MAX_PIECES)
}

/// The Five Tigers materials `material` (`--material`) or, if none,
/// `pieces` (`--pieces`) name, each of at most `most` pieces a side.
fn ft_materials_of(
    material: &[String],
    pieces: u32,
    most: u32,
) -> Result<Vec<ft::Material>, CliError> {
    let limit = |what: &str, n: &dyn std::fmt::Display| {
        CliError::Usage(format!(
            "bad {what}: five-tigers tables under these rules have at most {most} pieces a side, \
             not {n}"
        ))
    };
    if material.is_empty() {
        if pieces > most {
            return Err(limit("--pieces", &pieces));
        }
        return Ok(ft::Material::all_up_to(pieces));
    }
    material
        .iter()
        .map(|text| {
            let m = text
                .parse::<ft::Material>()
                .map_err(|e| CliError::Usage(format!("bad --material: {e}")))?;
            if m.first.max(m.second) > most {
                return Err(limit("--material", &m));
            }
            Ok(m)
        })
        .collect()
}

/// The cluster `--workers`, `--hosts` and `--process` ask for, if any.
fn cluster_of(args: &GenerateArgs) -> Result<Option<Cluster>, CliError> {
    if args.workers.is_none() && args.hosts.is_none() {
        return Ok(None);
    }
    let threads = args.workers.unwrap_or(1) as usize;
    let (Some(hosts), Some(process)) = (&args.hosts, args.process) else {
        return Ok(args.workers.map(|_| Cluster::Local { threads }));
    };
    let text = std::fs::read_to_string(hosts)
        .map_err(|e| CliError::Usage(format!("cannot read --hosts '{}': {e}", hosts.display())))?;
    Cluster::from_hosts(&text, process, threads)
        .map(Some)
        .map_err(|e| CliError::Usage(format!("--hosts '{}': {e}", hosts.display())))
}

/// What every process of `cluster` must agree on: `rules` (canonical
/// text) of the game `G`, the materials as asked for, the workers, the
/// mode.
fn settings<G: TableGame>(
    args: &GenerateArgs,
    cluster: &Cluster,
    rules: String,
) -> Settings<'static> {
    let threads = match cluster {
        Cluster::Local { threads } | Cluster::Processes { threads, .. } => *threads,
    };
    let materials = if args.material.is_empty() {
        format!("--pieces {}", args.pieces)
    } else {
        let mut all: Vec<String> = args.material.iter().map(|m| m.trim().to_string()).collect();
        all.sort();
        all.dedup();
        all.join(",")
    };
    Settings {
        game: G::NAME,
        rules,
        materials,
        format: format!(
            "{} {} (blocked {:?})",
            G::NAME,
            G::FORMAT_VERSION,
            G::BLOCKED_VERSIONS
        ),
        workers: threads,
        partitioned: args.partitioned,
    }
}

/// What a process of a cluster does before its run, once it holds its
/// directory: it meets the others (all with `settings`, or none starts),
/// then watches them and turns a lost peer into one line and exit code 2,
/// and says when the run is quiet for a while.
fn start_on_cluster(
    args: &GenerateArgs,
    cluster: &Cluster,
    settings: &Settings,
) -> Result<Option<tb_cluster::Watch>, CliError> {
    let Cluster::Processes { .. } = cluster else {
        return Ok(None);
    };
    let timeout = Duration::from_secs(args.connect_timeout);
    let peers = tb_cluster::meet(cluster, settings, timeout)?;
    let peer_timeout = Duration::from_secs(args.peer_timeout);
    let heartbeat = tb_cluster::end_on_lost_peer(&args.dir, peers, peer_timeout);
    Ok(Some(tb_cluster::Watch::start(timeout, heartbeat)))
}

/// `qi tb generate` on timely dataflow workers: `run` generates every
/// material of the closure into `DIR`, resumed from its files, and tells
/// each table written.
fn generate_on_cluster<G: TableGame>(
    args: &GenerateArgs,
    cluster: &Cluster,
    settings: &Settings,
    run: impl FnOnce(
        &std::path::Path,
        &mut dyn FnMut(&qi_tablebase::Table<G>, f64, Option<&FormatError>, &[WorkerStats]),
    ) -> Result<qi_tablebase::Tablebase<G>, GenerateDirError>,
) -> Result<(), CliError> {
    let shown = args.dir.display();
    let _lock = lock_cluster_dir(&args.dir)?;
    let watch = start_on_cluster(args, cluster, settings)?;
    let start = Instant::now();
    let mut solved = 0;
    run(&args.dir, &mut |table, seconds, refused, stats| {
        if let Some(watch) = &watch {
            watch.tick();
        }
        if let Some(e) = refused {
            eprintln!("{}: the file was refused ({e}), solved again", table.material());
        }
        solved += 1;
        if stats.is_empty() {
            // Written by this process alone from its twin's table.
            eprintln!(
                "{}: {} states from its twin (colours swapped) in {seconds:.2} s",
                table.material(),
                table.len()
            );
            return;
        }
        let sent: u64 = stats.iter().map(|s| s.sent).sum();
        let remote: u64 = stats.iter().map(|s| s.remote).sum();
        let rounds = stats.iter().map(|s| s.rounds).max().unwrap_or(0);
        eprintln!(
            "{}: {} states in {seconds:.2} s, {rounds} rounds; this process's workers sent {sent} tidings, {remote} to other processes",
            table.material(),
            table.len()
        );
    })
    .map_err(tb_error)?;
    if let Some(watch) = watch {
        watch.finish();
    }
    eprintln!(
        "{solved} tables generated in {:.1} s into {shown} ({} workers in all)",
        start.elapsed().as_secs_f64(),
        cluster.workers()
    );
    Ok(())
}

/// Takes `dir`'s write lock, refusing to wait for it (a process waiting
/// would stall the whole cluster), and removes what a killed run left.
fn lock_cluster_dir(dir: &std::path::Path) -> Result<WriteLock, CliError> {
    let shown = dir.display();
    std::fs::create_dir_all(dir).map_err(|e| tb_error(format!("cannot create {shown}: {e}")))?;
    let locked = |e| tb_error(format!("cannot lock {shown}/{LOCK_FILE}: {e}"));
    let Some(lock) = WriteLock::try_acquire(dir).map_err(locked)? else {
        return Err(tb_error(format!(
            "another qi tb generate is writing {shown}: each process of a cluster needs its own directory"
        )));
    };
    remove_stale_temporaries(dir, &lock)
        .map_err(|e| tb_error(format!("cannot clean {shown}: {e}")))?;
    Ok(lock)
}

/// `qi tb generate --partitioned`: `run` solves every material of the
/// closure into `DIR` as this process's partitions, resumed from them,
/// and tells each material solved.
fn generate_partitioned<M: std::fmt::Display>(
    args: &GenerateArgs,
    cluster: &Cluster,
    settings: &Settings,
    run: impl FnOnce(
        &std::path::Path,
        &mut dyn FnMut(M, f64, &[WorkerStats]),
    ) -> Result<Vec<M>, GenerateDirError>,
) -> Result<(), CliError> {
    let _lock = lock_cluster_dir(&args.dir)?;
    let watch = start_on_cluster(args, cluster, settings)?;
    let shown = args.dir.display();
    let start = Instant::now();
    let solved = run(&args.dir, &mut |m, seconds, stats| {
        if let Some(watch) = &watch {
            watch.tick();
        }
        let sent: u64 = stats.iter().map(|s| s.sent).sum();
        let remote: u64 = stats.iter().map(|s| s.remote).sum();
        let reads: u64 = stats.iter().map(|s| s.reads).sum();
        let remote_reads: u64 = stats.iter().map(|s| s.remote_reads).sum();
        let rounds = stats.iter().map(|s| s.rounds).max().unwrap_or(0);
        eprintln!(
            "{m}: this process's partitions in {seconds:.2} s, {rounds} rounds; its workers read \
             {reads} values ({remote_reads} from other processes) and sent {sent} tidings \
             ({remote} to other processes)"
        );
    })
    .map_err(tb_error)?;
    if let Some(watch) = watch {
        watch.finish();
    }
    eprintln!(
        "{} materials solved in {:.1} s, this process's partitions in {shown} ({} workers in \
         all; join them with qi tb join)",
        solved.len(),
        start.elapsed().as_secs_f64(),
        cluster.workers()
    );
    Ok(())
}

/// `qi tb join`.
fn join(args: &JoinArgs) -> Result<(), CliError> {
    let shown = args.out.display();
    std::fs::create_dir_all(&args.out)
        .map_err(|e| tb_error(format!("cannot create {shown}: {e}")))?;
    let locked = |e| tb_error(format!("cannot lock {shown}/{LOCK_FILE}: {e}"));
    let lock = WriteLock::acquire(&args.out).map_err(locked)?;
    remove_stale_temporaries(&args.out, &lock)
        .map_err(|e| tb_error(format!("cannot clean {shown}: {e}")))?;
    let threads = args.threads.map_or_else(
        || {
            std::thread::available_parallelism()
                .map(|n| n.get())
                .unwrap_or(1)
        },
        |t| t as usize,
    );
    let start = Instant::now();
    let written = match args.game.game_rules()? {
        GameRules::Jungle(rules) => {
            let materials = materials_of(&args.material, args.pieces, MAX_PIECES)?;
            qi_tablebase::jungle::join_partitions(&rules, &materials, &args.parts, &args.out, |t| {
                eprintln!("{}: {} positions", t.material(), t.len())
            })
            .map_err(tb_error)?
            .len()
        }
        GameRules::FiveTigers(rules) => {
            let materials = ft_materials_of(&args.material, args.pieces, ft::MAX_PIECES)?;
            ft::join_partitions(&rules, &materials, &args.parts, &args.out, threads, |t| {
                eprintln!("{}: {} states", t.material(), t.len())
            })
            .map_err(tb_error)?
            .len()
        }
    };
    eprintln!(
        "{written} tables joined in {:.1} s into {shown}",
        start.elapsed().as_secs_f64()
    );
    Ok(())
}

fn ft_generate(args: &GenerateArgs, rules: &qi_five_tigers::Rules) -> Result<(), CliError> {
    let materials = ft_materials(args)?;
    let banned = rules.shuttle == qi_five_tigers::Shuttle::Forbidden;
    if banned && args.generator.is_none() && args.workers.is_none() && args.hosts.is_none() {
        return ft_generate_bounded(args, rules, &materials);
    }
    ft_check_memory(args, rules, &materials)?;
    if let Some(cluster) = cluster_of(args)? {
        if args.generator.is_some() {
            return Err(CliError::Usage(
                "--generator is for one process: --workers and --hosts run the retrograde \
                 rounds on timely dataflow"
                    .into(),
            ));
        }
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
    if let Some(generator) = args.generator {
        return ft_generate_with(args, rules, &materials, generator.into());
    }
    let threads = threads(args);
    let Some(_lock) = lock_dir(&args.dir, || ft_all_present(&args.dir, rules, &materials))? else {
        return Ok(());
    };
    let all = ft::closure(&materials, rules);
    let mut tb = ft::Tablebase::load_present(&args.dir, rules, &all).map_err(tb_error)?;
    let plan = tb.plan(&materials);
    let todo = plan.todo.len();
    eprintln!(
        "{todo} of {} tables to generate ({} present): about {:.1} MB of working memory for \
         the largest table in progress, the materials of one size side by side on {threads} \
         threads",
        all.len(),
        plan.present,
        plan.working_memory_per_table as f64 / 1e6,
    );
    let start = Instant::now();
    let bar = progress_bar(todo as u64, std::io::stderr().is_terminal());
    let failed: Mutex<Option<String>> = Mutex::new(None);
    let generated = tb.extend(&materials, threads, &|table| {
        if let Err(e) = qi_tablebase::save_table(&args.dir, table) {
            failed
                .lock()
                .unwrap_or_else(|e| e.into_inner())
                .get_or_insert(e.to_string());
        }
        bar.set_message(format!(
            "last {} ({} states)",
            table.material(),
            table.len()
        ));
        bar.inc(1);
    });
    bar.finish_and_clear();
    generated.map_err(tb_error)?;
    if let Some(e) = failed.into_inner().unwrap_or_else(|e| e.into_inner()) {
        return Err(tb_error(e));
    }
    eprintln!(
        "{todo} tables generated in {:.1} s into {}",
        start.elapsed().as_secs_f64(),
        args.dir.display()
    );
    Ok(())
}

/// `ft_generate` under the shuttle ban: one material at a time, each with
/// only the tables it reads in memory, in core where that fits the
/// machine's memory and out of core where it does not
/// (`ft::generate_bounded`); refused up front if a material fits neither
/// way.
fn ft_generate_bounded(
    args: &GenerateArgs,
    rules: &qi_five_tigers::Rules,
    materials: &[ft::Material],
) -> Result<(), CliError> {
    let threads = threads(args);
    let Some(_lock) = lock_dir(&args.dir, || ft_all_present(&args.dir, rules, materials))? else {
        return Ok(());
    };
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
    let result = ft::generate_bounded(
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
    );
    bar.finish_and_clear();
    result.map_err(tb_error)?;
    eprintln!(
        "{solved} tables generated in {:.1} s into {}",
        start.elapsed().as_secs_f64(),
        args.dir.display()
    );
    Ok(())
}

/// `ft_generate` with every missing (or damaged) table solved by
/// `generator`, one material after another on all the threads.
/// Refuses, before any work, a generation whose largest table still to
/// solve needs more working memory than the machine has: it could only
/// end, maybe hours in, in the kernel's out-of-memory kill (`shandong`'s
/// `4v4` needs tens of gigabytes). The machine's memory is `MemTotal` of
/// `/proc/meminfo`, or `QI_TB_MEMORY` (bytes) when set; where neither can
/// be read nothing is checked. A distributed run holds a share of each
/// table in each process and is not checked.
fn ft_check_memory(
    args: &GenerateArgs,
    rules: &qi_five_tigers::Rules,
    materials: &[ft::Material],
) -> Result<(), CliError> {
    if args.hosts.is_some() || args.workers.is_some() {
        return Ok(());
    }
    let Some(memory) = machine_memory()? else {
        return Ok(());
    };
    let largest = ft::closure(materials, rules)
        .into_iter()
        .filter(|&m| !ft::Tablebase::file_path(&args.dir, m).exists())
        .map(|m| (<FiveTigers as TableGame>::generation_memory(m, rules), m))
        .max();
    match largest {
        Some((need, m)) if need > memory => Err(CliError::Usage(format!(
            "the table {m} needs about {:.1} GB of working memory to generate, more than the \
             {:.1} GB of this machine (docs/tablebases.md): ask for fewer pieces (--pieces, \
             --material)",
            need as f64 / 1e9,
            memory as f64 / 1e9
        ))),
        _ => Ok(()),
    }
}

/// Refuses, before any work, a generation whose new files (`needed`
/// bytes) do not fit in the free room of `dir`'s file system: a disk that
/// fills shows only when a write fails, maybe hours in. The free room is
/// the file system's (statvfs, as the out-of-core Five Tigers generator
/// asks), or `QI_TB_DISK` (bytes) when set; where neither can be read
/// nothing is checked.
fn check_disk(dir: &std::path::Path, needed: u64) -> Result<(), CliError> {
    let free = match std::env::var("QI_TB_DISK") {
        Ok(text) => Some(text.trim().parse::<u64>().map_err(|_| {
            CliError::Usage(format!(
                "bad QI_TB_DISK '{text}': the free room on disk in bytes, e.g. 20000000000"
            ))
        })?),
        Err(_) => qi_tablebase::free_bytes(dir),
    };
    match free {
        Some(free) if free < needed => Err(CliError::Usage(format!(
            "the tables to generate need about {:.1} MB of disk for their files, {:.1} MB are \
             free in {}: free some room or ask for fewer pieces (--pieces, --material)",
            needed as f64 / 1e6,
            free as f64 / 1e6,
            dir.display()
        ))),
        _ => Ok(()),
    }
}

/// The machine's memory in bytes (see [`ft_check_memory`]).
fn machine_memory() -> Result<Option<u64>, CliError> {
    if let Ok(text) = std::env::var("QI_TB_MEMORY") {
        return text.trim().parse().map(Some).map_err(|_| {
            CliError::Usage(format!(
                "bad QI_TB_MEMORY '{text}': the machine's memory in bytes, e.g. 25000000000"
            ))
        });
    }
    let total = std::fs::read_to_string("/proc/meminfo")
        .ok()
        .and_then(|info| {
            let line = info.lines().find(|l| l.starts_with("MemTotal:"))?;
            line.split_whitespace().nth(1)?.parse::<u64>().ok()
        });
    Ok(total.map(|kib| kib * 1024))
}

fn ft_generate_with(
    args: &GenerateArgs,
    rules: &qi_five_tigers::Rules,
    materials: &[ft::Material],
    generator: ft::Generator,
) -> Result<(), CliError> {
    let threads = threads(args);
    let Some(_lock) = lock_dir(&args.dir, || ft_all_present(&args.dir, rules, materials))? else {
        return Ok(());
    };
    let start = Instant::now();
    let mut solved = 0;
    ft::generate_resumable(
        rules,
        materials,
        threads,
        &args.dir,
        &|_| generator,
        &mut |table, seconds, refused| {
            solved += 1;
            if let Some(e) = refused {
                eprintln!("{}: the damaged file was replaced ({e})", table.material());
            }
            eprintln!(
                "{} by the {generator:?} generator: {} slots in {seconds:.2} s",
                table.material(),
                table.len()
            );
        },
    )
    .map_err(tb_error)?;
    eprintln!(
        "{solved} tables generated in {:.1} s into {}",
        start.elapsed().as_secs_f64(),
        args.dir.display()
    );
    Ok(())
}

fn ft_probe(args: &ProbeArgs, rules: &qi_five_tigers::Rules) -> Result<(), CliError> {
    let pos = FiveTigers::from_text_lenient(&args.fen, rules)
        .map_err(|e| CliError::Fen(e.to_string()))?;
    // Read per material as needed: a position with removals owed is
    // answered through them, from the tables of what they leave.
    let tables = ft::LazyTablebase::open(&args.dir, rules).map_err(tb_error)?;
    match tables.probe_through_removals(&pos).map_err(tb_error)? {
        Some((wdl, distance)) => {
            outln!("{}", value_text(wdl, distance));
            Ok(())
        }
        None => Err(tb_error(match ft::Material::of(&pos) {
            Some(m) if pos.phase() == qi_five_tigers::Phase::Movement => match tables.refused(m) {
                Some(e) => e.to_string(),
                None if !tables.has_table(m) => {
                    format!("the material {m} is not in {}", args.dir.display())
                }
                None => format!(
                    "not a covered ending: a previous step whose way back the side to \
                         move blocks, or a removal into a material not in {}",
                    args.dir.display()
                ),
            },
            _ => "not a covered ending: the movement phase with 1 to 5 pieces a side".to_string(),
        })),
    }
}

/// `qi tb stats` of Five Tigers: one file at a time, a file of the cells
/// under the shuttle ban read a block at a time (`5v5` is 31 GB or more), so the
/// directory need not fit in memory.
fn ft_stats(args: &StatsArgs, rules: &qi_five_tigers::Rules) -> Result<(), CliError> {
    let shown = args.dir.display();
    let entries =
        std::fs::read_dir(&args.dir).map_err(|e| tb_error(format!("cannot read {shown}: {e}")))?;
    let mut files = Vec::new();
    for entry in entries {
        let path = entry
            .map_err(|e| tb_error(format!("cannot read {shown}: {e}")))?
            .path();
        if path.extension().and_then(|e| e.to_str()) == Some(<FiveTigers as TableGame>::EXTENSION) {
            let material = path
                .file_stem()
                .and_then(|s| s.to_str())
                .and_then(|s| s.parse::<ft::Material>().ok());
            files.push((material, path));
        }
    }
    if files.is_empty() {
        return Err(tb_error(format!("no tables in {shown}")));
    }
    files.sort();
    outln!(
        "material\tpositions\tcanonical\tstored\twins\tdraws\tlosses\tlongest win\t\
         longest win position"
    );
    let mut total = ft::Stats::default();
    for (_, path) in files {
        let (material, _, s) = ft::file_stats(&path, rules).map_err(tb_error)?;
        let example = s
            .longest_win_key
            .and_then(|k| ft::position_of_key(k, rules))
            .map(|p| p.to_string())
            .unwrap_or_default();
        outln!(
            "{}\t{}\t{}\t{}\t{}\t{}\t{}\t{}\t{example}",
            material,
            s.positions,
            s.canonical,
            s.stored,
            s.wins,
            s.draws,
            s.losses,
            s.longest_win
        );
        total = total.merge(s);
    }
    outln!(
        "total\t{}\t{}\t{}\t{}\t{}\t{}\t{}\t",
        total.positions,
        total.canonical,
        total.stored,
        total.wins,
        total.draws,
        total.losses,
        total.longest_win
    );
    Ok(())
}
