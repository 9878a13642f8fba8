//! The cluster generation that gathers no table (`Holding::Partitioned`:
//! each process writes its workers' partitions, each start reads the
//! smaller materials' values from the workers that own them): joined, the
//! partitions give the single-process generators' files byte for byte,
//! for both games and both shuttle options, over threads and over
//! processes joined by TCP; a run resumes from its partition files.
#![cfg(feature = "distributed")]

use std::path::PathBuf;
use std::sync::Arc;
use std::time::{Duration, Instant};

use qi_tablebase::dataflow::{self, Cluster, Held, WorkerStats};
use qi_tablebase::five_tigers::{self, closure, solve_material, FiveTigersSlice};
use qi_tablebase::jungle;
use qi_tablebase::partition::{PartInfo, Partition};
use qi_tablebase::retrograde::ReadingSlice;
use qi_tablebase::{join_partitions, plan_on_cluster, Generator};

use crate::common::generate::run_plan;
use crate::common::loopback;

/// `materials` and what they read solved on `cluster` into `dir` as this
/// process's partitions: each material solved, with its workers' stats.
fn partitioned<G: Generator>(
    rules: &G::Rules,
    materials: &[G::Material],
    cluster: &Cluster,
    dir: &std::path::Path,
) -> Solved<G::Material> {
    let plan = plan_on_cluster::<G>(dir, rules, materials, cluster, true);
    run_plan::<G, _>(rules, &plan, dir, |m| (m.material, m.workers)).unwrap()
}

/// The retrograde generator's Five Tigers tables of `materials` and all
/// they need.
fn ft_reference(
    rules: &qi_five_tigers::Rules,
    materials: &[five_tigers::Material],
) -> five_tigers::Tablebase {
    let mut tb = five_tigers::Tablebase::new(rules);
    for m in closure(materials, rules) {
        let table = solve_material(rules, m, &tb, 2).unwrap();
        assert!(tb.insert(table).is_ok());
    }
    tb
}

/// What each process of a run reports: the materials it solved, with
/// its workers' stats.
type Solved<M> = Vec<(M, Vec<WorkerStats>)>;

/// Runs `run(cluster, dir)` as `processes` processes of `threads` workers
/// over TCP on 127.0.0.1 (each a thread here with its own sockets), each
/// with its own directory of `dirs`; fails rather than hang if the
/// processes wait for each other for 5 minutes.
fn on_cluster<M: Send + 'static>(
    dirs: &[PathBuf],
    threads: usize,
    run: impl Fn(&Cluster, &std::path::Path) -> Solved<M> + Send + Sync + Clone + 'static,
) -> Vec<Solved<M>> {
    let hosts = loopback::loopback_hosts(dirs.len());
    let runs: Vec<_> = dirs
        .iter()
        .enumerate()
        .map(|(process, dir)| {
            let (hosts, dir, run) = (hosts.clone(), dir.clone(), run.clone());
            std::thread::spawn(move || {
                let cluster = Cluster::Processes {
                    threads,
                    process,
                    hosts,
                };
                run(&cluster, &dir)
            })
        })
        .collect();
    let deadline = Instant::now() + Duration::from_secs(300);
    runs.into_iter()
        .map(|r| {
            while !r.is_finished() {
                assert!(
                    Instant::now() < deadline,
                    "the processes still wait for each other after 5 minutes"
                );
                std::thread::sleep(Duration::from_millis(20));
            }
            r.join().unwrap()
        })
        .collect()
}

fn temp_dirs(n: usize) -> (Vec<tempfile::TempDir>, Vec<PathBuf>) {
    let dirs: Vec<tempfile::TempDir> = (0..n).map(|_| tempfile::tempdir().unwrap()).collect();
    let paths = dirs.iter().map(|d| d.path().to_path_buf()).collect();
    (dirs, paths)
}

