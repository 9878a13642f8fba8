//! The built-in opening suites ([`GameKit::OPENINGS`]) under every preset
//! of their game: `qi match` plays them by default.

use qi_core::Position;
use qi_engine::arena::{builtin_openings, read_openings};
use qi_engine::{FiveTigersKit, GameKit, JungleKit, RulesOf};

/// Whether the suite of `K` loads under each preset, by preset name.
fn fits<K: GameKit>() -> Vec<(&'static str, bool)> {
    K::PRESETS
        .iter()
        .map(|&preset| {
            let rules: RulesOf<K> = K::parse_rules(&format!("{}:{preset}", K::NAME)).unwrap();
            let start = K::Position::new(rules);
            (preset, builtin_openings::<K>(&start).is_some())
        })
        .collect()
}

#[test]
fn every_jungle_preset_takes_the_suite() {
    let fits = fits::<JungleKit>();
    assert!(fits.iter().all(|(_, fit)| *fit), "{fits:?}");
    let start = <JungleKit as GameKit>::Position::new(JungleKit::parse_rules("jungle").unwrap());
    assert_eq!(builtin_openings::<JungleKit>(&start).unwrap().len(), 50);
}

/// The Five Tigers suite holds 12 pieces in hand a side: too many for
/// `ten` (10 pieces a side), which then starts from the start position.
#[test]
fn five_tigers_presets_take_the_suite_but_ten() {
    let fits = fits::<FiveTigersKit>();
    assert_eq!(
        fits,
        [
            ("shandong", true),
            ("shandong-shuttle", true),
            ("ten", false),
            ("deferred", true)
        ]
    );
    let rules = FiveTigersKit::parse_rules("five-tigers:ten").unwrap();
    let start = <FiveTigersKit as GameKit>::Position::new(rules);
    let err = read_openings(&start, FiveTigersKit::OPENINGS).unwrap_err();
    assert!(err.to_string().contains("more than 10"), "{err}");
    let start = <FiveTigersKit as GameKit>::Position::new(
        FiveTigersKit::parse_rules("five-tigers").unwrap(),
    );
    assert_eq!(builtin_openings::<FiveTigersKit>(&start).unwrap().len(), 30);
}

#[test]
fn a_byte_order_mark_before_an_openings_file_is_skipped() {
    let start = <JungleKit as GameKit>::Position::new(JungleKit::parse_rules("jungle").unwrap());
    let text = format!("\u{feff}{start}\n");
    let openings = read_openings(&start, Some(&text)).unwrap();
    assert_eq!(openings.len(), 1);
}
