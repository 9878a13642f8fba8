//! The blocked table file: a table whose slots are a formula's (no key is
//! stored), its values and distances cut into blocks of [`BLOCK_SLOTS`]
//! slots, each with a checksum of its own, so that a probe reads one block
//! of a large file and still catches a damaged byte, and a whole read
//! needs no second copy of the file in memory (`docs/tablebases.md`,
//! "File format"). All numbers little-endian:
//!
//! | field | bytes |
//! |---|---|
//! | magic `QITB\r\n\x1a\n` | 8 |
//! | format version (`versions`: Five Tigers 2 and 3) | 2 |
//! | game name length, game name | 1 + n |
//! | rules text length, rules text | 2 + n |
//! | material text length, material text | 1 + n |
//! | slot count | 8 |
//! | distance width (1 or 2 bytes) | 1 |
//! | slots per block `B` (a multiple of 4) | 4 |
//! | header checksum: FNV-1a 64 of the header bytes before it | 8 |
//! | block `k` (slots `kB..min((k+1)B, count)`, `m` of them): values, 2 bits a slot, code 3 for a slot no position uses | ⌈m / 4⌉ |
//! | its distances, `width` bytes a slot (0 for a draw or an unused slot) | m × width |
//! | its checksum: FNV-1a 64 of `k` (8 bytes) and the block's bytes | 8 |

use std::fs::File;
use std::io::{self, Read, Write};
use std::path::Path;

use crate::format::container::{
    fnv1a, open_sized, version_in, FileError, Header, ReadFileError, Reader, FNV_OFFSET,
};
use crate::threads;
use crate::value::Distances;

/// Slots per block in the files this build writes: 20 KiB a block with
/// one-byte distances, so a probe that misses the cache reads and checks
/// about that much.
pub(crate) const BLOCK_SLOTS: u32 = 16_384;

/// The most slots per block a file may have (a bound on one read).
const MAX_BLOCK_SLOTS: u32 = 1 << 20;

/// Where a blocked file's blocks are, from its header.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Layout {
    /// Slots.
    pub(crate) count: u64,
    /// Bytes per distance.
    pub(crate) width: u8,
    /// Slots per block.
    pub(crate) block_slots: u64,
    /// Bytes of the header (the first block's offset).
    pub(crate) header_len: u64,
}

impl Layout {
    /// The number of blocks.
    pub(crate) fn blocks(&self) -> u64 {
        self.count.div_ceil(self.block_slots)
    }

    /// The slots of block `k`.
    pub(crate) fn slots_in(&self, k: u64) -> u64 {
        (self.count - k * self.block_slots).min(self.block_slots)
    }

    fn bytes_of(&self, slots: u64) -> Option<u64> {
        slots
            .checked_mul(u64::from(self.width))?
            .checked_add(slots.div_ceil(4))?
            .checked_add(8)
    }

    /// The bytes of block `k`, its checksum included.
    pub(crate) fn block_bytes(&self, k: u64) -> u64 {
        // Within the file size, which `file_size` checked to fit.
        self.bytes_of(self.slots_in(k)).unwrap_or(u64::MAX)
    }

    /// The offset of block `k` in the file.
    pub(crate) fn block_offset(&self, k: u64) -> u64 {
        self.header_len + k * self.bytes_of(self.block_slots).unwrap_or(u64::MAX)
    }

    /// The size of the whole file, `None` if it does not fit in 64 bits.
    pub(crate) fn file_size(&self) -> Option<u64> {
        let full = self.count / self.block_slots;
        let rest = self.count % self.block_slots;
        let last = if rest == 0 { 0 } else { self.bytes_of(rest)? };
        full.checked_mul(self.bytes_of(self.block_slots)?)?
            .checked_add(last)?
            .checked_add(self.header_len)
    }
}

/// The header bytes of a blocked file of `header`'s table, `block_slots`
/// slots a block, and where its blocks are.
pub(crate) fn header_bytes(header: &Header<'_>, block_slots: u32) -> (Vec<u8>, Layout) {
    let mut out = Vec::with_capacity(64);
    header.write(&mut out);
    out.extend_from_slice(&block_slots.to_le_bytes());
    let sum = fnv1a(FNV_OFFSET, &out);
    out.extend_from_slice(&sum.to_le_bytes());
    let layout = Layout {
        count: header.count,
        width: header.width,
        block_slots: u64::from(block_slots),
        header_len: out.len() as u64,
    };
    (out, layout)
}

