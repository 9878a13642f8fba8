//! [`TableGame`]: what the table core (tables, files, probing, the
//! generation driver) needs to know of a game, and nothing more. Each game
//! implements it in its own module (`jungle`, `five_tigers`) for its
//! position type, so that `Tablebase<Jungle>` and `Tablebase<FiveTigers>`
//! read as what they are.
//!
//! The split follows Syzygy's (and shakmaty-syzygy's): the container, the
//! values and the probe are the same for every table; what a material is,
//! how a position finds its slot (a ranking formula, or a sorted list of
//! canonical keys) and what the symmetries are belong to the game. How a
//! material is solved is the generation's side ([`Solver`](crate::Solver)),
//! apart from what probing needs.

use std::fmt;
use std::hash::Hash;
use std::str::FromStr;

pub(crate) mod table;

use crate::format::versions::SlotIndex;
use crate::format::FormatError;
use crate::value::Wdl;
use table::Table;

/// What a probe learns of a position before it reads a table
/// ([`TableGame::settle`]).
///
/// ```
/// use qi_games::jungle::{Jungle, Rules};
/// use qi_tablebase::{Settled, TableGame, Wdl};
///
/// let rules = Rules::standard();
/// let pos = Jungle::from_text("7/3L3/7/7/7/7/7/7/c6 w", rules)?;
/// assert_eq!(Jungle::settle(&pos), Settled::Table("LvC".parse()?));
/// // Red's Lion in Blue's den: over, Blue to move has lost.
/// let over = Jungle::from_text("3L3/7/7/7/7/7/7/7/c6 b", rules)?;
/// assert_eq!(Jungle::settle(&over), Settled::Answer(Some((Wdl::Loss, 0))));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Settled<M> {
    /// The answer without a table: `None` for a position no table covers,
    /// a finished game's value at distance 0.
    Answer(Option<(Wdl, u32)>),
    /// The table of this material answers.
    Table(M),
}

/// A game with endgame tables: implemented for its position type.
///
/// The core relies on these facts: every position a table covers has one
/// material and one slot in that material's table; a capture or removal
/// leads to a material earlier in [`closure`](TableGame::closure)'s order;
/// [`Solver::solve`](crate::Solver::solve) gives every slot its value and
/// distance.
///
/// ```
/// use qi_games::jungle::{Jungle, Rules};
/// use qi_tablebase::jungle::Material;
/// use qi_tablebase::{Settled, TableGame};
///
/// let rules = Rules::standard();
/// let m: Material = "LvC".parse()?;
/// let closure = Jungle::closure(&[m], &rules);
/// assert_eq!(closure.last(), Some(&m)); // after what it needs
/// for needed in Jungle::dependencies(m, &rules) {
///     assert!(Jungle::level(needed) < Jungle::level(m));
///     assert!(closure.contains(&needed));
/// }
/// let pos = Jungle::from_text("7/3L3/7/7/7/7/7/7/c6 w", rules)?;
/// assert_eq!(Jungle::settle(&pos), Settled::Table(m));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub trait TableGame: Sized + Send + Sync + 'static {
    /// The rules a table is generated under (its header holds their text).
    type Rules: Copy
        + PartialEq
        + fmt::Debug
        + fmt::Display
        + FromStr<Err = Self::RulesError>
        + Send
        + Sync;
    /// Why a rules text does not parse.
    type RulesError: std::error::Error + Send + Sync + 'static;
    /// What the pieces on the board are; one table per material.
    type Material: Copy
        + Ord
        + Hash
        + fmt::Debug
        + fmt::Display
        + FromStr<Err = Self::MaterialError>
        + Send
        + Sync;
    /// Why a material text does not parse.
    type MaterialError: std::error::Error + Send + Sync + 'static;
    /// What a table keeps to find a position's slot beyond its material
    /// (a ranking formula's arithmetic, or the sorted keys), built when the
    /// table is made or read.
    type Index: Clone + fmt::Debug + Eq + Send + Sync;
    /// The statistics of one table by the game's counting convention.
    type Stats;

    /// The game name in a table file's header.
    const NAME: &'static str;
    /// The extension of the game's table files.
    const EXTENSION: &'static str;
    /// What differs between two rule sets whose tables differ, for
    /// [`FormatError::RulesMismatch`]'s message.
    const RULES_DIFFER: &'static str;

    /// Whether tables made under `a` answer for positions played under `b`
    /// (the rules that shape the moves agree).
    fn same_board_rules(a: &Self::Rules, b: &Self::Rules) -> bool;

    /// The rules `pos` is played under.
    fn rules_of(pos: &Self) -> &Self::Rules;

    /// What `pos` needs: an answer without a table (not covered, or over)
    /// or its material's table.
    fn settle(pos: &Self) -> Settled<Self::Material>;

    /// The slot of `pos` in a table of `material` whose index is `index`,
    /// if it has one (what a table in memory and a file paged from disk
    /// share).
    fn slot(material: Self::Material, index: &Self::Index, pos: &Self) -> Option<u64>;

    /// The size a [`LazyTablebase`](crate::LazyTablebase) reports the
    /// largest of: a position whose size exceeds every file's has no table
    /// (Jungle: animals on the board; Five Tigers: pieces of the larger
    /// side).
    fn size(material: Self::Material) -> u32;

    /// `materials` and every material their captures lead to, in an order
    /// where each comes after those it needs, cut into levels by
    /// [`level`](TableGame::level).
    fn closure(materials: &[Self::Material], rules: &Self::Rules) -> Vec<Self::Material>;

    /// The generation level of a material: a capture leads to a lower one,
    /// so the materials of one level are solved side by side.
    fn level(material: Self::Material) -> u32;

    /// The materials one capture or removal of `material` leads to with
    /// the game still on: the tables its solution reads. Each is at a
    /// lower [`level`](TableGame::level), but not always the one just
    /// below (a Five Tigers three-diagonal takes two pieces at once, so
    /// `3v3` reads `3v1`): a generation keeps a table in memory until the
    /// last material that reads it is solved, not just for the next level.
    fn dependencies(material: Self::Material, rules: &Self::Rules) -> Vec<Self::Material>;

    /// An upper bound (or, where said, an estimate) of the working memory
    /// of [`Solver::solve`](crate::Solver::solve) for `material`, in bytes.
    fn generation_memory(material: Self::Material, rules: &Self::Rules) -> u64;

    /// The bytes of `material`'s table, in memory or on disk (an estimate
    /// where the count of slots is not known before solving).
    fn table_bytes(material: Self::Material, rules: &Self::Rules) -> u64;

    /// What numbers the slots of a table of `index`: it names the file
    /// format the table is written in (`format::versions`).
    fn slot_index(index: &Self::Index) -> SlotIndex;

    /// The index's bytes in a keyed file (none for a formula).
    fn index_bytes(index: &Self::Index) -> Vec<u8>;

    /// The index of a table of `material` under `rules` with `count` slots
    /// numbered by `slots` (what the file's version names), from its file
    /// bytes (the keys of a keyed file, none for a formula), refusing what
    /// [`index_bytes`](TableGame::index_bytes) would not have written, a
    /// count that is not the material's or a formula that does not go
    /// with `rules`.
    fn read_index(
        material: Self::Material,
        rules: &Self::Rules,
        slots: SlotIndex,
        count: u64,
        bytes: &[u8],
    ) -> Result<Self::Index, FormatError>;

    /// The statistics of `table`.
    fn stats(table: &Table<Self>) -> Self::Stats;
}
