//! The core's types for Jungle by their short names, apart from the
//! game's trait implementation (`jungle/mod.rs`), so that the modules
//! below `jungle` name them without importing their parent.

use qi_jungle::Jungle;

/// The Jungle tables in memory.
pub type Tablebase = crate::Tablebase<Jungle>;
/// The Jungle tables of a directory, read on first use.
pub type LazyTablebase = crate::LazyTablebase<Jungle>;
/// One Jungle table.
pub type Table = crate::Table<Jungle>;
