//! Writing table files into a directory: each through a temporary file of
//! its own, renamed into place (so a table file present is complete). One
//! writer at a time per directory, and what a killed one left behind, are
//! `dir_lock`'s.

use std::fs::File;
use std::io::{self, Write};
use std::path::Path;

/// The end of every temporary file's name.
pub(crate) const TEMP_SUFFIX: &str = ".tmp";

/// Writes what `fill` writes to `path` through a temporary file beside it,
/// with a name no other writer uses, a megabyte at a time, renamed into
/// place; on any failure (a full disk) the temporary file is removed. A
/// large file need not be put together in memory first.
pub(crate) fn write_atomically_with(
    path: &Path,
    fill: &mut dyn FnMut(&mut dyn Write) -> io::Result<()>,
) -> io::Result<()> {
    // Dropped on error: the temporary file goes with it.
    let mut file = temp_beside(path)?;
    let mut w = io::BufWriter::with_capacity(1 << 20, file.as_file_mut());
    fill(&mut w)?;
    w.into_inner().map_err(io::IntoInnerError::into_error)?;
    persist_durably(file, path)
}

/// Renames the temporary `file` to `path` so that a power loss leaves
/// either no file or the whole file under that name: the data reaches the
/// disk before the rename (else the name could come back pointing at
/// blocks never written), and the directory after it (else the rename
/// itself could be lost), as Syzygy's generators and databases do.
pub(crate) fn persist_durably(file: tempfile::NamedTempFile, path: &Path) -> io::Result<()> {
    file.as_file().sync_all()?;
    file.persist(path).map_err(|e| e.error)?;
    // The directory's entries (the rename) flushed; not where a directory
    // cannot be opened as a file (Windows).
    #[cfg(unix)]
    File::open(dir_of(path))?.sync_all()?;
    Ok(())
}

/// Bytes this process may still write to the file system holding `dir`
/// (`None` where the file system cannot be asked).
///
/// ```
/// let dir = tempfile::tempdir()?;
/// let free = qi_tablebase::free_bytes(dir.path());
/// assert_eq!(free.is_some(), cfg!(unix));
/// # Ok::<(), std::io::Error>(())
/// ```
#[cfg(unix)]
pub fn free_bytes(dir: &Path) -> Option<u64> {
    let stats = rustix::fs::statvfs(dir).ok()?;
    Some(stats.f_bavail.saturating_mul(stats.f_frsize))
}

/// Bytes this process may still write to the file system holding `dir`
/// (`None` where the file system cannot be asked).
#[cfg(not(unix))]
pub fn free_bytes(_: &Path) -> Option<u64> {
    None
}

/// Why [`read_at`] and [`write_at`] fail where there are no positioned
/// reads and writes.
#[cfg(not(unix))]
const NO_OFFSETS: &str = "files are read and written at offsets on Unix";

/// Reads exactly `buf.len()` bytes of `file` at `offset`, without moving
/// its cursor (the threads or workers of a process share the file). On
/// Unix; elsewhere an error.
pub(crate) fn read_at(file: &File, buf: &mut [u8], offset: u64) -> io::Result<()> {
    #[cfg(unix)]
    return std::os::unix::fs::FileExt::read_exact_at(file, buf, offset);
    #[cfg(not(unix))]
    Err(io::Error::new(io::ErrorKind::Unsupported, NO_OFFSETS))
}

/// Writes all of `buf` to `file` at `offset`, as [`read_at`] reads.
pub(crate) fn write_at(file: &File, buf: &[u8], offset: u64) -> io::Result<()> {
    #[cfg(unix)]
    return std::os::unix::fs::FileExt::write_all_at(file, buf, offset);
    #[cfg(not(unix))]
    Err(io::Error::new(io::ErrorKind::Unsupported, NO_OFFSETS))
}

/// The directory `path` is in (`.` for a bare name).
fn dir_of(path: &Path) -> &Path {
    match path.parent() {
        Some(dir) if !dir.as_os_str().is_empty() => dir,
        _ => Path::new("."),
    }
}

/// A temporary file beside `path` (the table file it becomes), with a
/// name no other writer uses and that `dir_lock::remove_stale_temporaries` knows
/// (`.NAME.XXXXXX.tmp`), removed when dropped unless persisted.
pub(crate) fn temp_beside(path: &Path) -> io::Result<tempfile::NamedTempFile> {
    let dir = dir_of(path);
    let name = path
        .file_name()
        .map_or_else(|| "table".to_string(), |n| n.to_string_lossy().into_owned());
    let prefix = format!(".{name}.");
    let mut builder = tempfile::Builder::new();
    builder.prefix(&prefix).suffix(TEMP_SUFFIX);
    // As `std::fs::write` would create it (the umask applies), not the
    // owner-only mode of a temporary file: tables are shared.
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        builder.permissions(std::fs::Permissions::from_mode(0o666));
    }
    builder.tempfile_in(dir)
}

#[cfg(test)]
pub(crate) mod tests;
