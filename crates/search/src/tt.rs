//! The transposition table: buckets of four 16-byte entries (for moves of
//! up to 3 bytes) aligned to a cache line, keyed by Zobrist key, replaced
//! by depth and age.

use std::mem::size_of;
use std::sync::{Mutex, PoisonError};

use thiserror::Error;

/// Entries that share one bucket (one index of the table).
pub const BUCKET_SIZE: usize = 4;

/// What a stored value says about the true value of its position.
///
/// ```
/// use qi_games::search::tt::{Bound, TranspositionTable};
///
/// let mut table = TranspositionTable::<u16>::new(1);
/// table.store(7, None, 35, 4, Bound::Lower);
/// // A beta cutoff: the true value is at least 35.
/// assert_eq!(table.probe(7).map(|e| e.bound), Some(Bound::Lower));
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Bound {
    /// Nothing stored (an empty slot).
    Empty,
    /// The true value is at least the stored value (a beta cutoff).
    Lower,
    /// The true value is at most the stored value (all moves failed low).
    Upper,
    /// The stored value is the true value at the stored depth.
    Exact,
}

/// One stored search result.
///
/// ```
/// use qi_games::jungle::{Jungle, Move};
/// use qi_games::prelude::*;
/// use qi_games::search::tt::{Bound, TranspositionTable};
///
/// let pos = Jungle::default();
/// let best: Move = "a3a4".parse()?;
/// let mut table = TranspositionTable::new(1);
/// table.store(pos.zobrist(), Some(best), 12, 6, Bound::Exact);
/// let entry = table.probe(pos.zobrist()).expect("just stored");
/// assert_eq!((entry.key, entry.mv, entry.value, entry.depth), (pos.zobrist(), Some(best), 12, 6));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Entry<M> {
    /// The full Zobrist key of the position.
    pub key: u64,
    /// The best (or refuting) move found, if any.
    pub mv: Option<M>,
    /// The value, with mate scores relative to the stored position.
    pub value: i32,
    /// The remaining depth the value was searched to.
    pub depth: u8,
    /// How `value` bounds the true value.
    pub bound: Bound,
    /// The search generation that stored it.
    age: u8,
}

/// One stored result as the table holds it: 16 bytes for a move of up to
/// 3 bytes (value narrowed to `i16`; every search value fits).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Slot<M> {
    key: u64,
    mv: Option<M>,
    value: i16,
    depth: u8,
    bound: Bound,
    age: u8,
}

impl<M> Slot<M> {
    const EMPTY: Slot<M> = Slot {
        key: 0,
        mv: None,
        value: 0,
        depth: 0,
        bound: Bound::Empty,
        age: 0,
    };
}

impl<M: Copy> Slot<M> {
    #[inline(always)]
    fn entry(&self) -> Entry<M> {
        Entry {
            key: self.key,
            mv: self.mv,
            value: i32::from(self.value),
            depth: self.depth,
            bound: self.bound,
            age: self.age,
        }
    }
}

/// The slots of one index, aligned to a cache line: a probe touches one
/// line (for moves of up to 3 bytes).
#[derive(Clone, Copy, Debug)]
#[repr(align(64))]
struct Bucket<M>([Slot<M>; BUCKET_SIZE]);

impl<M> Bucket<M> {
    const EMPTY: Bucket<M> = Bucket([Slot::EMPTY; BUCKET_SIZE]);
}

/// A transposition table of the size asked for could not be allocated.
///
/// ```
/// use qi_search::tt::{TableAllocError, TranspositionTable};
///
/// let error = TranspositionTable::<u16>::try_new(usize::MAX).unwrap_err();
/// assert_eq!(error, TableAllocError { mib: usize::MAX });
/// assert_eq!(error.to_string(), format!("cannot allocate a transposition table of {} MiB", usize::MAX));
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Error)]
#[error("cannot allocate a transposition table of {mib} MiB")]
pub struct TableAllocError {
    /// The size asked for, in MiB.
    pub mib: usize,
}

/// `count` empty buckets, or the error for a table of `mib` MiB when the
/// memory cannot be had (rather than the process aborting).
fn buckets<M: Copy>(count: usize, mib: usize) -> Result<Vec<Bucket<M>>, TableAllocError> {
    let mut buckets = Vec::new();
    buckets
        .try_reserve_exact(count)
        .map_err(|_| TableAllocError { mib })?;
    buckets.resize(count, Bucket::EMPTY);
    Ok(buckets)
}

