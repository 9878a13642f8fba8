//! Retrograde analysis of one Five Tigers material: enumerate its canonical
//! states, build the move graph (with the owed-removal states as nodes of
//! their own), reverse it, and label the nodes from the ends of the game
//! outwards with a bucket queue by distance.

use std::collections::HashMap;

use qi_core::{Position, Side};
use qi_five_tigers::{FiveTigers, Rules, Shuttle};

use super::key::{possible_bans, subsets, NoState, State};
use super::{Material, Table, Tablebase};
use crate::driver::{join_workers, GenerateError};
use crate::round::{self, Exits};
use crate::value::Wdl;

/// An edge of the graph, seen from the node it leaves.
#[derive(Clone, Copy, Debug)]
enum Edge {
    /// To the stored state with this index; `same` when the same side
    /// decides there (a removal followed by another of the same side).
    Node { id: u32, same: bool },
    /// To an owed-removal state, by key (interned once the stored states'
    /// edges are known).
    Owed { key: u64, same: bool },
    /// To a position whose value is known: the game is over there, or it
    /// is in a smaller material's table. The value is for the side that
    /// decides at the edge's origin.
    Known { value: Wdl, distance: u16 },
}

/// Distance not known yet.
const UNKNOWN: u16 = u16::MAX;

/// Bytes of working memory per stored state and per edge: key 8 (twice
/// while the workers' keys are gathered), value 1, distance 2, counters 6,
/// offsets 8 (two arrays while the reverse graph is filled), queue entries
/// 24 (a node is queued at most three times); an edge 4 bytes forward and
/// 4 bytes reversed.
pub(crate) const BYTES_PER_STATE: u64 = 57;
/// See [`BYTES_PER_STATE`].
pub(crate) const BYTES_PER_EDGE: u64 = 8;

/// The raw states of a material with nothing owed, before the symmetry
/// reduction: every placement on distinct points, each side to move, and
/// under `shuttle = forbidden` every pair of bans that can still matter.
/// With `convention`, only the placements times the side to move (the
/// counting convention of `docs/tablebases.md`). Exact, so under the ban
/// it visits every placement (823 M for `5v5`);
/// [`estimated_state_count`] is the quick figure for a memory check.
///
/// ```
/// use qi_games::five_tigers::Rules;
/// use qi_tablebase::five_tigers::{raw_state_count, Material};
///
/// let m: Material = "1v1".parse()?;
/// // 25 × 24 placements, either side to move.
/// assert_eq!(raw_state_count(m, &Rules::shandong_shuttle(), false), 25 * 24 * 2);
/// assert_eq!(raw_state_count(m, &Rules::shandong(), true), 25 * 24 * 2);
/// // Under the ban, the states with the steps back a side may not play too.
/// assert!(raw_state_count(m, &Rules::shandong(), false) > 25 * 24 * 2);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn raw_state_count(material: Material, rules: &Rules, convention: bool) -> u64 {
    let forbidden = rules.shuttle == Shuttle::Forbidden && !convention;
    if !forbidden {
        return placements(material) * 2;
    }
    let mut n = 0u64;
    for x in subsets(material.first, ALL) {
        for o in subsets(material.second, ALL & !x) {
            n += 2 * ban_pairs(x, o);
        }
    }
    n
}

/// [`raw_state_count`] (with nothing left out), sampled where counting
/// the bans exactly would visit more than [`EXACT_PLACEMENTS`]
/// placements: the mean number of ban pairs of 2²⁰ placements drawn
/// uniformly (from a fixed seed, so the figure does not change from run
/// to run) times the number of placements. Within a few tenths of a
/// per cent of the exact count (tested on `3v3` and `4v2`), in
/// milliseconds.
///
/// ```
/// use qi_games::five_tigers::Rules;
/// use qi_tablebase::five_tigers::{estimated_state_count, raw_state_count, Material};
///
/// let ban = Rules::shandong();
/// // Few placements: counted exactly.
/// let m: Material = "2v2".parse()?;
/// assert_eq!(estimated_state_count(m, &ban), raw_state_count(m, &ban, false));
/// // `5v5`'s 823 M placements: sampled, the same figure every run.
/// let m: Material = "5v5".parse()?;
/// assert_eq!(estimated_state_count(m, &ban), estimated_state_count(m, &ban));
/// assert!(estimated_state_count(m, &ban) > raw_state_count(m, &ban, true));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn estimated_state_count(material: Material, rules: &Rules) -> u64 {
    if rules.shuttle != Shuttle::Forbidden || placements(material) <= EXACT_PLACEMENTS {
        return raw_state_count(material, rules, false);
    }
    sampled_state_count(material, 1 << 20)
}

