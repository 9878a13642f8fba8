//! Where the workers of a distributed run are ([`Cluster`]) and why such
//! a run fails ([`DataflowError`]): what the dataflow and the meeting of
//! a cluster's processes (`rendezvous`) both need, apart from either.

use crate::retrograde::RetroError;

/// Where the workers of a run are.
///
/// The same slice solved by 1 and by 3 worker threads of this process:
///
/// ```
/// # use qi_tablebase::retrograde::{RetroError, RetroSlice, Start, Open};
/// # use qi_tablebase::Wdl;
/// # struct Line(u64);
/// # impl RetroSlice for Line {
/// #     fn slots(&self) -> u64 { self.0 }
/// #     fn start(&self, slot: u64) -> Result<Start, RetroError> {
/// #         Ok(if slot == 0 { Start::Decided(Wdl::Loss, 0) }
/// #            else { Start::Open(Open { successors: 1, ..Open::default() }) })
/// #     }
/// #     fn predecessors(&self, slot: u64, out: &mut Vec<u64>) {
/// #         if slot + 1 < self.0 { out.push(slot + 1) }
/// #     }
/// # }
/// use std::sync::Arc;
/// use qi_tablebase::dataflow::{solve_everywhere, Cluster};
///
/// // `Line(n)`: from slot `k` one move to `k − 1`; slot 0 has lost.
/// let slice = Arc::new(Line(20));
/// let one = solve_everywhere(slice.clone(), &Cluster::Local { threads: 1 })?;
/// let three = solve_everywhere(slice.clone(), &Cluster::Local { threads: 3 })?;
/// assert_eq!(three.1.len(), 3); // each worker's stats
/// assert_eq!(one.0, three.0);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Cluster {
    /// `threads` workers in this process.
    Local {
        /// Worker threads.
        threads: usize,
    },
    /// Process `process` of `hosts.len()` (one line `host:port` each, in
    /// the order of the processes), each with `threads` workers.
    Processes {
        /// Worker threads per process.
        threads: usize,
        /// This process's index in `hosts`.
        process: usize,
        /// Every process's address, `host:port`.
        hosts: Vec<String>,
    },
}

impl Cluster {
    /// Process `process` of the cluster whose hosts file is `text`: one
    /// `host:port` a line in the order of the processes (blank lines
    /// skipped, `#` starts a comment to the end of its line), each process
    /// with `threads` workers.
    ///
    /// ```
    /// use qi_tablebase::dataflow::Cluster;
    ///
    /// let hosts = "# the cluster\n10.0.0.1:2101 # the first\n10.0.0.2:2101\n";
    /// let cluster = Cluster::from_hosts(hosts, 1, 2).unwrap();
    /// assert_eq!(cluster.workers(), 4);
    /// assert!(Cluster::from_hosts(hosts, 2, 2).is_err()); // no third host
    /// assert!(Cluster::from_hosts("10.0.0.1\n", 0, 1).is_err()); // no port
    /// ```
    pub fn from_hosts(
        text: &str,
        process: usize,
        threads: usize,
    ) -> Result<Cluster, DataflowError> {
        let mut hosts = Vec::new();
        for (i, line) in text.lines().enumerate() {
            // A comment runs from `#` to the end of the line, after an
            // address too (no address holds a `#`).
            let line = line.split('#').next().unwrap_or_default().trim();
            if line.is_empty() {
                continue;
            }
            let port = line
                .rsplit_once(':')
                .map(|(host, port)| (host, port.parse::<u16>()));
            match port {
                Some((host, Ok(_))) if !host.is_empty() => hosts.push(line.to_string()),
                _ => {
                    return Err(DataflowError::Cluster(format!(
                        "line {} of the hosts file, '{line}': expected host:port",
                        i + 1
                    )))
                }
            }
        }
        if hosts.is_empty() {
            return Err(DataflowError::Cluster(
                "the hosts file names no host".into(),
            ));
        }
        let cluster = Cluster::Processes {
            threads,
            process,
            hosts,
        };
        cluster.check()?;
        Ok(cluster)
    }

