//! The random numbers of the batched games (openings, sampled actions).
//!
//! SplitMix64 (Steele, Lea and Flood, 2014) rather than a crate's generator:
//! its whole state is one `u64`, so seeding from Python and pickling a
//! `VecGame` mid-stream are exact and need no serialisation support, and
//! its statistical quality is ample for choosing among at most 252 moves.

/// A SplitMix64 generator.
#[derive(Clone, Copy, Debug)]
pub(crate) struct SplitMix64 {
    pub(crate) state: u64,
}

impl SplitMix64 {
    pub(crate) fn new(seed: u64) -> SplitMix64 {
        SplitMix64 { state: seed }
    }

    pub(crate) fn next_u64(&mut self) -> u64 {
        self.state = self.state.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.state;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    /// A uniform number below `n` (n ≥ 1), by Lemire's multiply-shift: the
    /// bias is below n / 2^64, far under anything measurable here.
    pub(crate) fn below(&mut self, n: usize) -> usize {
        ((u128::from(self.next_u64()) * n as u128) >> 64) as usize
    }
}
