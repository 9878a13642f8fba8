//! `generate_plan` into a directory: the same files as generation in
//! memory, resumption from the files present, a damaged file replaced and
//! a foreign one refused, the directory claimed.

use qi_jungle::Jungle;
use qi_jungle::Rules;
use qi_tablebase::jungle::{Material, Tablebase};
use qi_tablebase::{plan_dir, FileError, FormatError, GenerateDirError};

use crate::common::generate::in_dir;

/// The count of materials `in_dir` made.
fn made_in<G: qi_tablebase::Generator>(
    rules: &G::Rules,
    materials: &[G::Material],
    dir: &std::path::Path,
) -> Result<usize, GenerateDirError> {
    in_dir::<G>(rules, materials, dir).map(|made| made.len())
}

fn materials() -> Vec<Material> {
    ["ERvL", "LCvE", "RvCD"]
        .iter()
        .map(|t| t.parse().unwrap())
        .collect()
}

#[test]
fn files_equal_those_of_generation_in_memory_and_a_run_resumes() {
    let rules = Rules::yeshou();
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().to_path_buf();
    let wanted = materials();
    let all = <Jungle as qi_tablebase::TableGame>::closure(&wanted, &rules);
    let plan = plan_dir::<Jungle>(&dir, &rules, &wanted);
    assert_eq!(plan.all(), all);
    assert_eq!(plan.todo(), all);
    // The 2-animal tables are kept while the 3-animal ones are solved; the
    // 3-animal ones are dropped once written (nothing needs them).
    let two: u64 = all
        .iter()
        .filter(|m| m.total() == 2)
        .map(|m| m.index_count() * 5 / 4)
        .sum();
    assert_eq!(plan.resident_table_bytes, two);

    // The materials of a level are made side by side: in any order.
    let mut solved: Vec<String> = in_dir::<Jungle>(&rules, &wanted, &dir)
        .unwrap()
        .into_iter()
        .map(|m| m.0)
        .collect();
    let mut names: Vec<String> = all.iter().map(|m| m.to_string()).collect();
    solved.sort();
    names.sort();
    assert_eq!(solved, names);
    let memory = Tablebase::generate(&rules, &wanted, 2).unwrap();
    let bytes_of = |m: Material| std::fs::read(Tablebase::file_path(&dir, m)).unwrap();
    for &m in &all {
        assert_eq!(bytes_of(m), memory.table(m).unwrap().to_bytes(), "{m}");
    }

    // Remove one table of each size: exactly those are solved again, and
    // come out the same.
    let gone: Vec<Material> = ["LvE", "LCvE"].iter().map(|t| t.parse().unwrap()).collect();
    for &m in &gone {
        std::fs::remove_file(Tablebase::file_path(&dir, m)).unwrap();
    }
    assert_eq!(plan_dir::<Jungle>(&dir, &rules, &wanted).todo(), gone);
    assert_eq!(made_in::<Jungle>(&rules, &wanted, &dir).unwrap(), 2);
    for &m in &all {
        assert_eq!(bytes_of(m), memory.table(m).unwrap().to_bytes(), "{m}");
    }
    assert_eq!(made_in::<Jungle>(&rules, &wanted, &dir).unwrap(), 0);
}

#[test]
fn a_damaged_file_is_replaced_and_a_foreign_one_stops_the_run() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().to_path_buf();
    let wanted = materials();
    in_dir::<Jungle>(&Rules::standard(), &wanted, &dir).unwrap();
    // A 2-animal file (read because the 3-animal tables need it) and a
    // 3-animal one (only checked) are both refused when damaged, made
    // again and replaced by the same bytes.
    for text in ["CvE", "RvCD"] {
        let m: Material = text.parse().unwrap();
        let path = Tablebase::file_path(&dir, m);
        let good = std::fs::read(&path).unwrap();
        let mut bad = good.clone();
        let last = bad.len() - 1;
        bad[last] ^= 1;
        std::fs::write(&path, &bad).unwrap();
        assert!(matches!(
            qi_tablebase::load_table::<Jungle>(&path, &Rules::standard()),
            Err(FormatError::File {
                source: FileError::Checksum { .. },
                ..
            })
        ));
        let made = in_dir::<Jungle>(&Rules::standard(), &wanted, &dir).unwrap();
        assert_eq!(made, [(m.to_string(), true)]);
        assert!(std::fs::read(&path).unwrap() == good, "{text}");
    }
    // Tables of other board rules are not the run's to replace.
    let err = in_dir::<Jungle>(&Rules::datou(), &wanted, &dir).unwrap_err();
    assert!(
        matches!(
            err,
            GenerateDirError::Format(FormatError::RulesMismatch { .. })
        ),
        "{err}"
    );
}

#[test]
fn a_directory_that_cannot_be_made_is_an_error() {
    // A missing directory is made; one under a file cannot be.
    let tmp = tempfile::tempdir().unwrap();
    let parent = tmp.path().to_path_buf();
    let dir = parent.join("not-there");
    in_dir::<Jungle>(&Rules::standard(), &materials()[..1], &dir).unwrap();
    let file = parent.join("a-file");
    std::fs::write(&file, b"").unwrap();
    let err = in_dir::<Jungle>(&Rules::standard(), &materials(), &file.join("dir")).unwrap_err();
    assert!(matches!(err, GenerateDirError::Lock { .. }), "{err}");
}

