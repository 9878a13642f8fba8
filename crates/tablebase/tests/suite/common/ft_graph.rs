//! The Five Tigers generator of before the in-core solver, kept as a test
//! oracle: the forward move graph of a material, built by playing every
//! move of every position, the positions with removals owed nodes of
//! their own, reversed and labelled backwards by a bucket queue in order
//! of distance. It shares no code with the library's solver but the rules
//! and the smaller tables a removal or a capture leads to (no index, no
//! starts, no un-moves, no rounds, no symmetry), so the tables it gives
//! check the solver's.

use std::collections::HashMap;

use qi_core::Position;
use qi_five_tigers::{FiveTigers, Setup, Shuttle};
use qi_tablebase::five_tigers::{Material, Table, Tablebase};
use qi_tablebase::Wdl;

use super::backward::{label, Node};

/// A position as a node: its contents without the count of plies since
/// the last capture, which no table holds, and without the last steps
/// when the shuttle is allowed (they forbid nothing then).
fn node_of(pos: &FiveTigers) -> Setup {
    let mut setup = pos.to_setup();
    setup.no_capture_plies = 0;
    if pos.rules().shuttle == Shuttle::Allowed {
        setup.last_steps = [None, None];
    }
    setup
}

/// The value and distance, for its side to move, of each of `positions`
/// (of `material`, nothing owed), drawn at 0 where nothing decides:
/// solved over every position they reach by moves that keep the material
/// or owe a removal, the others read in `smaller`.
pub fn solve(material: Material, positions: &[FiveTigers], smaller: &Tablebase) -> Vec<(Wdl, u16)> {
    let mut ids: HashMap<Setup, u32> = HashMap::new();
    let mut nodes: Vec<FiveTigers> = Vec::new();
    // A node is played from its setup: its count of plies since the last
    // capture 0, so that the game's draw by that count never ends it.
    let mut intern = |pos: &FiveTigers, nodes: &mut Vec<FiveTigers>| -> u32 {
        *ids.entry(node_of(pos)).or_insert_with_key(|setup| {
            let node = FiveTigers::from_setup_lenient(*setup, *pos.rules()).expect("a position");
            nodes.push(node);
            (nodes.len() - 1) as u32
        })
    };
    let asked: Vec<u32> = positions.iter().map(|p| intern(p, &mut nodes)).collect();
    let mut graph: Vec<Node> = Vec::new();
    while graph.len() < nodes.len() {
        let pos = nodes[graph.len()];
        let me = pos.side_to_move();
        let mut node = Node::new(pos.outcome().map(|o| Wdl::of_outcome(o, me)));
        if node.over.is_none() {
            for mv in pos.legal_moves() {
                let mut child = pos;
                child.play_unchecked(mv);
                // The same side decides again after a removal with another
                // owed by it.
                let same = child.side_to_move() == me;
                let (v, d) = if let Some(o) = child.outcome() {
                    (Wdl::of_outcome(o, child.side_to_move()), 0)
                } else if !child.to_setup().owed.is_empty()
                    || Material::of(&child) == Some(material)
                {
                    node.edges.push((intern(&child, &mut nodes), same));
                    continue;
                } else {
                    let (v, d) = smaller
                        .probe(&child)
                        .expect("a position of a smaller table")
                        .expect("the smaller table");
                    (v, u16::try_from(d).expect("a distance"))
                };
                node.exit(if same { v } else { v.flip() }, d);
            }
        }
        graph.push(node);
    }
    let values = label(graph);
    asked.into_iter().map(|i| values[i as usize]).collect()
}

/// Checks that `table` (of its material, beside the tables of `tb` it
/// leads to) gives the oracle's value and distance for every state it
/// stores; returns how many are won or lost.
pub fn check(table: &Table, tb: &Tablebase) -> usize {
    let m = table.material();
    let entries: Vec<_> = table.entries().collect();
    assert!(!entries.is_empty(), "{m}");
    let positions: Vec<_> = entries.iter().map(|&(p, _, _)| p).collect();
    let oracle = solve(m, &positions, tb);
    let mut decided = 0;
    for (&(pos, v, d), &(ov, od)) in entries.iter().zip(&oracle) {
        assert_eq!((v, d), (ov, u32::from(od)), "{m} {pos}");
        decided += usize::from(v != Wdl::Draw);
    }
    decided
}
