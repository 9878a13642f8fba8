//! The errors every game's tables share: a file refused ([`FormatError`],
//! its shared part [`FileError`]), a generation that failed
//! ([`GenerateError`]), a probe under other board rules ([`ProbeError`]).
//! A leaf: it imports nothing of the crate.

use std::io;

use thiserror::Error;

/// Why a table file was refused in the part every game's file shares
/// (inside [`FormatError::File`]).
///
/// ```
/// use qi_games::jungle::Jungle;
/// use qi_tablebase::{FileError, FormatError, Table};
///
/// let err = Table::<Jungle>::from_bytes(b"no table here", None).unwrap_err();
/// assert!(matches!(err, FormatError::File { source: FileError::BadMagic, .. }));
/// ```
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum FileError {
    /// The file does not start with the magic bytes.
    #[error("not a qi tablebase file (bad magic bytes)")]
    BadMagic,
    /// The file is of a format version this build does not read.
    #[error("unsupported format version {0}")]
    UnsupportedVersion(u16),
    /// The file ends inside the header or the payload.
    #[error("the file is truncated")]
    Truncated,
    /// The header's text fields are not UTF-8.
    #[error("the header's {0} is not UTF-8")]
    NotUtf8(&'static str),
    /// A table of another game.
    #[error("a table of game {0:?}")]
    WrongGame(String),
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
    /// The file's size is not the one its header implies (checked before
    /// the payload is read).
    #[error("the header implies {expected} bytes, the file has {found}")]
    SizeMismatch {
        /// The size the header implies.
        expected: u64,
        /// The file's size.
        found: u64,
    },
    /// A 2-bit value that is not loss, draw or win (or padding bits after
    /// the last value that are not 0).
    #[error("position {0} has the invalid value code 3")]
    BadValue(u64),
    /// A block of a blocked file whose checksum does not match its bytes
    /// (found when the block is read, whole file or one probe).
    #[error("block {block} (slots from {first_slot}) fails its checksum")]
    BlockChecksum {
        /// The block's number.
        block: u64,
        /// Its first slot.
        first_slot: u64,
    },
    /// A blocked file's slots per block that is 0, not a multiple of 4 or
    /// above 2^20.
    #[error("bad block size {0} slots")]
    BadBlockSize(u32),
}

/// A boxed error of a game's own (a rules or material text that does not
/// parse).
pub type Source = Box<dyn std::error::Error + Send + Sync>;

/// Why a table file was refused, whatever the game.
///
/// ```
/// use qi_games::jungle::{Jungle, Rules};
/// use qi_tablebase::{FormatError, Tablebase};
///
/// // A table of the standard rules, read as a table of other board rules.
/// let tb = Tablebase::<Jungle>::generate(&Rules::standard(), &["LvC".parse()?], 1)?;
/// let bytes = tb.table("LvC".parse()?).unwrap().to_bytes();
/// let err = qi_tablebase::Table::<Jungle>::from_bytes(&bytes, Some(&Rules::datou()));
/// assert!(matches!(err, Err(FormatError::RulesMismatch { .. })));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
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
    #[error("{source} (this build writes {game} tables of format version {version})")]
    File {
        /// The game whose table was expected.
        game: &'static str,
        /// The newest format version this build reads for it (and writes).
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
        /// What differs ([`crate::TableGame::RULES_DIFFER`]).
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
    /// A partition file (one worker's share of a cluster's table,
    /// [`crate::format::partition`]) that is not the one expected, or missing.
    #[error("partition {path}: {found}, expected {expected}")]
    PartitionMismatch {
        /// The file (or where it was looked for).
        path: String,
        /// What it holds.
        found: String,
        /// What was expected.
        expected: String,
    },
}

/// Why a table could not be generated, whatever the game.
///
/// ```
/// use qi_games::five_tigers::{FiveTigers, Rules};
/// use qi_tablebase::{GenerateError, Tablebase};
///
/// let rules = Rules { pieces_per_side: 4, ..Rules::shandong() };
/// let err = Tablebase::<FiveTigers>::generate(&rules, &["5v1".parse()?], 1).unwrap_err();
/// assert!(matches!(err, GenerateError::TooManyPieces { needed: 5, allowed: 4, .. }));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum GenerateError {
    /// A capture leads into a material whose table is not loaded.
    #[error("generating {material} needs the table of {needed}, which is not loaded")]
    MissingSubtable {
        /// The material being generated.
        material: String,
        /// The material a capture leads to.
        needed: String,
    },
    /// The material has more positions or moves than one table holds.
    #[error("{0} has too many positions for one table")]
    TooLarge(String),
    /// A material needs more pieces than the rules give a side.
    #[error("{material} needs {needed} pieces a side, the rules give {allowed}")]
    TooManyPieces {
        /// The material.
        material: String,
        /// Its larger count.
        needed: u32,
        /// The rules' pieces per side.
        allowed: u8,
    },
    /// The generator does not handle this material under these rules.
    #[error("{material} cannot be generated: {reason}")]
    Unsupported {
        /// The material.
        material: String,
        /// Why not.
        reason: String,
    },
    /// Solving the material needs more memory than was given, in core
    /// and (where the rules allow it) out of core.
    #[error(
        "generating {material} needs about {:.1} GB of memory, more than the {:.1} GB given",
        *needed as f64 / 1e9,
        *memory as f64 / 1e9
    )]
    OutOfMemory {
        /// The material.
        material: String,
        /// The bytes it needs, the least of the ways it can be solved.
        needed: u64,
        /// The bytes given.
        memory: u64,
    },
    /// The disk cannot hold a step of an out-of-core solve (its table
    /// file, or the file widened to two bytes a distance): refused before
    /// the step, not when a write fails.
    #[error(
        "generating {material} needs about {:.1} GB more disk for {what}, and {:.1} GB is free \
         in {dir}",
        *needed as f64 / 1e9,
        *free as f64 / 1e9
    )]
    OutOfDisk {
        /// The material.
        material: String,
        /// What the room is for.
        what: String,
        /// The bytes the step needs.
        needed: u64,
        /// The bytes free.
        free: u64,
        /// The directory being written.
        dir: String,
    },
    /// A position would be decided further from the end than the
    /// 65,534 plies a table's distances hold.
    #[error("a position is decided at more than 65534 plies")]
    TooDeep,
    /// The rules crate produced something the generator does not expect
    /// (a bug, reported instead of a panic).
    #[error("internal error: {0}")]
    Internal(String),
}

/// Why a position could not be probed.
///
/// ```
/// use qi_games::jungle::{Jungle, Rules};
/// use qi_tablebase::{ProbeError, Tablebase};
///
/// let tb = Tablebase::<Jungle>::new(&Rules::standard());
/// let pos = Jungle::from_text("7/3L3/7/7/7/7/7/7/c6 w", Rules::datou())?;
/// assert!(matches!(tb.probe(&pos), Err(ProbeError::RulesMismatch { .. })));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum ProbeError {
    /// The position is played under other board rules than the tables.
    #[error("the position's rules {position} are not the tables' rules {tables}")]
    RulesMismatch {
        /// The tables' rules (their text).
        tables: String,
        /// The position's rules (their text).
        position: String,
    },
}

impl FormatError {
    /// The error of reading or writing `path`.
    pub(crate) fn io(path: &std::path::Path, source: io::Error) -> FormatError {
        FormatError::Io {
            path: path.display().to_string(),
            source,
        }
    }
}
