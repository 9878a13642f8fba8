//! One slice of a retrograde analysis as data, and its solution by rounds.
//!
//! A slice (a material, in a game's tables) numbers its positions densely
//! as *slots*. Each slot starts decided (the game is over there), unused
//! (a hole of the index) or open, and then knows how many distinct
//! successors it has in the slice and what its moves out of the slice
//! (into smaller, finished slices) are worth. [`RetroSlice::predecessors`]
//! un-moves: the slots from which one move leads to a given slot.
//!
//! The solution goes by rounds, one per distance. Round `t` takes the
//! positions decided at `t − 1` and tells each of their predecessors
//! whether that successor was lost or won for its side to move:
//!
//! * a predecessor of a lost position is won at `t` (the first such round
//!   is its shortest win);
//! * a predecessor of a won position counts one successor fewer; when none
//!   is left, no move out of the slice draws or wins, it is lost at
//!   `max(t, longest losing exit + 1)` (the longest loss);
//! * an exit into a lost position of a smaller slice at distance `e` wins
//!   at `e + 1` unless an earlier round won it.
//!
//! What is still open when no round has anything left is drawn.
//!
//! [`solve`] solves a slice on this thread by the crate's one in-core
//! solver (the one every game's in-core generation runs). [`Ledger`]
//! keeps the slots of one partition (its share of a [`Deal`]: every
//! `peers`-th run of slots) and plays one round at a time: the rounds of
//! the distributed solver (`dataflow`, with the `distributed` feature).
//! Both apply the crate's one transition rule (`round`), and the tests
//! compare them with each other and with a check of each value against
//! its successors'.

use std::collections::BTreeMap;
use std::ops::Range;

use crate::error::GenerateError;
use crate::in_core::{self, Cells};
use crate::round::{self, Begin, Heard, Loss};
pub use crate::round::{Exits, News, Open, RetroError, Start, MAX_SUCCESSORS};
use crate::value::Wdl;

/// A slice of a retrograde analysis: its slots, how each starts, and its
/// un-moves.
///
/// A toy slice, a race along a line: from slot `k` the one move leads to
/// `k − 1`, and the side to move at slot 0 has lost.
///
/// ```
/// use qi_tablebase::retrograde::{self, Open, RetroError, RetroSlice, Start};
/// use qi_tablebase::Wdl;
///
/// struct Line(u64);
///
/// impl RetroSlice for Line {
///     fn slots(&self) -> u64 {
///         self.0
///     }
///     fn start(&self, slot: u64) -> Result<Start, RetroError> {
///         Ok(if slot == 0 {
///             Start::Decided(Wdl::Loss, 0)
///         } else {
///             Start::Open(Open { successors: 1, ..Open::default() })
///         })
///     }
///     fn predecessors(&self, slot: u64, out: &mut Vec<u64>) {
///         if slot + 1 < self.0 {
///             out.push(slot + 1);
///         }
///     }
/// }
///
/// let values = retrograde::solve(&Line(4))?;
/// assert_eq!(values.get(3), Some((Wdl::Win, 3)));
/// assert_eq!(values.get(2), Some((Wdl::Loss, 2)));
/// # Ok::<(), RetroError>(())
/// ```
pub trait RetroSlice: Sync {
    /// The number of slots (`0..slots()`).
    ///
    /// ```
    /// use qi_games::jungle::Rules;
    /// use qi_tablebase::jungle::{JungleSlice, Tablebase};
    /// use qi_tablebase::retrograde::RetroSlice;
    ///
    /// let rules = Rules::standard();
    /// let slice = JungleSlice::new("LvC".parse()?, &rules, Tablebase::new(&rules));
    /// let tb = Tablebase::generate(&rules, &["LvC".parse()?], 1)?;
    /// assert_eq!(slice.slots(), tb.table("LvC".parse()?).unwrap().len());
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    fn slots(&self) -> u64;
    /// How `slot` starts; an error when the slice cannot tell (a smaller
    /// slice's table missing, say), which stops the solution.
    ///
    /// ```
    /// use qi_games::jungle::{Jungle, Rules};
    /// use qi_tablebase::jungle::{JungleSlice, Material, Tablebase};
    /// use qi_tablebase::retrograde::{RetroSlice, Start};
    ///
    /// let rules = Rules::standard();
    /// let m: Material = "LRvE".parse()?;
    /// // Blue's Elephant on b3, to move, beside Red's Lion on a3: its
    /// // capture leads into `RvE`, and without that table the slice
    /// // cannot tell.
    /// let pos = Jungle::from_text("7/7/7/7/6R/7/Le5/7/7 b", rules)?;
    /// let slot = m.index_of(&pos).unwrap();
    /// let without = JungleSlice::new(m, &rules, Tablebase::new(&rules));
    /// assert!(without.start(slot).is_err());
    /// let smaller = Tablebase::generate(&rules, &m.after_captures(), 2)?;
    /// let with = JungleSlice::new(m, &rules, smaller);
    /// assert!(matches!(with.start(slot)?, Start::Open(_)));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    fn start(&self, slot: u64) -> Result<Start, RetroError>;
    /// Appends to `out` the distinct slots of this slice, open or not, from
    /// which one move leads to `slot` (a used slot).
    ///
    /// ```
    /// use qi_games::jungle::{Jungle, Rules};
    /// use qi_tablebase::jungle::{JungleSlice, Material, Tablebase};
    /// use qi_tablebase::retrograde::RetroSlice;
    ///
    /// let rules = Rules::standard();
    /// let m: Material = "LvC".parse()?;
    /// let slice = JungleSlice::new(m, &rules, Tablebase::new(&rules));
    /// // Blue's Cat on a1, to move: Red's Lion came to d8 from d7 or c8
    /// // (or e8, a position the index stores as its mirror image, whose
    /// // move leads to the mirror image of this one).
    /// let pos = Jungle::from_text("7/3L3/7/7/7/7/7/7/c6 b", rules)?;
    /// let mut before = Vec::new();
    /// slice.predecessors(m.index_of(&pos).unwrap(), &mut before);
    /// let from = |text: &str| m.index_of(&Jungle::from_text(text, rules).unwrap()).unwrap();
    /// for text in ["7/7/3L3/7/7/7/7/7/c6 w", "7/2L4/7/7/7/7/7/7/c6 w"] {
    ///     assert!(before.contains(&from(text)), "{text}");
    /// }
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    fn predecessors(&self, slot: u64, out: &mut Vec<u64>);

