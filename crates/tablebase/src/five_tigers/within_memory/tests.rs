use super::super::closure;
use super::*;
use crate::driver::Output;
use crate::generate::generate_plan;

fn temp_dir(name: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("qi-bounded-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// A new directory with `ms` and what they need solved.
fn solved(name: &str, rules: &Rules, ms: &[Material]) -> std::path::PathBuf {
    let dir = temp_dir(name);
    Tablebase::generate(rules, ms, 2)
        .unwrap()
        .save_dir(&dir)
        .unwrap();
    dir
}

/// `ms` generated into `dir` as [`plan_bounded`] plans it within
/// `memory`: each material made, how, its slots and statistics, and
/// whether it replaced a damaged file.
fn bounded(
    rules: &Rules,
    ms: &[Material],
    dir: &Path,
    memory: u64,
) -> Vec<(Material, How, u64, Stats, bool)> {
    let plan = plan_bounded(rules, ms, dir, memory).unwrap();
    let mut made = Vec::new();
    generate_plan::<FiveTigers>(rules, &plan, dir, 2, &|_| {}, &mut |m| {
        let (slots, stats) = match m.output {
            Output::Table(table) => (table.len(), table.stats()),
            Output::File { slots, stats } => (slots, stats),
            Output::Partitions => panic!("{}: partitions in one process", m.material),
        };
        made.push((m.material, m.how, slots, stats, m.replaced.is_some()))
    })
    .unwrap();
    made
}

fn names(plan: &Plan<Material>) -> Vec<String> {
    plan.steps
        .iter()
        .map(|s| format!("{} {}", s.material, s.how))
        .collect()
}

/// With little memory the larger materials go out of core (and the
/// files are the in-core ones); with too little, the plan says which
/// material does not fit; a damaged file is solved again.
#[test]
fn memory_decides_in_core_or_out_of_core_and_the_files_agree() {
    let rules = Rules::shandong();
    let ms: Vec<Material> = ["3v2", "1v4"].iter().map(|m| m.parse().unwrap()).collect();
    let reference = solved("reference", &rules, &ms);
    let dir = temp_dir("bounded");
    // Under shandong neither needs another table (no formation of 3
    // pieces or fewer removes one of 2 or 4). 3v2 needs about 17 MB in
    // core and 6 MB out of core, 1v4 6 MB in core: 12 MB sends 3v2 out
    // of core and 1v4 in.
    let memory = 12_000_000;
    let plan = plan_bounded(&rules, &ms, &dir, memory).unwrap();
    assert!(
        names(&plan).contains(&"3v2 out of core".to_string()),
        "{plan:?}"
    );
    assert!(
        names(&plan).contains(&"1v4 in core".to_string()),
        "{plan:?}"
    );
    let solved = bounded(&rules, &ms, &dir, memory);
    assert_eq!(solved.len(), plan.steps.len());
    for m in plan.all() {
        let a = std::fs::read(Tablebase::file_path(&reference, m)).unwrap();
        let b = std::fs::read(Tablebase::file_path(&dir, m)).unwrap();
        assert!(a == b, "{m}");
    }
    // Everything present now; a file cut short is solved again.
    let plan = plan_bounded(&rules, &ms, &dir, memory).unwrap();
    assert!(plan.steps.iter().all(|s| s.how == How::Present));
    let cut = Tablebase::file_path(&dir, "1v4".parse().unwrap());
    let bytes = std::fs::read(&cut).unwrap();
    std::fs::write(&cut, &bytes[..bytes.len() / 2]).unwrap();
    let again: Vec<_> = bounded(&rules, &ms, &dir, memory)
        .into_iter()
        .map(|s| (s.0.to_string(), s.4))
        .collect();
    assert_eq!(again, [("1v4".to_string(), true)]);
    assert!(std::fs::read(&cut).unwrap() == bytes);
    // 5 MB: 3v2 fits neither way.
    let small = plan_bounded(&rules, &ms, &temp_dir("small"), 5_000_000);
    assert!(
        matches!(&small, Err(GenerateError::OutOfMemory { material, .. }) if material == "3v2"),
        "{small:?}"
    );
    std::fs::remove_dir_all(&dir).unwrap();
    std::fs::remove_dir_all(&reference).unwrap();
}

/// A material whose twin (the colours swapped) is solved before it is
/// written from the twin, with the bytes the generators give it, under
/// both shuttle rules; without room for the twin's table it is solved.
#[test]
fn twins_are_written_from_each_other_with_the_solved_bytes() {
    for rules in [Rules::shandong(), Rules::shandong_shuttle(), Rules::ten()] {
        let ms: Vec<Material> = ["3v2", "2v3", "4v1", "1v4", "3v1", "1v3", "2v1", "1v2"]
            .iter()
            .map(|m| m.parse().unwrap())
            .collect();
        let reference = solved("twin-reference", &rules, &ms);
        let dir = temp_dir("twin");
        let plan = names(&plan_bounded(&rules, &ms, &dir, 1 << 30).unwrap());
        for m in ["2v3", "1v4", "1v2", "1v3"] {
            assert!(
                plan.contains(&format!("{m} from its twin")),
                "{rules}: {plan:?}"
            );
        }
        for m in ["3v2", "4v1", "3v1", "2v1"] {
            assert!(plan.contains(&format!("{m} in core")), "{rules}: {plan:?}");
        }
        let solved: Vec<_> = bounded(&rules, &ms, &dir, 1 << 30)
            .into_iter()
            .map(|s| (s.0, s.3, s.2))
            .collect();
        assert_eq!(solved.len(), plan.len());
        for (m, stats, slots) in &solved {
            let path = Tablebase::file_path(&reference, *m);
            let a = std::fs::read(&path).unwrap();
            let b = std::fs::read(Tablebase::file_path(&dir, *m)).unwrap();
            assert!(a == b, "{rules}: {m}");
            let (_, n, expected) = super::super::file_stats(&path, &rules).unwrap();
            assert_eq!((stats, *slots), (&expected, n), "{rules}: {m}");
            // Made in memory (a cluster's processes), on threads
            // whose parts end anywhere: the same bytes.
            let source = super::super::twin::twin(*m);
            let twin: super::super::Table =
                load_table(&Tablebase::file_path(&reference, source), &rules).unwrap();
            for threads in [1, 3] {
                let made = super::super::twin::twin_table(&twin, threads).unwrap();
                assert!(
                    made.to_bytes() == a,
                    "{rules}: {m} in memory, {threads} threads"
                );
            }
        }
        // Too little memory for 3v2's table beside the indexes: 2v3 is
        // not swapped (solved out of core under the ban, refused with
        // the shuttle allowed).
        let small = temp_dir("twin-small");
        let keep = Tablebase::file_path(&reference, "3v2".parse().unwrap());
        std::fs::copy(&keep, Tablebase::file_path(&small, "3v2".parse().unwrap())).unwrap();
        let need = std::fs::metadata(&keep).unwrap().len();
        match plan_bounded(&rules, &ms[1..2], &small, need) {
            Ok(plan) => assert!(
                !names(&plan).iter().any(|p| p == "2v3 from its twin"),
                "{rules}: {plan:?}"
            ),
            // With the shuttle allowed nothing is solved out of core.
            Err(GenerateError::OutOfMemory { material, .. }) => assert_eq!(material, "2v3"),
            Err(e) => panic!("{rules}: {e}"),
        }
        for d in [dir, reference, small] {
            std::fs::remove_dir_all(d).unwrap();
        }
    }
}

/// A twin's table whose cells disagree with its index (a stored cell
/// without a value) is refused as an internal error while its twin is
/// written, and the file is abandoned: neither it nor its temporary stays.
#[test]
fn a_broken_twin_is_refused_and_leaves_no_file() {
    let rules = Rules::shandong();
    let m: Material = "3v1".parse().unwrap();
    let reference = solved("twin-broken-source", &rules, &[m]);
    let mut source: super::super::Table =
        load_table(&Tablebase::file_path(&reference, m), &rules).unwrap();
    let stored = (0..source.len)
        .find(|&i| crate::value::code_at(&source.values, i as usize) != crate::value::UNUSED)
        .unwrap();
    crate::value::set_code(&mut source.values, stored as usize, crate::value::UNUSED);
    let dir = temp_dir("twin-broken");
    match write_twin(&source, &dir, 2) {
        Err(GenerateDirError::Generate(GenerateError::Internal(why))) => {
            assert!(why.contains("holds no state"), "{why}")
        }
        other => panic!("{other:?}"),
    }
    assert_eq!(std::fs::read_dir(&dir).unwrap().count(), 0);
    for d in [dir, reference] {
        std::fs::remove_dir_all(d).unwrap();
    }
}

/// A keyed file (version 1) has no twin by index: the material beside
/// it is solved, not swapped.
#[test]
fn a_keyed_twin_is_not_swapped() {
    let rules = Rules::shandong();
    let ms: Vec<Material> = vec!["3v1".parse().unwrap()];
    let dir = temp_dir("keyed-twin");
    let tb = Tablebase::generate(&rules, &ms, 2).unwrap();
    for m in closure(&ms, &rules) {
        let keyed = tb.table(m).unwrap().keyed();
        crate::format::save_table(&dir, &keyed).unwrap();
    }
    let plan = names(&plan_bounded(&rules, &["1v3".parse().unwrap()], &dir, 1 << 30).unwrap());
    assert_eq!(plan, ["1v3 in core"], "{plan:?}");
    std::fs::remove_dir_all(dir).unwrap();
}
