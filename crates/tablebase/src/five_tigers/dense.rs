//! A dense index of one material's positions with nothing owed and no
//! previous step, modulo the 8 board symmetries: what the retrograde
//! generator (`retro`) keeps its values in, so that it needs no key and no
//! hash table per position.
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

use super::key::map_board;

const ALL: u32 = (1 << 25) - 1;

/// `BINOM[n][k]` = C(n, k) for n ≤ 25, k ≤ 5.
const BINOM: [[u64; 6]; 26] = build_binom();

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

/// The colexicographic rank of a set of points given as a mask.
#[inline]
fn rank(mut set: u32) -> u64 {
    let mut r = 0;
    let mut i = 1;
    while set != 0 {
        let p = set.trailing_zeros() as usize;
        r += BINOM[p][i];
        i += 1;
        set &= set - 1;
    }
    r
}

/// The set of `k` points (of `0..n`) with colexicographic rank `r`.
#[inline]
fn unrank(mut r: u64, k: usize, n: usize) -> u32 {
    let mut set = 0u32;
    let mut top = n;
    for i in (1..=k).rev() {
        // The largest c < top with C(c, i) <= r.
        let mut c = top - 1;
        while BINOM[c][i] > r {
            c -= 1;
        }
        set |= 1 << c;
        r -= BINOM[c][i];
        top = c;
    }
    set
}

/// Squeezes the points of `set` (disjoint from `taken`) onto `0..25 −
/// |taken|`, dropping the points of `taken`.
#[inline]
fn compress(mut set: u32, taken: u32) -> u32 {
    let mut out = 0;
    while set != 0 {
        let p = set.trailing_zeros();
        out |= 1 << (p - (taken & ((1 << p) - 1)).count_ones());
        set &= set - 1;
    }
    out
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
    /// Per class, the range of its non-identity stabiliser in `stab`.
    stab_at: Vec<u32>,
    stab: Vec<u8>,
    /// By the rank of a set of First's points: its class and a symmetry
    /// mapping it onto the representative.
    class_of: Vec<(u32, u8)>,
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
            .map(|&(min, sym)| (reps.partition_point(|&r| r < min) as u32, sym))
            .collect();
        let mut stab_at = vec![0u32];
        let mut stab = Vec::new();
        let mut free = Vec::with_capacity(reps.len());
        for &rep in &reps {
            stab.extend((1..8u8).filter(|&s| map_board(s as usize, rep) == rep));
            stab_at.push(stab.len() as u32);
            let mut f = [0u8; 25];
            let mut i = 0;
            for p in 0..25u8 {
                if rep & (1 << p) == 0 {
                    f[i] = p;
                    i += 1;
                }
            }
            free.push(f);
        }
        DenseIndex {
            second: b,
            per_class: BINOM[25 - a][b],
            reps,
            free,
            stab_at,
            stab,
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
        let (class, sym) = self.class_of[rank(x) as usize];
        let rep = self.reps[class as usize];
        let o = map_board(sym as usize, o);
        let mut best = (rank(compress(o, rep)), o);
        let c = class as usize;
        for &s in &self.stab[self.stab_at[c] as usize..self.stab_at[c + 1] as usize] {
            let image = map_board(s as usize, o);
            best = best.min((rank(compress(image, rep)), image));
        }
        let slot = (u64::from(class) * self.per_class + best.0) * 2 + stm as u64;
        (slot, rep, best.1)
    }

    /// The position of a slot: First's points, Second's points and the
    /// side to move.
    #[inline]
    pub fn decode(&self, slot: u64) -> (u32, u32, usize) {
        let stm = (slot & 1) as usize;
        let rest = slot >> 1;
        let class = (rest / self.per_class) as usize;
        let r = rest % self.per_class;
        let rep = self.reps[class];
        let small = unrank(r, self.second, 25 - rep.count_ones() as usize);
        let o = self.expand(class, small);
        debug_assert_eq!(rep & o, 0);
        debug_assert_eq!(o & !ALL, 0);
        (rep, o, stm)
    }

    /// Second's points from their set among the points `class`'s
    /// representative leaves free.
    #[inline]
    fn expand(&self, class: usize, mut small: u32) -> u32 {
        let free = &self.free[class];
        let mut o = 0u32;
        while small != 0 {
            o |= 1 << free[small.trailing_zeros() as usize];
            small &= small - 1;
        }
        o
    }

    /// The positions of the slots `lo..hi` in order, as [`decode`] gives
    /// them, found by stepping from one to the next instead of decoding
    /// each (the passes over a whole table spend their time here).
    ///
    /// [`decode`]: DenseIndex::decode
    pub fn range(&self, lo: u64, hi: u64) -> impl Iterator<Item = (u64, u32, u32, usize)> + '_ {
        let first = (lo < hi).then(|| {
            let rest = lo >> 1;
            let class = (rest / self.per_class) as usize;
            let small = unrank(
                rest % self.per_class,
                self.second,
                25 - self.reps[class].count_ones() as usize,
            );
            (class, small)
        });
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
        if self.stab_at[class] == self.stab_at[class + 1] {
            return true;
        }
        let (x, o, stm) = self.decode(slot);
        self.slot(x, o, stm) == slot
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rank_and_unrank_are_inverse() {
        for (k, &count) in BINOM[25].iter().enumerate().skip(1) {
            for r in (0..count).step_by(97) {
                let s = unrank(r, k, 25);
                assert_eq!(s.count_ones() as usize, k);
                assert_eq!(rank(s), r);
            }
        }
    }

    #[test]
    fn stepping_through_a_range_decodes_each_slot() {
        let idx = DenseIndex::new(3, 2);
        let (lo, hi) = (idx.len() / 3 + 1, idx.len() / 3 + 5000);
        let stepped: Vec<_> = idx.range(lo, hi).collect();
        assert_eq!(stepped.len() as u64, hi - lo);
        for (slot, x, o, stm) in stepped {
            assert_eq!(idx.decode(slot), (x, o, stm));
        }
        assert_eq!(idx.range(idx.len() - 3, idx.len()).count(), 3);
    }

    #[test]
    fn every_position_has_one_canonical_slot_and_symmetric_images_share_it() {
        let idx = DenseIndex::new(2, 2);
        let mut used = vec![false; idx.len() as usize];
        for slot in 0..idx.len() {
            if idx.is_canonical(slot) {
                let (x, o, stm) = idx.decode(slot);
                assert_eq!(idx.slot(x, o, stm), slot);
                for s in 0..8 {
                    assert_eq!(idx.slot(map_board(s, x), map_board(s, o), stm), slot);
                }
                used[slot as usize] = true;
            }
        }
        // Every placement lands on a canonical slot.
        for x in 0..BINOM[25][2] {
            let x = unrank(x, 2, 25);
            for r in 0..BINOM[23][2] {
                let c = unrank(r, 2, 23);
                let free: Vec<u8> = (0..25u8).filter(|p| x & (1 << p) == 0).collect();
                let o = (0..23)
                    .filter(|i| c & (1 << i) != 0)
                    .fold(0u32, |o, i| o | 1 << free[i]);
                assert!(used[idx.slot(x, o, 1) as usize]);
            }
        }
    }
}