    /// Partitions get the slots in runs of `2^run_shift()` consecutive
    /// ones (0: slot by slot). A slice whose slots come in groups that
    /// tell each other nothing, but whose members are all told by the
    /// same positions, keeps a group together: less traffic between
    /// workers.
    ///
    /// ```
    /// use qi_games::five_tigers::Rules;
    /// use qi_tablebase::five_tigers::FiveTigersSlice;
    /// use qi_tablebase::retrograde::{Deal, RetroSlice};
    ///
    /// let slice = FiveTigersSlice::reading("3v2".parse()?, &Rules::shandong())?;
    /// let deal = Deal::new(4, slice.run_shift());
    /// let dealt: u64 = (0..4).map(|owner| deal.count(slice.slots(), owner)).sum();
    /// assert_eq!(dealt, slice.slots());
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    fn run_shift(&self) -> u32 {
        0
    }
}

/// One smaller, finished slice that a [`ReadingSlice`] reads: what its
/// moves out of the slice lead into, named as the tables name it (the
/// material), with its slots and how they are dealt
/// ([`RetroSlice::run_shift`]), so that a reader knows which worker
/// owns a slot of it.
///
/// ```
/// use qi_games::jungle::Rules;
/// use qi_tablebase::jungle::JungleSlice;
/// use qi_tablebase::retrograde::{ReadingSlice, RetroSlice};
///
/// let rules = Rules::standard();
/// let slice = JungleSlice::reading("LRvE".parse()?, &rules);
/// let first = &slice.sources()[0];
/// let lve = JungleSlice::reading(first.name.parse()?, &rules);
/// assert_eq!((first.slots, first.shift), (lve.slots(), lve.run_shift()));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Source {
    /// The material, as its table's file names it (`3v2`, `LRvE`).
    pub name: String,
    /// Its slots, `0..slots`.
    pub slots: u64,
    /// Its slice's [`RetroSlice::run_shift`].
    pub shift: u32,
}

/// Answers the reads of a slot's start: the value and distance of slot
/// `slot` of source `source` (an index into [`ReadingSlice::sources`]).
///
/// A reader over the solved sources in memory starts every slot as the
/// slice that holds their tables does:
///
/// ```
/// use qi_games::jungle::Rules;
/// use qi_tablebase::jungle::{JungleSlice, Material, Tablebase};
/// use qi_tablebase::retrograde::{self, Reader, ReadingSlice, RetroError, RetroSlice, SliceValues};
/// use qi_tablebase::Wdl;
///
/// struct Solved(Vec<SliceValues>);
///
/// impl Reader for Solved {
///     fn read(&self, source: usize, slot: u64) -> Result<(Wdl, u16), RetroError> {
///         self.0[source].get(slot).ok_or(RetroError::Slice { slot, message: "unused".into() })
///     }
/// }
///
/// let rules = Rules::standard();
/// let m: Material = "LRvE".parse()?;
/// let reading = JungleSlice::reading(m, &rules);
/// let mut solved = Vec::new();
/// for source in reading.sources() {
///     // `LvE` and `RvE`: a capture ends the game, no table to read.
///     let source = JungleSlice::new(source.name.parse()?, &rules, Tablebase::new(&rules));
///     solved.push(retrograde::solve(&source)?);
/// }
/// let holding = JungleSlice::new(m, &rules, Tablebase::generate(&rules, &m.after_captures(), 2)?);
/// for slot in (0..reading.slots()).step_by(997) {
///     assert_eq!(reading.start_reading(slot, &Solved(solved.clone()))?, holding.start(slot)?);
/// }
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub trait Reader {
    /// The value of the slot, for its own side to move.
    ///
    /// ```
    /// use qi_tablebase::retrograde::{Fetched, Reader};
    /// use qi_tablebase::Wdl;
    ///
    /// let mut fetched = Fetched::new(vec![(1, 40)]);
    /// fetched.set(1, 40, 1, 0);
    /// assert_eq!(fetched.read(1, 40)?, (Wdl::Draw, 0));
    /// assert!(fetched.read(0, 40).is_err(), "never asked for");
    /// # Ok::<(), qi_tablebase::retrograde::RetroError>(())
    /// ```
    fn read(&self, source: usize, slot: u64) -> Result<(Wdl, u16), RetroError>;

    /// Whether the answers are stand-ins that only record what was asked
    /// ([`ReadRecorder`]): a start must not keep anything it derived from
    /// them (a memo of removal sequences, say) for later starts.
    ///
    /// ```
    /// use qi_tablebase::retrograde::{Fetched, ReadRecorder, Reader};
    ///
    /// assert!(ReadRecorder::default().records());
    /// assert!(!Fetched::new(vec![]).records());
    /// ```
    fn records(&self) -> bool {
        false
    }
}