/// Five Tigers partitioned over `processes` processes of `threads`
/// workers: every table of the closure of `names`, joined, is the
/// generator's file; returns what each process solved.
fn ft_partitioned_equals_the_generator(
    rules: qi_five_tigers::Rules,
    names: &[&str],
    processes: usize,
    threads: usize,
) -> Vec<Solved<five_tigers::Material>> {
    let ms: Vec<five_tigers::Material> = names.iter().map(|m| m.parse().unwrap()).collect();
    let tb = ft_reference(&rules, &ms);
    let (_keep, dirs) = temp_dirs(processes);
    let run_ms = ms.clone();
    let solved = on_cluster(&dirs, threads, move |cluster, dir| {
        partitioned::<qi_five_tigers::FiveTigers>(&rules, &run_ms, cluster, dir)
    });
    // Each process holds only its own workers' partitions.
    for (p, dir) in dirs.iter().enumerate() {
        let names: Vec<String> = std::fs::read_dir(dir)
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .filter(|n| n.contains(".part-"))
            .collect();
        assert!(!names.iter().any(|n| n.ends_with(".qft")), "{names:?}");
        for n in &names {
            let owner: usize = n
                .split(".part-")
                .nth(1)
                .unwrap()
                .split("-of-")
                .next()
                .unwrap()
                .parse()
                .unwrap();
            assert_eq!(owner / threads, p, "{n} in process {p}'s directory");
        }
    }
    let out = tempfile::tempdir().unwrap();
    let written =
        join_partitions::<qi_five_tigers::FiveTigers>(&rules, &ms, &dirs, out.path(), 2, |_| {})
            .unwrap();
    assert_eq!(written, closure(&ms, &rules));
    for m in written {
        let bytes = std::fs::read(five_tigers::Tablebase::file_path(out.path(), m)).unwrap();
        assert!(
            bytes == tb.table(m).unwrap().to_bytes(),
            "{m}: the files differ"
        );
    }
    solved
}

#[test]
fn five_tigers_partitions_over_two_processes_join_into_the_generators_files() {
    let solved = ft_partitioned_equals_the_generator(
        qi_five_tigers::Rules::shandong_shuttle(),
        &["3v3", "4v1", "1v4"],
        2,
        1,
    );
    // 3v3's conversions read 3v1 and 1v3, half of it from the other
    // process.
    let m33 = "3v3".parse().unwrap();
    for process in &solved {
        let (_, stats) = process.iter().find(|(m, _)| *m == m33).unwrap();
        assert!(
            stats.iter().all(|s| s.reads > 0 && s.remote_reads > 0),
            "{stats:?}"
        );
        assert!(stats.iter().all(|s| s.remote_reads < s.reads), "{stats:?}");
    }
}

#[test]
fn five_tigers_partitions_on_three_threads_join_into_the_generators_files() {
    ft_partitioned_equals_the_generator(
        qi_five_tigers::Rules::shandong_shuttle(),
        &["3v2", "2v3"],
        1,
        3,
    );
}

#[test]
fn five_tigers_partitions_under_the_shuttle_ban_join_into_the_generators_files() {
    // No material to 5 pieces reads another under the ban (the smallest
    // that does, 3v3, has 66 M cells): the reads' cells are checked in
    // five_tigers/slice.rs; this is the ban's deal and partition files.
    ft_partitioned_equals_the_generator(qi_five_tigers::Rules::shandong(), &["3v2"], 2, 1);
}

