//! `qi tb generate --workers/--hosts`: a generation on timely dataflow
//! workers, whole tables or partitions, one process of a cluster.

use std::time::{Duration, Instant};

use qi_tablebase::dataflow::{Cluster, WorkerStats};
use qi_tablebase::{FormatError, GenerateDirError, TableGame};

use super::generate::GenerateArgs;
use super::meeting::{self, Settings};
use super::tb_error;
use crate::error::CliError;

/// The cluster `--workers`, `--hosts` and `--process` ask for, if any.
pub(super) fn cluster_of(args: &GenerateArgs) -> Result<Option<Cluster>, CliError> {
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
pub(super) fn settings<G: TableGame>(
    args: &GenerateArgs,
    cluster: &Cluster,
    rules: String,
) -> Settings<'static> {
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
        format: qi_tablebase::format_line(G::NAME),
        workers: cluster.local_workers().len(),
        partitioned: args.partitioned,
    }
}

/// What a process of a cluster does before its run, once it holds its
/// directory: it meets the others (all with `settings`, or none starts),
/// then watches them and turns a lost peer into one line and exit code 2,
/// and says when the run is quiet for a while.
pub(super) fn start_on_cluster(
    args: &GenerateArgs,
    cluster: &Cluster,
    settings: &Settings,
) -> Result<Option<meeting::Watch>, CliError> {
    let Cluster::Processes { .. } = cluster else {
        return Ok(None);
    };
    let timeout = Duration::from_secs(args.connect_timeout);
    let peers = meeting::meet(cluster, settings, timeout)?;
    let peer_timeout = Duration::from_secs(args.peer_timeout);
    let heartbeat = meeting::end_on_lost_peer(&args.dir, peers, peer_timeout);
    Ok(Some(meeting::Watch::start(timeout, heartbeat)))
}

/// `qi tb generate` on timely dataflow workers: `run` generates every
/// material of the closure into `DIR`, resumed from its files, and tells
/// each table written.
pub(super) fn generate_on_cluster<G: TableGame>(
    args: &GenerateArgs,
    cluster: &Cluster,
    settings: &Settings,
    run: impl FnOnce(
        &std::path::Path,
        &mut dyn FnMut(&qi_tablebase::Table<G>, f64, Option<&FormatError>, &[WorkerStats]),
    ) -> Result<qi_tablebase::Tablebase<G>, GenerateDirError>,
) -> Result<(), CliError> {
    let shown = args.dir.display();
    let watch = start_on_cluster(args, cluster, settings)?;
    let start = Instant::now();
    let mut solved = 0;
    run(&args.dir, &mut |table, seconds, refused, stats| {
        if let Some(watch) = &watch {
            watch.tick();
        }
        if let Some(e) = refused {
            eprintln!(
                "{}: the file was refused ({e}), solved again",
                table.material()
            );
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
        let t = WorkerStats::total(stats);
        eprintln!(
            "{}: {} states in {seconds:.2} s, {} rounds; this process's workers sent {} tidings, \
             {} to other processes",
            table.material(),
            table.len(),
            t.rounds,
            t.sent,
            t.remote
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

/// `qi tb generate --partitioned`: `run` solves every material of the
/// closure into `DIR` as this process's partitions, resumed from them,
/// and tells each material solved.
pub(super) fn generate_partitioned<M: std::fmt::Display>(
    args: &GenerateArgs,
    cluster: &Cluster,
    settings: &Settings,
    run: impl FnOnce(
        &std::path::Path,
        &mut dyn FnMut(M, f64, &[WorkerStats]),
    ) -> Result<Vec<M>, GenerateDirError>,
) -> Result<(), CliError> {
    let watch = start_on_cluster(args, cluster, settings)?;
    let shown = args.dir.display();
    let start = Instant::now();
    let solved = run(&args.dir, &mut |m, seconds, stats| {
        if let Some(watch) = &watch {
            watch.tick();
        }
        let t = WorkerStats::total(stats);
        eprintln!(
            "{m}: this process's partitions in {seconds:.2} s, {} rounds; its workers read {} \
             values ({} from other processes) and sent {} tidings ({} to other processes)",
            t.rounds, t.reads, t.remote_reads, t.sent, t.remote
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