/// A fixed-size table of [`Entry`] buckets. A table of 0 MiB stores nothing.
///
/// The [`Searcher`](crate::Searcher) owns one; a search of one's own can
/// use it alone.
///
/// ```
/// use qi_games::search::tt::{Bound, TranspositionTable};
///
/// let mut table = TranspositionTable::<u16>::new(1);
/// table.store(42, Some(3), -20, 5, Bound::Upper);
/// assert_eq!(table.probe(42).map(|e| (e.mv, e.value)), Some((Some(3), -20)));
/// assert_eq!(table.probe(43), None);
///
/// let mut none = TranspositionTable::<u16>::new(0);
/// none.store(42, Some(3), -20, 5, Bound::Upper);
/// assert_eq!(none.probe(42), None);
/// ```
#[derive(Clone, Debug)]
pub struct TranspositionTable<M> {
    buckets: Vec<Bucket<M>>,
    age: u8,
}

impl<M: Copy> TranspositionTable<M> {
    /// A table of about `mib` MiB (at least one bucket unless `mib` is 0).
    ///
    /// ```
    /// use qi_games::search::tt::TranspositionTable;
    ///
    /// assert!(TranspositionTable::<u16>::new(1).buckets() > 1000);
    /// assert_eq!(TranspositionTable::<u16>::new(0).buckets(), 0);
    /// ```
    ///
    /// # Panics
    ///
    /// If the memory cannot be allocated; [`try_new`](Self::try_new) says
    /// so instead (for a size a user chose).
    pub fn new(mib: usize) -> TranspositionTable<M> {
        TranspositionTable::try_new(mib).unwrap_or_else(|e| panic!("{e}"))
    }

    /// A table of about `mib` MiB (at least one bucket unless `mib` is 0),
    /// or an error if the memory cannot be allocated.
    ///
    /// ```
    /// use qi_search::tt::TranspositionTable;
    ///
    /// assert!(TranspositionTable::<u16>::try_new(1).unwrap().buckets() > 1000);
    /// assert!(TranspositionTable::<u16>::try_new(usize::MAX).is_err());
    /// ```
    pub fn try_new(mib: usize) -> Result<TranspositionTable<M>, TableAllocError> {
        let bucket_bytes = size_of::<Bucket<M>>().max(1);
        let count = if mib == 0 {
            0
        } else {
            (mib.saturating_mul(1 << 20) / bucket_bytes).max(1)
        };
        Ok(TranspositionTable {
            buckets: buckets(count, mib)?,
            age: 0,
        })
    }

    /// The number of buckets.
    ///
    /// ```
    /// use qi_games::search::tt::TranspositionTable;
    ///
    /// let (one, two) = (TranspositionTable::<u16>::new(1), TranspositionTable::<u16>::new(2));
    /// assert_eq!(two.buckets(), 2 * one.buckets());
    /// ```
    pub fn buckets(&self) -> usize {
        self.buckets.len()
    }

    /// Forgets every entry.
    ///
    /// ```
    /// use qi_games::search::tt::{Bound, TranspositionTable};
    ///
    /// let mut table = TranspositionTable::<u16>::new(1);
    /// table.store(42, None, 0, 1, Bound::Exact);
    /// table.clear();
    /// assert_eq!(table.probe(42), None);
    /// ```
    pub fn clear(&mut self) {
        self.buckets.fill(Bucket::EMPTY);
        self.age = 0;
    }

    /// Starts a new search generation: older entries become the first to be
    /// replaced.
    ///
    /// ```
    /// use qi_games::search::tt::{Bound, TranspositionTable};
    ///
    /// let mut table = TranspositionTable::<u16>::new(1);
    /// table.store(0, None, 0, 1, Bound::Exact);
    /// table.new_search();
    /// // Still there, and no longer counted as this search's.
    /// assert!(table.probe(0).is_some());
    /// assert_eq!(table.hashfull(), 0);
    /// ```
    pub fn new_search(&mut self) {
        self.age = self.age.wrapping_add(1);
    }

    #[inline]
    fn index(&self, key: u64) -> usize {
        ((u128::from(key) * self.buckets.len() as u128) >> 64) as usize
    }

