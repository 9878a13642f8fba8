//! The bytes every qi table file shares, whatever the game: the header
//! (magic, version, game name, rules text, material text, count, distance
//! width, checksum), the 2-bit values, the distance table, and the checked
//! read of a file. `format` puts a table's parts in and out of them.

use std::fs::File;
use std::io::Read;
use std::path::Path;

pub use crate::error::FileError;
use crate::value::{code_at, Distances, UNUSED};

/// The first bytes of every table file.
///
/// ```
/// use qi_games::jungle::{Jungle, Rules};
/// use qi_tablebase::{Tablebase, MAGIC};
///
/// let tb = Tablebase::<Jungle>::generate(&Rules::standard(), &["LvC".parse()?], 1)?;
/// let table = tb.table("LvC".parse()?).unwrap();
/// assert!(table.to_bytes().starts_with(&MAGIC));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub const MAGIC: [u8; 8] = *b"QITB\r\n\x1a\n";

/// FNV-1a (64 bits) start state.
pub(crate) const FNV_OFFSET: u64 = 0xcbf2_9ce4_8422_2325;

/// FNV-1a, 64 bits, continued from `hash` over `bytes`. Every single-byte
/// change changes the result: each step is a bijection of the state.
pub(crate) fn fnv1a(mut hash: u64, bytes: &[u8]) -> u64 {
    for &b in bytes {
        hash ^= u64::from(b);
        hash = hash.wrapping_mul(0x0000_0100_0000_01b3);
    }
    hash
}

/// The checksum of a file's `bytes` whose own 8 bytes are at `at`: of
/// every other byte.
pub(crate) fn sum_around(bytes: &[u8], at: usize) -> u64 {
    fnv1a(fnv1a(FNV_OFFSET, &bytes[..at]), &bytes[at + 8..])
}

/// The header fields of a file, as written.
pub(crate) struct Header<'a> {
    pub(crate) game: &'a str,
    pub(crate) version: u16,
    pub(crate) rules: &'a str,
    pub(crate) material: &'a str,
    pub(crate) count: u64,
    pub(crate) width: u8,
}

impl<'a> Header<'a> {
    /// Writes the fields every table file's header starts with, keyed or
    /// blocked: the prefix ([`write_prefix`]), the count and the distance
    /// width.
    pub(crate) fn write(&self, out: &mut Vec<u8>) {
        write_prefix(
            out,
            &MAGIC,
            self.version,
            self.game,
            self.rules,
            self.material,
        );
        out.extend_from_slice(&self.count.to_le_bytes());
        out.push(self.width);
    }

    /// The fields [`Header::write`] writes, read from `r` (at a file's
    /// start), refusing another game, another version or a distance width
    /// that is not 1 or 2.
    pub(crate) fn read(r: &mut Reader<'a>, game: &'a str, version: u16) -> Result<Self, FileError> {
        let (rules, material) = read_prefix(r, &MAGIC, game, version)?;
        let count = u64::from_le_bytes(r.array()?);
        let width = r.take(1)?[0];
        if width != 1 && width != 2 {
            return Err(FileError::BadWidth(width));
        }
        Ok(Header {
            game,
            version,
            rules,
            material,
            count,
            width,
        })
    }
}

/// The version field of a file whose first bytes are `bytes`, if it
/// starts with the magic bytes (what decides which reader takes it).
pub(crate) fn version_in(bytes: &[u8]) -> Option<u16> {
    let v = bytes.get(8..10).filter(|_| bytes.starts_with(&MAGIC))?;
    Some(u16::from_le_bytes([v[0], v[1]]))
}

/// The fields every qi file starts with (tables keyed or blocked,
/// partitions): `magic`, the version, the game name, the rules text and
/// the material text, each text after its length.
pub(crate) fn write_prefix(
    out: &mut Vec<u8>,
    magic: &[u8; 8],
    version: u16,
    game: &str,
    rules: &str,
    material: &str,
) {
    out.extend_from_slice(magic);
    out.extend_from_slice(&version.to_le_bytes());
    out.push(game.len() as u8);
    out.extend_from_slice(game.as_bytes());
    out.extend_from_slice(&(rules.len() as u16).to_le_bytes());
    out.extend_from_slice(rules.as_bytes());
    out.push(material.len() as u8);
    out.extend_from_slice(material.as_bytes());
}

