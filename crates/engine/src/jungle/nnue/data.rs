//! The training-data file of the Jungle network: positions from self-play,
//! each with its search score and the game's result (docs/nnue.md, "Data
//! file").
//!
//! A 32-byte header (magic, version, record size, record count, FNV-1a
//! checksum of the records) and fixed 24-byte records, so that a trainer
//! reads the file as one array (NumPy's `fromfile` with a structured
//! dtype) and a reader can tell a file cut short or damaged from a good
//! one before it trains on garbage.

use std::io::{self, Read, Seek, SeekFrom, Write};

use super::checksum::Checksum;

/// The first eight bytes of a data file.
pub const MAGIC: [u8; 8] = *b"QINNUEDT";
/// The format version this module writes and reads.
pub const VERSION: u32 = 1;
/// The size of the header in bytes.
pub const HEADER_LEN: usize = 32;
/// The size of one record in bytes.
pub const RECORD_LEN: usize = 24;
/// The square byte of a captured animal.
pub const CAPTURED: u8 = 63;

/// [`Sample::flags`]: the score is the exact value of an endgame table.
pub const FLAG_TABLE: u8 = 1;
/// [`Sample::flags`]: the score is a forced win or loss found by the search
/// (stored as ±[`MATE_SCORE`]).
pub const FLAG_MATE: u8 = 2;
/// [`Sample::flags`]: the position is not quiet (the best move captures or
/// enters the den, or an enemy animal stands next to the den of the side
/// to move), so its static value is not what the search saw.
pub const FLAG_TACTICAL: u8 = 4;
const KNOWN_FLAGS: u8 = FLAG_TABLE | FLAG_MATE | FLAG_TACTICAL;

/// The score stored for a won position (forced win or table win).
pub const MATE_SCORE: i16 = 20_000;

/// The game's result for the side to move.
///
/// ```
/// use qi_games::engine::jungle::nnue::data::GameResult;
///
/// let results = [GameResult::Loss, GameResult::Draw, GameResult::Win];
/// assert_eq!(results.map(GameResult::value), [0.0, 0.5, 1.0]);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum GameResult {
    /// The side to move lost the game.
    Loss = 0,
    /// The game was drawn.
    Draw = 1,
    /// The side to move won the game.
    Win = 2,
}

impl GameResult {
    /// The result as a score in `[0, 1]` (1 = won by the side to move).
    ///
    /// ```
    /// use qi_games::engine::jungle::nnue::data::GameResult;
    ///
    /// assert_eq!(GameResult::Draw.value(), 0.5);
    /// ```
    pub fn value(self) -> f32 {
        f32::from(self as u8) / 2.0
    }
}

/// One position with its labels.
///
/// ```
/// use qi_games::engine::jungle::nnue::data::{GameResult, Sample, CAPTURED, FLAG_MATE, MATE_SCORE};
///
/// let sample = Sample {
///     squares: [[20, 8, 12, 16, 18, 0, 6, 14], [42, 54, 50, 46, 44, 62, 56, 48]],
///     side: 0, result: GameResult::Win, flags: FLAG_MATE, score: MATE_SCORE, ply: 31,
/// };
/// // Red's Rat on g3 (square 20), no animal captured; a forced win.
/// assert_eq!(sample.squares[0][0], 20);
/// assert!(sample.squares.iter().flatten().all(|&s| s != CAPTURED));
/// assert_eq!(Sample::from_bytes(&sample.to_bytes(), 0)?, sample);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Sample {
    /// The square of each animal (Rat first) of Red, then of Blue;
    /// [`CAPTURED`] when captured.
    pub squares: [[u8; 8]; 2],
    /// The side to move: 0 Red, 1 Blue.
    pub side: u8,
    /// The game's result for the side to move.
    pub result: GameResult,
    /// `FLAG_*` bits.
    pub flags: u8,
    /// The search score in centi-units for the side to move, ±[`MATE_SCORE`]
    /// for a forced result.
    pub score: i16,
    /// The ply of the game at which the position stood.
    pub ply: u16,
}

