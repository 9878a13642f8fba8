//! `qi tb generate --workers/--hosts`: the cluster its arguments name,
//! what its processes agree on, and their meeting before the run (which
//! `generate` runs as any other plan).

use std::time::Duration;

use qi_tablebase::dataflow::Cluster;
use qi_tablebase::TableGame;

use super::generate::GenerateArgs;
use super::meeting::{self, Settings};
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