/// Placements up to which [`estimated_state_count`] counts exactly.
pub const EXACT_PLACEMENTS: u64 = 4_000_000;

/// The sampled count of [`estimated_state_count`] from `samples`
/// placements.
pub(crate) fn sampled_state_count(material: Material, samples: u64) -> u64 {
    let mut seed = 0x5eed_0ff1_7e71_6400_u64;
    let mut total = 0u64;
    for _ in 0..samples {
        // A uniform placement: the first points of a shuffled board go to
        // the first side, the next to the second (Fisher–Yates, only as
        // far as the pieces go).
        let mut points: [u8; 25] = std::array::from_fn(|i| i as u8);
        let pieces = (material.first + material.second) as usize;
        for i in 0..pieces {
            let j = i + (splitmix64(&mut seed) % (25 - i) as u64) as usize;
            points.swap(i, j);
        }
        let board =
            |range: std::ops::Range<usize>| points[range].iter().fold(0u32, |b, &p| b | 1 << p);
        let x = board(0..material.first as usize);
        let o = board(material.first as usize..pieces);
        total += ban_pairs(x, o);
    }
    // The mean over the samples, times both sides to move and the
    // placements, rounded up.
    (u128::from(total) * 2 * u128::from(placements(material))).div_ceil(u128::from(samples)) as u64
}

/// The placements of `material` on distinct points.
fn placements(material: Material) -> u64 {
    binomial(25, material.first) * binomial(25 - material.first, material.second)
}

/// The pairs of bans (none, or a piece's move back to an empty point, per
/// side) of the boards `x` and `o`: [`possible_bans`] of each, counted.
fn ban_pairs(x: u32, o: u32) -> u64 {
    let empty = ALL & !x & !o;
    let bans = |board: u32| -> u64 {
        1 + qi_core::Bitboard32(board)
            .iter()
            .map(|at| u64::from((qi_five_tigers::NEIGHBOURS[at as usize].0 & empty).count_ones()))
            .sum::<u64>()
    };
    bans(x) * bans(o)
}

/// The next number of the SplitMix64 sequence of `state` (the core's
/// generator, which the Zobrist keys use).
fn splitmix64(state: &mut u64) -> u64 {
    let (next, value) = qi_core::zobrist::splitmix64(*state);
    *state = next;
    value
}

const ALL: u32 = (1 << 25) - 1;

/// C(n, k).
fn binomial(n: u32, k: u32) -> u64 {
    (0..u64::from(k)).fold(1, |c, i| c * (u64::from(n) - i) / (i + 1))
}

