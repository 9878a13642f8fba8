//! Retrograde analysis of one Jungle material ([`generate_table`]), and
//! the closure of a set of materials under captures.

use std::collections::BTreeSet;
use std::ops::Range;

use qi_core::{Outcome, Position};
use qi_jungle::{Jungle, Rules};

use super::material::{Indexer, Material};
use super::{Table, Tablebase};
use crate::driver::GenerateError;
use crate::round::{self, Exits};
use crate::value::Wdl;

/// Distance not known yet.
const UNKNOWN: u16 = u16::MAX;

/// The value, for the side to move, of a position whose game is over.
pub(crate) fn terminal_value(pos: &Jungle, outcome: Outcome) -> Wdl {
    Wdl::of_outcome(outcome, pos.side_to_move())
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
/// use qi_tablebase::jungle::{generation_memory, Material};
///
/// // 126 336 positions stored, up to 8 moves each: at most 14 MB.
/// let m: Material = "LCvE".parse().unwrap();
/// assert_eq!(m.index_count(), 126_336);
/// assert_eq!(generation_memory(m), 126_336 * (44 + 8 * 8));
/// ```
pub fn generation_memory(material: Material) -> u64 {
    let most = material
        .count(qi_core::Side::First)
        .max(material.count(qi_core::Side::Second));
    material
        .index_count()
        .saturating_mul(44 + 8 * 4 * u64::from(most))
}

/// What the forward pass finds for a range of positions (indexed from the
/// range's start).
struct Forward {
    /// Per position, how many of its successors stay in the material.
    counts: Vec<u32>,
    /// Those successors' indices, position after position.
    edges: Vec<u32>,
    /// Least win distance through a successor outside the material
    /// (`UNKNOWN` if none is lost); the retrograde pass lowers it further.
    win_via: Vec<u16>,
    /// Greatest loss distance through won successors outside the material;
    /// the retrograde pass raises it with those inside.
    loss_via: Vec<u16>,
    /// Whether a successor outside the material is drawn or lost for the
    /// opponent: then the position cannot be lost.
    escapes: Vec<bool>,
    /// Positions already over: their value, solved at distance 0.
    terminal: Vec<Option<Wdl>>,
}

/// The forward pass over the positions `range` of a material: each position
/// is built from its index, and each of its moves played.
fn forward(
    ix: &Indexer,
    rules: &Rules,
    subtables: &Tablebase,
    range: Range<usize>,
) -> Result<Forward, GenerateError> {
    let material = ix.material;
    let len = range.len();
    let mut f = Forward {
        counts: Vec::with_capacity(len),
        edges: Vec::new(),
        win_via: vec![UNKNOWN; len],
        loss_via: vec![0; len],
        escapes: vec![false; len],
        terminal: vec![None; len],
    };
    for (k, i) in range.enumerate() {
        // Built only on failure: the message's text costs an allocation.
        let invalid = || GenerateError::InvalidPosition {
            material: material.to_string(),
            index: i as u64,
        };
        let pos = ix.position(i as u64, rules).ok_or_else(invalid)?;
        if let Some(outcome) = pos.outcome() {
            f.terminal[k] = Some(terminal_value(&pos, outcome));
            f.counts.push(0);
            continue;
        }
        let before = f.edges.len();
        let mut exits = Exits::default();
        for mv in pos.legal_moves() {
            let mut child = pos;
            child.play_unchecked(mv);
            let (v, d) = if let Some(outcome) = child.outcome() {
                (terminal_value(&child, outcome), 0)
            } else if let Some(c) = ix.index_of(&child) {
                f.edges.push(c as u32);
                continue;
            } else {
                let needed = Material::of(&child).ok_or_else(invalid)?;
                let hit = subtables
                    .table(needed)
                    .and_then(|t| t.get(&child))
                    .ok_or_else(|| GenerateError::MissingSubtable {
                        material: material.to_string(),
                        needed: needed.to_string(),
                    })?;
                hit
            };
            exits.note(v, d)?;
        }
        if let Some(at) = exits.win_at()? {
            f.win_via[k] = at;
        }
        f.loss_via[k] = exits.loss_floor()?;
        f.escapes[k] = exits.never_lost();
        f.counts.push((f.edges.len() - before) as u32);
    }
    Ok(f)
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
///
/// The forward pass (building each position and playing its moves, most of
/// the work) is cut into `threads` parts run on scoped threads.
pub fn generate_table(
    rules: &Rules,
    material: Material,
    subtables: &Tablebase,
    threads: usize,
) -> Result<Table, GenerateError> {
    let ix = Indexer::new(material);
    let n = usize::try_from(ix.count)
        .ok()
        .filter(|&n| n <= u32::MAX as usize)
        .ok_or_else(|| GenerateError::TooLarge(material.to_string()))?;

    // Forward pass, the index range cut into one part per thread.
    let chunk = n.div_ceil(threads.clamp(1, 256)).max(1);
    let ranges: Vec<Range<usize>> = (0..n)
        .step_by(chunk)
        .map(|a| a..(a + chunk).min(n))
        .collect();
    let parts: Vec<Result<Forward, GenerateError>> = if ranges.len() <= 1 {
        ranges
            .into_iter()
            .map(|r| forward(&ix, rules, subtables, r))
            .collect()
    } else {
        std::thread::scope(|scope| {
            let handles: Vec<_> = ranges
                .into_iter()
                .map(|r| {
                    let ix = &ix;
                    scope.spawn(move || forward(ix, rules, subtables, r))
                })
                .collect();
            handles
                .into_iter()
                .map(|h| h.join().unwrap_or_else(|e| std::panic::resume_unwind(e)))
                .collect()
        })
    };
    // The number of successors inside the material not yet known to be
    // won: at first, all of them.
    let mut remaining: Vec<u32> = Vec::with_capacity(n);
    let mut win_via: Vec<u16> = Vec::with_capacity(n);
    let mut loss_via: Vec<u16> = Vec::with_capacity(n);
    let mut escapes: Vec<bool> = Vec::with_capacity(n);
    let mut terminal: Vec<Option<Wdl>> = Vec::with_capacity(n);
    let mut edges: Vec<Vec<u32>> = Vec::with_capacity(parts.len());
    for part in parts {
        let part = part?;
        remaining.extend(part.counts);
        win_via.extend(part.win_via);
        loss_via.extend(part.loss_via);
        escapes.extend(part.escapes);
        terminal.extend(part.terminal);
        edges.push(part.edges);
    }
    let edge_count = u32::try_from(edges.iter().map(Vec::len).sum::<usize>())
        .map_err(|_| GenerateError::TooLarge(material.to_string()))?;
    let mut values = vec![Wdl::Draw; n];
    let mut dist = vec![UNKNOWN; n];

    // Reverse the graph: the parents of each position, in compressed rows.
    let mut parent_offsets = vec![0u32; n + 1];
    for &c in edges.iter().flatten() {
        parent_offsets[c as usize + 1] += 1;
    }
    for i in 0..n {
        parent_offsets[i + 1] += parent_offsets[i];
    }
    let mut fill = parent_offsets.clone();
    let mut parents = vec![0u32; edge_count as usize];
    let mut successors = edges.iter().flatten();
    for (i, &count) in remaining.iter().enumerate() {
        for &c in successors.by_ref().take(count as usize) {
            parents[fill[c as usize] as usize] = i as u32;
            fill[c as usize] += 1;
        }
    }
    drop(edges);
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
            let next = round::ply_before(d as u32)?;
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
    Ok(Table::new(material, *rules, ix, &values, dist))
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
