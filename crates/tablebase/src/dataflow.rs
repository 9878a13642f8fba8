//! The rounds of [`crate::retrograde`] on timely dataflow: many worker
//! threads, in one process or in several over TCP.
//!
//! Worker `w` of `n` owns the slots `w, w + n, w + 2n, ...` (a
//! [`Ledger`] of them). Its one operator sits in a loop whose timestamps
//! are the rounds: at round `t`, once timely's progress tracking says that
//! every tiding of round `t` has arrived from every worker, it plays the
//! round, un-moves the positions it decided, and sends each predecessor's
//! tiding to the predecessor's owner for round `t + 1` (timely's
//! `Exchange` by slot). A round with nothing to tell but something
//! scheduled later (a loss held back by a long losing exit, a win by an
//! exit) is reached by a notification the operator asks for; when no
//! worker has anything in flight or scheduled, the loop ends (the fixed
//! point) and each worker hands back its partition.

use std::cell::RefCell;
use std::collections::{BTreeMap, BTreeSet};
use std::rc::Rc;
use std::sync::Arc;

use timely::communication::{Allocator, Config as CommunicationConfig};
use timely::dataflow::channels::pact::Exchange;
use timely::dataflow::operators::generic::operator::Operator;
use timely::dataflow::operators::{ConnectLoop, Exchange as _, Feedback, Inspect, ToStream};
use timely::worker::Worker;
use timely::WorkerConfig;

pub use crate::cluster::{Cluster, DataflowError};
use crate::format::write::read_at;
use crate::retrograde::{
    join_parts, Deal, Fetched, Ledger, News, ReadRecorder, ReadingSlice, RetroError, RetroSlice,
    SliceValues, Start, UNUSED,
};
use crate::round;
use crate::value::Wdl;

/// What one worker did.
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
/// let (_, workers) = solve_everywhere(Arc::new(Line(9)), &Cluster::Local { threads: 2 })?;
/// for stats in &workers {
///     assert!(stats.rounds > 0);
///     assert_eq!(stats.remote, 0, "one process: nothing over the network");
///     assert_eq!(stats.reads, 0, "the slice reads no smaller slice");
/// }
/// // Each slot but the last has one predecessor to tell.
/// assert_eq!(workers.iter().map(|w| w.sent).sum::<u64>(), 8);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct WorkerStats {
    /// Rounds it played.
    pub rounds: u32,
    /// Tidings it sent.
    pub sent: u64,
    /// Of those, to workers of other processes (what the network carried,
    /// 9 bytes each before timely's framing).
    pub remote: u64,
    /// Distinct values of smaller slices its starts read from their
    /// owners ([`solve_reading`]; 0 otherwise).
    pub reads: u64,
    /// Of those, owned by workers of other processes (a request of 16
    /// bytes and an answer of 15 each before timely's framing).
    pub remote_reads: u64,
}

impl WorkerStats {
    /// The stats of `workers` together: the most rounds any played, the
    /// tidings and reads of all.
    ///
    /// ```
    /// use qi_tablebase::dataflow::WorkerStats;
    ///
    /// let a = WorkerStats { rounds: 3, sent: 5, remote: 1, reads: 2, remote_reads: 0 };
    /// let b = WorkerStats { rounds: 4, sent: 1, remote: 0, reads: 1, remote_reads: 1 };
    /// let all = WorkerStats::total(&[a, b]);
    /// assert_eq!((all.rounds, all.sent, all.remote, all.reads, all.remote_reads), (4, 6, 1, 3, 1));
    /// ```
    pub fn total(workers: &[WorkerStats]) -> WorkerStats {
        workers
            .iter()
            .fold(WorkerStats::default(), |t, w| WorkerStats {
                rounds: t.rounds.max(w.rounds),
                sent: t.sent + w.sent,
                remote: t.remote + w.remote,
                reads: t.reads + w.reads,
                remote_reads: t.remote_reads + w.remote_reads,
            })
    }
}

