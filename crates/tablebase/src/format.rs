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

use crate::material::{Material, MaterialError};
use crate::table::{Distances, Table};

/// The first bytes of every table file.
pub const MAGIC: [u8; 8] = *b"QITB\r\n\x1a\n";
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
    /// The file does not start with the magic bytes.
    #[error("not a qi tablebase file (bad magic bytes)")]
    BadMagic,
    /// The file is of a format version this crate does not read.
    #[error("unsupported format version {0} (this build reads version {FORMAT_VERSION})")]
    UnsupportedVersion(u16),
    /// The file ends inside the header or the payload.
    #[error("the file is truncated")]
    Truncated,
    /// The header's text fields are not UTF-8.
    #[error("the header's {0} is not UTF-8")]
    NotUtf8(&'static str),
    /// A table of another game.
    #[error("a table of game {0:?}, expected {GAME:?}")]
    WrongGame(String),
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
    /// A distance width other than 1 or 2.
    #[error("bad distance width {0} (1 or 2 bytes)")]
    BadWidth(u8),
    /// The payload is longer than the header says.
    #[error("{0} bytes after the payload")]
    TrailingBytes(usize),
    /// The checksum does not match the contents.
    #[error("checksum mismatch: header {expected:#018x}, contents {found:#018x}")]
    Checksum {
        /// The header's checksum.
        expected: u64,
        /// The checksum of the contents.
        found: u64,
    },
    /// A 2-bit value that is not loss, draw or win.
    #[error("position {0} has the invalid value code 3")]
    BadValue(u64),
}

/// FNV-1a, 64 bits, continued from `hash` over `bytes`. Every single-byte
/// change changes the result: each step is a bijection of the state.
fn fnv1a(mut hash: u64, bytes: &[u8]) -> u64 {
    for &b in bytes {
        hash ^= u64::from(b);
        hash = hash.wrapping_mul(0x0000_0100_0000_01b3);
    }
    hash
}

const FNV_OFFSET: u64 = 0xcbf2_9ce4_8422_2325;

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
        let mut out = Vec::with_capacity(64 + self.values.len() + self.len as usize * 2);
        out.extend_from_slice(&MAGIC);
        out.extend_from_slice(&FORMAT_VERSION.to_le_bytes());
        out.push(GAME.len() as u8);
        out.extend_from_slice(GAME.as_bytes());
        let rules = self.rules.to_string();
        out.extend_from_slice(&(rules.len() as u16).to_le_bytes());
        out.extend_from_slice(rules.as_bytes());
        let material = self.material.to_string();
        out.push(material.len() as u8);
        out.extend_from_slice(material.as_bytes());
        out.extend_from_slice(&self.len.to_le_bytes());
        out.push(self.distances.width());
        let checksum_at = out.len();
        out.extend_from_slice(&[0; 8]);
        out.extend_from_slice(&self.values);
        match &self.distances {
            Distances::U8(d) => out.extend_from_slice(d),
            Distances::U16(d) => d
                .iter()
                .for_each(|x| out.extend_from_slice(&x.to_le_bytes())),
        }
        let sum = fnv1a(
            fnv1a(FNV_OFFSET, &out[..checksum_at]),
            &out[checksum_at + 8..],
        );
        out[checksum_at..checksum_at + 8].copy_from_slice(&sum.to_le_bytes());
        out
    }

    /// Reads a table from file bytes, refusing anything not exactly as
    /// written by [`Table::to_bytes`] (see [`FormatError`]). With
    /// `expected` rules, a table of other board rules is refused too.
    pub fn from_bytes(bytes: &[u8], expected: Option<&Rules>) -> Result<Table, FormatError> {
        let mut r = Reader { bytes, at: 0 };
        if r.take(8)? != MAGIC {
            return Err(FormatError::BadMagic);
        }
        // The version and the game name sit at the same place in every
        // qi table file, so a file of the other game is named as such
        // whatever its version.
        let version = u16::from_le_bytes(r.array()?);
        let n = usize::from(r.take(1)?[0]);
        let game = r.text(n, "game name")?;
        if game != GAME {
            return Err(FormatError::WrongGame(game.to_string()));
        }
        if version != FORMAT_VERSION {
            return Err(FormatError::UnsupportedVersion(version));
        }
        let n = usize::from(u16::from_le_bytes(r.array()?));
        let rules_text = r.text(n, "rules text")?;
        let n = usize::from(r.take(1)?[0]);
        let material_text = r.text(n, "material")?;
        let count = u64::from_le_bytes(r.array()?);
        let width = r.take(1)?[0];
        let checksum_at = r.at;
        let checksum = u64::from_le_bytes(r.array()?);
        let found = fnv1a(
            fnv1a(FNV_OFFSET, &bytes[..checksum_at]),
            &bytes[checksum_at + 8..],
        );
        if found != checksum {
            return Err(FormatError::Checksum {
                expected: checksum,
                found,
            });
        }
        let rules: Rules = rules_text.parse().map_err(|source| FormatError::BadRules {
            text: rules_text.to_string(),
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
        let material: Material = material_text.parse()?;
        let expected_count = material.index_count();
        if count != expected_count {
            return Err(FormatError::CountMismatch {
                material,
                expected: expected_count,
                found: count,
            });
        }
        if width != 1 && width != 2 {
            return Err(FormatError::BadWidth(width));
        }
        let n = usize::try_from(count).map_err(|_| FormatError::Truncated)?;
        let values = r.take(n.div_ceil(4))?.to_vec();
        for i in 0..n {
            if values[i / 4] >> (2 * (i % 4)) & 3 == 3 {
                return Err(FormatError::BadValue(i as u64));
            }
        }
        let raw = r.take(
            n.checked_mul(usize::from(width))
                .ok_or(FormatError::Truncated)?,
        )?;
        let distances = if width == 1 {
            Distances::U8(raw.to_vec())
        } else {
            Distances::U16(
                raw.chunks_exact(2)
                    .map(|c| u16::from_le_bytes([c[0], c[1]]))
                    .collect(),
            )
        };
        if r.at != bytes.len() {
            return Err(FormatError::TrailingBytes(bytes.len() - r.at));
        }
        Ok(Table {
            material,
            rules,
            values,
            distances,
            len: count,
        })
    }
}

/// A cursor over the file bytes that never reads past the end.
struct Reader<'a> {
    bytes: &'a [u8],
    at: usize,
}

impl<'a> Reader<'a> {
    fn take(&mut self, n: usize) -> Result<&'a [u8], FormatError> {
        let end = self.at.checked_add(n).ok_or(FormatError::Truncated)?;
        let s = self.bytes.get(self.at..end).ok_or(FormatError::Truncated)?;
        self.at = end;
        Ok(s)
    }

    fn array<const N: usize>(&mut self) -> Result<[u8; N], FormatError> {
        let mut a = [0u8; N];
        a.copy_from_slice(self.take(N)?);
        Ok(a)
    }

    fn text(&mut self, n: usize, what: &'static str) -> Result<&'a str, FormatError> {
        std::str::from_utf8(self.take(n)?).map_err(|_| FormatError::NotUtf8(what))
    }
}
