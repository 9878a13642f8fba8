//! Unit tests of `format::versions`.

use super::*;

#[test]
fn each_game_and_version_and_each_index_name_one_format() {
    for (i, a) in FORMATS.iter().enumerate() {
        for b in &FORMATS[i + 1..] {
            assert!((a.game, a.version) != (b.game, b.version), "{a:?} {b:?}");
            assert_ne!(a.index, b.index);
        }
        assert_eq!(format_of(a.game, a.version), Some(*a));
        assert_eq!(format_for(a.index), *a);
    }
    assert_eq!(format_of("jungle", 1), None);
    assert_eq!(format_of("five-tigers", 4), None);
}
