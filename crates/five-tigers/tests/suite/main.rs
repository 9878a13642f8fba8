//! The crate's integration tests, one module per subject, built as one
//! binary: one link and one instantiation of the generic code instead
//! of one per file.

mod common;

mod conformance;
mod formations;
mod game;
mod names;
mod perft;
mod reachable;
mod rules;
mod serde;
mod setup;
mod text;
mod unmoves;