/// A slice that starts its slots from values read by slot in the smaller
/// slices its moves out of it lead into ([`ReadingSlice::sources`]),
/// instead of holding those tables: what lets a cluster keep every table
/// spread over its workers, each worker asking the owners of the slots
/// its starts read (`dataflow::solve_reading`).
///
/// The reads of a start may not depend on the values read: the solver
/// first starts each slot with a reader that records what it is asked
/// and answers anything, then fetches those values and starts it again.
///
/// One slot of Jungle's `LRvE` started so: its reads recorded, their
/// values fetched from the solved sources, the slot started again.
///
/// ```
/// use qi_games::jungle::Rules;
/// use qi_tablebase::jungle::{JungleSlice, Material, Tablebase};
/// use qi_tablebase::retrograde::{self, Fetched, ReadRecorder, ReadingSlice, RetroSlice};
///
/// let rules = Rules::standard();
/// let m: Material = "LRvE".parse()?;
/// let slice = JungleSlice::reading(m, &rules);
/// let mut sources = Vec::new();
/// for source in slice.sources() {
///     // `LvE` and `RvE`: a capture ends the game, no table to read.
///     let source = JungleSlice::new(source.name.parse()?, &rules, Tablebase::new(&rules));
///     sources.push(retrograde::solve(&source)?);
/// }
/// let holding = JungleSlice::new(m, &rules, Tablebase::generate(&rules, &m.after_captures(), 2)?);
/// for slot in (0..slice.slots()).step_by(1009) {
///     let recorder = ReadRecorder::default();
///     let first = slice.start_reading(slot, &recorder)?;
///     let mut fetched = Fetched::new(recorder.into_reads());
///     for (source, read) in fetched.reads.clone() {
///         let values = &sources[source as usize];
///         let i = read as usize;
///         fetched.set(source, read, values.codes[i], values.distances[i]);
///     }
///     let start = if first.reads_nothing() { first } else { slice.start_reading(slot, &fetched)? };
///     assert_eq!(start, holding.start(slot)?);
/// }
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub trait ReadingSlice: RetroSlice {
    /// The slices read, in a fixed order (the `source` of a read).
    ///
    /// ```
    /// use qi_games::five_tigers::Rules;
    /// use qi_tablebase::five_tigers::FiveTigersSlice;
    /// use qi_tablebase::retrograde::ReadingSlice;
    ///
    /// let rules = Rules::shandong_shuttle();
    /// // 3v2's removals take the last Second pieces: nothing to read.
    /// assert!(FiveTigersSlice::reading("3v2".parse()?, &rules)?.sources().is_empty());
    /// // 3v3's leave `3v1` or `1v3`.
    /// let sources = FiveTigersSlice::reading("3v3".parse()?, &rules)?.sources();
    /// let names: Vec<&str> = sources.iter().map(|s| s.name.as_str()).collect();
    /// assert_eq!(names, ["3v1", "1v3"]);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    fn sources(&self) -> Vec<Source>;
    /// How `slot` starts, its moves out of the slice valued by `reader`.
    ///
    /// ```
    /// use qi_games::jungle::{Jungle, Rules};
    /// use qi_tablebase::jungle::{JungleSlice, Material};
    /// use qi_tablebase::retrograde::{ReadRecorder, ReadingSlice};
    ///
    /// let rules = Rules::standard();
    /// let m: Material = "LRvE".parse()?;
    /// let slice = JungleSlice::reading(m, &rules);
    /// // Blue's Elephant beside Red's Lion: its capture reads `RvE` (source 1).
    /// let pos = Jungle::from_text("7/7/7/7/6R/7/Le5/7/7 b", rules)?;
    /// let recorder = ReadRecorder::default();
    /// slice.start_reading(m.index_of(&pos).unwrap(), &recorder)?;
    /// let reads = recorder.into_reads();
    /// assert_eq!(slice.sources()[1].name, "RvE");
    /// assert_eq!(reads.len(), 1);
    /// assert_eq!(reads[0].0, 1);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    fn start_reading(&self, slot: u64, reader: &dyn Reader) -> Result<Start, RetroError>;
}

/// A [`Reader`] that answers every read with a draw and keeps what it was
/// asked: the first pass of a [`ReadingSlice`]'s start.
#[derive(Debug, Default)]
///
/// ```
/// use qi_tablebase::retrograde::{ReadRecorder, Reader};
/// use qi_tablebase::Wdl;
///
/// let recorder = ReadRecorder::default();
/// assert_eq!(recorder.read(1, 40).unwrap(), (Wdl::Draw, 0));
/// recorder.read(0, 7).unwrap();
/// assert!(recorder.records());
/// assert_eq!(recorder.into_reads(), [(1, 40), (0, 7)]);
/// ```
pub struct ReadRecorder {
    reads: std::cell::RefCell<Vec<(u32, u64)>>,
}

