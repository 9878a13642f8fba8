//! Unit tests of `five_tigers::removals`.

use super::*;

#[test]
fn a_win_beats_a_draw_beats_a_loss_and_distances_break_ties() {
    assert_eq!(better((Wdl::Loss, 3), (Wdl::Draw, 0)), (Wdl::Draw, 0));
    assert_eq!(better((Wdl::Win, 9), (Wdl::Draw, 0)), (Wdl::Win, 9));
    assert_eq!(better((Wdl::Win, 9), (Wdl::Win, 4)), (Wdl::Win, 4));
    assert_eq!(better((Wdl::Loss, 2), (Wdl::Loss, 7)), (Wdl::Loss, 7));
}