    /// The entry stored for `key`, if any.
    ///
    /// ```
    /// use qi_games::search::tt::{Bound, TranspositionTable};
    ///
    /// let mut table = TranspositionTable::<u16>::new(1);
    /// assert_eq!(table.probe(42), None);
    /// table.store(42, Some(9), 100, 3, Bound::Exact);
    /// assert_eq!(table.probe(42).map(|e| e.mv), Some(Some(9)));
    /// ```
    #[inline]
    pub fn probe(&self, key: u64) -> Option<Entry<M>> {
        if self.buckets.is_empty() {
            return None;
        }
        self.buckets[self.index(key)]
            .0
            .iter()
            .find(|e| e.key == key && e.bound != Bound::Empty)
            .map(Slot::entry)
    }

    /// Stores a result for `key`. An entry of the same key is overwritten
    /// (keeping its move when `mv` is `None`) unless it is much deeper and
    /// from this search; otherwise the slot replaced is an empty one, else
    /// the one with the least depth, older generations counting as
    /// shallower.
    ///
    /// ```
    /// use qi_games::search::tt::{Bound, TranspositionTable};
    ///
    /// let mut table = TranspositionTable::<u16>::new(1);
    /// table.store(42, Some(9), 100, 3, Bound::Exact);
    /// // A deeper result without a move keeps the move known.
    /// table.store(42, None, 80, 5, Bound::Lower);
    /// let entry = table.probe(42).unwrap();
    /// assert_eq!((entry.mv, entry.value, entry.depth), (Some(9), 80, 5));
    /// // A much shallower bound of this search does not replace it.
    /// table.store(42, None, 10, 1, Bound::Upper);
    /// assert_eq!(table.probe(42).unwrap().depth, 5);
    /// ```
    #[inline]
    pub fn store(&mut self, key: u64, mv: Option<M>, value: i32, depth: u32, bound: Bound) {
        if self.buckets.is_empty() {
            return;
        }
        let age = self.age;
        let index = self.index(key);
        let bucket = &mut self.buckets[index].0;
        let depth = depth.min(u32::from(u8::MAX)) as u8;
        let slot = match bucket
            .iter()
            .position(|e| e.bound != Bound::Empty && e.key == key)
        {
            Some(i) => {
                let old = bucket[i];
                if old.age == age
                    && bound != Bound::Exact
                    && u32::from(old.depth) > u32::from(depth) + 2
                {
                    return;
                }
                i
            }
            None => {
                let worth = |e: &Slot<M>| -> i32 {
                    if e.bound == Bound::Empty {
                        return i32::MIN;
                    }
                    let stale = i32::from(age.wrapping_sub(e.age));
                    i32::from(e.depth) - 8 * stale
                };
                let mut best = 0;
                for i in 1..BUCKET_SIZE {
                    if worth(&bucket[i]) < worth(&bucket[best]) {
                        best = i;
                    }
                }
                best
            }
        };
        let entry = &mut bucket[slot];
        let mv = if mv.is_none() && entry.key == key {
            entry.mv
        } else {
            mv
        };
        *entry = Slot {
            key,
            mv,
            value: value.clamp(i32::from(i16::MIN), i32::from(i16::MAX)) as i16,
            depth,
            bound,
            age,
        };
    }

    /// Permille of the first thousand buckets' slots filled by this search
    /// generation (UCI `hashfull`).
    ///
    /// ```
    /// use qi_games::search::tt::{Bound, TranspositionTable};
    ///
    /// let mut table = TranspositionTable::<u16>::new(1);
    /// assert_eq!(table.hashfull(), 0);
    /// for i in 0..100_000u64 {
    ///     table.store(i.wrapping_mul(0x9E37_79B9_7F4A_7C15), None, 0, 1, Bound::Exact);
    /// }
    /// assert!(table.hashfull() > 500);
    /// ```
    pub fn hashfull(&self) -> u32 {
        let sample = self.buckets.len().min(1000);
        if sample == 0 {
            return 0;
        }
        let used: usize = self.buckets[..sample]
            .iter()
            .flat_map(|b| b.0.iter())
            .filter(|e| e.bound != Bound::Empty && e.age == self.age)
            .count();
        (used * 1000 / (sample * BUCKET_SIZE)) as u32
    }
}