/// The checksum of block `k` whose bytes are `bytes`: the block's number
/// is hashed first, so a block copied over another is caught too.
pub(crate) fn block_sum(k: u64, bytes: &[u8]) -> u64 {
    fnv1a(fnv1a(FNV_OFFSET, &k.to_le_bytes()), bytes)
}

/// Writes the blocked file of a table (`header`, its packed `values` and
/// its `distances`) to `w`, block by block.
pub(crate) fn write(
    w: &mut dyn Write,
    header: &Header<'_>,
    values: &[u8],
    distances: &Distances,
) -> io::Result<()> {
    let width = usize::from(distances.width());
    let copy = |first: u64, v: &mut [u8], d: &mut [u8]| {
        let (first, m) = (first as usize, d.len() / width);
        // `first` is a multiple of the block size, so of 4.
        v.copy_from_slice(&values[first / 4..(first + m).div_ceil(4)]);
        distances.write_bytes(first, d);
        Ok(())
    };
    write_filled(w, header, 1, &copy)
}

/// What fills a block of a blocked file ([`write_filled`]): its first
/// slot, its values (zeroed) and its distances.
pub(crate) type FillBlock<'a> = dyn Fn(u64, &mut [u8], &mut [u8]) -> io::Result<()> + Sync + 'a;

/// Writes the blocked file of `header`'s table to `w` with no table in
/// memory: block `k`'s bytes are filled by `fill(first slot, values,
/// distances)` (the values zeroed, `⌈m / 4⌉` bytes; the distances `m ×
/// width` bytes), `threads` runs of blocks at a time, and written in
/// order. The first error `fill` returns stops the writing and is
/// returned (a filler's own error as [`io::Error::other`]).
pub(crate) fn write_filled(
    w: &mut dyn Write,
    header: &Header<'_>,
    threads: usize,
    fill: &FillBlock<'_>,
) -> io::Result<()> {
    let (head, layout) = header_bytes(header, BLOCK_SLOTS);
    w.write_all(&head)?;
    let blocks = layout.blocks();
    let threads = threads.max(1) as u64;
    // Blocks per thread in a batch: 64 blocks of 20 KiB, so that the
    // threads' work is long beside a batch's barrier, and a batch holds
    // a few MB.
    let run = 64u64;
    let mut bufs: Vec<Vec<u8>> = vec![Vec::new(); (threads * run) as usize];
    let mut k0 = 0u64;
    while k0 < blocks {
        let batch = (blocks - k0).min(threads * run);
        let chunks = bufs[..batch as usize].chunks_mut(run as usize).enumerate();
        threads::in_order(chunks, threads as usize, |(t, chunk)| {
            for (i, buf) in chunk.iter_mut().enumerate() {
                let k = k0 + t as u64 * run + i as u64;
                let m = layout.slots_in(k) as usize;
                let nv = m.div_ceil(4);
                let nd = m * usize::from(layout.width);
                buf.clear();
                buf.resize(nv + nd, 0);
                let (values, distances) = buf.split_at_mut(nv);
                fill(k * layout.block_slots, values, distances)?;
                let sum = block_sum(k, buf);
                buf.extend_from_slice(&sum.to_le_bytes());
            }
            Ok::<_, io::Error>(())
        })?;
        for buf in &bufs[..batch as usize] {
            w.write_all(buf)?;
        }
        k0 += batch;
    }
    Ok(())
}

/// A blocked file's header, its texts owned.
#[derive(Clone, Debug)]
pub(crate) struct BlockedHeader {
    pub(crate) rules: String,
    pub(crate) material: String,
    pub(crate) layout: Layout,
}

/// Reads the header of a blocked file of `game` and `version` from its
/// first bytes `prefix`, checking the distance width, its checksum and the
/// block size.
pub(crate) fn parse_header(
    prefix: &[u8],
    game: &str,
    version: u16,
) -> Result<BlockedHeader, FileError> {
    let mut r = Reader::new(prefix);
    let header = Header::read(&mut r, game, version)?;
    let block_slots = u32::from_le_bytes(r.array()?);
    let sum_at = r.position();
    let expected = u64::from_le_bytes(r.array()?);
    let found = fnv1a(FNV_OFFSET, &prefix[..sum_at]);
    if found != expected {
        return Err(FileError::Checksum { expected, found });
    }
    if block_slots == 0 || !block_slots.is_multiple_of(4) || block_slots > MAX_BLOCK_SLOTS {
        return Err(FileError::BadBlockSize(block_slots));
    }
    Ok(BlockedHeader {
        rules: header.rules.to_string(),
        material: header.material.to_string(),
        layout: Layout {
            count: header.count,
            width: header.width,
            block_slots: u64::from(block_slots),
            header_len: r.position() as u64,
        },
    })
}

