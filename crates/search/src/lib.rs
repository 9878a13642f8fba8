//! Game-independent search for the qi engines: perft (bulk counting,
//! divide, multi-threaded) and negamax, generic over [`qi_core::Position`].
#![deny(missing_docs)]
#![forbid(unsafe_code)]

pub mod perft;

pub use perft::{divide, divide_parallel, perft, perft_parallel, perft_plain};
