//! Unit tests of `five_tigers::bans`.

use std::sync::Arc;

use super::super::cells::{table_of, Cells};
use super::super::{closure, solve_material, Tablebase};
use super::*;
use crate::in_core::{self, Distance, Solved};
use crate::value::Distances;

/// Distances below 20: a width that small materials outgrow.
#[derive(Clone, Copy, Default)]
struct Narrow(u16);

impl Distance for Narrow {
    const LIMIT: u32 = 20;
    fn of(d: u16) -> Narrow {
        Narrow(d)
    }
    fn get(self) -> u16 {
        self.0
    }
    fn into_table(dist: Vec<Narrow>) -> Distances {
        Distances::from_u16(dist.into_iter().map(|d| d.0).collect())
    }
}

#[test]
fn the_cells_of_a_board_slot_start_together_as_each_alone() {
    // The cells of a board slot share their steps' blocks and
    // conversions (`BlockStart`): every 29th board slot of `3v3`, the
    // smallest material where a conversion's value depends on the
    // other side's ban, is started both ways.
    let rules = Rules::shandong();
    let m: Material = "3v3".parse().unwrap();
    let mut tb = Tablebase::new(&rules);
    for smaller in closure(&[m], &rules).into_iter().filter(|&s| s != m) {
        let t = solve_material(&rules, smaller, &tb, 2).unwrap();
        assert!(tb.insert(t).is_ok());
    }
    let index = BanIndex::new(m.first, m.second);
    let values = rules.values();
    let (mut memo, mut alone_memo) = (Memo::new(), Memo::new());
    let mut block = BlockStart::default();
    let (mut together, mut alone) = (Vec::new(), Vec::new());
    let (mut firsts, mut seconds) = (Vec::new(), Vec::new());
    let (mut cells, mut converted) = (0, 0);
    for (slot, x, o, stm) in index.boards.range(0, index.board_slots()).step_by(29) {
        if index.cells_of(slot).is_empty() {
            continue;
        }
        block.reset(&index, [x, o], stm, &values);
        let empty = ALL & !(x | o);
        index.bans_in_order(x, empty, &mut firsts);
        index.bans_in_order(o, empty, &mut seconds);
        for &first in &firsts {
            for &second in &seconds {
                let bans = [first, second];
                together.clear();
                alone.clear();
                let a = block.start(&index, bans, &rules, m, &tb, &mut memo, &mut together);
                let mut fresh = BlockStart::default();
                fresh.reset(&index, [x, o], stm, &values);
                let b = fresh.start(&index, bans, &rules, m, &tb, &mut alone_memo, &mut alone);
                assert_eq!(
                    (a.unwrap(), &together),
                    (b.unwrap(), &alone),
                    "{x:#x} {o:#x} {stm} {bans:?}"
                );
                cells += 1;
            }
        }
        converted += block.conversions.len();
    }
    assert!(
        cells > 100_000 && converted > 1000,
        "{cells} cells, {converted} conversions"
    );
}

#[test]
fn a_material_whose_distances_outgrow_the_width_is_solved_again_wider() {
    // Longest wins under the ban: 3v1 16 plies, 2v1 23, 1v1 29.
    let rules = Rules::shandong();
    for (name, fits) in [("3v1", true), ("2v1", false), ("1v1", false)] {
        let m: Material = name.parse().unwrap();
        let mut tb = Tablebase::new(&rules);
        for smaller in closure(&[m], &rules).into_iter().filter(|&s| s != m) {
            let t = solve_material(&rules, smaller, &tb, 2).unwrap();
            assert!(tb.insert(t).is_ok());
        }
        let index = Arc::new(BanIndex::new(m.first, m.second));
        let cells = Cells {
            index: &index,
            material: m,
            rules: &rules,
            smaller: &tb,
        };
        let bytes = |solved: Solved| {
            let (values, distances) = solved.pack(2);
            table_of(m, &rules, index.clone(), values, distances)
                .unwrap()
                .to_bytes()
        };
        fn width<D: Distance>(cells: &Cells<'_, Tablebase>) -> Option<Solved> {
            in_core::solve_in::<D, _>(&"test", cells, 2)
                .unwrap()
                .map(Solved::of)
        }
        let wide = bytes(width::<u16>(&cells).unwrap());
        let byte = bytes(width::<u8>(&cells).unwrap());
        assert!(byte == wide, "{m}: one byte");
        let narrow = width::<Narrow>(&cells);
        assert_eq!(narrow.is_some(), fits, "{m}");
        if let Some(t) = narrow {
            assert!(bytes(t) == wide, "{m}: narrow");
        }
    }
}
