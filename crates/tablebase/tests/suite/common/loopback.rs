//! Several processes of one timely run as threads of this program, each
//! its own cluster member with its own TCP sockets on 127.0.0.1: the
//! network path of `dataflow` tried on one machine (the tests and the
//! `dataflow_rounds` example include this file).

// Each includer uses a part of it.
#![allow(dead_code)]

use std::sync::Arc;

use qi_tablebase::dataflow::{solve_everywhere, Cluster, WorkerStats};
use qi_tablebase::retrograde::{RetroSlice, SliceValues};

#[path = "ports.rs"]
mod ports;
pub use ports::loopback_hosts;

/// What one process of a run gets: the whole slice, its workers' stats.
pub type Run = (SliceValues, Vec<WorkerStats>);

/// `slice` solved by `processes` processes of `threads` workers: what
/// each process got, in the order of the processes.
pub fn over_tcp<S: RetroSlice + Send + Sync + 'static>(
    slice: &Arc<S>,
    processes: usize,
    threads: usize,
) -> Vec<Run> {
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
                solve_everywhere(slice, &cluster).expect("the run solves")
            })
        })
        .collect();
    runs.into_iter()
        .map(|r| r.join().expect("a process thread"))
        .collect()
}

/// The processes of one run as one: the values, which every process got
/// whole and alike, and the stats of every worker.
pub fn joined(runs: Vec<Run>) -> Run {
    let mut runs = runs.into_iter();
    let (values, mut workers) = runs.next().expect("a process");
    for (theirs, stats) in runs {
        assert!(theirs == values, "every process gathers the same values");
        workers.extend(stats);
    }
    (values, workers)
}
