//! Unit tests of `five_tigers::count`.

use super::*;

fn shandong() -> Rules {
    Rules::shandong()
}

#[test]
fn the_sampled_count_is_within_half_a_per_cent_of_the_exact_one() {
    for (first, second) in [(3, 3), (4, 2)] {
        let material = Material { first, second };
        let exact = raw_state_count(material, &shandong(), false);
        let sampled = sampled_state_count(material, 1 << 20);
        let off = (sampled as f64 / exact as f64 - 1.0).abs();
        assert!(off < 0.005, "{material}: {sampled} against {exact}");
    }
}

#[test]
fn the_estimate_is_exact_where_counting_is_cheap() {
    let small = Material {
        first: 3,
        second: 2,
    };
    assert!(placements(small) <= EXACT_PLACEMENTS);
    assert_eq!(
        estimated_state_count(small, &shandong()),
        raw_state_count(small, &shandong(), false)
    );
    // Without the ban a state is a placement and a side to move.
    let big = Material {
        first: 5,
        second: 5,
    };
    let rules = Rules {
        shuttle: Shuttle::Allowed,
        ..Rules::shandong()
    };
    assert_eq!(estimated_state_count(big, &rules), 2 * 53_130 * 15_504);
    // With it, 5v5 is sampled, and each placement has at least the
    // state without bans.
    assert!(placements(big) > EXACT_PLACEMENTS);
    assert!(estimated_state_count(big, &shandong()) > 2 * 53_130 * 15_504);
}
