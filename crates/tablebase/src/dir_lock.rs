//! One writer at a time per table directory ([`WriteLock`], the
//! operating system's lock on [`LOCK_FILE`]), which lets a new writer
//! remove what a killed one left behind ([`remove_stale_temporaries`]):
//! the temporary files of `write`, named after the game's tables.
//! The executor of every generation into a directory claims it this way
//! first ([`claim`]).

use std::fs::File;
use std::io;
use std::path::{Path, PathBuf};

use crate::format::write::TEMP_SUFFIX;
use crate::game::TableGame;

/// The file a writer of a table directory holds locked.
pub const LOCK_FILE: &str = ".qi-tb.lock";

/// An exclusive hold on a table directory for writing ([`LOCK_FILE`] in it,
/// locked by the operating system), released when dropped or when the
/// process ends however it ends. The lock file itself stays.
///
/// ```
/// use qi_games::jungle::Jungle;
/// use qi_tablebase::{remove_stale_temporaries, WriteLock};
///
/// let dir = tempfile::tempdir()?;
/// let lock = WriteLock::acquire(dir.path())?;
/// assert!(WriteLock::try_acquire(dir.path())?.is_none()); // held
/// // A writer killed mid-write left its temporary file.
/// std::fs::write(dir.path().join(".LvC.qtb.a1B2c3.tmp"), b"half")?;
/// let removed = remove_stale_temporaries::<Jungle>(dir.path(), &lock)?;
/// assert_eq!(removed, [dir.path().join(".LvC.qtb.a1B2c3.tmp")]);
/// drop(lock);
/// assert!(WriteLock::try_acquire(dir.path())?.is_some());
/// # Ok::<(), std::io::Error>(())
/// ```
#[derive(Debug)]
pub struct WriteLock {
    _file: File,
}

impl WriteLock {
    /// The lock of `dir` if no other writer holds it now (`None` if one
    /// does).
    pub fn try_acquire(dir: &Path) -> io::Result<Option<WriteLock>> {
        let file = lock_file(dir)?;
        match file.try_lock() {
            Ok(()) => Ok(Some(WriteLock { _file: file })),
            Err(std::fs::TryLockError::WouldBlock) => Ok(None),
            Err(std::fs::TryLockError::Error(e)) => Err(e),
        }
    }

    /// The lock of `dir`, waiting for another writer to release it.
    pub fn acquire(dir: &Path) -> io::Result<WriteLock> {
        let file = lock_file(dir)?;
        file.lock()?;
        Ok(WriteLock { _file: file })
    }
}

/// What a writer finds when it claims a directory ([`claim`]).
#[derive(Debug)]
pub(crate) enum Claim {
    /// The directory is the writer's: locked (until this is dropped), a
    /// killed run's temporary files removed.
    Held {
        /// The lock, held.
        _lock: WriteLock,
    },
    /// Another writer holds its lock.
    Taken,
    /// Its lock file cannot be opened (a read-only directory): the writer
    /// may read it, not write it.
    Unlockable(io::Error),
}

/// Claims `dir` (created if missing) for writing `G`'s tables: its lock
/// taken without waiting, then the temporary files a killed writer left
/// removed.
pub(crate) fn claim<G: TableGame>(dir: &Path) -> io::Result<Claim> {
    std::fs::create_dir_all(dir)?;
    match WriteLock::try_acquire(dir) {
        Ok(Some(lock)) => {
            remove_stale_temporaries::<G>(dir, &lock)?;
            Ok(Claim::Held { _lock: lock })
        }
        Ok(None) => Ok(Claim::Taken),
        Err(e) => Ok(Claim::Unlockable(e)),
    }
}

fn lock_file(dir: &Path) -> io::Result<File> {
    std::fs::OpenOptions::new()
        .create(true)
        .truncate(false)
        .write(true)
        .open(dir.join(LOCK_FILE))
}

/// Removes the temporary files that writers of `G`'s tables into `dir`
/// killed mid-write left behind (`.LvR.qtb.XXXXXX.tmp`, and `LvR.tmp` of
/// earlier versions); the paths removed. Only for a writer holding the directory's
/// [`WriteLock`]: another writer's file in progress looks the same.
pub fn remove_stale_temporaries<G: TableGame>(
    dir: &Path,
    _lock: &WriteLock,
) -> io::Result<Vec<PathBuf>> {
    let mut removed = Vec::new();
    for entry in std::fs::read_dir(dir)? {
        let path = entry?.path();
        let Some(name) = path.file_name().and_then(|n| n.to_str()) else {
            continue;
        };
        if is_temporary::<G>(name) && path.is_file() {
            std::fs::remove_file(&path)?;
            removed.push(path);
        }
    }
    removed.sort();
    Ok(removed)
}

/// Whether `name` is the temporary file of a writer of `G`'s tables.
fn is_temporary<G: TableGame>(name: &str) -> bool {
    let Some(stem) = name.strip_suffix(TEMP_SUFFIX) else {
        return false;
    };
    let table = |s: &str| s.ends_with(&format!(".{}", G::EXTENSION));
    match stem.strip_prefix('.') {
        // `.LvR.qtb.XXXXXX`: the table's file name, then tempfile's letters.
        Some(rest) => rest.rsplit_once('.').is_some_and(|(file, _)| table(file)),
        // `LvR`: the name `path.with_extension("tmp")` gave before.
        None => stem.parse::<G::Material>().is_ok(),
    }
}

#[cfg(test)]
mod tests;
