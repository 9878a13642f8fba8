//! # qi-tablebase: endgame tablebases for Jungle (斗兽棋) and Five Tigers (五虎棋)
//!
//! Every position of a small material (which pieces each side has) solved
//! by retrograde analysis under a rule set's board rules: win, draw or loss
//! for the side to move, and the distance in plies to the end of the game.
//! `docs/tablebases.md` is the user's reference (the tables, the commands,
//! the figures); this page is the design.
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
//!
//! ## Glossary
//!
//! * **Material**: which pieces each side has (`LCvE`, `3v2`); one table,
//!   one file, one *slice* of the analysis each.
//! * **Position**: what the game's rules crate plays: the board, the side
//!   to move and, in Five Tigers, the previous steps and removals owed.
//! * **State** (Five Tigers): a position up to the 8 board symmetries, as
//!   the generator and the keyed file know it (its canonical key); an
//!   *owed* state is one where the side to move still owes removals.
//! * **Slot**: one entry of a table, the number a formula gives a position
//!   ([`TableGame::slot`]): Jungle's mirror-halved ranking of placements,
//!   Five Tigers' dense index (a class of First's pieces × the rank of
//!   Second's × the side to move), or the rank of a state among a keyed
//!   file's sorted keys. A slot no position uses holds the code
//!   [`UNUSED`].
//! * **Board slot** and **cell** (Five Tigers): under `shuttle =
//!   forbidden` a position also holds each side's previous step, so each
//!   board slot of the dense index is followed by a cell per pair of
//!   previous steps that can ban something; the cells are the slots of
//!   such a table. With the shuttle allowed the index is the same one with
//!   no bans: one cell per board slot. The solvers say *cell* for what
//!   they number, whatever the game.
//! * **Exit**: a move out of the material (a capture, a removal) into a
//!   smaller table already solved; its value is read there.
//! * **Round** `t`: the step of the analysis that decides the positions
//!   at distance `t`.
//! * **Plan**, **way**: a generation's [`Plan`] says per material how it
//!   is made ([`How`]) and how the run holds the tables read
//!   ([`Holding`]: in memory, from the directory, on a cluster); the one
//!   executor (`exec`) runs it, asking a *way* to make each material and
//!   writing, checking and resuming the files itself.
//! * **Level**: the materials solved side by side, none reading another
//!   ([`TableGame::level`]); a table is kept until the last material that
//!   reads it ([`TableGame::dependencies`]) is solved.
//!
//! ## The parts, each in one place
//!
//! | part | module | what it holds |
//! |---|---|---|
//! | values | `value` | [`Wdl`], the 2-bit codes and [`UNUSED`], packing four a byte, the one distance-width rule (one byte while the longest distance fits, else two) and the one coding of distances as file bytes |
//! | errors | `error` | [`FormatError`], [`FileError`], [`GenerateError`], [`ProbeError`] |
//! | threads | `threads` | the one pool (parts or jobs on `n` scoped threads, their results in order or the first error) and the lock that goes on after a panic |
//! | transition rule | `round` | how a slot starts, what a tiding does to it, the end of a round, overflow as a typed error, what a solver refuses ([`retrograde::RetroError`]) |
//! | solvers | `in_core` (every in-core generation, and [`retrograde::solve`] over any slice), the [`retrograde::Ledger`] of the distributed run, `five_tigers::out_of_core` (out of core) | each keeps its own layout and applies `round`'s rule |
//! | file formats | `format` (`container`, `blocked`, `partition`, `versions`, `write`) | the one table of (game, version) → layout ([`SlotIndex`]); atomic writing |
//! | probing | `probe` ([`Tablebase`], [`LazyTablebase`], paged files) | reads `format`, never the generators |
//! | games | [`jungle`], [`five_tigers`], `game` ([`TableGame`]) | the index, the moves and un-moves, the dependencies |
//! | generation | `plan` ([`Plan`]), `exec`, `driver` ([`Solver`], [`Generator`], [`generate_plan`]), `on_cluster`, [`dataflow`] | the plans, the one resumable executor, its ways (in core, the game's own, on a cluster) |
//!
//! ## Design, and why it is right
//!
//! **The rule.** A position is *won at `d + 1`* when a move reaches a
//! position lost at `d`, for the least such `d`; *lost* when every move
//! reaches a won position, one ply past the longest of them; *drawn*
//! otherwise. A position with no move is decided by the game's rules
//! (distance 0).
//!
//! **Rounds by distance.** Round `t` takes the positions decided at `t −
//! 1` and tells each predecessor (an un-move) what its successor became:
//! a lost successor wins it at `t`; a won one counts its undecided
//! successors down, and when none is left, no move draws or wins, so it
//! is lost. Claim: after round `t`, exactly the positions whose value is
//! decided at distance at most `t` are decided, each at its distance. By
//! induction on `t`: a position won at `t` has a successor lost at `t − 1`,
//! decided in round `t − 1` and told in round `t`, and no lost successor
//! was told earlier (else it would be won sooner), so it is won in round
//! `t` and not before. A position lost at `t` has every successor won at
//! most at `t − 1`, the longest at exactly `t − 1`: all were told by round
//! `t`, the last of them in round `t`. What no round decides has a
//! successor neither won nor lost, or a cycle of such: drawn by the rule.
//!
//! **Exits.** A move into a smaller table is not told by a round: its
//! value is read once, at the start. An exit into a lost position at `e`
//! schedules a win at `e + 1` (kept if no round wins it sooner); an exit
//! into a drawn or won-for-the-mover position makes the slot *never
//! lost*; exits into won positions only raise the floor of a loss, which
//! is then held back to one ply past the longest such exit, since the
//! rule's "longest" ranges over every move, exits included.
//!
//! **Overflow.** Distances are at most 65 534 plies; a position further
//! from the end is a [`GenerateError::TooDeep`] in every solver, never a
//! distance cut short. A solver may hold one byte a distance and solve
//! again with two when a round passes 255; the file's width depends only
//! on the table's longest distance (one byte while it fits, else two),
//! never on the route that made it.
//!
//! **The same bytes by every route.** Every solver applies `round`'s rule
//! to the same slots and writes through `format`, so Jungle in core or by
//! rounds or on timely, Five Tigers in core, under the ban, out of core,
//! from its twin or joined from partitions give byte-identical files; the
//! tests pin a hash of each route's output (`tests/suite/pinned_bytes.rs`,
//! `pinned_paths.rs`, and `scripts/tb-compare.sh` for two directories).
//!
//! **Probing apart.** A probe needs a file's format and the game's slot
//! formula, nothing of generation: `probe` imports `format`, `game` and
//! the leaves only, so an engine can link the tables without the
//! generators' code paths, as Syzygy's probers (Fathom, shakmaty-syzygy)
//! do.
//!
//! ## Speed against the generators it replaced
//!
//! One thread (`qi tb generate --game G --pieces N --threads 1 DIR`, or
//! `--material M`, into an empty directory), the release build of commit
//! 12afcf5 (before the rebuild: Jungle's move-graph generator, Five
//! Tigers' two in-core generators) against this one, alternated (old,
//! new; then new, old), CPU seconds (user) and peak memory from
//! `/usr/bin/time`, two runs at a time on a 2-core machine (wall times
//! are not comparable, and the same binary varied by up to 15 % from run
//! to run). Both write the same bytes (`diff -r`), and `qi tb stats`
//! gives the same figures for every material.
//!
//! | what | before: CPU s (mean) | after: CPU s (mean) | change | before: peak | after: peak |
//! |---|---|---|---|---|---|
//! | Jungle `standard`, `--pieces 3` (512 tables) | 31.97, 30.11 (31.0) | 25.29, 24.83 (25.1) | −19 % | 19 MB | 10 MB |
//! | Five Tigers `shandong-shuttle`, `--pieces 4` (16 tables) | 16.15, 14.30 (15.2) | 16.08, 15.74 (15.9) | +5 % | 171 MB | 74 MB |
//! | Five Tigers `shandong-shuttle`, `--pieces 5` (25 tables, to `5v5`) | 271.91, 264.62 (268.3) | 300.38, 310.32 (305.4) | +14 % | 2.47 GB | 0.87 GB |
//! | Five Tigers `shandong`, `--pieces 3` (9 tables) | 18.49, 17.93 (18.2) | 18.49, 17.33 (17.9) | −2 % | 176 MB | 154 MB |
//! | Five Tigers `shandong`, `--material 4v3` (4 tables) | 156.89, 157.24 (157.1) | 172.79, 161.48 (167.1) | +6 % | 931 MB | 851 MB |
//! | Five Tigers `shandong`, `--material 4v4` (9 tables) | 831.95, 807.90 (819.9) | 845.82, 839.25 (842.5) | +3 % | 5.49 GB | 5.15 GB |
//!
//! The in-core solver's peak is its state bytes and distances (a byte
//! each a cell; two a distance when one does not fit) beside the smaller
//! tables it reads: a table's values are packed into the state bytes
//! themselves (`value::pack_in_place`), where the old generators packed
//! them into a second array.
//!
//! Under the shuttle, the starts cost more than the dense generator's
//! they replaced: under callgrind, `qi tb generate --game
//! five-tigers:shandong-shuttle --pieces 3 --threads 1` executes
//! 5,039,174,514 instructions against 4,295,018,161, the starts of the
//! cells 3.65 · 10⁹ against about 2.85 · 10⁹ (a board slot's one cell
//! still goes through `cells::start_cells`' walk of the bans and a
//! `BlockStart`), the rounds about even.
//!
//! Jungle's in-core solver spends about a fifth less user time than the
//! move-graph generator it replaced; under callgrind, `qi tb generate
//! --game jungle:standard --pieces 2 --threads 1` executes 628,102,299
//! instructions against 728,073,144. It walks un-moves where the old
//! one walked a graph built once, so each is kept cheap: an un-move is
//! tested by the moved animal's reach alone (`Jungle::unplay_quiet`; the
//! whole side's destinations were 15 % of the instructions), the index
//! checks a material by its animals' squares, and a position with two
//! animals or more off the middle file counts its successors without
//! indexing them. Five Tigers' one layout for both shuttle options
//! (`Slots::Dense` over a `BanIndex` with bans or without) holds less than
//! half the peak of the two it replaced under the shuttle.
//!
//! ## Entry points
//!
//! * [`Table`] holds one material's values (2 bits each) and distances;
//!   [`Table::to_bytes`] / [`Table::from_bytes`] read and write the file
//!   its index's format names ([`SlotIndex`]).
//! * [`Tablebase`] holds a set of tables in memory: [`Tablebase::generate`]
//!   and [`Tablebase::extend`] solve materials and what their captures
//!   lead to, level by level on several threads; [`Tablebase::save_dir`]
//!   and [`Tablebase::load_dir`] keep a directory; [`Tablebase::probe`]
//!   answers for a position.
//! * [`LazyTablebase`] answers from a directory, reading each material's
//!   file when first needed (what a search shares between its threads).
//! * A directory is filled by a [`Plan`] run through the one entry,
//!   [`generate_plan`], however it is planned: [`plan_dir`] (every
//!   material in core, the tables it reads held),
//!   [`Generator::plan_within`] (the game's plan within a memory bound:
//!   Five Tigers' `plan_bounded`, in core, from its twin or out of core)
//!   or, with the `distributed` feature, `plan_on_cluster` (one process
//!   of a cluster, whole tables gathered or its partitions only, which
//!   [`join_partitions`] makes table files of afterwards).
#![deny(missing_docs)]
#![forbid(unsafe_code)]

