//! The table file an out-of-core solve writes in place (its distance bytes
//! are the solve's working array), and reading and writing at offsets.

use std::io;
use std::path::{Path, PathBuf};

use qi_five_tigers::Rules;

use super::super::table::internal;
use super::super::Material;
use super::room::{held_bytes, Room};
use crate::exec::GenerateDirError;
use crate::format::blocked::{header_bytes, Layout};
use crate::format::container::Header;
use crate::format::versions::{version_of, SlotIndex};
use crate::format::write::{read_at, temp_beside, write_at};
use crate::format::FormatError;
use crate::value::{decode_distances, encode_distances};
use crate::TableGame;

/// A temporary file beside a table file (named as its own temporary
/// file is, so that a later writer of the directory removes it if this
/// run is killed), read and written at offsets.
pub(super) struct TempFile {
    /// The file, under its temporary name.
    pub(super) file: tempfile::NamedTempFile,
    /// The table file it is beside, which its errors name.
    path: PathBuf,
}

impl TempFile {
    /// A new empty file beside `table`.
    pub(super) fn beside(table: &Path) -> Result<TempFile, GenerateDirError> {
        let file = temp_beside(table).map_err(|source| FormatError::io(table, source))?;
        Ok(TempFile {
            file,
            path: table.to_path_buf(),
        })
    }

    /// An error of this file.
    pub(super) fn io(&self, source: io::Error) -> GenerateDirError {
        FormatError::io(&self.path, source).into()
    }

    /// Reads exactly `buf.len()` bytes at `offset`.
    pub(super) fn read(&self, buf: &mut [u8], offset: u64) -> Result<(), GenerateDirError> {
        read_at(self.file.as_file(), buf, offset).map_err(|e| self.io(e))
    }

    /// Writes all of `buf` at `offset`.
    pub(super) fn write(&self, buf: &[u8], offset: u64) -> Result<(), GenerateDirError> {
        write_at(self.file.as_file(), buf, offset).map_err(|e| self.io(e))
    }
}

/// The table file being written, in place: its header, then block after
/// block (values, distances, checksum; `blocked`'s layout), the distances
/// written while solving, the values and checksums at the end. Its
/// distances are one byte each, or two (little-endian) once
/// [`Output::widen`] widened them in place.
pub(super) struct Output {
    /// The file, under its temporary name.
    pub(super) file: TempFile,
    /// Where its blocks are.
    pub(super) layout: Layout,
    /// Its header's bytes, written last.
    pub(super) header: Vec<u8>,
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
    ) -> Result<Output, GenerateDirError> {
        let (header, layout) = layout_for(rules, material, cells, block_slots, width);
        let output = Output {
            file: TempFile::beside(path)?,
            layout,
            header,
        };
        output.set_len()?;
        Ok(output)
    }

    /// The file's length set to its layout's (`set_len` keeps what the
    /// file holds and gives zeros past it).
    fn set_len(&self) -> Result<(), GenerateDirError> {
        let size = self.layout.file_size().ok_or_else(|| {
            io::Error::new(io::ErrorKind::InvalidInput, "a file larger than 64 bits")
        });
        size.and_then(|size| self.file.file.as_file().set_len(size))
            .map_err(|e| self.file.io(e))
    }

    /// Bytes a distance.
    pub(super) fn width(&self) -> u8 {
        self.layout.width
    }

    /// The distances of cells `first..first + buf.len()` (block by block)
    /// read into `buf`, or written from it (a distance past what the
    /// width holds is an error, not cut short).
    pub(super) fn distances(
        &self,
        first: u64,
        buf: &mut [u16],
        write: bool,
    ) -> Result<(), GenerateDirError> {
        self.distances_in(&self.layout, first, buf, write)
    }

    /// [`Output::distances`] where `layout` places them.
    fn distances_in(
        &self,
        layout: &Layout,
        first: u64,
        buf: &mut [u16],
        write: bool,
    ) -> Result<(), GenerateDirError> {
        let width = u64::from(layout.width);
        let mut bytes = Vec::new();
        let mut at = 0usize;
        while at < buf.len() {
            let cell = first + at as u64;
            let (cells, offset) = block_in(layout, cell / layout.block_slots);
            let n = ((cells.end - cell) as usize).min(buf.len() - at);
            let offset = offset + (cell - cells.start) * width;
            let part = &mut buf[at..at + n];
            bytes.resize(n * width as usize, 0);
            if write {
                encode(part, &mut bytes)?;
                self.file.write(&bytes, offset)?;
            } else {
                self.file.read(&mut bytes, offset)?;
                decode_distances(&bytes, part);
            }
            at += n;
        }
        Ok(())
    }

    /// The file given two bytes a distance, in place, if `room` has room
    /// for it: the blocks moved last to first, `blocks` at a time, each
    /// block's distances read and written wider (a block's new place
    /// starts at or after its old one, so a move never overwrites a block
    /// not yet read). The values and checksums are not written yet; the
    /// header is rewritten.
    pub(super) fn widen(
        &mut self,
        rules: &Rules,
        material: Material,
        blocks: u64,
        room: &Room,
    ) -> Result<(), GenerateDirError> {
        let narrow = self.layout;
        // Made from a `u32`.
        let block_slots = narrow.block_slots as u32;
        let (header, wide) = layout_for(rules, material, narrow.count, block_slots, 2);
        let held = held_bytes(self.file.file.as_file());
        let needed = wide.file_size().unwrap_or(u64::MAX).saturating_sub(held);
        let what = "its file widened to two bytes a distance";
        room.check(material, needed, held, what)?;
        (self.header, self.layout) = (header, wide);
        self.set_len()?;
        let per = blocks.max(1);
        let total = narrow.blocks();
        let mut dist = Vec::new();
        for task in (0..total.div_ceil(per)).rev() {
            let first = task * per * narrow.block_slots;
            let end = ((task + 1) * per * narrow.block_slots).min(narrow.count);
            dist.resize((end - first) as usize, 0u16);
            self.distances_in(&narrow, first, &mut dist, false)?;
            self.distances(first, &mut dist, true)?;
        }
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
    let (rules_text, material_text) = (rules.to_string(), material.to_string());
    header_bytes(
        &Header {
            game: <qi_five_tigers::FiveTigers as TableGame>::NAME,
            version: version_of(SlotIndex::FiveTigersDenseBan),
            rules: &rules_text,
            material: &material_text,
            count: cells,
            width,
        },
        block_slots,
    )
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
pub(super) fn block_in(layout: &Layout, k: u64) -> (std::ops::Range<u64>, u64) {
    let first = k * layout.block_slots;
    let m = layout.slots_in(k);
    (first..first + m, layout.block_offset(k) + m.div_ceil(4))
}

/// `dist` into `bytes`, one byte each (a longer distance is an error)
/// or two (little-endian), as `bytes` has room for.
pub(super) fn encode(dist: &[u16], bytes: &mut [u8]) -> Result<(), GenerateDirError> {
    encode_distances(dist, bytes)
        .map_err(|d| internal(format!("a distance of {d} in a one-byte file")).into())
}