/// The rules and material texts of a file's prefix ([`write_prefix`])
/// read from `r` (at the file's start), refusing another magic, another
/// game or another version. The version and the game name sit at the same
/// place in every qi file, so a file of the other game is named as such
/// whatever its version.
pub(crate) fn read_prefix<'a>(
    r: &mut Reader<'a>,
    magic: &[u8; 8],
    game: &str,
    version: u16,
) -> Result<(&'a str, &'a str), FileError> {
    if r.take(8)? != magic {
        return Err(FileError::BadMagic);
    }
    let found_version = u16::from_le_bytes(r.array()?);
    let n = usize::from(r.take(1)?[0]);
    let found_game = r.text(n, "game name")?;
    if found_game != game {
        return Err(FileError::WrongGame(found_game.to_string()));
    }
    if found_version != version {
        return Err(FileError::UnsupportedVersion(found_version));
    }
    let n = usize::from(u16::from_le_bytes(r.array()?));
    let rules = r.text(n, "rules text")?;
    let n = usize::from(r.take(1)?[0]);
    let material = r.text(n, "material")?;
    Ok((rules, material))
}

/// The file bytes of `header` followed by `payload` (written in order),
/// with the checksum of everything else filled in.
pub(crate) fn write(header: &Header<'_>, payload: &[&[u8]]) -> Vec<u8> {
    let size: usize = payload.iter().map(|p| p.len()).sum();
    let mut out = Vec::with_capacity(64 + size);
    header.write(&mut out);
    let checksum_at = out.len();
    out.extend_from_slice(&[0; 8]);
    for part in payload {
        out.extend_from_slice(part);
    }
    let sum = sum_around(&out, checksum_at);
    out[checksum_at..checksum_at + 8].copy_from_slice(&sum.to_le_bytes());
    out
}

/// Reads the header of `bytes`, refusing another game, another version, a
/// distance width that is not 1 or 2 or a checksum that does not match,
/// and returns it with a reader at the start of the payload.
pub(crate) fn read<'a>(
    bytes: &'a [u8],
    game: &'a str,
    version: u16,
) -> Result<(Header<'a>, Reader<'a>), FileError> {
    let mut r = Reader::new(bytes);
    let header = Header::read(&mut r, game, version)?;
    let checksum_at = r.at;
    let checksum = u64::from_le_bytes(r.array()?);
    let found = sum_around(bytes, checksum_at);
    if found != checksum {
        return Err(FileError::Checksum {
            expected: checksum,
            found,
        });
    }
    Ok((header, r))
}

/// A cursor over the file bytes that never reads past the end.
pub(crate) struct Reader<'a> {
    bytes: &'a [u8],
    at: usize,
}

impl<'a> Reader<'a> {
    /// A cursor at the start of `bytes`.
    pub(crate) fn new(bytes: &'a [u8]) -> Reader<'a> {
        Reader { bytes, at: 0 }
    }

    /// How many bytes were read.
    pub(crate) fn position(&self) -> usize {
        self.at
    }

    /// The next `n` bytes.
    pub(crate) fn take(&mut self, n: usize) -> Result<&'a [u8], FileError> {
        let end = self.at.checked_add(n).ok_or(FileError::Truncated)?;
        let s = self.bytes.get(self.at..end).ok_or(FileError::Truncated)?;
        self.at = end;
        Ok(s)
    }

    /// The next `N` bytes as an array.
    pub(crate) fn array<const N: usize>(&mut self) -> Result<[u8; N], FileError> {
        let mut a = [0u8; N];
        a.copy_from_slice(self.take(N)?);
        Ok(a)
    }

