//! Retrograde analysis of one material, and of a set of materials in
//! dependency order on several threads.

use std::collections::BTreeSet;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;

use qi_core::{Outcome, Position};
use qi_jungle::{Jungle, Rules};
use thiserror::Error;

use crate::material::{Indexer, Material};
use crate::table::{Table, Wdl};
use crate::Tablebase;

/// Why a table could not be generated.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum GenerateError {
    /// A capture leads into a material whose table is not loaded.
    #[error("generating {material} needs the table of {needed}, which is not loaded")]
    MissingSubtable {
        /// The material being generated.
        material: Material,
        /// The material a capture leads to.
        needed: Material,
    },
    /// The index of a material does not decode into a valid position
    /// (a bug, or a position the rules refuse).
    #[error("position {index} of {material} is not a valid position")]
    InvalidPosition {
        /// The material.
        material: Material,
        /// The index.
        index: u64,
    },
    /// The material has more than `u32::MAX` positions, or more than
    /// `u32::MAX` moves that stay inside it.
    #[error("{0} has too many positions for one table")]
    TooLarge(Material),
}

/// Distance not known yet.
const UNKNOWN: u16 = u16::MAX;

/// The value, for the side to move, of a position whose game is over.
pub(crate) fn terminal_value(pos: &Jungle, outcome: Outcome) -> Wdl {
    match outcome.winner() {
        Some(w) if w == pos.side_to_move() => Wdl::Win,
        Some(_) => Wdl::Loss,
        None => Wdl::Draw,
    }
}

/// An upper bound, in bytes, of the memory [`generate_table`] takes for
/// `material` (its sub-tables not counted): per position 28 bytes of
/// working arrays and result and 16 bytes of queue entries (a position is
/// queued at most twice: as a loss, or as a win through a successor outside
/// the material and once more through one inside), plus 8 bytes per move
/// that stays in the material (a forward and a reverse edge of 4 bytes), at
/// most 4 moves per animal of the side to move.
///
/// ```
/// use qi_tablebase::{generation_memory, Material};
///
/// // 221 088 positions, up to 8 moves each: at most 24 MB.
/// let m: Material = "LCvE".parse().unwrap();
/// assert_eq!(generation_memory(m), 221_088 * (44 + 8 * 8));
/// ```
pub fn generation_memory(material: Material) -> u64 {
    let most = material
        .count(qi_core::Side::First)
        .max(material.count(qi_core::Side::Second));
    material.position_count() * (44 + 8 * 4 * u64::from(most))
}

