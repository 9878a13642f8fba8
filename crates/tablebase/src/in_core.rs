//! The in-core solver: every retrograde generator that holds a material's
//! values in memory runs it, and it is what each game's
//! [`Solver::solve`](crate::driver::Solver::solve) runs (Jungle's over
//! the slots of its index, Five Tigers' with the shuttle allowed over the
//! slots of its dense index, and under the shuttle ban over the cells of
//! the ban index): the game gives the slice and builds its table from
//! the solved cells; this module is generic over the slice ([`Cells`]:
//! its cells, how each starts, its un-moves, its error; every
//! `RetroSlice` is one, which is how `retrograde::solve` runs it) and
//! over the width of a distance while solving ([`Distance`]: one byte,
//! solved again with two when a distance does not fit).
//!
//! Each cell has a state byte and a distance. The transition rule is
//! [`crate::round`]'s: the rounds go distance by distance, each a scan of
//! the arrays for the cells decided at that distance (a decided cell's
//! distance, a winning exit's, a lost cell's longest losing exit say when
//! a cell is due: no queue is held), whose predecessors are then told,
//! won at the next distance or one successor fewer. What no round decides
//! is drawn.

use std::ops::Range;

use crate::round::{self, Begin, Heard, Loss, News, RetroError, Start, MAX_SUCCESSORS};
use crate::value::{pack_in_place, Distances, Wdl, ONE_BYTE_LONGEST, UNUSED};

/// A slice as the in-core solver sees it: its cells, how the cells of a
/// part start, and the un-moves of a cell.
pub(crate) trait Cells: Sync {
    /// What a start fails with, and so the solution: the slice's own
    /// error, which also says what the solver refuses ([`RetroError`]).
    type Error: From<RetroError> + Send;

    /// The number of cells, `0..cells()`.
    fn cells(&self) -> u64;

    /// The units the slice starts its cells by, `0..units()`: each a run
    /// of consecutive cells (a part started apart, on the threads, is a
    /// run of units). By default cells.
    fn units(&self) -> u64 {
        self.cells()
    }

    /// The first cell of unit `unit`, growing with `unit`
    /// (`first_cell(units())` is `cells()`). By default `unit`.
    fn first_cell(&self, unit: u64) -> u64 {
        unit
    }

    /// Starts the cells of the units `part` in order: `record(cell,
    /// start)` for each.
    fn start_part(
        &self,
        part: Range<u64>,
        record: &mut dyn FnMut(u64, Start) -> Result<(), Self::Error>,
    ) -> Result<(), Self::Error>;

    /// Appends to `out` the distinct cells from which one move leads to
    /// `cell` (a decided cell), in any order.
    fn unmoves(&self, cell: u64, out: &mut Vec<u64>);
}

/// Working bytes per 4 cells: the state byte and a one-byte distance
/// while solving (see [`Distance`]); a table's values are packed into the
/// state bytes and its distances are the solving distances, zeroed where
/// undecided, in place: 8 bytes, no queue (the frontier of a round is a
/// block of [`BLOCK`] cells at a time). A material with a distance past
/// 254 plies is solved again with two bytes a distance.
pub(crate) const BYTES_PER_4_CELLS: u64 = 4 * 2;

/// The solved cells: their state bytes ([`WIN`], [`LOSS`],
/// [`UNUSED_STATE`], anything else drawn) and the table's distances (each
/// decided cell's, 0 for the others, in the narrowest width that holds
/// them).
pub(crate) struct Solved {
    states: Vec<u8>,
    distances: Distances,
}

impl Solved {
    /// The solved arrays of a width: the table's distances are the
    /// solving ones, each undecided cell's zeroed, in place.
    pub(crate) fn of<D: Distance>((states, mut dist): Arrays<D>) -> Solved {
        for (d, &s) in dist.iter_mut().zip(&states) {
            if s != WIN && s != LOSS {
                *d = D::default();
            }
        }
        let distances = D::into_table(dist);
        Solved { states, distances }
    }

    /// The cells' values (2 bits each, packed on `threads` threads: a
    /// cell no position uses gets [`UNUSED`]) and distances; the values
    /// are packed into the state bytes themselves, cut to a quarter.
    pub(crate) fn pack(self, threads: usize) -> (Vec<u8>, Distances) {
        (pack_in_place(self.states, threads, code), self.distances)
    }

