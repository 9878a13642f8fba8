//! A directory's generation whose memory is bounded by one material at a
//! time: each missing table is solved with only the tables its
//! conversions read in memory (read from the directory, dropped after),
//! in core when that fits the memory given, else, under `shuttle =
//! forbidden`, out of core ([`solve_out_of_core`]). Tables already in the
//! directory are checked a block at a time, never held; a damaged one is
//! solved again and replaced, one of other rules refused. Every table is
//! written through a temporary file renamed into place, so a killed run
//! resumes from the last finished table.

use std::path::Path;

use qi_five_tigers::{FiveTigers, Rules};

use super::layout::{DENSE_BAN_VERSION, DENSE_VERSION};
use super::retro_disk::{memory_needed, solve_out_of_core};
use super::twin::{twin, write_twin};
use super::{forbids_shuttle, Material, Stats, Tablebase};
use crate::driver::{generate_plan, GenerateError, Generator, Output};
use crate::exec::GenerateDirError;
use crate::format::blocked::peek_version;
use crate::format::{load_table, FormatError};
use crate::plan::{plan, Holding, How, Plan};
use crate::TableGame;

/// One table a bounded generation solved.
#[derive(Debug)]
pub struct Solved {
    /// The material.
    pub material: Material,
    /// How (never [`How::Present`]).
    pub how: How,
    /// Its slots.
    pub slots: u64,
    /// Its statistics.
    pub stats: Stats,
    /// Seconds it took, writing its file included.
    pub seconds: f64,
    /// Why the file it replaced was refused, if it replaced one.
    pub replaced: Option<FormatError>,
}

/// The bytes of the table file of `m` in `dir` (0 if none), what solving
/// a material that reads it holds of it in memory.
fn file_bytes(dir: &Path, m: Material) -> u64 {
    std::fs::metadata(Tablebase::file_path(dir, m)).map_or(0, |meta| meta.len())
}

/// How each material of the closure of `materials` is to be made into
/// `dir` with at most `memory` bytes, in generation order: from its twin
/// where that table is made before it or present in a dense file, else
/// in core where that fits, else out of core under the shuttle ban; the
/// memory of each counts the tables it reads, at the size of their file
/// or estimated at [`TableGame::table_bytes`] (a present file is not
/// checked here). The first material that fits no way is refused.
///
/// ```
/// use qi_games::five_tigers::Rules;
/// use qi_tablebase::five_tigers::{plan_bounded, Material};
/// use qi_tablebase::{GenerateError, How};
///
/// let rules = Rules::shandong();
/// let dir = std::env::temp_dir().join("qi-doc-plan-bounded-empty");
/// let m: Material = "5v5".parse().unwrap();
/// // 2.5 · 10¹⁰ cells: about 56 GB in core, 19 GB out of core.
/// let plan = plan_bounded(&rules, &[m], &dir, 24_000_000_000).unwrap();
/// let last = plan.steps.last().unwrap();
/// assert_eq!((last.material, last.how), (m, How::OutOfCore));
/// let refused = plan_bounded(&rules, &[m], &dir, 10_000_000_000);
/// assert!(matches!(refused, Err(GenerateError::OutOfMemory { .. })));
/// ```
pub fn plan_bounded(
    rules: &Rules,
    materials: &[Material],
    dir: &Path,
    memory: u64,
) -> Result<Plan<Material>, GenerateError> {
    let bytes = |m: Material| match file_bytes(dir, m) {
        0 => <qi_five_tigers::FiveTigers as TableGame>::table_bytes(m, rules),
        n => n,
    };
    // The materials this run solves before the next; with the dense
    // files present (not the keyed ones of version 1), the tables a twin
    // can be read from.
    let mut solved = std::collections::HashSet::new();
    let dense_file = |m: Material| {
        matches!(
            peek_version(&Tablebase::file_path(dir, m)),
            Some(DENSE_VERSION | DENSE_BAN_VERSION)
        )
    };
    let present = |m| Tablebase::file_path(dir, m).exists();
    let how = |m: Material| {
        solved.insert(m);
        let t = twin(m);
        if t != m && (solved.contains(&t) || dense_file(t)) {
            // The twin's table, and the two indexes' board slots.
            let slots = |m: Material| super::dense::DenseIndex::new(m.first, m.second).len();
            let swapped = bytes(t) + 8 * (slots(m) + slots(t));
            if swapped <= memory {
                return Ok((How::FromTwin, swapped));
            }
        }
        let in_core = <qi_five_tigers::FiveTigers as TableGame>::generation_memory(m, rules)
            + m.after_removals(rules).into_iter().map(bytes).sum::<u64>();
        if in_core <= memory {
            return Ok((How::InCore, in_core));
        }
        if forbids_shuttle(rules) {
            let out = memory_needed(m, rules, bytes);
            if out <= memory {
                return Ok((How::OutOfCore, out));
            }
            return Err(too_large(m, out.min(in_core), memory));
        }
        Err(too_large(m, in_core, memory))
    };
    let mut plan = plan::<FiveTigers, _>(rules, materials, present, how)?;
    // Each material reads its tables from the directory.
    plan.resident_table_bytes = 0;
    plan.holding = Holding::FromDir { memory };
    Ok(plan)
}

