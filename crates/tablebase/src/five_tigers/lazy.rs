//! [`LazyTablebase`]: a directory of Five Tigers tables opened for
//! probing, each material's file read the first time a probe needs it,
//! shared by the threads of a search.
//!
//! As for Jungle (`crate::LazyTablebase`): a search reaches few of the 9
//! materials in one game, and the `3v3` file under a shuttle ban is
//! hundreds of megabytes, so nothing is read up front. Each material is
//! looked up in a map under a read-write lock; the first probe of a
//! material takes the write lock, reads and checks the file, and records a
//! table or its absence, so a missing, corrupt or mismatched file is read
//! once and never again.

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::{Arc, RwLock, RwLockReadGuard};

use qi_five_tigers::{FiveTigers, Rules};

use super::EXTENSION;
use super::{
    load_table, probe_without_table, FormatError, Material, ProbeError, Settled, Table, Tablebase,
};
use crate::table::Wdl;

/// What the directory holds for one material: its table, or why not.
#[derive(Clone, Debug)]
enum Slot {
    Loaded(Arc<Table>),
    Absent(Option<Arc<FormatError>>),
}

/// The Five Tigers tables of one directory under one rule set, loaded per
/// material on first use; `Sync`, so the threads of a search share one
/// (behind an `Arc`).
///
/// ```
/// use qi_five_tigers::{FiveTigers, Rules};
/// use qi_tablebase::five_tigers::{LazyTablebase, Material, Tablebase};
/// use qi_tablebase::Wdl;
///
/// let rules = Rules::shandong_shuttle();
/// let dir = std::env::temp_dir().join(format!("qi-ft-lazy-doc-{}", std::process::id()));
/// Tablebase::generate(&rules, &["3v1".parse::<Material>().unwrap()], 1)
///     .unwrap()
///     .save_dir(&dir)
///     .unwrap();
/// let tables = LazyTablebase::open(&dir, &rules).unwrap();
/// assert_eq!(tables.loaded(), 0);
/// let pos = FiveTigers::from_text_lenient("4O/5/X4/1X3/1X3 x move X:0,O:0 - x -,- 0", &rules).unwrap();
/// assert_eq!(tables.probe(&pos).unwrap(), Some((Wdl::Win, 2)));
/// assert_eq!(tables.loaded(), 1);
/// std::fs::remove_dir_all(&dir).unwrap();
/// ```
#[derive(Debug)]
pub struct LazyTablebase {
    dir: PathBuf,
    rules: Rules,
    max_pieces: u32,
    slots: RwLock<HashMap<Material, Slot>>,
}

impl LazyTablebase {
    /// The tables of `dir` for positions played under `rules` (only the
    /// `shuttle` option must match the files', [`same_board_rules`](super::same_board_rules)). The
    /// directory must be readable; only the names of its files are read
    /// here, to learn the most pieces a side of any material present
    /// ([`max_pieces`](LazyTablebase::max_pieces)).
    pub fn open(dir: &Path, rules: &Rules) -> Result<LazyTablebase, FormatError> {
        let io = |source| FormatError::Io {
            path: dir.display().to_string(),
            source,
        };
        let mut max_pieces = 0;
        for entry in std::fs::read_dir(dir).map_err(io)? {
            let path = entry.map_err(io)?.path();
            if path.extension().and_then(|e| e.to_str()) != Some(EXTENSION) {
                continue;
            }
            let material = path
                .file_stem()
                .and_then(|s| s.to_str())
                .and_then(|s| s.parse::<Material>().ok());
            if let Some(m) = material {
                max_pieces = max_pieces.max(m.first.max(m.second));
            }
        }
        Ok(LazyTablebase {
            dir: dir.to_path_buf(),
            rules: *rules,
            max_pieces,
            slots: RwLock::new(HashMap::new()),
        })
    }

    /// The directory.
    pub fn dir(&self) -> &Path {
        &self.dir
    }

