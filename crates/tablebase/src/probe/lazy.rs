//! [`LazyTablebase`]: a directory of tables of one game opened for
//! probing, each material's file read the first time a probe needs it,
//! shared by the threads of a search.
//!
//! A search probes millions of positions, most of them in a handful of
//! materials, so loading every file of a directory up front (78 MB for all
//! Jungle materials up to 3 animals, hundreds of megabytes for the Five
//! Tigers `3v3` under a shuttle ban) would be wasted on a game that never
//! reaches most of them. Here each material is looked up in a map under a
//! read-write lock: the read lock is all a probe takes once its table is
//! known, and the first probe of a material takes the write lock, reads
//! and checks the file, and records the result, a table or its absence. A
//! missing, corrupt or mismatched file is remembered as absent, so the
//! search does not try again at every node.

use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex, RwLock};

use crate::format::{load_table, open_blocked, FormatError};
use crate::game::table::Table;
use crate::game::{Settled, TableGame};
use crate::probe::paged::{Paged, Paging};
use crate::probe::{settle, table_files, ProbeError, Tablebase};
use crate::threads::lock;
use crate::value::Wdl;

/// A hasher for the few bytes of a material: the map is looked up at
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

type Slots<G> = HashMap<<G as TableGame>::Material, Slot<G>, BuildHasherDefault<MaterialHasher>>;

/// What the directory holds for one material: its table, or why not
/// (kept so that a bad file is reported once and never read again).
#[derive(Debug)]
enum Slot<G: TableGame> {
    Loaded(Arc<Table<G>>),
    /// A large blocked file, probed from disk a block at a time.
    Paged(Arc<Paged<G>>),
    Absent(Option<Arc<FormatError>>),
}

/// The tables of game `G` in one directory under one rule set, loaded per
/// material on first use; `Sync`, so the threads of a search share one
/// (behind an `Arc`).
///
/// ```
/// use qi_games::jungle::{Jungle, Rules};
/// use qi_tablebase::jungle::{LazyTablebase, Material, Tablebase};
/// use qi_tablebase::Wdl;
///
/// let rules = Rules::standard();
/// let dir = std::env::temp_dir().join(format!("qi-lazy-doc-{}", std::process::id()));
/// Tablebase::generate(&rules, &["LvC".parse::<Material>().unwrap()], 1)
///     .unwrap()
///     .save_dir(&dir)
///     .unwrap();
/// let tables = LazyTablebase::open(&dir, &rules).unwrap();
/// assert_eq!(tables.max_animals(), 2);
/// assert_eq!(tables.found(), 1);
/// // Red Lion on d8, beside the Blue den: it enters at once.
/// let pos = Jungle::from_text("7/3L3/7/7/7/7/7/7/c6 w", rules).unwrap();
/// assert_eq!(tables.probe(&pos).unwrap(), Some((Wdl::Win, 1)));
/// assert_eq!(tables.loaded(), 1);
/// // A material without a file: no answer, and not an error.
/// let pos = Jungle::from_text("7/3T3/7/7/7/7/7/7/c6 w", rules).unwrap();
/// assert_eq!(tables.probe(&pos).unwrap(), None);
/// std::fs::remove_dir_all(&dir).unwrap();
/// ```
#[derive(Debug)]
pub struct LazyTablebase<G: TableGame> {
    dir: PathBuf,
    rules: G::Rules,
    max_size: u32,
    found: usize,
    paging: Paging,
    slots: RwLock<Slots<G>>,
    /// Held while a file is read (see `slot`).
    loading: Mutex<()>,
}

impl<G: TableGame> LazyTablebase<G> {
    /// The tables of `dir` for positions played under `rules` (only the
    /// board rules must match the files'). The directory must be readable;
    /// its files are not read yet, only their names, to learn the largest
    /// material present ([`max_size`](LazyTablebase::max_size)).
    ///
    /// ```
    /// # use qi_games::jungle::{Jungle, Rules};
    /// # use qi_tablebase::jungle::{LazyTablebase, Material, Tablebase};
    /// # use qi_tablebase::Wdl;
    /// # let rules = Rules::standard();
    /// # let m: Material = "LvC".parse()?;
    /// # let dir = tempfile::tempdir()?;
    /// # Tablebase::generate(&rules, &[m], 1)?.save_dir(dir.path())?;
    /// // `dir` holds the table of `LvC`.
    /// let lazy = LazyTablebase::open(dir.path(), &rules)?;
    /// assert_eq!((lazy.found(), lazy.loaded()), (1, 0)); // nothing read yet
    /// assert!(LazyTablebase::open(&dir.path().join("missing"), &rules).is_err());
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn open(dir: &Path, rules: &G::Rules) -> Result<LazyTablebase<G>, FormatError> {
        LazyTablebase::open_paged(dir, rules, Paging::default())
    }

