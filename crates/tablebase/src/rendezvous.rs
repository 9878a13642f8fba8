//! The processes of a cluster meet before any work: each tells process 0
//! its fingerprint (the settings every process must share: game, rules,
//! materials, workers, mode, versions), process 0 compares them with its
//! own and answers every process `ok` or why not, and only then does
//! timely connect them. timely itself checks nothing: processes that
//! disagree compute wrong tables or panic inside its exchange, and a
//! process that never comes is waited for without end.
//!
//! The meeting uses the addresses of the hosts file: process 0 listens on
//! its own (and closes it before answering, so that timely can take it
//! over), the others connect to it. Every wait is bounded by the
//! `timeout` and told by progress lines.
//!
//! The same meeting, with no settings, comes before every dataflow of a
//! cluster's run (`barrier`): timely connects its processes anew for
//! each, and waits for one that died in between without end.
//!
//! The first meeting's connections stay open for the run: the caller
//! watches the peers on them ([`Peers::watch`]).
//!
//! On the wire, text lines: the hello `qi-cluster 1`, `process=I`, one
//! `key=value` a setting, `end`; the answer `ok` or `refused<TAB>why`;
//! then the heartbeat's bytes.
//!
//! For tests only: a process whose environment has
//! `QI_TEST_CLUSTER_LEAVE_AFTER_BARRIER=N` exits (code 3) right after the
//! `N`th `barrier` (from 1) has met, before timely connects: the peer
//! that dies between the meeting and timely's connection.

use std::io::{ErrorKind, Read, Write};
use std::net::{SocketAddr, TcpListener, TcpStream, ToSocketAddrs};
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};

use crate::cluster::{Cluster, DataflowError};
pub use crate::heartbeat::{Heartbeat, Peers, DEFAULT_PEER_TIMEOUT};

/// How long a process waits for the others by default: long enough to
/// start every process of a cluster by hand, or for one to finish writing
/// a large table while the others wait at the next material's start.
pub const DEFAULT_TIMEOUT: Duration = Duration::from_secs(300);

/// The wait of [`barrier`], in seconds ([`set_timeout`]).
static TIMEOUT_SECS: AtomicU64 = AtomicU64::new(DEFAULT_TIMEOUT.as_secs());

/// Sets how long this process's `barrier`s wait for the other
/// processes (at least a second): the `--connect-timeout` of `qi tb
/// generate`.
///
/// ```
/// use std::time::Duration;
/// use qi_tablebase::rendezvous::{set_timeout, timeout};
///
/// set_timeout(Duration::from_millis(10));
/// assert_eq!(timeout(), Duration::from_secs(1)); // at least a second
/// ```
pub fn set_timeout(timeout: Duration) {
    TIMEOUT_SECS.store(timeout.as_secs().max(1), Ordering::Relaxed);
}

/// How long this process's `barrier`s wait ([`set_timeout`]).
///
/// ```
/// use std::time::Duration;
/// use qi_tablebase::rendezvous::{set_timeout, timeout, DEFAULT_TIMEOUT};
///
/// assert_eq!(timeout(), DEFAULT_TIMEOUT);
/// set_timeout(Duration::from_secs(90));
/// assert_eq!(timeout(), Duration::from_secs(90));
/// ```
pub fn timeout() -> Duration {
    Duration::from_secs(TIMEOUT_SECS.load(Ordering::Relaxed))
}

/// Meets the other processes of `cluster` before a dataflow, waiting at
/// most [`timeout`]: a process that died since the last one is an error,
/// not an endless wait in timely's connection.
pub(crate) fn barrier(cluster: &Cluster) -> Result<(), DataflowError> {
    rendezvous(cluster, &[], timeout(), &|_| {})
        .map_err(|e| DataflowError::Start(e.to_string()))?;
    leave_if_told();
    Ok(())
}

/// Barriers met so far by this process (for [`leave_if_told`]).
static BARRIERS: AtomicU64 = AtomicU64::new(0);

