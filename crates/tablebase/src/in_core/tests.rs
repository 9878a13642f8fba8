//! Unit tests of `in_core`.

use super::*;

#[test]
fn updates_applied_on_threads_equal_those_applied_on_one() {
    // 10 000 cells, 200 000 updates (past the threads' threshold):
    // counts, winning exits and won predecessors mixed.
    let mut x = 0x9e37_79b9_7f4a_7c15u64;
    let mut next = || {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        x
    };
    let n = 10_000usize;
    // A cell with a winning exit never runs out of successors
    // here; the others (1 to 20 successors) may, and are then lost.
    let states: Vec<u8> = (0..n)
        .map(|_| match next() % 4 {
            0 => COUNT | NON_LOSING,
            _ => 1 + (next() % 20) as u8,
        })
        .collect();
    let dist: Vec<u8> = (0..n).map(|_| (next() % 4) as u8).collect();
    let updates: Vec<Vec<u64>> = (0..2)
        .map(|_| {
            (0..100_000)
                .map(|_| (next() % n as u64) << 1 | u64::from(next() % 3 != 0))
                .collect()
        })
        .collect();
    let (mut s1, mut d1) = (states.clone(), dist.clone());
    let (mut s2, mut d2) = (states, dist);
    let one = apply_updates(&mut s1, &mut d1, &updates, 4, 1).unwrap();
    let two = apply_updates(&mut s2, &mut d2, &updates, 4, 2).unwrap();
    assert_eq!((one, &s1, &d1), (two, &s2, &d2));
    assert!(s1.contains(&WIN_NEW) && s1.contains(&LOSS_NEW));
}

#[test]
fn byte_candidates_are_the_cells_at_the_distance_or_one_less() {
    let mut x = 0x2545_f491_4f6c_dd1du64;
    for round in 0..3000u16 {
        let mut dist = [0u8; SCAN];
        for d in dist.iter_mut() {
            // Distances near the round's, and some anywhere below 255.
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            *d = if x.is_multiple_of(3) {
                (x >> 8) as u8 % 255
            } else {
                ((round % 254) as u8)
                    .wrapping_add((x >> 8) as u8 % 3)
                    .wrapping_sub(1)
                    % 255
            };
        }
        let here = round % 254;
        assert_eq!(
            byte_candidates(&dist, here),
            candidates(&dist[..], here),
            "{here} {dist:?}"
        );
    }
}
