//! [`Table`]: the values and distances of one material of any game.

use crate::game::TableGame;
use crate::value::{code_at, pack_codes, Distances, Wdl};

/// The solved positions of one material under one rule set: for each slot
/// (the game's [`TableGame::slot`] of a position), the value for the side
/// to move and the distance in plies to the end of the game (0 for a
/// position already over; a draw has distance 0).
#[derive(Clone, Debug, PartialEq, Eq)]
///
/// ```
/// use qi_games::jungle::{Jungle, Rules};
/// use qi_tablebase::{Tablebase, Wdl};
///
/// let rules = Rules::standard();
/// let tb = Tablebase::<Jungle>::generate(&rules, &["LvC".parse()?], 1)?;
/// let table = tb.table("LvC".parse()?).unwrap();
/// assert_eq!(table.material().to_string(), "LvC");
/// let pos = Jungle::from_text("7/3L3/7/7/7/7/7/7/c6 w", rules)?;
/// assert_eq!(table.get(&pos), Some((Wdl::Win, 1)));
/// assert!((0..table.len()).any(|slot| table.at(slot) == Some((Wdl::Win, 1))));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub struct Table<G: TableGame> {
    pub(crate) material: G::Material,
    pub(crate) rules: G::Rules,
    pub(crate) index: G::Index,
    /// Two bits per position, four positions a byte, lowest bits first.
    pub(crate) values: Vec<u8>,
    pub(crate) distances: Distances,
    pub(crate) len: u64,
}