/// Every way of filling a directory claims it: a second run while one
/// holds it is refused with a typed error (not left to wait, nor to write
/// beside it), whichever way each generates.
#[test]
fn a_second_run_on_a_held_directory_is_refused() {
    use crate::common::generate::run_plan;
    use qi_five_tigers::FiveTigers;
    use qi_tablebase::five_tigers as ft;

    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().to_path_buf();
    let rules = Rules::standard();
    let first: Material = "LvC".parse().unwrap();
    // A second run started while the first writes (from its `done`).
    let second = std::sync::Mutex::new(None);
    let plan = plan_dir::<Jungle>(&dir, &rules, &[first]);
    run_plan::<Jungle, _>(&rules, &plan, &dir, |_| {
        let again = in_dir::<Jungle>(&rules, &["RvC".parse().unwrap()], &dir);
        *second.lock().unwrap() = Some(again);
    })
    .unwrap();
    let second = second
        .into_inner()
        .unwrap()
        .expect("the first run wrote a table");
    assert!(
        matches!(second, Err(GenerateDirError::Locked { .. })),
        "{second:?}"
    );
    assert!(!Tablebase::file_path(&dir, "RvC".parse().unwrap()).exists());
    // Each way of Five Tigers too, while another writer holds the lock.
    let lock = qi_tablebase::WriteLock::try_acquire(&dir).unwrap().unwrap();
    let ft_rules = qi_five_tigers::Rules::shandong();
    let ms = ["2v1".parse::<ft::Material>().unwrap()];
    let bounded = ft::plan_bounded(&ft_rules, &ms, &dir, 1 << 30).unwrap();
    let bounded = run_plan::<FiveTigers, _>(&ft_rules, &bounded, &dir, |_| {});
    assert!(
        matches!(bounded, Err(GenerateDirError::Locked { .. })),
        "{bounded:?}"
    );
    let held = in_dir::<FiveTigers>(&ft_rules, &ms, &dir);
    assert!(matches!(held, Err(GenerateDirError::Locked { .. })));
    #[cfg(feature = "distributed")]
    for partitioned in [false, true] {
        let cluster = qi_tablebase::dataflow::Cluster::Local { threads: 1 };
        let plan = qi_tablebase::plan_on_cluster::<FiveTigers>(
            &dir,
            &ft_rules,
            &ms,
            &cluster,
            partitioned,
        );
        let run = run_plan::<FiveTigers, _>(&ft_rules, &plan, &dir, |_| {});
        assert!(matches!(run, Err(GenerateDirError::Locked { .. })));
    }
    drop(lock);
    assert_eq!(made_in::<FiveTigers>(&ft_rules, &ms, &dir).unwrap(), 1);
}

/// A run killed mid-write leaves its temporary file and no table: the
/// next run removes the temporary file and makes that table (and only
/// what is missing) again, the same bytes.
#[test]
fn a_killed_run_resumes_and_its_temporary_file_is_removed() {
    let rules = Rules::standard();
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().to_path_buf();
    let wanted = materials();
    in_dir::<Jungle>(&rules, &wanted, &dir).unwrap();
    let killed: Material = "LCvE".parse().unwrap();
    let path = Tablebase::file_path(&dir, killed);
    let whole = std::fs::read(&path).unwrap();
    std::fs::remove_file(&path).unwrap();
    let stale = dir.join(".LCvE.qtb.x1Y2z3.tmp");
    std::fs::write(&stale, &whole[..whole.len() / 2]).unwrap();
    let solved = in_dir::<Jungle>(&rules, &wanted, &dir).unwrap();
    assert_eq!(solved, [(killed.to_string(), false)]);
    assert!(!stale.exists());
    assert!(std::fs::read(&path).unwrap() == whole);
}

/// A Five Tigers three-diagonal takes two pieces at once: `3v3` reads
/// `3v1`, two levels below it, while `3v2` (asked for too) makes a level
/// between them. The plan reads that from the game, and the generation
/// keeps `3v1` in memory until `3v3` is solved (a cut by levels kept only
/// `3v2` and stopped: `3v3` needs `3v1`).
#[test]
fn five_tigers_3v3_reads_3v1_two_levels_below() {
    use qi_five_tigers::FiveTigers;
    use qi_tablebase::five_tigers as ft;

    let rules = qi_five_tigers::Rules::shandong_shuttle();
    let m = |t: &str| t.parse::<ft::Material>().unwrap();
    let wanted = [m("3v3"), m("3v2")];
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().to_path_buf();
    let plan = plan_dir::<FiveTigers>(&dir, &rules, &wanted);
    assert_eq!(plan.all(), [m("3v1"), m("1v3"), m("3v2"), m("3v3")]);
    let step = plan.steps.iter().find(|s| s.material == m("3v3")).unwrap();
    let mut reads = step.reads.clone();
    reads.sort();
    assert_eq!(reads, [m("1v3"), m("3v1")]);
    assert!(plan
        .steps
        .iter()
        .all(|s| s.how == qi_tablebase::How::InCore));
    let bytes = |t: &str| <FiveTigers as qi_tablebase::TableGame>::table_bytes(m(t), &rules);
    // While `3v2` is solved, and then `3v3`, both 4-piece tables are held.
    assert_eq!(plan.resident_table_bytes, bytes("3v1") + bytes("1v3"));

    assert_eq!(made_in::<FiveTigers>(&rules, &wanted, &dir).unwrap(), 4);
    // The same bytes as the tables made in memory, `3v3` among them.
    let memory = ft::Tablebase::generate(&rules, &wanted, 2).unwrap();
    for material in plan.all() {
        let file = std::fs::read(ft::Tablebase::file_path(&dir, material)).unwrap();
        assert_eq!(
            file,
            memory.table(material).unwrap().to_bytes(),
            "{material}"
        );
    }
}
