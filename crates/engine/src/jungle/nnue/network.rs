//! The network file: a header, the quantised weights and a checksum
//! (docs/nnue.md, "Network file"), read into a [`Network`] after every
//! check that keeps its integer sums from overflowing.

use std::io::Read;
use std::path::Path;
use std::sync::atomic::{AtomicU64, Ordering};

use super::checksum::Checksum;
use super::features::INPUTS;

/// The first eight bytes of a network file.
pub const MAGIC: [u8; 8] = *b"QINNUENT";
/// The network format version this build reads.
pub const VERSION: u32 = 1;
/// Hidden units per perspective.
pub const HIDDEN: usize = 128;
/// The clipped ReLU's top (the float model's 1.0) and the scale of the
/// first layer's weights.
pub const QA: i32 = 255;
/// The scale of the output layer's weights.
pub const QB: i32 = 512;

const HEADER_LEN: usize = 32;
/// The whole file's length: header, `w1`, `b1`, `w2`, `b2`, checksum.
pub const FILE_LEN: usize = HEADER_LEN + 2 * (INPUTS * HIDDEN + HIDDEN + 2 * HIDDEN) + 4 + 8;

/// Why a network file was refused.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum NetworkError {
    /// The file could not be read.
    #[error("network file {path}: {source}")]
    Io {
        /// The file.
        path: String,
        /// What went wrong.
        source: std::io::Error,
    },
    /// The file is not as long as a network of this shape.
    #[error("network file: {found} bytes, a network is {FILE_LEN} bytes")]
    Length {
        /// The bytes present.
        found: usize,
    },
    /// The file does not start with [`MAGIC`].
    #[error("network file: not a qi network (bad magic {0:02x?})")]
    BadMagic([u8; 8]),
    /// The file is of another format version.
    #[error("network file: version {found}, this build reads version {VERSION}")]
    Version {
        /// The version the file says.
        found: u32,
    },
    /// The layers are not of the sizes this build computes with.
    #[error("network file: {inputs} inputs and {hidden} hidden units, this build has {INPUTS} and {HIDDEN}")]
    Shape {
        /// The inputs the file says.
        inputs: u32,
        /// The hidden units the file says.
        hidden: u32,
    },
    /// The quantisation scales are not this build's.
    #[error("network file: quantisation {qa}/{qb}, this build uses {QA}/{QB}")]
    Quantisation {
        /// The first layer's scale in the file.
        qa: i32,
        /// The output layer's scale in the file.
        qb: i32,
    },
    /// The output scale is not positive.
    #[error("network file: output scale {0} is not positive")]
    Scale(i32),
    /// The weights do not match the checksum.
    #[error("network file: checksum {found:016x}, the file says {expected:016x} (damaged)")]
    Checksum {
        /// The checksum in the file.
        expected: u64,
        /// The checksum of the bytes read.
        found: u64,
    },
    /// A hidden unit's weights could overflow the 16-bit accumulator.
    #[error("network file: hidden unit {unit} can overflow the 16-bit accumulator")]
    Overflow {
        /// The unit.
        unit: usize,
    },
}

/// Distinguishes networks in the per-thread accumulators, which must not
/// carry one network's sums over to another.
static NEXT_ID: AtomicU64 = AtomicU64::new(1);

/// A quantised network, ready to evaluate.
pub struct Network {
    /// Identity for the accumulator caches (never 0).
    pub(crate) id: u64,
    /// Output centi-units per unit of the float model's output.
    pub(crate) scale: i32,
    /// First layer, one row of `HIDDEN` weights per input.
    pub(crate) w1: Box<[[i16; HIDDEN]]>,
    pub(crate) b1: [i16; HIDDEN],
    /// Output weights: the side to move's half, then the other's.
    pub(crate) w2: [[i16; HIDDEN]; 2],
    pub(crate) b2: i32,
    /// Set by [`Network::with_tempo`]: the output from the difference of
    /// the two sides' values instead of `w2` and `b2`.
    pub(crate) side_term: Option<SideTerm>,
}

/// A network's output with a constant side-to-move term
/// ([`Network::with_tempo`]).
#[derive(Clone, Copy, Debug)]
pub(crate) struct SideTerm {
    /// `w2[0] − w2[1]`, applied to the side to move's half and, negated,
    /// to the other's.
    pub(crate) weights: [i32; HIDDEN],
    /// Centi-units added for the side to move.
    pub(crate) tempo: i32,
}

