//! Retrograde analysis of one Jungle material ([`generate_table`]), and
//! the closure of a set of materials under captures.

use std::collections::BTreeSet;

use qi_jungle::Rules;

use super::material::Material;
use super::{Table, Tablebase};
use crate::driver::GenerateError;

/// An upper bound, in bytes, of the memory [`generate_table`] takes for
/// `material` (its sub-tables not counted): per index a state byte and a
/// distance of one byte while solving (two, solved again, past 254
/// plies: 3), then a value byte and a two-byte distance handed to the
/// table, whose packed values and distances take 1.25 more: 8 bytes,
/// and the predecessors of a block of decided positions.
///
/// ```
/// use qi_tablebase::jungle::{generation_memory, Material};
///
/// let m: Material = "LCvE".parse().unwrap();
/// assert_eq!(m.index_count(), 126_336);
/// assert_eq!(generation_memory(m), 126_336 * 8 + (1 << 16) * 8 * 16);
/// ```
pub fn generation_memory(material: Material) -> u64 {
    material
        .index_count()
        .saturating_mul(8)
        .saturating_add((1 << 16) * 8 * 16)
}

/// Solves `material` under `rules` by retrograde analysis. Captures lead
/// into smaller materials, which must be in `subtables` (a side left with
/// no animal has lost and needs no table).
///
/// The in-core solver runs over the slots of the material's index
/// ([`JungleSlice`](super::JungleSlice)'s starts and un-moves): each slot
/// started by its moves (a move that enters the den, captures the last
/// animal or captures into a solved smaller material has a known value),
/// then values spread backwards by un-moves in increasing order of
/// distance: a position is won in `d` once a successor is lost in
/// `d - 1`, lost in `d` once all its successors are won, the longest in
/// `d - 1`. What is left is drawn.
///
/// The starts and the un-moves run on `threads` threads.
///
/// ```
/// use qi_games::jungle::Rules;
/// use qi_tablebase::jungle::{generate_table, Material, Tablebase};
///
/// let rules = Rules::standard();
/// let m: Material = "LRvE".parse()?;
/// let subtables = Tablebase::generate(&rules, &m.after_captures(), 2)?;
/// let table = generate_table(&rules, m, &subtables, 2)?;
/// assert_eq!(Some(&table), Tablebase::generate(&rules, &[m], 2)?.table(m));
/// // Without the tables its captures lead to, no table.
/// assert!(generate_table(&rules, m, &Tablebase::new(&rules), 2).is_err());
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn generate_table(
    rules: &Rules,
    material: Material,
    subtables: &Tablebase,
    threads: usize,
) -> Result<Table, GenerateError> {
    super::slice::solve_in_core(rules, material, subtables, threads)
}

/// `materials` and every material their captures lead to (the tables
/// needed to generate them), fewest animals first.
///
/// ```
/// use qi_tablebase::jungle::{closure, Material};
///
/// let all: Vec<String> = closure(&["LRvE".parse::<Material>()?]).iter().map(|m| m.to_string()).collect();
/// assert_eq!(all, ["RvE", "LvE", "LRvE"]); // fewest animals first, then in material order
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn closure(materials: &[Material]) -> Vec<Material> {
    let mut all = BTreeSet::new();
    let mut todo: Vec<Material> = materials.to_vec();
    while let Some(m) = todo.pop() {
        if all.insert(m) {
            todo.extend(m.after_captures());
        }
    }
    let mut out: Vec<Material> = all.into_iter().collect();
    out.sort_by_key(|m| (m.total(), *m));
    out
}
