//! Reading the files a user names (a network, a record, an opening suite)
//! so that no name can hang the reader or fill its memory: a file that
//! must be a regular one is checked before it is opened (opening a FIFO
//! for reading waits for a writer without end), its size before it is
//! read, and text is read up to a bound (`/dev/zero` never ends).

use std::fs::File;
use std::io::{self, Read};
use std::path::Path;

/// The most bytes [`read_text`] reads of a record or openings file:
/// 256 MiB, five times the largest record file measured (a 50 MB file of
/// 10 000 games replays in under a second).
pub const TEXT_LIMIT: u64 = 256 << 20;

/// Opens `path` if it is a regular file (not a FIFO, a device, a socket
/// or a directory), and its length; the type is checked before the file
/// is opened and again on the file opened.
///
/// ```
/// let dir = std::env::temp_dir();
/// assert!(qi_engine::files::open_regular(&dir).is_err());
/// ```
pub fn open_regular(path: &Path) -> io::Result<(File, u64)> {
    let not_regular = || {
        io::Error::new(
            io::ErrorKind::InvalidInput,
            "not a regular file (a FIFO, a device or a directory)",
        )
    };
    if !std::fs::metadata(path)?.is_file() {
        return Err(not_regular());
    }
    let file = File::open(path)?;
    let meta = file.metadata()?;
    if !meta.is_file() {
        return Err(not_regular());
    }
    Ok((file, meta.len()))
}

/// The text of `path`, read up to `limit` bytes: more is refused (a
/// device that never ends, a file that is no record), as is text that is
/// not UTF-8. A FIFO is read (a shell's `<(...)`), up to the bound.
///
/// ```
/// use qi_games::engine::files::read_text;
///
/// let path = std::env::temp_dir().join(format!("qi-read-text-{}.txt", std::process::id()));
/// std::fs::write(&path, "[Game \"jungle\"]\n\n*\n")?;
/// assert!(read_text(&path, 1 << 20)?.starts_with("[Game"));
/// let refused = read_text(&path, 4).unwrap_err();
/// assert_eq!(refused.kind(), std::io::ErrorKind::InvalidData);
/// std::fs::remove_file(&path)?;
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn read_text(path: &Path, limit: u64) -> io::Result<String> {
    let mut bytes = Vec::new();
    File::open(path)?
        .take(limit.saturating_add(1))
        .read_to_end(&mut bytes)?;
    if bytes.len() as u64 > limit {
        return Err(io::Error::new(
            io::ErrorKind::InvalidData,
            format!("larger than {} MiB: not a text file qi reads", limit >> 20),
        ));
    }
    String::from_utf8(bytes).map_err(|e| io::Error::new(io::ErrorKind::InvalidData, e))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[cfg(unix)]
    #[test]
    fn a_device_without_end_is_read_up_to_the_bound() {
        let err = read_text(Path::new("/dev/zero"), 1 << 20).unwrap_err();
        assert_eq!(err.kind(), io::ErrorKind::InvalidData);
        assert!(err.to_string().contains("larger than 1 MiB"), "{err}");
    }

    #[test]
    fn text_within_the_bound_is_read_whole() {
        let file = tempfile_path("within");
        std::fs::write(&file, "[Game \"jungle\"]\n").unwrap();
        assert_eq!(read_text(&file, 16).unwrap(), "[Game \"jungle\"]\n");
        assert!(read_text(&file, 15).is_err());
        std::fs::remove_file(&file).unwrap();
    }

    #[cfg(unix)]
    #[test]
    fn only_a_regular_file_is_opened() {
        let file = tempfile_path("regular");
        std::fs::write(&file, [1, 2, 3]).unwrap();
        assert_eq!(open_regular(&file).unwrap().1, 3);
        std::fs::remove_file(&file).unwrap();
        for other in ["/dev/zero", "/dev/null"] {
            let err = open_regular(Path::new(other)).unwrap_err();
            assert_eq!(err.kind(), io::ErrorKind::InvalidInput, "{other}");
        }
    }

    fn tempfile_path(name: &str) -> std::path::PathBuf {
        std::env::temp_dir().join(format!("qi-files-{name}-{}", std::process::id()))
    }
}
