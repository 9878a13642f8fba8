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

use crate::common;

use common::ports::loopback_hosts;
use common::QI;

fn temp_dir(name: &str) -> PathBuf {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join(format!("tb-cluster-{name}"));
    let _ = std::fs::remove_dir_all(&dir);
    dir
}

/// A hosts file of `n` processes on free ports of 127.0.0.1, each line
/// with a comment after its address; the file and the addresses.
fn hosts_file(tag: &str, n: usize) -> (PathBuf, Vec<String>) {
    let dir = temp_dir(&format!("{tag}-hosts"));
    std::fs::create_dir_all(&dir).unwrap();
    let addresses = loopback_hosts(n);
    let text: String = addresses
        .iter()
        .enumerate()
        .map(|(i, a)| format!("{a}  # process {i}\n"))
        .collect();
    let file = dir.join("hosts.txt");
    std::fs::write(&file, text).unwrap();
    (file, addresses)
}

/// Asserts that `said`'s last line is the one of a lost peer, for `why`.
fn assert_lost(said: &str, why: &str) {
    let last = said.trim().lines().last().unwrap_or_default();
    assert!(
        last.starts_with("qi: error: the cluster lost a process (") && last.contains(why),
        "{said}"
    );
}

/// A cluster of two processes for the case `tag` (partitioned or not):
/// its hosts file, their addresses and their directories.
fn two_processes(tag: &str, partitioned: bool) -> (PathBuf, Vec<String>, [PathBuf; 2]) {
    let tag = if partitioned {
        format!("{tag}-parts")
    } else {
        tag.to_string()
    };
    let (hosts, addresses) = hosts_file(&tag, 2);
    let dirs = [temp_dir(&format!("{tag}-0")), temp_dir(&format!("{tag}-1"))];
    (hosts, addresses, dirs)
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
fn finish(child: &mut Child, limit: Duration) -> (i32, String) {
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
        for (i, mut child) in children.into_iter().enumerate() {
            let (code, err) = finish(&mut child, Duration::from_secs(60));
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
        let (code, err) = finish(
            &mut spawn(&hosts, process, &args, &dir),
            Duration::from_secs(30),
        );
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
    let (code, err) = finish(&mut spawn(&hosts, 1, &args, &dir), Duration::from_secs(30));
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
    let (code, err) = finish(&mut spawn(&hosts, 1, &args, &dir), Duration::from_secs(30));
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
        let (hosts, _, dirs) = two_processes("killed", partitioned);
        let mut args = vec!["--pieces", "3", "--workers", "2", "--connect-timeout", "5"];
        if partitioned {
            args.push("--partitioned");
        }
        let mut survivor = Running(spawn(&hosts, 0, &args, &dirs[0]));
        let mut victim = Running(spawn(&hosts, 1, &args, &dirs[1]));
        // Once the survivor has finished a few tables, the peer dies.
        let (code, said) = after_tables(
            &mut survivor,
            3,
            || {
                victim.0.kill().unwrap();
                victim.0.wait().unwrap();
            },
            Duration::from_secs(60),
        );
        let text = said.join("\n");
        // Exit code 2 and one line, not an abort (SIGABRT, 134).
        assert_eq!(code, 2, "{text}");
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

/// A process of a test's cluster, killed when dropped (stopped ones too:
/// SIGKILL ends a stopped process), so that a failing test leaves none.
struct Running(Child);

impl Drop for Running {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

/// Reads `survivor`'s stderr until it has finished `tables` tables (or
/// partitions), then does `act`, then waits at most `limit` for it to
/// end: its exit code (-1 for a signal) and every line it said.
fn after_tables(
    survivor: &mut Running,
    tables: usize,
    act: impl FnOnce(),
    limit: Duration,
) -> (i32, Vec<String>) {
    let mut lines = BufReader::new(survivor.0.stderr.take().unwrap()).lines();
    let mut said = Vec::new();
    let mut done = 0;
    for line in lines.by_ref() {
        let line = line.unwrap();
        if line.contains(" rounds") {
            done += 1;
        }
        said.push(line);
        if done == tables {
            break;
        }
    }
    assert_eq!(done, tables, "{said:?}");
    act();
    let reader = std::thread::spawn(move || lines.map_while(Result::ok).collect::<Vec<_>>());
    let deadline = Instant::now() + limit;
    let status = loop {
        if let Some(status) = survivor.0.try_wait().unwrap() {
            break status;
        }
        assert!(
            Instant::now() < deadline,
            "the survivor did not end within {limit:?}: {said:?}"
        );
        std::thread::sleep(Duration::from_millis(50));
    };
    said.extend(reader.join().unwrap());
    (status.code().unwrap_or(-1), said)
}

#[cfg(unix)]
#[test]
fn a_stopped_peer_ends_the_survivor_after_the_peer_timeout() {
    use nix::sys::signal::{kill, Signal};
    use nix::unistd::Pid;

    // Process 1 stopped, process 0 survives; then the other way round
    // (process 0 is the one every other process watches).
    for (partitioned, victim) in [(false, 1), (true, 0)] {
        let (hosts, addresses, dirs) = two_processes("stopped", partitioned);
        // A stop between two materials would also end the run, after the
        // --connect-timeout: the survivor must end long before that.
        let mut args = vec!["--pieces", "3", "--workers", "2"];
        args.extend(["--connect-timeout", "120", "--peer-timeout", "3"]);
        if partitioned {
            args.push("--partitioned");
        }
        let survivor_index = 1 - victim;
        let mut running: Vec<Running> = (0..2)
            .map(|i| Running(spawn(&hosts, i, &args, &dirs[i])))
            .collect();
        let victim_pid = Pid::from_raw(running[victim].0.id() as i32);
        let (code, said) = after_tables(
            &mut running[survivor_index],
            3,
            || kill(victim_pid, Signal::SIGSTOP).unwrap(),
            Duration::from_secs(60),
        );
        let text = said.join("\n");
        assert_eq!(code, 2, "{text}");
        let why = format!(
            "process {victim} at {} has not answered for 3 s of --peer-timeout",
            addresses[victim]
        );
        assert_lost(&text, &why);
        assert!(!tables(&dirs[survivor_index], "qtb").is_empty(), "{text}");
        // The stopped one goes on where it stopped, finds its peer gone
        // and ends with the same kind of line.
        kill(victim_pid, Signal::SIGCONT).unwrap();
        let mut victim = running.remove(victim);
        let (code, err) = finish(&mut victim.0, Duration::from_secs(60));
        assert_eq!(code, 2, "{err}");
        assert!(err.contains("the cluster lost a process"), "{err}");
    }
}

#[test]
fn a_peer_gone_before_timely_connects_ends_the_survivor_at_once() {
    // The peer leaves right after the meeting before the first dataflow,
    // while timely connects: timely would wait for it (or try to connect
    // to it) without end. The long timeouts show that the loss is seen
    // at once, by the closed connection.
    let args = [
        "--pieces",
        "2",
        "--workers",
        "1",
        "--connect-timeout",
        "120",
        "--peer-timeout",
        "120",
    ];
    for leaver in [1, 0] {
        let (hosts, addresses, dirs) = two_processes(&format!("leaver-{leaver}"), false);
        let mut running: Vec<Running> = (0..2)
            .map(|i| {
                let mut command = Command::new(QI);
                command
                    .args(["tb", "generate"])
                    .args(args)
                    .args(["--process", &i.to_string(), "--hosts"])
                    .arg(&hosts)
                    .arg(&dirs[i])
                    .stdout(Stdio::null())
                    .stderr(Stdio::piped());
                if i == leaver {
                    command.env("QI_TEST_CLUSTER_LEAVE_AFTER_BARRIER", "1");
                }
                Running(command.spawn().expect("qi runs"))
            })
            .collect();
        let mut survivor = running.remove(1 - leaver);
        let mut leaving = running.remove(0);
        let (code, err) = finish(&mut leaving.0, Duration::from_secs(60));
        assert_eq!(code, 3, "{err}");
        let (code, err) = finish(&mut survivor.0, Duration::from_secs(60));
        assert_eq!(code, 2, "{err}");
        assert_lost(
            &err,
            &format!(
                "process {leaver} at {} left (its connection",
                addresses[leaver]
            ),
        );
    }
}