impl std::fmt::Debug for Network {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Network")
            .field("inputs", &INPUTS)
            .field("hidden", &HIDDEN)
            .field("scale", &self.scale)
            .finish_non_exhaustive()
    }
}

/// Little-endian readers over the checked bytes.
struct Cursor<'a>(&'a [u8]);

impl Cursor<'_> {
    fn take<const N: usize>(&mut self) -> [u8; N] {
        let (head, rest) = self.0.split_at(N);
        self.0 = rest;
        head.try_into().expect("split at N")
    }
    fn u32(&mut self) -> u32 {
        u32::from_le_bytes(self.take())
    }
    fn i32(&mut self) -> i32 {
        i32::from_le_bytes(self.take())
    }
    fn i16s(&mut self, out: &mut [i16]) {
        for v in out {
            *v = i16::from_le_bytes(self.take());
        }
    }
}

impl Network {
    /// Reads a network from the bytes of its file.
    ///
    /// ```
    /// use qi_engine::jungle::nnue::{Network, NetworkError};
    ///
    /// let refused = Network::from_bytes(b"QINNUENT");
    /// assert!(matches!(refused, Err(NetworkError::Length { found: 8 })));
    /// ```
    pub fn from_bytes(bytes: &[u8]) -> Result<Network, NetworkError> {
        if bytes.len() != FILE_LEN {
            return Err(NetworkError::Length { found: bytes.len() });
        }
        let mut c = Cursor(bytes);
        let magic: [u8; 8] = c.take();
        if magic != MAGIC {
            return Err(NetworkError::BadMagic(magic));
        }
        let version = c.u32();
        if version != VERSION {
            return Err(NetworkError::Version { found: version });
        }
        let (inputs, hidden) = (c.u32(), c.u32());
        if inputs as usize != INPUTS || hidden as usize != HIDDEN {
            return Err(NetworkError::Shape { inputs, hidden });
        }
        let scale = c.i32();
        let (qa, qb) = (c.i32(), c.i32());
        if (qa, qb) != (QA, QB) {
            return Err(NetworkError::Quantisation { qa, qb });
        }
        if scale <= 0 {
            return Err(NetworkError::Scale(scale));
        }
        let body = FILE_LEN - 8;
        let mut sum = Checksum::new();
        sum.update(&bytes[..body]);
        let expected = u64::from_le_bytes(bytes[body..].try_into().expect("8 bytes"));
        if sum.value() != expected {
            return Err(NetworkError::Checksum {
                expected,
                found: sum.value(),
            });
        }
        let mut w1 = vec![[0i16; HIDDEN]; INPUTS].into_boxed_slice();
        for row in w1.iter_mut() {
            c.i16s(row);
        }
        let mut b1 = [0i16; HIDDEN];
        c.i16s(&mut b1);
        let mut w2 = [[0i16; HIDDEN]; 2];
        c.i16s(&mut w2[0]);
        c.i16s(&mut w2[1]);
        let b2 = c.i32();
        // At most 16 animals stand on the board: the bias and 16 rows, and
        // one more for the update that adds before it subtracts.
        for unit in 0..HIDDEN {
            let largest = w1
                .iter()
                .map(|r| i32::from(r[unit]).abs())
                .max()
                .unwrap_or(0);
            if i32::from(b1[unit]).abs() + 17 * largest > i32::from(i16::MAX) {
                return Err(NetworkError::Overflow { unit });
            }
        }
        Ok(Network {
            id: NEXT_ID.fetch_add(1, Ordering::Relaxed),
            scale,
            w1,
            b1,
            w2,
            b2,
            side_term: None,
        })
    }

    /// Reads a network file: a regular file (a FIFO would hang the
    /// reader) of [`FILE_LEN`] bytes, its size checked before it is read
    /// (a sparse file of a gigabyte is refused, not read).
    pub fn from_file(path: &Path) -> Result<Network, NetworkError> {
        let io = |source| NetworkError::Io {
            path: path.display().to_string(),
            source,
        };
        let (file, len) = crate::files::open_regular(path).map_err(io)?;
        if len != FILE_LEN as u64 {
            return Err(NetworkError::Length {
                found: usize::try_from(len).unwrap_or(usize::MAX),
            });
        }
        let mut bytes = Vec::with_capacity(FILE_LEN);
        file.take(FILE_LEN as u64 + 1)
            .read_to_end(&mut bytes)
            .map_err(io)?;
        Network::from_bytes(&bytes)
    }

