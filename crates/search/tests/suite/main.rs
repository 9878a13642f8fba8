//! The crate's integration tests, one module per subject, built as one
//! binary: one link and one instantiation of the generic code instead
//! of one per file.

mod toy;

mod behaviour;
mod caller_input;
mod differential;
mod multipv;
mod perft_toy;
