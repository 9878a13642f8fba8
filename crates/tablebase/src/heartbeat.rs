//! The processes of a cluster keep the connections of their first meeting
//! ([`crate::rendezvous::rendezvous`]) open for the whole run and beat on
//! them: a byte every second or so both ways, process 0 with each other
//! process. timely itself notices a peer only when its connection breaks:
//! a peer that is stopped (SIGSTOP, a frozen machine) or that dies before
//! timely has connected to it is waited for without end. Here a peer
//! that closes its connection without saying goodbye is lost at once, and
//! one that says nothing for the peer timeout is lost then; the caller's
//! `lost` is told which and why.
//!
//! A process that is not process 0 watches process 0 only: when process 0
//! loses another process it ends, and its connection's close tells the
//! rest.

use std::io::{ErrorKind, Read, Write};
use std::net::{Shutdown, TcpStream};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError, Sender};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

/// How long a process waits by default for a word from a peer before it
/// declares the peer lost: long beside a beat (a second), a loaded
/// machine's pause or a short network cut, short beside a wait that looks
/// like a hang to whoever started the run.
pub const DEFAULT_PEER_TIMEOUT: Duration = Duration::from_secs(60);

/// What a beat sends: the peer is alive.
const BEAT: u8 = b'.';

/// What a process that finished its run sends last: its close is no loss.
const BYE: u8 = b'!';

/// The connections to the peers a process watches, from its first
/// meeting: `(process, address, connection)`.
///
/// Two processes (threads here) meet, then watch each other; process 1
/// fails (its [`Heartbeat`] is dropped, as when the process dies) and
/// process 0 is told at once:
///
/// ```
/// use std::net::TcpListener;
/// use std::sync::mpsc;
/// use std::time::Duration;
/// use qi_tablebase::dataflow::Cluster;
/// use qi_tablebase::rendezvous::{rendezvous, Peers};
///
/// let free = || TcpListener::bind("127.0.0.1:0").unwrap().local_addr().unwrap().to_string();
/// let hosts = vec![free(), free()];
/// let meet = |process: usize| {
///     let cluster = Cluster::Processes { threads: 1, process, hosts: hosts.clone() };
///     move || rendezvous(&cluster, &[], Duration::from_secs(60), &|_| {}).unwrap()
/// };
/// let other = std::thread::spawn(meet(1));
/// let peers: Peers = meet(0)();
/// let (tell, told) = mpsc::channel();
/// let watching = peers.watch(Duration::from_secs(60), move |why| tell.send(why.to_string()).unwrap());
/// drop(other.join().unwrap().watch(Duration::from_secs(60), |_| {}));
/// let why = told.recv_timeout(Duration::from_secs(60)).unwrap();
/// assert!(why.starts_with("process 1 at 127.0.0.1:"), "{why}");
/// watching.finish();
/// ```
#[derive(Debug)]
pub struct Peers {
    pub(crate) links: Vec<(usize, String, TcpStream)>,
}

impl Peers {
    /// Beats on every connection, in a thread of its own, and tells
    /// `lost` (once, from that thread) why a peer is lost: its connection
    /// closed without a goodbye or cut, or nothing heard from it for
    /// `timeout` (at least 100 ms). A dataflow cannot be cancelled: a
    /// process whose `lost` returns goes on waiting for the peer, so
    /// `lost` should end the process. Watching stops when the
    /// [`Heartbeat`] is finished or dropped.
    ///
    /// A run in one process has no peer: nothing to watch, nothing lost.
    ///
    /// ```
    /// use std::time::Duration;
    /// use qi_tablebase::dataflow::Cluster;
    /// use qi_tablebase::rendezvous::rendezvous;
    ///
    /// let peers = rendezvous(&Cluster::Local { threads: 2 }, &[], Duration::ZERO, &|_| {})?;
    /// let heartbeat = peers.watch(Duration::from_secs(60), |why| panic!("lost: {why}"));
    /// heartbeat.finish();
    /// # Ok::<(), qi_tablebase::rendezvous::RendezvousError>(())
    /// ```
    pub fn watch(self, timeout: Duration, lost: impl FnOnce(&str) + Send + 'static) -> Heartbeat {
        let timeout = timeout.max(Duration::from_millis(100));
        let (stop, stopped) = mpsc::channel();
        let links = self.links;
        let thread = std::thread::Builder::new()
            .name("qi-heartbeat".into())
            .spawn(move || beat(links, timeout, stopped, lost))
            .ok();
        Heartbeat {
            stop: Some(stop),
            thread,
        }
    }
}

