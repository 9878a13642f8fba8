//! The file of one table, for every game (`docs/tablebases.md`, "File
//! format"). All numbers little-endian:
//!
//! | field | bytes |
//! |---|---|
//! | magic `QITB\r\n\x1a\n` | 8 |
//! | format version (the game's: Jungle 2, Five Tigers 1) | 2 |
//! | game name length, game name (`jungle`, `five-tigers`) | 1 + n |
//! | rules text length, rules text (the rules' display) | 2 + n |
//! | material text length, material text (`LCvE`, `3v2`) | 1 + n |
//! | slot count | 8 |
//! | distance width (1 or 2 bytes) | 1 |
//! | checksum: FNV-1a 64 of every other byte of the file | 8 |
//! | the index: `KEY_BYTES` a slot (none for Jungle, the 8-byte canonical keys for Five Tigers) | count × k |
//! | values, 2 bits a slot, 4 a byte, lowest bits first | ⌈count / 4⌉ |
//! | distances, `width` bytes each | count × width |
//!
//! The header and payload are `container`'s; what the index bytes are is
//! the game's ([`TableGame::index_bytes`], [`TableGame::read_index`]).

use std::io;
use std::path::Path;

use thiserror::Error;

use crate::container::{self, FileError, Header, ReadFileError};
use crate::game::TableGame;
use crate::table::Table;
use crate::tablebase::Tablebase;

/// A boxed error of a game's own (a rules or material text that does not
/// parse).
pub type Source = Box<dyn std::error::Error + Send + Sync>;

/// Why a table file was refused, whatever the game.
#[derive(Debug, Error)]
pub enum FormatError {
    /// Reading or writing the file failed.
    #[error("I/O error on {path}: {source}")]
    Io {
        /// The file.
        path: String,
        /// The error.
        source: io::Error,
    },
    /// The part every table file shares (magic, version, game, checksum,
    /// values, distances) is wrong.
    #[error("{source} (this build reads {game} tables of format version {version})")]
    File {
        /// The game whose table was expected.
        game: &'static str,
        /// The format version this build reads for it.
        version: u16,
        /// What is wrong.
        source: FileError,
    },
    /// The rules text does not parse.
    #[error("bad rules text {text:?}: {source}")]
    BadRules {
        /// The text.
        text: String,
        /// Why it does not parse.
        source: Source,
    },
    /// The table was generated under other board rules than expected.
    #[error("the table is for rules {found}, expected {expected} ({differs})")]
    RulesMismatch {
        /// The expected rules (their text).
        expected: String,
        /// The file's rules (their text).
        found: String,
        /// What differs ([`TableGame::RULES_DIFFER`]).
        differs: &'static str,
    },
    /// The material text does not parse.
    #[error("bad material in header: {0}")]
    BadMaterial(Source),
    /// The file holds another material than its name says.
    #[error("the file {path} holds the table of {found}")]
    MaterialMismatch {
        /// The file.
        path: String,
        /// The header's material.
        found: String,
    },
    /// The slot count is not the material's (a game whose index is a
    /// formula knows it).
    #[error("{material} has {expected} indices, the header says {found}")]
    CountMismatch {
        /// The material.
        material: String,
        /// Its count.
        expected: u64,
        /// The header's.
        found: u64,
    },
    /// A key that is not the canonical key of a state of the material, or
    /// not above the previous one (a game whose index is stored keys).
    #[error("state {0}: bad key (not canonical, not of the material, or out of order)")]
    BadKey(u64),
}

impl FormatError {
    /// `source` in a file of game `G`.
    pub(crate) fn file<G: TableGame>(source: FileError) -> FormatError {
        FormatError::File {
            game: G::NAME,
            version: G::FORMAT_VERSION,
            source,
        }
    }
}

impl<G: TableGame> Table<G> {
    /// The table as file bytes.
    pub fn to_bytes(&self) -> Vec<u8> {
        let header = Header {
            game: G::NAME,
            version: G::FORMAT_VERSION,
            rules: &self.rules.to_string(),
            material: &self.material.to_string(),
            count: self.len,
            width: self.distances.width(),
        };
        let index = G::index_bytes(&self.index);
        let distances = container::distance_bytes(&self.distances);
        container::write(&header, &[&index, &self.values, &distances])
    }

    /// Reads a table from file bytes, refusing anything not exactly as
    /// written by [`Table::to_bytes`] (see [`FormatError`]). With
    /// `expected` rules, a table of other board rules is refused too.
    pub fn from_bytes(bytes: &[u8], expected: Option<&G::Rules>) -> Result<Table<G>, FormatError> {
        let file = FormatError::file::<G>;
        let (header, mut r) = container::read(bytes, G::NAME, G::FORMAT_VERSION).map_err(file)?;
        let rules: G::Rules = header
            .rules
            .parse()
            .map_err(|source| FormatError::BadRules {
                text: header.rules.to_string(),
                source: Box::new(source),
            })?;
        if let Some(expected) = expected {
            if !G::same_board_rules(expected, &rules) {
                return Err(FormatError::RulesMismatch {
                    expected: expected.to_string(),
                    found: rules.to_string(),
                    differs: G::RULES_DIFFER,
                });
            }
        }
        let material: G::Material = header
            .material
            .parse()
            .map_err(|e| FormatError::BadMaterial(Box::new(e)))?;
        let n = usize::try_from(header.count).map_err(|_| file(FileError::Truncated))?;
        let key_bytes = n
            .checked_mul(G::KEY_BYTES as usize)
            .ok_or(file(FileError::Truncated))?;
        let keys = r.take(key_bytes).map_err(file)?;
        let index = G::read_index(material, &rules, header.count, keys)?;
        let values = r.values(n).map_err(file)?;
        let distances = r.distances(n, header.width).map_err(file)?;
        r.finish().map_err(file)?;
        Ok(Table {
            material,
            rules,
            index,
            values,
            distances,
            len: header.count,
        })
    }
}

/// Writes `table` to its file in `dir` (through a temporary file renamed
/// into place, so that a file present is complete).
pub fn save_table<G: TableGame>(dir: &Path, table: &Table<G>) -> Result<(), FormatError> {
    let path = Tablebase::<G>::file_path(dir, table.material);
    crate::write::write_atomically(&path, &table.to_bytes()).map_err(|source| FormatError::Io {
        path: path.display().to_string(),
        source,
    })
}

/// Reads the table file at `path`, refusing it if it is corrupt, holds
/// another material than its name says or was made under other board rules
/// than `rules`.
pub fn load_table<G: TableGame>(path: &Path, rules: &G::Rules) -> Result<Table<G>, FormatError> {
    let bytes = container::read_file(path, G::NAME, G::FORMAT_VERSION, G::KEY_BYTES).map_err(
        |e| match e {
            ReadFileError::Io(source) => FormatError::Io {
                path: path.display().to_string(),
                source,
            },
            ReadFileError::File(e) => FormatError::file::<G>(e),
        },
    )?;
    let table = Table::<G>::from_bytes(&bytes, Some(rules))?;
    let stem = path.file_stem().and_then(|s| s.to_str()).unwrap_or("");
    if stem.parse::<G::Material>().ok() != Some(table.material) {
        return Err(FormatError::MaterialMismatch {
            path: path.display().to_string(),
            found: table.material.to_string(),
        });
    }
    Ok(table)
}