#[test]
fn jungle_partitions_over_two_processes_join_into_the_generators_files() {
    let rules = qi_jungle::Rules::standard();
    let ms: Vec<jungle::Material> = ["LRvE", "CvDE"]
        .iter()
        .map(|m| m.parse().unwrap())
        .collect();
    let direct = jungle::Tablebase::generate(&rules, &ms, 2).unwrap();
    let (_keep, dirs) = temp_dirs(2);
    let run_ms = ms.clone();
    let solved = on_cluster(&dirs, 1, move |cluster, dir| {
        partitioned::<qi_jungle::Jungle>(&rules, &run_ms, cluster, dir)
    });
    assert!(solved
        .iter()
        .all(|p| p.iter().any(|(_, s)| s.iter().any(|w| w.remote_reads > 0))));
    let out = tempfile::tempdir().unwrap();
    let written =
        join_partitions::<qi_jungle::Jungle>(&rules, &ms, &dirs, out.path(), 1, |_| {}).unwrap();
    assert!(written.len() > ms.len());
    for m in written {
        let bytes = std::fs::read(jungle::Tablebase::file_path(out.path(), m)).unwrap();
        assert!(
            bytes == direct.table(m).unwrap().to_bytes(),
            "{m}: the files differ"
        );
    }
}

#[test]
fn a_partitioned_run_resumes_from_its_partition_files() {
    let rules = qi_five_tigers::Rules::shandong_shuttle();
    let ms: Vec<five_tigers::Material> = vec!["3v3".parse().unwrap()];
    let tb = ft_reference(&rules, &ms);
    let (_keep, dirs) = temp_dirs(2);
    let run = move |cluster: &Cluster, dir: &std::path::Path| {
        partitioned::<qi_five_tigers::FiveTigers>(&rules, &ms, cluster, dir)
    };
    let first = on_cluster(&dirs, 1, run.clone());
    let all = closure(&["3v3".parse().unwrap()], &rules);
    assert!(first.iter().all(|p| p.len() == all.len()));
    // Nothing lacking: nothing solved.
    let again = on_cluster(&dirs, 1, run.clone());
    assert!(
        again.iter().all(Vec::is_empty),
        "{:?}",
        again.iter().map(Vec::len).collect::<Vec<_>>()
    );
    // Process 0's 3v3 partition cut short, process 1's partition of the
    // first material removed: both solved again by both processes,
    // nothing else.
    let damaged: five_tigers::Material = "3v3".parse().unwrap();
    let removed = all[0];
    assert!(all.len() > 2 && removed != damaged, "{all:?}");
    let cut = Partition::<qi_five_tigers::FiveTigers>::path(&dirs[0], damaged, 0, 2);
    let bytes = std::fs::read(&cut).unwrap();
    std::fs::write(&cut, &bytes[..bytes.len() / 2]).unwrap();
    std::fs::remove_file(Partition::<qi_five_tigers::FiveTigers>::path(
        &dirs[1], removed, 1, 2,
    ))
    .unwrap();
    let third = on_cluster(&dirs, 1, run);
    for p in &third {
        let names: Vec<String> = p.iter().map(|(m, _)| m.to_string()).collect();
        assert_eq!(names, [removed.to_string(), damaged.to_string()]);
    }
    assert!(std::fs::read(&cut).unwrap() == bytes);
    let out = tempfile::tempdir().unwrap();
    join_partitions::<qi_five_tigers::FiveTigers>(&rules, &[damaged], &dirs, out.path(), 1, |_| {})
        .unwrap();
    let joined = std::fs::read(five_tigers::Tablebase::file_path(out.path(), damaged)).unwrap();
    assert!(joined == tb.table(damaged).unwrap().to_bytes());
}

#[test]
fn a_read_whose_owner_holds_nothing_is_an_error_not_a_value() {
    // 3v3's conversions read 3v1 and 1v3: with none of their partitions
    // held, the run fails, naming a slot read without a value.
    let rules = qi_five_tigers::Rules::shandong_shuttle();
    let slice = Arc::new(FiveTigersSlice::reading("3v3".parse().unwrap(), &rules).unwrap());
    let held = Arc::new(Held::new(slice.sources().len()));
    let e = dataflow::solve_reading(
        slice,
        &Cluster::Local { threads: 2 },
        held,
        dataflow::READ_CHUNK,
    )
    .unwrap_err()
    .to_string();
    assert!(e.contains("has no value"), "{e}");
}

