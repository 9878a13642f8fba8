//! The table file an out-of-core solve writes in place (its distance bytes
//! are the solve's working array), and reading and writing at offsets.

use std::fs::File;
use std::io;
use std::path::Path;

use qi_five_tigers::Rules;

use super::super::Material;
use crate::blocked::{header_bytes, Layout};
use crate::container::Header;
use crate::dir::GenerateDirError;
use crate::format::FormatError;
use crate::write::temp_beside;
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
/// written while solving, the values and checksums at the end.
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
    ) -> Result<Output, FormatError> {
        let shown = path.display().to_string();
        let io = |source| FormatError::Io {
            path: shown.clone(),
            source,
        };
        let (rules_text, material_text) = (rules.to_string(), material.to_string());
        let header = header_bytes(
            &Header {
                game: <qi_five_tigers::FiveTigers as TableGame>::NAME,
                version: super::super::DENSE_BAN_VERSION,
                rules: &rules_text,
                material: &material_text,
                count: cells,
                width: 1,
            },
            block_slots,
        );
        let layout = Layout {
            count: cells,
            width: 1,
            block_slots: u64::from(block_slots),
            header_len: header.len() as u64,
        };
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

    /// Block `k`'s cells, and the offset of its distance bytes.
    pub(super) fn block(&self, k: u64) -> (std::ops::Range<u64>, u64) {
        let first = k * self.layout.block_slots;
        let m = self.layout.slots_in(k);
        (
            first..first + m,
            self.layout.block_offset(k) + m.div_ceil(4),
        )
    }

    /// The distance bytes of cells `first..first + buf.len()` (block by
    /// block) read into `buf`, or written from it.
    pub(super) fn distances(
        &self,
        first: u64,
        buf: &mut [u8],
        write: bool,
    ) -> Result<(), GenerateDirError> {
        let file = self.file.as_file();
        let mut at = 0usize;
        while at < buf.len() {
            let cell = first + at as u64;
            let k = cell / self.layout.block_slots;
            let (cells, offset) = self.block(k);
            let n = ((cells.end - cell) as usize).min(buf.len() - at);
            let offset = offset + (cell - cells.start);
            let part = &mut buf[at..at + n];
            if write {
                write_at(file, part, offset)
            } else {
                read_at(file, part, offset)
            }
            .map_err(|e| self.io(e))?;
            at += n;
        }
        Ok(())
    }
}
