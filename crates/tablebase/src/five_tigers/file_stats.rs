//! A table file's statistics without holding its table: the cells of a
//! table under the shuttle ban (a file can be larger than memory: `5v5`,
//! 31 GB) are read a block at a time, counted as `Table::stats` counts
//! them (the first cell of each board slot: its state without bans).

use std::path::Path;

use qi_five_tigers::{FiveTigers, Rules};

use super::layout::{count_cells, DENSE_BAN_VERSION};
use super::{Material, Slots, Stats};
use crate::format::blocked::peek_version;
use crate::format::container::FileError;
use crate::format::{for_each_block, load_table, FormatError};
use crate::value::value_at;

/// The material, slot count and statistics (as
/// [`Table::stats`](crate::Table::stats) gives them) of the Five Tigers
/// table file at `path`, checked as [`load_table`] checks it (`rules`
/// its board rules). A file of the cells under the shuttle ban is read a
/// block at a time, holding only its index (8 bytes a board slot); any
/// other is loaded (the largest, `5v5` with the shuttle allowed, is 1.9
/// GB).
///
/// ```
/// use qi_games::five_tigers::Rules;
/// use qi_tablebase::five_tigers::{file_stats, Material, Tablebase};
///
/// let dir = std::env::temp_dir().join(format!("qi-doc-file-stats-{}", std::process::id()));
/// std::fs::create_dir_all(&dir).unwrap();
/// let rules = Rules::shandong();
/// let m: Material = "3v1".parse().unwrap();
/// let tb = Tablebase::generate(&rules, &[m], 2).unwrap();
/// qi_tablebase::save_table(&dir, tb.table(m).unwrap()).unwrap();
/// let (material, slots, stats) = file_stats(&Tablebase::file_path(&dir, m), &rules).unwrap();
/// assert_eq!((material, slots), (m, tb.table(m).unwrap().len()));
/// assert_eq!(stats, tb.table(m).unwrap().stats());
/// std::fs::remove_dir_all(&dir).unwrap();
/// ```
pub fn file_stats(path: &Path, rules: &Rules) -> Result<(Material, u64, Stats), FormatError> {
    if peek_version(path) != Some(DENSE_BAN_VERSION) {
        let table = load_table::<FiveTigers>(path, rules)?;
        return Ok((table.material(), table.len(), table.stats()));
    }
    let mut stats = Stats::default();
    let mut slots = 0u64;
    let mut unvalued = None;
    let read = for_each_block::<FiveTigers>(path, rules, |index, layout, k, values, dist| {
        let Slots::Dense(ban) = index else {
            return;
        };
        slots = layout.count;
        let first = k * layout.block_slots;
        let at = |c: u64| value_at(values, dist, layout.width, (c - first) as usize);
        let cells = first..first + layout.slots_in(k);
        if let Some(c) = count_cells(&ban.index, cells, at, &mut stats) {
            unvalued.get_or_insert(c);
        }
    })?;
    let not_blocked = std::io::Error::new(std::io::ErrorKind::InvalidData, "not a blocked file");
    let material = read.ok_or_else(|| FormatError::io(path, not_blocked))?;
    if let Some(cell) = unvalued {
        // A board slot's first cell (its state without bans) always holds
        // a state.
        return Err(FormatError::file::<FiveTigers>(FileError::BadValue(cell)));
    }
    Ok((material, slots, stats))
}
