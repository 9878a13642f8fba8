//! The crate's integration tests, one module per subject, built as one
//! binary: one link and one instantiation of the generic code instead
//! of one per file.

mod arena_match;
mod builtin_openings;
mod caller_input;
mod five_tigers_eval;
#[cfg(feature = "tablebase")]
mod five_tigers_tablebase_search;
#[cfg(feature = "tablebase")]
mod ft_tb_suite;
mod jungle_eval;
mod jungle_null_move;
mod jungle_openings;
mod levels;
mod nnue;
mod nnue_search;
mod records;
#[cfg(feature = "tablebase")]
mod tablebase_search;
#[cfg(feature = "tablebase")]
mod tb_suite;
mod third_game;
