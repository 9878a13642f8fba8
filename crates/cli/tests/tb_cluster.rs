//! `qi tb generate --hosts`: processes of a cluster on 127.0.0.1 that
//! disagree, never come, are something else, or die in the middle of the
//! run. Every case ends by itself within seconds (`--connect-timeout`),
//! with exit code 2 and one line that says why; no table is written by a
//! cluster that does not agree, and the tables finished before a peer
//! died stay whole.

use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpListener;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

mod common;

use common::QI;

fn temp_dir(name: &str) -> PathBuf {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join(format!("tb-cluster-{name}"));
    let _ = std::fs::remove_dir_all(&dir);
    dir
}

fn free_port() -> u16 {
    TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port()
}

/// A hosts file of `n` processes on free ports of 127.0.0.1, each line
/// with a comment after its address; the file and the addresses.
fn hosts_file(tag: &str, n: usize) -> (PathBuf, Vec<String>) {
    let dir = temp_dir(&format!("{tag}-hosts"));
    std::fs::create_dir_all(&dir).unwrap();
    let addresses: Vec<String> = (0..n)
        .map(|_| format!("127.0.0.1:{}", free_port()))
        .collect();
    let text: String = addresses
        .iter()
        .enumerate()
        .map(|(i, a)| format!("{a}  # process {i}\n"))
        .collect();
    let file = dir.join("hosts.txt");
    std::fs::write(&file, text).unwrap();
    (file, addresses)
}

/// Process `process` of the cluster of `hosts` with `args`, into `dir`.
fn spawn(hosts: &Path, process: usize, args: &[&str], dir: &Path) -> Child {
    Command::new(QI)
        .args(["tb", "generate"])
        .args(args)
        .args(["--process", &process.to_string(), "--hosts"])
        .arg(hosts)
        .arg(dir)
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .expect("qi runs")
}

/// Waits at most `limit` for `child` (killing it then, and failing):
/// its exit code and stderr.
fn finish(mut child: Child, limit: Duration) -> (i32, String) {
    let deadline = Instant::now() + limit;
    loop {
        if let Some(status) = child.try_wait().unwrap() {
            let mut err = String::new();
            child
                .stderr
                .take()
                .unwrap()
                .read_to_string(&mut err)
                .unwrap();
            // A signal (an abort) has no code: -1.
            return (status.code().unwrap_or(-1), err);
        }
        if Instant::now() >= deadline {
            let _ = child.kill();
            let _ = child.wait();
            panic!("the process did not end within {limit:?}");
        }
        std::thread::sleep(Duration::from_millis(50));
    }
}

/// The table files (`ext`) in `dir`.
fn tables(dir: &Path, ext: &str) -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(dir)
        .map(|d| {
            d.map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
                .filter(|n| !n.starts_with('.'))
                .filter(|n| n.ends_with(&format!(".{ext}")) || n.contains(".part-"))
                .collect()
        })
        .unwrap_or_default();
    names.sort();
    names
}

#[test]
fn processes_that_disagree_are_refused_before_any_work() {
    let common = ["--connect-timeout", "30", "--pieces", "2"];
    let one_worker = ["--workers", "1"];
    for (tag, zero, one, setting) in [
        (
            "rules",
            vec!["--game", "jungle:standard"],
            vec!["--game", "jungle:yeshou"],
            "rules",
        ),
        (
            "workers",
            vec!["--game", "jungle:standard", "--workers", "2"],
            vec!["--game", "jungle:standard", "--workers", "1"],
            "workers per process",
        ),
        (
            "mode",
            vec!["--game", "jungle:standard", "--partitioned"],
            vec!["--game", "jungle:standard"],
            "mode",
        ),
        (
            "shuttle",
            vec!["--game", "five-tigers:shandong", "--material", "2v1"],
            vec![
                "--game",
                "five-tigers:shandong-shuttle",
                "--material",
                "2v1",
            ],
            "rules",
        ),
    ] {
        let (hosts, _) = hosts_file(tag, 2);
        let dirs = [temp_dir(&format!("{tag}-0")), temp_dir(&format!("{tag}-1"))];
        let children: Vec<Child> = [zero, one]
            .iter()
            .enumerate()
            .map(|(i, own)| {
                let workers: &[&str] = if own.contains(&"--workers") {
                    &[]
                } else {
                    &one_worker
                };
                let args = [&common[..], workers, &own[..]].concat();
                spawn(&hosts, i, &args, &dirs[i])
            })
            .collect();
        for (i, child) in children.into_iter().enumerate() {
            let (code, err) = finish(child, Duration::from_secs(60));
            assert_eq!(code, 2, "{tag}, process {i}: {err}");
            let last = err.trim().lines().last().unwrap_or_default();
            assert!(
                last.starts_with("qi: error: ") && last.contains(&format!("another {setting}:")),
                "{tag}, process {i}: {err}"
            );
            assert!(tables(&dirs[i], "qtb").is_empty(), "{tag}: {err}");
            assert!(tables(&dirs[i], "qft").is_empty(), "{tag}: {err}");
        }
    }
}

