//! A learned evaluation for Jungle (NNUE): the training-data format, the
//! network file, its features and the incrementally updated accumulator
//! (docs/nnue.md).
//!
//! [`JungleEval::with_network`](super::JungleEval::with_network) makes the
//! Jungle evaluation this network's; [`EvalProfile::Nnue`](crate::EvalProfile::Nnue)
//! does it with the network embedded in the binary ([`embedded`]).
//!
//! ```
//! use qi_core::Evaluator;
//! use qi_engine::jungle::nnue::{embedded, evaluate_fresh};
//! use qi_engine::jungle::JungleEval;
//! use qi_jungle::{Jungle, Rules};
//!
//! let net = embedded().unwrap();
//! let eval = JungleEval::default().with_network(net.clone());
//! let pos = Jungle::from_text("l5t/1d3c1/r1p1w1e/7/7/7/E1W1P1R/1C3D1/T5L w 0 1", Rules::standard()).unwrap();
//! // The incremental evaluation equals the one summed from scratch.
//! assert_eq!(eval.evaluate(&pos), evaluate_fresh(&net, &pos));
//! ```

use std::cell::RefCell;
use std::sync::{Arc, OnceLock};

use qi_core::Position;
use qi_jungle::Jungle;

mod accumulator;
mod checksum;
pub mod data;
mod features;
mod file;
mod network;

pub use accumulator::Accumulator;
pub use features::{feature, INPUTS, SQUARES};
pub use file::{NetworkError, HIDDEN, MAGIC, QA, QB, VERSION};
pub use network::Network;

/// The network the binary carries (docs/nnue.md, "The committed network").
pub static EMBEDDED_BYTES: &[u8] = include_bytes!("../../../nets/jungle.nnue");

thread_local! {
    /// Each search thread's sums: the search's threads evaluate apart, and
    /// nothing is allocated after a thread's first evaluation.
    static ACCUMULATOR: RefCell<Accumulator> = RefCell::new(Accumulator::default());
}

/// The embedded network, read once.
///
/// ```
/// use qi_games::engine::jungle::nnue::embedded;
///
/// // Read once: every call shares the one network.
/// assert!(std::sync::Arc::ptr_eq(&embedded()?, &embedded()?));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn embedded() -> Result<Arc<Network>, NetworkError> {
    static NET: OnceLock<Arc<Network>> = OnceLock::new();
    if let Some(net) = NET.get() {
        return Ok(net.clone());
    }
    let net = Arc::new(Network::from_bytes(EMBEDDED_BYTES)?);
    Ok(NET.get_or_init(|| net).clone())
}

/// The side-to-move term of the `nnue` profile's network
/// ([`Network::with_tempo`]), in centi-units. The embedded network's own
/// term varies from board to board (sd 23 cp over self-play positions),
/// and the search's tree to a fixed depth is sensitive to it: 25 took the
/// fewest nodes to depth 12 from the 50 built-in openings (1.70 times
/// the hand-written evaluation's, against 2.34 for the network as
/// trained; 15: 2.03, 20: 1.79, 30: 1.89, 40: 3.04), `nnue_compare`,
/// docs/nnue.md try 3.
pub const PROFILE_TEMPO: i32 = 25;

/// The network's share, in per cent, of the `hybrid` profile's
/// evaluation; the hand-written evaluation has the rest
/// ([`JungleEval::with_network_share`](super::JungleEval::with_network_share)).
pub const HYBRID_NETWORK_SHARE: u8 = 50;

/// The network of the `nnue` evaluation profile: the embedded one with
/// its side-to-move term made [`PROFILE_TEMPO`], built once.
///
/// ```
/// use qi_engine::jungle::nnue::{embedded, profile_network};
///
/// let net = profile_network().unwrap();
/// assert_eq!(net.scale(), embedded().unwrap().scale());
/// ```
pub fn profile_network() -> Result<Arc<Network>, NetworkError> {
    static NET: OnceLock<Arc<Network>> = OnceLock::new();
    if let Some(net) = NET.get() {
        return Ok(net.clone());
    }
    let net = Arc::new(embedded()?.with_tempo(PROFILE_TEMPO));
    Ok(NET.get_or_init(|| net).clone())
}

/// `net`'s evaluation of `pos` for the side to move, in centi-units, from
/// this thread's accumulator brought up to `pos`.
///
/// ```
/// use qi_games::engine::jungle::nnue::{evaluate, evaluate_fresh, profile_network};
/// use qi_games::prelude::*;
///
/// let net = profile_network()?;
/// let mut pos = Jungle::default();
/// for mv in ["a3a4", "g7g6", "a4a5"] {
///     pos.play(mv.parse()?)?;
///     // The sums updated move by move are the sums from scratch.
///     assert_eq!(evaluate(&net, &pos), evaluate_fresh(&net, &pos));
/// }
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn evaluate(net: &Network, pos: &Jungle) -> i32 {
    ACCUMULATOR.with(|acc| {
        let mut acc = acc.borrow_mut();
        acc.update(net, pos);
        accumulator::output(net, &acc, pos.side_to_move())
    })
}

/// [`evaluate`] with the sums computed from scratch (the reference the
/// incremental updates are tested against).
///
/// ```
/// use qi_games::engine::jungle::nnue::{evaluate, evaluate_fresh, profile_network};
/// use qi_games::prelude::*;
///
/// let net = profile_network()?;
/// let pos = Jungle::default();
/// assert_eq!(evaluate_fresh(&net, &pos), evaluate(&net, &pos));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn evaluate_fresh(net: &Network, pos: &Jungle) -> i32 {
    let mut acc = Accumulator::default();
    acc.refresh(net, pos);
    accumulator::output(net, &acc, pos.side_to_move())
}

/// [`evaluate`] from a given accumulator (updated to `pos` first).
///
/// ```
/// use qi_games::engine::jungle::nnue::{evaluate_fresh, evaluate_with, profile_network, Accumulator};
/// use qi_games::prelude::*;
///
/// let net = profile_network()?;
/// // One accumulator per line of play, as a search thread keeps it.
/// let mut acc = Accumulator::default();
/// let pos = Jungle::default();
/// assert_eq!(evaluate_with(&net, &mut acc, &pos), evaluate_fresh(&net, &pos));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn evaluate_with(net: &Network, acc: &mut Accumulator, pos: &Jungle) -> i32 {
    acc.update(net, pos);
    accumulator::output(net, acc, pos.side_to_move())
}