#[cfg(feature = "distributed")]
mod cluster;
#[cfg(feature = "distributed")]
pub mod dataflow;
mod dir_lock;
mod driver;
mod error;
mod exec;
pub mod five_tigers;
mod format;
mod game;
mod generate;
#[cfg(feature = "distributed")]
mod heartbeat;
mod in_core;
pub mod jungle;
#[cfg(feature = "distributed")]
mod on_cluster;
mod plan;
mod probe;
#[cfg(feature = "distributed")]
pub mod rendezvous;
pub mod retrograde;
mod round;
mod threads;
mod value;

pub use dir_lock::{remove_stale_temporaries, WriteLock, LOCK_FILE};
pub use driver::{join_partitions, GenerateError, Generator, Made, Output, Solver};
pub use exec::GenerateDirError;
pub use format::container::{FileError, MAGIC};
pub use format::partition;
pub use format::versions::{format_line, version_of, SlotIndex};
pub use format::write::free_bytes;
pub use format::{check_table_file, load_table, save_table, FormatError, Source};
pub use game::table::Table;
pub use game::{Settled, TableGame};
pub use generate::generate_plan;
#[cfg(feature = "distributed")]
pub use on_cluster::plan_on_cluster;
pub use plan::{plan_dir, Holding, How, Plan, Step};
pub use probe::lazy::LazyTablebase;
pub use probe::paged::Paging;
pub use probe::{ProbeError, Tablebase};
pub use value::{Wdl, UNUSED};