/// The canonical keys of a material's states with nothing owed, sorted.
pub(crate) fn enumerate(material: Material, rules: &Rules, threads: usize) -> Vec<u64> {
    let forbidden = rules.shuttle == Shuttle::Forbidden;
    let firsts = subsets(material.first, ALL);
    let chunks: Vec<&[u32]> = firsts
        .chunks(firsts.len().div_ceil(threads.max(1) * 4).max(1))
        .collect();
    let next = std::sync::atomic::AtomicUsize::new(0);
    let mut keys: Vec<u64> = std::thread::scope(|scope| {
        let workers: Vec<_> = (0..threads.max(1))
            .map(|_| {
                scope.spawn(|| {
                    let mut out = Vec::new();
                    loop {
                        let c = next.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                        let Some(chunk) = chunks.get(c) else { break };
                        for &x in *chunk {
                            for o in subsets(material.second, ALL & !x) {
                                let empty = ALL & !x & !o;
                                let (bx, bo) = if forbidden {
                                    (possible_bans(x, empty), possible_bans(o, empty))
                                } else {
                                    (vec![None], vec![None])
                                };
                                for stm in Side::BOTH {
                                    for &ban_x in &bx {
                                        for &ban_o in &bo {
                                            let s = State {
                                                boards: [x, o],
                                                stm,
                                                bans: [ban_x, ban_o],
                                                owed: 0,
                                                taker: Side::First,
                                            };
                                            // Only the smallest image is kept, so
                                            // each class is stored once.
                                            if let (Some(k), Some((c, _))) =
                                                (s.key(), s.canonical())
                                            {
                                                if k == c {
                                                    out.push(k);
                                                }
                                            }
                                        }
                                    }
                                }
                            }
                        }
                    }
                    out
                })
            })
            .collect();
        workers
            .into_iter()
            .flat_map(|w| w.join().unwrap_or_default())
            .collect()
    });
    keys.sort_unstable();
    keys
}

/// The value of a finished game for `side`.
fn over_value(pos: &FiveTigers, side: Side) -> Option<Wdl> {
    pos.outcome().map(|o| Wdl::of_outcome(o, side))
}

/// Context of the edge computation: the material's own keys and the
/// smaller tables.
struct Graph<'a> {
    material: Material,
    rules: &'a Rules,
    keys: &'a [u64],
    smaller: &'a Tablebase,
}

impl Graph<'_> {
    /// The edges of the state `state` (none when its game is over) and,
    /// if over, its value.
    fn edges(&self, state: State, out: &mut Vec<Edge>) -> Result<Option<Wdl>, GenerateError> {
        let pos = state
            .to_position(self.rules)
            .ok_or_else(|| internal(format!("no position for state {state:?}")))?;
        let me = pos.side_to_move();
        if let Some(v) = over_value(&pos, me) {
            return Ok(Some(v));
        }
        for mv in pos.legal_moves() {
            let mut child = pos;
            child.play_unchecked(mv);
            out.push(self.edge(&child, me)?);
        }
        Ok(None)
    }

    fn edge(&self, child: &FiveTigers, me: Side) -> Result<Edge, GenerateError> {
        if let Some(value) = over_value(child, me) {
            return Ok(Edge::Known { value, distance: 0 });
        }
        let same = child.side_to_move() == me;
        let state = State::from_position(child)
            .map_err(|e| internal(format!("the successor {child} has no state ({e:?})")))?;
        let (key, _) = state
            .canonical()
            .ok_or_else(|| internal(format!("the successor {child} has no key")))?;
        if state.owed > 0 {
            return Ok(Edge::Owed { key, same });
        }
        let m = Material::of_boards(state.boards)
            .ok_or_else(|| internal(format!("the successor {child} has no material")))?;
        if m == self.material {
            let id = self
                .keys
                .binary_search(&key)
                .map_err(|_| internal(format!("the successor {child} is not enumerated")))?;
            return Ok(Edge::Node {
                id: id as u32,
                same,
            });
        }
        let table = super::retro::needed_table(self.smaller, self.material, m)?;
        let (v, d) = table
            .get_key(key)
            .ok_or_else(|| internal(format!("the successor {child} is not in table {m}")))?;
        Ok(Edge::Known {
            value: if same { v } else { v.flip() },
            distance: d as u16,
        })
    }
}

fn internal(message: String) -> GenerateError {
    GenerateError::Internal(message)
}

