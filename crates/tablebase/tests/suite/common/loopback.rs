//! Several processes of one timely run as threads of this program, each
//! its own cluster member with its own TCP sockets on 127.0.0.1: the
//! network path of `dataflow` tried on one machine (the tests and the
//! `dataflow_rounds` example include this file).

// Each includer uses a part of it.
#![allow(dead_code)]

use std::sync::Arc;

use qi_tablebase::dataflow::{self, Cluster, Share};
use qi_tablebase::retrograde::RetroSlice;

#[path = "ports.rs"]
mod ports;
pub use ports::loopback_hosts;

/// `slice` solved by `processes` processes of `threads` workers: each
/// process's share, in the order of the processes.
pub fn over_tcp<S: RetroSlice + Send + Sync + 'static>(
    slice: &Arc<S>,
    processes: usize,
    threads: usize,
) -> Vec<Share> {
    let hosts = loopback_hosts(processes);
    let runs: Vec<_> = (0..processes)
        .map(|process| {
            let (slice, hosts) = (slice.clone(), hosts.clone());
            std::thread::spawn(move || {
                let cluster = Cluster::Processes {
                    threads,
                    process,
                    hosts,
                };
                dataflow::solve(slice, &cluster).expect("the run solves")
            })
        })
        .collect();
    runs.into_iter()
        .map(|r| r.join().expect("a process thread"))
        .collect()
}

/// The shares of the processes of one run as one (every part of every
/// process).
pub fn joined(shares: Vec<Share>) -> Share {
    let mut shares = shares.into_iter();
    let mut all = shares.next().expect("a process");
    all.parts.extend(shares.flat_map(|s| s.parts));
    all
}