    /// The value code and distance of each cell (a slice's values,
    /// `retrograde::SliceValues`).
    pub(crate) fn into_values(self) -> (Vec<u8>, Vec<u16>) {
        let distances = &self.distances;
        (self.states.iter().enumerate())
            .map(|(i, &s)| (code(s), distances.get(i) as u16))
            .unzip()
    }
}

/// The value code of a solved cell's state byte.
fn code(state: u8) -> u8 {
    match state {
        WIN => Wdl::Win.code(),
        LOSS => Wdl::Loss.code(),
        UNUSED_STATE => UNUSED,
        _ => Wdl::Draw.code(),
    }
}

/// Solves `cells` on `threads` threads: distances of one byte while
/// solving, solved again with two when one does not fit.
///
/// # Errors
///
/// What a start says, or what the solver refuses ([`RetroError`]: a
/// distance past the longest a table holds, say).
pub(crate) fn solve<C: Cells + ?Sized>(
    name: impl std::fmt::Display,
    cells: &C,
    threads: usize,
) -> Result<Solved, C::Error> {
    match solve_in::<u8, C>(&name, cells, threads)? {
        Some(arrays) => Ok(Solved::of(arrays)),
        None => (solve_in::<u16, C>(&name, cells, threads)?)
            .map(Solved::of)
            .ok_or_else(|| RetroError::TooDeep.into()),
    }
}

/// The state bytes and distances of a slice's cells.
pub(crate) type Arrays<D> = (Vec<u8>, Vec<D>);

/// [`solve`] with distances of type `D` while solving: the state bytes
/// and distances, or `None` if some distance does not fit in `D`.
pub(crate) fn solve_in<D: Distance, C: Cells + ?Sized>(
    name: &impl std::fmt::Display,
    cells: &C,
    threads: usize,
) -> Result<Option<Arrays<D>>, C::Error> {
    let (mut states, mut dist) = state_arrays::<D>(name, cells.cells())?;
    // A few parts per thread, taken in turn, so a thread's share splits
    // off the state arrays and a slow part holds no thread idle.
    let threads = threads.max(1);
    let horizon = {
        let units = cells.units();
        let end = cells.first_cell(units);
        if end != cells.cells() {
            let message = format!(
                "the units of {name} end here, not at cell {}",
                cells.cells()
            );
            return Err(RetroError::Slice { slot: end, message }.into());
        }
        let parts = (threads as u64 * 4).clamp(1, units.max(1));
        let mut jobs = Vec::new();
        let (mut s_rest, mut d_rest) = (&mut states[..], &mut dist[..]);
        for i in 0..parts {
            let part = units * i / parts..units * (i + 1) / parts;
            let base = cells.first_cell(part.start);
            let len = (cells.first_cell(part.end) - base) as usize;
            let (s, sr) = s_rest.split_at_mut(len);
            let (d, dr) = d_rest.split_at_mut(len);
            (s_rest, d_rest) = (sr, dr);
            jobs.push((part, base, s, d));
        }
        let fars = crate::threads::in_order(jobs, threads, |(part, base, s, d)| {
            let mut far = 0;
            cells.start_part(part, &mut |cell, start| {
                let i = (cell - base) as usize;
                far = far.max(record(cell, start, &mut s[i], &mut d[i])?);
                Ok(())
            })?;
            Ok::<_, C::Error>(far)
        })?;
        fars.into_iter().fold(0, u32::max)
    };
    if horizon >= D::LIMIT {
        return Ok(None);
    }
    let fits = rounds(&mut states, &mut dist, horizon, threads, cells)?;
    Ok(fits.then_some((states, dist)))
}

/// Records how `cell` starts in its state byte and distance: a decided
/// win or loss is `WIN_NEW` or `LOSS_NEW` at its distance (a decided draw
/// never lost and never won); an open cell keeps its count of distinct
/// successors and `NON_LOSING`, and its distance is the distance of its
/// shortest winning exit (a `NON_LOSING` cell; 0 for none) or of its
/// longest losing one (the others): what the rounds scan for. Returns the
/// greatest distance this cell may be decided at. A distance at or past
/// the width's [`Distance::LIMIT`] is stored cut short; the caller sees
/// it in the distance returned.
fn record<D: Distance>(
    cell: u64,
    start: Start,
    state: &mut u8,
    far: &mut D,
) -> Result<u32, RetroError> {
    match start.begin()? {
        Begin::Unused => {
            *state = UNUSED_STATE;
            Ok(0)
        }
        Begin::Decided(Wdl::Draw, _) => {
            *state = NON_LOSING;
            *far = D::of(0);
            Ok(0)
        }
        Begin::Decided(wdl, d) => {
            *state = if wdl == Wdl::Win { WIN_NEW } else { LOSS_NEW };
            *far = D::of(d);
            Ok(u32::from(d))
        }
        Begin::NeverLost { successors, win } => {
            *state = round::counter(cell, successors)? | NON_LOSING;
            let w = win.unwrap_or(0);
            *far = D::of(w);
            Ok(u32::from(w))
        }
        Begin::Losing {
            successors,
            longest_won,
            floor,
        } => {
            *state = round::counter(cell, successors)?;
            *far = D::of(longest_won.unwrap_or(0));
            Ok(u32::from(floor))
        }
    }
}