/// What the forward pass knows of a node before the backward one: its
/// edges inside the graph, and what its edges to known values already say.
#[derive(Default)]
struct Part {
    /// Per node, how many of its edges go to nodes (in `targets`).
    counts: Vec<u8>,
    /// The nodes' edges to nodes, `id | same << 31`.
    targets: Vec<u32>,
    /// Edges to owed-removal states: (node, key, same).
    owed: Vec<(u32, u64, bool)>,
    /// Per node, edges not yet known to lose for it.
    remaining: Vec<u8>,
    /// Per node, the longest known losing edge.
    longest_loss: Vec<u16>,
    /// Per node, the shortest known win (distance of the node), or UNKNOWN.
    win: Vec<u16>,
    /// Nodes whose game is over, with their value.
    over: Vec<(u32, Wdl)>,
}

impl Part {
    /// Records node `node`'s `edges` (its value if its game is over).
    fn add(&mut self, node: u32, edges: &[Edge], over: Option<Wdl>) -> Result<(), GenerateError> {
        if let Some(v) = over {
            self.over.push((node, v));
        }
        let mut count = 0u8;
        let mut remaining = 0u8;
        let mut exits = Exits::default();
        for e in edges {
            match *e {
                Edge::Node { id, same } => {
                    self.targets.push(id | u32::from(same) << 31);
                    count += 1;
                    remaining += 1;
                }
                Edge::Owed { key, same } => {
                    self.owed.push((node, key, same));
                    remaining += 1;
                }
                Edge::Known { value, distance } => {
                    // `value` is the mover's: the rule reads the value
                    // for the side that moves next.
                    exits.note(value.flip(), u32::from(distance))?;
                    if value != Wdl::Loss {
                        remaining += 1;
                    }
                }
            }
        }
        // A node with only losing known edges is lost at once (`remaining`
        // 0 with edges); a winning or drawn edge stays counted, so it never
        // reaches 0.
        self.counts.push(count);
        self.remaining.push(remaining);
        self.longest_loss.push(exits.longest_won.unwrap_or(0));
        self.win.push(exits.win_at()?.unwrap_or(UNKNOWN));
        Ok(())
    }

    fn append(&mut self, other: Part) {
        self.counts.extend(other.counts);
        self.targets.extend(other.targets);
        self.owed.extend(other.owed);
        self.remaining.extend(other.remaining);
        self.longest_loss.extend(other.longest_loss);
        self.win.extend(other.win);
        self.over.extend(other.over);
    }
}