fn too_large(m: Material, needed: u64, memory: u64) -> GenerateError {
    GenerateError::OutOfMemory {
        material: m.to_string(),
        needed,
        memory,
    }
}

/// Generates `materials` and what they need under `rules` into `dir`
/// (which must exist) as [`plan_bounded`] plans it with `memory` bytes, on
/// `threads` threads, fewest pieces first; `progress` hears what an
/// out-of-core solve does, `done` gets each table solved.
///
/// ```
/// use qi_games::five_tigers::Rules;
/// use qi_tablebase::five_tigers::generate_bounded;
/// use qi_tablebase::How;
///
/// let dir = std::env::temp_dir().join(format!("qi-doc-bounded-{}", std::process::id()));
/// std::fs::create_dir_all(&dir).unwrap();
/// let rules = Rules::shandong();
/// let mut solved = Vec::new();
/// let materials = ["4v2".parse().unwrap()];
/// // 4v2 reads 4v1 (a formation of 4 takes one of 2): both solved, in
/// // core with 200 MB.
/// generate_bounded(&rules, &materials, &dir, 2, 200_000_000, &|_| {}, &mut |s| {
///     solved.push((s.material.to_string(), s.how));
/// })
/// .unwrap();
/// assert_eq!(solved.len(), 2);
/// assert!(solved.iter().all(|(_, how)| *how == How::InCore));
/// std::fs::remove_dir_all(&dir).unwrap();
/// ```
pub fn generate_bounded(
    rules: &Rules,
    materials: &[Material],
    dir: &Path,
    threads: usize,
    memory: u64,
    progress: &(dyn Fn(&str) + Sync),
    done: &mut dyn FnMut(&Solved),
) -> Result<(), GenerateDirError> {
    let plan = plan_bounded(rules, materials, dir, memory)?;
    generate_plan::<FiveTigers>(rules, &plan, dir, threads, progress, &mut |made| {
        let (slots, stats) = match made.output {
            Output::Table(table) => (table.len(), table.stats()),
            Output::File { slots, stats } => (slots, stats),
        };
        done(&Solved {
            material: made.material,
            how: made.how,
            slots,
            stats,
            seconds: made.seconds,
            replaced: made.replaced,
        })
    })?;
    Ok(())
}

/// Five Tigers' plan within the machine's memory: [`plan_bounded`] under
/// the shuttle ban, every material in core otherwise; and its own ways,
/// from its twin and out of core.
impl Generator for FiveTigers {
    fn plan_within(
        rules: &Rules,
        materials: &[Material],
        dir: &Path,
        memory: u64,
    ) -> Result<Plan<Material>, GenerateError> {
        if forbids_shuttle(rules) {
            plan_bounded(rules, materials, dir, memory)
        } else {
            Ok(crate::plan_dir::<FiveTigers>(dir, rules, materials))
        }
    }

    fn make_in_dir(
        rules: &Rules,
        m: Material,
        how: How,
        dir: &Path,
        threads: usize,
        progress: &(dyn Fn(&str) + Sync),
    ) -> Result<(u64, Stats), GenerateDirError> {
        match how {
            How::FromTwin => {
                let source = load_table(&Tablebase::file_path(dir, twin(m)), rules)?;
                write_twin(&source, dir, threads)?;
                drop(source);
                let (_, slots, stats) = super::file_stats(&Tablebase::file_path(dir, m), rules)?;
                Ok((slots, stats))
            }
            How::OutOfCore => {
                let r = solve_out_of_core(m, rules, dir, threads, progress)?;
                Ok((r.cells, r.stats))
            }
            how => Err(GenerateError::Internal(format!(
                "{m}: a Five Tigers table is not made {how} into a directory"
            ))
            .into()),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::{closure, generate_resumable};
    use super::*;

    fn temp_dir(name: &str) -> std::path::PathBuf {
        let dir = std::env::temp_dir().join(format!("qi-bounded-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        dir
    }

    /// A new directory with `ms` and what they need solved.
    fn solved(name: &str, rules: &Rules, ms: &[Material]) -> std::path::PathBuf {
        let dir = temp_dir(name);
        generate_resumable(rules, ms, 2, &dir, &mut |_, _, _| {}).unwrap();
        dir
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
        let mut solved = Vec::new();
        generate_bounded(&rules, &ms, &dir, 2, memory, &|_| {}, &mut |s| {
            solved.push((s.material, s.how))
        })
        .unwrap();
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
        let mut again = Vec::new();
        generate_bounded(&rules, &ms, &dir, 2, memory, &|_| {}, &mut |s| {
            again.push((s.material.to_string(), s.replaced.is_some()))
        })
        .unwrap();
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
            let mut solved = Vec::new();
            generate_bounded(&rules, &ms, &dir, 2, 1 << 30, &|_| {}, &mut |s| {
                solved.push((s.material, s.stats, s.slots))
            })
            .unwrap();
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
}