/// The test hook of the module's documentation: exits right after the
/// barrier `QI_TEST_CLUSTER_LEAVE_AFTER_BARRIER` names.
fn leave_if_told() {
    let met = BARRIERS.fetch_add(1, Ordering::Relaxed) + 1;
    let told = std::env::var("QI_TEST_CLUSTER_LEAVE_AFTER_BARRIER")
        .ok()
        .and_then(|v| v.parse::<u64>().ok());
    if told == Some(met) {
        eprintln!("leaving after barrier {met} (QI_TEST_CLUSTER_LEAVE_AFTER_BARRIER)");
        std::process::exit(3);
    }
}

/// The first line of a hello: the protocol and its version.
const HELLO: &str = "qi-cluster 1";

/// The most bytes a hello or an answer may have: a foreign peer that
/// sends without end is cut off there.
const MAX_MESSAGE: u64 = 64 * 1024;

/// How often a wait says that it still waits, at most.
const PROGRESS_EVERY: Duration = Duration::from_secs(10);

/// The settings a process runs with, in the order they are compared:
/// `(name, value)`, values on one line.
pub type Fingerprint = [(String, String)];

/// A process met: its connection and the settings it sent.
type Met = (TcpStream, Vec<(String, String)>);

/// Why the processes did not meet.
///
/// Process 0 of two waits a second for a process 1 that never comes:
///
/// ```
/// use std::net::TcpListener;
/// use std::time::Duration;
/// use qi_tablebase::dataflow::Cluster;
/// use qi_tablebase::rendezvous::{rendezvous, RendezvousError};
///
/// let free = || TcpListener::bind("127.0.0.1:0").unwrap().local_addr().unwrap().to_string();
/// let cluster = Cluster::Processes { threads: 1, process: 0, hosts: vec![free(), free()] };
/// let alone = rendezvous(&cluster, &[], Duration::from_secs(1), &|_| {});
/// assert!(matches!(alone, Err(RendezvousError::Timeout(_))), "{alone:?}");
/// ```
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum RendezvousError {
    /// A process runs with other settings.
    #[error(
        "process {process} runs with another {setting}: '{theirs}' there, '{ours}' at process \
         0; every process of a cluster needs the same settings"
    )]
    Mismatch {
        /// The process that differs from process 0.
        process: usize,
        /// The setting's name.
        setting: String,
        /// Its value at `process`.
        theirs: String,
        /// Its value at process 0.
        ours: String,
    },
    /// Process 0 refused the cluster for the reason given.
    #[error("process 0 refused the cluster: {0}")]
    Refused(String),
    /// A process did not come, or did not answer, in time.
    #[error("{0}")]
    Timeout(String),
    /// Something that is no process of this cluster answered or called.
    #[error("{0}")]
    Foreign(String),
    /// The network failed (an address that does not resolve, a port in
    /// use, a connection cut).
    #[error("{0}")]
    Io(String),
}

/// Meets the other processes of `cluster` and checks that they all run
/// with `fingerprint`, waiting at most `timeout` for them; `say` gets a
/// line now and then while waiting. A [`Cluster::Local`] run meets no
/// one. Every process of the cluster calls this before its first
/// dataflow; all get `Ok` or all get an error. The connections met
/// stay open in the [`Peers`] (process 0's to every other process, the
/// others' to process 0), to be watched for the run.
///
/// Two processes (threads here) that disagree on a setting both get an
/// error, and neither waits for the run:
///
/// ```
/// use std::net::TcpListener;
/// use std::time::Duration;
/// use qi_tablebase::dataflow::Cluster;
/// use qi_tablebase::rendezvous::{rendezvous, RendezvousError};
///
/// let free = || TcpListener::bind("127.0.0.1:0").unwrap().local_addr().unwrap().to_string();
/// let hosts = vec![free(), free()];
/// let process = |process: usize, rules: &str| {
///     let cluster = Cluster::Processes { threads: 1, process, hosts: hosts.clone() };
///     let fingerprint = [("rules".to_string(), rules.to_string())];
///     move || rendezvous(&cluster, &fingerprint, Duration::from_secs(60), &|_| {})
/// };
/// let other = std::thread::spawn(process(1, "datou"));
/// let here = process(0, "standard")();
/// assert!(matches!(here, Err(RendezvousError::Mismatch { process: 1, setting, .. })
///     if setting == "rules"));
/// assert!(other.join().unwrap().is_err());
///
/// // A run in one process meets no one.
/// assert!(rendezvous(&Cluster::Local { threads: 2 }, &[], Duration::ZERO, &|_| {}).is_ok());
/// ```
pub fn rendezvous(
    cluster: &Cluster,
    fingerprint: &Fingerprint,
    timeout: Duration,
    say: &dyn Fn(&str),
) -> Result<Peers, RendezvousError> {
    let (process, hosts) = match cluster {
        Cluster::Processes { process, hosts, .. } if hosts.len() > 1 && *process < hosts.len() => {
            (*process, hosts)
        }
        // One process meets no one; one outside the cluster is refused
        // by the dataflow's own check.
        _ => return Ok(Peers { links: Vec::new() }),
    };
    let meeting = Meeting {
        hosts,
        fingerprint,
        deadline: Instant::now() + timeout,
        timeout,
        say,
    };
    let links = if process == 0 {
        meeting.host()?
    } else {
        // The address timely will listen on must be free; a process that
        // cannot take it says so now, not in the middle of the run.
        drop(listen(&hosts[process])?);
        let stream = meeting.call(process)?;
        vec![(0, hosts[0].clone(), stream)]
    };
    Ok(Peers { links })
}

