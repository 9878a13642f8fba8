//! The Five Tigers generator (the in-core solver over the dense index,
//! with or without the shuttle ban) against the forward move graph
//! (`common/ft_graph.rs`, the graph generator of before kept as an
//! oracle): the same value and distance for every stored state of every
//! small material, under every preset (the shuttle allowed and
//! forbidden, other formation values, fewer pieces in hand).

use qi_five_tigers::{Rules, Shuttle};
use qi_tablebase::five_tigers::{closure, Material, Tablebase};

use crate::common::ft_graph;

fn materials(names: &[&str]) -> Vec<Material> {
    names.iter().map(|m| m.parse().unwrap()).collect()
}

#[test]
fn the_generator_equals_the_move_graph_oracle() {
    for preset in Rules::PRESETS {
        let rules = Rules::preset(preset).unwrap();
        // The ban multiplies the states a placement has: fewer pieces.
        let ms = if rules.shuttle == Shuttle::Forbidden {
            materials(&["2v1", "1v2"])
        } else {
            materials(&["2v2", "3v1", "1v3"])
        };
        let tb = Tablebase::generate(&rules, &ms, 2).unwrap();
        // Won or lost states (2v2 is all drawn: no formation fits).
        let mut decided = 0;
        for m in closure(&ms, &rules) {
            decided += ft_graph::check(tb.table(m).unwrap(), &tb);
        }
        assert!(decided > 0, "{preset}: every state is drawn");
    }
}
