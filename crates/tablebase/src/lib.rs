//! # qi-tablebase: endgame tablebases for Jungle (斗兽棋)
//!
//! Every position of a small material (which animals each side has; see
//! [`Material`]) solved by retrograde analysis under a preset's board
//! rules: win, draw or loss for the side to move, and the distance in plies
//! to the end of the game. `docs/tablebases.md` gives the counting
//! convention, the file format and measured figures.
//!
//! * [`Material`] indexes its positions: a bijection between
//!   `0..index_count()` and the placements of its animals on distinct
//!   squares where each may stand (a Rat anywhere but the dens, the others
//!   on land but not the dens), times the side to move, taken one of each
//!   left-right mirror pair (every preset's board is the same in a
//!   mirror, so both have one value); `position_count()` counts them all.
//! * [`generate_table`] solves one material given the tables of the
//!   materials its captures lead to; [`Tablebase::generate`] solves a set of
//!   materials and everything they depend on, on several threads.
//! * [`Table::to_bytes`] / [`Table::from_bytes`] are the file format
//!   (header with magic, version, game, rules, material, count and
//!   checksum; 2 bits a value; a separate distance table);
//!   [`Tablebase::save_dir`] and [`Tablebase::load_dir`] keep a directory
//!   of tables.
//! * [`Tablebase::probe`] answers for a position; [`LazyTablebase`] answers
//!   from a directory, reading each material's file when first needed
//!   (what a search shares between its threads).
//!
//! Only the board rules are in the tables (the moves and
//! [`Position::outcome`]); the no-capture draw,
//! repetition and anti-chase rules of the game record are not.
//!
//! ```
//! use qi_jungle::{Jungle, Rules};
//! use qi_tablebase::{Material, Tablebase, Wdl};
//!
//! let rules = Rules::standard();
//! let tb = Tablebase::generate(&rules, &["LvC".parse::<Material>().unwrap()], 2).unwrap();
//! // Red Lion on d8, beside the Blue den: it enters at once.
//! let pos = Jungle::from_text("7/3L3/7/7/7/7/7/7/c6 w", &rules).unwrap();
//! assert_eq!(tb.probe(&pos).unwrap(), Some((Wdl::Win, 1)));
//! ```
#![deny(missing_docs)]
#![forbid(unsafe_code)]

mod container;
mod dir;
pub mod five_tigers;
mod format;
mod generate;
mod lazy;
mod material;
mod table;
mod write;

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use qi_core::Position;
use qi_jungle::{Jungle, Rules};
use thiserror::Error;

pub use container::FileError;
pub use dir::{generate_dir, plan_dir, DirPlan, GenerateDirError};
pub use format::{same_board_rules, FormatError, EXTENSION, FORMAT_VERSION, GAME, MAGIC};
pub use generate::{closure, generate_table, generation_memory, GenerateError};
pub use lazy::LazyTablebase;
pub use material::{Material, MaterialError};
pub use table::{Stats, Table, Wdl};
pub use write::{remove_stale_temporaries, WriteLock, LOCK_FILE};

/// Why a position could not be probed.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum ProbeError {
    /// The position is played under other board rules than the tables.
    #[error("the position's rules {position} are not the tables' rules {tables}")]
    RulesMismatch {
        /// The tables' rules.
        tables: Rules,
        /// The position's rules.
        position: Rules,
    },
}

/// What a generation has to do ([`Tablebase::plan`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Plan {
    /// The materials to solve (the closure under captures of those asked
    /// for, less the loaded ones), fewest animals first.
    pub todo: Vec<Material>,
    /// How many materials of the closure are loaded already.
    pub present: usize,
    /// The bound of the working memory of one table in progress, in bytes
    /// ([`generation_memory`] of the largest material to solve).
    pub working_memory_per_table: u64,
    /// The memory of the new tables once finished (1.25 bytes a position).
    pub table_bytes: u64,
}