/// The socket addresses of `address` (timely's form: addresses apart by
/// spaces), every one it resolves to.
fn resolve(address: &str) -> Vec<SocketAddr> {
    let each = address
        .split_whitespace()
        .filter_map(|a| a.to_socket_addrs().ok());
    each.flatten().collect()
}

/// Listens on `address`, the first of its addresses that binds, without
/// blocking (process 0's wait polls it).
fn listen(address: &str) -> Result<TcpListener, RendezvousError> {
    TcpListener::bind(&resolve(address)[..])
        .and_then(|listener| listener.set_nonblocking(true).map(|()| listener))
        .map_err(|e| RendezvousError::Io(format!("cannot listen on {address}: {e}")))
}

/// One process's side of a meeting: the cluster's addresses, the
/// settings it runs with, and how long it waits (`say` hears of the
/// wait now and then).
struct Meeting<'a> {
    hosts: &'a [String],
    fingerprint: &'a Fingerprint,
    deadline: Instant,
    timeout: Duration,
    say: &'a dyn Fn(&str),
}

impl Meeting<'_> {
    /// Tries `attempt` until it gives something (`Ok`, not `Err` of what
    /// it still waits for), every 20 ms (short: a wait comes before every
    /// dataflow of a run), saying now and then what it waits for; gives up
    /// at the deadline.
    fn wait<T>(
        &self,
        mut attempt: impl FnMut() -> Result<Result<T, String>, RendezvousError>,
    ) -> Result<T, RendezvousError> {
        let mut told = Instant::now();
        // How often it says that it still waits.
        let every = (self.timeout / 4).clamp(Duration::from_secs(1), PROGRESS_EVERY);
        loop {
            let waiting = match attempt()? {
                Ok(done) => return Ok(done),
                Err(waiting) => waiting,
            };
            let now = Instant::now();
            if now >= self.deadline {
                return Err(RendezvousError::Timeout(format!(
                    "{waiting} did not come within the {} s of --connect-timeout",
                    self.timeout.as_secs()
                )));
            }
            if now.duration_since(told) >= every {
                told = now;
                (self.say)(&format!(
                    "waiting for {waiting} ({} s left of --connect-timeout)",
                    self.deadline.saturating_duration_since(now).as_secs()
                ));
            }
            std::thread::sleep(Duration::from_millis(20));
        }
    }

    /// Process 0: waits for every other process's hello, compares, answers;
    /// the links to processes 1, 2, ... in their order (process, address,
    /// connection).
    fn host(&self) -> Result<Vec<(usize, String, TcpStream)>, RendezvousError> {
        let listener = listen(&self.hosts[0])?;
        let mut met: Vec<Option<Met>> = (0..self.hosts.len()).map(|_| None).collect();
        let all_met = self.wait(|| loop {
            match listener.accept() {
                Ok((stream, from)) => match read_hello(stream, self.hosts.len(), self.deadline) {
                    Ok((p, heard)) if met[p].is_none() => met[p] = Some(heard),
                    Ok((p, (mut stream, _))) => {
                        let why = format!("two processes say they are process {p}");
                        answer_all(std::iter::once(&mut stream), &why);
                        return Err(RendezvousError::Foreign(why));
                    }
                    Err(e) => (self.say)(&format!("ignored a connection from {from}: {e}")),
                },
                Err(e) if e.kind() == ErrorKind::WouldBlock => {
                    let missing = (1..self.hosts.len()).filter(|&p| met[p].is_none());
                    let missing: Vec<String> = missing
                        .map(|p| format!("process {p} at {}", self.hosts[p]))
                        .collect();
                    return Ok(if missing.is_empty() {
                        Ok(())
                    } else {
                        Err(missing.join(", "))
                    });
                }
                Err(e) => return Err(RendezvousError::Io(format!("{}: {e}", self.hosts[0]))),
            }
        });
        let mismatch = met.iter().enumerate().find_map(|(p, m)| {
            let (_, settings) = m.as_ref()?;
            differ(settings, self.fingerprint).map(|(setting, theirs, ours)| {
                RendezvousError::Mismatch {
                    process: p,
                    setting,
                    theirs,
                    ours,
                }
            })
        });
        // Closed before the answer: timely listens on this address next, and
        // a peer's first connection must not land in this listener's queue.
        drop(listener);
        let mut links: Vec<_> = (met.into_iter().enumerate())
            .filter_map(|(p, m)| Some((p, self.hosts[p].clone(), m?.0)))
            .collect();
        if let Some(e) = all_met.err().or(mismatch) {
            answer_all(links.iter_mut().map(|l| &mut l.2), &e.to_string());
            return Err(e);
        }
        for (p, _, stream) in &mut links {
            if let Err(e) = writeln!(stream, "ok").and_then(|()| stream.flush()) {
                let why = format!("process {p} left before the start: {e}");
                return Err(RendezvousError::Io(why));
            }
        }
        Ok(links)
    }

    /// Any other process: connects to process 0, says hello, reads the
    /// answer; the connection.
    fn call(&self, process: usize) -> Result<TcpStream, RendezvousError> {
        let address = &self.hosts[0];
        let addrs = resolve(address);
        if addrs.is_empty() {
            return Err(RendezvousError::Io(format!(
                "the address of process 0, {address}, does not resolve"
            )));
        }
        let mut stream = self.wait(|| {
            let mut each = addrs
                .iter()
                .map(|a| TcpStream::connect_timeout(a, Duration::from_secs(1)));
            // What the last address said is what the wait tells.
            let mut last = String::new();
            let stream = each.find_map(|c| c.map_err(|e| last = e.to_string()).ok());
            Ok(stream.ok_or_else(|| format!("process 0 at {address} ({last})")))
        })?;
        let mut hello = format!("{HELLO}\nprocess={process}\n");
        for (name, value) in self.fingerprint {
            hello.push_str(&format!("{name}={}\n", one_line(value)));
        }
        hello.push_str("end\n");
        let io = |e: std::io::Error| {
            RendezvousError::Io(format!("process 0 at {address} cut the connection: {e}"))
        };
        stream
            .write_all(hello.as_bytes())
            .and_then(|()| stream.flush())
            .map_err(io)?;
        // Process 0 answers when every process has come: as long as its own
        // wait, which began about when this one did.
        let wait = self.deadline.saturating_duration_since(Instant::now()) + Duration::from_secs(5);
        stream.set_read_timeout(Some(wait)).map_err(io)?;
        let answer = match read_line(&stream, &mut MAX_MESSAGE.clone()) {
            Ok(answer) => answer,
            Err(e) if matches!(e.kind(), ErrorKind::WouldBlock | ErrorKind::TimedOut) => {
                return Err(RendezvousError::Timeout(format!(
                    "{address} took the connection but gave no answer within the {} s of \
                 --connect-timeout: is it a qi tb generate of this cluster?",
                    self.timeout.as_secs()
                )))
            }
            Err(e) => return Err(io(e)),
        };
        match answer.trim_end_matches(['\n', '\r']) {
            "ok" => Ok(stream),
            "" => Err(RendezvousError::Foreign(format!(
                "process 0 at {address} closed the connection without an answer: is it a qi \
             tb generate of this cluster?"
            ))),
            answer => match answer.strip_prefix("refused\t") {
                Some(why) => Err(RendezvousError::Refused(why.to_string())),
                None => Err(RendezvousError::Foreign(format!(
                    "{address} answered '{}', not as a qi tb generate of this cluster",
                    one_line(answer)
                ))),
            },
        }
    }
}