impl ReadRecorder {
    /// The reads asked so far, `(source, slot)`, in the order asked
    /// (repeats kept).
    ///
    /// ```
    /// use qi_games::jungle::Rules;
    /// use qi_tablebase::jungle::JungleSlice;
    /// use qi_tablebase::retrograde::{ReadRecorder, ReadingSlice, RetroSlice};
    ///
    /// let slice = JungleSlice::reading("LRvE".parse()?, &Rules::standard());
    /// let sources = slice.sources();
    /// let recorder = ReadRecorder::default();
    /// for slot in 0..1000 {
    ///     slice.start_reading(slot, &recorder)?;
    /// }
    /// let reads = recorder.into_reads();
    /// assert!(!reads.is_empty(), "some of these positions capture");
    /// assert!(reads.iter().all(|&(s, slot)| slot < sources[s as usize].slots));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn into_reads(self) -> Vec<(u32, u64)> {
        self.reads.into_inner()
    }
}

impl Reader for ReadRecorder {
    fn read(&self, source: usize, slot: u64) -> Result<(Wdl, u16), RetroError> {
        let source = u32::try_from(source).map_err(|_| RetroError::Slice {
            slot,
            message: format!("source {source} out of range"),
        })?;
        self.reads.borrow_mut().push((source, slot));
        Ok((Wdl::Draw, 0))
    }

    fn records(&self) -> bool {
        true
    }
}

/// Values fetched for a partition's reads: `reads` sorted and distinct,
/// `values[i]` the value of `reads[i]` (`None` while not fetched, or when
/// the slot is unused in its source).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
///
/// ```
/// use qi_tablebase::retrograde::{Fetched, Reader};
/// use qi_tablebase::Wdl;
///
/// let mut fetched = Fetched::new(vec![(0, 9), (0, 3), (0, 9)]);
/// assert_eq!(fetched.reads, [(0, 3), (0, 9)]);
/// fetched.set(0, 9, 0, 12); // lost in 12
/// assert_eq!(fetched.read(0, 9).unwrap(), (Wdl::Loss, 12));
/// assert!(fetched.read(0, 3).is_err()); // asked, never fetched
/// ```
pub struct Fetched {
    /// `(source, slot)`, sorted and distinct.
    pub reads: Vec<(u32, u64)>,
    /// Their values: a code (0 loss, 1 draw, 2 win, [`UNUSED`]) and a
    /// distance.
    pub values: Vec<(u8, u16)>,
}

impl Fetched {
    /// The reads of `reads` (any order, repeats allowed), none fetched yet.
    ///
    /// ```
    /// use qi_tablebase::retrograde::{Fetched, Reader, UNUSED};
    ///
    /// let fetched = Fetched::new(vec![(1, 5), (0, 8), (1, 5)]);
    /// assert_eq!(fetched.reads, [(0, 8), (1, 5)]);
    /// assert_eq!(fetched.values, [(UNUSED, 0), (UNUSED, 0)]);
    /// assert!(fetched.read(1, 5).is_err(), "not fetched yet");
    /// ```
    pub fn new(mut reads: Vec<(u32, u64)>) -> Fetched {
        reads.sort_unstable();
        reads.dedup();
        let values = vec![(UNUSED, 0); reads.len()];
        Fetched { reads, values }
    }

    /// Sets the value of a read (ignored if it was not asked for).
    ///
    /// ```
    /// use qi_tablebase::retrograde::{Fetched, Reader};
    /// use qi_tablebase::Wdl;
    ///
    /// let mut fetched = Fetched::new(vec![(0, 8)]);
    /// fetched.set(0, 8, 2, 3); // won in 3
    /// fetched.set(0, 9, 0, 1); // not asked: ignored
    /// assert_eq!(fetched.read(0, 8)?, (Wdl::Win, 3));
    /// assert_eq!(fetched.reads, [(0, 8)]);
    /// # Ok::<(), qi_tablebase::retrograde::RetroError>(())
    /// ```
    pub fn set(&mut self, source: u32, slot: u64, code: u8, distance: u16) {
        if let Ok(i) = self.reads.binary_search(&(source, slot)) {
            self.values[i] = (code, distance);
        }
    }
}

impl Reader for Fetched {
    fn read(&self, source: usize, slot: u64) -> Result<(Wdl, u16), RetroError> {
        let found = u32::try_from(source)
            .ok()
            .and_then(|s| self.reads.binary_search(&(s, slot)).ok())
            .and_then(|i| {
                let (code, d) = self.values[i];
                Wdl::from_code(code).map(|w| (w, d))
            });
        found.ok_or_else(|| RetroError::Slice {
            slot,
            message: format!("slot {slot} of source {source} was read but has no value"),
        })
    }
}

/// Sorts `out[start..]` and keeps one of each slot in it: the distinct
/// predecessors [`RetroSlice::predecessors`] appends, from un-moves that
/// may find one position twice.
pub(crate) fn sort_and_dedup_from(out: &mut Vec<u64>, start: usize) {
    out[start..].sort_unstable();
    let mut kept = start;
    for i in start..out.len() {
        if i == start || out[i] != out[kept - 1] {
            out[kept] = out[i];
            kept += 1;
        }
    }
    out.truncate(kept);
}

