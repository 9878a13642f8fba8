//! `generate_dir`: the same files as generation in memory, resumption from
//! the files present, refusal of a corrupt one.

use std::sync::atomic::{AtomicUsize, Ordering};

use qi_jungle::Jungle;
use qi_jungle::Rules;
use qi_tablebase::jungle::{Material, Tablebase};
use qi_tablebase::{generate_dir, plan_dir, FileError, FormatError, GenerateDirError};

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

    let calls = AtomicUsize::new(0);
    let solved = generate_dir::<Jungle>(&rules, &wanted, 2, &dir, &|_| {
        calls.fetch_add(1, Ordering::Relaxed);
    })
    .unwrap();
    assert_eq!(solved, all.len());
    assert_eq!(calls.load(Ordering::Relaxed), all.len());
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
    assert_eq!(
        generate_dir::<Jungle>(&rules, &wanted, 1, &dir, &|_| {}).unwrap(),
        2
    );
    for &m in &all {
        assert_eq!(bytes_of(m), memory.table(m).unwrap().to_bytes(), "{m}");
    }
    assert_eq!(
        generate_dir::<Jungle>(&rules, &wanted, 2, &dir, &|_| {}).unwrap(),
        0
    );
}

#[test]
fn a_corrupt_or_foreign_file_present_stops_the_run_with_its_error() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().to_path_buf();
    let wanted = materials();
    generate_dir::<Jungle>(&Rules::standard(), &wanted, 2, &dir, &|_| {}).unwrap();
    // A 2-animal file (read because the 3-animal tables need it) and a
    // 3-animal one (only checked) are both refused when damaged.
    for text in ["CvE", "RvCD"] {
        let path = Tablebase::file_path(&dir, text.parse().unwrap());
        let good = std::fs::read(&path).unwrap();
        let mut bad = good.clone();
        let last = bad.len() - 1;
        bad[last] ^= 1;
        std::fs::write(&path, &bad).unwrap();
        let err =
            generate_dir::<Jungle>(&Rules::standard(), &wanted, 2, &dir, &|_| {}).unwrap_err();
        assert!(
            matches!(
                err,
                GenerateDirError::Format(FormatError::File {
                    source: FileError::Checksum { .. },
                    ..
                })
            ),
            "{text}: {err}"
        );
        std::fs::write(&path, &good).unwrap();
    }
    // Tables of other board rules.
    let err = generate_dir::<Jungle>(&Rules::datou(), &wanted, 2, &dir, &|_| {}).unwrap_err();
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
    generate_dir::<Jungle>(&Rules::standard(), &materials()[..1], 2, &dir, &|_| {}).unwrap();
    let file = parent.join("a-file");
    std::fs::write(&file, b"").unwrap();
    let err = generate_dir::<Jungle>(
        &Rules::standard(),
        &materials(),
        2,
        &file.join("dir"),
        &|_| {},
    )
    .unwrap_err();
    assert!(matches!(err, GenerateDirError::Lock { .. }), "{err}");
}

/// Every way of filling a directory claims it: a second run while one
/// holds it is refused with a typed error (not left to wait, nor to write
/// beside it), whichever way each generates.
#[test]
fn a_second_run_on_a_held_directory_is_refused() {
    use qi_tablebase::five_tigers as ft;

    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().to_path_buf();
    let rules = Rules::standard();
    let first: Material = "LvC".parse().unwrap();
    // A second run started while the first writes (from its `done`).
    let second = std::sync::Mutex::new(None);
    generate_dir::<Jungle>(&rules, &[first], 1, &dir, &|_| {
        let again = generate_dir::<Jungle>(&rules, &["RvC".parse().unwrap()], 1, &dir, &|_| {});
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
    let bounded = ft::generate_bounded(&ft_rules, &ms, &dir, 1, 1 << 30, &|_| {}, &mut |_| {});
    assert!(
        matches!(bounded, Err(GenerateDirError::Locked { .. })),
        "{bounded:?}"
    );
    let resumed = ft::generate_resumable(&ft_rules, &ms, 1, &dir, &mut |_, _, _| {});
    assert!(matches!(resumed, Err(GenerateDirError::Locked { .. })));
    let in_dir = generate_dir::<qi_five_tigers::FiveTigers>(&ft_rules, &ms, 1, &dir, &|_| {});
    assert!(matches!(in_dir, Err(GenerateDirError::Locked { .. })));
    drop(lock);
    assert_eq!(
        generate_dir::<qi_five_tigers::FiveTigers>(&ft_rules, &ms, 1, &dir, &|_| {}).unwrap(),
        1
    );
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
    generate_dir::<Jungle>(&rules, &wanted, 2, &dir, &|_| {}).unwrap();
    let killed: Material = "LCvE".parse().unwrap();
    let path = Tablebase::file_path(&dir, killed);
    let whole = std::fs::read(&path).unwrap();
    std::fs::remove_file(&path).unwrap();
    let stale = dir.join(".LCvE.qtb.x1Y2z3.tmp");
    std::fs::write(&stale, &whole[..whole.len() / 2]).unwrap();
    let solved = std::sync::Mutex::new(Vec::new());
    generate_dir::<Jungle>(&rules, &wanted, 2, &dir, &|t| {
        solved.lock().unwrap().push(t.material())
    })
    .unwrap();
    assert_eq!(solved.into_inner().unwrap(), [killed]);
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

    let solved = generate_dir::<FiveTigers>(&rules, &wanted, 2, &dir, &|_| {}).unwrap();
    assert_eq!(solved, 4);
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
