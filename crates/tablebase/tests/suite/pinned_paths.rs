//! Every way of generating a table, pinned: for a few closures of each
//! game, the length and FNV-1a 64 of every table file, the same list from
//! each path that makes those tables (in memory, into a directory, their
//! keyed form, by the one-thread rounds, on timely dataflow
//! workers, partitioned and joined, out of core, from a twin). A change
//! that alters one byte of one path's tables fails here, whichever path
//! it is. The out-of-core widening forced by a small grain is pinned
//! beside its tests (`five_tigers/out_of_core/tests.rs`), the two-animal
//! and keyed forms in `pinned_bytes.rs`.
//!
//! The larger closures (`3v3` and `4v2` under the shuttle ban, `3v3` with
//! it allowed) take minutes: they run only when `QI_TB_PIN_LARGE` is set
//! (`scripts/tb-pin-large.sh`).

use std::path::Path;

use qi_five_tigers::FiveTigers;
use qi_tablebase::five_tigers as ft;
use qi_tablebase::jungle::{self, JungleSlice};
use qi_tablebase::{retrograde, How};

use crate::common::generate::{in_dir, run_plan};

/// `ms` and what they read made on `cluster` into `dir`: whole tables,
/// or `partitioned`, this process's partitions.
#[cfg(feature = "distributed")]
fn on_cluster<G: qi_tablebase::Generator>(
    rules: &G::Rules,
    ms: &[G::Material],
    cluster: &qi_tablebase::dataflow::Cluster,
    dir: &Path,
    partitioned: bool,
) {
    let plan = qi_tablebase::plan_on_cluster::<G>(dir, rules, ms, cluster, partitioned);
    run_plan::<G, _>(rules, &plan, dir, |_| {}).unwrap();
}

