//! `qi tb generate --hosts`: what a process of a cluster does besides the
//! generation. It meets the others before any work and refuses to start
//! unless they all run with its settings ([`meet`]); it ends with one
//! line and exit code 2 when a peer fails in the middle of the run
//! ([`end_on_lost_peer`]); and it says when no table has finished for a
//! while ([`Watch`]), since a stopped peer stops every process.

use std::io::Write;
use std::path::Path;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

use qi_tablebase::dataflow::Cluster;
use qi_tablebase::rendezvous::{rendezvous, set_timeout};

use crate::error::CliError;

/// The default of `--connect-timeout`, in seconds
/// ([`qi_tablebase::rendezvous::DEFAULT_TIMEOUT`]).
pub const DEFAULT_CONNECT_TIMEOUT: u64 = qi_tablebase::rendezvous::DEFAULT_TIMEOUT.as_secs();

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
pub fn meet(cluster: &Cluster, settings: &Settings, timeout: Duration) -> Result<(), CliError> {
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

/// From now on, a panic of timely's network threads (a peer killed or
/// cut off: "timely communication error: ...") ends the process with one
/// line and exit code 2, not a panic message and an abort. The tables
/// already written into `dir` stay (each was renamed into place whole);
/// a temporary file in progress is removed by the next run.
pub fn end_on_lost_peer(dir: &Path) {
    let shown = dir.display().to_string();
    let previous = std::panic::take_hook();
    std::panic::set_hook(Box::new(move |info| {
        let message = crate::out::panic_message(info);
        if let Some(cause) = message.strip_prefix("timely communication error: ") {
            let _ = writeln!(
                std::io::stderr(),
                "qi: error: the cluster lost a process ({cause}); the tables finished are kept \
                 in {shown}: start every process again to resume"
            );
            std::process::exit(2);
        }
        previous(info);
    }));
}

/// Says every `every` that no table has finished for so long: a stopped
/// peer (or a long table) keeps every process of a cluster waiting, and a
/// wait without a word looks like a hang. Stops when dropped.
pub struct Watch {
    last: Arc<Mutex<Instant>>,
    stop: Arc<AtomicBool>,
    thread: Option<JoinHandle<()>>,
}

impl Watch {
    /// Starts watching.
    pub fn start(every: Duration) -> Watch {
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
                        "no table finished for {} s: still solving (a process of the cluster \
                         that is stopped or unreachable holds up all of them)",
                        quiet.as_secs()
                    );
                }
            }
        });
        Watch {
            last,
            stop,
            thread: Some(thread),
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
