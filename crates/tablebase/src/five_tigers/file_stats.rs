//! A table file's statistics without holding its table: a blocked file
//! (a file can be larger than memory: `5v5` under the shuttle ban, 31
//! GB) is read a block at a time, counted as `Table::stats` counts it
//! (the first cell of each board slot: its state without bans).

use std::path::Path;

use qi_five_tigers::{FiveTigers, Rules};

use super::layout::count_cells;
use super::{Material, Slots, Stats};
use crate::format::container::FileError;
use crate::format::{for_each_block, load_table, FormatError};
use crate::value::value_at;

/// The material, slot count and statistics (as
/// [`Table::stats`](crate::Table::stats) gives them) of the Five Tigers
/// table file at `path`, checked as [`load_table`] checks it (`rules`
/// its board rules). A blocked file (every generated table) is read a
/// block at a time, holding only its index (8 bytes a board slot); a
/// keyed one (version 1) is loaded.
///
/// ```
/// use qi_games::five_tigers::Rules;
/// use qi_tablebase::five_tigers::{file_stats, Material, Tablebase};
///
/// let dir = std::env::temp_dir().join(format!("qi-doc-file-stats-{}", std::process::id()));
/// std::fs::create_dir_all(&dir).unwrap();
/// let m: Material = "3v1".parse().unwrap();
/// // Under the shuttle ban, and with it allowed (no bans: some board
/// // slots hold no state).
/// for rules in [Rules::shandong(), Rules::shandong_shuttle()] {
///     let tb = Tablebase::generate(&rules, &[m], 2).unwrap();
///     qi_tablebase::save_table(&dir, tb.table(m).unwrap()).unwrap();
///     let (material, slots, stats) = file_stats(&Tablebase::file_path(&dir, m), &rules).unwrap();
///     assert_eq!((material, slots), (m, tb.table(m).unwrap().len()));
///     assert_eq!(stats, tb.table(m).unwrap().stats());
///     // Its keyed form (version 1) is loaded.
///     qi_tablebase::save_table(&dir, &tb.table(m).unwrap().keyed()).unwrap();
///     let (_, _, keyed) = file_stats(&Tablebase::file_path(&dir, m), &rules).unwrap();
///     assert_eq!(keyed, stats);
/// }
/// std::fs::remove_dir_all(&dir).unwrap();
/// ```
pub fn file_stats(path: &Path, rules: &Rules) -> Result<(Material, u64, Stats), FormatError> {
    let mut stats = Stats::default();
    let mut slots = 0u64;
    let mut unvalued = None;
    let read = for_each_block::<FiveTigers>(path, rules, |index, layout, k, values, dist| {
        let Slots::Dense(dense) = index else {
            return;
        };
        slots = layout.count;
        let first = k * layout.block_slots;
        let at = |c: u64| value_at(values, dist, layout.width, (c - first) as usize);
        let cells = first..first + layout.slots_in(k);
        let unvalued_here = count_cells(&dense.index, cells, at, &mut stats);
        // Under the ban a board slot's first cell (its state without
        // bans) always holds a state; without bans a board slot can hold
        // none.
        if let Some(c) = unvalued_here.filter(|_| dense.has_bans()) {
            unvalued.get_or_insert(c);
        }
    })?;
    let Some(material) = read else {
        let table = load_table::<FiveTigers>(path, rules)?;
        return Ok((table.material(), table.len(), table.stats()));
    };
    if let Some(cell) = unvalued {
        return Err(FormatError::file::<FiveTigers>(FileError::BadValue(cell)));
    }
    Ok((material, slots, stats))
}