/// Solves `material` under `rules` given the tables of the materials its
/// removals lead to (in `smaller`), on `threads` threads.
pub(crate) fn solve(
    material: Material,
    rules: &Rules,
    smaller: &Tablebase,
    threads: usize,
) -> Result<Table, GenerateError> {
    let threads = threads.max(1);
    let keys = enumerate(material, rules, threads);
    let n = keys.len();
    if n >= (1 << 31) {
        return Err(internal(format!("{n} states do not fit the 31-bit ids")));
    }
    let graph = Graph {
        material,
        rules,
        keys: &keys,
        smaller,
    };

    // Forward pass over the stored states, in parallel: each worker takes
    // a contiguous range and returns its part in order. Edges to nodes
    // take 4 bytes; edges to known values are folded into the node's
    // counters at once.
    let per = n.div_ceil(threads).max(1);
    let parts: Vec<Result<Part, GenerateError>> = std::thread::scope(|scope| {
        let workers: Vec<_> = (0..threads)
            .map(|t| {
                let graph = &graph;
                let keys = &keys;
                scope.spawn(move || {
                    let lo = (t * per).min(n);
                    let hi = ((t + 1) * per).min(n);
                    let mut part = Part::default();
                    let mut edges = Vec::new();
                    for (i, &key) in keys.iter().enumerate().take(hi).skip(lo) {
                        let state = State::from_key(key)
                            .ok_or_else(|| internal(format!("bad key {key}")))?;
                        edges.clear();
                        let over = graph.edges(state, &mut edges)?;
                        part.add(i as u32, &edges, over)?;
                    }
                    Ok(part)
                })
            })
            .collect();
        join_workers(workers)
    });
    let mut all = Part::default();
    for part in parts {
        all.append(part?);
    }

    // The owed-removal states: interned and expanded one by one (they are
    // few: only steps that form a formation lead to them). Their edges to
    // other owed states are resolved as they are interned.
    let mut owed_ids: HashMap<u64, u32> = HashMap::new();
    let mut owed_keys: Vec<u64> = Vec::new();
    let intern = |key: u64, ids: &mut HashMap<u64, u32>, list: &mut Vec<u64>| -> u32 {
        *ids.entry(key).or_insert_with(|| {
            list.push(key);
            (n + list.len() - 1) as u32
        })
    };
    // (parent, child | same << 31) of every edge to an owed state.
    let mut extra: Vec<(u32, u32)> = Vec::new();
    for &(node, key, same) in &all.owed {
        extra.push((
            node,
            intern(key, &mut owed_ids, &mut owed_keys) | u32::from(same) << 31,
        ));
    }
    let mut done = 0;
    let mut edges = Vec::new();
    while done < owed_keys.len() {
        let key = owed_keys[done];
        let node = (n + done) as u32;
        done += 1;
        let state = State::from_key(key).ok_or_else(|| internal(format!("bad key {key}")))?;
        edges.clear();
        let over = graph.edges(state, &mut edges)?;
        let mut part = Part::default();
        part.add(node, &edges, over)?;
        for &(_, key, same) in &part.owed {
            extra.push((
                node,
                intern(key, &mut owed_ids, &mut owed_keys) | u32::from(same) << 31,
            ));
        }
        part.owed.clear();
        // Its edges to stored nodes go to `extra` too (it has no slot in
        // `counts`' ranges), and its counters follow the stored nodes'.
        for &t in &part.targets[..usize::from(part.counts[0])] {
            extra.push((node, t));
        }
        part.counts[0] = 0;
        part.targets.clear();
        all.append(part);
    }
    let total = n + owed_keys.len();
    if total >= (1 << 31) {
        return Err(internal(format!(
            "{total} states do not fit the 31-bit ids"
        )));
    }

    // Reverse graph (CSR): for each node, its predecessors, the top bit
    // set when the same side decides at both ends.
    let mask = !(1u32 << 31);
    let mut offsets = vec![0u32; total + 1];
    for &t in all.targets.iter().chain(extra.iter().map(|(_, t)| t)) {
        offsets[(t & mask) as usize + 1] += 1;
    }
    for i in 0..total {
        offsets[i + 1] += offsets[i];
    }
    let mut fill = offsets.clone();
    let mut preds = vec![0u32; offsets[total] as usize];
    let mut link = |parent: u32, t: u32| {
        let slot = &mut fill[(t & mask) as usize];
        preds[*slot as usize] = parent | (t & !mask);
        *slot += 1;
    };
    let mut at = 0usize;
    for (node, &c) in all.counts.iter().enumerate() {
        for &t in &all.targets[at..at + c as usize] {
            link(node as u32, t);
        }
        at += c as usize;
    }
    for &(parent, t) in &extra {
        link(parent, t);
    }
    drop(fill);
    let Part {
        mut remaining,
        mut longest_loss,
        mut win,
        over,
        ..
    } = all;
    drop(extra);

    // Bucket queue by distance: a node is final when first taken out, so
    // a win gets its shortest distance; a loss is queued only once all its
    // successors are wins for the opponent, at the longest of them plus 1.
    // A win is queued only when shorter than the one queued before, so a
    // node is queued at most three times.
    let mut queue: Vec<Vec<(u32, Wdl)>> = vec![Vec::new()];
    let push = |queue: &mut Vec<Vec<(u32, Wdl)>>, d: u16, node: u32, v: Wdl| {
        let d = usize::from(d);
        if queue.len() <= d {
            queue.resize_with(d + 1, Vec::new);
        }
        queue[d].push((node, v));
    };
    // Every node whose game is not over has an edge: with none left
    // unknown it is lost.
    let mut is_over = vec![false; total];
    for &(node, _) in &over {
        is_over[node as usize] = true;
    }
    for node in 0..total {
        if win[node] != UNKNOWN {
            push(&mut queue, win[node], node as u32, Wdl::Win);
        }
        if remaining[node] == 0 && !is_over[node] {
            let at = round::ply_before(u32::from(longest_loss[node]))?;
            push(&mut queue, at, node as u32, Wdl::Loss);
        }
    }
    for &(node, v) in &over {
        push(&mut queue, 0, node, v);
    }
    drop(is_over);
    let mut value: Vec<Option<Wdl>> = vec![None; total];
    let mut dist: Vec<u16> = vec![0; total];
    let mut d = 0usize;
    while d < queue.len() {
        let bucket = std::mem::take(&mut queue[d]);
        for (node, v) in bucket {
            let node = node as usize;
            if value[node].is_some() {
                continue;
            }
            value[node] = Some(v);
            dist[node] = d as u16;
            for &p in &preds[offsets[node] as usize..offsets[node + 1] as usize] {
                let same = p >> 31 == 1;
                let parent = (p & mask) as usize;
                if value[parent].is_some() {
                    continue;
                }
                let for_parent = if same { v } else { v.flip() };
                if for_parent == Wdl::Win {
                    let w = round::ply_before(d as u32)?;
                    if w < win[parent] {
                        win[parent] = w;
                        push(&mut queue, w, parent as u32, Wdl::Win);
                    }
                } else if for_parent == Wdl::Loss {
                    remaining[parent] -= 1;
                    longest_loss[parent] = longest_loss[parent].max(d as u16);
                    if remaining[parent] == 0 {
                        let at = round::ply_before(u32::from(longest_loss[parent]))?;
                        push(&mut queue, at, parent as u32, Wdl::Loss);
                    }
                }
            }
        }
        d += 1;
    }
    let values: Vec<Wdl> = value[..n].iter().map(|v| v.unwrap_or(Wdl::Draw)).collect();
    Ok(Table::new(
        material,
        *rules,
        keys,
        &values,
        dist[..n].to_vec(),
    ))
}