    /// The rules the tables are probed under.
    pub fn rules(&self) -> &Rules {
        &self.rules
    }

    /// The most pieces of one side in any material whose file was in the
    /// directory when it was opened (0 for none, at most 3): a position
    /// with more on a side has no table.
    pub fn max_pieces(&self) -> u32 {
        self.max_pieces
    }

    /// How many tables have been read so far.
    pub fn loaded(&self) -> usize {
        self.read_slots()
            .values()
            .filter(|s| matches!(s, Slot::Loaded(_)))
            .count()
    }

    /// Why the file of `material` was refused, if it was read and refused
    /// (`None` while it was not needed yet, when it loaded, or when it is
    /// missing).
    pub fn refused(&self, material: Material) -> Option<Arc<FormatError>> {
        match self.read_slots().get(&material) {
            Some(Slot::Absent(Some(e))) => Some(Arc::clone(e)),
            _ => None,
        }
    }

    /// The value and distance of `pos` for its side to move, exactly as
    /// [`Tablebase::probe`] gives them with the directory's tables loaded:
    /// `Err` under another shuttle rule; `None` in the placement phase,
    /// with something owed, with no or more than 3 pieces of a side, or
    /// when the material has no usable file (missing, corrupt or made
    /// under another shuttle rule: read once, then taken as absent); a
    /// finished game answers with distance 0.
    pub fn probe(&self, pos: &FiveTigers) -> Result<Option<(Wdl, u32)>, ProbeError> {
        match probe_without_table(&self.rules, pos)? {
            Settled::Answer(answer) => Ok(answer),
            Settled::Table(material) => Ok(self.probe_in_table(pos, material)),
        }
    }

    /// [`probe`](LazyTablebase::probe), but only what a table answers:
    /// `None` for a finished game too (the game itself says how it ended),
    /// so that a caller counting table hits counts only those.
    pub fn probe_table(&self, pos: &FiveTigers) -> Result<Option<(Wdl, u32)>, ProbeError> {
        match probe_without_table(&self.rules, pos)? {
            Settled::Answer(_) => Ok(None),
            Settled::Table(material) => Ok(self.probe_in_table(pos, material)),
        }
    }

    /// The value of `pos` in the table of `material`, if it has one.
    fn probe_in_table(&self, pos: &FiveTigers, material: Material) -> Option<(Wdl, u32)> {
        if material.first.max(material.second) > self.max_pieces {
            return None;
        }
        // The common case under the read lock, without cloning the Arc.
        if let Some(slot) = self.read_slots().get(&material) {
            return match slot {
                Slot::Loaded(t) => t.get(pos),
                Slot::Absent(_) => None,
            };
        }
        self.table(material).and_then(|t| t.get(pos))
    }

    /// The table of `material`, read from its file on first use.
    pub fn table(&self, material: Material) -> Option<Arc<Table>> {
        if let Some(slot) = self.read_slots().get(&material) {
            return match slot {
                Slot::Loaded(t) => Some(Arc::clone(t)),
                Slot::Absent(_) => None,
            };
        }
        let mut slots = self.slots.write().unwrap_or_else(|e| e.into_inner());
        // Another thread may have read it while this one waited for the
        // lock: the file is read once.
        let slot = slots.entry(material).or_insert_with(|| {
            let path = Tablebase::file_path(&self.dir, material);
            if !path.exists() {
                return Slot::Absent(None);
            }
            match load_table(&path, &self.rules) {
                Ok(table) => Slot::Loaded(Arc::new(table)),
                Err(e) => Slot::Absent(Some(Arc::new(e))),
            }
        });
        match slot {
            Slot::Loaded(t) => Some(Arc::clone(t)),
            Slot::Absent(_) => None,
        }
    }