/// This process's share of a solved slice.
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
/// # use qi_tablebase::retrograde::{ReadingSlice, Reader, Source};
/// # impl ReadingSlice for Line {
/// #     fn sources(&self) -> Vec<Source> { Vec::new() }
/// #     fn start_reading(&self, slot: u64, _: &dyn Reader) -> Result<Start, RetroError> {
/// #         self.start(slot)
/// #     }
/// # }
/// use std::sync::Arc;
/// use qi_tablebase::dataflow::{solve_reading, Cluster, Held, READ_CHUNK};
///
/// // Runs of 2^0 slots dealt to 2 workers: the even slots to worker 0.
/// let cluster = Cluster::Local { threads: 2 };
/// let share = solve_reading(Arc::new(Line(5)), &cluster, Arc::new(Held::new(0)), READ_CHUNK)?;
/// assert_eq!((share.workers, share.shift), (2, 0));
/// let (owner, codes, distances, _) = &share.parts[0];
/// assert_eq!(*owner, 0);
/// // Slots 0, 2, 4: lost at once, lost in 2, lost in 4 (code 0: loss).
/// assert_eq!((codes.as_slice(), distances.as_slice()), (&[0, 0, 0][..], &[0, 2, 4][..]));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Share {
    /// Workers of the whole run.
    pub workers: usize,
    /// The slice's [`RetroSlice::run_shift`]: how its slots were dealt.
    pub shift: u32,
    /// `(global worker index, codes, distances, stats)` of this process's
    /// workers: partition `index` of `workers`, by local slot.
    pub parts: Vec<(usize, Vec<u8>, Vec<u16>, WorkerStats)>,
}

impl Share {
    /// The whole slice of `total` slots, when this process ran every
    /// worker (a [`Cluster::Local`] run) or the parts of all processes
    /// were put together first; `None` when a partition is missing.
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
    /// # use qi_tablebase::retrograde::{ReadingSlice, Reader, Source};
    /// # impl ReadingSlice for Line {
    /// #     fn sources(&self) -> Vec<Source> { Vec::new() }
    /// #     fn start_reading(&self, slot: u64, _: &dyn Reader) -> Result<Start, RetroError> {
    /// #         self.start(slot)
    /// #     }
    /// # }
    /// use std::sync::Arc;
    /// use qi_tablebase::dataflow::{solve_reading, Cluster, Held, READ_CHUNK};
    ///
    /// let cluster = Cluster::Local { threads: 2 };
    /// let share = solve_reading(Arc::new(Line(4)), &cluster, Arc::new(Held::new(0)), READ_CHUNK)?;
    /// let values = share.into_values(4).unwrap();
    /// assert_eq!(values.get(3), Some((Wdl::Win, 3)));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn into_values(mut self, total: u64) -> Option<SliceValues> {
        self.parts.sort_by_key(|p| p.0);
        let complete = self.parts.len() == self.workers
            && self.parts.iter().enumerate().all(|(k, p)| p.0 == k);
        complete.then(|| {
            join_parts(
                total,
                self.shift,
                self.parts.into_iter().map(|(_, c, d, _)| (c, d)).collect(),
            )
        })
    }
}

/// Solves `slice` with the workers of `cluster`, then gathers the
/// values: every process of a [`Cluster::Processes`] run calls this with
/// the same slice, and each gets the whole slice (what the next slices'
/// starts read, so that each process can go on alone and keep every
/// finished table) and the stats of its own workers. The gathering
/// sends each slot's value once to each process: 11 bytes a slot and
/// process.
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
/// let (values, stats) = solve_everywhere(Arc::new(Line(9)), &Cluster::Local { threads: 3 })?;
/// assert_eq!(values.get(8), Some((Wdl::Loss, 8)));
/// assert_eq!(values, qi_tablebase::retrograde::solve(&Line(9))?);
/// assert_eq!(stats.len(), 3);
/// assert_eq!(stats.iter().map(|s| s.sent).sum::<u64>(), 8); // one tiding a move
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn solve_everywhere<S: RetroSlice + Send + Sync + 'static>(
    slice: Arc<S>,
    cluster: &Cluster,
) -> Result<(SliceValues, Vec<WorkerStats>), DataflowError> {
    let gathered = run(cluster, move |worker, threads| {
        let ledger = Ledger::new(&*slice, worker.index(), worker.peers());
        let part = play_rounds(&slice, threads, worker, (ledger, WorkerStats::default()));
        Ok(gather(&*slice, threads, worker, part)?)
    })?;
    let (stats, values): (Vec<_>, Vec<_>) = gathered.into_iter().unzip();
    let values = values.into_iter().flatten().next();
    let values =
        values.ok_or_else(|| DataflowError::Worker("no worker gathered the values".into()))?;
    Ok((values, stats))
}

