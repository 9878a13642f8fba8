//! The in-core solver (`retrograde::solve`) and the rounds of `dataflow`
//! (timely workers: threads of one process, and processes talking over
//! TCP on 127.0.0.1) against a naive solver written here: random move graphs
//! with holes, exits into smaller slices, cycles (draws) and terminal
//! positions, solved by scanning every position forwards, round after
//! round, until nothing changes.

use qi_tablebase::retrograde::{self, Exits, Open, RetroError, RetroSlice, SliceValues, Start};
use qi_tablebase::Wdl;

/// A random slice: forward moves kept for the naive solver, reversed for
/// the un-moves.
struct Graph {
    /// How the slots are dealt to workers ([`RetroSlice::run_shift`]).
    shift: u32,
    starts: Vec<Start>,
    successors: Vec<Vec<u64>>,
    predecessors: Vec<Vec<u64>>,
}

struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        // splitmix64
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }
    fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }
}

impl Graph {
    fn random(seed: u64, n: u64) -> Graph {
        let mut rng = Rng(seed);
        let mut starts = Vec::new();
        let mut successors = vec![Vec::new(); n as usize];
        for slot in 0..n {
            if rng.below(20) == 0 {
                starts.push(Start::Unused);
                continue;
            }
            // Mostly few moves, sometimes none (a finished game).
            let count = rng.below(5);
            let mut succ: Vec<u64> = Vec::new();
            for _ in 0..count {
                // Local moves: long chains and cycles, as in a game.
                let to = (slot + n + rng.below(9) - 4) % n;
                if to != slot && !succ.contains(&to) {
                    succ.push(to);
                }
            }
            let exits = Exits {
                shortest_lost: (rng.below(8) == 0).then(|| rng.below(12) as u16),
                longest_won: (rng.below(5) == 0).then(|| rng.below(30) as u16),
                draw: rng.below(12) == 0,
            };
            successors[slot as usize] = succ;
            starts.push(Start::Open(Open {
                successors: 0,
                exits,
            }));
        }
        // Moves into unused slots do not exist; count what is left.
        for slot in 0..n as usize {
            let succ = std::mem::take(&mut successors[slot]);
            successors[slot] = succ
                .into_iter()
                .filter(|&t| starts[t as usize] != Start::Unused)
                .collect();
            if let Start::Open(open) = &mut starts[slot] {
                open.successors = successors[slot].len() as u32;
                let moves = open.successors > 0 || open.exits != Exits::default();
                if !moves {
                    starts[slot] = Start::Decided(Wdl::Loss, 0);
                }
            }
        }
        let mut predecessors = vec![Vec::new(); n as usize];
        for (from, succ) in successors.iter().enumerate() {
            for &to in succ {
                predecessors[to as usize].push(from as u64);
            }
        }
        Graph {
            shift: (seed % 3) as u32,
            starts,
            successors,
            predecessors,
        }
    }

    /// Every position scanned forwards each round from the values of the
    /// rounds before, until a round decides nothing and no exit can still
    /// decide anything.
    fn naive(&self) -> Vec<Option<(Wdl, u16)>> {
        let n = self.starts.len();
        let mut value: Vec<Option<(Wdl, u16)>> = self
            .starts
            .iter()
            .map(|s| match s {
                Start::Decided(w, d) => Some((*w, *d)),
                _ => None,
            })
            .collect();
        let mut t: u16 = 1;
        loop {
            let before = value.clone();
            let mut changed = false;
            for i in 0..n {
                let Start::Open(open) = self.starts[i] else {
                    continue;
                };
                if before[i].is_some() {
                    continue;
                }
                let succ = &self.successors[i];
                let lost_before = succ
                    .iter()
                    .any(|&s| matches!(before[s as usize], Some((Wdl::Loss, d)) if d < t));
                let exit_won = open.exits.shortest_lost.is_some_and(|e| e < t);
                if lost_before || exit_won {
                    value[i] = Some((Wdl::Win, t));
                    changed = true;
                    continue;
                }
                let all_won = succ
                    .iter()
                    .all(|&s| matches!(before[s as usize], Some((Wdl::Win, d)) if d < t));
                let can_lose = open.exits.shortest_lost.is_none() && !open.exits.draw;
                let exits_done = open.exits.longest_won.is_none_or(|e| e < t);
                if can_lose && all_won && exits_done {
                    value[i] = Some((Wdl::Loss, t));
                    changed = true;
                }
            }
            if !changed && t > 40 {
                break;
            }
            t += 1;
        }
        (0..n)
            .map(|i| match self.starts[i] {
                Start::Unused => None,
                _ => Some(value[i].unwrap_or((Wdl::Draw, 0))),
            })
            .collect()
    }
}