/// Watches the peers of a cluster ([`Peers::watch`]) until finished
/// ([`Heartbeat::finish`]: the peers are told that this process ends
/// well) or dropped (its connections close: the peers lose this process,
/// as when it fails).
///
/// A process that finishes says goodbye: its peer sees the connection
/// close and is told nothing.
///
/// ```
/// use std::net::TcpListener;
/// use std::sync::mpsc;
/// use std::time::Duration;
/// use qi_tablebase::dataflow::Cluster;
/// use qi_tablebase::rendezvous::{rendezvous, Heartbeat};
///
/// let free = || TcpListener::bind("127.0.0.1:0").unwrap().local_addr().unwrap().to_string();
/// let hosts = vec![free(), free()];
/// let (tell, told) = mpsc::channel();
/// let run = |process: usize| {
///     let cluster = Cluster::Processes { threads: 1, process, hosts: hosts.clone() };
///     let tell = tell.clone();
///     move || -> Heartbeat {
///         let peers = rendezvous(&cluster, &[], Duration::from_secs(60), &|_| {}).unwrap();
///         peers.watch(Duration::from_secs(60), move |why| tell.send(why.to_string()).unwrap())
///     }
/// };
/// let other = std::thread::spawn(run(1));
/// let here = run(0)();
/// other.join().unwrap().finish();
/// std::thread::sleep(Duration::from_millis(300)); // process 0 reads the goodbye
/// here.finish();
/// drop(tell);
/// assert_eq!(told.recv().ok(), None, "no process was lost");
/// ```
#[derive(Debug)]
pub struct Heartbeat {
    /// Stops the thread, saying goodbye (`true`) or not; dropped, stops
    /// it without.
    stop: Option<Sender<bool>>,
    thread: Option<JoinHandle<()>>,
}

impl Heartbeat {
    /// Stops watching and says goodbye to every peer: this process's run
    /// is over, and its connections' close is no loss.
    ///
    /// ```
    /// use std::time::Duration;
    /// use qi_tablebase::dataflow::Cluster;
    /// use qi_tablebase::rendezvous::rendezvous;
    ///
    /// let peers = rendezvous(&Cluster::Local { threads: 1 }, &[], Duration::ZERO, &|_| {})?;
    /// peers.watch(Duration::from_secs(60), |why| panic!("{why}")).finish(); // returns once stopped
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn finish(mut self) {
        if let Some(stop) = self.stop.take() {
            let _ = stop.send(true);
        }
    }
}

impl Drop for Heartbeat {
    fn drop(&mut self) {
        self.stop.take();
        if let Some(thread) = self.thread.take() {
            let _ = thread.join();
        }
    }
}

/// One peer watched.
struct Link {
    process: usize,
    address: String,
    stream: TcpStream,
    /// When a byte last came from it.
    heard: Instant,
    /// It said goodbye: its close is no loss.
    left: bool,
}

/// The heartbeat's thread: beats, listens, and calls `lost` at the first
/// loss (then ends), until told to `stop` (and whether to say goodbye).
fn beat(
    links: Vec<(usize, String, TcpStream)>,
    timeout: Duration,
    stop: Receiver<bool>,
    lost: impl FnOnce(&str),
) {
    let now = Instant::now();
    let mut links: Vec<Link> = links
        .into_iter()
        .filter(|(_, _, s)| s.set_nonblocking(true).is_ok())
        .map(|(process, address, stream)| Link {
            process,
            address,
            stream,
            heard: now,
            left: false,
        })
        .collect();
    let every = (timeout / 4).clamp(Duration::from_millis(25), Duration::from_secs(1));
    let mut next_beat = now;
    let bye = loop {
        let now = Instant::now();
        let beat_now = now >= next_beat;
        if beat_now {
            next_beat = now + every;
        }
        for link in links.iter_mut().filter(|l| !l.left) {
            if let Err(why) = listen(link, beat_now, timeout) {
                lost(&why);
                return;
            }
        }
        match stop.recv_timeout(every.min(Duration::from_millis(100))) {
            Ok(bye) => break bye,
            Err(RecvTimeoutError::Timeout) => {}
            Err(RecvTimeoutError::Disconnected) => break false,
        }
    };
    for link in &mut links {
        if bye {
            let _ = link.stream.set_nonblocking(false);
            let _ = link.stream.set_write_timeout(Some(Duration::from_secs(1)));
            let _ = link.stream.write_all(&[BYE]);
        }
        let _ = link.stream.shutdown(Shutdown::Both);
    }
}

/// Beats on `link` if `beat_now`, reads what came, and says why the peer
/// is lost if it is.
fn listen(link: &mut Link, beat_now: bool, timeout: Duration) -> Result<(), String> {
    let who = format!("process {} at {}", link.process, link.address);
    // A process that ends with beats unread resets its connections.
    let cut = |e: std::io::Error| match e.kind() {
        ErrorKind::ConnectionReset | ErrorKind::ConnectionAborted | ErrorKind::BrokenPipe => {
            format!("{who} left (its connection was reset)")
        }
        _ => format!("{who} cut the connection ({e})"),
    };
    if beat_now {
        match link.stream.write(&[BEAT]) {
            // A full buffer is a peer that does not read: its silence
            // tells the rest.
            Ok(_) => {}
            Err(e) if matches!(e.kind(), ErrorKind::WouldBlock | ErrorKind::Interrupted) => {}
            Err(e) => return Err(cut(e)),
        }
    }
    let mut buf = [0u8; 64];
    loop {
        match link.stream.read(&mut buf) {
            Ok(0) => return Err(format!("{who} left (its connection closed)")),
            Ok(n) => {
                link.heard = Instant::now();
                if buf[..n].contains(&BYE) {
                    link.left = true;
                    return Ok(());
                }
            }
            Err(e) if e.kind() == ErrorKind::WouldBlock => break,
            Err(e) if e.kind() == ErrorKind::Interrupted => {}
            Err(e) => return Err(cut(e)),
        }
    }
    if link.heard.elapsed() > timeout {
        return Err(format!(
            "{who} has not answered for {} s of --peer-timeout: it is stopped, or cut off",
            timeout.as_secs_f64()
        ));
    }
    Ok(())
}