/// Most shards a [`SharedTable`] has (a power of two).
const MAX_SHARDS: usize = 256;
/// Fewest shards a [`SharedTable`] has: with one lock per shard, enough
/// that two or four threads rarely wait for each other.
const MIN_SHARDS: usize = 16;
/// Smallest shard of a large [`SharedTable`], in MiB. glibc's `malloc`
/// serves a request below its mmap threshold from an arena, and it raises
/// that threshold up to 32 MiB to the size of every mapped block freed: a
/// table of 4 MiB shards, once one such table was freed, came from the
/// arena of whichever thread asked, where a freed table could stay behind
/// (two tables' worth of memory, the flaky peak of the engine's
/// `a_new_table_is_allocated_only_after_the_old_one_is_freed`). Shards of
/// at least 64 MiB are always mapped, and unmapped when freed.
const LARGE_SHARD_MIB: usize = 64;

/// The number of shards for a table of `mib` MiB: a power of two from
/// [`MIN_SHARDS`] to [`MAX_SHARDS`], the most that keeps shards of at
/// least [`LARGE_SHARD_MIB`] (tables under 1 GiB have [`MIN_SHARDS`]).
fn shard_count(mib: usize) -> usize {
    let large = mib / LARGE_SHARD_MIB;
    if large == 0 {
        MIN_SHARDS
    } else {
        // The largest power of two not above `large`.
        (1usize << large.ilog2()).clamp(MIN_SHARDS, MAX_SHARDS)
    }
}

/// A transposition table shared by several search threads: shards of
/// [`TranspositionTable`], each behind its own lock (held only for one
/// probe or store).
///
/// ```
/// use qi_games::search::tt::{Bound, SharedTable};
///
/// let table = SharedTable::<u16>::new(1);
/// std::thread::scope(|s| {
///     for t in 0..4u64 {
///         let table = &table;
///         s.spawn(move || table.store(t, Some(t as u16), 0, 1, Bound::Exact));
///     }
/// });
/// assert!((0..4).all(|t| table.probe(t).map(|e| e.mv) == Some(Some(t as u16))));
/// ```
#[derive(Debug)]
pub struct SharedTable<M> {
    shards: Vec<Mutex<TranspositionTable<M>>>,
    /// `shards.len() - 1` (the length is a power of two).
    mask: usize,
}

impl<M: Copy> SharedTable<M> {
    /// A table of about `mib` MiB in all (nothing stored when `mib` is 0).
    ///
    /// ```
    /// use qi_games::search::tt::{Bound, SharedTable};
    ///
    /// let none = SharedTable::<u16>::new(0);
    /// none.store(42, None, 0, 1, Bound::Exact);
    /// assert_eq!(none.probe(42), None);
    /// ```
    ///
    /// # Panics
    ///
    /// If the memory cannot be allocated; [`try_new`](Self::try_new) says
    /// so instead.
    pub fn new(mib: usize) -> SharedTable<M> {
        SharedTable::try_new(mib).unwrap_or_else(|e| panic!("{e}"))
    }

    /// A table of about `mib` MiB in all (nothing stored when `mib` is 0),
    /// or an error if the memory cannot be allocated.
    ///
    /// ```
    /// use qi_search::tt::SharedTable;
    ///
    /// assert!(SharedTable::<u16>::try_new(1).is_ok());
    /// assert!(SharedTable::<u16>::try_new(usize::MAX).is_err());
    /// ```
    pub fn try_new(mib: usize) -> Result<SharedTable<M>, TableAllocError> {
        let count = shard_count(mib);
        let per_shard_bytes = mib.saturating_mul(1 << 20) / count;
        let bucket_bytes = size_of::<Bucket<M>>().max(1);
        let per_shard = if mib == 0 {
            0
        } else {
            (per_shard_bytes / bucket_bytes).max(1)
        };
        let mut shards = Vec::with_capacity(count);
        for _ in 0..count {
            shards.push(Mutex::new(TranspositionTable {
                buckets: buckets(per_shard, mib)?,
                age: 0,
            }));
        }
        Ok(SharedTable {
            shards,
            mask: count - 1,
        })
    }