impl RetroSlice for Graph {
    fn slots(&self) -> u64 {
        self.starts.len() as u64
    }
    fn start(&self, slot: u64) -> Result<Start, RetroError> {
        Ok(self.starts[slot as usize])
    }
    fn predecessors(&self, slot: u64, out: &mut Vec<u64>) {
        out.extend_from_slice(&self.predecessors[slot as usize]);
    }
    fn run_shift(&self) -> u32 {
        self.shift
    }
}

#[test]
fn a_deal_gives_every_slot_one_owner_and_place() {
    use qi_tablebase::retrograde::Deal;
    for peers in 1..6 {
        for shift in 0..4 {
            for total in [0u64, 1, 7, 64, 1001] {
                let deal = Deal::new(peers, shift);
                let counts: Vec<u64> = (0..peers).map(|o| deal.count(total, o)).collect();
                assert_eq!(counts.iter().sum::<u64>(), total, "{peers} {shift} {total}");
                for slot in 0..total {
                    let (owner, local) = (deal.owner(slot), deal.local(slot));
                    assert!(
                        (local as u64) < counts[owner],
                        "{peers} {shift} {total} {slot}"
                    );
                    assert_eq!(deal.slot(owner, local), slot);
                }
            }
        }
    }
}

fn listed(values: &SliceValues) -> Vec<Option<(Wdl, u16)>> {
    (0..values.codes.len() as u64)
        .map(|s| values.get(s))
        .collect()
}

#[test]
fn the_in_core_solver_equals_the_naive_solver() {
    let mut kinds = [0usize; 3];
    for seed in 0..40 {
        let graph = Graph::random(seed, 300 + seed * 7);
        let solved = listed(&retrograde::solve(&graph).unwrap());
        assert_eq!(solved, graph.naive(), "seed {seed}");
        for (w, _) in solved.iter().flatten() {
            kinds[*w as usize] += 1;
        }
    }
    // The graphs exercise every value.
    assert!(kinds.iter().all(|&k| k > 500), "{kinds:?}");
}

#[test]
fn a_dropped_un_move_is_caught() {
    // The check above fails when the un-moves miss one predecessor.
    struct Lossy(Graph);
    impl RetroSlice for Lossy {
        fn slots(&self) -> u64 {
            self.0.slots()
        }
        fn start(&self, slot: u64) -> Result<Start, RetroError> {
            self.0.start(slot)
        }
        fn predecessors(&self, slot: u64, out: &mut Vec<u64>) {
            let p = &self.0.predecessors[slot as usize];
            out.extend_from_slice(
                &p[..p.len().saturating_sub(usize::from(slot.is_multiple_of(17)))],
            );
        }
    }
    let graph = Graph::random(7, 600);
    let naive = graph.naive();
    let lossy = Lossy(graph);
    assert_ne!(listed(&retrograde::solve(&lossy).unwrap()), naive);
}

#[cfg(feature = "distributed")]
use crate::common::loopback;

#[cfg(feature = "distributed")]
mod distributed {
    use std::sync::Arc;

    use qi_tablebase::dataflow::{self, solve_everywhere, Cluster};

    use crate::retrograde::loopback::over_tcp;

    use super::*;

    #[test]
    fn worker_threads_give_the_one_thread_values() {
        for (seed, threads) in [(1, 1), (2, 2), (3, 3), (4, 4)] {
            let graph = Arc::new(Graph::random(seed, 2_000));
            let expected = retrograde::solve(&*graph).unwrap();
            let (values, workers) =
                solve_everywhere(graph.clone(), &Cluster::Local { threads }).unwrap();
            assert_eq!(workers.len(), threads);
            let rounds = workers[0].rounds;
            assert!(rounds > 10, "{rounds} rounds");
            assert_eq!(workers.iter().map(|w| w.remote).sum::<u64>(), 0);
            assert_eq!(values, expected, "seed {seed}, {threads} threads");
        }
    }

    #[test]
    fn processes_over_tcp_give_the_one_thread_values() {
        // Each "process" is a thread here with its own timely cluster
        // member and its own TCP connections on 127.0.0.1.
        let graph = Arc::new(Graph::random(11, 3_000));
        let expected = retrograde::solve(&*graph).unwrap();
        let runs = over_tcp(&graph, 3, 2);
        // Each process gets the whole slice and its own workers' stats.
        assert!(runs.iter().all(|(_, workers)| workers.len() == 2));
        let (values, workers) = loopback::joined(runs);
        assert!(workers.iter().map(|w| w.remote).sum::<u64>() > 0);
        assert_eq!(values, expected);
    }

