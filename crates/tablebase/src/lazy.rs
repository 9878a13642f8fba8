//! [`LazyTablebase`]: a directory of tables opened for probing, each
//! material's file read the first time a probe needs it, shared by the
//! threads of a search.
//!
//! A search probes millions of positions, most of them in a handful of
//! materials, so loading every file of a directory up front (136 MB for all
//! materials up to 3 animals) would be wasted on a game that never reaches
//! most of them. Here each material is looked up in a map under a
//! read-write lock: the read lock is all a probe takes once its table is
//! known, and the first probe of a material takes the write lock, reads
//! and checks the file, and records the result, a table or its absence. A
//! missing, corrupt or mismatched file is remembered as absent, so the
//! search does not try again at every node.

use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};
use std::path::{Path, PathBuf};
use std::sync::{Arc, RwLock};

use qi_core::Side;
use qi_jungle::{Jungle, Rules};

use crate::format::{FormatError, EXTENSION};
use crate::material::Material;
use crate::table::{Table, Wdl};
use crate::{load_table, ProbeError, Tablebase};

/// A hasher for the few bytes of a [`Material`]: the map is looked up at
/// every probe, and the standard SipHash (made to resist chosen keys,
/// which materials are not) took a third of the look-up.
#[derive(Default)]
struct MaterialHasher(u64);

impl Hasher for MaterialHasher {
    fn finish(&self) -> u64 {
        self.0
    }

    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 = (self.0.rotate_left(5) ^ u64::from(b)).wrapping_mul(0x517c_c1b7_2722_0a95);
        }
    }
}

type Slots = HashMap<Material, Slot, BuildHasherDefault<MaterialHasher>>;

/// What the directory holds for one material: its table, or why not
/// (kept so that a bad file is reported once and never read again).
#[derive(Clone, Debug)]
enum Slot {
    Loaded(Arc<Table>),
    Absent(Option<Arc<FormatError>>),
}

/// The tables of one directory under one rule set, loaded per material on
/// first use; `Sync`, so the threads of a search share one (behind an
/// `Arc`).
///
/// ```
/// use qi_jungle::{Jungle, Rules};
/// use qi_tablebase::{LazyTablebase, Material, Tablebase, Wdl};
///
/// let rules = Rules::standard();
/// let dir = std::env::temp_dir().join(format!("qi-lazy-doc-{}", std::process::id()));
/// Tablebase::generate(&rules, &["LvC".parse::<Material>().unwrap()], 1)
///     .unwrap()
///     .save_dir(&dir)
///     .unwrap();
/// let tables = LazyTablebase::open(&dir, &rules).unwrap();
/// assert_eq!(tables.max_animals(), 2);
/// // Red Lion on d8, beside the Blue den: it enters at once.
/// let pos = Jungle::from_text("7/3L3/7/7/7/7/7/7/c6 w", &rules).unwrap();
/// assert_eq!(tables.probe(&pos).unwrap(), Some((Wdl::Win, 1)));
/// assert_eq!(tables.loaded(), 1);
/// // A material without a file: no answer, and not an error.
/// let pos = Jungle::from_text("7/3T3/7/7/7/7/7/7/c6 w", &rules).unwrap();
/// assert_eq!(tables.probe(&pos).unwrap(), None);
/// std::fs::remove_dir_all(&dir).unwrap();
/// ```
#[derive(Debug)]
pub struct LazyTablebase {
    dir: PathBuf,
    rules: Rules,
    max_animals: u32,
    slots: RwLock<Slots>,
}

