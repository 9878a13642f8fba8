//! Unit tests of `dir_lock`.

use super::*;
use crate::format::write::tests::names;

#[test]
fn stale_temporaries_are_removed_under_the_lock() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().to_path_buf();
    for name in [
        ".LvR.qtb.a1B2c3.tmp",
        "LvR.tmp",
        "3v2.tmp",
        ".3v2.qft.x.tmp",
    ] {
        std::fs::write(dir.join(name), b"partial").unwrap();
    }
    for kept in ["LvR.qtb", "notes.tmp", ".hidden.tmp", "RvR.qtb.tmp"] {
        std::fs::write(dir.join(kept), b"").unwrap();
    }
    let lock = WriteLock::try_acquire(&dir).unwrap().expect("free");
    // A second writer must wait.
    assert!(WriteLock::try_acquire(&dir).unwrap().is_none());
    // Each game's own: Jungle's leave Five Tigers' in place.
    let removed = remove_stale_temporaries::<qi_jungle::Jungle>(&dir, &lock).unwrap();
    assert_eq!(removed.len(), 2, "{removed:?}");
    assert!(dir.join("3v2.tmp").exists());
    let removed = remove_stale_temporaries::<qi_five_tigers::FiveTigers>(&dir, &lock).unwrap();
    assert_eq!(removed.len(), 2, "{removed:?}");
    assert_eq!(
        names(&dir),
        [
            ".hidden.tmp",
            LOCK_FILE,
            "LvR.qtb",
            "RvR.qtb.tmp",
            "notes.tmp"
        ]
    );
    drop(lock);
    assert!(WriteLock::try_acquire(&dir).unwrap().is_some());
}