#[test]
fn joining_refuses_a_missing_partition() {
    let rules = qi_five_tigers::Rules::shandong_shuttle();
    let (_keep, dirs) = temp_dirs(1);
    let m: five_tigers::Material = "2v1".parse().unwrap();
    let cluster = Cluster::Local { threads: 3 };
    partitioned::<qi_five_tigers::FiveTigers>(&rules, &[m], &cluster, &dirs[0]);
    std::fs::remove_file(Partition::<qi_five_tigers::FiveTigers>::path(
        &dirs[0], m, 1, 3,
    ))
    .unwrap();
    let out = tempfile::tempdir().unwrap();
    let e =
        join_partitions::<qi_five_tigers::FiveTigers>(&rules, &[m], &dirs, out.path(), 1, |_| {})
            .unwrap_err()
            .to_string();
    assert!(e.contains("partition 1 of 3 of 2v1"), "{e}");
    assert!(!five_tigers::Tablebase::file_path(out.path(), m).exists());
}

#[test]
fn reads_in_small_chunks_give_the_same_table() {
    // Each fetch starts at most `chunk` slots a worker; the workers fetch
    // the same number of times (the largest partition's), so a worker
    // with fewer slots takes part in fetches with nothing to ask.
    use qi_tablebase::retrograde::{Deal, RetroSlice, UNUSED};
    let rules = qi_five_tigers::Rules::shandong_shuttle();
    let m: five_tigers::Material = "3v3".parse().unwrap();
    let tb = ft_reference(&rules, &[m]);
    let slice = Arc::new(FiveTigersSlice::reading(m, &rules).unwrap());
    let peers = 3;
    let dir = tempfile::tempdir().unwrap();
    let mut held = Held::new(slice.sources().len());
    for (i, source) in slice.sources().iter().enumerate() {
        let material = source.name.parse().unwrap();
        let table = tb.table(material).unwrap();
        let deal = Deal::new(peers, source.shift);
        for owner in 0..peers {
            let (codes, distances): (Vec<u8>, Vec<u16>) = (0..deal.count(source.slots, owner))
                .map(|local| match table.at(deal.slot(owner, local as usize)) {
                    Some((v, d)) => (v as u8, d as u16),
                    None => (UNUSED, 0),
                })
                .unzip();
            let info = PartInfo {
                material,
                rules,
                slots: source.slots,
                shift: source.shift,
                owner,
                workers: peers,
            };
            let part = Partition::<qi_five_tigers::FiveTigers> {
                info,
                codes,
                distances,
            };
            let path = part.save(dir.path()).unwrap();
            let head = Partition::<qi_five_tigers::FiveTigers>::check(&path, &rules).unwrap();
            held.insert_file(i, owner, &path, head.data_at, head.count)
                .unwrap();
        }
    }
    let held = Arc::new(held);
    let expected = tb.table(m).unwrap().to_bytes();
    for chunk in [997, dataflow::READ_CHUNK] {
        let share = dataflow::solve_reading(
            slice.clone(),
            &Cluster::Local { threads: peers },
            held.clone(),
            chunk,
        )
        .unwrap();
        let reads: u64 = share.parts.iter().map(|p| p.3.reads).sum();
        assert!(reads > 0);
        let values = share.into_values(slice.slots()).unwrap();
        assert!(
            slice.table(&values, 2).unwrap().to_bytes() == expected,
            "chunks of {chunk}"
        );
    }
}

#[test]
#[ignore = "every material to 4 a side, a minute or two: run by hand with --ignored (docs/solving.md)"]
fn three_processes_partitioned_to_4_a_side_join_into_the_generators_files() {
    let names: Vec<String> = five_tigers::Material::all_up_to(4)
        .iter()
        .map(ToString::to_string)
        .collect();
    let names: Vec<&str> = names.iter().map(String::as_str).collect();
    ft_partitioned_equals_the_generator(qi_five_tigers::Rules::shandong_shuttle(), &names, 3, 1);
}