/// For each of `flags`, whether any process of `cluster` set it: every
/// process calls this with its own flags, as many on each, and all get
/// the same answer. What a resuming cluster needs: a slice that any
/// process lacks must be solved by all, since its slots are dealt over
/// every worker (a process that skipped it would leave the others
/// waiting for its share).
///
/// ```
/// use qi_tablebase::dataflow::{any_everywhere, Cluster};
///
/// // One process: its own flags.
/// let any = any_everywhere(&Cluster::Local { threads: 2 }, &[false, true])?;
/// assert_eq!(any, [false, true]);
/// # Ok::<(), qi_tablebase::dataflow::DataflowError>(())
/// ```
pub fn any_everywhere(cluster: &Cluster, flags: &[bool]) -> Result<Vec<bool>, DataflowError> {
    let n = flags.len();
    let flags = flags.to_vec();
    let heard = run(cluster, move |worker, threads| {
        // The first worker of each process tells every worker its flags.
        let speaks = worker.index() % threads == 0;
        let records: Vec<(u64, Vec<bool>)> = (0..worker.peers() as u64)
            .filter(|_| speaks)
            .map(|to| (to, flags.clone()))
            .collect();
        let heard = (vec![false; n], None);
        let (any, other) = exchange(
            worker,
            records,
            |r| r.0,
            heard,
            move |heard, (_, theirs)| {
                if theirs.len() != n {
                    heard.1 = Some(theirs.len());
                }
                for (any, &set) in heard.0.iter_mut().zip(theirs) {
                    *any |= set;
                }
            },
        );
        match other {
            Some(c) => Err(DataflowError::Worker(format!(
                "the processes disagree on the slices: {n} here, {c} at another process"
            ))),
            None => Ok(any),
        }
    })?;
    let any = heard.into_iter().next();
    any.ok_or_else(|| DataflowError::Worker("no worker heard the flags".into()))
}

/// The partitions of a [`ReadingSlice`]'s sources that this process
/// holds: for each source (in the order of [`ReadingSlice::sources`]),
/// the partition files ([`crate::format::partition`]) of the partitions
/// its workers own, by global worker index (what [`Share::parts`] gave
/// when the source was solved on the same workers), read value by value
/// ([`Held::insert_file`]).
#[derive(Debug, Default)]
pub struct Held {
    parts: Vec<std::collections::HashMap<usize, HeldPart>>,
}

/// One partition held: its file, whose `count` codes start at `data_at`
/// and whose distances follow them.
#[derive(Debug)]
struct HeldPart {
    file: std::fs::File,
    data_at: u64,
    count: u64,
}

/// A chunk's distinct reads and, per slot, its start if final
/// ([`record_reads`]).
type Recorded = (Vec<(u32, u64)>, Vec<Option<Start>>);

impl Held {
    /// Nothing held yet, for `sources` sources: a slice that reads
    /// nothing needs nothing more, one that reads fails at its first
    /// read.
    ///
    /// ```
    /// use std::sync::Arc;
    /// use qi_games::jungle::Rules;
    /// use qi_tablebase::dataflow::{solve_reading, Cluster, Held, READ_CHUNK};
    /// use qi_tablebase::jungle::JungleSlice;
    ///
    /// let rules = Rules::standard();
    /// let cluster = Cluster::Local { threads: 2 };
    /// // Capturing either animal of `LvE` ends the game.
    /// let alone = Arc::new(JungleSlice::reading("LvE".parse()?, &rules));
    /// assert!(solve_reading(alone, &cluster, Arc::new(Held::new(0)), READ_CHUNK).is_ok());
    /// let reads = Arc::new(JungleSlice::reading("LRvE".parse()?, &rules));
    /// assert!(solve_reading(reads, &cluster, Arc::new(Held::new(2)), READ_CHUNK).is_err());
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn new(sources: usize) -> Held {
        Held {
            parts: (0..sources).map(|_| Default::default()).collect(),
        }
    }

