//! The core's types for Jungle by their short names, apart from the
//! game's trait implementation (`jungle/mod.rs`), so that the modules
//! below `jungle` name them without importing their parent.

use qi_jungle::Jungle;

/// The Jungle tables in memory.
///
/// ```
/// use qi_games::jungle::{Jungle, Rules};
/// use qi_tablebase::jungle::{Material, Tablebase};
/// use qi_tablebase::Wdl;
///
/// let rules = Rules::standard();
/// let tb = Tablebase::generate(&rules, &["RvE".parse::<Material>()?], 2)?;
/// // Red's Rat on c3 takes Blue's Elephant beside it, its last animal.
/// let pos = Jungle::from_text("7/7/7/7/7/7/2Re3/7/7 w", rules)?;
/// assert_eq!(tb.probe(&pos)?, Some((Wdl::Win, 1)));
/// // The Elephant may not take the Rat: Blue to move does not win at once.
/// let pos = Jungle::from_text("7/7/7/7/7/7/2Re3/7/7 b", rules)?;
/// assert_ne!(tb.probe(&pos)?, Some((Wdl::Win, 1)));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub type Tablebase = crate::Tablebase<Jungle>;
/// The Jungle tables of a directory, read on first use.
///
/// ```
/// use qi_games::jungle::Rules;
/// use qi_tablebase::jungle::{LazyTablebase, Material, Tablebase};
///
/// let rules = Rules::standard();
/// let m: Material = "LvC".parse()?;
/// let dir = tempfile::tempdir()?;
/// Tablebase::generate(&rules, &[m], 1)?.save_dir(dir.path())?;
/// let lazy = LazyTablebase::open(dir.path(), &rules)?;
/// assert_eq!((lazy.found(), lazy.loaded()), (1, 0));
/// assert!(lazy.has_table(m));
/// assert_eq!(lazy.loaded(), 1);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub type LazyTablebase = crate::LazyTablebase<Jungle>;
/// One Jungle table.
///
/// ```
/// use qi_games::jungle::Rules;
/// use qi_tablebase::jungle::{Material, Table, Tablebase};
///
/// let rules = Rules::standard();
/// let m: Material = "LvC".parse()?;
/// let tb = Tablebase::generate(&rules, &[m], 1)?;
/// let table: &Table = tb.table(m).unwrap();
/// assert_eq!(table.material(), m);
/// assert_eq!(Table::from_bytes(&table.to_bytes(), Some(&rules))?, *table);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub type Table = crate::Table<Jungle>;