/// Undecided states are `0..=127`: the count of undecided distinct
/// successors in the material (bits 0–5) and [`NON_LOSING`].
pub(crate) const COUNT: u8 = MAX_SUCCESSORS as u8;
/// Some exit draws or wins for the side to move: never lost.
pub(crate) const NON_LOSING: u8 = 64;
/// Decided, not yet un-moved.
pub(crate) const WIN_NEW: u8 = 128;
pub(crate) const LOSS_NEW: u8 = 129;
/// Decided and un-moved.
pub(crate) const WIN: u8 = 130;
pub(crate) const LOSS: u8 = 131;
/// The state of a slot no position uses (its value code is
/// [`UNUSED`]).
pub(crate) const UNUSED_STATE: u8 = 255;

/// A distance while solving: one byte while every distance of the
/// material fits in one (below [`Distance::LIMIT`]), else two.
pub(crate) trait Distance: Copy + Default + Send + Sync + 'static {
    /// Distances must stay below this.
    const LIMIT: u32;
    /// `d`, cut to the width (the callers check it against
    /// [`Distance::LIMIT`]).
    fn of(d: u16) -> Self;
    /// The distance.
    fn get(self) -> u16;
    /// The table's distances of these (each undecided cell's zeroed), in
    /// the narrowest width that holds them.
    fn into_table(dist: Vec<Self>) -> Distances;
    /// The cells of `dist` that may be decided at `here` ([`candidates`]).
    fn candidates(dist: &[Self], here: u16) -> u64 {
        candidates(dist, here)
    }
}

impl Distance for u8 {
    const LIMIT: u32 = ONE_BYTE_LONGEST;
    fn of(d: u16) -> u8 {
        d as u8
    }
    fn get(self) -> u16 {
        u16::from(self)
    }
    fn candidates(dist: &[u8], here: u16) -> u64 {
        match <&[u8; SCAN]>::try_from(dist) {
            Ok(chunk) => byte_candidates(chunk, here),
            Err(_) => candidates(dist, here),
        }
    }
    fn into_table(dist: Vec<u8>) -> Distances {
        Distances::U8(dist)
    }
}

impl Distance for u16 {
    const LIMIT: u32 = round::LONGEST as u32 + 1;
    fn of(d: u16) -> u16 {
        d
    }
    fn get(self) -> u16 {
        self
    }
    fn into_table(dist: Vec<u16>) -> Distances {
        Distances::from_u16(dist)
    }
}

/// Cells decided per block of a round: enough to share among the threads,
/// few enough that the updates of one block stay small.
const BLOCK: usize = 1 << 16;

/// The distinct predecessors of each of `decided` (slot, won for its side
/// to move), as `q << 1 | won`, generated on `threads` threads (one list
/// per thread, in order).
fn predecessors<C: Cells + ?Sized>(
    decided: &[(u64, bool)],
    cells: &C,
    threads: usize,
) -> Result<Vec<Vec<u64>>, RetroError> {
    let one = |part: &[(u64, bool)]| {
        let mut out = Vec::with_capacity(part.len() * 8);
        let mut preds: Vec<u64> = Vec::with_capacity(20);
        for &(slot, won) in part {
            // Un-move: the side not to move here stepped last.
            preds.clear();
            cells.unmoves(slot, &mut preds);
            out.extend(preds.iter().map(|&q| q << 1 | u64::from(won)));
        }
        out
    };
    let threads = if decided.len() < 4096 { 1 } else { threads };
    let per = decided.len().div_ceil(threads.max(1)).max(1);
    crate::threads::in_order(decided.chunks(per), threads, |part| Ok(one(part)))
}