/// Checks block `k` (`bytes`, its checksum included) and returns its values
/// and distances: a checksum that does not match, or padding bits after
/// the last value that are not 0, refuse it.
pub(crate) fn check_block<'b>(
    layout: &Layout,
    k: u64,
    bytes: &'b [u8],
) -> Result<(&'b [u8], &'b [u8]), FileError> {
    let first_slot = k * layout.block_slots;
    let bad = FileError::BlockChecksum {
        block: k,
        first_slot,
    };
    let (body, sum) = bytes.split_last_chunk::<8>().ok_or(FileError::Truncated)?;
    if block_sum(k, body) != u64::from_le_bytes(*sum) {
        return Err(bad);
    }
    let m = layout.slots_in(k) as usize;
    let (values, distances) = body.split_at(m.div_ceil(4));
    if !m.is_multiple_of(4) && values.last().is_some_and(|&b| b >> (2 * (m % 4)) != 0) {
        return Err(FileError::BadValue(first_slot + m as u64));
    }
    Ok((values, distances))
}

/// Reads every block of a file laid out as `layout` from `r` (positioned at
/// the first block), checking each: the table's packed values and its
/// distances.
pub(crate) fn read_blocks(
    r: &mut dyn Read,
    layout: &Layout,
) -> Result<(Vec<u8>, Distances), ReadFileError> {
    let too_large = || ReadFileError::File(FileError::Truncated);
    let n = usize::try_from(layout.count).map_err(|_| too_large())?;
    let mut values = Vec::new();
    values
        .try_reserve_exact(n.div_ceil(4))
        .map_err(|_| too_large())?;
    let mut distances = Distances::with_capacity(layout.width, n).map_err(|_| too_large())?;
    each_block(r, layout, |_, v, d| {
        values.extend_from_slice(v);
        distances.extend_from_bytes(d);
    })?;
    Ok((values, distances))
}

/// Reads block after block from `r` (positioned at the first), checks
/// each and hands `each` its number, values and distance bytes.
pub(crate) fn each_block(
    r: &mut dyn Read,
    layout: &Layout,
    mut each: impl FnMut(u64, &[u8], &[u8]),
) -> Result<(), ReadFileError> {
    let mut buf = Vec::new();
    for k in 0..layout.blocks() {
        buf.resize(layout.block_bytes(k) as usize, 0);
        r.read_exact(&mut buf).map_err(|e| match e.kind() {
            io::ErrorKind::UnexpectedEof => ReadFileError::File(FileError::Truncated),
            _ => ReadFileError::Io(e),
        })?;
        let (v, d) = check_block(layout, k, &buf).map_err(ReadFileError::File)?;
        each(k, v, d);
    }
    Ok(())
}

/// The version field of the file at `path` if it is a regular file with
/// the magic bytes (what decides which reader takes it).
pub(crate) fn peek_version(path: &Path) -> Option<u16> {
    if !std::fs::metadata(path).ok()?.is_file() {
        return None;
    }
    let mut first = [0u8; 10];
    File::open(path).ok()?.read_exact(&mut first).ok()?;
    version_in(&first)
}

/// Opens the blocked file at `path` as [`open_sized`] opens a table file,
/// reading its header; the file is left positioned at the first block.
pub(crate) fn open(
    path: &Path,
    game: &str,
    version: u16,
) -> Result<(File, BlockedHeader), ReadFileError> {
    use std::io::{Seek, SeekFrom};

    let (mut file, _, header) = open_sized(path, |prefix| {
        let header = parse_header(prefix, game, version)?;
        let size = header.layout.file_size().ok_or(FileError::Truncated)?;
        Ok((header, size))
    })?;
    file.seek(SeekFrom::Start(header.layout.header_len))
        .map_err(ReadFileError::Io)?;
    Ok((file, header))
}
