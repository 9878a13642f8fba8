//! A dense index of one material's positions with nothing owed and no
//! previous step, modulo the 8 board symmetries: the board slots of the
//! generators' index (`dense_ban`'s, whose cells add the bans under
//! `shuttle = forbidden` and are these slots with the shuttle allowed), so
//! that they need no key and no hash table per position.
//!
//! Slot = `(class · C(25 − a, b) + rank) · 2 + side`, where `class`
//! numbers the symmetry classes of First's `a` pieces (their smallest
//! image is the class's representative), `rank` is the colexicographic
//! rank of Second's `b` pieces among the `25 − a` points the
//! representative leaves free, and `side` the side to move. A position is
//! put in its slot by mapping First's pieces onto the representative; when
//! the representative is fixed by some symmetries (a few classes), the
//! smallest rank over those images is the slot, and the other ranks are
//! slots no position uses ([`DenseIndex::is_canonical`]): 5 % of the
//! slots of `4v4`, 2.6 % of `5v5`'s, against 8 bytes of key a position
//! in a sorted key list.

use qi_core::Bitboard32;

use super::key::{map_board, map_point, ALL};

/// `BINOM[n][k]` = C(n, k) for n ≤ 25, k ≤ 5.
pub(super) const BINOM: [[u64; 6]; 26] = build_binom();

const fn build_binom() -> [[u64; 6]; 26] {
    let mut t = [[0u64; 6]; 26];
    let mut n = 0;
    while n < 26 {
        t[n][0] = 1;
        let mut k = 1;
        while k < 6 {
            t[n][k] = if n == 0 {
                0
            } else {
                t[n - 1][k - 1] + t[n - 1][k]
            };
            k += 1;
        }
        n += 1;
    }
    t
}

/// `RANK_PART[c][j][bits]`: what the points `bits` of chunk `c` (points
/// `5c..5c + 5`) add to the colexicographic rank of a set that has `j`
/// points below the chunk. A rank is then five independent look-ups
/// instead of a loop over the set's points, whose every step waits on the
/// last (the rank was 18 % of a profile of the generator).
const RANK_PART: [[[u32; 32]; 6]; 5] = build_rank_part();

const fn build_rank_part() -> [[[u32; 32]; 6]; 5] {
    let mut t = [[[0u32; 32]; 6]; 5];
    let mut c = 0;
    while c < 5 {
        let mut j = 0;
        while j < 6 {
            let mut bits = 0;
            while bits < 32 {
                let mut r = 0u64;
                let mut i = j;
                let mut f = 0;
                while f < 5 {
                    if bits & (1 << f) != 0 {
                        i += 1;
                        // More than 5 points in all: no rank (never asked).
                        if i < 6 {
                            r += BINOM[5 * c + f][i];
                        }
                    }
                    f += 1;
                }
                t[c][j][bits] = r as u32;
                bits += 1;
            }
            j += 1;
        }
        c += 1;
    }
    t
}

/// The colexicographic rank of a set of at most 5 points given as a mask.
#[inline]
fn rank(set: u32) -> u64 {
    debug_assert!(set.count_ones() <= 5 && set & !ALL == 0);
    // The number of the set's points below chunk `c` (at most 5).
    let below = |c: u32| ((set & ((1 << (5 * c)) - 1)).count_ones() as usize).min(5);
    let part = |c: u32| RANK_PART[c as usize][below(c)][((set >> (5 * c)) & 31) as usize];
    u64::from(part(0) + part(1) + part(2) + part(3) + part(4))
}

/// `BINOM_COLUMN[k][n]` = C(n, k) for n ≤ 25, and `u32::MAX` for the
/// padding up to 32 (more than any rank): a column of [`BINOM`] to count
/// in.
const BINOM_COLUMN: [[u32; 32]; 6] = build_binom_column();

const fn build_binom_column() -> [[u32; 32]; 6] {
    let mut t = [[u32::MAX; 32]; 6];
    let mut k = 0;
    while k < 6 {
        let mut n = 0;
        while n < 26 {
            t[k][n] = BINOM[n][k] as u32;
            n += 1;
        }
        k += 1;
    }
    t
}

