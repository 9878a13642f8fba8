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

use super::backward::{label, Node};

/// The value and distance of every index of `material` under `rules`
/// (drawn at 0 where no round decides), its captures read in `smaller`.
pub fn solve(rules: &Rules, material: Material, smaller: &Tablebase) -> Vec<(Wdl, u16)> {
    let n = material.index_count() as usize;
    let mut nodes = Vec::with_capacity(n);
    for i in 0..n {
        let pos = material.position(i as u64, rules).expect("every index");
        let mut node = Node::new(
            pos.outcome()
                .map(|outcome| Wdl::of_outcome(outcome, pos.side_to_move())),
        );
        if node.over.is_none() {
            for mv in pos.legal_moves() {
                let mut child = pos;
                child.play_unchecked(mv);
                let (v, d) = if let Some(outcome) = child.outcome() {
                    (Wdl::of_outcome(outcome, child.side_to_move()), 0)
                } else if let Some(c) = material.index_of(&child) {
                    node.edges.push((c as u32, false));
                    continue;
                } else {
                    let needed = Material::of(&child).expect("a material");
                    smaller
                        .table(needed)
                        .and_then(|t| t.get(&child))
                        .expect("the smaller table")
                };
                node.exit(v.flip(), u16::try_from(d).expect("a distance"));
            }
        }
        nodes.push(node);
    }
    label(nodes)
}