    /// The output's centi-units per unit of the float model's output (the
    /// `K` of `sigmoid(score / K)` the trainer fitted).
    pub fn scale(&self) -> i32 {
        self.scale
    }

    /// This network with its side-to-move term made a constant: a board
    /// scores `tempo` centi-units more for the side to move than the
    /// average of its two evaluations (this side to move, the other side
    /// to move) says, so that a board's value plus that of the same board
    /// with the other side to move is exactly `2 × tempo` (short of
    /// [`EVAL_LIMIT`](qi_search::EVAL_LIMIT)).
    ///
    /// The output is linear in the two halves of the hidden layer, so
    /// `(e(us) − e(them)) / 2` is again one output layer: the weights
    /// `w_us − w_them` on the side to move's half, their negation on the
    /// other's, and twice the divisor (kept in 32 bits: 255 × 65 535 ×
    /// 128 < 2³¹). The first layer, and so the accumulator, is unchanged,
    /// and the output costs what it did. A network whose own side-to-move
    /// term varies from board to board makes the search's comparisons of
    /// lines of different parity (reductions, the transposition table's
    /// deeper entries, quiescence) noisy; docs/nnue.md, try 3, measures
    /// it.
    ///
    /// ```
    /// use qi_core::Evaluator;
    /// use qi_engine::jungle::nnue::embedded;
    /// use qi_engine::jungle::JungleEval;
    /// use qi_jungle::{Jungle, Rules};
    /// use std::sync::Arc;
    ///
    /// let net = Arc::new(embedded().unwrap().with_tempo(12));
    /// let eval = JungleEval::default().with_network(net);
    /// let rules = Rules::standard();
    /// let red = Jungle::from_text("l5t/1d3c1/r1p1w1e/7/7/7/E1W1P1R/1C3D1/T5L w 0 1", rules).unwrap();
    /// let blue = Jungle::from_text("l5t/1d3c1/r1p1w1e/7/7/7/E1W1P1R/1C3D1/T5L b 0 1", rules).unwrap();
    /// assert_eq!(eval.evaluate(&red) + eval.evaluate(&blue), 24);
    /// ```
    pub fn with_tempo(&self, tempo: i32) -> Network {
        let mut weights = [0i32; HIDDEN];
        for (d, (&a, &b)) in weights.iter_mut().zip(self.w2[0].iter().zip(&self.w2[1])) {
            *d = i32::from(a) - i32::from(b);
        }
        Network {
            id: NEXT_ID.fetch_add(1, Ordering::Relaxed),
            scale: self.scale,
            w1: self.w1.clone(),
            b1: self.b1,
            w2: self.w2,
            b2: self.b2,
            side_term: Some(SideTerm { weights, tempo }),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `bytes` with its checksum made right again.
    fn resealed(mut bytes: Vec<u8>) -> Vec<u8> {
        let body = bytes.len() - 8;
        let mut sum = Checksum::new();
        sum.update(&bytes[..body]);
        bytes[body..].copy_from_slice(&sum.value().to_le_bytes());
        bytes
    }

    #[test]
    fn weights_that_could_overflow_the_accumulator_are_refused() {
        let good = super::super::EMBEDDED_BYTES.to_vec();
        assert!(Network::from_bytes(&resealed(good.clone())).is_ok());
        // Input 5's weight for hidden unit 3 at 2000: 17 of them pass i16.
        let mut bytes = good.clone();
        let at = HEADER_LEN + 2 * (5 * HIDDEN + 3);
        bytes[at..at + 2].copy_from_slice(&2000i16.to_le_bytes());
        let refused = Network::from_bytes(&resealed(bytes));
        assert!(
            matches!(refused, Err(NetworkError::Overflow { unit: 3 })),
            "{refused:?}"
        );
        // Another output scale, or quantisation, is refused too.
        let mut scale = good.clone();
        scale[20..24].copy_from_slice(&0i32.to_le_bytes());
        assert!(matches!(
            Network::from_bytes(&resealed(scale)),
            Err(NetworkError::Scale(0))
        ));
        let mut qa = good;
        qa[24..28].copy_from_slice(&256i32.to_le_bytes());
        assert!(matches!(
            Network::from_bytes(&resealed(qa)),
            Err(NetworkError::Quantisation { qa: 256, .. })
        ));
    }
}