/// A table file: its material, its length and its FNV-1a 64.
type Pin = (&'static str, usize, u64);

use crate::common::fnv;
use fnv::fnv1a;

/// The pins of `tables` (material, bytes), sorted by material.
fn pins_of(tables: impl IntoIterator<Item = (String, Vec<u8>)>) -> Vec<(String, usize, u64)> {
    let mut found: Vec<_> = tables
        .into_iter()
        .map(|(m, b)| (m, b.len(), fnv1a(&b)))
        .collect();
    found.sort();
    found
}

/// The pins of the table files (`*.EXTENSION`) in `dir`.
fn pins_of_dir(dir: &Path, extension: &str) -> Vec<(String, usize, u64)> {
    let suffix = format!(".{extension}");
    pins_of(std::fs::read_dir(dir).unwrap().filter_map(|e| {
        let path = e.unwrap().path();
        let name = path.file_name()?.to_str()?.to_string();
        let material = name.strip_suffix(&suffix)?.to_string();
        Some((material, std::fs::read(&path).unwrap()))
    }))
}

fn check(path: &str, found: &[(String, usize, u64)], pinned: &[Pin]) {
    let found: Vec<(&str, usize, u64)> =
        found.iter().map(|(m, n, h)| (m.as_str(), *n, *h)).collect();
    let shown: Vec<String> = found
        .iter()
        .map(|(m, n, h)| format!("(\"{m}\", {n}, {h:#018x}),"))
        .collect();
    assert_eq!(found, pinned, "{path}, now:\n{}", shown.join("\n"));
}

fn temp_dir() -> tempfile::TempDir {
    tempfile::tempdir().unwrap()
}

mod jungle_standard {
    use super::*;
    use qi_jungle::Rules;

    const NAMES: [&str; 2] = ["LRvE", "CvDE"];

    /// The closure of `LRvE` and `CvDE` under `standard`.
    const PINS: &[Pin] = &[
        ("CvD", 3408, 0xfe9ba202d03b770d),
        ("CvE", 3408, 0x86f843cf535e2d07),
        ("CvED", 157969, 0x1513731f8031c360),
        ("LRvE", 198289, 0x9316d550525e88c4),
        ("LvE", 3408, 0x000b155535c194be),
        ("RvE", 4248, 0xc67b469767ad94b5),
    ];

    fn materials() -> Vec<jungle::Material> {
        NAMES.iter().map(|m| m.parse().unwrap()).collect()
    }

    fn in_memory() -> jungle::Tablebase {
        jungle::Tablebase::generate(&Rules::standard(), &materials(), 2).unwrap()
    }

    fn tables_of(tb: &jungle::Tablebase) -> Vec<(String, Vec<u8>)> {
        tb.tables()
            .map(|t| (t.material().to_string(), t.to_bytes()))
            .collect()
    }

    #[test]
    fn in_memory_and_into_a_directory() {
        check("in memory", &pins_of(tables_of(&in_memory())), PINS);
        let dir = temp_dir();
        in_dir::<qi_jungle::Jungle>(&Rules::standard(), &materials(), dir.path()).unwrap();
        check("directory", &pins_of_dir(dir.path(), "qtb"), PINS);
    }

    #[test]
    fn by_one_thread_rounds() {
        let rules = Rules::standard();
        let tb = in_memory();
        let found = pins_of(tb.tables().map(|t| {
            let m = t.material();
            let slice = JungleSlice::new(m, &rules, tb.clone());
            let values = retrograde::solve(&slice).unwrap();
            (m.to_string(), slice.table(&values).to_bytes())
        }));
        check("rounds", &found, PINS);
    }

    #[cfg(feature = "distributed")]
    #[test]
    fn on_dataflow_workers_whole_and_partitioned() {
        use qi_tablebase::dataflow::Cluster;
        let (rules, ms) = (Rules::standard(), materials());
        let cluster = Cluster::Local { threads: 2 };
        let dir = temp_dir();
        on_cluster::<qi_jungle::Jungle>(&rules, &ms, &cluster, dir.path(), false);
        check("dataflow", &pins_of_dir(dir.path(), "qtb"), PINS);
        let parts = temp_dir();
        on_cluster::<qi_jungle::Jungle>(&rules, &ms, &cluster, parts.path(), true);
        let joined = temp_dir();
        let dirs = [parts.path().to_path_buf()];
        qi_tablebase::join_partitions::<qi_jungle::Jungle>(
            &rules,
            &ms,
            &dirs,
            joined.path(),
            1,
            |_| {},
        )
        .unwrap();
        check(
            "partitioned, joined",
            &pins_of_dir(joined.path(), "qtb"),
            PINS,
        );
    }
}

/// The Five Tigers paths every shuttle option has, on the closure of
/// `names` under `rules`, against `pins`.
/// Their keyed form (version-1 files): `keyed`.
fn five_tigers_everywhere(
    rules: &qi_five_tigers::Rules,
    names: &[&str],
    pins: &[Pin],
    keyed: &[Pin],
) {
    let ms: Vec<ft::Material> = names.iter().map(|m| m.parse().unwrap()).collect();
    let tables_of = |tb: &ft::Tablebase| -> Vec<(String, Vec<u8>)> {
        tb.tables()
            .map(|t| (t.material().to_string(), t.to_bytes()))
            .collect()
    };
    let tb = ft::Tablebase::generate(rules, &ms, 2).unwrap();
    check("in memory", &pins_of(tables_of(&tb)), pins);
    let keyed_tables = tb
        .tables()
        .map(|t| (t.material().to_string(), t.keyed().to_bytes()));
    check("keyed", &pins_of(keyed_tables), keyed);
    let dir = temp_dir();
    in_dir::<FiveTigers>(rules, &ms, dir.path()).unwrap();
    check("into a directory", &pins_of_dir(dir.path(), "qft"), pins);
    let found = pins_of(tb.tables().map(|t| {
        let m = t.material();
        let slice = ft::FiveTigersSlice::new(m, rules, &tb).unwrap();
        let values = retrograde::solve(&slice).unwrap();
        (m.to_string(), slice.table(&values, 2).unwrap().to_bytes())
    }));
    check("rounds", &found, pins);
    five_tigers_bounded(rules, names, pins);
    #[cfg(feature = "distributed")]
    {
        use qi_tablebase::dataflow::Cluster;
        let cluster = Cluster::Local { threads: 2 };
        let dir = temp_dir();
        on_cluster::<FiveTigers>(rules, &ms, &cluster, dir.path(), false);
        check("dataflow", &pins_of_dir(dir.path(), "qft"), pins);
        let parts = temp_dir();
        on_cluster::<FiveTigers>(rules, &ms, &cluster, parts.path(), true);
        let joined = temp_dir();
        let dirs = [parts.path().to_path_buf()];
        qi_tablebase::join_partitions::<FiveTigers>(rules, &ms, &dirs, joined.path(), 2, |_| {})
            .unwrap();
        check(
            "partitioned, joined",
            &pins_of_dir(joined.path(), "qft"),
            pins,
        );
    }
}

/// The bounded generation (in core, one material at a time, the twins
/// made from their tables) of the closure of `names`, against `pins`.
fn five_tigers_bounded(rules: &qi_five_tigers::Rules, names: &[&str], pins: &[Pin]) {
    let ms: Vec<ft::Material> = names.iter().map(|m| m.parse().unwrap()).collect();
    let dir = temp_dir();
    let plan = ft::plan_bounded(rules, &ms, dir.path(), u64::MAX).unwrap();
    let made = run_plan::<FiveTigers, _>(rules, &plan, dir.path(), |m| m.how).unwrap();
    let twins = made.iter().filter(|&&how| how == How::FromTwin).count();
    assert!(twins > 0, "no table made from its twin");
    check("bounded, twins", &pins_of_dir(dir.path(), "qft"), pins);
}

/// The path of the shuttle ban alone, on the closure of `names`: every
/// table solved out of core (default grain), against `pins`.
fn five_tigers_out_of_core(names: &[&str], pins: &[Pin]) {
    let rules = qi_five_tigers::Rules::shandong();
    let ms: Vec<ft::Material> = names.iter().map(|m| m.parse().unwrap()).collect();
    let dir = temp_dir();
    let plan = ft::plan_bounded(&rules, &ms, dir.path(), u64::MAX).unwrap();
    let made = run_plan::<FiveTigers, _>(&rules, &plan.made(How::OutOfCore), dir.path(), |m| m.how);
    assert!(made.unwrap().iter().all(|&how| how == How::OutOfCore));
    check("out of core", &pins_of_dir(dir.path(), "qft"), pins);
}

mod five_tigers_shuttle {
    use super::*;

    /// The closure of `3v2` and `2v3` under `shandong-shuttle`.
    const PINS: &[Pin] = &[
        ("2v3", 217113, 0x32a4674c0ee95092),
        ("3v2", 184372, 0x4accc37b6499cf0e),
    ];

    /// The same as the graph generator writes them (version 1, keyed).
    const KEYED: &[Pin] = &[
        ("2v3", 1236965, 0xc4e97284150915ac),
        ("3v2", 1236965, 0xf9b6bc58aadfbc0f),
    ];

    #[test]
    fn every_path() {
        five_tigers_everywhere(
            &qi_five_tigers::Rules::shandong_shuttle(),
            &["3v2", "2v3"],
            PINS,
            KEYED,
        );
    }
}

mod five_tigers_ban {
    use super::*;

    const NAMES: [&str; 3] = ["3v1", "1v3", "2v2"];

    /// The closure of `3v1`, `1v3` and `2v2` under `shandong`.
    const PINS: &[Pin] = &[
        ("1v3", 577446, 0xbecf1467a026cb6e),
        ("2v2", 1057793, 0xb8722068a1e36dae),
        ("3v1", 577446, 0xd85971f515fa7e85),
    ];

    /// The same as the graph generator writes them (version 1, keyed).
    const KEYED: &[Pin] = &[
        ("1v3", 4198973, 0x7c173cdb1274761f),
        ("2v2", 7678231, 0x372c86e4321e0665),
        ("3v1", 4198973, 0x8c944e4bc8f87b2b),
    ];

    #[test]
    fn every_path() {
        five_tigers_everywhere(&qi_five_tigers::Rules::shandong(), &NAMES, PINS, KEYED);
    }

    #[test]
    fn out_of_core() {
        five_tigers_out_of_core(&NAMES, PINS);
    }
}

/// The larger closures, minutes each: run when `QI_TB_PIN_LARGE` is set
/// (`scripts/tb-pin-large.sh`).
mod large {
    use super::*;

    fn wanted() -> bool {
        let set = std::env::var_os("QI_TB_PIN_LARGE").is_some();
        if !set {
            eprintln!("skipped: set QI_TB_PIN_LARGE to run (scripts/tb-pin-large.sh)");
        }
        set
    }

    /// The closure of `3v3`, `4v2`, `3v2` and `2v3` under `shandong`.
    const BAN: &[Pin] = &[
        ("1v3", 577446, 0xbecf1467a026cb6e),
        ("2v3", 9565833, 0xdc2e57340123adef),
        ("3v1", 577446, 0xd85971f515fa7e85),
        ("3v2", 9565833, 0x9b43d8f6234ac867),
        ("3v3", 82345744, 0x9ec6a558eb9de191),
        ("4v1", 3594300, 0x6a0dead9773f00ab),
        ("4v2", 56447102, 0x59cf438f6a4906a4),
    ];

    /// The closure of `3v3` under `shandong-shuttle`.
    const SHUTTLE: &[Pin] = &[
        ("1v3", 30453, 0x482d416f53de87fd),
        ("3v1", 17630, 0xa04f1ad3854432e4),
        ("3v3", 1228707, 0x1a8da6c90319420f),
    ];

    #[test]
    fn five_tigers_ban_3v3_and_4v2() {
        if wanted() {
            let names = ["3v3", "4v2", "3v2", "2v3"];
            five_tigers_bounded(&qi_five_tigers::Rules::shandong(), &names, BAN);
            five_tigers_out_of_core(&names, BAN);
        }
    }

    #[test]
    fn five_tigers_shuttle_3v3() {
        if wanted() {
            five_tigers_bounded(
                &qi_five_tigers::Rules::shandong_shuttle(),
                &["3v3"],
                SHUTTLE,
            );
        }
    }
}