    fn read_slots(&self) -> RwLockReadGuard<'_, HashMap<Material, Slot>> {
        // A thread that panicked while loading left either no entry or a
        // whole one: the map is still sound.
        self.slots.read().unwrap_or_else(|e| e.into_inner())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn temp_dir(name: &str) -> PathBuf {
        let dir = std::env::temp_dir().join(format!("qi-ft-lazy-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        dir
    }

    #[test]
    fn agrees_with_the_tables_in_memory_on_every_state_and_loads_once() {
        for rules in [Rules::shandong_shuttle(), Rules::shandong()] {
            let dir = temp_dir(&format!("agree-{:?}", rules.shuttle));
            let materials: Vec<Material> =
                ["2v1", "1v2"].iter().map(|m| m.parse().unwrap()).collect();
            let tb = Tablebase::generate(&rules, &materials, 2).unwrap();
            tb.save_dir(&dir).unwrap();
            let lazy = Arc::new(LazyTablebase::open(&dir, &rules).unwrap());
            assert_eq!(lazy.loaded(), 0, "nothing is read at open");
            assert_eq!(lazy.max_pieces(), 2);
            let table = tb.table("2v1".parse().unwrap()).unwrap();
            let positions: Vec<FiveTigers> = table.entries().map(|(p, _, _)| p).collect();
            assert!(!positions.is_empty());
            let positions = Arc::new(positions);
            let threads: Vec<_> = (0..2)
                .map(|t| {
                    let (lazy, tb, positions) =
                        (Arc::clone(&lazy), tb.clone(), Arc::clone(&positions));
                    std::thread::spawn(move || {
                        for pos in positions.iter().skip(t).step_by(2) {
                            let expected = tb.probe(pos).unwrap();
                            assert!(expected.is_some());
                            assert_eq!(lazy.probe(pos).unwrap(), expected);
                        }
                    })
                })
                .collect();
            for t in threads {
                t.join().unwrap();
            }
            assert_eq!(lazy.loaded(), 1, "2v1 only: its positions never reach 1v2");
            // The placement phase and a material without a file: no answer.
            assert_eq!(lazy.probe(&FiveTigers::new(rules)).unwrap(), None);
            let two_each =
                FiveTigers::from_text_lenient("5/5/X1O2/5/X1O2 x move X:0,O:0 - x -,- 0", &rules)
                    .unwrap();
            assert_eq!(lazy.probe(&two_each).unwrap(), None);
            std::fs::remove_dir_all(&dir).unwrap();
        }
    }

    #[test]
    fn a_bad_file_is_refused_once_and_a_rules_mismatch_is_an_error() {
        let rules = Rules::shandong_shuttle();
        let dir = temp_dir("bad");
        let m: Material = "3v1".parse().unwrap();
        Tablebase::generate(&rules, &[m], 1)
            .unwrap()
            .save_dir(&dir)
            .unwrap();
        let path = Tablebase::file_path(&dir, m);
        let mut bytes = std::fs::read(&path).unwrap();
        let last = bytes.len() - 1;
        bytes[last] ^= 0x55;
        std::fs::write(&path, bytes).unwrap();
        let lazy = LazyTablebase::open(&dir, &rules).unwrap();
        let text = "4O/5/X4/1X3/1X3 x move X:0,O:0 - x -,- 0";
        let pos = FiveTigers::from_text_lenient(text, &rules).unwrap();
        assert_eq!(lazy.probe(&pos).unwrap(), None);
        assert!(lazy.refused(m).is_some(), "the corrupt file is refused");
        std::fs::remove_file(&path).unwrap();
        assert_eq!(lazy.probe(&pos).unwrap(), None);
        let banned = FiveTigers::from_text_lenient(text, &Rules::shandong()).unwrap();
        assert!(matches!(
            lazy.probe(&banned),
            Err(ProbeError::RulesMismatch { .. })
        ));
        // `ten` shares `shandong`'s tables, not `shandong-shuttle`'s.
        let ten = FiveTigers::from_text_lenient(text, &Rules::ten()).unwrap();
        assert!(lazy.probe(&ten).is_err());
        assert!(LazyTablebase::open(&dir.join("missing"), &rules).is_err());
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
