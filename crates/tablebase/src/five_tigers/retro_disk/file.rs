//! The table file an out-of-core solve writes in place (its distance bytes
//! are the solve's working array), and reading and writing at offsets.

use std::fs::File;
use std::io;
use std::path::Path;

use qi_five_tigers::Rules;

use super::super::table::internal;
use super::super::Material;
use crate::exec::GenerateDirError;
use crate::format::blocked::{header_bytes, Layout};
use crate::format::container::Header;
use crate::format::write::temp_beside;
use crate::format::FormatError;
use crate::TableGame;

/// Reads exactly `buf.len()` bytes at `offset`.
#[cfg(unix)]
pub(super) fn read_at(file: &File, buf: &mut [u8], offset: u64) -> io::Result<()> {
    std::os::unix::fs::FileExt::read_exact_at(file, buf, offset)
}

/// Writes all of `buf` at `offset`.
#[cfg(unix)]
pub(super) fn write_at(file: &File, buf: &[u8], offset: u64) -> io::Result<()> {
    std::os::unix::fs::FileExt::write_all_at(file, buf, offset)
}

#[cfg(not(unix))]
pub(super) fn read_at(_: &File, _: &mut [u8], _: u64) -> io::Result<()> {
    Err(io::Error::new(
        io::ErrorKind::Unsupported,
        "the out-of-core generator reads at offsets, on Unix",
    ))
}

#[cfg(not(unix))]
pub(super) fn write_at(_: &File, _: &[u8], _: u64) -> io::Result<()> {
    read_at(&File::open(".")?, &mut [], 0)
}

/// The table file being written, in place: its header, then block after
/// block (values, distances, checksum; `blocked`'s layout), the distances
/// written while solving, the values and checksums at the end. Its
/// distances are one byte each, or two (little-endian) once
/// [`Output::widen`] widened them in place.
pub(super) struct Output {
    /// The file, under its temporary name.
    pub(super) file: tempfile::NamedTempFile,
    /// Where its blocks are.
    pub(super) layout: Layout,
    /// Its header's bytes, written last.
    pub(super) header: Vec<u8>,
    path: String,
}

impl Output {
    /// A file for `cells` slots beside `path` (empty: the file system
    /// gives zeros until written, and takes no room for them).
    pub(super) fn create(
        path: &Path,
        rules: &Rules,
        material: Material,
        cells: u64,
        block_slots: u32,
        width: u8,
    ) -> Result<Output, FormatError> {
        let shown = path.display().to_string();
        let io = |source| FormatError::Io {
            path: shown.clone(),
            source,
        };
        let (header, layout) = layout_for(rules, material, cells, block_slots, width);
        let size = layout.file_size().ok_or_else(|| {
            io(io::Error::new(
                io::ErrorKind::InvalidInput,
                "a file larger than 64 bits",
            ))
        })?;
        let file = temp_beside(path).map_err(io)?;
        file.as_file().set_len(size).map_err(io)?;
        Ok(Output {
            file,
            layout,
            header,
            path: shown,
        })
    }

    pub(super) fn io(&self, source: io::Error) -> GenerateDirError {
        FormatError::Io {
            path: self.path.clone(),
            source,
        }
        .into()
    }

    /// Bytes a distance.
    pub(super) fn width(&self) -> u8 {
        self.layout.width
    }

    /// Block `k`'s cells, and the offset of its distance bytes.
    pub(super) fn block(&self, k: u64) -> (std::ops::Range<u64>, u64) {
        block_in(&self.layout, k)
    }

    /// The distances of cells `first..first + buf.len()` (block by block)
    /// read into `buf`, or written from it (a distance past
    /// [`Output::longest`] is an error, not cut short).
    pub(super) fn distances(
        &self,
        first: u64,
        buf: &mut [u16],
        write: bool,
    ) -> Result<(), GenerateDirError> {
        let file = self.file.as_file();
        let width = u64::from(self.width());
        let mut bytes = Vec::new();
        let mut at = 0usize;
        while at < buf.len() {
            let cell = first + at as u64;
            let k = cell / self.layout.block_slots;
            let (cells, offset) = self.block(k);
            let n = ((cells.end - cell) as usize).min(buf.len() - at);
            let offset = offset + (cell - cells.start) * width;
            let part = &mut buf[at..at + n];
            bytes.resize(n * width as usize, 0);
            if write {
                self.encode(part, &mut bytes)?;
                write_at(file, &bytes, offset)
            } else {
                read_at(file, &mut bytes, offset).map(|()| decode(&bytes, part))
            }
            .map_err(|e| self.io(e))?;
            at += n;
        }
        Ok(())
    }