/// Why a data file was refused.
///
/// ```
/// use qi_games::engine::jungle::nnue::data::{read_samples, DataError};
///
/// let refused = read_samples(&b"not a data file, but long enough"[..]).unwrap_err();
/// assert!(matches!(refused, DataError::BadMagic(_)));
/// assert!(refused.to_string().starts_with("data file: not a qi NNUE data file"));
/// ```
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum DataError {
    /// Reading or writing failed.
    #[error("data file: {0}")]
    Io(#[from] io::Error),
    /// The file does not start with [`MAGIC`].
    #[error("data file: not a qi NNUE data file (bad magic {0:02x?})")]
    BadMagic([u8; 8]),
    /// The file is of another format version.
    #[error("data file: version {found}, this build reads version {VERSION}")]
    Version {
        /// The version the file says.
        found: u32,
    },
    /// The header gives another record size.
    #[error("data file: records of {found} bytes, expected {RECORD_LEN}")]
    RecordSize {
        /// The size the file says.
        found: u32,
    },
    /// The file is shorter or longer than its header says.
    #[error("data file: {found} bytes of records, the header announces {expected}")]
    Length {
        /// The bytes the header's count implies.
        expected: u64,
        /// The bytes present.
        found: u64,
    },
    /// The records do not match the header's checksum.
    #[error("data file: checksum {found:016x}, the header says {expected:016x} (damaged)")]
    Checksum {
        /// The checksum in the header.
        expected: u64,
        /// The checksum of the records read.
        found: u64,
    },
    /// A record holds an impossible value.
    #[error("data file: record {index}: {reason}")]
    BadRecord {
        /// The record's index (from 0).
        index: u64,
        /// What is wrong.
        reason: &'static str,
    },
}

impl Sample {
    /// The record's bytes.
    ///
    /// ```
    /// use qi_games::engine::jungle::nnue::data::{GameResult, Sample, FLAG_MATE, MATE_SCORE, RECORD_LEN};
    ///
    /// let sample = Sample {
    ///     squares: [[20, 8, 12, 16, 18, 0, 6, 14], [42, 54, 50, 46, 44, 62, 56, 48]],
    ///     side: 0, result: GameResult::Win, flags: FLAG_MATE, score: MATE_SCORE, ply: 31,
    /// };
    /// let bytes = sample.to_bytes();
    /// assert_eq!(bytes.len(), RECORD_LEN);
    /// assert_eq!(bytes[17], GameResult::Win as u8);
    /// assert_eq!(i16::from_le_bytes([bytes[20], bytes[21]]), MATE_SCORE);
    /// ```
    pub fn to_bytes(&self) -> [u8; RECORD_LEN] {
        let mut b = [0u8; RECORD_LEN];
        b[..8].copy_from_slice(&self.squares[0]);
        b[8..16].copy_from_slice(&self.squares[1]);
        b[16] = self.side;
        b[17] = self.result as u8;
        b[18] = self.flags;
        b[20..22].copy_from_slice(&self.score.to_le_bytes());
        b[22..24].copy_from_slice(&self.ply.to_le_bytes());
        b
    }

    /// Reads a record, checking every field (`index` names it in errors).
    ///
    /// ```
    /// use qi_games::engine::jungle::nnue::data::{DataError, GameResult, Sample, CAPTURED, FLAG_MATE, MATE_SCORE};
    ///
    /// let sample = Sample {
    ///     squares: [[20, 8, 12, 16, 18, 0, 6, 14], [42, 54, 50, 46, 44, 62, 56, 48]],
    ///     side: 0, result: GameResult::Win, flags: FLAG_MATE, score: MATE_SCORE, ply: 31,
    /// };
    /// let mut bytes = sample.to_bytes();
    /// assert_eq!(Sample::from_bytes(&bytes, 0)?, sample);
    /// // Red without an animal: refused, naming the record.
    /// bytes[..8].fill(CAPTURED);
    /// let refused = Sample::from_bytes(&bytes, 7).unwrap_err();
    /// assert!(matches!(refused, DataError::BadRecord { index: 7, .. }));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn from_bytes(b: &[u8; RECORD_LEN], index: u64) -> Result<Sample, DataError> {
        let bad = |reason| DataError::BadRecord { index, reason };
        let mut squares = [[0u8; 8]; 2];
        squares[0].copy_from_slice(&b[..8]);
        squares[1].copy_from_slice(&b[8..16]);
        let mut seen = 0u64;
        for side in &squares {
            if side.iter().all(|&s| s == CAPTURED) {
                return Err(bad("a side has no animal"));
            }
            for &s in side {
                if s > CAPTURED {
                    return Err(bad("a square beyond the board"));
                }
                if s != CAPTURED {
                    if seen & (1 << s) != 0 {
                        return Err(bad("two animals on one square"));
                    }
                    seen |= 1 << s;
                }
            }
        }
        if b[16] > 1 {
            return Err(bad("side to move neither 0 nor 1"));
        }
        let result = match b[17] {
            0 => GameResult::Loss,
            1 => GameResult::Draw,
            2 => GameResult::Win,
            _ => return Err(bad("result neither 0, 1 nor 2")),
        };
        if b[18] & !KNOWN_FLAGS != 0 || b[19] != 0 {
            return Err(bad("unknown flag bits"));
        }
        let score = i16::from_le_bytes([b[20], b[21]]);
        if score.unsigned_abs() > MATE_SCORE as u16 {
            return Err(bad("score beyond the mate score"));
        }
        Ok(Sample {
            squares,
            side: b[16],
            result,
            flags: b[18],
            score,
            ply: u16::from_le_bytes([b[22], b[23]]),
        })
    }
}

