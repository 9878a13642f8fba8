//! The crate's integration tests, one module per subject, built as one
//! binary: one link and one instantiation of the generic code instead
//! of one per file.

mod common;

mod arena_interrupt;
mod arena_match;
mod arena_progress;
mod arena_robustness;
mod cli;
mod engine_levels;
mod engine_protocol;
mod engine_tablebase;
mod gui_replay;
mod record_files;
mod render;
mod serve;
mod startup_and_output;
mod tb;
mod tb_cluster;
mod tb_dir;
mod tb_ft_probe;