/// Solves `material` under `rules` by retrograde analysis. Captures lead
/// into smaller materials, which must be in `subtables` (a side left with
/// no animal has lost and needs no table).
///
/// The positions of the material form a graph (moves that capture nothing
/// stay in it); the graph is built once by forward move generation and
/// reversed, then values spread backwards from the positions whose value
/// is known (no legal move; a move that enters the den, captures the last
/// animal or captures into a solved smaller material), in increasing order
/// of distance: a position is won in `d` once a successor is lost in
/// `d - 1` (the first such successor found has the least distance), lost in
/// `d` once all its successors are won, the longest in `d - 1`. What is
/// left is drawn.
pub fn generate_table(
    rules: &Rules,
    material: Material,
    subtables: &Tablebase,
) -> Result<Table, GenerateError> {
    let ix = Indexer::new(material);
    let n = usize::try_from(ix.count)
        .ok()
        .filter(|&n| n <= u32::MAX as usize)
        .ok_or(GenerateError::TooLarge(material))?;

    // Forward pass: per position, the successors inside the material
    // (`edges`, CSR by `offsets`) and what the others say.
    let mut offsets: Vec<u32> = Vec::with_capacity(n + 1);
    let mut edges: Vec<u32> = Vec::new();
    let mut values = vec![Wdl::Draw; n];
    let mut dist = vec![UNKNOWN; n];
    // Least win distance through a successor outside the material.
    let mut win_via: Vec<u16> = vec![UNKNOWN; n];
    // Greatest loss distance through won successors (outside, and inside
    // as they are solved).
    let mut loss_via: Vec<u16> = vec![0; n];
    // Whether a successor outside the material is drawn or lost for the
    // opponent: then the position cannot be lost.
    let mut escapes: Vec<bool> = vec![false; n];
    // Positions already over: their value, solved at distance 0.
    let mut terminal: Vec<Option<Wdl>> = vec![None; n];
    offsets.push(0);
    for i in 0..n {
        let pos = ix
            .position(i as u64, rules)
            .ok_or(GenerateError::InvalidPosition {
                material,
                index: i as u64,
            })?;
        if let Some(outcome) = pos.outcome() {
            terminal[i] = Some(terminal_value(&pos, outcome));
            offsets.push(offsets[i]);
            continue;
        }
        for mv in pos.legal_moves() {
            let mut child = pos;
            child.play_unchecked(mv);
            let (v, d) = if let Some(outcome) = child.outcome() {
                (terminal_value(&child, outcome), 0)
            } else if let Some(c) = ix.index_of(&child) {
                edges.push(c as u32);
                continue;
            } else {
                let needed = Material::of(&child).ok_or(GenerateError::InvalidPosition {
                    material,
                    index: i as u64,
                })?;
                let hit = subtables
                    .table(needed)
                    .and_then(|t| needed.index_of(&child).and_then(|c| t.get(c)))
                    .ok_or(GenerateError::MissingSubtable { material, needed })?;
                (hit.0, hit.1.min(u32::from(UNKNOWN - 2)) as u16)
            };
            match v {
                Wdl::Loss => {
                    win_via[i] = win_via[i].min(d + 1);
                    escapes[i] = true;
                }
                Wdl::Win => loss_via[i] = loss_via[i].max(d + 1),
                Wdl::Draw => escapes[i] = true,
            }
        }
        offsets.push(u32::try_from(edges.len()).map_err(|_| GenerateError::TooLarge(material))?);
    }

    // Reverse the graph: parents of each position, and the number of
    // successors inside the material not yet known to be won.
    let mut remaining: Vec<u32> = (0..n).map(|i| offsets[i + 1] - offsets[i]).collect();
    let mut parent_offsets = vec![0u32; n + 1];
    for &c in &edges {
        parent_offsets[c as usize + 1] += 1;
    }
    for i in 0..n {
        parent_offsets[i + 1] += parent_offsets[i];
    }
    let mut fill = parent_offsets.clone();
    let mut parents = vec![0u32; edges.len()];
    for i in 0..n {
        for &c in &edges[offsets[i] as usize..offsets[i + 1] as usize] {
            parents[fill[c as usize] as usize] = i as u32;
            fill[c as usize] += 1;
        }
    }
    drop(edges);
    drop(offsets);
    drop(fill);

    // Buckets of tentative values by distance.
    let mut buckets: Vec<Vec<(u32, Wdl)>> = Vec::new();
    let push = |buckets: &mut Vec<Vec<(u32, Wdl)>>, d: u16, i: usize, v: Wdl| {
        let d = usize::from(d);
        if buckets.len() <= d {
            buckets.resize_with(d + 1, Vec::new);
        }
        buckets[d].push((i as u32, v));
    };
    for i in 0..n {
        if let Some(v) = terminal[i] {
            push(&mut buckets, 0, i, v);
            continue;
        }
        if win_via[i] != UNKNOWN {
            push(&mut buckets, win_via[i], i, Wdl::Win);
        }
        if !escapes[i] && remaining[i] == 0 {
            push(&mut buckets, loss_via[i], i, Wdl::Loss);
        }
    }
    let mut d = 0usize;
    while d < buckets.len() {
        let bucket = std::mem::take(&mut buckets[d]);
        for (i, v) in bucket {
            let i = i as usize;
            if dist[i] != UNKNOWN {
                continue;
            }
            values[i] = v;
            dist[i] = d as u16;
            let next = (d + 1).min(usize::from(UNKNOWN - 1)) as u16;
            for &p in &parents[parent_offsets[i] as usize..parent_offsets[i + 1] as usize] {
                let p = p as usize;
                if dist[p] != UNKNOWN {
                    continue;
                }
                match v {
                    // Queued once, at its least distance: later
                    // successors lost are never closer.
                    Wdl::Loss if next < win_via[p] => {
                        win_via[p] = next;
                        push(&mut buckets, next, p, Wdl::Win);
                    }
                    Wdl::Loss => {}
                    Wdl::Win => {
                        remaining[p] -= 1;
                        loss_via[p] = loss_via[p].max(next);
                        if remaining[p] == 0 && !escapes[p] {
                            push(&mut buckets, loss_via[p], p, Wdl::Loss);
                        }
                    }
                    Wdl::Draw => {}
                }
            }
        }
        d += 1;
    }
    for i in 0..n {
        if dist[i] == UNKNOWN {
            values[i] = Wdl::Draw;
            dist[i] = 0;
        }
    }
    Ok(Table::from_parts(material, *rules, &values, dist))
}

/// `materials` and every material their captures lead to (the tables
/// needed to generate them), fewest animals first.
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

/// Generates the tables of `materials` (and of the smaller materials their
/// captures lead to) that `base` does not hold yet, adding them to `base`,
/// fewest animals first; the materials of one size are shared out among
/// `threads` threads. `done` is called with each table as it is finished
/// (to save it, or report progress) before it is added.
pub(crate) fn generate_into(
    base: &mut Tablebase,
    materials: &[Material],
    threads: usize,
    done: &(dyn Fn(&Table) + Sync),
) -> Result<(), GenerateError> {
    let todo: Vec<Material> = closure(materials)
        .into_iter()
        .filter(|m| base.table(*m).is_none())
        .collect();
    let rules = *base.rules();
    let mut start = 0;
    while start < todo.len() {
        let size = todo[start].total();
        let end = todo[start..]
            .iter()
            .position(|m| m.total() != size)
            .map_or(todo.len(), |k| start + k);
        let level = &todo[start..end];
        let next = AtomicUsize::new(0);
        let results: Mutex<Vec<Result<Table, GenerateError>>> = Mutex::new(Vec::new());
        let base_ref: &Tablebase = base;
        std::thread::scope(|scope| {
            for _ in 0..threads.clamp(1, level.len()) {
                scope.spawn(|| loop {
                    let k = next.fetch_add(1, Ordering::Relaxed);
                    let Some(&m) = level.get(k) else { break };
                    let result = generate_table(&rules, m, base_ref);
                    if let Ok(table) = &result {
                        done(table);
                    }
                    let failed = result.is_err();
                    results
                        .lock()
                        .unwrap_or_else(|e| e.into_inner())
                        .push(result);
                    if failed {
                        next.store(level.len(), Ordering::Relaxed);
                    }
                });
            }
        });
        let results = results.into_inner().unwrap_or_else(|e| e.into_inner());
        for result in results {
            base.insert_table(result?);
        }
        start = end;
    }
    Ok(())
}