fn header(count: u64, checksum: u64) -> [u8; HEADER_LEN] {
    let mut h = [0u8; HEADER_LEN];
    h[..8].copy_from_slice(&MAGIC);
    h[8..12].copy_from_slice(&VERSION.to_le_bytes());
    h[12..16].copy_from_slice(&(RECORD_LEN as u32).to_le_bytes());
    h[16..24].copy_from_slice(&count.to_le_bytes());
    h[24..32].copy_from_slice(&checksum.to_le_bytes());
    h
}

/// Writes a data file: records are appended as they come, the header's
/// count and checksum are written by [`finish`](DataWriter::finish) (a
/// file never finished says 0 records and is refused as too long).
///
/// ```
/// use std::io::Cursor;
///
/// use qi_games::engine::jungle::nnue::data::{read_samples, DataWriter, GameResult, Sample};
///
/// let sample = Sample {
///     squares: [[20, 8, 12, 16, 18, 0, 6, 14], [42, 54, 50, 46, 44, 62, 56, 48]],
///     side: 1, result: GameResult::Loss, flags: 0, score: -40, ply: 12,
/// };
/// let mut writer = DataWriter::new(Cursor::new(Vec::new()))?;
/// writer.push(&sample)?;
/// let bytes = writer.finish()?.into_inner();
/// assert_eq!(read_samples(&bytes[..])?, [sample]);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub struct DataWriter<W: Write + Seek> {
    out: W,
    count: u64,
    hash: Checksum,
}

impl<W: Write + Seek> DataWriter<W> {
    /// Starts a file on `out` (at its start).
    ///
    /// ```
    /// use std::io::Cursor;
    ///
    /// use qi_games::engine::jungle::nnue::data::{read_samples, DataWriter, HEADER_LEN};
    ///
    /// let empty = DataWriter::new(Cursor::new(Vec::new()))?.finish()?.into_inner();
    /// assert_eq!(empty.len(), HEADER_LEN);
    /// assert!(read_samples(&empty[..])?.is_empty());
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn new(mut out: W) -> Result<DataWriter<W>, DataError> {
        out.write_all(&header(0, Checksum::new().value()))?;
        Ok(DataWriter {
            out,
            count: 0,
            hash: Checksum::new(),
        })
    }