/// Tells every stream why the cluster is refused (a stream already gone
/// is skipped: its process has failed anyway).
fn answer_all<'a>(streams: impl Iterator<Item = &'a mut TcpStream>, why: &str) {
    for stream in streams {
        let _ = writeln!(stream, "refused\t{}", one_line(why));
    }
}

/// The first setting of `ours` whose value differs in `theirs` (or that
/// `theirs` lacks): `(name, their value, our value)`.
fn differ(theirs: &[(String, String)], ours: &Fingerprint) -> Option<(String, String, String)> {
    ours.iter().find_map(|(name, value)| {
        let their = theirs
            .iter()
            .find(|(n, _)| n == name)
            .map_or("(none)", |(_, v)| v.as_str());
        (their != value.as_str()).then(|| (name.clone(), their.to_string(), value.clone()))
    })
}

/// Reads a hello from a process that connected: its index (1 to
/// `processes - 1`), the stream back, its settings.
fn read_hello(
    stream: TcpStream,
    processes: usize,
    deadline: Instant,
) -> Result<(usize, Met), String> {
    // A caller that sends nothing holds the others up this long at most.
    let wait = deadline
        .saturating_duration_since(Instant::now())
        .clamp(Duration::from_secs(1), PROGRESS_EVERY);
    stream
        .set_nonblocking(false)
        .and_then(|()| stream.set_read_timeout(Some(wait)))
        .map_err(|e| e.to_string())?;
    let mut left = MAX_MESSAGE;
    let mut next = || match read_line(&stream, &mut left) {
        Ok(line) if line.is_empty() => {
            Err("it closed the connection before its hello ended".into())
        }
        Ok(line) => match line.strip_suffix('\n') {
            Some(line) => Ok(line.trim_end_matches('\r').to_string()),
            None => Err("its hello is too long".to_string()),
        },
        Err(e) => Err(format!("no qi cluster hello ({e})")),
    };
    let first = next()?;
    if first != HELLO {
        return Err(format!(
            "no qi cluster hello (its first line: '{}')",
            one_line(&first)
        ));
    }
    let (mut settings, mut process) = (Vec::new(), None);
    loop {
        let line = next()?;
        if line == "end" {
            break;
        }
        let Some((name, value)) = line.split_once('=') else {
            return Err(format!("a bad hello line '{}'", one_line(&line)));
        };
        if name == "process" {
            process = value.parse::<usize>().ok();
        } else {
            settings.push((name.to_string(), value.to_string()));
        }
    }
    match process {
        Some(p) if (1..processes).contains(&p) => Ok((p, (stream, settings))),
        _ => Err(format!(
            "its hello names no process from 1 to {}",
            processes - 1
        )),
    }
}

/// `text` on one line, at most 200 characters (what a peer sent, shown in
/// an error).
fn one_line(text: &str) -> String {
    text.chars()
        .map(|c| if c.is_control() { ' ' } else { c })
        .take(200)
        .collect()
}

/// Reads a line of `stream`, up to its end of line and not a byte
/// further (the heartbeat's bytes follow on the same connection), and at
/// most `left` bytes, counted down: empty at the end of the stream.
fn read_line(stream: &TcpStream, left: &mut u64) -> std::io::Result<String> {
    // Byte by byte: a buffered reader would take some of those too. A
    // hello or an answer is a few bytes.
    let mut line = Vec::new();
    let mut byte = [0u8; 1];
    while *left > 0 && line.last() != Some(&b'\n') {
        match (&*stream).read(&mut byte) {
            Ok(0) => break,
            Ok(_) => {
                line.push(byte[0]);
                *left -= 1;
            }
            Err(e) if e.kind() == ErrorKind::Interrupted => {}
            Err(e) => return Err(e),
        }
    }
    Ok(String::from_utf8_lossy(&line).into_owned())
}
