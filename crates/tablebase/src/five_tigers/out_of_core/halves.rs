//! `a v a` solved by halves: a state with Second to move has the value
//! and distance of its twin, the state with the colours swapped (the
//! boards exchanged, First to move, the bans exchanged; see
//! [`twin`](super::super::twin)), and in `a v a` that twin is a cell of
//! the same table. So the out-of-core generator starts and un-moves the
//! cells with First to move only, reading each predecessor (Second to
//! move) at its twin, and writes the cells with Second to move from their
//! twins at the end: half the work of a self-twin material (`5v5`).
//!
//! Those twins lie all over the file, so the end holds First's half in
//! memory, compacted: a distance byte and two bits a cell (`5v5`: 12.5 GB
//! and 3.1 GB), built once the rounds' bits and values are dropped. A
//! distance of 256 plies or more keeps its low byte there and its high
//! bits in planes of one bit a cell, as many as the longest distance
//! needs (`5v5` under the ban, to 507 plies: one, 1.56 GB). Two bytes a
//! cell would not fit (25 GB), nor would a list of the long ones: `5v5`
//! has 7.22 · 10⁸ cells at 255 or more (docs/tablebases.md).

use std::sync::atomic::{AtomicU8, Ordering};

use super::super::dense_ban::BanIndex;
use super::super::Material;
use super::cells::{zeroed, Bits, Values, WON};
use super::file::Output;
use crate::driver::GenerateError;
use crate::exec::GenerateDirError;
use crate::threads::in_order;

/// The cells with First to move, compacted: board slot `2k` (First to
/// move; Second's are the odd slots) has its cells from `starts[k]`.
pub(super) struct Half {
    starts: Vec<u64>,
    /// Their values: won, lost, or open (drawn).
    values: Values,
    /// Distances modulo `base` (0 for the drawn), once
    /// [`Half::read_distances`] ran.
    low: Vec<AtomicU8>,
    /// The distances divided by `base`, bit `i` in plane `i`.
    high: Vec<Bits>,
    /// 256, a byte's values (the tests make it small; 1 to 256).
    base: u16,
}

impl Half {
    /// First's half of `index`, its values taken from `values` (the
    /// distances still to be read): the jobs are board slot ranges.
    pub(super) fn from_values(
        index: &BanIndex,
        values: &Values,
        jobs: &[(u64, u64)],
        threads: usize,
        material: Material,
        base: u16,
    ) -> Result<Half, GenerateDirError> {
        let mut starts: Vec<u64> = zeroed(index.board_slots().div_ceil(2) + 1, material)?;
        for k in 1..starts.len() {
            let slot = 2 * (k as u64 - 1);
            starts[k] = starts[k - 1] + index.cells_of(slot).end - index.start(slot);
        }
        let at = starts[starts.len() - 1];
        let half = Half {
            starts,
            values: Values::new(at, material)?,
            low: Vec::new(),
            high: Vec::new(),
            base,
        };
        in_order(0..jobs.len(), threads, |j| {
            let (lo, hi) = jobs[j];
            for slot in (lo + lo % 2..hi).step_by(2) {
                let cells = index.cells_of(slot);
                let base = half.starts[(slot / 2) as usize];
                for c in cells.clone() {
                    let v = values.get(c);
                    if v >= WON {
                        half.values.start(base + (c - cells.start), v);
                    }
                }
            }
            Ok::<_, GenerateDirError>(())
        })?;
        Ok(half)
    }

    /// Reads the distances of First's half from the file being written
    /// (the drawn cells' as 0), none longer than `longest` (else an
    /// error: the planes are made for it).
    pub(super) fn read_distances(
        &mut self,
        index: &BanIndex,
        output: &Output,
        jobs: &[(u64, u64)],
        threads: usize,
        material: Material,
        longest: u32,
    ) -> Result<(), GenerateDirError> {
        let n = self.starts.last().copied().unwrap_or(0);
        self.low = zeroed(n, material)?;
        let planes = u32::BITS - (longest / u32::from(self.base)).leading_zeros();
        self.high = (0..planes)
            .map(|_| Bits::new(n, material))
            .collect::<Result<_, _>>()?;
        let half = &*self;
        let base = u32::from(half.base);
        in_order(0..jobs.len(), threads, |j| {
            let (lo, hi) = jobs[j];
            let first = index.start(lo);
            let mut buf = vec![0u16; (index.start(hi) - first) as usize];
            output.distances(first, &mut buf, false)?;
            for slot in (lo + lo % 2..hi).step_by(2) {
                let cells = index.cells_of(slot);
                let slot_from = half.starts[(slot / 2) as usize];
                for c in cells.clone() {
                    let k = slot_from + (c - cells.start);
                    if half.values.get(k) < WON {
                        continue;
                    }
                    let d = u32::from(buf[(c - first) as usize]);
                    if d > longest {
                        return Err(GenerateError::Unsupported {
                            material: material.to_string(),
                            reason: format!(
                                "a distance of {d} plies past the rounds' longest, {longest}"
                            ),
                        }
                        .into());
                    }
                    half.low[k as usize].store((d % base) as u8, Ordering::Relaxed);
                    // The high bits, plane by plane, as `at` reads them.
                    for (i, plane) in half.high.iter().enumerate() {
                        if (d / base) >> i & 1 == 1 {
                            plane.set(k);
                        }
                    }
                }
            }
            Ok::<_, GenerateDirError>(())
        })?;
        Ok(())
    }

    /// The value (`WON`, `LOST`, or `OPEN`: drawn, at 0) and distance of
    /// the cell `off` of First's board slot `slot`.
    #[inline]
    pub(super) fn at(&self, slot: u64, off: u64) -> (u64, u16) {
        let k = self.starts[(slot / 2) as usize] + off;
        let mut d = u16::from(self.low[k as usize].load(Ordering::Relaxed));
        for (i, plane) in self.high.iter().enumerate() {
            if plane.get(k) {
                d += self.base << i;
            }
        }
        (self.values.get(k), d)
    }
}
