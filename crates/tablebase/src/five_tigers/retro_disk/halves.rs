//! `a v a` solved by halves: a state with Second to move has the value
//! and distance of its twin, the state with the colours swapped (the
//! boards exchanged, First to move, the bans exchanged; see
//! [`swap`](super::super::swap)), and in `a v a` that twin is a cell of
//! the same table. So the out-of-core generator starts and un-moves the
//! cells with First to move only, reading each predecessor (Second to
//! move) at its twin, and writes the cells with Second to move from their
//! twins at the end: half the work of a self-twin material (`5v5`).
//!
//! Those twins lie all over the file, so the end holds First's half in
//! memory, compacted: a distance byte and two bits a cell (`5v5`: 12.5 GB
//! and 3.1 GB), built once the rounds' bits and values are dropped. The
//! distances of 255 plies or more are kept apart, sorted by cell, their
//! byte 255 saying so (two bytes a cell would not fit: 25 GB). That list
//! takes 16 bytes an entry and was made for a few: `5v5` under the ban
//! has 7.22 · 10⁸ such cells (11.6 GB), more than this machine holds
//! beside the half (docs/tablebases.md, "Not built yet").

use std::sync::atomic::{AtomicU8, Ordering};
use std::sync::Mutex;

use super::super::dense_ban::BanIndex;
use super::super::Material;
use super::cells::{Bits, Values};
use super::file::Output;
use super::{on_threads, WON};
use crate::dir::GenerateDirError;
use crate::driver::GenerateError;

/// The cells with First to move, compacted: board slot `2k` (First to
/// move; Second's are the odd slots) has its cells from `starts[k]`.
pub(super) struct Half {
    starts: Vec<u64>,
    /// Won cells.
    won: Bits,
    /// Cells left open: drawn.
    open: Bits,
    /// Distances (0 for the drawn), once [`Half::read_distances`] ran;
    /// `long_from` for one in `long`.
    dist: Vec<AtomicU8>,
    /// The distances of `long_from` plies or more, by cell, sorted.
    long: Vec<(u64, u16)>,
    /// 255, what a byte holds (the tests make it small).
    long_from: u8,
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
        long_from: u8,
    ) -> Result<Half, GenerateDirError> {
        let slots = index.board_slots();
        let mut starts = Vec::new();
        starts
            .try_reserve_exact((slots.div_ceil(2) + 1) as usize)
            .map_err(|_| GenerateError::TooLarge(material.to_string()))?;
        let mut at = 0;
        for slot in (0..slots).step_by(2) {
            starts.push(at);
            at += index.cells_of(slot).end - index.start(slot);
        }
        starts.push(at);
        let half = Half {
            starts,
            won: Bits::new(at, material)?,
            open: Bits::new(at, material)?,
            dist: Vec::new(),
            long: Vec::new(),
            long_from,
        };
        on_threads(jobs.len(), threads, |j| {
            let (lo, hi) = jobs[j];
            for slot in (lo + lo % 2..hi).step_by(2) {
                let cells = index.cells_of(slot);
                let base = half.starts[(slot / 2) as usize];
                for c in cells.clone() {
                    let v = values.get(c);
                    let k = base + (c - cells.start);
                    if v == WON {
                        half.won.set(k);
                    } else if v < WON {
                        half.open.set(k);
                    }
                }
            }
            Ok(())
        })?;
        Ok(half)
    }

    /// Reads the distances of First's half from the file being written
    /// (the drawn cells' as 0).
    pub(super) fn read_distances(
        &mut self,
        index: &BanIndex,
        output: &Output,
        jobs: &[(u64, u64)],
        threads: usize,
        material: Material,
    ) -> Result<(), GenerateDirError> {
        let n = self.starts.last().copied().unwrap_or(0);
        let n = usize::try_from(n).map_err(|_| GenerateError::TooLarge(material.to_string()))?;
        let mut dist = Vec::new();
        dist.try_reserve_exact(n)
            .map_err(|_| GenerateError::TooLarge(material.to_string()))?;
        dist.extend((0..n).map(|_| AtomicU8::new(0)));
        self.dist = dist;
        let long = Mutex::new(Vec::new());
        let half = &*self;
        let long_from = half.long_from;
        on_threads(jobs.len(), threads, |j| {
            let (lo, hi) = jobs[j];
            let first = index.start(lo);
            let mut buf = vec![0u16; (index.start(hi) - first) as usize];
            output.distances(first, &mut buf, false)?;
            let mut here = Vec::new();
            for slot in (lo + lo % 2..hi).step_by(2) {
                let cells = index.cells_of(slot);
                let base = half.starts[(slot / 2) as usize];
                for c in cells.clone() {
                    let k = base + (c - cells.start);
                    if !half.open.get(k) {
                        let d = buf[(c - first) as usize];
                        if d >= u16::from(long_from) {
                            here.push((k, d));
                        }
                        let byte = u8::try_from(d).unwrap_or(long_from).min(long_from);
                        half.dist[k as usize].store(byte, Ordering::Relaxed);
                    }
                }
            }
            crate::driver::lock(&long).extend(here);
            Ok(())
        })?;
        let mut long = long.into_inner().unwrap_or_else(|e| e.into_inner());
        long.sort_unstable();
        self.long = long;
        Ok(())
    }

    /// The value (`WON`, `LOST`, or open) and distance of the cell `off`
    /// of First's board slot `slot`.
    #[inline]
    pub(super) fn at(&self, slot: u64, off: u64) -> (u64, u16) {
        let k = self.starts[(slot / 2) as usize] + off;
        let mut d = u16::from(self.dist[k as usize].load(Ordering::Relaxed));
        if d == u16::from(self.long_from) {
            // Read into `long` with this byte; never missing.
            d = self
                .long
                .binary_search_by_key(&k, |&(c, _)| c)
                .map_or(d, |i| self.long[i].1);
        }
        if self.won.get(k) {
            (WON, d)
        } else if self.open.get(k) {
            (super::OPEN, 0)
        } else {
            (super::LOST, d)
        }
    }
}
