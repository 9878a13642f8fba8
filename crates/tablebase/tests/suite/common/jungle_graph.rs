//! The Jungle generator of before the in-core solver, kept as a test
//! oracle: the forward move graph of a material, built by playing every
//! move of every position, reversed, and labelled backwards by a bucket
//! queue in order of distance. It shares no code with the library's
//! solver but the index and the rules (no starts, no un-moves, no
//! rounds), so the tables it gives check the solver's.

use qi_core::Position;
use qi_jungle::Rules;
use qi_tablebase::jungle::{Material, Tablebase};
use qi_tablebase::Wdl;

/// Distance not known yet.
const UNKNOWN: u16 = u16::MAX;

/// The value and distance of every index of `material` under `rules`
/// (drawn at 0 where no round decides), its captures read in `smaller`.
pub fn solve(rules: &Rules, material: Material, smaller: &Tablebase) -> Vec<(Wdl, u16)> {
    let n = material.index_count() as usize;
    let mut edges: Vec<Vec<u32>> = vec![Vec::new(); n];
    let mut win_via = vec![UNKNOWN; n];
    let mut loss_via = vec![0u16; n];
    let mut escapes = vec![false; n];
    let mut terminal: Vec<Option<Wdl>> = vec![None; n];
    for i in 0..n {
        let pos = material.position(i as u64, rules).expect("every index");
        if let Some(outcome) = pos.outcome() {
            terminal[i] = Some(Wdl::of_outcome(outcome, pos.side_to_move()));
            continue;
        }
        let (mut shortest_lost, mut longest_won, mut draw) = (None::<u32>, None::<u32>, false);
        for mv in pos.legal_moves() {
            let mut child = pos;
            child.play_unchecked(mv);
            let (v, d) = if let Some(outcome) = child.outcome() {
                (Wdl::of_outcome(outcome, child.side_to_move()), 0)
            } else if let Some(c) = material.index_of(&child) {
                edges[i].push(c as u32);
                continue;
            } else {
                let needed = Material::of(&child).expect("a material");
                smaller
                    .table(needed)
                    .and_then(|t| t.get(&child))
                    .expect("the smaller table")
            };
            match v {
                Wdl::Loss => shortest_lost = Some(shortest_lost.map_or(d, |s| s.min(d))),
                Wdl::Win => longest_won = Some(longest_won.map_or(d, |l| l.max(d))),
                Wdl::Draw => draw = true,
            }
        }
        if let Some(d) = shortest_lost {
            win_via[i] = d as u16 + 1;
        }
        loss_via[i] = longest_won.map_or(0, |d| d as u16 + 1);
        escapes[i] = draw || shortest_lost.is_some();
    }
    let mut remaining: Vec<u32> = edges.iter().map(|e| e.len() as u32).collect();
    let mut parents: Vec<Vec<u32>> = vec![Vec::new(); n];
    for (i, e) in edges.iter().enumerate() {
        for &c in e {
            parents[c as usize].push(i as u32);
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
            let next = d as u16 + 1;
            for &p in &parents[i] {
                let p = p as usize;
                if dist[p] != UNKNOWN {
                    continue;
                }
                match v {
                    Wdl::Loss if next < win_via[p] => {
                        win_via[p] = next;
                        push(&mut buckets, next, p, Wdl::Win);
                    }
                    Wdl::Win => {
                        remaining[p] -= 1;
                        loss_via[p] = loss_via[p].max(next);
                        if remaining[p] == 0 && !escapes[p] {
                            push(&mut buckets, loss_via[p], p, Wdl::Loss);
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