    pub(crate) fn text(&mut self, n: usize, what: &'static str) -> Result<&'a str, FileError> {
        std::str::from_utf8(self.take(n)?).map_err(|_| FileError::NotUtf8(what))
    }

    /// `n` packed 2-bit values, refusing the code 3 and padding bits that
    /// are not 0.
    pub(crate) fn values(&mut self, n: usize) -> Result<Vec<u8>, FileError> {
        let values = self.take(n.div_ceil(4))?.to_vec();
        for i in 0..n {
            if code_at(&values, i) == UNUSED {
                return Err(FileError::BadValue(i as u64));
            }
        }
        if !n.is_multiple_of(4) && values.last().is_some_and(|&b| b >> (2 * (n % 4)) != 0) {
            return Err(FileError::BadValue(n as u64));
        }
        Ok(values)
    }

    /// `n` distances of `width` bytes (1 or 2).
    pub(crate) fn distances(&mut self, n: usize, width: u8) -> Result<Distances, FileError> {
        let raw = self.take(
            n.checked_mul(usize::from(width))
                .ok_or(FileError::Truncated)?,
        )?;
        let mut distances = Distances::with_capacity(width, n).map_err(|_| FileError::Truncated)?;
        distances.extend_from_bytes(raw);
        Ok(distances)
    }

    /// Refuses bytes after the payload.
    pub(crate) fn finish(self) -> Result<(), FileError> {
        match self.bytes.len() - self.at {
            0 => Ok(()),
            extra => Err(FileError::TrailingBytes(extra)),
        }
    }
}

/// The most bytes a header can take: magic, version, the game name (up to
/// 255 bytes), the rules text (up to 65 535), the material (up to 255),
/// count, width, a blocked file's block size and checksum.
const HEADER_MAX: u64 = 8 + 2 + 1 + 255 + 2 + 65_535 + 1 + 255 + 8 + 1 + 4 + 8;

/// Why a table file could not be read ([`read_file`]).
pub(crate) enum ReadFileError {
    /// The file could not be opened or read, or is not a regular file.
    Io(std::io::Error),
    /// Its header is bad or implies another size.
    File(FileError),
}

/// Opens the table file at `path` for reading: a FIFO, a device (a link
/// to `/dev/zero`) or a directory is refused before it is opened (reading
/// one could block or never end); its first bytes (at most a header's)
/// are read, `sized` makes of them what the header says and the size it
/// implies, and that size is checked against the file's before the rest
/// is read, so a large file of anything else is refused after a few
/// bytes. The file, positioned after the bytes read, those bytes and what
/// `sized` made.
pub(crate) fn open_sized<T>(
    path: &Path,
    sized: impl FnOnce(&[u8]) -> Result<(T, u64), FileError>,
) -> Result<(File, Vec<u8>, T), ReadFileError> {
    let meta = std::fs::metadata(path).map_err(ReadFileError::Io)?;
    if !meta.is_file() {
        return Err(ReadFileError::Io(std::io::Error::new(
            std::io::ErrorKind::InvalidInput,
            "not a regular file (a FIFO, a device or a directory): refused unread",
        )));
    }
    let mut file = File::open(path).map_err(ReadFileError::Io)?;
    let mut prefix = Vec::new();
    (&mut file)
        .take(meta.len().min(HEADER_MAX))
        .read_to_end(&mut prefix)
        .map_err(ReadFileError::Io)?;
    let (made, expected) = sized(&prefix).map_err(ReadFileError::File)?;
    if expected != meta.len() {
        return Err(ReadFileError::File(FileError::SizeMismatch {
            expected,
            found: meta.len(),
        }));
    }
    Ok((file, prefix, made))
}

/// Reads the keyed table file at `path` of `game` and `version`, whose
/// payload holds `key_bytes` a position besides its 2-bit value and its
/// distance, opened as [`open_sized`] opens it. The checksum is the
/// caller's to check.
pub(crate) fn read_file(
    path: &Path,
    game: &str,
    version: u16,
    key_bytes: u64,
) -> Result<Vec<u8>, ReadFileError> {
    // The size its header implies: the header, then per position
    // `key_bytes`, the distance's width, and 2 bits of value.
    let (file, mut bytes, size) = open_sized(path, |prefix| {
        let mut r = Reader::new(prefix);
        let Header { count, width, .. } = Header::read(&mut r, game, version)?;
        // The checksum.
        r.take(8)?;
        let size = count
            .checked_mul(key_bytes + u64::from(width))
            .and_then(|payload| payload.checked_add(count.div_ceil(4)))
            .and_then(|payload| payload.checked_add(r.at as u64))
            .ok_or(FileError::Truncated)?;
        Ok((size, size))
    })?;
    // The size is known and checked: read exactly that much (a file that
    // grows meanwhile is cut there, one that shrinks is truncated).
    let rest = size - bytes.len() as u64;
    bytes.reserve_exact(
        usize::try_from(rest).map_err(|_| ReadFileError::File(FileError::Truncated))?,
    );
    file.take(rest)
        .read_to_end(&mut bytes)
        .map_err(ReadFileError::Io)?;
    Ok(bytes)
}