    /// Holds partition `owner` of source `source` in the partition file
    /// `path` (checked by the caller: [`crate::format::partition::Partition::check`]),
    /// whose `count` codes start at `data_at`: each value is read from the
    /// file when asked for, so that a process holds none of the smaller
    /// tables. Every partition a read may land in must be held.
    ///
    /// ```
    /// use std::sync::Arc;
    /// use qi_games::jungle::{Jungle, Rules};
    /// use qi_tablebase::dataflow::{solve_reading, Cluster, Held, READ_CHUNK};
    /// use qi_tablebase::jungle::{JungleSlice, Material, Tablebase};
    /// use qi_tablebase::partition::{PartInfo, Partition};
    /// use qi_tablebase::retrograde::{ReadingSlice, RetroSlice};
    ///
    /// let rules = Rules::standard();
    /// let cluster = Cluster::Local { threads: 2 };
    /// let dir = tempfile::tempdir()?;
    /// let m: Material = "LRvE".parse()?;
    /// let slice = Arc::new(JungleSlice::reading(m, &rules));
    /// let mut held = Held::new(2);
    /// for (i, source) in slice.sources().iter().enumerate() {
    ///     let material: Material = source.name.parse()?;
    ///     let smaller = Arc::new(JungleSlice::reading(material, &rules));
    ///     let share = solve_reading(smaller, &cluster, Arc::new(Held::new(0)), READ_CHUNK)?;
    ///     for (owner, codes, distances, _) in share.parts {
    ///         let info = PartInfo { material, rules, slots: source.slots, shift: source.shift,
    ///                               owner, workers: 2 };
    ///         let path = Partition::<Jungle> { info, codes, distances }.save(dir.path())?;
    ///         let head = Partition::<Jungle>::check(&path, &rules)?;
    ///         held.insert_file(i, owner, &path, head.data_at, head.count)?;
    ///     }
    /// }
    /// let share = solve_reading(slice.clone(), &cluster, Arc::new(held), READ_CHUNK)?;
    /// let table = slice.table(&share.into_values(slice.slots()).unwrap());
    /// assert_eq!(Some(&table), Tablebase::generate(&rules, &[m], 2)?.table(m));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn insert_file(
        &mut self,
        source: usize,
        owner: usize,
        path: &std::path::Path,
        data_at: u64,
        count: u64,
    ) -> std::io::Result<()> {
        let file = std::fs::File::open(path)?;
        // Refused now where the reads would fail.
        read_at(&file, &mut [], data_at)?;
        if let Some(parts) = self.parts.get_mut(source) {
            let part = HeldPart {
                file,
                data_at,
                count,
            };
            parts.insert(owner, part);
        }
        Ok(())
    }

    /// The value of the slot at local index `local` of partition `owner`
    /// of `source`, as a code and a distance; [`UNUSED`] (no value: the
    /// reader's start fails, naming the slot) when that partition is not
    /// held here, has no such slot or cannot be read.
    fn get(&self, source: usize, owner: usize, local: usize) -> (u8, u16) {
        let Some(part) = self.parts.get(source).and_then(|p| p.get(&owner)) else {
            return (UNUSED, 0);
        };
        let (local, at) = (local as u64, part.data_at);
        let (mut code, mut distance) = ([0u8; 1], [0u8; 2]);
        let read = local < part.count
            && read_at(&part.file, &mut code, at + local).is_ok()
            && read_at(&part.file, &mut distance, at + part.count + 2 * local).is_ok();
        match read {
            true => (code[0], u16::from_le_bytes(distance)),
            false => (UNUSED, 0),
        }
    }
}

/// The slots of a worker started per fetch by a run's [`solve_reading`]:
/// the reads of at most this many slots (about 16 bytes each, a few a
/// slot) are held at once, whatever the slice's size.
pub const READ_CHUNK: u64 = 1 << 22;

