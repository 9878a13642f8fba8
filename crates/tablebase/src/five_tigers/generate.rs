//! Retrograde analysis of one Five Tigers material: enumerate its canonical
//! states, build the move graph (with the owed-removal states as nodes of
//! their own), reverse it, and label the nodes from the ends of the game
//! outwards with a bucket queue by distance.

use std::collections::HashMap;

use qi_core::{Position, Side};
use qi_five_tigers::{FiveTigers, Rules, Shuttle};

use super::key::{possible_bans, subsets, NoState, State};
use super::{GenerateError, Material, Table, Tablebase};
use crate::table::Wdl;

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

/// Bytes of working memory per stored state and per edge: key 8, value 1,
/// distance 2, counters 3, reverse offset 4; an edge 16 bytes while the
/// graph is built and 4 bytes in the reverse graph.
pub(crate) const BYTES_PER_STATE: u64 = 18;
/// See [`BYTES_PER_STATE`].
pub(crate) const BYTES_PER_EDGE: u64 = 20;

/// The raw states of a material with nothing owed, before the symmetry
/// reduction: every placement on distinct points, each side to move, and
/// under `shuttle = forbidden` every pair of bans that can still matter.
/// With `convention`, only the placements times the side to move (the
/// issue's counting convention).
pub fn raw_state_count(material: Material, rules: &Rules, convention: bool) -> u64 {
    let forbidden = rules.shuttle == Shuttle::Forbidden && !convention;
    let mut n = 0u64;
    for x in subsets(material.first, ALL) {
        for o in subsets(material.second, ALL & !x) {
            if forbidden {
                let empty = ALL & !x & !o;
                let bx = possible_bans(x, empty).len() as u64;
                let bo = possible_bans(o, empty).len() as u64;
                n += 2 * bx * bo;
            } else {
                n += 2;
            }
        }
    }
    n
}