    /// Appends one record.
    ///
    /// ```
    /// use std::io::Cursor;
    ///
    /// use qi_games::engine::jungle::nnue::data::{DataWriter, GameResult, Sample, HEADER_LEN, RECORD_LEN};
    ///
    /// let sample = Sample {
    ///     squares: [[20, 8, 12, 16, 18, 0, 6, 14], [42, 54, 50, 46, 44, 62, 56, 48]],
    ///     side: 0, result: GameResult::Draw, flags: 0, score: 0, ply: 0,
    /// };
    /// let mut writer = DataWriter::new(Cursor::new(Vec::new()))?;
    /// writer.push(&sample)?;
    /// writer.push(&sample)?;
    /// assert_eq!(writer.count(), 2);
    /// assert_eq!(writer.finish()?.into_inner().len(), HEADER_LEN + 2 * RECORD_LEN);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn push(&mut self, sample: &Sample) -> Result<(), DataError> {
        let bytes = sample.to_bytes();
        self.hash.update(&bytes);
        self.out.write_all(&bytes)?;
        self.count += 1;
        Ok(())
    }

    /// The records written so far.
    ///
    /// ```
    /// use std::io::Cursor;
    ///
    /// use qi_games::engine::jungle::nnue::data::DataWriter;
    ///
    /// assert_eq!(DataWriter::new(Cursor::new(Vec::new()))?.count(), 0);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn count(&self) -> u64 {
        self.count
    }

    /// Writes the header's count and checksum and returns the output.
    ///
    /// ```
    /// use std::io::Cursor;
    ///
    /// use qi_games::engine::jungle::nnue::data::{DataWriter, MAGIC};
    ///
    /// let bytes = DataWriter::new(Cursor::new(Vec::new()))?.finish()?.into_inner();
    /// assert_eq!(bytes[..8], MAGIC);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn finish(mut self) -> Result<W, DataError> {
        self.out.seek(SeekFrom::Start(0))?;
        self.out.write_all(&header(self.count, self.hash.value()))?;
        self.out.flush()?;
        Ok(self.out)
    }
}

/// Reads a whole data file, refusing it at the first thing wrong.
///
/// ```
/// use std::io::Cursor;
/// use qi_engine::jungle::nnue::data::{read_samples, DataError, DataWriter, GameResult, Sample};
///
/// let sample = Sample {
///     squares: [[20, 8, 12, 16, 18, 0, 6, 14], [42, 54, 50, 46, 44, 62, 56, 48]],
///     side: 0, result: GameResult::Draw, flags: 0, score: 10, ply: 0,
/// };
/// let mut writer = DataWriter::new(Cursor::new(Vec::new())).unwrap();
/// writer.push(&sample).unwrap();
/// let bytes = writer.finish().unwrap().into_inner();
/// assert_eq!(read_samples(&bytes[..]).unwrap(), [sample]);
/// // Cut short: refused.
/// let cut = read_samples(&bytes[..bytes.len() - 1]);
/// assert!(matches!(cut, Err(DataError::Length { .. })));
/// ```
pub fn read_samples(mut input: impl Read) -> Result<Vec<Sample>, DataError> {
    let mut h = [0u8; HEADER_LEN];
    input.read_exact(&mut h).map_err(|e| match e.kind() {
        io::ErrorKind::UnexpectedEof => DataError::Length {
            expected: HEADER_LEN as u64,
            found: 0,
        },
        _ => DataError::Io(e),
    })?;
    let word =
        |r: std::ops::Range<usize>| h[r].iter().rev().fold(0u64, |a, &b| a << 8 | u64::from(b));
    if h[..8] != MAGIC {
        let mut magic = [0u8; 8];
        magic.copy_from_slice(&h[..8]);
        return Err(DataError::BadMagic(magic));
    }
    let version = word(8..12) as u32;
    if version != VERSION {
        return Err(DataError::Version { found: version });
    }
    let size = word(12..16) as u32;
    if size as usize != RECORD_LEN {
        return Err(DataError::RecordSize { found: size });
    }
    let count = word(16..24);
    let checksum = word(24..32);
    let mut body = Vec::new();
    input.read_to_end(&mut body)?;
    let expected = count.saturating_mul(RECORD_LEN as u64);
    if body.len() as u64 != expected {
        return Err(DataError::Length {
            expected,
            found: body.len() as u64,
        });
    }
    let mut hash = Checksum::new();
    hash.update(&body);
    if hash.value() != checksum {
        return Err(DataError::Checksum {
            expected: checksum,
            found: hash.value(),
        });
    }
    body.chunks_exact(RECORD_LEN)
        .zip(0..)
        .map(|(chunk, i)| {
            let record: &[u8; RECORD_LEN] = chunk.try_into().expect("chunks of RECORD_LEN");
            Sample::from_bytes(record, i)
        })
        .collect()
}
