//! A quantised network ready to evaluate, read from a network file
//! (`file`) of either version.

use std::io::Read;
use std::path::Path;
use std::sync::atomic::{AtomicU64, Ordering};

use super::features::INPUTS;
use super::file::{self, NetworkError, HIDDEN};

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
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
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

/// Two networks are equal when they evaluate alike: the same scale,
/// weights and side-to-move term, whatever file or version they were read
/// from (the identity that tells the accumulators apart is not compared).
impl PartialEq for Network {
    fn eq(&self, other: &Network) -> bool {
        self.scale == other.scale
            && self.w1 == other.w1
            && self.b1 == other.b1
            && self.w2 == other.w2
            && self.b2 == other.b2
            && self.side_term == other.side_term
    }
}

impl Eq for Network {}

impl Network {
    /// Reads a network from the bytes of its file, of either version
    /// (docs/nnue.md, "Network file").
    ///
    /// ```
    /// use qi_engine::jungle::nnue::{Network, NetworkError};
    ///
    /// let refused = Network::from_bytes(b"QINNUENT");
    /// assert!(matches!(refused, Err(NetworkError::Length { found: 8, .. })));
    /// ```
    pub fn from_bytes(bytes: &[u8]) -> Result<Network, NetworkError> {
        let layers = file::read(bytes)?;
        Ok(Network {
            id: NEXT_ID.fetch_add(1, Ordering::Relaxed),
            scale: layers.scale,
            w1: layers.w1,
            b1: layers.b1,
            w2: layers.w2,
            b2: layers.b2,
            side_term: None,
        })
    }

    /// Reads a network file: a regular file (a FIFO would hang the
    /// reader) no longer than a network of any version, its size checked
    /// before it is read (a sparse file of a gigabyte is refused, not
    /// read).
    pub fn from_file(path: &Path) -> Result<Network, NetworkError> {
        let io = |source| NetworkError::Io {
            path: path.display().to_string(),
            source,
        };
        let (file, len) = crate::files::open_regular(path).map_err(io)?;
        if len > file::MAX_LEN as u64 {
            return Err(NetworkError::TooLong { found: len });
        }
        let mut bytes = Vec::with_capacity(len as usize);
        file.take(file::MAX_LEN as u64 + 1)
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
