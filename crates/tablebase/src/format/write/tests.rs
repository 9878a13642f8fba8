//! Unit tests of `format::write`.

use super::*;

/// Writes `bytes` to `path` as a table file is written.
fn write_atomically(path: &Path, bytes: &[u8]) -> io::Result<()> {
    write_atomically_with(path, &mut |w| w.write_all(bytes))
}

/// The names of the files in `dir`, sorted.
pub(crate) fn names(dir: &Path) -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    names
}

#[test]
fn each_write_has_a_temporary_name_of_its_own() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().to_path_buf();
    // The name every writer used before, taken (another writer's file
    // in progress, or anything else): no matter.
    std::fs::create_dir(dir.join("LvR.tmp")).unwrap();
    let path = dir.join("LvR.qtb");
    write_atomically(&path, b"table").unwrap();
    assert_eq!(std::fs::read(&path).unwrap(), b"table");
    assert_eq!(names(&dir), ["LvR.qtb", "LvR.tmp"]);
}

#[test]
fn a_failed_write_leaves_nothing_behind() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().to_path_buf();
    // The rename fails: a non-empty directory holds the table's name.
    let path = dir.join("LvR.qtb");
    std::fs::create_dir(&path).unwrap();
    std::fs::write(path.join("x"), b"").unwrap();
    assert!(write_atomically(&path, b"table").is_err());
    assert_eq!(names(&dir), ["LvR.qtb"]);
}