/// Solves a [`ReadingSlice`] with the workers of `cluster`, its sources'
/// values read from the workers that own them: every process calls this
/// with the same slice and its own `held` partitions of the sources (the
/// [`Share`]s of the runs that solved them, on the same workers), and
/// gets its own workers' partitions. No process holds a whole table:
/// each worker first starts its slots with a [`ReadRecorder`], sends the
/// distinct reads to their owners (timely's `Exchange`), gets their
/// values back the same way, then starts its slots again from them
/// ([`Fetched`]) and plays the rounds.
///
/// A worker starts at most `chunk` of its slots per fetch (at least 1;
/// [`READ_CHUNK`] in a run), so that the reads it holds at once are
/// bounded whatever the slice's size: every worker fetches as many
/// times, the number the largest partition needs, so that each fetch is
/// one dataflow of all the workers.
///
/// ```
/// use std::sync::Arc;
/// use qi_games::five_tigers::Rules;
/// use qi_tablebase::dataflow::{solve_reading, Cluster, Held, READ_CHUNK};
/// use qi_tablebase::five_tigers::{FiveTigersSlice, Material, Tablebase};
/// use qi_tablebase::retrograde::{ReadingSlice, RetroSlice};
///
/// let rules = Rules::shandong_shuttle();
/// let cluster = Cluster::Local { threads: 2 };
/// // 3v1's removals take the last Second piece: it reads no table.
/// let m: Material = "3v1".parse().unwrap();
/// let slice = Arc::new(FiveTigersSlice::reading(m, &rules).unwrap());
/// assert!(slice.sources().is_empty());
/// let held = Arc::new(Held::new(0));
/// let share = solve_reading(slice.clone(), &cluster, held.clone(), READ_CHUNK).unwrap();
/// let values = share.into_values(slice.slots()).unwrap();
/// let table = slice.table(&values, 1).unwrap();
/// let tb = Tablebase::generate(&rules, &[m], 1).unwrap();
/// assert_eq!(table.stats(), tb.table(m).unwrap().stats());
/// // Each worker starts its slots 1000 at a time: the same values.
/// let chunked = solve_reading(slice.clone(), &cluster, held, 1000).unwrap();
/// assert_eq!(chunked.into_values(slice.slots()), Some(values));
/// ```
pub fn solve_reading<S: ReadingSlice + Send + Sync + 'static>(
    slice: Arc<S>,
    cluster: &Cluster,
    held: Arc<Held>,
    chunk: u64,
) -> Result<Share, DataflowError> {
    let shift = slice.run_shift();
    let chunk = chunk.max(1);
    let shifts: Vec<u32> = slice.sources().iter().map(|s| s.shift).collect();
    let parts = run(cluster, move |worker, threads| {
        let (index, peers) = (worker.index(), worker.peers());
        let deal = Deal::new(peers, shift);
        let total = slice.slots();
        let count = deal.count(total, index);
        let most = (0..peers).map(|w| deal.count(total, w)).max().unwrap_or(0);
        let mut stats = WorkerStats::default();
        // A worker that fails still takes part in every fetch and in the
        // rounds (with nothing), so that every other worker's dataflows
        // end; its error is returned then.
        let mut ledger = Ok(Ledger::begin(index, deal, count));
        for c in 0..most.div_ceil(chunk).max(1) {
            let (lo, hi) = (c * chunk, ((c + 1) * chunk).min(count));
            let recorded = match ledger {
                Ok(_) if lo < hi => record_reads(&*slice, deal, index, lo..hi),
                _ => Ok(Recorded::default()),
            };
            let (reads, starts) = recorded.unwrap_or_else(|e| {
                ledger = Err(e);
                Recorded::default()
            });
            let fetched = fetch_reads(worker, threads, &shifts, &held, reads, &mut stats);
            if let Ok(part) = &mut ledger {
                // A slot that read nothing started for good the first time.
                let started = (lo..hi).zip(starts).try_for_each(|(local, start)| {
                    let slot = deal.slot(index, local as usize);
                    let start = start.map_or_else(|| slice.start_reading(slot, &fetched), Ok)?;
                    part.push(slot, start)
                });
                if let Err(e) = started {
                    ledger = Err(e);
                }
            }
        }
        Ok(play_rounds(&slice, threads, worker, (ledger, stats))?)
    })?;
    Ok(Share {
        workers: cluster.workers(),
        shift,
        parts,
    })
}

/// The distinct reads, sorted, of the starts of the local slots `range`
/// of partition `owner` under `deal`, each slot started with a
/// [`ReadRecorder`] (the reads merged as they come: a slot's reads
/// repeat across slots); and for each slot its start if no value can
/// change it ([`Start::reads_nothing`]: most slots have no move out of
/// the slice), else `None`.
fn record_reads<S: ReadingSlice + ?Sized>(
    slice: &S,
    deal: Deal,
    owner: usize,
    range: std::ops::Range<u64>,
) -> Result<Recorded, RetroError> {
    /// Slots started between two merges of their reads.
    const BATCH: u64 = 1 << 14;
    let mut all: Vec<(u32, u64)> = Vec::new();
    let mut starts = Vec::with_capacity((range.end - range.start) as usize);
    let mut local = range.start;
    while local < range.end {
        let recorder = ReadRecorder::default();
        let end = (local + BATCH).min(range.end);
        for l in local..end {
            let start = slice.start_reading(deal.slot(owner, l as usize), &recorder)?;
            starts.push(start.reads_nothing().then_some(start));
        }
        local = end;
        let mut batch = recorder.into_reads();
        batch.sort_unstable();
        batch.dedup();
        // Two sorted runs: the stable sort merges them in one pass.
        all.append(&mut batch);
        all.sort();
        all.dedup();
    }
    Ok((all, starts))
}

