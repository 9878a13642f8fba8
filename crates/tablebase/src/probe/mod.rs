//! [`Tablebase`]: the tables of one game under one rule set, in memory,
//! and the probe every tablebase shares ([`settle`]). Generating them is
//! the driver's (`Tablebase::generate`, `Tablebase::extend`).

pub(crate) mod lazy;
pub(crate) mod paged;

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use crate::error::GenerateError;
pub use crate::error::ProbeError;
use crate::format::{file_path, load_table, save_table, FormatError};
use crate::game::table::Table;
use crate::game::{Settled, TableGame};
use crate::value::Wdl;

/// A set of tables of game `G` under one rule set, generated in memory or
/// loaded from a directory.
///
/// ```
/// use qi_games::jungle::{Jungle, Rules};
/// use qi_tablebase::jungle::Material;
/// use qi_tablebase::{Tablebase, Wdl};
///
/// let rules = Rules::standard();
/// let m: Material = "LvC".parse().unwrap();
/// let tb = Tablebase::<Jungle>::generate(&rules, &[m], 2).unwrap();
/// // Red Lion on d8, beside the Blue den: it enters at once.
/// let pos = Jungle::from_text("7/3L3/7/7/7/7/7/7/c6 w", rules).unwrap();
/// assert_eq!(tb.probe(&pos).unwrap(), Some((Wdl::Win, 1)));
/// ```
#[derive(Clone, Debug)]
pub struct Tablebase<G: TableGame> {
    rules: G::Rules,
    tables: BTreeMap<G::Material, Table<G>>,
}

impl<G: TableGame> Tablebase<G> {
    /// An empty tablebase for `rules`.
    ///
    /// ```
    /// use qi_games::jungle::{Jungle, Rules};
    /// use qi_tablebase::jungle::{Material, Tablebase};
    /// use qi_tablebase::Wdl;
    ///
    /// let rules = Rules::standard();
    /// let m: Material = "LvC".parse()?;
    /// let tb = Tablebase::new(&rules);
    /// assert_eq!(tb.tables().count(), 0);
    /// let pos = Jungle::from_text("7/3L3/7/7/7/7/7/7/c6 w", rules)?;
    /// assert_eq!(tb.probe(&pos)?, None); // no table
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn new(rules: &G::Rules) -> Tablebase<G> {
        Tablebase {
            rules: *rules,
            tables: BTreeMap::new(),
        }
    }

