//! The file format of one Five Tigers table (`docs/tablebases.md`, "Five
//! Tigers endings"). As the Jungle format, all numbers little-endian, with
//! the stored keys added because the states are not ranked by a formula:
//!
//! | field | bytes |
//! |---|---|
//! | magic `QITB\r\n\x1a\n` | 8 |
//! | format version (1) | 2 |
//! | game name length, game name (`five-tigers`) | 1 + n |
//! | rules text length, rules text (`Rules` display) | 2 + n |
//! | material text length, material text (`3v2`) | 1 + n |
//! | state count | 8 |
//! | distance width (1 or 2 bytes) | 1 |
//! | checksum: FNV-1a 64 of every other byte of the file | 8 |
//! | canonical keys, strictly increasing | count × 8 |
//! | values, 2 bits a state, 4 a byte, lowest bits first | ⌈count / 4⌉ |
//! | distances, `width` bytes each | count × width |

use std::io;

use qi_five_tigers::{Rules, RulesError};
use thiserror::Error;

use super::key::State;
use super::{forbids_shuttle, same_board_rules, Material, MaterialError, Table};
use crate::container::{self, FileError, Header};

/// The format version this module writes and reads.
pub const FORMAT_VERSION: u16 = 1;
/// The game name in the header of a Five Tigers table.
pub const GAME: &str = "five-tigers";
/// The extension of Five Tigers table files (not the Jungle `qtb`, so that
/// a directory may hold both games' tables).
pub const EXTENSION: &str = "qft";

/// Why a Five Tigers table file was refused.
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
        source: RulesError,
    },
    /// The table was generated under other board rules than expected.
    #[error("the table is for rules {found}, expected {expected} (another shuttle rule)")]
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
    /// A key that is not the canonical key of a state of the material with
    /// nothing owed, or not above the previous one.
    #[error("state {0}: bad key (not canonical, not of the material, or out of order)")]
    BadKey(u64),
}

/// Whether `key` is a state a table of `material` under `rules` stores.
fn valid_key(key: u64, material: Material, rules: &Rules) -> bool {
    let Some(state) = State::from_key(key) else {
        return false;
    };
    state.owed == 0
        && Material::of_boards(state.boards) == Some(material)
        && (forbids_shuttle(rules) || state.bans == [None, None])
        && state.key() == Some(key)
        && state.canonical().map(|c| c.0) == Some(key)
}

impl Table {
    /// The table as file bytes.
    pub fn to_bytes(&self) -> Vec<u8> {
        let header = Header {
            game: GAME,
            version: FORMAT_VERSION,
            rules: &self.rules.to_string(),
            material: &self.material.to_string(),
            count: self.keys.len() as u64,
            width: self.distances.width(),
        };
        let keys: Vec<u8> = self.keys.iter().flat_map(|k| k.to_le_bytes()).collect();
        let distances = container::distance_bytes(&self.distances);
        container::write(&header, &[&keys, &self.values, &distances])
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
        let n = usize::try_from(header.count).map_err(|_| FileError::Truncated)?;
        let raw_keys = r.take(n.checked_mul(8).ok_or(FileError::Truncated)?)?;
        let mut keys = Vec::with_capacity(n);
        for (i, c) in raw_keys.chunks_exact(8).enumerate() {
            let mut a = [0u8; 8];
            a.copy_from_slice(c);
            let k = u64::from_le_bytes(a);
            if keys.last().is_some_and(|&last| last >= k) || !valid_key(k, material, &rules) {
                return Err(FormatError::BadKey(i as u64));
            }
            keys.push(k);
        }
        let values = r.values(n)?;
        let distances = r.distances(n, header.width)?;
        r.finish()?;
        Ok(Table {
            material,
            rules,
            keys,
            values,
            distances,
        })
    }
}