/// One fetch: every worker sends each of its `reads` (sorted, distinct)
/// to the worker that owns the slot, which answers from `held`; returns
/// the reads with their values, and counts them into `stats`.
fn fetch_reads(
    worker: &mut Worker<Allocator>,
    threads: usize,
    shifts: &[u32],
    held: &Held,
    reads: Vec<(u32, u64)>,
    stats: &mut WorkerStats,
) -> Fetched {
    let index = worker.index();
    let deals: Vec<Deal> = shifts
        .iter()
        .map(|&s| Deal::new(worker.peers(), s))
        .collect();
    let owner = |source: u32, slot: u64| deals.get(source as usize).map_or(0, |d| d.owner(slot));
    stats.reads += reads.len() as u64;
    stats.remote_reads += reads
        .iter()
        .filter(|&&(source, slot)| owner(source, slot) / threads != index / threads)
        .count() as u64;
    // A request: (owner, source, slot, asker); an answer: (asker, source,
    // slot, code, distance).
    let requests: Vec<_> = reads
        .iter()
        .map(|&(source, slot)| (owner(source, slot) as u64, source, slot, index as u32))
        .collect();
    let asked = exchange(
        worker,
        requests,
        |r| r.0,
        Vec::new(),
        |asked, r| asked.push(*r),
    );
    let answers: Vec<_> = asked
        .into_iter()
        .map(|(_, source, slot, asker)| {
            let (code, distance) = match deals.get(source as usize) {
                Some(deal) => held.get(source as usize, index, deal.local(slot)),
                None => (UNUSED, 0),
            };
            (u64::from(asker), source, slot, code, distance)
        })
        .collect();
    let fetched = Fetched::new(reads);
    exchange(
        worker,
        answers,
        |a| a.0,
        fetched,
        |f, a| f.set(a.1, a.2, a.3, a.4),
    )
}

/// Runs `work` on this process's workers of `cluster` (given the threads
/// of each process), once every process is there: timely waits for a
/// missing one without end. Each worker's result, or the first error.
fn run<T: Send + 'static>(
    cluster: &Cluster,
    work: impl Fn(&mut Worker<Allocator>, usize) -> Result<T, DataflowError> + Send + Sync + 'static,
) -> Result<Vec<T>, DataflowError> {
    cluster.check()?;
    crate::rendezvous::barrier(cluster)?;
    let threads = cluster.local_workers().len();
    let communication = match cluster {
        Cluster::Local { threads: 1 } => CommunicationConfig::Thread,
        Cluster::Local { threads } => CommunicationConfig::Process(*threads),
        Cluster::Processes {
            threads,
            process,
            hosts,
        } => CommunicationConfig::Cluster {
            threads: *threads,
            process: *process,
            addresses: hosts.clone(),
            report: false,
            zerocopy: false,
            log_fn: Arc::new(|_| None),
        },
    };
    let config = timely::Config {
        communication,
        worker: WorkerConfig::default(),
    };
    let guards = timely::execute(config, move |worker| work(worker, threads))
        .map_err(DataflowError::Start)?;
    guards
        .join()
        .into_iter()
        .map(|result| result.map_err(DataflowError::Worker)?)
        .collect()
}

/// One exchange among the workers, in a dataflow of its own: each of
/// `records` goes to worker `to(record)`, which folds it into `state`
/// with `each`; the state once every worker's records have arrived.
fn exchange<D: timely::ExchangeData, T: Default + 'static>(
    worker: &mut Worker<Allocator>,
    records: impl IntoIterator<Item = D> + 'static,
    to: impl Fn(&D) -> u64 + 'static,
    state: T,
    mut each: impl FnMut(&mut T, &D) + 'static,
) -> T {
    let state = Rc::new(RefCell::new(state));
    let into = state.clone();
    worker.dataflow::<u16, _, _>(|scope| {
        records
            .to_stream(scope)
            .container::<Vec<D>>()
            .exchange(move |r| to(r))
            .inspect(move |r| each(&mut into.borrow_mut(), r));
    });
    while worker.step() {}
    state.take()
}