impl std::fmt::Display for NoState {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            NoState::OutOfScope => "not a movement-phase ending of up to 5 pieces a side",
            NoState::BlockedBan => "a banned step back blocked by the side to move",
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn shandong() -> Rules {
        Rules::shandong()
    }

    #[test]
    fn ban_pairs_counts_the_possible_bans_of_each_side() {
        let mut seed = 1;
        for _ in 0..2_000 {
            let x = (splitmix64(&mut seed) as u32) & ALL;
            let o = (splitmix64(&mut seed) as u32) & ALL & !x;
            let empty = ALL & !x & !o;
            let listed = possible_bans(x, empty).len() * possible_bans(o, empty).len();
            assert_eq!(ban_pairs(x, o), listed as u64, "{x:#x} {o:#x}");
        }
    }

    #[test]
    fn the_sampled_count_is_within_half_a_per_cent_of_the_exact_one() {
        for (first, second) in [(3, 3), (4, 2)] {
            let material = Material { first, second };
            let exact = raw_state_count(material, &shandong(), false);
            let sampled = sampled_state_count(material, 1 << 20);
            let off = (sampled as f64 / exact as f64 - 1.0).abs();
            assert!(off < 0.005, "{material}: {sampled} against {exact}");
        }
    }

    #[test]
    fn the_estimate_is_exact_where_counting_is_cheap() {
        let small = Material {
            first: 3,
            second: 2,
        };
        assert!(placements(small) <= EXACT_PLACEMENTS);
        assert_eq!(
            estimated_state_count(small, &shandong()),
            raw_state_count(small, &shandong(), false)
        );
        // Without the ban a state is a placement and a side to move.
        let big = Material {
            first: 5,
            second: 5,
        };
        let rules = Rules {
            shuttle: Shuttle::Allowed,
            ..Rules::shandong()
        };
        assert_eq!(estimated_state_count(big, &rules), 2 * 53_130 * 15_504);
        // With it, 5v5 is sampled, and each placement has at least the
        // state without bans.
        assert!(placements(big) > EXACT_PLACEMENTS);
        assert!(estimated_state_count(big, &shandong()) > 2 * 53_130 * 15_504);
    }
}
