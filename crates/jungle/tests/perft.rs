//! Perft from the start position and from hand-built positions.

use qi_core::Position;
use qi_jungle::{Jungle, Rules};
use qi_search::{perft, perft_plain};

#[test]
fn perft_start_standard() {
    let pos = Jungle::new(Rules::standard());
    let expected = [24u64, 576, 12240, 260099, 5111620];
    for (depth, &n) in expected.iter().enumerate() {
        assert_eq!(perft(&pos, depth as u32 + 1), n, "depth {}", depth + 1);
    }
    for depth in 1..=3 {
        assert_eq!(perft_plain(&pos, depth), expected[depth as usize - 1]);
    }
    assert_eq!(pos.count_moves(), 24);
}