/// The set of `k` points (of `0..n`) with colexicographic rank `r`.
///
/// Each point is the largest `c` with C(c, i) ≤ r, found by counting the
/// binomials of the column that are at most `r` (they grow with `c`):
/// 32 comparisons without a branch, where a search down the column took a
/// mispredicted branch a point.
#[inline]
fn unrank(r: u64, k: usize, n: usize) -> u32 {
    debug_assert!(k <= 5 && n <= 25 && r < BINOM[n][k]);
    // Below C(25, 5).
    let mut r = r as u32;
    let mut set = 0u32;
    for column in BINOM_COLUMN[1..=k].iter().rev() {
        // C(0, i) = 0 ≤ r: the count is at least 1.
        let c = column.iter().map(|&b| u32::from(b <= r)).sum::<u32>() - 1;
        set |= 1 << c;
        r -= column[c as usize];
    }
    set
}

/// `SQUEEZE[taken][set]`: the points of the 5-bit `set` not in `taken`,
/// squeezed onto the low bits (a parallel bit extract of one chunk).
const SQUEEZE: [[u8; 32]; 32] = build_squeeze();

const fn build_squeeze() -> [[u8; 32]; 32] {
    let mut t = [[0u8; 32]; 32];
    let mut taken = 0;
    while taken < 32 {
        let mut set = 0;
        while set < 32 {
            let mut out = 0u8;
            let mut n = 0;
            let mut f = 0;
            while f < 5 {
                if taken & (1 << f) == 0 {
                    if set & (1 << f) != 0 {
                        out |= 1 << n;
                    }
                    n += 1;
                }
                f += 1;
            }
            t[taken][set] = out;
            set += 1;
        }
        taken += 1;
    }
    t
}

/// Squeezes the points of `set` (disjoint from `taken`) onto `0..25 −
/// |taken|`, dropping the points of `taken`: a chunk of 5 points at a
/// time, each placed after the free points below it.
#[inline]
fn compress(set: u32, taken: u32) -> u32 {
    let chunk = |c: u32| {
        let sh = 5 * c;
        let free_below = sh - (taken & ((1 << sh) - 1)).count_ones();
        u32::from(SQUEEZE[((taken >> sh) & 31) as usize][((set >> sh) & 31) as usize]) << free_below
    };
    chunk(0) | chunk(1) | chunk(2) | chunk(3) | chunk(4)
}

/// The symmetry class of a board of First's and the symmetry that maps
/// the board onto the class's representative ([`DenseIndex::first`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct FirstClass {
    class: u32,
    sym: u8,
}

/// Second's board `o` seen from First's class: what the slots of
/// Second's single steps are found from ([`DenseIndex::slot_after_step`]).
/// A step changes two points, so the board need not be mapped onto the
/// representative and squeezed again for each step: two points are.
#[derive(Clone, Copy, Debug)]
pub(crate) struct StepFrame {
    first: FirstClass,
    o: u32,
    /// `o` mapped by the class's symmetry and squeezed onto the points
    /// the representative leaves free.
    squeezed: u32,
    /// Whether the class's representative has a symmetry of its own, so
    /// that a slot is the smallest of several ranks (a few classes): the
    /// steps are then found the long way.
    fixed: bool,
}

/// The slots of one material (see the module docs).
pub(crate) struct DenseIndex {
    second: usize,
    /// C(25 − a, b): the ranks per class.
    per_class: u64,
    /// The representative of each class (its smallest image).
    reps: Vec<u32>,
    /// Per class, the free points of the representative in order.
    free: Vec<[u8; 25]>,
    /// Per class, its non-identity stabiliser: bit `s` for symmetry `s`
    /// (1 to 7) fixing the representative.
    stabiliser: Vec<u8>,
    /// By the rank of a set of First's points: its class `<< 3` and the
    /// symmetry mapping it onto the representative (4 bytes, not 8: the
    /// table of `5vN`, 53 130 entries, stays in the L2 cache).
    class_of: Vec<u32>,
}