    /// `dist` into `bytes`, `width` bytes each.
    pub(super) fn encode(&self, dist: &[u16], bytes: &mut [u8]) -> Result<(), GenerateDirError> {
        if self.width() == 1 {
            for (b, &d) in bytes.iter_mut().zip(dist) {
                *b = u8::try_from(d)
                    .map_err(|_| internal(format!("a distance of {d} in a one-byte file")))?;
            }
        } else {
            for (b, &d) in bytes.chunks_exact_mut(2).zip(dist) {
                b.copy_from_slice(&d.to_le_bytes());
            }
        }
        Ok(())
    }

    /// The file given two bytes a distance, in place: the blocks moved
    /// last to first, `blocks` at a time, each block's distances read and
    /// written wider (a block's new place starts at or after its old one,
    /// so a move never overwrites a block not yet read). The values and
    /// checksums are not written yet; the header is rewritten.
    pub(super) fn widen(
        &mut self,
        rules: &Rules,
        material: Material,
        blocks: u64,
    ) -> Result<(), GenerateDirError> {
        let narrow = self.layout;
        let wide = Layout { width: 2, ..narrow };
        let size = wide.file_size().ok_or_else(|| {
            self.io(io::Error::new(
                io::ErrorKind::InvalidInput,
                "a file larger than 64 bits",
            ))
        })?;
        let block_slots = u32::try_from(narrow.block_slots)
            .map_err(|_| internal("a block larger than 32 bits".into()))?;
        let header = header_for(rules, material, narrow.count, block_slots, 2);
        let file = self.file.as_file();
        file.set_len(size).map_err(|e| self.io(e))?;
        let per = blocks.max(1);
        let total = narrow.blocks();
        let mut dist = Vec::new();
        let mut bytes = Vec::new();
        for task in (0..total.div_ceil(per)).rev() {
            let (lo, hi) = (task * per, ((task + 1) * per).min(total));
            let first = lo * narrow.block_slots;
            let end = (hi * narrow.block_slots).min(narrow.count);
            dist.resize((end - first) as usize, 0u16);
            self.distances(first, &mut dist, false)?;
            for k in lo..hi {
                let (cells, offset) = block_in(&wide, k);
                let part = &dist[(cells.start - first) as usize..(cells.end - first) as usize];
                bytes.clear();
                bytes.extend(part.iter().flat_map(|d| d.to_le_bytes()));
                write_at(file, &bytes, offset).map_err(|e| self.io(e))?;
            }
        }
        self.layout = wide;
        self.header = header;
        Ok(())
    }
}

/// The header and the layout of the file of `cells` slots of `material`
/// under `rules`, `width` bytes a distance.
fn layout_for(
    rules: &Rules,
    material: Material,
    cells: u64,
    block_slots: u32,
    width: u8,
) -> (Vec<u8>, Layout) {
    let header = header_for(rules, material, cells, block_slots, width);
    let layout = Layout {
        count: cells,
        width,
        block_slots: u64::from(block_slots),
        header_len: header.len() as u64,
    };
    (header, layout)
}

/// The bytes of that file once written (`u64::MAX` past 64 bits).
pub(super) fn file_bytes(
    rules: &Rules,
    material: Material,
    cells: u64,
    block_slots: u32,
    width: u8,
) -> u64 {
    let (_, layout) = layout_for(rules, material, cells, block_slots, width);
    layout.file_size().unwrap_or(u64::MAX)
}

/// Block `k`'s cells in `layout`, and the offset of its distances.
fn block_in(layout: &Layout, k: u64) -> (std::ops::Range<u64>, u64) {
    let first = k * layout.block_slots;
    let m = layout.slots_in(k);
    (first..first + m, layout.block_offset(k) + m.div_ceil(4))
}

/// The header bytes of the table file of `material` under `rules`.
fn header_for(
    rules: &Rules,
    material: Material,
    cells: u64,
    block_slots: u32,
    width: u8,
) -> Vec<u8> {
    let (rules_text, material_text) = (rules.to_string(), material.to_string());
    header_bytes(
        &Header {
            game: <qi_five_tigers::FiveTigers as TableGame>::NAME,
            version: super::super::layout::DENSE_BAN_VERSION,
            rules: &rules_text,
            material: &material_text,
            count: cells,
            width,
        },
        block_slots,
    )
}

/// `bytes`, `out.len()` distances of one byte or two (little-endian).
fn decode(bytes: &[u8], out: &mut [u16]) {
    if bytes.len() == out.len() {
        for (d, &b) in out.iter_mut().zip(bytes) {
            *d = u16::from(b);
        }
    } else {
        for (d, b) in out.iter_mut().zip(bytes.chunks_exact(2)) {
            *d = u16::from_le_bytes([b[0], b[1]]);
        }
    }
}
