//! The cells an out-of-core solve decides at a distance known ahead, kept
//! on disk by distance.

use std::path::Path;
use std::sync::Mutex;

use super::super::table::internal;
use super::file::TempFile;
use crate::exec::GenerateDirError;

/// The cells decided at a distance known ahead, by distance: sorted runs
/// of cell numbers, delta-coded (7 bits a byte), in a temporary file.
pub(super) struct Schedule {
    file: TempFile,
    inner: Mutex<ScheduleIndex>,
}

#[derive(Default)]
struct ScheduleIndex {
    /// By distance, the runs: offset, bytes, first cell, cells.
    runs: Vec<Vec<(u64, u32, u64, u32)>>,
    end: u64,
}

impl Schedule {
    /// A schedule in a temporary file beside `table`.
    pub(super) fn create(table: &Path) -> Result<Schedule, GenerateDirError> {
        Ok(Schedule {
            file: TempFile::beside(table)?,
            inner: Mutex::new(ScheduleIndex::default()),
        })
    }

    /// Adds the sorted `cells` at distance `d`.
    pub(super) fn add(&self, d: u32, cells: &[u64]) -> Result<(), GenerateDirError> {
        let Some(&first) = cells.first() else {
            return Ok(());
        };
        let mut bytes = Vec::with_capacity(cells.len() + 8);
        let mut last = first;
        for &c in cells {
            let mut delta = c - last;
            last = c;
            while delta >= 0x80 {
                bytes.push((delta as u8) | 0x80);
                delta >>= 7;
            }
            bytes.push(delta as u8);
        }
        let mut inner = crate::threads::lock(&self.inner);
        let at = inner.end;
        self.file.write(&bytes, at)?;
        inner.end += bytes.len() as u64;
        let d = d as usize;
        if inner.runs.len() <= d {
            inner.runs.resize_with(d + 1, Vec::new);
        }
        inner.runs[d].push((at, bytes.len() as u32, first, cells.len() as u32));
        Ok(())
    }

    /// The runs at distance `d`, taken out.
    pub(super) fn take(&self, d: u32) -> Vec<(u64, u32, u64, u32)> {
        let mut inner = crate::threads::lock(&self.inner);
        inner
            .runs
            .get_mut(d as usize)
            .map(std::mem::take)
            .unwrap_or_default()
    }

    /// The greatest distance with cells still scheduled.
    pub(super) fn last(&self) -> Option<u32> {
        let inner = crate::threads::lock(&self.inner);
        inner
            .runs
            .iter()
            .rposition(|r| !r.is_empty())
            .map(|d| d as u32)
    }

    /// The cells of one run.
    pub(super) fn cells(
        &self,
        (at, len, first, count): (u64, u32, u64, u32),
        mut each: impl FnMut(u64),
    ) -> Result<(), GenerateDirError> {
        let mut bytes = vec![0u8; len as usize];
        self.file.read(&mut bytes, at)?;
        let (mut cell, mut delta, mut shift, mut n) = (first, 0u64, 0, 0u32);
        for b in bytes {
            delta |= u64::from(b & 0x7f) << shift;
            shift += 7;
            if b & 0x80 == 0 {
                cell += delta;
                each(cell);
                (delta, shift) = (0, 0);
                n += 1;
            }
        }
        if n != count {
            return Err(internal(format!("a schedule run of {count} cells read {n}")).into());
        }
        Ok(())
    }
}

/// Cells by distance, in order, for the schedule.
#[derive(Default)]
pub(super) struct ByDistance(Vec<Vec<u64>>);

impl ByDistance {
    pub(super) fn push(&mut self, d: u32, cell: u64) {
        let d = d as usize;
        if self.0.len() <= d {
            self.0.resize_with(d + 1, Vec::new);
        }
        self.0[d].push(cell);
    }

    pub(super) fn flush(&mut self, schedule: &Schedule) -> Result<(), GenerateDirError> {
        for (d, cells) in self.0.iter_mut().enumerate() {
            schedule.add(d as u32, cells)?;
            cells.clear();
        }
        Ok(())
    }
}
