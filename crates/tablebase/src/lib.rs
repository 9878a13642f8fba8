//! # qi-tablebase: endgame tablebases for Jungle (斗兽棋) and Five Tigers (五虎棋)
//!
//! Every position of a small material (which pieces each side has) solved
//! by retrograde analysis under a rule set's board rules: win, draw or loss
//! for the side to move, and the distance in plies to the end of the game.
//! `docs/tablebases.md` gives the counting conventions, the file format and
//! measured figures.
//!
//! One core serves every game, generic over [`TableGame`] (implemented for
//! each game's position type, so `Tablebase<Jungle>` and
//! `Tablebase<FiveTigers>`):
//!
//! * [`Table`] holds one material's values (2 bits each) and distances;
//!   [`Table::to_bytes`] / [`Table::from_bytes`] are the one file format
//!   (header with magic, version, game, rules, material, count and
//!   checksum; the game's index bytes, if any; the values; the distances).
//! * [`Tablebase`] holds a set of tables in memory: [`Tablebase::generate`]
//!   and [`Tablebase::extend`] solve materials and what their captures
//!   lead to, level by level on several threads; [`Tablebase::save_dir`]
//!   and [`Tablebase::load_dir`] keep a directory; [`Tablebase::probe`]
//!   answers for a position.
//! * [`LazyTablebase`] answers from a directory, reading each material's
//!   file when first needed (what a search shares between its threads).
//! * [`generate_dir`] generates straight into a directory, holding a table
//!   only until the last material that reads it
//!   ([`TableGame::dependencies`]) is solved; [`plan_dir`] says what it
//!   will do, per material. How a material is solved is [`Solver`]'s,
//!   apart from [`TableGame`], which is all that probing needs.
//! * [`FormatError`], [`ProbeError`] and [`GenerateError`] are the errors
//!   of every game.
//!
//! What is each game's own lives in its module: [`jungle`] (the
//! mirror-halved ranking of placements, the capture graph) and
//! [`five_tigers`] (canonical keys under the 8 board symmetries, the
//! owed-removal states, the shuttle ban).
//!
//! ```
//! use qi_games::jungle::{Jungle, Rules};
//! use qi_tablebase::jungle::Material;
//! use qi_tablebase::{Tablebase, Wdl};
//!
//! let rules = Rules::standard();
//! let m: Material = "LvC".parse().unwrap();
//! let tb = Tablebase::<Jungle>::generate(&rules, &[m], 2).unwrap();
//! // Red Lion on d8, beside the Blue den: it enters at once.
//! let pos = Jungle::from_text("7/3L3/7/7/7/7/7/7/c6 w", rules).unwrap();
//! assert_eq!(tb.probe(&pos).unwrap(), Some((Wdl::Win, 1)));
//! ```
#![deny(missing_docs)]
#![forbid(unsafe_code)]

#[cfg(feature = "distributed")]
mod cluster;
#[cfg(feature = "distributed")]
pub mod dataflow;
mod dir;
mod dir_lock;
mod driver;
mod error;
mod exec;
pub mod five_tigers;
mod format;
mod game;
#[cfg(feature = "distributed")]
mod heartbeat;
mod in_core;
pub mod jungle;
mod probe;
#[cfg(feature = "distributed")]
pub mod rendezvous;
mod resume;
pub mod retrograde;
mod round;
mod value;

pub use dir::{generate_dir, plan_dir, DirPlan, DirStep};
pub use dir_lock::{remove_stale_temporaries, WriteLock, LOCK_FILE};
pub use driver::GenerateError;
pub use driver::{Plan, Solver};
pub use exec::GenerateDirError;
pub use format::container::{FileError, MAGIC};
pub use format::partition;
pub use format::write::free_bytes;
pub use format::{check_table_file, load_table, save_table, FormatError, Source};
pub use game::table::Table;
pub use game::{Settled, TableGame};
pub use probe::lazy::LazyTablebase;
pub use probe::paged::Paging;
pub use probe::{ProbeError, Tablebase};
pub use value::Wdl;