const ALL: u32 = (1 << 25) - 1;

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
    pos.outcome().map(|o| match o.winner() {
        Some(w) if w == side => Wdl::Win,
        Some(_) => Wdl::Loss,
        None => Wdl::Draw,
    })
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
        let table = self
            .smaller
            .table(m)
            .ok_or(GenerateError::MissingTable(m))?;
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
    let graph = Graph {
        material,
        rules,
        keys: &keys,
        smaller,
    };

    // Forward pass over the stored states, in parallel: each worker takes
    // a contiguous range and returns its edges in order.
    let per = n.div_ceil(threads).max(1);
    type Part = (Vec<u8>, Vec<Edge>, Vec<(usize, Wdl)>);
    let parts: Vec<Result<Part, GenerateError>> = std::thread::scope(|scope| {
        let workers: Vec<_> = (0..threads)
            .map(|t| {
                let graph = &graph;
                let keys = &keys;
                scope.spawn(move || {
                    let lo = (t * per).min(n);
                    let hi = ((t + 1) * per).min(n);
                    let mut counts = Vec::with_capacity(hi - lo);
                    let mut edges = Vec::new();
                    let mut over = Vec::new();
                    for (i, &key) in keys.iter().enumerate().take(hi).skip(lo) {
                        let state = State::from_key(key)
                            .ok_or_else(|| internal(format!("bad key {key}")))?;
                        let before = edges.len();
                        if let Some(v) = graph.edges(state, &mut edges)? {
                            over.push((i, v));
                        }
                        counts.push((edges.len() - before) as u8);
                    }
                    Ok((counts, edges, over))
                })
            })
            .collect();
        workers
            .into_iter()
            .map(|w| {
                w.join()
                    .unwrap_or_else(|_| Err(internal("a worker panicked".into())))
            })
            .collect()
    });
    let mut counts: Vec<u8> = Vec::with_capacity(n);
    let mut edges: Vec<Edge> = Vec::new();
    let mut over: Vec<(usize, Wdl)> = Vec::new();
    for part in parts {
        let (c, e, o) = part?;
        counts.extend(c);
        edges.extend(e);
        over.extend(o);
    }

    // The owed-removal states: interned and expanded one by one (they are
    // few: only steps that form a formation lead to them).
    let mut owed_ids: HashMap<u64, u32> = HashMap::new();
    let mut owed_keys: Vec<u64> = Vec::new();
    let intern = |key: u64, ids: &mut HashMap<u64, u32>, list: &mut Vec<u64>| -> u32 {
        *ids.entry(key).or_insert_with(|| {
            list.push(key);
            (n + list.len() - 1) as u32
        })
    };
    for e in edges.iter_mut() {
        if let Edge::Owed { key, same } = *e {
            let id = intern(key, &mut owed_ids, &mut owed_keys);
            *e = Edge::Node { id, same };
        }
    }
    let mut done = 0;
    while done < owed_keys.len() {
        let key = owed_keys[done];
        done += 1;
        let state = State::from_key(key).ok_or_else(|| internal(format!("bad key {key}")))?;
        let before = edges.len();
        if let Some(v) = graph.edges(state, &mut edges)? {
            over.push((n + done - 1, v));
        }
        counts.push((edges.len() - before) as u8);
        for e in edges[before..].iter_mut() {
            if let Edge::Owed { key, same } = *e {
                let id = intern(key, &mut owed_ids, &mut owed_keys);
                *e = Edge::Node { id, same };
            }
        }
    }
    let total = counts.len();
    if total >= (1 << 31) {
        return Err(internal(format!(
            "{total} states do not fit the 31-bit ids"
        )));
    }

    // Reverse graph (CSR): for each node, its predecessors, the top bit
    // set when the same side decides at both ends.
    let mut offsets = vec![0u32; total + 1];
    for e in &edges {
        if let Edge::Node { id, .. } = e {
            offsets[*id as usize + 1] += 1;
        }
    }
    for i in 0..total {
        offsets[i + 1] += offsets[i];
    }
    let mut fill = offsets.clone();
    let mut preds = vec![0u32; offsets[total] as usize];
    let mut remaining: Vec<u8> = counts.clone();
    let mut longest_loss: Vec<u16> = vec![0; total];
    let mut queue: Vec<Vec<(u32, Wdl)>> = vec![Vec::new()];
    let push = |queue: &mut Vec<Vec<(u32, Wdl)>>, d: u16, node: u32, v: Wdl| {
        let d = d as usize;
        if queue.len() <= d {
            queue.resize_with(d + 1, Vec::new);
        }
        queue[d].push((node, v));
    };
    let mut at = 0usize;
    for (node, &c) in counts.iter().enumerate() {
        for e in &edges[at..at + c as usize] {
            match *e {
                Edge::Node { id, same } => {
                    let slot = &mut fill[id as usize];
                    preds[*slot as usize] = node as u32 | if same { 1 << 31 } else { 0 };
                    *slot += 1;
                }
                Edge::Known { value, distance } => match value {
                    Wdl::Win => push(&mut queue, distance + 1, node as u32, Wdl::Win),
                    Wdl::Loss => {
                        remaining[node] -= 1;
                        longest_loss[node] = longest_loss[node].max(distance);
                    }
                    Wdl::Draw => {}
                },
                Edge::Owed { .. } => return Err(internal("an owed edge left".into())),
            }
        }
        if c > 0 && remaining[node] == 0 {
            push(&mut queue, longest_loss[node] + 1, node as u32, Wdl::Loss);
        }
        at += c as usize;
    }
    drop(edges);
    for &(node, v) in &over {
        push(&mut queue, 0, node as u32, v);
    }

    // Bucket queue by distance: a node is final when first taken out, so
    // a win gets its shortest distance; a loss is queued only once all its
    // successors are wins for the opponent, at the longest of them plus 1.
    let mut value: Vec<Option<Wdl>> = vec![None; total];
    let mut dist: Vec<u16> = vec![UNKNOWN; total];
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
                let parent = (p & !(1 << 31)) as usize;
                if value[parent].is_some() {
                    continue;
                }
                let for_parent = if same { v } else { v.flip() };
                if for_parent == Wdl::Win {
                    push(&mut queue, d as u16 + 1, parent as u32, Wdl::Win);
                } else if for_parent == Wdl::Loss {
                    remaining[parent] -= 1;
                    longest_loss[parent] = longest_loss[parent].max(d as u16);
                    if remaining[parent] == 0 {
                        push(
                            &mut queue,
                            longest_loss[parent] + 1,
                            parent as u32,
                            Wdl::Loss,
                        );
                    }
                }
            }
        }
        d += 1;
        if d >= usize::from(UNKNOWN) {
            return Err(internal("a distance beyond 65534 plies".into()));
        }
    }
    let values: Vec<Wdl> = value[..n].iter().map(|v| v.unwrap_or(Wdl::Draw)).collect();
    let dists: Vec<u16> = (0..n)
        .map(|i| if value[i].is_some() { dist[i] } else { 0 })
        .collect();
    Ok(Table::from_parts(material, *rules, keys, &values, dists))
}

impl std::fmt::Display for NoState {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            NoState::OutOfScope => "not a movement-phase ending of up to 3 pieces a side",
            NoState::BlockedBan => "a banned step back blocked by the side to move",
        })
    }
}