/// Sends every slot's value of `part` to the first worker of each
/// process (of `threads` workers), and a failed part's failure as a
/// record of its own: the part's stats and, at those workers, the whole
/// slice; or the failure of any worker.
fn gather<S: RetroSlice + ?Sized>(
    slice: &S,
    threads: usize,
    worker: &mut Worker<Allocator>,
    part: Result<Part, RetroError>,
) -> Result<(WorkerStats, Option<SliceValues>), RetroError> {
    /// The slot of a record that says its worker failed.
    const FAILED: u64 = u64::MAX;
    let (index, peers) = (worker.index(), worker.peers());
    let deal = Deal::new(peers, slice.run_shift());
    let ((codes, distances), stats, failure) = match part {
        Ok((_, codes, distances, stats)) => ((codes, distances), stats, None),
        Err(e) => (Default::default(), WorkerStats::default(), Some(e)),
    };
    let records = (codes.into_iter().zip(distances))
        .enumerate()
        .map(move |(local, (code, d))| (deal.slot(index, local), code, d))
        .chain(failure.is_some().then_some((FAILED, 0, 0)))
        .flat_map(move |(slot, code, d)| {
            (0..peers)
                .step_by(threads)
                .map(move |w| (w as u64, slot, code, d))
        });
    let total = slice.slots() as usize;
    let whole = (index % threads == 0).then(|| SliceValues {
        codes: vec![UNUSED; total],
        distances: vec![0; total],
    });
    let (whole, failed) = exchange(
        worker,
        records,
        |r| r.0,
        (whole, false),
        |heard, r| match &mut heard.0 {
            _ if r.1 == FAILED => heard.1 = true,
            Some(v) => (v.codes[r.1 as usize], v.distances[r.1 as usize]) = (r.2, r.3),
            None => {}
        },
    );
    match failure {
        Some(e) => Err(e),
        None if failed => Err(RetroError::OtherWorker),
        None => Ok((stats, whole)),
    }
}

/// One partition's result: its global worker index, codes, distances and
/// what the worker did.
type Part = (usize, Vec<u8>, Vec<u16>, WorkerStats);

/// A batch of tidings: slots and [`News`] codes.
type Tidings = Vec<(u64, u8)>;

/// Holds back the tidings that reach a worker before its ledger may take
/// them: a tiding of round t only once round t − 1 is settled there
/// ([`Ledger::tell`]'s contract). Told earlier, a win that an exit
/// scheduled for t − 1 would be taken for a win at t. Whether a tiding
/// comes early depends on the threads' timing, which is why the rule
/// lives here, apart, where a test can drive it.
#[derive(Debug, Default)]
struct RoundGate {
    /// The last round settled here: every round up to it is
    /// (notifications come in order, and every round with work here asked
    /// for one).
    settled: Option<u16>,
    /// Tidings that came before the round before theirs was settled.
    early: BTreeMap<u16, Tidings>,
}

impl RoundGate {
    /// Tidings of `round` arrived: whether they may be told now; if not,
    /// the gate keeps them (and `batch` is left empty).
    fn admit(&mut self, round: u16, batch: &mut Tidings) -> bool {
        if self.settled.is_some_and(|d| d + 1 >= round) {
            return true;
        }
        self.early.entry(round).or_default().append(batch);
        false
    }

    /// Round `round` is due here (its notification: every earlier round
    /// is settled): the tidings of `round` kept until now.
    fn due(&mut self, round: u16) -> Option<Tidings> {
        self.early.remove(&round)
    }

    /// Round `round` was settled: the next round's tidings kept until now.
    fn settled(&mut self, round: u16) -> Option<Tidings> {
        self.settled = Some(round);
        self.early.remove(&(round + 1))
    }
}

/// One worker's rounds as its operator plays them: the ledger, the gate
/// before it, what the worker did and the first error.
struct Rounds {
    ledger: Ledger,
    gate: RoundGate,
    /// Decided slots by round, until the round's notification sends
    /// their tidings.
    decided: BTreeMap<u16, Vec<(u64, Wdl)>>,
    /// Rounds newly scheduled, each to be asked a notification for.
    scheduled: Vec<u16>,
    stats: WorkerStats,
    failure: Option<RetroError>,
}

impl Rounds {
    /// Tells the ledger `batch`, tidings of `round`.
    fn tell(&mut self, round: u16, batch: &mut Tidings) {
        let into = self.decided.entry(round).or_default();
        for (slot, code) in batch.drain(..) {
            let news = News::from_code(code);
            if let Err(e) = self
                .ledger
                .tell(round, slot, news, into, &mut self.scheduled)
            {
                self.failure = Some(e);
                return;
            }
        }
    }

