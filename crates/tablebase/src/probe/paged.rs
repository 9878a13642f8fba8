//! [`Paged`]: a blocked table file probed where it lies, a block at a time
//! (positioned reads, no `mmap`), the blocks read kept in a small cache;
//! what a [`LazyTablebase`](crate::LazyTablebase) makes of a file too
//! large to load whole ([`Paging`]).

use std::collections::{HashMap, VecDeque};
use std::fs::File;
use std::io::{Read, Seek, SeekFrom};
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex, OnceLock};

use crate::format::blocked::{self, Layout};
use crate::format::{FormatError, OpenBlocked};
use crate::game::TableGame;
use crate::threads::lock;
use crate::value::{value_at, Wdl};

/// How a [`LazyTablebase`](crate::LazyTablebase) reads a blocked file:
/// whole when it is small, else a block at a time.
///
/// A Five Tigers table of the retrograde generator is a blocked file;
/// with `load_whole_up_to: 0` it is probed from disk:
///
/// ```
/// use qi_games::five_tigers::{FiveTigers, Rules};
/// use qi_tablebase::five_tigers::{LazyTablebase, Material, Tablebase};
/// use qi_tablebase::Paging;
///
/// let rules = Rules::shandong_shuttle();
/// let m: Material = "2v1".parse()?;
/// let dir = tempfile::tempdir()?;
/// let tb = Tablebase::generate(&rules, &[m], 1)?;
/// tb.save_dir(dir.path())?;
/// let paging = Paging { load_whole_up_to: 0, cache_bytes: 64 << 10 };
/// let lazy = LazyTablebase::open_paged(dir.path(), &rules, paging)?;
/// let (pos, value, distance) = tb.table(m).unwrap().entries().next().unwrap();
/// assert_eq!(lazy.probe(&pos)?, Some((value, distance)));
/// assert_eq!(lazy.paged(), 1);
/// assert!(lazy.table(m).is_none(), "not in memory");
/// // By default so small a file is read whole.
/// let lazy = LazyTablebase::open(dir.path(), &rules)?;
/// assert_eq!(lazy.probe(&pos)?, Some((value, distance)));
/// assert_eq!(lazy.paged(), 0);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Paging {
    /// A blocked file of at most this many bytes is loaded whole at its
    /// first probe; a larger one is probed from disk.
    pub load_whole_up_to: u64,
    /// The most bytes of blocks each paged table keeps in memory.
    pub cache_bytes: u64,
}

impl Default for Paging {
    /// Whole up to 64 MiB (every Five Tigers table to `4v4` and `5v3`),
    /// 32 MiB of cache per larger table.
    fn default() -> Paging {
        Paging {
            load_whole_up_to: 64 << 20,
            cache_bytes: 32 << 20,
        }
    }
}

/// One block's bytes as read and checked.
struct Block {
    values: Vec<u8>,
    distances: Vec<u8>,
}

/// The blocks read, first in first out.
struct Cache {
    blocks: HashMap<u64, Arc<Block>>,
    order: VecDeque<u64>,
    bytes: u64,
}

/// A blocked table file of game `G` opened for probing (see the module
/// docs). A block that fails its checksum makes the whole table absent
/// from then on ([`failure`](Paged::failure)).
pub(crate) struct Paged<G: TableGame> {
    material: G::Material,
    index: G::Index,
    layout: Layout,
    file: Mutex<File>,
    cache: Mutex<Cache>,
    cache_bytes: u64,
    failed: OnceLock<Arc<FormatError>>,
    path: PathBuf,
}

impl<G: TableGame> std::fmt::Debug for Paged<G> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Paged")
            .field("material", &self.material)
            .field("layout", &self.layout)
            .finish_non_exhaustive()
    }
}

impl<G: TableGame> Paged<G> {
    /// The blocked file at `path`, opened (its header and size checked),
    /// its blocks read when probed.
    pub(crate) fn new(opened: OpenBlocked<G>, path: &Path, paging: &Paging) -> Paged<G> {
        Paged {
            material: opened.material,
            index: opened.index,
            layout: opened.layout,
            file: Mutex::new(opened.file),
            cache: Mutex::new(Cache {
                blocks: HashMap::new(),
                order: VecDeque::new(),
                bytes: 0,
            }),
            cache_bytes: paging.cache_bytes,
            failed: OnceLock::new(),
            path: path.to_path_buf(),
        }
    }

    /// Why a block was refused, if one was.
    pub(crate) fn failure(&self) -> Option<Arc<FormatError>> {
        self.failed.get().cloned()
    }

    /// The value and distance of `pos`, if it has a slot here and every
    /// block read so far was sound.
    pub(crate) fn get(&self, pos: &G) -> Option<(Wdl, u32)> {
        if self.failed.get().is_some() {
            return None;
        }
        let slot = G::slot(self.material, &self.index, pos)?;
        if slot >= self.layout.count {
            return None;
        }
        let k = slot / self.layout.block_slots;
        let block = self.block(k)?;
        let i = (slot % self.layout.block_slots) as usize;
        value_at(&block.values, &block.distances, self.layout.width, i)
    }

    /// Block `k`, from the cache or read and checked.
    fn block(&self, k: u64) -> Option<Arc<Block>> {
        if let Some(b) = lock(&self.cache).blocks.get(&k) {
            return Some(Arc::clone(b));
        }
        match self.read_block(k) {
            Ok(block) => {
                let block = Arc::new(block);
                let mut cache = lock(&self.cache);
                if !cache.blocks.contains_key(&k) {
                    let size = self.layout.block_bytes(k);
                    while cache.bytes + size > self.cache_bytes {
                        let Some(old) = cache.order.pop_front() else {
                            break;
                        };
                        if cache.blocks.remove(&old).is_some() {
                            cache.bytes -= self.layout.block_bytes(old);
                        }
                    }
                    cache.blocks.insert(k, Arc::clone(&block));
                    cache.order.push_back(k);
                    cache.bytes += size;
                }
                Some(block)
            }
            Err(e) => {
                let _ = self.failed.set(Arc::new(e));
                None
            }
        }
    }

    fn read_block(&self, k: u64) -> Result<Block, FormatError> {
        let io = |source| FormatError::io(&self.path, source);
        let mut buf = vec![0u8; self.layout.block_bytes(k) as usize];
        {
            let mut file = lock(&self.file);
            file.seek(SeekFrom::Start(self.layout.block_offset(k)))
                .map_err(io)?;
            file.read_exact(&mut buf).map_err(io)?;
        }
        let (values, distances) =
            blocked::check_block(&self.layout, k, &buf).map_err(FormatError::file::<G>)?;
        Ok(Block {
            values: values.to_vec(),
            distances: distances.to_vec(),
        })
    }
}
