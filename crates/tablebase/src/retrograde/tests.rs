//! Unit tests of `retrograde`.

use super::sort_and_dedup_from;

#[test]
fn the_tail_is_sorted_and_deduplicated_and_the_head_left_alone() {
    let mut out = vec![9, 9, 4, 7, 4, 4, 1, 7];
    sort_and_dedup_from(&mut out, 2);
    assert_eq!(out, [9, 9, 1, 4, 7]);
    let mut empty_tail = vec![3, 3];
    sort_and_dedup_from(&mut empty_tail, 2);
    assert_eq!(empty_tail, [3, 3]);
}
