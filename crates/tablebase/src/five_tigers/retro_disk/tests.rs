use std::path::PathBuf;

use super::super::{generate_resumable, Generator};
use super::*;

fn temp_dir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("qi-disk-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// Every table of `names`' closure solved in core into one directory,
/// then each of `names` solved out of core (cut by `grain`) into
/// another holding only the others: the same bytes.
fn same_bytes_as_in_core(rules: &Rules, names: &[&str], grain: Grain, tag: &str) -> u64 {
    let materials: Vec<Material> = names.iter().map(|m| m.parse().unwrap()).collect();
    let in_core = temp_dir(&format!("{tag}-core"));
    generate_resumable(
        rules,
        &materials,
        2,
        &in_core,
        &|_| Generator::Retrograde,
        &mut |_, _, _| {},
    )
    .unwrap();
    let mut cells = 0;
    for &m in &materials {
        let disk = temp_dir(&format!("{tag}-disk"));
        for entry in std::fs::read_dir(&in_core).unwrap() {
            let path = entry.unwrap().path();
            if path != Tablebase::file_path(&in_core, m) {
                std::fs::copy(&path, disk.join(path.file_name().unwrap())).unwrap();
            }
        }
        let report = solve_with(m, rules, &disk, 2, grain, &|_| {}).unwrap();
        let want = std::fs::read(Tablebase::file_path(&in_core, m)).unwrap();
        let got = std::fs::read(Tablebase::file_path(&disk, m)).unwrap();
        assert_eq!(report.file_bytes, got.len() as u64);
        if grain.block_slots == BLOCK_SLOTS {
            assert!(got == want, "{m}: the bytes differ");
        }
        // Read back (every block's checksum checked) and written with
        // this build's blocks: the in-core file.
        let table: super::super::Table =
            load_table(&Tablebase::file_path(&disk, m), rules).unwrap();
        assert!(table.to_bytes() == want, "{m}: the values differ");
        assert_eq!(report.stats, table.stats(), "{m}");
        // Nothing but the tables is left behind.
        let left: Vec<_> = std::fs::read_dir(&disk)
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .filter(|n| n.starts_with('.'))
            .collect();
        assert!(left.is_empty(), "{left:?}");
        cells += report.cells;
        std::fs::remove_dir_all(&disk).unwrap();
    }
    std::fs::remove_dir_all(&in_core).unwrap();
    cells
}

/// Jobs, tasks and blocks cut small, so that every boundary is
/// crossed many times.
const FINE: Grain = Grain {
    start_cells: 3_000,
    round_words: 3,
    blocks: 2,
    block_slots: 1_000,
};

/// A loss whose longest losing conversion is longer than the round is
/// held back to that distance (no small material has one, so the rule
/// is shown here on cells set by hand); other decided cells get the
/// round's distance.
#[test]
fn a_loss_with_a_longer_losing_conversion_is_held_back() {
    let (rules, m) = (Rules::shandong(), "2v1".parse::<Material>().unwrap());
    let dir = temp_dir("settle");
    let index = BanIndex::new(m.first, m.second);
    let cells = index.len();
    let path = Tablebase::file_path(&dir, m);
    let output = Output::create(&path, &rules, m, cells, 1_000).unwrap();
    let schedule = Schedule::create(&path).unwrap();
    let solver = Solver {
        material: m,
        rules: &rules,
        index: &index,
        values: Values::new(cells, m).unwrap(),
        output: &output,
        schedule: &schedule,
        threads: 2,
        grain: FINE,
    };
    let next = Bits::new(cells, m).unwrap();
    // Cell, value, distance byte before (a loss's longest losing
    // conversion), distance after, held.
    let cases = [
        (5u64, LOST, 9u8, 10u8, true),
        (1_999, LOST, 3, 4, false),
        (2_000, LOST, 2, 4, false),
        (cells - 1, WON, 7, 4, false),
        (4_321, LOST, 4, 5, true),
    ];
    for &(c, v, before, _, _) in &cases {
        assert!(solver.values.decide(c, v));
        next.set(c);
        output.distances(c, &mut [before], true).unwrap();
    }
    let held = solver.settle(&next, 3).unwrap();
    assert_eq!(held, 2);
    for &(c, _, _, after, was_held) in &cases {
        let mut d = [0u8];
        output.distances(c, &mut d, false).unwrap();
        assert_eq!(d[0], after, "cell {c}");
        assert_eq!(next.get(c), !was_held, "cell {c}");
    }
    let at = |d: u32| {
        let mut found = Vec::new();
        for run in schedule.take(d) {
            schedule.cells(run, |c| found.push(c)).unwrap();
        }
        found
    };
    assert_eq!(at(10), [5]);
    assert_eq!(at(5), [4_321]);
    assert!(at(4).is_empty());
    drop(output);
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn out_of_core_equals_in_core_to_five_pieces() {
    let rules = Rules::shandong();
    let names = [
        "1v1", "2v1", "1v2", "2v2", "3v1", "1v3", "4v1", "1v4", "3v2", "2v3",
    ];
    let cells = same_bytes_as_in_core(&rules, &names, FINE, "fine");
    assert!(cells > 15_000_000, "{cells} cells");
}

#[test]
fn out_of_core_equals_in_core_with_the_default_grain() {
    let cells = same_bytes_as_in_core(
        &Rules::shandong(),
        &["3v2", "1v4", "3v3"],
        Grain::default(),
        "default",
    );
    assert!(cells > 10_000_000, "{cells} cells");
}

#[test]
fn out_of_core_equals_in_core_under_other_formation_values() {
    let rules = Rules::preset("deferred").unwrap();
    same_bytes_as_in_core(&rules, &["2v2", "3v1", "2v3"], FINE, "deferred");
}