#[test]
fn a_peer_that_never_comes_is_given_up_after_the_connect_timeout() {
    let args = ["--pieces", "2", "--workers", "1", "--connect-timeout", "2"];
    let (hosts, addresses) = hosts_file("absent", 2);
    for (process, missing) in [(0, 1), (1, 0)] {
        let dir = temp_dir(&format!("absent-{process}"));
        let start = Instant::now();
        let (code, err) = finish(spawn(&hosts, process, &args, &dir), Duration::from_secs(30));
        assert_eq!(code, 2, "{err}");
        assert!(start.elapsed() < Duration::from_secs(20), "{err}");
        assert!(
            err.contains(&format!("process {missing} at {}", addresses[missing]))
                && err.contains("did not come within the 2 s of --connect-timeout"),
            "{err}"
        );
        // The wait was told while it lasted.
        assert!(err.contains("waiting for process"), "{err}");
        assert!(tables(&dir, "qtb").is_empty(), "{err}");
    }
}

#[test]
fn something_else_on_a_peer_s_address_is_no_peer() {
    let args = ["--pieces", "2", "--workers", "1", "--connect-timeout", "2"];
    let (hosts, addresses) = hosts_file("foreign", 2);
    // A listener that takes connections and says nothing (a stopped
    // process's port, a service that waits for its client to speak).
    let silent = TcpListener::bind(&addresses[0]).unwrap();
    let dir = temp_dir("foreign-1");
    let (code, err) = finish(spawn(&hosts, 1, &args, &dir), Duration::from_secs(30));
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("gave no answer"), "{err}");
    drop(silent);
    // One that answers something else (a web server).
    let talker = TcpListener::bind(&addresses[0]).unwrap();
    let answering = std::thread::spawn(move || {
        if let Ok((mut stream, _)) = talker.accept() {
            let _ = stream.write_all(b"HTTP/1.0 400 Bad Request\r\n\r\n");
            // Read until the caller leaves, so that closing sends no reset
            // ahead of the answer.
            let _ = stream.set_read_timeout(Some(Duration::from_secs(20)));
            let _ = stream.read_to_end(&mut Vec::new());
        }
    });
    let (code, err) = finish(spawn(&hosts, 1, &args, &dir), Duration::from_secs(30));
    answering.join().unwrap();
    assert_eq!(code, 2, "{err}");
    assert!(
        err.contains("answered 'HTTP/1.0 400 Bad Request', not as a qi tb generate"),
        "{err}"
    );
    assert!(tables(&dir, "qtb").is_empty(), "{err}");
}

#[test]
fn a_killed_peer_ends_the_survivor_with_a_clear_error() {
    for partitioned in [false, true] {
        let tag = if partitioned {
            "killed-parts"
        } else {
            "killed"
        };
        let (hosts, _) = hosts_file(tag, 2);
        let dirs = [temp_dir(&format!("{tag}-0")), temp_dir(&format!("{tag}-1"))];
        let mut args = vec!["--pieces", "3", "--workers", "2", "--connect-timeout", "5"];
        if partitioned {
            args.push("--partitioned");
        }
        let mut survivor = spawn(&hosts, 0, &args, &dirs[0]);
        let mut victim = spawn(&hosts, 1, &args, &dirs[1]);
        // Once the survivor has finished a few tables, the peer dies.
        let mut lines = BufReader::new(survivor.stderr.take().unwrap()).lines();
        let mut said = Vec::new();
        let mut done = 0;
        for line in lines.by_ref() {
            let line = line.unwrap();
            if line.contains(" rounds") {
                done += 1;
            }
            said.push(line);
            if done == 3 {
                break;
            }
        }
        assert_eq!(done, 3, "{said:?}");
        victim.kill().unwrap();
        victim.wait().unwrap();
        let reader = std::thread::spawn(move || lines.map_while(Result::ok).collect::<Vec<_>>());
        let deadline = Instant::now() + Duration::from_secs(60);
        let status = loop {
            if let Some(status) = survivor.try_wait().unwrap() {
                break status;
            }
            if Instant::now() >= deadline {
                let _ = survivor.kill();
                panic!("the survivor did not end: {said:?}");
            }
            std::thread::sleep(Duration::from_millis(50));
        };
        said.extend(reader.join().unwrap());
        let text = said.join("\n");
        // Exit code 2 and one line, not an abort (SIGABRT, 134).
        assert_eq!(status.code(), Some(2), "{text}");
        let last = said.last().unwrap();
        assert!(
            last.starts_with("qi: error: ")
                && (last.contains("the cluster lost a process")
                    || last.contains("did not come within")),
            "{text}"
        );
        // What was finished stays whole: every table or partition the
        // survivor wrote before is read back, and a rerun alone refuses
        // nothing it finds.
        let kept = tables(&dirs[0], "qtb");
        assert!(!kept.is_empty(), "{text}");
        if !partitioned {
            let out = Command::new(QI)
                .args(["tb", "stats"])
                .arg(&dirs[0])
                .output()
                .unwrap();
            assert!(
                out.status.success(),
                "{}",
                String::from_utf8_lossy(&out.stderr)
            );
        }
    }
}
