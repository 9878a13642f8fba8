//! The file format of one table (`docs/tablebases.md`, "File format").
//!
//! All numbers little-endian:
//!
//! | field | bytes |
//! |---|---|
//! | magic `QITB\r\n\x1a\n` | 8 |
//! | format version (2) | 2 |
//! | game name length, game name (`jungle`) | 1 + n |
//! | rules text length, rules text (`Rules` display) | 2 + n |
//! | material text length, material text (`LCvE`) | 1 + n |
//! | index count (positions stored, one per mirror pair) | 8 |
//! | distance width (1 or 2 bytes) | 1 |
//! | checksum: FNV-1a 64 of every other byte of the file | 8 |
//! | values, 2 bits a position, 4 a byte, lowest bits first | ⌈count / 4⌉ |
//! | distances, `width` bytes each | count × width |

use std::io;

use qi_jungle::{ParseRulesError, Rules};
use thiserror::Error;

use crate::container::{self, FileError, Header};
use crate::material::{Material, MaterialError};
use crate::table::Table;

pub use crate::container::MAGIC;
/// The format version this crate writes and reads.
/// Version 2 stores one position of each left-right mirror pair (version 1
/// stored both).
pub const FORMAT_VERSION: u16 = 2;
/// The game name in the header of a Jungle table.
pub const GAME: &str = "jungle";
/// The extension of table files.
pub const EXTENSION: &str = "qtb";

/// Why a table file was refused.
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
    #[error("{0} (this build reads {GAME} tables of format version {FORMAT_VERSION})")]
    File(#[from] FileError),
    /// The rules text does not parse.
    #[error("bad rules text {text:?}: {source}")]
    BadRules {
        /// The text.
        text: String,
        /// Why it does not parse.
        source: ParseRulesError,
    },
    /// The table was generated under other board rules than expected.
    #[error("the table is for rules {found}, expected {expected}")]
    RulesMismatch {
        /// The expected rules.
        expected: Rules,
        /// The file's rules.
        found: Rules,
    },
    /// The material text does not parse.
    #[error("bad material in header: {0}")]
    BadMaterial(#[from] MaterialError),
    /// The file holds another material than its name says.
    #[error("the file {path} holds the table of {found}")]
    MaterialMismatch {
        /// The file.
        path: String,
        /// The header's material.
        found: Material,
    },
    /// The index count is not the material's.
    #[error("{material} has {expected} indices, the header says {found}")]
    CountMismatch {
        /// The material.
        material: Material,
        /// Its index count ([`Material::index_count`]).
        expected: u64,
        /// The header's.
        found: u64,
    },
}

/// Whether two rule sets have the same board rules (the ones a table
/// depends on): rank order, jumps, jump blocking, rat-bank captures.
pub fn same_board_rules(a: &Rules, b: &Rules) -> bool {
    a.rank_order == b.rank_order
        && a.lion_jumps == b.lion_jumps
        && a.tiger_jumps == b.tiger_jumps
        && a.jump_block == b.jump_block
        && a.jump_block_area == b.jump_block_area
        && a.rat_bank_capture == b.rat_bank_capture
}

impl Table {
    /// The table as file bytes.
    pub fn to_bytes(&self) -> Vec<u8> {
        let header = Header {
            game: GAME,
            version: FORMAT_VERSION,
            rules: &self.rules.to_string(),
            material: &self.material.to_string(),
            count: self.len,
            width: self.distances.width(),
        };
        let distances = container::distance_bytes(&self.distances);
        container::write(&header, &[&self.values, &distances])
    }

    /// Reads a table from file bytes, refusing anything not exactly as
    /// written by [`Table::to_bytes`] (see [`FormatError`]). With
    /// `expected` rules, a table of other board rules is refused too.
    pub fn from_bytes(bytes: &[u8], expected: Option<&Rules>) -> Result<Table, FormatError> {
        let (header, mut r) = container::read(bytes, GAME, FORMAT_VERSION)?;
        let rules: Rules = header
            .rules
            .parse()
            .map_err(|source| FormatError::BadRules {
                text: header.rules.to_string(),
                source,
            })?;
        if let Some(expected) = expected {
            if !same_board_rules(expected, &rules) {
                return Err(FormatError::RulesMismatch {
                    expected: *expected,
                    found: rules,
                });
            }
        }
        let material: Material = header.material.parse()?;
        let expected_count = material.index_count();
        if header.count != expected_count {
            return Err(FormatError::CountMismatch {
                material,
                expected: expected_count,
                found: header.count,
            });
        }
        let n = usize::try_from(header.count).map_err(|_| FileError::Truncated)?;
        let values = r.values(n)?;
        let distances = r.distances(n, header.width)?;
        r.finish()?;
        Ok(Table {
            material,
            rules,
            values,
            distances,
            len: header.count,
        })
    }
}