/// The value of every slot of a slice: codes 0 loss, 1 draw, 2 win, 3
/// unused, and the distance (0 for draws and unused slots).
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
/// use qi_tablebase::retrograde;
///
/// // `Line(n)`: from slot `k` one move to `k − 1`; slot 0 has lost.
/// let values = retrograde::solve(&Line(4))?;
/// assert_eq!(values.codes, [0, 2, 0, 2]); // loss, win, loss, win
/// assert_eq!(values.distances, [0, 1, 2, 3]);
/// # Ok::<(), RetroError>(())
/// ```
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct SliceValues {
    /// One code per slot.
    pub codes: Vec<u8>,
    /// One distance per slot.
    pub distances: Vec<u16>,
}

pub use crate::value::UNUSED;

impl SliceValues {
    /// The value of `slot`, `None` when unused or past the slice's end.
    ///
    /// ```
    /// use qi_tablebase::retrograde::{SliceValues, UNUSED};
    /// use qi_tablebase::Wdl;
    ///
    /// let values = SliceValues { codes: vec![2, UNUSED], distances: vec![7, 0] };
    /// assert_eq!(values.get(0), Some((Wdl::Win, 7)));
    /// assert_eq!(values.get(1), None);
    /// assert_eq!(values.get(2), None);
    /// ```
    pub fn get(&self, slot: u64) -> Option<(Wdl, u16)> {
        let i = usize::try_from(slot).ok()?;
        let code = *self.codes.get(i)?;
        Wdl::from_code(code).map(|w| (w, self.distances.get(i).copied().unwrap_or(0)))
    }
}

/// One slot in a [`Ledger`]: 4 bytes.
#[derive(Clone, Copy, Debug)]
struct Slot {
    /// Undecided successors in the slice.
    left: u8,
    /// 0 open and able to lose, 1 open and never lost (a drawing or
    /// winning exit), else the decided value's code plus 2.
    state: u8,
    /// Decided: the distance. Open and able to lose: the longest exit
    /// into a won position (0 without one). Never lost: 0.
    distance: u16,
}

const OPEN: u8 = 0;
const NEVER_LOST: u8 = 1;
const DECIDED: u8 = 2;

/// What was scheduled for a later round.
#[derive(Clone, Copy, Debug)]
enum Due {
    /// Won at that round by an exit, unless won earlier.
    Win,
    /// Lost at that round (its successors are all won, its longest exit
    /// forbids an earlier loss).
    Loss,
    /// Decided from the start: told to its predecessors at its distance.
    Tell,
}

/// How the slots of a slice are dealt among `peers` partitions: in runs
/// of `2^shift` consecutive slots ([`RetroSlice::run_shift`]), run `k` to
/// partition `k mod peers`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
///
/// ```
/// use qi_tablebase::retrograde::Deal;
///
/// // Two partitions, runs of 2 slots: 0 1 | 2 3 | 4 5 | 6 → 0 0 1 1 0 0 1.
/// let deal = Deal::new(2, 1);
/// assert_eq!(deal.owner(5), 0);
/// assert_eq!(deal.local(5), 3);
/// assert_eq!(deal.slot(0, 3), 5);
/// assert_eq!((deal.count(7, 0), deal.count(7, 1)), (4, 3));
/// ```
pub struct Deal {
    peers: u64,
    shift: u32,
}

impl Deal {
    /// The deal among `peers` partitions (at least 1) in runs of
    /// `2^shift` slots.
    ///
    /// ```
    /// use qi_tablebase::retrograde::Deal;
    ///
    /// assert_eq!(Deal::new(0, 3), Deal::new(1, 3)); // at least one partition
    /// assert_eq!(Deal::new(1, 3).count(100, 0), 100);
    /// ```
    pub fn new(peers: usize, shift: u32) -> Deal {
        Deal {
            peers: peers.max(1) as u64,
            shift,
        }
    }

    /// The partition that owns `slot`.
    ///
    /// ```
    /// use qi_tablebase::retrograde::Deal;
    ///
    /// // Three partitions, runs of 4 slots.
    /// let deal = Deal::new(3, 2);
    /// let owners: Vec<usize> = (0..14).map(|slot| deal.owner(slot)).collect();
    /// assert_eq!(owners, [0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2, 0, 0]);
    /// ```
    #[inline]
    pub fn owner(self, slot: u64) -> usize {
        ((slot >> self.shift) % self.peers) as usize
    }

    /// `slot`'s index within its partition.
    ///
    /// ```
    /// use qi_tablebase::retrograde::Deal;
    ///
    /// let deal = Deal::new(3, 2);
    /// assert_eq!(deal.local(13), 5); // partition 0's sixth slot
    /// for slot in 0..100 {
    ///     assert_eq!(deal.slot(deal.owner(slot), deal.local(slot)), slot);
    /// }
    /// ```
    #[inline]
    pub fn local(self, slot: u64) -> usize {
        let mask = (1u64 << self.shift) - 1;
        (((slot >> self.shift) / self.peers) << self.shift | (slot & mask)) as usize
    }