    /// The rules.
    ///
    /// ```
    /// use qi_games::jungle::{Jungle, Rules};
    /// use qi_tablebase::jungle::{Material, Tablebase};
    /// use qi_tablebase::Wdl;
    ///
    /// let rules = Rules::standard();
    /// let m: Material = "LvC".parse()?;
    /// assert_eq!(Tablebase::new(&rules).rules(), &rules);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn rules(&self) -> &G::Rules {
        &self.rules
    }

    /// The table of `material`, if loaded.
    ///
    /// ```
    /// use qi_games::jungle::{Jungle, Rules};
    /// use qi_tablebase::jungle::{Material, Tablebase};
    /// use qi_tablebase::Wdl;
    ///
    /// let rules = Rules::standard();
    /// let m: Material = "LvC".parse()?;
    /// let tb = Tablebase::generate(&rules, &[m], 1)?;
    /// assert_eq!(tb.table(m).unwrap().material(), m);
    /// assert!(tb.table("LvE".parse()?).is_none());
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn table(&self, material: G::Material) -> Option<&Table<G>> {
        self.tables.get(&material)
    }

    /// The loaded tables, in material order.
    ///
    /// ```
    /// use qi_games::jungle::{Jungle, Rules};
    /// use qi_tablebase::jungle::{Material, Tablebase};
    /// use qi_tablebase::Wdl;
    ///
    /// let rules = Rules::standard();
    /// let m: Material = "LvC".parse()?;
    /// let tb = Tablebase::generate(&rules, &["LRvE".parse()?], 2)?;
    /// let names: Vec<String> = tb.tables().map(|t| t.material().to_string()).collect();
    /// assert_eq!(names.len(), 3); // LRvE and the two materials its captures leave
    /// assert!(names.contains(&"LvE".to_string()) && names.contains(&"RvE".to_string()));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn tables(&self) -> impl Iterator<Item = &Table<G>> {
        self.tables.values()
    }

    /// The table of `needed`, which solving `material` reads, or why not
    /// ([`GenerateError::MissingSubtable`]).
    pub(crate) fn needed(
        &self,
        material: G::Material,
        needed: G::Material,
    ) -> Result<&Table<G>, GenerateError> {
        self.table(needed)
            .ok_or_else(|| GenerateError::MissingSubtable {
                material: material.to_string(),
                needed: needed.to_string(),
            })
    }

    /// Adds a table (replacing one of the same material), if it was made
    /// under the same board rules; otherwise gives it back.
    ///
    /// ```
    /// use qi_games::jungle::{Jungle, Rules};
    /// use qi_tablebase::jungle::{Material, Tablebase};
    /// use qi_tablebase::Wdl;
    ///
    /// let rules = Rules::standard();
    /// let m: Material = "LvC".parse()?;
    /// let table = Tablebase::generate(&rules, &[m], 1)?.table(m).unwrap().clone();
    /// let mut tb = Tablebase::new(&rules);
    /// assert!(tb.insert(table.clone()).is_ok());
    /// assert_eq!(tb.table(m), Some(&table));
    /// let mut other = Tablebase::new(&Rules::datou());
    /// assert!(other.insert(table).is_err(), "made under other board rules");
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn insert(&mut self, table: Table<G>) -> Result<(), Box<Table<G>>> {
        if G::same_board_rules(&self.rules, &table.rules) {
            self.insert_table(table);
            Ok(())
        } else {
            Err(Box::new(table))
        }
    }

    pub(crate) fn insert_table(&mut self, table: Table<G>) {
        self.tables.insert(table.material, table);
    }

    /// Keeps the tables of the materials `keep` says yes to.
    pub(crate) fn retain(&mut self, mut keep: impl FnMut(G::Material) -> bool) {
        self.tables.retain(|&m, _| keep(m));
    }

    /// The path of the file of `material` in `dir`: `dir/LCvE.qtb`,
    /// `dir/3v2.qft`.
    ///
    /// ```
    /// use std::path::Path;
    /// use qi_tablebase::{five_tigers, jungle};
    ///
    /// let path = jungle::Tablebase::file_path(Path::new("dir"), "LCvE".parse()?);
    /// assert_eq!(path, Path::new("dir/LCvE.qtb"));
    /// let path = five_tigers::Tablebase::file_path(Path::new("dir"), "3v2".parse()?);
    /// assert_eq!(path, Path::new("dir/3v2.qft"));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn file_path(dir: &Path, material: G::Material) -> PathBuf {
        file_path::<G>(dir, material)
    }

    /// Writes every table to `dir` (created if missing), one file per
    /// material.
    ///
    /// ```
    /// use qi_games::jungle::{Jungle, Rules};
    /// use qi_tablebase::jungle::{Material, Tablebase};
    /// use qi_tablebase::Wdl;
    ///
    /// let rules = Rules::standard();
    /// let m: Material = "LvC".parse()?;
    /// let dir = tempfile::tempdir()?;
    /// let tb = Tablebase::generate(&rules, &["LRvE".parse()?], 2)?;
    /// tb.save_dir(&dir.path().join("tables"))?;
    /// assert_eq!(std::fs::read_dir(dir.path().join("tables"))?.count(), 3);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn save_dir(&self, dir: &Path) -> Result<(), FormatError> {
        std::fs::create_dir_all(dir).map_err(|source| FormatError::io(dir, source))?;
        for table in self.tables.values() {
            save_table(dir, table)?;
        }
        Ok(())
    }

    /// Loads every file of the game's extension in `dir`, refusing the
    /// whole directory if a file is corrupt, holds another material than
    /// its name says or was made under other board rules.
    ///
    /// ```
    /// use qi_games::jungle::{Jungle, Rules};
    /// use qi_tablebase::jungle::{Material, Tablebase};
    /// use qi_tablebase::Wdl;
    ///
    /// let rules = Rules::standard();
    /// let m: Material = "LvC".parse()?;
    /// let dir = tempfile::tempdir()?;
    /// let tb = Tablebase::generate(&rules, &[m], 1)?;
    /// tb.save_dir(dir.path())?;
    /// let back = Tablebase::load_dir(dir.path(), &rules)?;
    /// assert_eq!(back.table(m), tb.table(m));
    /// // Under other board rules the directory is refused.
    /// assert!(Tablebase::load_dir(dir.path(), &Rules::datou()).is_err());
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn load_dir(dir: &Path, rules: &G::Rules) -> Result<Tablebase<G>, FormatError> {
        let mut tb = Tablebase::new(rules);
        for path in table_files::<G>(dir)? {
            tb.insert_table(load_table(&path, rules)?);
        }
        Ok(tb)
    }

    /// Loads the files of `materials` present in `dir` (a missing file is
    /// skipped; a corrupt one, one holding another material or made under
    /// other board rules is refused): what an interrupted generation
    /// resumes from.
    ///
    /// ```
    /// use qi_games::jungle::{Jungle, Rules};
    /// use qi_tablebase::jungle::{Material, Tablebase};
    /// use qi_tablebase::Wdl;
    ///
    /// let rules = Rules::standard();
    /// let m: Material = "LvC".parse()?;
    /// let dir = tempfile::tempdir()?;
    /// Tablebase::generate(&rules, &[m], 1)?.save_dir(dir.path())?;
    /// let lve: Material = "LvE".parse()?;
    /// let present = Tablebase::load_present(dir.path(), &rules, &[m, lve])?;
    /// assert!(present.table(m).is_some() && present.table(lve).is_none());
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn load_present(
        dir: &Path,
        rules: &G::Rules,
        materials: &[G::Material],
    ) -> Result<Tablebase<G>, FormatError> {
        let mut tb = Tablebase::new(rules);
        for &m in materials {
            let path = Tablebase::<G>::file_path(dir, m);
            if path.exists() {
                tb.insert_table(load_table(&path, rules)?);
            }
        }
        Ok(tb)
    }

    /// The value and distance of `pos` for its side to move: `None` when
    /// no table covers it or its table is not loaded. A position whose game
    /// is over is answered with distance 0, table or not. The counters of
    /// the game record (no-capture or quiet plies) play no part.
    ///
    /// ```
    /// use qi_games::jungle::{Jungle, Rules};
    /// use qi_tablebase::jungle::{Material, Tablebase};
    /// use qi_tablebase::Wdl;
    ///
    /// let rules = Rules::standard();
    /// let m: Material = "LvC".parse()?;
    /// let tb = Tablebase::generate(&rules, &[m], 1)?;
    /// // Red Lion on d8, beside the Blue den, Red to move: a win in 1.
    /// let pos = Jungle::from_text("7/3L3/7/7/7/7/7/7/c6 w", rules)?;
    /// assert_eq!(tb.probe(&pos)?, Some((Wdl::Win, 1)));
    /// // A position of other board rules is an error, not an answer.
    /// let other = Jungle::from_text("7/3L3/7/7/7/7/7/7/c6 w", Rules::datou())?;
    /// assert!(tb.probe(&other).is_err());
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn probe(&self, pos: &G) -> Result<Option<(Wdl, u32)>, ProbeError> {
        Ok(match settle(&self.rules, pos)? {
            Settled::Answer(answer) => answer,
            Settled::Table(material) => self.tables.get(&material).and_then(|t| t.get(pos)),
        })
    }

    /// Per loaded material, its statistics.
    ///
    /// ```
    /// use qi_games::jungle::{Jungle, Rules};
    /// use qi_tablebase::jungle::{Material, Tablebase};
    /// use qi_tablebase::Wdl;
    ///
    /// let rules = Rules::standard();
    /// let m: Material = "LvC".parse()?;
    /// let tb = Tablebase::generate(&rules, &[m], 1)?;
    /// let stats = tb.stats();
    /// assert_eq!(stats.len(), 1);
    /// assert_eq!(stats[0].0, m);
    /// assert_eq!(stats[0].1.positions, m.position_count());
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn stats(&self) -> Vec<(G::Material, G::Stats)> {
        self.tables
            .values()
            .map(|t| (t.material, t.stats()))
            .collect()
    }
}

/// The files of `G`'s extension in `dir`, in order.
pub(crate) fn table_files<G: TableGame>(dir: &Path) -> Result<Vec<PathBuf>, FormatError> {
    let io = |source| FormatError::io(dir, source);
    let mut paths = Vec::new();
    for entry in std::fs::read_dir(dir).map_err(io)? {
        let path = entry.map_err(io)?.path();
        if path.extension().and_then(|e| e.to_str()) == Some(G::EXTENSION) {
            paths.push(path);
        }
    }
    paths.sort();
    Ok(paths)
}

/// What every probe settles before reading a table: a position under other
/// board rules than the tables' is an error; then the game says whether a
/// table answers ([`TableGame::settle`]).
pub(crate) fn settle<G: TableGame>(
    tables: &G::Rules,
    pos: &G,
) -> Result<Settled<G::Material>, ProbeError> {
    let position = G::rules_of(pos);
    if !G::same_board_rules(tables, position) {
        return Err(ProbeError::RulesMismatch {
            tables: tables.to_string(),
            position: position.to_string(),
        });
    }
    Ok(G::settle(pos))
}