/// The state and distance arrays of a slice of `n` slots, all undecided,
/// or why they cannot be made (`n` past what the index or the machine's
/// address space holds).
fn state_arrays<D: Clone + Default>(
    material: impl std::fmt::Display,
    n: u64,
) -> Result<(Vec<u8>, Vec<D>), RetroError> {
    let too_large = || RetroError::TooLarge {
        name: material.to_string(),
    };
    let n = usize::try_from(n).map_err(|_| too_large())?;
    if n as u64 >= 1 << 62 {
        return Err(too_large());
    }
    Ok((vec![0u8; n], vec![D::default(); n]))
}

/// Whether the cell with state byte `s` and distance `d` is decided at
/// distance `here`, and if so whether it is won for its side to move.
#[inline]
fn decided_at(s: u8, d: u16, here: u16) -> Option<bool> {
    match s {
        WIN | LOSS | UNUSED_STATE => None,
        WIN_NEW | LOSS_NEW => (d == here).then_some(s == WIN_NEW),
        // A winning exit at `here`.
        _ if s & NON_LOSING != 0 => (d == here && here > 0).then_some(true),
        // Every successor won for the opponent; the longest losing
        // exit was longer.
        0 => (u32::from(d) + 1 == u32::from(here)).then_some(false),
        _ => None,
    }
}

/// Marks cell `i` decided if it is at distance `here`, into `todo`.
#[inline]
fn decide<D: Distance>(
    states: &mut [u8],
    dist: &mut [D],
    i: usize,
    here: u16,
    todo: &mut Vec<(u64, bool)>,
) {
    if let Some(won) = decided_at(states[i], dist[i].get(), here) {
        states[i] = if won { WIN } else { LOSS };
        dist[i] = D::of(here);
        todo.push((i as u64, won));
    }
}

/// Cells a round's scan tests by their distances at once.
const SCAN: usize = 64;

/// The cells of `dist` (at most 64) that may be decided at distance
/// `here`, as a bit set: a cell decided at `here` has the distance `here`
/// (decided by an update, or a winning exit's) or `here − 1` (lost
/// once its last successor was decided, after its longest losing
/// exit). The scans were a fifth of the generator's instructions
/// on Five Tigers `3v2`, most of them on cells with another distance; this plain
/// test serves two-byte distances, and one-byte ones go eight at a time
/// ([`byte_candidates`], checked against this).
#[inline]
fn candidates<D: Distance>(dist: &[D], here: u16) -> u64 {
    let before = here.wrapping_sub(1);
    dist.iter().enumerate().fold(0u64, |mask, (j, d)| {
        let d = d.get();
        mask | (u64::from((d == here) | (d == before)) << j)
    })
}

/// [`candidates`] of one-byte distances, eight at a time in a word (`here`
/// is below [`Distance::LIMIT`], and no distance is 255, so `here − 1` of
/// 0 matches none). The compiler's vectorised loop of bytes took most of
/// a `5v3` solve; a word's zero bytes are found without a branch.
#[inline]
fn byte_candidates(dist: &[u8; SCAN], here: u16) -> u64 {
    const LOW7: u64 = 0x7f7f_7f7f_7f7f_7f7f;
    const ONES: u64 = 0x0101_0101_0101_0101;
    // The top bit of each zero byte of `x` (exact: no borrow between
    // bytes).
    let zero_bytes = |x: u64| !(((x & LOW7) + LOW7) | x) & !LOW7;
    let here_bytes = u64::from(here as u8) * ONES;
    let before_bytes = u64::from((here as u8).wrapping_sub(1)) * ONES;
    let mut mask = 0u64;
    for (k, word) in dist.chunks_exact(8).enumerate() {
        let mut w = [0u8; 8];
        w.copy_from_slice(word);
        let w = u64::from_le_bytes(w);
        let hits = (zero_bytes(w ^ here_bytes) | zero_bytes(w ^ before_bytes)) >> 7;
        // One bit a byte, at 8·i: gathered into the top byte, i at bit i.
        mask |= (hits.wrapping_mul(0x0102_0408_1020_4080) >> 56) << (8 * k);
    }
    mask
}