/// A set of tables under one rule set, generated in memory or loaded from
/// a directory.
#[derive(Clone, Debug)]
pub struct Tablebase {
    rules: Rules,
    tables: BTreeMap<Material, Table>,
}

impl Tablebase {
    /// An empty tablebase for `rules`.
    pub fn new(rules: &Rules) -> Tablebase {
        Tablebase {
            rules: *rules,
            tables: BTreeMap::new(),
        }
    }

    /// The rules.
    pub fn rules(&self) -> &Rules {
        &self.rules
    }

    /// The table of `material`, if loaded.
    pub fn table(&self, material: Material) -> Option<&Table> {
        self.tables.get(&material)
    }

    /// The loaded tables, in material order.
    pub fn tables(&self) -> impl Iterator<Item = &Table> {
        self.tables.values()
    }

    /// Adds a table (replacing one of the same material), if it was made
    /// under the same board rules; otherwise gives it back.
    pub fn insert(&mut self, table: Table) -> Result<(), Box<Table>> {
        if same_board_rules(&self.rules, &table.rules) {
            self.insert_table(table);
            Ok(())
        } else {
            Err(Box::new(table))
        }
    }

    pub(crate) fn insert_table(&mut self, table: Table) {
        self.tables.insert(table.material, table);
    }

    /// Solves `materials` and every smaller material their captures lead to
    /// under `rules`, on `threads` threads (the materials of one size are
    /// shared out among them; when there are fewer materials than threads,
    /// each material's forward pass is cut among the rest).
    pub fn generate(
        rules: &Rules,
        materials: &[Material],
        threads: usize,
    ) -> Result<Tablebase, GenerateError> {
        let mut tb = Tablebase::new(rules);
        tb.extend(materials, threads, &|_| {})?;
        Ok(tb)
    }

    /// Solves those of `materials` (and of their sub-materials) that are not
    /// loaded yet, calling `done` with each new table as it is finished.
    pub fn extend(
        &mut self,
        materials: &[Material],
        threads: usize,
        done: &(dyn Fn(&Table) + Sync),
    ) -> Result<(), GenerateError> {
        generate::generate_into(self, materials, threads, done)
    }

    /// The path of the file of `material` in `dir`: `dir/LCvE.qtb`.
    pub fn file_path(dir: &Path, material: Material) -> PathBuf {
        dir.join(format!("{material}.{EXTENSION}"))
    }

    /// Writes every table to `dir` (created if missing), one file per
    /// material.
    pub fn save_dir(&self, dir: &Path) -> Result<(), FormatError> {
        std::fs::create_dir_all(dir).map_err(|source| FormatError::Io {
            path: dir.display().to_string(),
            source,
        })?;
        for table in self.tables.values() {
            save_table(dir, table)?;
        }
        Ok(())
    }

    /// Loads every `*.qtb` file of `dir`, refusing the whole directory if a
    /// file is corrupt, holds another material than its name says or was
    /// made under other board rules.
    pub fn load_dir(dir: &Path, rules: &Rules) -> Result<Tablebase, FormatError> {
        let io = |source| FormatError::Io {
            path: dir.display().to_string(),
            source,
        };
        let mut tb = Tablebase::new(rules);
        let mut paths: Vec<PathBuf> = std::fs::read_dir(dir)
            .map_err(io)?
            .map(|e| e.map(|e| e.path()))
            .collect::<Result<_, _>>()
            .map_err(io)?;
        paths.sort();
        for path in paths {
            if path.extension().and_then(|e| e.to_str()) != Some(EXTENSION) {
                continue;
            }
            let table = load_table(&path, rules)?;
            tb.insert_table(table);
        }
        Ok(tb)
    }