    #[inline]
    fn shard(&self, key: u64) -> std::sync::MutexGuard<'_, TranspositionTable<M>> {
        // The low bits pick the shard, the high bits the bucket within it.
        self.shards[key as usize & self.mask]
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
    }

    /// Forgets every entry.
    ///
    /// ```
    /// use qi_games::search::tt::{Bound, SharedTable};
    ///
    /// let table = SharedTable::<u16>::new(1);
    /// table.store(42, None, 0, 1, Bound::Exact);
    /// table.clear();
    /// assert_eq!(table.probe(42), None);
    /// ```
    pub fn clear(&self) {
        for shard in &self.shards {
            shard.lock().unwrap_or_else(PoisonError::into_inner).clear();
        }
    }

    /// Starts a new search generation.
    ///
    /// ```
    /// use qi_games::search::tt::{Bound, SharedTable};
    ///
    /// let table = SharedTable::<u16>::new(1);
    /// table.store(0, None, 0, 1, Bound::Exact);
    /// table.new_search();
    /// assert!(table.probe(0).is_some());
    /// assert_eq!(table.hashfull(), 0);
    /// ```
    pub fn new_search(&self) {
        for shard in &self.shards {
            shard
                .lock()
                .unwrap_or_else(PoisonError::into_inner)
                .new_search();
        }
    }

    /// The entry stored for `key`, if any.
    ///
    /// ```
    /// use qi_games::search::tt::{Bound, SharedTable};
    ///
    /// let table = SharedTable::<u16>::new(1);
    /// assert_eq!(table.probe(42), None);
    /// table.store(42, Some(1), 7, 2, Bound::Lower);
    /// assert_eq!(table.probe(42).map(|e| (e.value, e.bound)), Some((7, Bound::Lower)));
    /// ```
    #[inline]
    pub fn probe(&self, key: u64) -> Option<Entry<M>> {
        self.shard(key).probe(key)
    }

    /// Stores a result for `key` (see [`TranspositionTable::store`]).
    ///
    /// ```
    /// use qi_games::search::tt::{Bound, SharedTable};
    ///
    /// let table = SharedTable::<u16>::new(1);
    /// table.store(42, Some(1), 7, 2, Bound::Exact);
    /// table.store(42, None, 9, 4, Bound::Exact);
    /// assert_eq!(table.probe(42).map(|e| (e.mv, e.value)), Some((Some(1), 9)));
    /// ```
    #[inline]
    pub fn store(&self, key: u64, mv: Option<M>, value: i32, depth: u32, bound: Bound) {
        self.shard(key).store(key, mv, value, depth, bound);
    }

    ///
    /// ```
    /// use qi_games::search::tt::{Bound, SharedTable};
    ///
    /// let table = SharedTable::<u16>::new(1);
    /// assert_eq!(table.hashfull(), 0);
    /// for i in 0..100_000u64 {
    ///     table.store(i.wrapping_mul(0x9E37_79B9_7F4A_7C15), None, 0, 1, Bound::Exact);
    /// }
    /// assert!(table.hashfull() > 500);
    /// ```
    /// Permille of the first shard's sample filled by this search
    /// generation (UCI `hashfull`).
    pub fn hashfull(&self) -> u32 {
        self.shard(0).hashfull()
    }
}

/// What the search needs of a table, local or shared.
pub(crate) trait TableAccess<M> {
    fn probe(&mut self, key: u64) -> Option<Entry<M>>;
    fn store(&mut self, key: u64, mv: Option<M>, value: i32, depth: u32, bound: Bound);
    fn hashfull(&self) -> u32;
}

impl<M: Copy> TableAccess<M> for &mut TranspositionTable<M> {
    #[inline]
    fn probe(&mut self, key: u64) -> Option<Entry<M>> {
        TranspositionTable::probe(self, key)
    }

    #[inline]
    fn store(&mut self, key: u64, mv: Option<M>, value: i32, depth: u32, bound: Bound) {
        TranspositionTable::store(self, key, mv, value, depth, bound);
    }

    fn hashfull(&self) -> u32 {
        TranspositionTable::hashfull(self)
    }
}

impl<M: Copy> TableAccess<M> for &SharedTable<M> {
    #[inline]
    fn probe(&mut self, key: u64) -> Option<Entry<M>> {
        SharedTable::probe(self, key)
    }

    #[inline]
    fn store(&mut self, key: u64, mv: Option<M>, value: i32, depth: u32, bound: Bound) {
        SharedTable::store(self, key, mv, value, depth, bound);
    }