/// The propagation, round by round from distance 0 to `horizon` (which
/// grows as cells are scheduled), on `states` and `dist` as the initial
/// pass left them (see [`record`]): each round scans the arrays for
/// the cells decided at its distance, a block at a time, marks them
/// decided, generates their predecessors on the threads (the costly part,
/// which only reads) and applies them in order. A predecessor won one ply
/// later is marked `WIN_NEW` at that distance (unless an exit wins it
/// at this one, which the scan then finds); one whose last successor is
/// decided is marked `LOSS_NEW` if lost at the next distance, else left at
/// 0 to be found at `1 +` its longest losing exit. False, and
/// stopped, when a distance would reach `D::LIMIT`.
fn rounds<D: Distance, C: Cells + ?Sized>(
    states: &mut [u8],
    dist: &mut [D],
    mut horizon: u32,
    threads: usize,
    cells: &C,
) -> Result<bool, RetroError> {
    let n = states.len();
    let mut todo: Vec<(u64, bool)> = Vec::with_capacity(BLOCK);
    let mut d = 0u32;
    while d <= horizon {
        if d + 1 >= D::LIMIT {
            return Ok(false);
        }
        let here = d as u16;
        let mut i = 0usize;
        while i < n {
            todo.clear();
            while i < n && todo.len() < BLOCK {
                if i + SCAN <= n {
                    // Most cells are not decided at this distance; their
                    // distances alone say so, `SCAN` at a time.
                    let mut mask = D::candidates(&dist[i..i + SCAN], here);
                    while mask != 0 {
                        decide(
                            states,
                            dist,
                            i + mask.trailing_zeros() as usize,
                            here,
                            &mut todo,
                        );
                        mask &= mask - 1;
                    }
                    i += SCAN;
                } else {
                    decide(states, dist, i, here, &mut todo);
                    i += 1;
                }
            }
            if todo.is_empty() {
                continue;
            }
            let updates = predecessors(&todo, cells, threads)?;
            let further = apply_updates(states, dist, &updates, here, threads)?;
            horizon = horizon.max(further);
        }
        d += 1;
    }
    Ok(true)
}

/// Applies a block's updates (predecessor `<< 1`, 1 if it was won for
/// its side to move) of round `here` (see [`rounds`]), on `threads`
/// threads, each over its own range of cells (each reads every update and
/// applies those in its range: the updates land anywhere, and the cache
/// misses, not the reading, are what costs); the furthest distance they
/// schedule a cell at, or `here`. The order does not matter: a cell's
/// distinct successors are each decided once, with one value.
fn apply_updates<D: Distance>(
    states: &mut [u8],
    dist: &mut [D],
    updates: &[Vec<u64>],
    here: u16,
    threads: usize,
) -> Result<u32, RetroError> {
    let n = states.len();
    let total: usize = updates.iter().map(Vec::len).sum();
    let threads = if total < 1 << 16 {
        1
    } else {
        threads.clamp(1, 16)
    };
    let per = n.div_ceil(threads).max(1);
    // The tidings of cells decided at `here` decide at the next round.
    let round = round::ply_before(u32::from(here))?;
    let range = |lo: usize, states: &mut [u8], dist: &mut [D]| {
        let hi = lo + states.len();
        let mut further = u32::from(here);
        for u in updates.iter().flatten() {
            let q = (u >> 1) as usize;
            if q < lo || q >= hi {
                continue;
            }
            let news = if u & 1 == 1 { News::Won } else { News::Lost };
            let (state, far) = (&mut states[q - lo], &mut dist[q - lo]);
            let s = *state;
            if s >= WIN_NEW {
                continue;
            }
            let never_lost = s & NON_LOSING != 0;
            // A cell's distance is what `hear` takes: its exit's win if
            // it is never lost, else its longest exit into a won position.
            match round::hear(q as u64, news, round, s & COUNT, never_lost, far.get())? {
                // An exit that wins at this distance is found by this
                // round's scan (its distance is `here`), as it would have
                // been.
                Heard::Won(at) => {
                    *state = WIN_NEW;
                    *far = D::of(at);
                    further = further.max(u32::from(at));
                }
                Heard::Left(left) => *state = left | (s & NON_LOSING),
                Heard::Lost(Loss::Now(at)) => {
                    *state = LOSS_NEW;
                    *far = D::of(at);
                    further = further.max(u32::from(at));
                }
                // Found by the scan of `at`, one past its distance.
                Heard::Lost(Loss::Held(at)) => {
                    *state = 0;
                    further = further.max(u32::from(at));
                }
            }
        }
        Ok::<_, RetroError>(further)
    };
    let parts = states.chunks_mut(per).zip(dist.chunks_mut(per)).enumerate();
    let fars = crate::threads::in_order(parts, threads, |(i, (s, d))| range(i * per, s, d))?;
    Ok(fars.into_iter().fold(u32::from(here), u32::max))
}

#[cfg(test)]
mod tests;