    /// Round `round` is due here: settles it and returns the slots
    /// decided at it.
    fn settle(&mut self, round: u16) -> Vec<(u64, Wdl)> {
        if let Some(mut batch) = self.gate.due(round) {
            self.tell(round, &mut batch);
        }
        let mut now = self.decided.remove(&round).unwrap_or_default();
        self.ledger.settle(round, &mut now);
        if let Some(mut batch) = self.gate.settled(round) {
            self.tell(round + 1, &mut batch);
        }
        self.stats.rounds += 1;
        now
    }
}

/// The rounds of one worker from its `started` ledger (or the error that
/// kept it from starting its slots), its stats counted on from what the
/// worker did before. Timestamps are rounds: no tiding is sent past the
/// longest distance a table holds ([`round::ply_before`]).
fn play_rounds<S: RetroSlice + Send + Sync + 'static>(
    slice: &Arc<S>,
    threads: usize,
    worker: &mut Worker<Allocator>,
    (ledger, stats): (Result<Ledger, RetroError>, WorkerStats),
) -> Result<Part, RetroError> {
    let index = worker.index();
    let slice = slice.clone();
    let deal = Deal::new(worker.peers(), slice.run_shift());
    // A worker that cannot start its slots still plays the rounds (with
    // none), so that every worker's loop ends; its error is returned then.
    let (ledger, failure) = match ledger {
        Ok(ledger) => (ledger, None),
        Err(e) => (Ledger::begin(index, deal, 0), Some(e)),
    };
    // Round 0 and every round the slots' starts scheduled.
    let rounds: Vec<u16> = std::iter::once(0).chain(ledger.due_rounds()).collect();
    let state = Rc::new(RefCell::new(Rounds {
        ledger,
        gate: RoundGate::default(),
        decided: BTreeMap::new(),
        scheduled: Vec::new(),
        stats,
        failure,
    }));
    let here = state.clone();
    let (process, shift) = (index / threads, slice.run_shift());
    worker.dataflow::<u16, _, _>(|scope| {
        let (handle, tidings) = scope.feedback::<Tidings>(1);
        let mut asked: BTreeSet<u16> = BTreeSet::new();
        let mut predecessors = Vec::new();
        tidings
            .unary_notify(
                Exchange::new(move |t: &(u64, u8)| t.0 >> shift),
                "RetroRound",
                rounds,
                move |input, output, notificator| {
                    let mut r = here.borrow_mut();
                    input.for_each_time(|time, data| {
                        let round = *time.time();
                        if asked.insert(round) {
                            notificator.notify_at(time.retain(0));
                        }
                        for batch in data {
                            if r.gate.admit(round, batch) {
                                r.tell(round, batch);
                            }
                        }
                        for later in r.scheduled.drain(..) {
                            notificator.notify_at(time.delayed(&later, 0));
                        }
                    });
                    notificator.for_each(|cap, _, notify| {
                        let round = *cap.time();
                        asked.remove(&round);
                        let now = r.settle(round);
                        for later in r.scheduled.drain(..) {
                            notify.notify_at(cap.delayed(&later));
                        }
                        if now.is_empty() {
                            return;
                        }
                        if round::ply_before(u32::from(round)).is_err() {
                            r.failure = Some(RetroError::TooDeep);
                            return;
                        }
                        let mut session = output.session(&cap);
                        for &(slot, wdl) in &now {
                            let Some(news) = News::of(wdl) else { continue };
                            predecessors.clear();
                            slice.predecessors(slot, &mut predecessors);
                            for &p in &predecessors {
                                session.give((p, news.code()));
                                r.stats.sent += 1;
                                if deal.owner(p) / threads != process {
                                    r.stats.remote += 1;
                                }
                            }
                        }
                    });
                },
            )
            .connect_loop(handle);
    });
    while worker.step() {}
    let mut r = state.borrow_mut();
    if let Some(e) = r.failure.take() {
        return Err(e);
    }
    // The finished dataflow may still hold its handle on the state: take
    // the ledger out rather than copy it.
    let ledger = std::mem::replace(&mut r.ledger, Ledger::begin(index, deal, 0));
    let (codes, distances) = ledger.finish();
    Ok((index, codes, distances, r.stats))
}

#[cfg(test)]
mod tests;