impl LazyTablebase {
    /// The tables of `dir` for positions played under `rules` (only the
    /// board rules must match the files'). The directory must be readable;
    /// its files are not read yet, only their names, to learn the largest
    /// material present ([`max_animals`](LazyTablebase::max_animals)).
    pub fn open(dir: &Path, rules: &Rules) -> Result<LazyTablebase, FormatError> {
        let io = |source| FormatError::Io {
            path: dir.display().to_string(),
            source,
        };
        let mut max_animals = 0;
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
                max_animals = max_animals.max(m.total());
            }
        }
        Ok(LazyTablebase {
            dir: dir.to_path_buf(),
            rules: *rules,
            max_animals,
            slots: RwLock::new(Slots::default()),
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

    /// The most animals of any material whose file was in the directory
    /// when it was opened: a position with more has no table, which a
    /// caller can tell from a count without looking anything up.
    pub fn max_animals(&self) -> u32 {
        self.max_animals
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

    /// The value and distance of `pos` for its side to move, as
    /// [`Tablebase::probe`] gives them: `None` when its material has no
    /// usable file (missing, corrupt or made under other board rules: such
    /// a file is read once and then taken as absent). A position whose game
    /// is over is answered from [`Position::outcome`](qi_core::Position::outcome) with distance 0. The
    /// counters of the position play no part.
    pub fn probe(&self, pos: &Jungle) -> Result<Option<(Wdl, u32)>, ProbeError> {
        if let Some(over) = crate::probe_without_table(&self.rules, pos)? {
            return Ok(Some(over));
        }
        self.probe_in_table(pos)
    }

    /// [`probe`](LazyTablebase::probe), but only what a table answers:
    /// `None` for a finished game too (the game itself says how it ended),
    /// so that a caller counting table hits counts only those.
    pub fn probe_table(&self, pos: &Jungle) -> Result<Option<(Wdl, u32)>, ProbeError> {
        if crate::probe_without_table(&self.rules, pos)?.is_some() {
            return Ok(None);
        }
        self.probe_in_table(pos)
    }

    /// The table's value of `pos`, a game not over under the tables' rules.
    fn probe_in_table(&self, pos: &Jungle) -> Result<Option<(Wdl, u32)>, ProbeError> {
        if pos.animal_count(Side::First) + pos.animal_count(Side::Second) > self.max_animals {
            return Ok(None);
        }
        let Some(material) = Material::of(pos) else {
            return Ok(None);
        };
        let Some(index) = material.index_of(pos) else {
            return Ok(None);
        };
        // Read under the read lock, without taking a reference to the
        // table: the common case costs a look-up and no atomic count.
        if let Some(slot) = self.read_slots().get(&material) {
            return Ok(match slot {
                Slot::Loaded(t) => t.get(index),
                Slot::Absent(_) => None,
            });
        }
        Ok(self.table(material).and_then(|t| t.get(index)))
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
        // Another thread may have loaded it while this one waited for the
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

    fn read_slots(&self) -> std::sync::RwLockReadGuard<'_, Slots> {
        // A thread that panicked while loading left either no entry or a
        // whole one: the map is still sound.
        self.slots.read().unwrap_or_else(|e| e.into_inner())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn temp_dir(name: &str) -> PathBuf {
        let dir = std::env::temp_dir().join(format!("qi-lazy-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        dir
    }

    #[test]
    fn agrees_with_the_tables_in_memory_and_loads_once() {
        let rules = Rules::standard();
        let dir = temp_dir("agree");
        let materials: Vec<Material> = ["LvC", "RvE"].iter().map(|m| m.parse().unwrap()).collect();
        let tb = Tablebase::generate(&rules, &materials, 1).unwrap();
        tb.save_dir(&dir).unwrap();
        let lazy = Arc::new(LazyTablebase::open(&dir, &rules).unwrap());
        assert_eq!(lazy.loaded(), 0, "nothing is read at open");
        let m: Material = "LvC".parse().unwrap();
        let threads: Vec<_> = (0..2)
            .map(|t| {
                let lazy = Arc::clone(&lazy);
                let tb = tb.clone();
                std::thread::spawn(move || {
                    for i in (t..m.index_count()).step_by(97) {
                        let pos = m.position(i, &rules).unwrap();
                        assert_eq!(lazy.probe(&pos).unwrap(), tb.probe(&pos).unwrap());
                    }
                })
            })
            .collect();
        for t in threads {
            t.join().unwrap();
        }
        assert_eq!(lazy.loaded(), 1);
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn a_bad_file_is_refused_once_and_a_rules_mismatch_is_an_error() {
        let rules = Rules::standard();
        let dir = temp_dir("bad");
        let m: Material = "LvC".parse().unwrap();
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
        let pos = Jungle::from_text("7/3L3/7/7/7/7/7/7/c6 w", &rules).unwrap();
        assert_eq!(lazy.probe(&pos).unwrap(), None);
        assert!(lazy.refused(m).is_some(), "the corrupt file is refused");
        // Repaired on disk, it is still taken as absent: no retry storm.
        std::fs::remove_file(&path).unwrap();
        assert_eq!(lazy.probe(&pos).unwrap(), None);
        let datou = Jungle::from_text("7/3L3/7/7/7/7/7/7/c6 w", &Rules::datou()).unwrap();
        assert!(matches!(
            lazy.probe(&datou),
            Err(ProbeError::RulesMismatch { .. })
        ));
        assert!(LazyTablebase::open(&dir.join("missing"), &rules).is_err());
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
