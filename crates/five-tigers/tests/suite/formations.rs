//! The formation table as properties.

use qi_core::Bitboard32;
use qi_five_tigers::{
    formations_through, held_formations, loose_pieces, score, FormationKind, Point, Rules,
    FORMATIONS,
};

fn coords(mask: Bitboard32) -> Vec<(i32, i32)> {
    Point::points_of(mask)
        .map(|p| (p.file() as i32, p.rank() as i32))
        .collect()
}

fn on_edge(p: (i32, i32)) -> bool {
    p.0 == 0 || p.0 == 4 || p.1 == 0 || p.1 == 4
}

#[test]
fn there_are_36_formations_16_4_4_10_2() {
    let count = |k: FormationKind| FORMATIONS.iter().filter(|f| f.kind == k).count();
    assert_eq!(FORMATIONS.len(), 36);
    assert_eq!(count(FormationKind::SmallSquare), 16);
    assert_eq!(count(FormationKind::ThreeDiagonal), 4);
    assert_eq!(count(FormationKind::FourDiagonal), 4);
    assert_eq!(count(FormationKind::FiveTigers), 10);
    assert_eq!(count(FormationKind::ThroughHeaven), 2);
    let mut masks: Vec<u32> = FORMATIONS.iter().map(|f| f.mask.0).collect();
    masks.sort_unstable();
    masks.dedup();
    assert_eq!(masks.len(), 36, "formations are distinct");
}

#[test]
fn every_formation_is_a_unit_square_or_a_full_collinear_run() {
    for f in &FORMATIONS {
        let pts = coords(f.mask);
        assert_eq!(pts.len() as u32, f.kind.size(), "{f:?}");
        assert_eq!(f.mask.0 >> 25, 0);
        match f.kind {
            FormationKind::SmallSquare => {
                let (f0, r0) = pts[0];
                let mut expect = vec![(f0, r0), (f0 + 1, r0), (f0, r0 + 1), (f0 + 1, r0 + 1)];
                expect.sort_by_key(|p| (p.1, p.0));
                assert_eq!(pts, expect);
            }
            _ => {
                // Consecutive points one step apart in one fixed direction.
                let d = (pts[1].0 - pts[0].0, pts[1].1 - pts[0].1);
                for w in pts.windows(2) {
                    assert_eq!((w[1].0 - w[0].0, w[1].1 - w[0].1), d, "{f:?}");
                }
                let diagonal = d.0 != 0 && d.1 != 0;
                assert_eq!(
                    diagonal,
                    f.kind != FormationKind::FiveTigers,
                    "{:?} direction {d:?}",
                    f.kind
                );
                // Both ends lie on the edge; the run cannot be extended.
                let first = pts[0];
                let last = pts[pts.len() - 1];
                assert!(on_edge(first) && on_edge(last), "{f:?}");
                let before = (first.0 - d.0, first.1 - d.1);
                let after = (last.0 + d.0, last.1 + d.1);
                for p in [before, after] {
                    assert!(!(0..5).contains(&p.0) || !(0..5).contains(&p.1), "{f:?}");
                }
            }
        }
    }
}

#[test]
fn formation_values_follow_the_options() {
    let s = Rules::shandong();
    let d = Rules::deferred();
    let value = |k: FormationKind, r: &Rules| k.value(r);
    assert_eq!(value(FormationKind::SmallSquare, &s), 1);
    assert_eq!(value(FormationKind::ThreeDiagonal, &s), 2);
    assert_eq!(value(FormationKind::FourDiagonal, &s), 3);
    assert_eq!(value(FormationKind::FourDiagonal, &d), 4);
    assert_eq!(value(FormationKind::FiveTigers, &s), 4);
    assert_eq!(value(FormationKind::FiveTigers, &d), 5);
    assert_eq!(value(FormationKind::ThroughHeaven, &s), 5);
    assert_eq!(value(FormationKind::ThroughHeaven, &d), 5);
    // Everything held: 16 + 8 + 12 + 40 + 10 under shandong.
    let all = Bitboard32((1 << 25) - 1);
    assert_eq!(score(all, &s), 86);
    assert_eq!(score(all, &d), 16 + 8 + 16 + 50 + 10);
    assert_eq!(held_formations(all).count(), 36);
    assert!(loose_pieces(all).is_empty());
}

#[test]
fn per_point_lists_hold_exactly_the_formations_through_the_point() {
    let mut total = 0;
    for p in Point::all() {
        let through = formations_through(p);
        for f in &FORMATIONS {
            let listed = through.masks().contains(&f.mask);
            assert_eq!(listed, f.mask.contains(p.index()), "{p} {f:?}");
        }
        total += through.masks().len();
    }
    // Each formation is listed once per point: 16*4 + 4*3 + 4*4 + 10*5 + 2*5.
    assert_eq!(total, 64 + 12 + 16 + 50 + 10);
}

#[test]
fn held_formations_and_loose_pieces_agree_with_a_brute_force_count() {
    let mut state = 0x1234_5678u32;
    for _ in 0..2000 {
        state ^= state << 13;
        state ^= state >> 17;
        state ^= state << 5;
        let pieces = Bitboard32(state & ((1 << 25) - 1));
        let held: Vec<_> = held_formations(pieces).collect();
        for f in &FORMATIONS {
            assert_eq!(held.contains(&f), f.mask.is_subset(pieces));
        }
        for p in Point::points_of(pieces) {
            let in_held = held.iter().any(|f| f.mask.contains(p.index()));
            assert_eq!(loose_pieces(pieces).contains(p.index()), !in_held);
        }
        assert!(loose_pieces(pieces).is_subset(pieces));
    }
}
