//! Unit tests of `five_tigers::dense`.

use super::*;

/// The colexicographic rank of a set of points, point by point: what
/// [`RANK_PART`] is checked against.
fn rank_by_points(mut set: u32) -> u64 {
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

/// [`unrank`] by a search down each column: what it is checked against.
fn unrank_by_search(mut r: u64, k: usize, n: usize) -> u32 {
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

/// [`compress`] point by point: what [`SQUEEZE`] is checked against.
fn compress_by_points(mut set: u32, taken: u32) -> u32 {
    let mut out = 0;
    while set != 0 {
        let p = set.trailing_zeros();
        out |= 1 << (p - (taken & ((1 << p) - 1)).count_ones());
        set &= set - 1;
    }
    out
}

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

/// Every set of up to 5 of the 25 points, by size.
fn every_set() -> impl Iterator<Item = u32> {
    (0..=5).flat_map(|k| (0..BINOM[25][k]).map(move |r| unrank(r, k, 25)))
}

#[test]
fn the_rank_table_gives_the_rank_of_every_set_of_up_to_5_points() {
    // Each entry of `RANK_PART` that a set of up to 5 points reads is
    // read by one of these sets: a wrong entry fails here.
    let mut count = 0;
    for set in every_set() {
        assert_eq!(rank(set), rank_by_points(set), "set {set:#x}");
        count += 1;
    }
    assert_eq!(count, (0..=5).map(|k| BINOM[25][k]).sum::<u64>());
}

#[test]
fn unranking_by_counting_equals_the_search_for_every_rank() {
    // Every rank of every size and every universe the index uses.
    for (n, row) in BINOM.iter().enumerate().skip(19) {
        for (k, &count) in row.iter().enumerate() {
            for r in 0..count {
                assert_eq!(unrank(r, k, n), unrank_by_search(r, k, n), "{r} {k} {n}");
            }
        }
    }
}

#[test]
fn the_squeeze_table_compresses_every_chunk_and_every_board() {
    // Every entry of `SQUEEZE` (disjoint chunks; the others are never
    // read), at each chunk's place.
    for taken in 0..32u32 {
        for set in (0..32u32).filter(|s| s & taken == 0) {
            for c in 0..5 {
                let (t, s) = (taken << (5 * c), set << (5 * c));
                assert_eq!(compress(s, t), compress_by_points(s, t), "{s:#x} {t:#x}");
            }
        }
    }
    // Whole boards: every First of up to 5 points against sets of
    // Second's among the points it leaves free.
    for taken in every_set() {
        let free = ALL & !taken;
        for shift in [0, 7, 13] {
            let set = free & (0x0100_4211u32.rotate_left(shift) & ALL);
            assert_eq!(compress(set, taken), compress_by_points(set, taken));
        }
    }
}

#[test]
fn slots_through_the_class_of_first_equal_the_plain_slots() {
    let idx = DenseIndex::new(3, 3);
    for slot in (0..idx.len()).step_by(101) {
        let (x, o, stm) = idx.decode(slot);
        for s in 0..8 {
            let (x, o) = (map_board(s, x), map_board(s, o));
            assert_eq!(idx.slot_in(idx.first(x), o, stm).0, idx.slot(x, o, stm));
        }
    }
}

#[test]
fn the_slot_after_each_step_of_second_equals_the_plain_slot() {
    // Every 23rd slot of `4v3` and `2v5` (whose classes include
    // symmetric ones, the long way), each of Second's steps from
    // every image of the position.
    for (a, b) in [(4, 3), (2, 5)] {
        let idx = DenseIndex::new(a, b);
        let (mut fixed, mut plain) = (0, 0);
        for slot in (0..idx.len()).step_by(23) {
            let (x, o, stm) = idx.decode(slot);
            for s in 0..8 {
                let (x, o) = (map_board(s, x), map_board(s, o));
                let frame = idx.step_frame(idx.first(x), o);
                *if frame.fixed { &mut fixed } else { &mut plain } += 1;
                let empty = ALL & !(x | o);
                let mut froms = o;
                while froms != 0 {
                    let from = froms.trailing_zeros() as u8;
                    froms &= froms - 1;
                    let mut tos = empty;
                    while tos != 0 {
                        let to = tos.trailing_zeros() as u8;
                        tos &= tos - 1;
                        let after = o ^ (1 << from) ^ (1 << to);
                        assert_eq!(
                            idx.slot_after_step(&frame, from, to, stm),
                            idx.slot(x, after, stm),
                            "{a}v{b}: {x:#x} {o:#x} {from}->{to}"
                        );
                    }
                }
            }
        }
        assert!(fixed > 0 && plain > 0, "{a}v{b}: {fixed} {plain}");
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
