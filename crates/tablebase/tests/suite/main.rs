//! The crate's integration tests, one module per subject, built as one
//! binary: one link and one instantiation of the generic code instead
//! of one per file.

mod common {
    pub mod backward;
    pub mod fnv;
    pub mod ft_graph;
    pub mod generate;
    pub mod jungle_graph;
    #[cfg(feature = "distributed")]
    pub mod loopback;
    pub mod one_ply;
}

mod dir;
mod exhaustive;
mod files;
mod five_tigers_bans;
mod five_tigers_cells;
mod five_tigers_dense;
mod five_tigers_dense_ban;
mod five_tigers_exhaustive;
mod five_tigers_graph;
mod five_tigers_rounds;
mod five_tigers_tables;
mod jungle_rounds;
mod partitioned;
mod pinned_bytes;
mod pinned_paths;
mod retrograde;