    #[test]
    fn a_bad_cluster_is_refused() {
        let graph = Arc::new(Graph::random(1, 10));
        let none = solve_everywhere(graph.clone(), &Cluster::Local { threads: 0 });
        assert!(matches!(none, Err(dataflow::DataflowError::Cluster(_))));
        let outside = Cluster::Processes {
            threads: 1,
            process: 2,
            hosts: vec!["127.0.0.1:1".into(), "127.0.0.1:2".into()],
        };
        assert!(matches!(
            solve_everywhere(graph, &outside),
            Err(dataflow::DataflowError::Cluster(_))
        ));
    }
}

/// Why the dataflow run holds back early tidings: told before the round
/// before its own is settled, a tiding can decide a slot that an exit
/// scheduled for that earlier round wins sooner.
#[test]
fn a_tiding_told_before_the_round_before_it_is_settled_gives_a_longer_win() {
    use qi_tablebase::retrograde::{Ledger, News};
    // Slot 0 wins through an exit into a position lost at 0 (a win at
    // round 1), and has one successor in the slice, slot 1, lost at 1
    // (told in round 2).
    let slice = Graph {
        shift: 0,
        starts: vec![
            Start::Open(Open {
                successors: 1,
                exits: Exits {
                    shortest_lost: Some(0),
                    ..Exits::default()
                },
            }),
            Start::Decided(Wdl::Loss, 1),
        ],
        successors: vec![vec![1], vec![]],
        predecessors: vec![vec![], vec![0]],
    };
    let right = retrograde::solve(&slice).unwrap();
    assert_eq!(right.get(0), Some((Wdl::Win, 1)));

    let (mut decided, mut scheduled) = (Vec::new(), Vec::new());
    let mut early = Ledger::new(&slice, 0, 1).unwrap();
    early.settle(0, &mut decided);
    // Round 2's tiding before round 1 is settled: against the contract.
    early
        .tell(2, 0, News::Lost, &mut decided, &mut scheduled)
        .unwrap();
    early.settle(1, &mut decided);
    let values = retrograde::join_parts(2, 0, vec![early.finish()]);
    assert_eq!(values.get(0), Some((Wdl::Win, 2)));
}

/// One open slot counting `n` successors (none of which is ever told).
struct Counting(u32);

impl RetroSlice for Counting {
    fn slots(&self) -> u64 {
        1
    }
    fn start(&self, _: u64) -> Result<Start, RetroError> {
        Ok(Start::Open(Open {
            successors: self.0,
            ..Open::default()
        }))
    }
    fn predecessors(&self, _: u64, _: &mut Vec<u64>) {}
}

#[test]
fn a_slot_past_max_successors_is_refused_by_both_solvers() {
    let limit = retrograde::MAX_SUCCESSORS;
    // At the limit: solved (drawn, nothing ever tells it).
    let values = retrograde::solve(&Counting(limit)).unwrap();
    assert_eq!(values.get(0), Some((Wdl::Draw, 0)));
    assert!(retrograde::Ledger::new(&Counting(limit), 0, 1).is_ok());
    // One past it: refused by the in-core solver and by the Ledger alike.
    assert!(matches!(
        retrograde::solve(&Counting(limit + 1)),
        Err(RetroError::TooManySuccessors { slot: 0 })
    ));
    assert!(matches!(
        retrograde::Ledger::new(&Counting(limit + 1), 0, 1),
        Err(RetroError::TooManySuccessors { slot: 0 })
    ));
}

/// More slots than the in-core solver's arrays may index (2^62): refused
/// as too large before anything is allocated, naming the slice.
struct Huge;

impl RetroSlice for Huge {
    fn slots(&self) -> u64 {
        1 << 62
    }
    fn start(&self, _: u64) -> Result<Start, RetroError> {
        Ok(Start::Open(Open::default()))
    }
    fn predecessors(&self, _: u64, _: &mut Vec<u64>) {}
}

#[test]
fn a_slice_too_large_for_memory_is_refused_before_it_is_allocated() {
    match retrograde::solve(&Huge) {
        Err(RetroError::TooLarge { name }) => assert_eq!(name, "the slice"),
        other => panic!("{:?}", other.map(|v| v.codes.len())),
    }
}
