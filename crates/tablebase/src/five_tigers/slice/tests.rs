//! Unit tests of `five_tigers::slice`.

use super::*;
use crate::five_tigers::{closure, solve_material};

/// Answers a read from the tables themselves, slot for slot.
struct FromTables<'a>(Vec<&'a Table>);

impl Reader for FromTables<'_> {
    fn read(&self, source: usize, slot: u64) -> Result<(Wdl, u16), RetroError> {
        let (v, d) = self.0[source].at(slot).expect("a slot in range");
        Ok((v, d as u16))
    }
}

/// Every stored state of the tables `3v3`'s removals lead into,
/// looked up as a reading slice reads it (its slot in the source),
/// has the value the generators' own lookup gives and the table lists: a
/// read that dropped the bans, or took a non-canonical image's slot,
/// would differ.
fn reads_agree_with_the_lookups(rules: &Rules) {
    let m: Material = "3v3".parse().unwrap();
    let mut tb = Tablebase::new(rules);
    for s in closure(&[m], rules).into_iter().filter(|&s| s != m) {
        let table = solve_material(rules, s, &tb, 2).unwrap();
        assert!(tb.insert(table).is_ok());
    }
    let slice = FiveTigersSlice::reading(m, rules).unwrap();
    let tables: Vec<&Table> = slice
        .sources
        .iter()
        .map(|(s, _)| tb.table(*s).unwrap())
        .collect();
    let reader = FromTables(tables.clone());
    let reading = Reading {
        sources: &slice.sources,
        reader: &reader,
    };
    let held = FiveTigersSlice::new(m, rules, &tb).unwrap();
    let mut checked = 0;
    for table in &tables {
        for (pos, v, d) in table.entries() {
            let expected = held.held.as_ref().unwrap().value(&pos, m).unwrap();
            assert_eq!(expected, (v, d), "{pos}");
            // Every image of it (a conversion reaches any) reads the
            // same value.
            for sym in qi_five_tigers::Symmetry::ALL {
                let image = sym.position(&pos);
                assert_eq!(reading.value(&image, m).unwrap(), expected, "{image}");
            }
            checked += 1;
        }
    }
    assert!(checked > 1000, "{checked}");
}

#[test]
fn reads_under_the_shuttle_ban_agree_with_the_lookups() {
    reads_agree_with_the_lookups(&Rules::shandong());
}

#[test]
fn reads_with_the_shuttle_agree_with_the_lookups() {
    reads_agree_with_the_lookups(&Rules::shandong_shuttle());
}
