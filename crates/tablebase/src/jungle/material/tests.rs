//! Unit tests of `jungle::material`.

use super::*;
use qi_jungle::Setup;

#[test]
fn index_is_a_bijection_on_small_materials() {
    let rules = Rules::standard();
    for text in ["RvR", "LvR", "EvC", "RCvr"] {
        let m: Material = text.parse().unwrap();
        let ix = Indexer::new(m);
        for i in 0..ix.count {
            let pos = ix.position(i, &rules).unwrap();
            assert_eq!(ix.index_of(&pos), Some(i), "{m} {i} {pos}");
        }
        assert!(ix.position(ix.count, &rules).is_none());
    }
}

#[test]
fn counts_follow_the_convention() {
    let count = |t: &str| t.parse::<Material>().unwrap().position_count();
    assert_eq!(count("LvE"), 49 * 48 * 2);
    assert_eq!(count("LvR"), 49 * 60 * 2);
    assert_eq!(count("RvR"), 61 * 60 * 2);
    assert_eq!(count("RCvE"), 49 * 48 * 59 * 2);
    assert_eq!(Material::all_up_to(3).len(), 64 + 2 * 28 * 8);
    assert_eq!(Material::all_up_to(17), Material::all_up_to(16));
    let every: Material = "ELTPWDCRvELTPWDCR".parse().unwrap();
    assert_eq!(Material::all_up_to(16).last(), Some(&every));
    assert!(Material::all_with(0, 2).is_empty() && Material::all_with(9, 1).is_empty());
    for (red, blue) in [(1, 1), (2, 3), (8, 8)] {
        let all = Material::all_with(red, blue);
        assert!(all.windows(2).all(|w| w[0] < w[1]), "{red}v{blue} in order");
        assert!(all
            .iter()
            .all(|m| m.count(Side::First) == red && m.count(Side::Second) == blue));
    }
    assert_eq!(count("ELTPWDCRvELTPWDCR"), u64::MAX);
    let stored = |t: &str| t.parse::<Material>().unwrap().index_count();
    assert_eq!(stored("LvE"), 28 * 48 * 2);
    assert_eq!(stored("RvR"), 34 * 60 * 2);
    assert_eq!(stored("RCvE"), 28 * 48 * 59 * 2);
}

#[test]
fn weights_add_up_to_the_convention_and_mirrors_share_an_index() {
    let rules = Rules::standard();
    for text in ["RvR", "LvR", "EvC", "RCvR", "TCvL"] {
        let m: Material = text.parse().unwrap();
        let ix = Indexer::new(m);
        let total: u64 = (0..ix.count).map(|i| ix.weight(i)).sum();
        assert_eq!(total, ix.full_count, "{m}");
        for i in (0..ix.count).step_by(7) {
            let pos = ix.position(i, &rules).unwrap();
            let mut setup = Setup::empty().side_to_move(pos.side_to_move());
            for side in Side::BOTH {
                for (animal, sq) in pos.pieces(side) {
                    let sq = Square::new(MIRROR[usize::from(sq.index())]).unwrap();
                    setup = setup.place(sq, Piece::new(side, animal));
                }
            }
            let image = setup.into_position(rules).unwrap();
            let j = ix.index_of(&image).unwrap();
            // Stored once unless the first piece is on file d.
            assert_eq!(i == j, ix.weight(i) == 2 || image == pos, "{m} {pos}");
        }
    }
}

#[test]
fn bad_material_text_is_refused() {
    assert!(matches!(
        "LL".parse::<Material>(),
        Err(MaterialError::Syntax(_))
    ));
    assert!(matches!(
        "LLvE".parse::<Material>(),
        Err(MaterialError::Duplicate { .. })
    ));
    assert!(matches!(
        "vE".parse::<Material>(),
        Err(MaterialError::EmptySide(_))
    ));
    assert!(matches!(
        "XvE".parse::<Material>(),
        Err(MaterialError::UnknownLetter('X'))
    ));
}

#[test]
fn successors_said_distinct_have_distinct_slots() {
    use qi_core::MoveSpace;
    // What the claim rests on: no move ends on the mirror image of its
    // square.
    for mv in Jungle::default().move_space() {
        assert_ne!(MIRROR[usize::from(mv.from.index())], mv.to.index(), "{mv}");
    }
    let rules = Rules::standard();
    let mut distinct = 0;
    for text in ["LvR", "RvR", "TCvL"] {
        let ix = Indexer::new(text.parse().unwrap());
        for i in (0..ix.count).step_by(3) {
            let pos = ix.position(i, &rules).unwrap();
            if !ix.successors_distinct(&pos) {
                continue;
            }
            distinct += 1;
            let mut slots: Vec<u64> = pos
                .legal_moves()
                .into_iter()
                .filter_map(|mv| {
                    let mut child = pos;
                    child.play_unchecked(mv);
                    assert_eq!(ix.holds_child(&child), ix.index_of(&child).is_some());
                    ix.index_of(&child)
                })
                .collect();
            let all = slots.len();
            slots.sort_unstable();
            slots.dedup();
            assert_eq!(slots.len(), all, "{text} {pos}");
        }
    }
    assert!(distinct > 1000);
}