    /// [`open`](LazyTablebase::open), reading a blocked file larger than
    /// `paging.load_whole_up_to` a block at a time from disk.
    ///
    /// ```
    /// # use qi_games::jungle::{Jungle, Rules};
    /// # use qi_tablebase::jungle::{LazyTablebase, Material, Tablebase};
    /// # use qi_tablebase::Wdl;
    /// # let rules = Rules::standard();
    /// # let m: Material = "LvC".parse()?;
    /// # let dir = tempfile::tempdir()?;
    /// # Tablebase::generate(&rules, &[m], 1)?.save_dir(dir.path())?;
    /// // `dir` holds the table of `LvC`.
    /// use qi_tablebase::Paging;
    ///
    /// // Jungle's files are read whole: paging is for blocked files.
    /// let paging = Paging { load_whole_up_to: 0, ..Paging::default() };
    /// let lazy = LazyTablebase::open_paged(dir.path(), &rules, paging)?;
    /// assert!(lazy.has_table(m));
    /// assert_eq!(lazy.paged(), 0);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn open_paged(
        dir: &Path,
        rules: &G::Rules,
        paging: Paging,
    ) -> Result<LazyTablebase<G>, FormatError> {
        let materials: Vec<G::Material> = table_files::<G>(dir)?
            .iter()
            .filter_map(|path| path.file_stem()?.to_str()?.parse().ok())
            .collect();
        Ok(LazyTablebase {
            dir: dir.to_path_buf(),
            rules: *rules,
            max_size: materials.iter().map(|&m| G::size(m)).max().unwrap_or(0),
            found: materials.len(),
            paging,
            slots: RwLock::new(Slots::default()),
            loading: Mutex::new(()),
        })
    }

    /// The directory.
    ///
    /// ```
    /// # use qi_games::jungle::{Jungle, Rules};
    /// # use qi_tablebase::jungle::{LazyTablebase, Material, Tablebase};
    /// # use qi_tablebase::Wdl;
    /// # let rules = Rules::standard();
    /// # let m: Material = "LvC".parse()?;
    /// # let dir = tempfile::tempdir()?;
    /// # Tablebase::generate(&rules, &[m], 1)?.save_dir(dir.path())?;
    /// // `dir` holds the table of `LvC`.
    /// let lazy = LazyTablebase::open(dir.path(), &rules)?;
    /// assert_eq!(lazy.dir(), dir.path());
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn dir(&self) -> &Path {
        &self.dir
    }

    /// The rules the tables are probed under.
    ///
    /// ```
    /// # use qi_games::jungle::{Jungle, Rules};
    /// # use qi_tablebase::jungle::{LazyTablebase, Material, Tablebase};
    /// # use qi_tablebase::Wdl;
    /// # let rules = Rules::standard();
    /// # let m: Material = "LvC".parse()?;
    /// # let dir = tempfile::tempdir()?;
    /// # Tablebase::generate(&rules, &[m], 1)?.save_dir(dir.path())?;
    /// // `dir` holds the table of `LvC`.
    /// let lazy = LazyTablebase::open(dir.path(), &rules)?;
    /// assert_eq!(lazy.rules(), &rules);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn rules(&self) -> &G::Rules {
        &self.rules
    }

    /// The largest [`TableGame::size`] of any material whose file was in
    /// the directory when it was opened: a position of a larger size has
    /// no table, which a caller can tell from a count without looking
    /// anything up.
    ///
    /// ```
    /// # use qi_games::jungle::{Jungle, Rules};
    /// # use qi_tablebase::jungle::{LazyTablebase, Material, Tablebase};
    /// # use qi_tablebase::Wdl;
    /// # let rules = Rules::standard();
    /// # let m: Material = "LvC".parse()?;
    /// # let dir = tempfile::tempdir()?;
    /// # Tablebase::generate(&rules, &[m], 1)?.save_dir(dir.path())?;
    /// // `dir` holds the table of `LvC`.
    /// let lazy = LazyTablebase::open(dir.path(), &rules)?;
    /// assert_eq!(lazy.max_size(), 2); // two animals
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn max_size(&self) -> u32 {
        self.max_size
    }

    /// How many table files (named by a material) were in the directory
    /// when it was opened: what an engine reports, as Stockfish's `info
    /// string Found N tablebases`.
    ///
    /// ```
    /// # use qi_games::jungle::{Jungle, Rules};
    /// # use qi_tablebase::jungle::{LazyTablebase, Material, Tablebase};
    /// # use qi_tablebase::Wdl;
    /// # let rules = Rules::standard();
    /// # let m: Material = "LvC".parse()?;
    /// # let dir = tempfile::tempdir()?;
    /// # Tablebase::generate(&rules, &[m], 1)?.save_dir(dir.path())?;
    /// // `dir` holds the table of `LvC`.
    /// std::fs::write(dir.path().join("notes.txt"), "not a table")?;
    /// let lazy = LazyTablebase::open(dir.path(), &rules)?;
    /// assert_eq!(lazy.found(), 1);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn found(&self) -> usize {
        self.found
    }

    /// How many tables have been read (or opened to be paged) so far.
    ///
    /// ```
    /// # use qi_games::jungle::{Jungle, Rules};
    /// # use qi_tablebase::jungle::{LazyTablebase, Material, Tablebase};
    /// # use qi_tablebase::Wdl;
    /// # let rules = Rules::standard();
    /// # let m: Material = "LvC".parse()?;
    /// # let dir = tempfile::tempdir()?;
    /// # Tablebase::generate(&rules, &[m], 1)?.save_dir(dir.path())?;
    /// // `dir` holds the table of `LvC`.
    /// let lazy = LazyTablebase::open(dir.path(), &rules)?;
    /// assert_eq!(lazy.loaded(), 0);
    /// let pos = Jungle::from_text("7/3L3/7/7/7/7/7/7/c6 w", rules)?;
    /// lazy.probe(&pos)?;
    /// assert_eq!(lazy.loaded(), 1);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn loaded(&self) -> usize {
        self.read_slots()
            .values()
            .filter(|s| matches!(s, Slot::Loaded(_) | Slot::Paged(_)))
            .count()
    }

    /// How many tables are probed from disk a block at a time.
    ///
    /// ```
    /// # use qi_games::jungle::{Jungle, Rules};
    /// # use qi_tablebase::jungle::{LazyTablebase, Material, Tablebase};
    /// # use qi_tablebase::Wdl;
    /// # let rules = Rules::standard();
    /// # let m: Material = "LvC".parse()?;
    /// # let dir = tempfile::tempdir()?;
    /// # Tablebase::generate(&rules, &[m], 1)?.save_dir(dir.path())?;
    /// // `dir` holds the table of `LvC`.
    /// let lazy = LazyTablebase::open(dir.path(), &rules)?;
    /// assert!(lazy.table(m).is_some());
    /// assert_eq!(lazy.paged(), 0, "a Jungle table is read whole");
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn paged(&self) -> usize {
        self.read_slots()
            .values()
            .filter(|s| matches!(s, Slot::Paged(_)))
            .count()
    }

    /// Whether `material` has a usable table (reading its file if not read
    /// yet): a table paged from disk counts until a block of it fails.
    ///
    /// ```
    /// # use qi_games::jungle::{Jungle, Rules};
    /// # use qi_tablebase::jungle::{LazyTablebase, Material, Tablebase};
    /// # use qi_tablebase::Wdl;
    /// # let rules = Rules::standard();
    /// # let m: Material = "LvC".parse()?;
    /// # let dir = tempfile::tempdir()?;
    /// # Tablebase::generate(&rules, &[m], 1)?.save_dir(dir.path())?;
    /// // `dir` holds the table of `LvC`.
    /// let lazy = LazyTablebase::open(dir.path(), &rules)?;
    /// assert!(lazy.has_table(m));
    /// assert!(!lazy.has_table("LvE".parse()?));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn has_table(&self, material: G::Material) -> bool {
        self.slot(material);
        match self.read_slots().get(&material) {
            Some(Slot::Loaded(_)) => true,
            Some(Slot::Paged(p)) => p.failure().is_none(),
            _ => false,
        }
    }

    /// Why the file of `material` was refused, if it was read and refused
    /// (`None` while it was not needed yet, when it loaded, or when it is
    /// missing).
    ///
    /// ```
    /// # use qi_games::jungle::{Jungle, Rules};
    /// # use qi_tablebase::jungle::{LazyTablebase, Material, Tablebase};
    /// # use qi_tablebase::Wdl;
    /// # let rules = Rules::standard();
    /// # let m: Material = "LvC".parse()?;
    /// # let dir = tempfile::tempdir()?;
    /// # Tablebase::generate(&rules, &[m], 1)?.save_dir(dir.path())?;
    /// // `dir` holds the table of `LvC`.
    /// // A damaged file: refused once, then taken as absent.
    /// let path = Tablebase::file_path(dir.path(), m);
    /// let mut bytes = std::fs::read(&path)?;
    /// let last = bytes.len() - 1;
    /// bytes[last] ^= 1;
    /// std::fs::write(&path, bytes)?;
    /// let lazy = LazyTablebase::open(dir.path(), &rules)?;
    /// assert!(lazy.refused(m).is_none(), "not read yet");
    /// assert!(!lazy.has_table(m));
    /// assert!(lazy.refused(m).is_some());
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn refused(&self, material: G::Material) -> Option<Arc<FormatError>> {
        match self.read_slots().get(&material) {
            Some(Slot::Absent(Some(e))) => Some(Arc::clone(e)),
            Some(Slot::Paged(p)) => p.failure(),
            _ => None,
        }
    }

    /// The value and distance of `pos` for its side to move, exactly as
    /// [`Tablebase::probe`] gives them with the directory's tables loaded:
    /// `Err` under other board rules; `None` when no table covers it or its
    /// material has no usable file (missing, corrupt or made under other
    /// board rules: such a file is read once and then taken as absent). A
    /// position whose game is over is answered with distance 0. The
    /// counters of the game record play no part.
    ///
    /// ```
    /// # use qi_games::jungle::{Jungle, Rules};
    /// # use qi_tablebase::jungle::{LazyTablebase, Material, Tablebase};
    /// # use qi_tablebase::Wdl;
    /// # let rules = Rules::standard();
    /// # let m: Material = "LvC".parse()?;
    /// # let dir = tempfile::tempdir()?;
    /// # Tablebase::generate(&rules, &[m], 1)?.save_dir(dir.path())?;
    /// // `dir` holds the table of `LvC`.
    /// let lazy = LazyTablebase::open(dir.path(), &rules)?;
    /// let pos = Jungle::from_text("7/3L3/7/7/7/7/7/7/c6 w", rules)?;
    /// assert_eq!(lazy.probe(&pos)?, Some((Wdl::Win, 1)));
    /// // The game is over (the Lion is in the den): distance 0, no table read.
    /// let over = Jungle::from_text("3L3/7/7/7/7/7/7/7/c6 b", rules)?;
    /// assert_eq!(lazy.probe(&over)?, Some((Wdl::Loss, 0)));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn probe(&self, pos: &G) -> Result<Option<(Wdl, u32)>, ProbeError> {
        Ok(match settle(&self.rules, pos)? {
            Settled::Answer(answer) => answer,
            Settled::Table(material) => self.probe_in_table(pos, material),
        })
    }

    /// [`probe`](LazyTablebase::probe), but only what a table answers:
    /// `None` for a finished game too (the game itself says how it ended),
    /// so that a caller counting table hits counts only those.
    ///
    /// ```
    /// # use qi_games::jungle::{Jungle, Rules};
    /// # use qi_tablebase::jungle::{LazyTablebase, Material, Tablebase};
    /// # use qi_tablebase::Wdl;
    /// # let rules = Rules::standard();
    /// # let m: Material = "LvC".parse()?;
    /// # let dir = tempfile::tempdir()?;
    /// # Tablebase::generate(&rules, &[m], 1)?.save_dir(dir.path())?;
    /// // `dir` holds the table of `LvC`.
    /// let lazy = LazyTablebase::open(dir.path(), &rules)?;
    /// let over = Jungle::from_text("3L3/7/7/7/7/7/7/7/c6 b", rules)?;
    /// assert_eq!(lazy.probe_table(&over)?, None);
    /// let pos = Jungle::from_text("7/3L3/7/7/7/7/7/7/c6 w", rules)?;
    /// assert_eq!(lazy.probe_table(&pos)?, Some((Wdl::Win, 1)));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn probe_table(&self, pos: &G) -> Result<Option<(Wdl, u32)>, ProbeError> {
        Ok(match settle(&self.rules, pos)? {
            Settled::Answer(_) => None,
            Settled::Table(material) => self.probe_in_table(pos, material),
        })
    }

    /// The value of `pos` in the table of `material`, if it has one.
    fn probe_in_table(&self, pos: &G, material: G::Material) -> Option<(Wdl, u32)> {
        if G::size(material) > self.max_size {
            return None;
        }
        // Read under the read lock, without taking a reference to the
        // table: the common case costs a look-up and no atomic count.
        if let Some(slot) = self.read_slots().get(&material) {
            return match slot {
                Slot::Loaded(t) => t.get(pos),
                Slot::Paged(p) => p.get(pos),
                Slot::Absent(_) => None,
            };
        }
        // Read or opened now: the look-up above answers the second time.
        self.slot(material);
        self.probe_in_table(pos, material)
    }

    /// The table of `material` in memory, read from its file on first use;
    /// `None` too for a table probed from disk block by block (see
    /// [`has_table`](LazyTablebase::has_table)).
    ///
    /// ```
    /// # use qi_games::jungle::{Jungle, Rules};
    /// # use qi_tablebase::jungle::{LazyTablebase, Material, Tablebase};
    /// # use qi_tablebase::Wdl;
    /// # let rules = Rules::standard();
    /// # let m: Material = "LvC".parse()?;
    /// # let dir = tempfile::tempdir()?;
    /// # Tablebase::generate(&rules, &[m], 1)?.save_dir(dir.path())?;
    /// // `dir` holds the table of `LvC`.
    /// let lazy = LazyTablebase::open(dir.path(), &rules)?;
    /// let table = lazy.table(m).unwrap();
    /// assert_eq!(table.material(), m);
    /// assert!(lazy.table("LvE".parse()?).is_none());
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn table(&self, material: G::Material) -> Option<Arc<Table<G>>> {
        self.slot(material);
        match self.read_slots().get(&material) {
            Some(Slot::Loaded(t)) => Some(Arc::clone(t)),
            _ => None,
        }
    }

    /// Reads or opens the file of `material` if no thread did yet.
    ///
    /// The file is read holding only `loading`, not the map's lock: a big
    /// keyed file takes seconds to read (a 1.9 GB Five Tigers table, 32 s),
    /// and under the map's write lock every probe of every other table
    /// would wait that long. Loads are one at a time (two big tables read
    /// at once could together exceed the memory either fits in), and the
    /// map's write lock is held only to insert the finished slot.
    fn slot(&self, material: G::Material) {
        if self.read_slots().contains_key(&material) {
            return;
        }
        let _loading = lock(&self.loading);
        // Another thread may have loaded it while this one waited for the
        // lock: the file is read once.
        if self.read_slots().contains_key(&material) {
            return;
        }
        let slot = self.read_slot(material);
        self.slots
            .write()
            .unwrap_or_else(|e| e.into_inner())
            .insert(material, slot);
    }

    /// The slot of `material` as its file makes it.
    fn read_slot(&self, material: G::Material) -> Slot<G> {
        let path = Tablebase::<G>::file_path(&self.dir, material);
        let Ok(meta) = std::fs::metadata(&path) else {
            return Slot::Absent(None);
        };
        let large = meta.is_file() && meta.len() > self.paging.load_whole_up_to;
        let blocked = if large {
            open_blocked::<G>(&path, &self.rules)
        } else {
            Ok(None)
        };
        let result = blocked.and_then(|blocked| match blocked {
            Some(b) => Ok(Slot::Paged(Arc::new(Paged::new(b, &path, &self.paging)))),
            None => load_table(&path, &self.rules).map(|t| Slot::Loaded(Arc::new(t))),
        });
        result.unwrap_or_else(|e| Slot::Absent(Some(Arc::new(e))))
    }

    fn read_slots(&self) -> std::sync::RwLockReadGuard<'_, Slots<G>> {
        // A thread that panicked while loading left either no entry or a
        // whole one: the map is still sound.
        self.slots.read().unwrap_or_else(|e| e.into_inner())
    }
}

#[cfg(test)]
mod tests;