impl<G: TableGame> Table<G> {
    /// A table from its index and, slot by slot, its values and distances
    /// (what a game's [`Solver::solve`](crate::Solver::solve) returns).
    ///
    /// ```
    /// # use qi_games::jungle::{Jungle, Rules};
    /// # use qi_tablebase::jungle::{Material, Table, Tablebase};
    /// # use qi_tablebase::Wdl;
    /// # let rules = Rules::standard();
    /// # let m: Material = "LvC".parse()?;
    /// let tb = Tablebase::generate(&rules, &[m], 1)?;
    /// let table: &Table = tb.table(m).unwrap();
    /// // The same values and distances, slot by slot, make the same table.
    /// let values: Vec<Wdl> = (0..table.len()).map(|s| table.at(s).unwrap().0).collect();
    /// let distances: Vec<u16> = (0..table.len()).map(|s| table.at(s).unwrap().1 as u16).collect();
    /// let copy = Table::new(m, rules, table.index().clone(), &values, distances);
    /// assert_eq!(&copy, table);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn new(
        material: G::Material,
        rules: G::Rules,
        index: impl Into<G::Index>,
        values: &[Wdl],
        distances: Vec<u16>,
    ) -> Table<G> {
        Table {
            material,
            rules,
            index: index.into(),
            values: pack_codes(values.len(), 1, |i| values[i].code()),
            distances: Distances::from_u16(distances),
            len: values.len() as u64,
        }
    }

    /// The material.
    ///
    /// ```
    /// # use qi_games::jungle::{Jungle, Rules};
    /// # use qi_tablebase::jungle::{Material, Table, Tablebase};
    /// # use qi_tablebase::Wdl;
    /// # let rules = Rules::standard();
    /// # let m: Material = "LvC".parse()?;
    /// let tb = Tablebase::generate(&rules, &[m], 1)?;
    /// let table: &Table = tb.table(m).unwrap();
    /// assert_eq!(table.material(), m);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn material(&self) -> G::Material {
        self.material
    }

    /// The rules the table was generated under.
    ///
    /// ```
    /// # use qi_games::jungle::{Jungle, Rules};
    /// # use qi_tablebase::jungle::{Material, Table, Tablebase};
    /// # use qi_tablebase::Wdl;
    /// # let rules = Rules::standard();
    /// # let m: Material = "LvC".parse()?;
    /// let tb = Tablebase::generate(&rules, &[m], 1)?;
    /// let table: &Table = tb.table(m).unwrap();
    /// assert_eq!(table.rules(), &rules);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn rules(&self) -> &G::Rules {
        &self.rules
    }

    /// What finds a position's slot beyond its material.
    ///
    /// ```
    /// use qi_games::five_tigers::Rules;
    /// use qi_tablebase::five_tigers::{Dense, Material, Slots, Tablebase};
    ///
    /// // A Five Tigers table of the retrograde generator: its material's dense index.
    /// let m: Material = "2v1".parse()?;
    /// let tb = Tablebase::generate(&Rules::shandong_shuttle(), &[m], 1)?;
    /// assert_eq!(tb.table(m).unwrap().index(), &Slots::Dense(Dense::new(m)));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn index(&self) -> &G::Index {
        &self.index
    }

    /// The number of slots (positions stored, one per symmetry class).
    ///
    /// ```
    /// # use qi_games::jungle::{Jungle, Rules};
    /// # use qi_tablebase::jungle::{Material, Table, Tablebase};
    /// # use qi_tablebase::Wdl;
    /// # let rules = Rules::standard();
    /// # let m: Material = "LvC".parse()?;
    /// let tb = Tablebase::generate(&rules, &[m], 1)?;
    /// let table: &Table = tb.table(m).unwrap();
    /// // Mirror images share a slot: fewer slots than positions.
    /// assert!(table.len() < table.stats().positions);
    /// assert!(table.at(table.len()).is_none());
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn len(&self) -> u64 {
        self.len
    }

    /// Whether the table has no slot (never, for a real material).
    ///
    /// ```
    /// # use qi_games::jungle::{Jungle, Rules};
    /// # use qi_tablebase::jungle::{Material, Table, Tablebase};
    /// # use qi_tablebase::Wdl;
    /// # let rules = Rules::standard();
    /// # let m: Material = "LvC".parse()?;
    /// let tb = Tablebase::generate(&rules, &[m], 1)?;
    /// let table: &Table = tb.table(m).unwrap();
    /// assert!(!table.is_empty());
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// The value and distance of slot `slot`, if in range.
    ///
    /// ```
    /// # use qi_games::jungle::{Jungle, Rules};
    /// # use qi_tablebase::jungle::{Material, Table, Tablebase};
    /// # use qi_tablebase::Wdl;
    /// # let rules = Rules::standard();
    /// # let m: Material = "LvC".parse()?;
    /// let tb = Tablebase::generate(&rules, &[m], 1)?;
    /// let table: &Table = tb.table(m).unwrap();
    /// let pos = Jungle::from_text("7/3L3/7/7/7/7/7/7/c6 w", rules)?;
    /// let slot = m.index_of(&pos).unwrap();
    /// assert_eq!(table.at(slot), Some((Wdl::Win, 1)));
    /// assert_eq!(table.at(u64::MAX), None);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn at(&self, slot: u64) -> Option<(Wdl, u32)> {
        if slot >= self.len {
            return None;
        }
        let i = slot as usize;
        // UNUSED marks a slot no position uses (only a blocked table has
        // them; a keyed file with one is refused when read).
        let wdl = Wdl::from_code(code_at(&self.values, i))?;
        Some((wdl, self.distances.get(i)))
    }

    /// The value and distance of `pos` for its side to move, if it has a
    /// slot in this table.
    ///
    /// ```
    /// # use qi_games::jungle::{Jungle, Rules};
    /// # use qi_tablebase::jungle::{Material, Table, Tablebase};
    /// # use qi_tablebase::Wdl;
    /// # let rules = Rules::standard();
    /// # let m: Material = "LvC".parse()?;
    /// let tb = Tablebase::generate(&rules, &[m], 1)?;
    /// let table: &Table = tb.table(m).unwrap();
    /// let pos = Jungle::from_text("7/3L3/7/7/7/7/7/7/c6 w", rules)?;
    /// assert_eq!(table.get(&pos), Some((Wdl::Win, 1)));
    /// // Another material has no slot here.
    /// let other = Jungle::from_text("7/3T3/7/7/7/7/7/7/c6 w", rules)?;
    /// assert_eq!(table.get(&other), None);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn get(&self, pos: &G) -> Option<(Wdl, u32)> {
        G::slot(self.material, &self.index, pos).and_then(|i| self.at(i))
    }

    /// The statistics by the game's counting convention.
    ///
    /// ```
    /// # use qi_games::jungle::{Jungle, Rules};
    /// # use qi_tablebase::jungle::{Material, Table, Tablebase};
    /// # use qi_tablebase::Wdl;
    /// # let rules = Rules::standard();
    /// # let m: Material = "LvC".parse()?;
    /// let tb = Tablebase::generate(&rules, &[m], 1)?;
    /// let table: &Table = tb.table(m).unwrap();
    /// let stats = table.stats();
    /// assert_eq!(stats.wins + stats.draws + stats.losses, stats.positions);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn stats(&self) -> G::Stats {
        G::stats(self)
    }
}
