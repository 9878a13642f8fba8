//! The crate's integration tests, one module per subject, built as one
//! binary: one link and one instantiation of the generic code instead
//! of one per file.

mod common;

mod captures;
mod conformance;
mod game;
mod messages;
mod names;
mod parsers;
mod perft;
mod reference;
mod rules;
mod serde;
mod setup;
mod unmoves;
