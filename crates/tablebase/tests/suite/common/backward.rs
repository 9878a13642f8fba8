//! The backward labelling of an explicit move graph, shared by the
//! move-graph oracles (`jungle_graph`, `ft_graph`): from the ends of the
//! game outwards by a bucket queue in order of distance, a position won
//! one ply past its shortest move into a lost one, lost one ply past its
//! longest move once every move reaches a won one, drawn if neither.

use qi_tablebase::Wdl;

/// Distance not known yet.
pub const UNKNOWN: u16 = u16::MAX;

/// A position of the graph, for its side to move.
pub struct Node {
    /// Its moves to other nodes: the node and whether the same side moves
    /// there (a removal followed by another of the same side).
    pub edges: Vec<(u32, bool)>,
    /// Its value if the game is over there.
    pub over: Option<Wdl>,
    /// The distance its moves to positions valued already (not nodes)
    /// win at, the shortest ([`UNKNOWN`] for none).
    pub win: u16,
    /// The distance its moves to positions valued already lose at, the
    /// longest (0 for none).
    pub loss: u16,
    /// One of those moves draws or wins: never lost.
    pub escapes: bool,
}

impl Node {
    /// A node with no move yet.
    pub fn new(over: Option<Wdl>) -> Node {
        Node {
            edges: Vec::new(),
            over,
            win: UNKNOWN,
            loss: 0,
            escapes: false,
        }
    }

    /// One move to a position valued already, worth `value` for this
    /// node's side to move, decided `d` plies from the end there.
    pub fn exit(&mut self, value: Wdl, d: u16) {
        match value {
            Wdl::Win => {
                self.win = self.win.min(d + 1);
                self.escapes = true;
            }
            Wdl::Loss => self.loss = self.loss.max(d + 1),
            Wdl::Draw => self.escapes = true,
        }
    }
}

/// The value and distance of every node (drawn at 0 where nothing
/// decides).
pub fn label(mut nodes: Vec<Node>) -> Vec<(Wdl, u16)> {
    let n = nodes.len();
    let mut remaining: Vec<u32> = nodes.iter().map(|x| x.edges.len() as u32).collect();
    let mut parents: Vec<Vec<(u32, bool)>> = vec![Vec::new(); n];
    for (i, x) in nodes.iter().enumerate() {
        for &(c, same) in &x.edges {
            parents[c as usize].push((i as u32, same));
        }
    }
    let mut dist = vec![UNKNOWN; n];
    let mut values = vec![Wdl::Draw; n];
    let mut buckets: Vec<Vec<(u32, Wdl)>> = Vec::new();
    let push = |buckets: &mut Vec<Vec<(u32, Wdl)>>, d: u16, i: usize, v: Wdl| {
        let d = usize::from(d);
        if buckets.len() <= d {
            buckets.resize_with(d + 1, Vec::new);
        }
        buckets[d].push((i as u32, v));
    };
    for (i, x) in nodes.iter().enumerate() {
        if let Some(v) = x.over {
            push(&mut buckets, 0, i, v);
            continue;
        }
        if x.win != UNKNOWN {
            push(&mut buckets, x.win, i, Wdl::Win);
        }
        if !x.escapes && remaining[i] == 0 {
            push(&mut buckets, x.loss, i, Wdl::Loss);
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
            let next = d as u16 + 1;
            for &(p, same) in &parents[i] {
                let (p, x) = (p as usize, &mut nodes[p as usize]);
                if dist[p] != UNKNOWN {
                    continue;
                }
                // The node's value for the parent's opponent: a loss
                // there wins the parent.
                match if same { v.flip() } else { v } {
                    Wdl::Loss if next < x.win => {
                        x.win = next;
                        push(&mut buckets, next, p, Wdl::Win);
                    }
                    Wdl::Win => {
                        remaining[p] -= 1;
                        x.loss = x.loss.max(next);
                        if remaining[p] == 0 && !x.escapes {
                            push(&mut buckets, x.loss, p, Wdl::Loss);
                        }
                    }
                    _ => {}
                }
            }
        }
        d += 1;
    }
    values
        .into_iter()
        .zip(dist)
        .map(|(v, d)| if d == UNKNOWN { (Wdl::Draw, 0) } else { (v, d) })
        .collect()
}