impl DenseIndex {
    /// The index of the material with `first` and `second` pieces (1 to 5
    /// each).
    pub fn new(first: u32, second: u32) -> DenseIndex {
        let (a, b) = (first as usize, second as usize);
        let count = BINOM[25][a] as usize;
        let mut canon: Vec<(u32, u8)> = Vec::with_capacity(count);
        for r in 0..count {
            let x = unrank(r as u64, a, 25);
            let (min, sym) = (0..8u8)
                .map(|s| (map_board(s as usize, x), s))
                .min()
                .unwrap_or((x, 0));
            canon.push((min, sym));
        }
        let mut reps: Vec<u32> = canon.iter().map(|c| c.0).collect();
        reps.sort_unstable();
        reps.dedup();
        let class_of = canon
            .iter()
            .map(|&(min, sym)| (reps.partition_point(|&r| r < min) as u32) << 3 | u32::from(sym))
            .collect();
        let mut stabiliser = Vec::with_capacity(reps.len());
        let mut free = Vec::with_capacity(reps.len());
        for &rep in &reps {
            stabiliser.push(
                (1..8u8)
                    .filter(|&s| map_board(s as usize, rep) == rep)
                    .fold(0u8, |m, s| m | 1 << s),
            );
            let mut f = [0u8; 25];
            for (i, p) in Bitboard32(ALL & !rep).iter().enumerate() {
                f[i] = p;
            }
            free.push(f);
        }
        DenseIndex {
            second: b,
            per_class: BINOM[25 - a][b],
            reps,
            free,
            stabiliser,
            class_of,
        }
    }

    /// The number of slots.
    pub fn len(&self) -> u64 {
        self.reps.len() as u64 * self.per_class * 2
    }

    /// The slot of the position with First on `x`, Second on `o` and
    /// `stm` (0 First, 1 Second) to move.
    #[inline]
    pub fn slot(&self, x: u32, o: u32, stm: usize) -> u64 {
        self.slot_and_boards(x, o, stm).0
    }

    /// [`slot`](DenseIndex::slot), and the boards of First and Second it
    /// holds (the images of `x` and `o` it was found by), which the
    /// generator under bans maps the bans onto.
    #[inline]
    pub fn slot_and_boards(&self, x: u32, o: u32, stm: usize) -> (u64, u32, u32) {
        self.slot_in(self.first(x), o, stm)
    }

    /// The class of First's board `x`: what every slot with First on `x`
    /// shares, found once by a caller that asks for many (the un-moves of
    /// Second's pieces, the steps of Second's).
    #[inline]
    pub fn first(&self, x: u32) -> FirstClass {
        let c = self.class_of[rank(x) as usize];
        FirstClass {
            class: c >> 3,
            sym: (c & 7) as u8,
        }
    }

    /// [`slot_and_boards`](DenseIndex::slot_and_boards) of the position
    /// with First on the board of class `first` (from
    /// [`DenseIndex::first`]).
    #[inline]
    fn slot_in(&self, first: FirstClass, o: u32, stm: usize) -> (u64, u32, u32) {
        let FirstClass { class, sym } = first;
        let c = class as usize;
        let rep = self.reps[c];
        let o = map_board(sym as usize, o);
        let mut best = (rank(compress(o, rep)), o);
        let mut stab = self.stabiliser[c];
        while stab != 0 {
            let image = map_board(stab.trailing_zeros() as usize, o);
            best = best.min((rank(compress(image, rep)), image));
            stab &= stab - 1;
        }
        let slot = (u64::from(class) * self.per_class + best.0) * 2 + stm as u64;
        (slot, rep, best.1)
    }

    /// The frame of Second's board `o` with First on the board of class
    /// `first`, for [`slot_after_step`](DenseIndex::slot_after_step).
    #[inline]
    pub fn step_frame(&self, first: FirstClass, o: u32) -> StepFrame {
        let c = first.class as usize;
        StepFrame {
            first,
            o,
            squeezed: compress(map_board(first.sym as usize, o), self.reps[c]),
            fixed: self.stabiliser[c] != 0,
        }
    }