    /// The slot of partition `owner`'s index `local`.
    ///
    /// ```
    /// use qi_tablebase::retrograde::Deal;
    ///
    /// let deal = Deal::new(3, 2);
    /// let partition_1: Vec<u64> = (0..6).map(|local| deal.slot(1, local)).collect();
    /// assert_eq!(partition_1, [4, 5, 6, 7, 16, 17]);
    /// ```
    #[inline]
    pub fn slot(self, owner: usize, local: usize) -> u64 {
        let (owner, local) = (owner as u64, local as u64);
        let mask = (1u64 << self.shift) - 1;
        (((local >> self.shift) * self.peers + owner) << self.shift) | (local & mask)
    }

    /// How many of the slots `0..total` partition `owner` holds.
    ///
    /// ```
    /// use qi_tablebase::retrograde::Deal;
    ///
    /// let deal = Deal::new(3, 2);
    /// for total in 0..50 {
    ///     let counts: Vec<u64> = (0..3).map(|owner| deal.count(total, owner)).collect();
    ///     assert_eq!(counts.iter().sum::<u64>(), total);
    ///     for owner in 0..3 {
    ///         let owned = (0..total).filter(|&slot| deal.owner(slot) == owner).count();
    ///         assert_eq!(counts[owner], owned as u64);
    ///     }
    /// }
    /// ```
    pub fn count(self, total: u64, owner: usize) -> u64 {
        let owner = owner as u64;
        let runs = total >> self.shift;
        let partial = total & ((1u64 << self.shift) - 1);
        let whole = runs.saturating_sub(owner).div_ceil(self.peers) << self.shift;
        whole
            + if partial > 0 && runs % self.peers == owner {
                partial
            } else {
                0
            }
    }
}

/// The slots of one partition of a slice (its share of the [`Deal`]),
/// solved round by round.
#[derive(Clone, Debug)]
///
/// Two partitions of a toy slice (`Line(n)`: from slot `k` one move to
/// `k − 1`, slot 0 lost) played round by round, each tiding told to the
/// partition that owns its slot, give what [`solve`] gives:
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
/// use qi_tablebase::retrograde::{join_parts, solve, Deal, Ledger, News};
///
/// let slice = Line(6);
/// let deal = Deal::new(2, slice.run_shift());
/// let mut parts = [Ledger::new(&slice, 0, 2)?, Ledger::new(&slice, 1, 2)?];
/// let mut decided = Vec::new();
/// for part in &mut parts {
///     part.settle(0, &mut decided);
/// }
/// let (mut round, mut scheduled, mut predecessors) = (0, Vec::new(), Vec::new());
/// while !decided.is_empty() {
///     round += 1;
///     let mut next = Vec::new();
///     for (slot, wdl) in decided {
///         let Some(news) = News::of(wdl) else { continue };
///         predecessors.clear();
///         slice.predecessors(slot, &mut predecessors);
///         for &p in &predecessors {
///             parts[deal.owner(p)].tell(round, p, news, &mut next, &mut scheduled)?;
///         }
///     }
///     for part in &mut parts {
///         part.settle(round, &mut next);
///     }
///     decided = next;
/// }
/// let finished = parts.into_iter().map(Ledger::finish).collect();
/// assert_eq!(join_parts(6, 0, finished), solve(&slice)?);
/// # Ok::<(), RetroError>(())
/// ```
pub struct Ledger {
    owner: usize,
    deal: Deal,
    slots: Vec<Slot>,
    /// Rounds with something due, by local index.
    due: BTreeMap<u16, Vec<(u32, Due)>>,
}

impl Ledger {
    /// The partition `owner` of `peers` of `slice`, every slot started.
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
    /// use qi_tablebase::retrograde::Ledger;
    ///
    /// // Partition 1 of 2 of `Line(5)`: slots 1 and 3, open until the rounds.
    /// let part = Ledger::new(&Line(5), 1, 2)?;
    /// assert_eq!(part.finish(), (vec![1, 1], vec![0, 0])); // drawn if no round is played
    /// let part = Ledger::new(&Line(5), 0, 2)?; // slots 0, 2, 4: slot 0 lost from the start
    /// assert_eq!(part.finish(), (vec![0, 1, 1], vec![0, 0, 0]));
    /// # Ok::<(), RetroError>(())
    /// ```
    pub fn new<S: RetroSlice + ?Sized>(
        slice: &S,
        owner: usize,
        peers: usize,
    ) -> Result<Ledger, RetroError> {
        let deal = Deal::new(peers, slice.run_shift());
        let count = deal.count(slice.slots(), owner);
        let mut ledger = Ledger::begin(owner, deal, count);
        for local in 0..count {
            let slot = deal.slot(owner, local as usize);
            ledger.push(slot, slice.start(slot)?)?;
        }
        Ok(ledger)
    }

    /// A partition whose `count` slots are yet to be started, in order,
    /// by [`Ledger::push`] (none: what a worker that could not start its
    /// slots plays, so that the others' rounds still end).
    pub(crate) fn begin(owner: usize, deal: Deal, count: u64) -> Ledger {
        Ledger {
            owner,
            deal,
            slots: Vec::with_capacity(count as usize),
            due: BTreeMap::new(),
        }
    }

