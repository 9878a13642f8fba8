//! Unit tests of `probe::lazy`, one module a game.

use std::path::Path;

use super::{LazyTablebase, Tablebase};

/// Generates `material` into `dir`, corrupts its file's last byte and
/// checks that a lazy tablebase refuses it at the first probe of `pos`
/// (a position of it) and still takes it as absent once the file is gone
/// (no retry at every node); the tablebase, for the game's own checks.
fn corrupt_file_is_refused_once<G: crate::Solver>(
    rules: &G::Rules,
    material: G::Material,
    pos: &G,
    dir: &Path,
) -> LazyTablebase<G> {
    Tablebase::<G>::generate(rules, &[material], 1)
        .unwrap()
        .save_dir(dir)
        .unwrap();
    let path = Tablebase::<G>::file_path(dir, material);
    let mut bytes = std::fs::read(&path).unwrap();
    let last = bytes.len() - 1;
    bytes[last] ^= 0x55;
    std::fs::write(&path, bytes).unwrap();
    let lazy = LazyTablebase::<G>::open(dir, rules).unwrap();
    assert_eq!(lazy.probe(pos).unwrap(), None);
    assert!(
        lazy.refused(material).is_some(),
        "the corrupt file is refused"
    );
    std::fs::remove_file(&path).unwrap();
    assert_eq!(lazy.probe(pos).unwrap(), None);
    lazy
}

mod jungle_tests {
    use std::sync::Arc;

    use qi_jungle::{Jungle, Rules};

    use crate::jungle::{LazyTablebase, Material, Tablebase};
    use crate::ProbeError;

    #[test]
    fn agrees_with_the_tables_in_memory_and_loads_once() {
        let rules = Rules::standard();
        let tmp = tempfile::tempdir().unwrap();
        let dir = tmp.path().to_path_buf();
        let materials: Vec<Material> = ["LvC", "RvE"].iter().map(|m| m.parse().unwrap()).collect();
        let tb = Tablebase::generate(&rules, &materials, 1).unwrap();
        tb.save_dir(&dir).unwrap();
        let lazy = Arc::new(LazyTablebase::open(&dir, &rules).unwrap());
        assert_eq!(lazy.loaded(), 0, "nothing is read at open");
        let m: Material = "LvC".parse().unwrap();
        let threads: Vec<_> = (0..2)
            .map(|t| {
                let lazy = Arc::clone(&lazy);
                let tb = tb.clone();
                std::thread::spawn(move || {
                    for i in (t..m.index_count()).step_by(97) {
                        let pos = m.position(i, &rules).unwrap();
                        assert_eq!(lazy.probe(&pos).unwrap(), tb.probe(&pos).unwrap());
                    }
                })
            })
            .collect();
        for t in threads {
            t.join().unwrap();
        }
        assert_eq!(lazy.loaded(), 1);
    }

    #[test]
    fn a_loaded_table_answers_while_another_file_is_read() {
        use std::sync::mpsc;
        use std::time::Duration;

        let rules = Rules::standard();
        let tmp = tempfile::tempdir().unwrap();
        let dir = tmp.path().to_path_buf();
        let materials: Vec<Material> = ["LvC", "RvE"].iter().map(|m| m.parse().unwrap()).collect();
        let tb = Tablebase::generate(&rules, &materials, 1).unwrap();
        tb.save_dir(&dir).unwrap();
        let lazy = Arc::new(LazyTablebase::open(&dir, &rules).unwrap());
        let loaded = Jungle::from_text("7/3L3/7/7/7/7/7/7/c6 w", rules).unwrap();
        let unloaded = Jungle::from_text("7/3R3/7/7/7/7/7/7/e6 w", rules).unwrap();
        let expected = lazy.probe(&loaded).unwrap();
        assert!(expected.is_some());
        // As if a file were being read: a probe of the table in memory
        // answers, one of a table not yet read waits for its turn.
        let loading = lazy.loading.lock().unwrap();
        let (send, answers) = mpsc::channel();
        for pos in [loaded, unloaded] {
            let (lazy, send) = (Arc::clone(&lazy), send.clone());
            std::thread::spawn(move || send.send((pos, lazy.probe(&pos).unwrap())).unwrap());
        }
        let first = answers.recv_timeout(Duration::from_secs(30)).unwrap();
        assert_eq!(
            first,
            (loaded, expected),
            "the loaded table answers at once"
        );
        assert!(answers.recv_timeout(Duration::from_millis(200)).is_err());
        drop(loading);
        let second = answers.recv_timeout(Duration::from_secs(30)).unwrap();
        assert_eq!(second, (unloaded, tb.probe(&unloaded).unwrap()));
        assert_eq!(lazy.loaded(), 2);
    }