    /// Loads the files of `materials` present in `dir` (a missing file is
    /// skipped; a corrupt one, one holding another material or made under
    /// other board rules is refused): what an interrupted generation
    /// resumes from.
    pub fn load_present(
        dir: &Path,
        rules: &Rules,
        materials: &[Material],
    ) -> Result<Tablebase, FormatError> {
        let mut tb = Tablebase::new(rules);
        for &m in materials {
            let path = Tablebase::file_path(dir, m);
            if path.exists() {
                tb.insert_table(load_table(&path, rules)?);
            }
        }
        Ok(tb)
    }

    /// What generating `materials` on top of the loaded tables takes: the
    /// materials to solve and the memory bound.
    pub fn plan(&self, materials: &[Material]) -> Plan {
        let all = closure(materials);
        let todo: Vec<Material> = all
            .iter()
            .copied()
            .filter(|m| self.table(*m).is_none())
            .collect();
        Plan {
            present: all.len() - todo.len(),
            working_memory_per_table: todo
                .iter()
                .map(|&m| generation_memory(m))
                .max()
                .unwrap_or(0),
            table_bytes: todo.iter().map(|m| m.index_count() * 5 / 4).sum(),
            todo,
        }
    }

    /// The value and distance of `pos` for its side to move: `None` when its
    /// material is not loaded. A position whose game is over is answered
    /// from [`Position::outcome`] with distance 0, table or not. The
    /// counters of the position (no-capture plies) play no part.
    pub fn probe(&self, pos: &Jungle) -> Result<Option<(Wdl, u32)>, ProbeError> {
        if let Some(over) = probe_without_table(&self.rules, pos)? {
            return Ok(Some(over));
        }
        let Some(material) = Material::of(pos) else {
            return Ok(None);
        };
        Ok(self
            .tables
            .get(&material)
            .and_then(|t| material.index_of(pos).and_then(|i| t.get(i))))
    }

    /// Per loaded material, its statistics.
    pub fn stats(&self) -> Vec<(Material, Stats)> {
        self.tables
            .values()
            .map(|t| (t.material, t.stats()))
            .collect()
    }
}

/// What every probe settles before reading a table: a position under
/// other board rules than the tables' is an error, a finished game's value
/// is read from [`Position::outcome`] at distance 0; `None` when a table
/// has to answer.
pub(crate) fn probe_without_table(
    tables: &Rules,
    pos: &Jungle,
) -> Result<Option<(Wdl, u32)>, ProbeError> {
    if !same_board_rules(tables, pos.rules()) {
        return Err(ProbeError::RulesMismatch {
            tables: *tables,
            position: *pos.rules(),
        });
    }
    Ok(pos
        .outcome()
        .map(|outcome| (generate::terminal_value(pos, outcome), 0)))
}

/// Writes `table` to its file in `dir` (through a temporary file renamed
/// into place, so that a file present is complete).
pub fn save_table(dir: &Path, table: &Table) -> Result<(), FormatError> {
    let path = Tablebase::file_path(dir, table.material);
    crate::write::write_atomically(&path, &table.to_bytes()).map_err(|source| FormatError::Io {
        path: path.display().to_string(),
        source,
    })
}

/// Reads the table file at `path`, refusing it if it is corrupt, holds
/// another material than its name says or was made under other board rules
/// than `rules`.
pub fn load_table(path: &Path, rules: &Rules) -> Result<Table, FormatError> {
    let bytes =
        container::read_file(path, format::GAME, FORMAT_VERSION, 0).map_err(|e| match e {
            container::ReadFileError::Io(source) => FormatError::Io {
                path: path.display().to_string(),
                source,
            },
            container::ReadFileError::File(e) => FormatError::File(e),
        })?;
    let table = Table::from_bytes(&bytes, Some(rules))?;
    let stem = path.file_stem().and_then(|s| s.to_str()).unwrap_or("");
    if stem.parse::<Material>().ok() != Some(table.material) {
        return Err(FormatError::MaterialMismatch {
            path: path.display().to_string(),
            found: table.material,
        });
    }
    Ok(table)
}
