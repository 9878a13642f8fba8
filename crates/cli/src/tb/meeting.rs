//! `qi tb generate --hosts`: what a process of a cluster does besides the
//! generation. It meets the others before any work and refuses to start
//! unless they all run with its settings ([`meet`]); it ends with one
//! line and exit code 2 when a peer dies, is cut off or stops answering
//! in the middle of the run ([`end_on_lost_peer`]); and it says when no
//! table has finished for a while ([`Watch`]).

use std::io::Write;
use std::path::Path;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

use qi_tablebase::dataflow::Cluster;
use qi_tablebase::rendezvous::{rendezvous, set_timeout, Heartbeat, Peers};

use crate::error::CliError;

/// The default of `--connect-timeout`, in seconds
/// ([`qi_tablebase::rendezvous::DEFAULT_TIMEOUT`]).
pub const DEFAULT_CONNECT_TIMEOUT: u64 = qi_tablebase::rendezvous::DEFAULT_TIMEOUT.as_secs();

/// The default of `--peer-timeout`, in seconds
/// ([`qi_tablebase::rendezvous::DEFAULT_PEER_TIMEOUT`]).
pub const DEFAULT_PEER_TIMEOUT: u64 = qi_tablebase::rendezvous::DEFAULT_PEER_TIMEOUT.as_secs();

/// The settings every process of a cluster must share, as
/// `(name, value)`: the game and its full rules, the materials asked for,
/// the workers, the hosts, the mode, the file format and the program.
pub struct Settings<'a> {
    /// `jungle` or `five-tigers`.
    pub game: &'a str,
    /// The rules in canonical form (`jungle:datou`).
    pub rules: String,
    /// The materials asked for, in canonical form.
    pub materials: String,
    /// The table files' format versions.
    pub format: String,
    /// Workers per process.
    pub workers: usize,
    /// Whether each process keeps only its partitions.
    pub partitioned: bool,
}

impl Settings<'_> {
    fn fingerprint(&self, cluster: &Cluster) -> Vec<(String, String)> {
        let hosts = match cluster {
            Cluster::Processes { hosts, .. } => hosts.join(" "),
            Cluster::Local { .. } => String::new(),
        };
        let mode = if self.partitioned {
            "partitioned (--partitioned)"
        } else {
            "gathered (no --partitioned)"
        };
        [
            ("game", self.game.to_string()),
            ("rules", self.rules.clone()),
            ("materials", self.materials.clone()),
            ("workers per process", self.workers.to_string()),
            ("hosts", hosts),
            ("mode", mode.to_string()),
            ("table format", self.format.clone()),
            ("qi version", env!("CARGO_PKG_VERSION").to_string()),
        ]
        .into_iter()
        .map(|(n, v)| (n.to_string(), v))
        .collect()
    }
}

/// Meets the other processes of `cluster` (none for a run in one
/// process) and checks that they run with `settings`, waiting at most
/// `timeout` with a progress line now and then; a difference, a process
/// that never comes or something else on a peer's address is refused.
/// The connections to the peers, to watch them ([`end_on_lost_peer`]).
pub fn meet(cluster: &Cluster, settings: &Settings, timeout: Duration) -> Result<Peers, CliError> {
    if let Cluster::Processes { process, hosts, .. } = cluster {
        if hosts.len() > 1 {
            eprintln!(
                "process {process} of {}: meeting the other processes (--connect-timeout {} s)",
                hosts.len(),
                timeout.as_secs()
            );
        }
    }
    set_timeout(timeout);
    rendezvous(cluster, &settings.fingerprint(cluster), timeout, &|line| {
        eprintln!("{line}")
    })
    .map_err(|e| CliError::Usage(e.to_string()))
}

/// From now on, a lost peer ends the process with one line and exit code
/// 2, not a panic message and an abort, nor a wait without end: a panic
/// of timely's network threads (a peer killed or cut off: "timely
/// communication error: ..."), or the heartbeat on `peers` (a peer that
/// closed its connection without finishing its run, or that said nothing
/// for `peer_timeout`: stopped, frozen, or gone before timely connected
/// to it). The tables already written into `dir` stay (each was renamed
/// into place whole); a temporary file in progress is removed by the next
/// run. Watching ends when the heartbeat is finished or dropped.
pub fn end_on_lost_peer(dir: &Path, peers: Peers, peer_timeout: Duration) -> Heartbeat {
    let shown = dir.display().to_string();
    let previous = std::panic::take_hook();
    let said = shown.clone();
    std::panic::set_hook(Box::new(move |info| {
        let message = crate::out::panic_message(info);
        if let Some(cause) = message.strip_prefix("timely communication error: ") {
            lost_peer(cause, &said);
        }
        previous(info);
    }));
    peers.watch(peer_timeout, move |cause| lost_peer(cause, &shown))
}

/// Ends the process for a peer lost for `cause`, the tables finished kept
/// in `shown`.
fn lost_peer(cause: &str, shown: &str) -> ! {
    let _ = writeln!(
        std::io::stderr(),
        "qi: error: the cluster lost a process ({cause}); the tables finished are kept in \
         {shown}: start every process again to resume"
    );
    std::process::exit(2);
}

/// Says every `every` that no table has finished for so long: a long
/// table keeps every process of a cluster waiting, and a wait without a
/// word looks like a hang. Holds the run's [`Heartbeat`]. Stops when
/// dropped (the heartbeat too: the peers lose this process) or finished.
pub struct Watch {
    last: Arc<Mutex<Instant>>,
    stop: Arc<AtomicBool>,
    thread: Option<JoinHandle<()>>,
    heartbeat: Option<Heartbeat>,
}

impl Watch {
    /// Starts watching, holding `heartbeat` until the end.
    pub fn start(every: Duration, heartbeat: Heartbeat) -> Watch {
        let last = Arc::new(Mutex::new(Instant::now()));
        let stop = Arc::new(AtomicBool::new(false));
        let (seen, stopped) = (last.clone(), stop.clone());
        let thread = std::thread::spawn(move || {
            let mut told = Instant::now();
            while !stopped.load(Ordering::Relaxed) {
                std::thread::sleep(Duration::from_millis(100));
                let quiet = seen.lock().map_or(Duration::ZERO, |t| t.elapsed());
                if quiet >= every && told.elapsed() >= every {
                    told = Instant::now();
                    eprintln!(
                        "no table finished for {} s: still solving (every process of a cluster \
                         waits for the slowest)",
                        quiet.as_secs()
                    );
                }
            }
        });
        Watch {
            last,
            stop,
            thread: Some(thread),
            heartbeat: Some(heartbeat),
        }
    }

    /// This process's run ended well: the peers are told, so that its
    /// leaving is no loss to them.
    pub fn finish(mut self) {
        if let Some(heartbeat) = self.heartbeat.take() {
            heartbeat.finish();
        }
    }

    /// A table finished.
    pub fn tick(&self) {
        if let Ok(mut last) = self.last.lock() {
            *last = Instant::now();
        }
    }
}

impl Drop for Watch {
    fn drop(&mut self) {
        self.stop.store(true, Ordering::Relaxed);
        if let Some(thread) = self.thread.take() {
            let _ = thread.join();
        }
    }
}
