//! Jungle materials solved by the generic rounds (`retrograde`, one
//! thread; `dataflow`, timely workers in threads and in processes over
//! TCP) through `JungleSlice`: the tables equal the generator's
//! (`Jungle::solve`, the in-core solver) byte for byte, and its values
//! those of the graph of forward moves (`common/jungle_graph.rs`, the
//! generator of before kept as an oracle), under presets whose board
//! rules differ (jumps, their blocking, rank order).

use qi_jungle::Rules;
use qi_tablebase::jungle::{JungleSlice, Material, Tablebase};
use qi_tablebase::retrograde;

use crate::common::jungle_graph;

fn materials(names: &[&str]) -> Vec<Material> {
    names.iter().map(|m| m.parse().unwrap()).collect()
}

/// `m` solved by one thread's rounds, its smaller tables from `tb`.
fn by_rounds(rules: &Rules, m: Material, tb: &Tablebase) -> Vec<u8> {
    let slice = JungleSlice::new(m, rules, tb.clone());
    let values = retrograde::solve(&slice).unwrap();
    slice.table(&values).to_bytes()
}

#[test]
fn one_thread_rounds_equal_the_generator_on_every_two_animal_material() {
    for preset in ["standard", "traditional"] {
        let rules = Rules::preset(preset).unwrap();
        let all = Material::all_up_to(2);
        let tb = Tablebase::generate(&rules, &all, 2).unwrap();
        for m in all {
            assert!(
                by_rounds(&rules, m, &tb) == tb.table(m).unwrap().to_bytes(),
                "{preset} {m}"
            );
        }
    }
}

/// The animals whose moves are special: the Rat swims and takes the
/// Elephant, the Lion and the Tiger jump the rivers (which a Rat in the
/// water blocks), and captures lead into the two-animal tables.
#[test]
fn one_thread_rounds_equal_the_generator_on_three_animal_materials() {
    for preset in Rules::PRESETS {
        let rules = Rules::preset(preset).unwrap();
        let ms = materials(&["LRvE", "TvRD"]);
        let tb = Tablebase::generate(&rules, &ms, 2).unwrap();
        for m in ms {
            assert!(
                by_rounds(&rules, m, &tb) == tb.table(m).unwrap().to_bytes(),
                "{preset} {m}"
            );
        }
    }
}

#[test]
fn the_generator_equals_the_move_graph_oracle() {
    for preset in Rules::PRESETS {
        let rules = Rules::preset(preset).unwrap();
        let mut ms = Material::all_up_to(2);
        ms.extend(materials(&["LRvE", "TvRD"]));
        let tb = Tablebase::generate(&rules, &ms, 2).unwrap();
        for m in <qi_jungle::Jungle as qi_tablebase::TableGame>::closure(&ms, &rules) {
            let table = tb.table(m).unwrap();
            let oracle = jungle_graph::solve(&rules, m, &tb);
            assert_eq!(table.len(), oracle.len() as u64, "{preset} {m}");
            for (i, &(v, d)) in oracle.iter().enumerate() {
                assert_eq!(
                    table.at(i as u64),
                    Some((v, u32::from(d))),
                    "{preset} {m} {i}"
                );
            }
        }
    }
}

#[cfg(feature = "distributed")]
use crate::common::loopback;

#[cfg(feature = "distributed")]
mod distributed {
    use std::sync::Arc;

    use qi_tablebase::dataflow::{solve_everywhere, Cluster};

    use super::loopback;
    use super::*;

    #[test]
    fn workers_and_processes_equal_the_generator() {
        let rules = Rules::standard();
        let ms = materials(&["LRvE", "WvT"]);
        let tb = Tablebase::generate(&rules, &ms, 2).unwrap();
        for m in ms {
            let expected = tb.table(m).unwrap().to_bytes();
            let slice = Arc::new(JungleSlice::new(m, &rules, tb.clone()));
            let (values, _) =
                solve_everywhere(slice.clone(), &Cluster::Local { threads: 3 }).unwrap();
            assert!(
                slice.table(&values).to_bytes() == expected,
                "{m}, 3 threads"
            );
            let (values, workers) = loopback::joined(loopback::over_tcp(&slice, 2, 1));
            assert!(workers.iter().any(|w| w.remote > 0), "{m}");
            assert!(
                slice.table(&values).to_bytes() == expected,
                "{m}, 2 processes"
            );
        }
    }
}
