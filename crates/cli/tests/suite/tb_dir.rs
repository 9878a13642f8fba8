//! `qi tb generate` and its directory: one that cannot be locked (read
//! only) but holds every table has nothing to do; one on a disk too full
//! for the new files is refused before any work.

use std::path::PathBuf;
use std::process::Command;

use crate::common;

use common::QI;

fn temp_dir(name: &str) -> PathBuf {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join(format!("tb-dir-{name}"));
    let _ = std::fs::remove_dir_all(&dir);
    dir
}

fn generate(dir: &PathBuf, extra: &[&str], env: &[(&str, &str)]) -> (i32, String) {
    let out = Command::new(QI)
        .args(["tb", "generate", "--threads", "2"])
        .args(extra)
        .arg(dir)
        .envs(env.iter().copied())
        .output()
        .expect("qi runs");
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

fn table_files(dir: &PathBuf, ext: &str) -> usize {
    std::fs::read_dir(dir)
        .map(|d| {
            d.filter(|e| e.as_ref().unwrap().path().extension() == Some(ext.as_ref()))
                .count()
        })
        .unwrap_or(0)
}

#[test]
fn a_directory_that_cannot_be_locked_but_holds_every_table_has_nothing_to_do() {
    for (game, ext) in [
        (&["--pieces", "2"][..], "qtb"),
        (
            &[
                "--game",
                "five-tigers:shandong-shuttle",
                "--material",
                "2v1",
            ][..],
            "qft",
        ),
    ] {
        let dir = temp_dir(ext);
        let (code, err) = generate(&dir, game, &[]);
        assert_eq!(code, 0, "{err}");
        let count = table_files(&dir, ext);
        // The lock file cannot be opened for writing (a directory in its
        // place: what a read-only directory does, even for root).
        let lock = dir.join(".qi-tb.lock");
        std::fs::remove_file(&lock).unwrap();
        std::fs::create_dir(&lock).unwrap();
        let (code, err) = generate(&dir, game, &[]);
        assert_eq!(code, 0, "{err}");
        assert!(
            err.contains(&format!("all {count} tables are in")) && err.contains("nothing to do"),
            "{err}"
        );
        // With a table missing there is work, and the lock is needed.
        let first = std::fs::read_dir(&dir)
            .unwrap()
            .map(|e| e.unwrap().path())
            .find(|p| p.extension() == Some(ext.as_ref()))
            .unwrap();
        std::fs::remove_file(first).unwrap();
        let (code, err) = generate(&dir, game, &[]);
        assert_eq!(code, 2, "{err}");
        assert!(err.contains("cannot lock"), "{err}");
    }
}

#[test]
fn a_jungle_generation_that_does_not_fit_the_disk_is_refused_up_front() {
    let dir = temp_dir("full-disk");
    let (code, err) = generate(&dir, &["--pieces", "2"], &[("QI_TB_DISK", "1000")]);
    assert_eq!(code, 2, "{err}");
    assert!(
        err.contains("of disk for their files") && err.contains("0.0 MB are free"),
        "{err}"
    );
    // The plan, then the refusal, the last line.
    let last = err.trim().lines().last().unwrap_or_default();
    assert!(last.contains("of disk for their files"), "{err}");
    assert_eq!(table_files(&dir, "qtb"), 0);
    let (code, err) = generate(&dir, &["--pieces", "2"], &[("QI_TB_DISK", "not-a-number")]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("bad QI_TB_DISK"), "{err}");
}
