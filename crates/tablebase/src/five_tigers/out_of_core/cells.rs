//! The out-of-core generator's bits in memory: the cells' 2-bit values
//! and their frontier bits, in atomic words that every thread reads and
//! decides cells in.

use std::sync::atomic::{AtomicU64, Ordering};

use super::super::Material;
use crate::driver::GenerateError;

/// A cell's value while solving: undecided, and lost if every successor
/// is won.
pub(super) const OPEN: u64 = 0;
/// Undecided, never lost: a conversion draws or wins.
pub(super) const HOLDS: u64 = 1;
pub(super) const WON: u64 = 2;
pub(super) const LOST: u64 = 3;

/// 2-bit values of the cells, 32 a word (see [`OPEN`] …).
pub(super) struct Values(Vec<AtomicU64>);

impl Values {
    pub(super) fn new(cells: u64, material: Material) -> Result<Values, GenerateError> {
        zeroed(cells.div_ceil(32), material).map(Values)
    }

    #[inline]
    pub(super) fn get(&self, c: u64) -> u64 {
        self.0[(c / 32) as usize].load(Ordering::Acquire) >> (2 * (c % 32)) & 3
    }

    /// Sets an open cell's value at the start (`HOLDS` or `LOST`).
    #[inline]
    pub(super) fn start(&self, c: u64, v: u64) {
        self.0[(c / 32) as usize].fetch_or(v << (2 * (c % 32)), Ordering::Relaxed);
    }

    /// Decides the undecided cell `c` as `to`; false if it was decided.
    #[inline]
    pub(super) fn decide(&self, c: u64, to: u64) -> bool {
        let word = &self.0[(c / 32) as usize];
        let shift = 2 * (c % 32);
        let mut w = word.load(Ordering::Acquire);
        loop {
            if (w >> shift & 3) >= WON {
                return false;
            }
            let new = w & !(3 << shift) | to << shift;
            match word.compare_exchange_weak(w, new, Ordering::AcqRel, Ordering::Acquire) {
                Ok(_) => return true,
                Err(now) => w = now,
            }
        }
    }
}

/// One bit a cell, 64 a word.
pub(super) struct Bits(pub(super) Vec<AtomicU64>);

impl Bits {
    pub(super) fn new(cells: u64, material: Material) -> Result<Bits, GenerateError> {
        zeroed(cells.div_ceil(64), material).map(Bits)
    }

    #[inline]
    pub(super) fn get(&self, c: u64) -> bool {
        self.0[(c / 64) as usize].load(Ordering::Relaxed) >> (c % 64) & 1 == 1
    }

    #[inline]
    pub(super) fn set(&self, c: u64) {
        self.0[(c / 64) as usize].fetch_or(1 << (c % 64), Ordering::Relaxed);
    }

    /// Sets the bit of `c`; whether it was set.
    #[inline]
    pub(super) fn test_and_set(&self, c: u64) -> bool {
        let bit = 1 << (c % 64);
        self.0[(c / 64) as usize].fetch_or(bit, Ordering::Relaxed) & bit != 0
    }

    #[inline]
    pub(super) fn unset(&self, c: u64) {
        self.0[(c / 64) as usize].fetch_and(!(1 << (c % 64)), Ordering::Relaxed);
    }

    #[inline]
    pub(super) fn word(&self, i: usize) -> u64 {
        self.0[i].load(Ordering::Relaxed)
    }

    pub(super) fn clear(&self) {
        for w in &self.0 {
            w.store(0, Ordering::Relaxed);
        }
    }
}

/// `n` zeros (of atomic words, bytes …), or why not (more than the
/// address space or the allocator gives, a clear error rather than an
/// abort).
pub(super) fn zeroed<T: Default>(n: u64, material: Material) -> Result<Vec<T>, GenerateError> {
    let too_large = || GenerateError::TooLarge(material.to_string());
    let n = usize::try_from(n).map_err(|_| too_large())?;
    let mut v = Vec::new();
    v.try_reserve_exact(n).map_err(|_| too_large())?;
    v.resize_with(n, T::default);
    Ok(v)
}