    #[test]
    fn a_bad_file_is_refused_once_and_a_rules_mismatch_is_an_error() {
        let rules = Rules::standard();
        let tmp = tempfile::tempdir().unwrap();
        let dir = tmp.path().to_path_buf();
        let pos = Jungle::from_text("7/3L3/7/7/7/7/7/7/c6 w", rules).unwrap();
        let lazy = super::corrupt_file_is_refused_once(&rules, "LvC".parse().unwrap(), &pos, &dir);
        let datou = Jungle::from_text("7/3L3/7/7/7/7/7/7/c6 w", Rules::datou()).unwrap();
        assert!(matches!(
            lazy.probe(&datou),
            Err(ProbeError::RulesMismatch { .. })
        ));
        assert!(LazyTablebase::open(&dir.join("missing"), &rules).is_err());
    }
}

mod five_tigers_tests {
    use std::sync::Arc;

    use qi_five_tigers::{FiveTigers, Rules};

    use crate::five_tigers::{LazyTablebase, Material, Tablebase};
    use crate::ProbeError;

    #[test]
    fn agrees_with_the_tables_in_memory_on_every_state_and_loads_once() {
        for rules in [Rules::shandong_shuttle(), Rules::shandong()] {
            let tmp = tempfile::tempdir().unwrap();
            let dir = tmp.path().to_path_buf();
            let materials: Vec<Material> =
                ["2v1", "1v2"].iter().map(|m| m.parse().unwrap()).collect();
            let tb = Tablebase::generate(&rules, &materials, 2).unwrap();
            tb.save_dir(&dir).unwrap();
            let lazy = Arc::new(LazyTablebase::open(&dir, &rules).unwrap());
            assert_eq!(lazy.loaded(), 0, "nothing is read at open");
            assert_eq!(lazy.max_pieces(), 2);
            let table = tb.table("2v1".parse().unwrap()).unwrap();
            let positions: Vec<FiveTigers> = table.entries().map(|(p, _, _)| p).collect();
            assert!(!positions.is_empty());
            let positions = Arc::new(positions);
            let threads: Vec<_> = (0..2)
                .map(|t| {
                    let (lazy, tb, positions) =
                        (Arc::clone(&lazy), tb.clone(), Arc::clone(&positions));
                    std::thread::spawn(move || {
                        for pos in positions.iter().skip(t).step_by(2) {
                            let expected = tb.probe(pos).unwrap();
                            assert!(expected.is_some());
                            assert_eq!(lazy.probe(pos).unwrap(), expected);
                        }
                    })
                })
                .collect();
            for t in threads {
                t.join().unwrap();
            }
            assert_eq!(lazy.loaded(), 1, "2v1 only: its positions never reach 1v2");
            // The placement phase and a material without a file: no answer.
            assert_eq!(lazy.probe(&FiveTigers::new(rules)).unwrap(), None);
            let two_each =
                FiveTigers::from_text_lenient("5/5/X1O2/5/X1O2 x move X:0,O:0 - x -,- 0", rules)
                    .unwrap();
            assert_eq!(lazy.probe(&two_each).unwrap(), None);
        }
    }

    #[test]
    fn a_bad_file_is_refused_once_and_a_rules_mismatch_is_an_error() {
        let rules = Rules::shandong_shuttle();
        let tmp = tempfile::tempdir().unwrap();
        let dir = tmp.path().to_path_buf();
        let text = "4O/5/X4/1X3/1X3 x move X:0,O:0 - x -,- 0";
        let pos = FiveTigers::from_text_lenient(text, rules).unwrap();
        let lazy = super::corrupt_file_is_refused_once(&rules, "3v1".parse().unwrap(), &pos, &dir);
        let banned = FiveTigers::from_text_lenient(text, Rules::shandong()).unwrap();
        assert!(matches!(
            lazy.probe(&banned),
            Err(ProbeError::RulesMismatch { .. })
        ));
        // `ten` shares `shandong`'s tables, not `shandong-shuttle`'s.
        let ten = FiveTigers::from_text_lenient(text, Rules::ten()).unwrap();
        assert!(lazy.probe(&ten).is_err());
        assert!(LazyTablebase::open(&dir.join("missing"), &rules).is_err());
    }
}
