//! The bytes of small generated tables of each game, pinned: the length
//! and FNV-1a 64 of every table file of a few closures, computed with the
//! generator as it was before the generic core (`docs/tablebases.md`,
//! "History"). A change to the generator, the index or the file
//! format that changes one byte of a table fails here. The Five Tigers
//! retrograde tables are pinned in their keyed form (`Table::keyed`, the
//! version-1 bytes of before) and as the dense version-2 files they are
//! written as (pinned when that format was made).

use qi_five_tigers::Rules as FtRules;
use qi_jungle::Rules;
use qi_tablebase::five_tigers as ft;
use qi_tablebase::jungle::{Material, Tablebase};

use crate::common::fnv;
use fnv::fnv1a;

fn jungle(rules: &Rules, what: &str) -> Vec<(String, usize, u64)> {
    let m: Material = what.parse().unwrap();
    let tb = Tablebase::generate(rules, &[m], 2).unwrap();
    tb.tables()
        .map(|t| {
            let b = t.to_bytes();
            (t.material().to_string(), b.len(), fnv1a(&b))
        })
        .collect()
}

fn five_tigers(rules: &FtRules, what: &str, keyed: bool) -> Vec<(String, usize, u64)> {
    let m: ft::Material = what.parse().unwrap();
    let tb = ft::Tablebase::generate(rules, &[m], 2).unwrap();
    tb.tables()
        .map(|t| {
            let b = if keyed { t.keyed() } else { t.clone() }.to_bytes();
            (t.material().to_string(), b.len(), fnv1a(&b))
        })
        .collect()
}

fn check(found: Vec<(String, usize, u64)>, pinned: &[(&str, usize, u64)]) {
    let found: Vec<(&str, usize, u64)> =
        found.iter().map(|(m, n, h)| (m.as_str(), *n, *h)).collect();
    assert_eq!(found, pinned, "now:\n{}", show(&found));
}

fn show(found: &[(&str, usize, u64)]) -> String {
    found
        .iter()
        .map(|(m, n, h)| format!("(\"{m}\", {n}, {h:#018x}),"))
        .collect::<Vec<_>>()
        .join("\n")
}

#[test]
fn jungle_standard_tables_keep_their_bytes() {
    check(
        jungle(&Rules::standard(), "ERvL"),
        &[
            ("RvL", 4248, 0x7b9214d4d32608ae),
            ("EvL", 3408, 0x4df9ccefd1359c40),
            ("ERvL", 198289, 0x8a7a75a13ecb5282),
        ],
    );
}

#[test]
fn jungle_datou_tables_keep_their_bytes() {
    check(
        jungle(&Rules::datou(), "LCvE"),
        &[
            ("CvE", 3405, 0x961351df81663c6a),
            ("LvE", 3405, 0xf40b53ef92253733),
            ("LCvE", 157966, 0x002a4f6d2a7cc1f5),
        ],
    );
}

#[test]
fn five_tigers_shuttle_tables_keep_their_bytes() {
    check(
        five_tigers(&FtRules::shandong_shuttle(), "3v2", true),
        &[("3v2", 1236965, 0xf9b6bc58aadfbc0f)],
    );
}

#[test]
fn five_tigers_shuttle_dense_files_keep_their_bytes() {
    check(
        five_tigers(&FtRules::shandong_shuttle(), "3v2", false),
        &[("3v2", 184372, 0x4accc37b6499cf0e)],
    );
}

/// The keyed form of the dense version-3 table: the bytes of the keyed
/// files written before version 3.
#[test]
fn five_tigers_shuttle_ban_tables_keep_their_bytes() {
    check(
        five_tigers(&FtRules::shandong(), "2v2", true),
        &[("2v2", 7678231, 0x372c86e4321e0665)],
    );
}

#[test]
fn five_tigers_shuttle_ban_dense_files_keep_their_bytes() {
    check(
        five_tigers(&FtRules::shandong(), "2v2", false),
        &[("2v2", 1057793, 0xb8722068a1e36dae)],
    );
}