    /// The slot of the position `frame` holds after Second's piece on
    /// `from` steps to the empty point `to`, with `stm` to move: the same
    /// slot as [`slot`](DenseIndex::slot) of the board after the
    /// step (Second's steps and un-steps were a third of the generator's
    /// time in that function).
    #[inline]
    pub fn slot_after_step(&self, frame: &StepFrame, from: u8, to: u8, stm: usize) -> u64 {
        let after = frame.o ^ (1 << from) ^ (1 << to);
        if frame.fixed {
            return self.slot_in(frame.first, after, stm).0;
        }
        let FirstClass { class, sym } = frame.first;
        let rep = self.reps[class as usize];
        // A point's bit among the free points: its image, less the
        // representative's points below it.
        let squeezed_bit = |p: u8| {
            let q = u32::from(map_point(sym as usize, p));
            1u32 << (q - (rep & ((1 << q) - 1)).count_ones())
        };
        let squeezed = frame.squeezed ^ squeezed_bit(from) ^ squeezed_bit(to);
        (u64::from(class) * self.per_class + rank(squeezed)) * 2 + stm as u64
    }

    /// The position of a slot: First's points, Second's points and the
    /// side to move.
    #[inline]
    pub fn decode(&self, slot: u64) -> (u32, u32, usize) {
        let (class, small) = self.class_and_small(slot);
        let (rep, o) = (self.reps[class], self.expand(class, small));
        debug_assert_eq!(rep & o, 0);
        debug_assert_eq!(o & !ALL, 0);
        (rep, o, (slot & 1) as usize)
    }

    /// The class of `slot` and its rank's set: Second's points among the
    /// points the class's representative leaves free.
    #[inline]
    fn class_and_small(&self, slot: u64) -> (usize, u32) {
        let rest = slot >> 1;
        let class = (rest / self.per_class) as usize;
        let free = 25 - self.reps[class].count_ones() as usize;
        (class, unrank(rest % self.per_class, self.second, free))
    }

    /// Second's points from their set among the points `class`'s
    /// representative leaves free.
    #[inline]
    fn expand(&self, class: usize, small: u32) -> u32 {
        let free = &self.free[class];
        Bitboard32(small)
            .iter()
            .fold(0, |o, p| o | 1 << free[usize::from(p)])
    }

    /// The positions of the slots `lo..hi` in order, as [`decode`] gives
    /// them, found by stepping from one to the next instead of decoding
    /// each (the passes over a whole table spend their time here).
    ///
    /// [`decode`]: DenseIndex::decode
    pub fn range(&self, lo: u64, hi: u64) -> impl Iterator<Item = (u64, u32, u32, usize)> + '_ {
        let first = (lo < hi).then(|| self.class_and_small(lo));
        let (mut class, mut small) = first.unwrap_or((0, 0));
        let top = 1u32 << (25 - self.reps.first().map_or(0, |r| r.count_ones()));
        let mut slot = lo;
        std::iter::from_fn(move || {
            if slot >= hi {
                return None;
            }
            let item = (
                slot,
                self.reps[class],
                self.expand(class, small),
                (slot & 1) as usize,
            );
            if slot & 1 == 1 {
                // The next set of as many points, in colexicographic
                // order (Gosper's hack), else the next class's first.
                let c = small & small.wrapping_neg();
                let r = small + c;
                small = (((r ^ small) >> 2) / c) | r;
                if small >= top {
                    class += 1;
                    small = (1 << self.second) - 1;
                }
            }
            slot += 1;
            Some(item)
        })
    }

    /// Whether some position is in `slot` (not a rank its class's
    /// stabiliser maps onto a smaller one).
    #[inline]
    pub fn is_canonical(&self, slot: u64) -> bool {
        let class = ((slot >> 1) / self.per_class) as usize;
        if self.stabiliser[class] == 0 {
            return true;
        }
        let (x, o, stm) = self.decode(slot);
        self.slot(x, o, stm) == slot
    }
}

#[cfg(test)]
mod tests;
