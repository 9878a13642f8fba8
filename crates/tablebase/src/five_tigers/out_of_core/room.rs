//! Room on disk. An out-of-core solve writes its table file in place
//! (`5v5`: 31 GB at one byte a distance, 56 GB at two), and a disk that
//! fills shows only when a write fails, maybe hours in. So the solve asks
//! the file system before each step that takes room: before the file is
//! started, and before its distances are widened to two bytes; a step
//! that does not fit stops with [`GenerateError::OutOfDisk`], saying how
//! much it needs and how much is free.

use std::fs::File;
use std::path::{Path, PathBuf};

use super::super::Material;
use crate::driver::GenerateError;
use crate::format::write::free_bytes;

/// Where the table file is written, and how its free room is known.
pub(super) struct Room {
    dir: PathBuf,
    /// The disk a test gives the solve instead of the file system's: its
    /// free room is this less what the table file holds.
    disk: Option<u64>,
}

impl Room {
    pub(super) fn new(dir: &Path, disk: Option<u64>) -> Room {
        Room {
            dir: dir.to_path_buf(),
            disk,
        }
    }

    /// Bytes free beside a table file holding `held` (`None` where the
    /// file system cannot be asked).
    pub(super) fn free(&self, held: u64) -> Option<u64> {
        match self.disk {
            Some(disk) => Some(disk.saturating_sub(held)),
            None => free_bytes(&self.dir),
        }
    }

    /// Whether `needed` more bytes fit beside a table file holding `held`,
    /// for `what` (the refusal's words).
    pub(super) fn check(
        &self,
        material: Material,
        needed: u64,
        held: u64,
        what: &str,
    ) -> Result<(), GenerateError> {
        match self.free(held) {
            Some(free) if free < needed => Err(GenerateError::OutOfDisk {
                material: material.to_string(),
                what: what.to_string(),
                needed,
                free,
                dir: self.dir.display().to_string(),
            }),
            _ => Ok(()),
        }
    }
}

/// Bytes the file system holds for `file` now: a sparse file's holes,
/// not written yet, take none.
#[cfg(unix)]
pub(super) fn held_bytes(file: &File) -> u64 {
    use std::os::unix::fs::MetadataExt;
    // `st_blocks` counts 512-byte units whatever the file system's block.
    file.metadata()
        .map_or(0, |m| m.blocks().saturating_mul(512))
}

#[cfg(not(unix))]
pub(super) fn held_bytes(file: &File) -> u64 {
    file.metadata().map_or(0, |m| m.len())
}