    fn hashfull(&self) -> u32 {
        SharedTable::hashfull(self)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn store_and_probe() {
        let mut tt = TranspositionTable::<u16>::new(1);
        assert!(tt.buckets() > 1000);
        assert_eq!(tt.probe(42), None);
        tt.store(42, Some(7), 100, 5, Bound::Exact);
        let e = tt.probe(42).unwrap();
        assert_eq!(
            (e.mv, e.value, e.depth, e.bound),
            (Some(7), 100, 5, Bound::Exact)
        );
        // Same key, no move: the old move is kept.
        tt.store(42, None, -3, 6, Bound::Upper);
        let e = tt.probe(42).unwrap();
        assert_eq!(
            (e.mv, e.value, e.depth, e.bound),
            (Some(7), -3, 6, Bound::Upper)
        );
        // A much shallower non-exact result of this search does not replace.
        tt.store(42, Some(1), 9, 1, Bound::Lower);
        assert_eq!(tt.probe(42).unwrap().depth, 6);
        tt.clear();
        assert_eq!(tt.probe(42), None);
    }

    #[test]
    fn large_tables_have_shards_of_at_least_64_mib() {
        assert_eq!(shard_count(0), MIN_SHARDS);
        assert_eq!(shard_count(16), MIN_SHARDS);
        assert_eq!(shard_count(1023), MIN_SHARDS);
        assert_eq!(shard_count(1024), 16);
        assert_eq!(shard_count(1100), 16);
        assert_eq!(shard_count(4096), 64);
        assert_eq!(shard_count(1 << 20), MAX_SHARDS);
        for mib in [1024, 1100, 3000, 4096, 20_000, 1 << 20] {
            let n = shard_count(mib);
            assert!(n.is_power_of_two());
            assert!(mib / n >= LARGE_SHARD_MIB, "{mib} MiB in {n} shards");
        }
        let t = SharedTable::<u16>::new(2);
        assert_eq!(t.shards.len(), MIN_SHARDS);
        t.store(5, Some(3), 1, 2, Bound::Exact);
        assert_eq!(t.probe(5).unwrap().mv, Some(3));
    }

    #[test]
    fn buckets_fill_one_cache_line() {
        assert_eq!(size_of::<Slot<[u8; 2]>>(), 16);
        assert_eq!(size_of::<Bucket<[u8; 2]>>(), 64);
        assert_eq!(std::mem::align_of::<Bucket<[u8; 2]>>(), 64);
        // Values are stored narrowed and read back whole.
        let mut tt = TranspositionTable::<[u8; 2]>::new(1);
        for v in [0, -30_001, 30_001, 19_000] {
            tt.store(9, None, v, 1, Bound::Exact);
            assert_eq!(tt.probe(9).unwrap().value, v);
        }
    }

    #[test]
    fn zero_size_table_stores_nothing() {
        let mut tt = TranspositionTable::<u16>::new(0);
        tt.store(1, Some(1), 1, 1, Bound::Exact);
        assert_eq!(tt.probe(1), None);
        assert_eq!(tt.hashfull(), 0);
    }

    #[test]
    fn replacement_prefers_shallow_and_old() {
        // A single-bucket table: every key collides.
        let mut tt = TranspositionTable::<u16> {
            buckets: vec![Bucket::EMPTY; 1],
            age: 0,
        };
        for (key, depth) in [(1u64, 9u32), (2, 3), (3, 7), (4, 8)] {
            tt.store(key, None, 0, depth, Bound::Exact);
        }
        tt.store(5, None, 0, 4, Bound::Exact);
        assert_eq!(tt.probe(2), None, "the shallowest entry is replaced");
        assert!(tt.probe(5).is_some());
        tt.new_search();
        tt.new_search();
        tt.store(6, None, 0, 1, Bound::Exact);
        // All older entries count as stale; the shallowest old one goes.
        assert_eq!(tt.probe(5), None);
        assert!(tt.probe(1).is_some() && tt.probe(6).is_some());
        assert!(tt.hashfull() > 0);
    }

    #[test]
    fn shared_table_stores_across_threads() {
        let tt = SharedTable::<u16>::new(1);
        std::thread::scope(|s| {
            for t in 0..4u64 {
                let tt = &tt;
                s.spawn(move || {
                    for k in 0..1000u64 {
                        let key = (k * 4 + t).wrapping_mul(0x9E37_79B9_7F4A_7C15);
                        tt.store(key, Some(t as u16), k as i32, 3, Bound::Exact);
                    }
                });
            }
        });
        let key = (7 * 4 + 2u64).wrapping_mul(0x9E37_79B9_7F4A_7C15);
        let e = tt.probe(key).unwrap();
        assert_eq!((e.mv, e.value), (Some(2), 7));
        tt.new_search();
        tt.clear();
        assert_eq!(tt.probe(key), None);
        let none = SharedTable::<u16>::new(0);
        none.store(1, None, 0, 1, Bound::Exact);
        assert_eq!(none.probe(1), None);
    }
}