    /// Starts the partition's next slot, `slot`, as `start` says.
    pub(crate) fn push(&mut self, slot: u64, start: Start) -> Result<(), RetroError> {
        let local = self.slots.len() as u32;
        debug_assert_eq!(self.slot(local as usize), slot);
        let entry = match start.begin()? {
            Begin::Unused => Slot::decided(UNUSED, 0),
            Begin::Decided(wdl, d) => {
                if wdl != Wdl::Draw {
                    // Told to its predecessors in the round of its
                    // distance, like any decision.
                    self.schedule(d, local, Due::Tell);
                }
                Slot::decided(wdl.code(), d)
            }
            Begin::NeverLost { successors, win } => {
                if let Some(at) = win {
                    self.schedule(at, local, Due::Win);
                }
                Slot {
                    left: round::counter(slot, successors)?,
                    state: NEVER_LOST,
                    distance: 0,
                }
            }
            Begin::Losing {
                successors,
                longest_won,
                ..
            } => Slot {
                left: round::counter(slot, successors)?,
                state: OPEN,
                distance: longest_won.unwrap_or(0),
            },
        };
        self.slots.push(entry);
        Ok(())
    }

    fn schedule(&mut self, round: u16, local: u32, due: Due) {
        self.due.entry(round).or_default().push((local, due));
    }

    /// The partition's slot of `slot` (which it must own).
    fn local(&self, slot: u64) -> usize {
        debug_assert_eq!(self.deal.owner(slot), self.owner);
        self.deal.local(slot)
    }

    /// Every round with something scheduled.
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
    /// use qi_tablebase::retrograde::Ledger;
    ///
    /// // Only slot 0's loss, told in round 0; the rest waits for tidings.
    /// let part = Ledger::new(&Line(5), 0, 1)?;
    /// assert_eq!(part.due_rounds().collect::<Vec<_>>(), [0]);
    /// # Ok::<(), RetroError>(())
    /// ```
    pub fn due_rounds(&self) -> impl Iterator<Item = u16> + '_ {
        self.due.keys().copied()
    }

    /// One tiding of round `round`: `news` of a successor of `slot` (a
    /// slot of this partition) decided at `round − 1`. Appends to
    /// `decided` the slot if it is decided at `round`, and to `scheduled`
    /// the round it is newly scheduled for (later than `round`). Tidings
    /// of one round may come in any order and before or after
    /// [`Ledger::settle`] of that round, but after every earlier round was
    /// settled.
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
    /// use qi_tablebase::retrograde::{Ledger, News};
    ///
    /// let mut part = Ledger::new(&Line(3), 0, 1)?;
    /// let (mut decided, mut scheduled) = (Vec::new(), Vec::new());
    /// // Round 1: slot 1's one successor (slot 0) is lost: slot 1 wins in 1.
    /// part.tell(1, 1, News::Lost, &mut decided, &mut scheduled)?;
    /// assert_eq!(decided, [(1, Wdl::Win)]);
    /// // Round 2: slot 2's one successor is won: slot 2 is lost in 2.
    /// part.tell(2, 2, News::Won, &mut decided, &mut scheduled)?;
    /// assert_eq!(decided[1], (2, Wdl::Loss));
    /// // A tiding for a slot already decided changes nothing.
    /// part.tell(2, 1, News::Won, &mut decided, &mut scheduled)?;
    /// assert_eq!(decided.len(), 2);
    /// # Ok::<(), RetroError>(())
    /// ```
    pub fn tell(
        &mut self,
        round: u16,
        slot: u64,
        news: News,
        decided: &mut Vec<(u64, Wdl)>,
        scheduled: &mut Vec<u16>,
    ) -> Result<(), RetroError> {
        let local = self.local(slot);
        let s = &mut self.slots[local];
        if s.state >= DECIDED {
            return Ok(());
        }
        // A never-lost slot's distance is 0 here: an exit's win is
        // scheduled (`Due::Win`) and decided when its round is settled,
        // before the tidings of any later round: none is sooner than
        // `round` here.
        match round::hear(slot, news, round, s.left, s.state == NEVER_LOST, s.distance)? {
            Heard::Won(at) => self.decide(local, Wdl::Win, at, decided),
            Heard::Left(left) => s.left = left,
            Heard::Lost(Loss::Now(at)) => self.decide(local, Wdl::Loss, at, decided),
            Heard::Lost(Loss::Held(at)) => {
                s.left = 0;
                self.schedule(at, local as u32, Due::Loss);
                scheduled.push(at);
            }
        }
        Ok(())
    }

    /// Decides what was scheduled for round `round` (exits' wins, held
    /// back losses) and tells again the slots decided from the start at
    /// that distance; appends them to `decided`.
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
    /// use qi_tablebase::retrograde::Ledger;
    ///
    /// let mut part = Ledger::new(&Line(3), 0, 1)?;
    /// let mut decided = Vec::new();
    /// part.settle(0, &mut decided); // slot 0, lost from the start, told now
    /// assert_eq!(decided, [(0, Wdl::Loss)]);
    /// part.settle(0, &mut decided); // done once
    /// assert_eq!(decided.len(), 1);
    /// # Ok::<(), RetroError>(())
    /// ```
    pub fn settle(&mut self, round: u16, decided: &mut Vec<(u64, Wdl)>) {
        let Some(due) = self.due.remove(&round) else {
            return;
        };
        for (local, due) in due {
            let local = local as usize;
            match due {
                Due::Win | Due::Loss if self.slots[local].state >= DECIDED => {}
                Due::Win => self.decide(local, Wdl::Win, round, decided),
                Due::Loss => self.decide(local, Wdl::Loss, round, decided),
                Due::Tell => {
                    let code = self.slots[local].state - DECIDED;
                    if let Some(wdl) = Wdl::from_code(code) {
                        decided.push((self.slot(local), wdl));
                    }
                }
            }
        }
    }

    fn slot(&self, local: usize) -> u64 {
        self.deal.slot(self.owner, local)
    }

    fn decide(&mut self, local: usize, wdl: Wdl, round: u16, decided: &mut Vec<(u64, Wdl)>) {
        self.slots[local] = Slot::decided(wdl.code(), round);
        decided.push((self.slot(local), wdl));
    }

    /// The partition's values, what is still open drawn: codes and
    /// distances by local index.
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
    /// use qi_tablebase::retrograde::{Ledger, News};
    ///
    /// let mut part = Ledger::new(&Line(3), 0, 1)?;
    /// part.tell(1, 1, News::Lost, &mut Vec::new(), &mut Vec::new())?;
    /// // Slot 0 lost, slot 1 won in 1, slot 2 never told: drawn.
    /// assert_eq!(part.finish(), (vec![0, 2, 1], vec![0, 1, 0]));
    /// # Ok::<(), RetroError>(())
    /// ```
    pub fn finish(self) -> (Vec<u8>, Vec<u16>) {
        self.slots
            .into_iter()
            .map(|s| {
                if s.state >= DECIDED {
                    (s.state - DECIDED, s.distance)
                } else {
                    (Wdl::Draw.code(), 0)
                }
            })
            .unzip()
    }
}

