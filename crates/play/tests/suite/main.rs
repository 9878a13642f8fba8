//! The crate's integration tests, one module per subject, built as one
//! binary: one link and one instantiation of the generic code instead
//! of one per file.

mod bounded_errors;
mod error_codes;
mod search;
mod svg;
mod tree;
mod view;