    /// Refuses a cluster with no worker or with this process outside it.
    pub(crate) fn check(&self) -> Result<(), DataflowError> {
        if self.workers() == 0 {
            return Err(DataflowError::Cluster("no worker threads".into()));
        }
        if let Cluster::Processes { process, hosts, .. } = self {
            if *process >= hosts.len() {
                return Err(DataflowError::Cluster(format!(
                    "process {process} of a cluster of {} hosts (processes count from 0)",
                    hosts.len()
                )));
            }
        }
        Ok(())
    }

    /// Every worker of the run, all processes.
    ///
    /// ```
    /// use qi_tablebase::dataflow::Cluster;
    ///
    /// let hosts = vec!["a:2101".to_string(), "b:2101".to_string(), "c:2101".to_string()];
    /// let cluster = Cluster::Processes { threads: 4, process: 1, hosts };
    /// assert_eq!(cluster.workers(), 12);
    /// assert_eq!(cluster.local_workers(), 4..8);
    /// assert_eq!(Cluster::Local { threads: 2 }.workers(), 2);
    /// ```
    pub fn workers(&self) -> usize {
        match self {
            Cluster::Local { threads } => *threads,
            Cluster::Processes { threads, hosts, .. } => threads * hosts.len(),
        }
    }

    /// The global indices of this process's workers.
    ///
    /// ```
    /// use qi_tablebase::dataflow::Cluster;
    ///
    /// let hosts = vec!["a:2101".to_string(), "b:2101".to_string()];
    /// let cluster = Cluster::Processes { threads: 3, process: 1, hosts };
    /// assert_eq!(cluster.local_workers(), 3..6);
    /// ```
    pub fn local_workers(&self) -> std::ops::Range<usize> {
        match self {
            Cluster::Local { threads } => 0..*threads,
            Cluster::Processes {
                threads, process, ..
            } => threads * process..threads * (process + 1),
        }
    }
}

/// A distributed run that failed.
///
/// ```
/// # use qi_tablebase::retrograde::{RetroError, RetroSlice, Start, Open};
/// # use qi_tablebase::Wdl;
/// # struct Line(u64);
/// # impl RetroSlice for Line {
/// #     fn slots(&self) -> u64 { self.0 }
/// #     fn start(&self, slot: u64) -> Result<Start, RetroError> {
/// #         Ok(if slot == 0 { Start::Decided(Wdl::Loss, 0) }
/// #            else { Start::Open(Open { successors: 1, ..Open::default() }) })
/// #     }
/// #     fn predecessors(&self, slot: u64, out: &mut Vec<u64>) {
/// #         if slot + 1 < self.0 { out.push(slot + 1) }
/// #     }
/// # }
/// use std::sync::Arc;
/// use qi_tablebase::dataflow::{solve_everywhere, Cluster, DataflowError};
///
/// let none = solve_everywhere(Arc::new(Line(3)), &Cluster::Local { threads: 0 });
/// assert!(matches!(none, Err(DataflowError::Cluster(_))));
/// let hosts = vec!["127.0.0.1:1".to_string()];
/// let outside = Cluster::Processes { threads: 1, process: 1, hosts };
/// assert!(matches!(solve_everywhere(Arc::new(Line(3)), &outside), Err(DataflowError::Cluster(_))));
/// ```
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum DataflowError {
    /// The cluster is not one: no worker, or this process not among the
    /// hosts.
    #[error("bad cluster: {0}")]
    Cluster(String),
    /// timely could not start (an address that does not resolve, a port
    /// in use, a peer that never connected).
    #[error("the dataflow could not start: {0}")]
    Start(String),
    /// A worker stopped with an error or a panic.
    #[error("a worker failed: {0}")]
    Worker(String),
    /// The slice itself cannot be solved.
    #[error(transparent)]
    Retro(#[from] RetroError),
}