impl Slot {
    fn decided(code: u8, distance: u16) -> Slot {
        Slot {
            left: 0,
            state: DECIDED + code,
            distance,
        }
    }
}

/// Joins the partitions of a slice of `total` slots dealt in runs of
/// `2^shift`: `parts[k]` is partition `k` of `parts.len()`
/// ([`Ledger::finish`]'s arrays).
///
/// ```
/// use qi_tablebase::retrograde::join_parts;
/// use qi_tablebase::Wdl;
///
/// // Slots 0 and 2 in partition 0, slot 1 in partition 1.
/// let parts = vec![(vec![0, 2], vec![0, 2]), (vec![1], vec![0])];
/// let values = join_parts(3, 0, parts);
/// assert_eq!(values.get(2), Some((Wdl::Win, 2)));
/// assert_eq!(values.get(1), Some((Wdl::Draw, 0)));
/// ```
pub fn join_parts(total: u64, shift: u32, parts: Vec<(Vec<u8>, Vec<u16>)>) -> SliceValues {
    let deal = Deal::new(parts.len(), shift);
    let mut values = SliceValues {
        codes: vec![UNUSED; total as usize],
        distances: vec![0; total as usize],
    };
    for (owner, (codes, distances)) in parts.into_iter().enumerate() {
        for (local, (c, d)) in codes.into_iter().zip(distances).enumerate() {
            let slot = deal.slot(owner, local) as usize;
            values.codes[slot] = c;
            values.distances[slot] = d;
        }
    }
    values
}

/// A [`RetroSlice`] as the in-core solver's cells: its slots, each
/// started by [`RetroSlice::start`], un-moved by
/// [`RetroSlice::predecessors`] ([`solve`]).
impl<S: RetroSlice + ?Sized> Cells for S {
    type Error = RetroError;

    fn cells(&self) -> u64 {
        self.slots()
    }

    fn start_part(
        &self,
        mut part: Range<u64>,
        record: &mut dyn FnMut(u64, Start) -> Result<(), RetroError>,
    ) -> Result<(), RetroError> {
        part.try_for_each(|slot| record(slot, self.start(slot)?))
    }

    fn unmoves(&self, cell: u64, out: &mut Vec<u64>) {
        self.predecessors(cell, out);
    }
}

/// A slice's error where a game's generation solves its slice (what the
/// in-core solver refuses, Jungle's starts): past the longest distance,
/// too many positions, or a fault the generator's own checks (the tables
/// read) leave to a bug.
impl From<RetroError> for GenerateError {
    fn from(error: RetroError) -> GenerateError {
        match error {
            RetroError::TooDeep => GenerateError::TooDeep,
            RetroError::TooLarge { name } => GenerateError::TooLarge(name),
            error => GenerateError::Internal(error.to_string()),
        }
    }
}

/// Solves `slice` on this thread: the crate's in-core solver (the one
/// every game's in-core generation runs) over its slots.
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
/// // `Line(n)`: from slot `k` one move to `k − 1`; slot 0 has lost.
/// let values = qi_tablebase::retrograde::solve(&Line(5))?;
/// let wdl: Vec<_> = (0..5).map(|s| values.get(s).unwrap().0).collect();
/// assert_eq!(wdl, [Wdl::Loss, Wdl::Win, Wdl::Loss, Wdl::Win, Wdl::Loss]);
/// assert_eq!(values.distances, [0, 1, 2, 3, 4]);
/// # Ok::<(), RetroError>(())
/// ```
pub fn solve<S: RetroSlice + ?Sized>(slice: &S) -> Result<SliceValues, RetroError> {
    let (codes, distances) = in_core::solve("the slice", slice, 1)?.into_values();
    Ok(SliceValues { codes, distances })
}

#[cfg(test)]
mod tests;
