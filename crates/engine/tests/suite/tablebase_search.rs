//! Endgame tables probed in the search tree (`JungleHooks::with_tablebase`):
//! the search's value agrees with the tables', with the search without
//! tables where a full-width search can decide it, and the tables find
//! exact values at depths where the search alone cannot; values the
//! game-record rules could change are not taken from the tables.

use std::path::PathBuf;
use std::sync::atomic::AtomicBool;
use std::sync::Arc;

use qi_core::Position;
use qi_engine::jungle::{JungleEval, JungleHooks};
use qi_engine::{engine_for, options::Overrides, EvalProfile, GameKit, Games, JungleKit};
use qi_jungle::{Game, Jungle, Rules};
use qi_search::{Limits, Score, SearchOptions, SearchResult, Searcher, TableValue};
use qi_tablebase::jungle::{LazyTablebase, Material, Tablebase};
use qi_tablebase::Wdl;

/// A directory of its own under the system's temporary directory, removed
/// when dropped.
struct TempDir(PathBuf);

impl TempDir {
    fn new(name: &str) -> TempDir {
        let dir = std::env::temp_dir().join(format!("qi-tb-search-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        TempDir(dir)
    }
}

impl Drop for TempDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// The 2-against-1 materials the tests use (their captures lead to 1v1).
const MATERIALS: [&str; 3] = ["LCvE", "TDvW", "ERvL"];

/// Generates the tables of [`MATERIALS`] (and their 1v1 sub-materials)
/// under `standard` into a new directory.
fn tables(name: &str) -> (TempDir, Tablebase) {
    let rules = Rules::standard();
    let dir = TempDir::new(name);
    let materials: Vec<Material> = MATERIALS.iter().map(|m| m.parse().unwrap()).collect();
    let tb = Tablebase::generate(&rules, &materials, 2).unwrap();
    tb.save_dir(&dir.0).unwrap();
    (dir, tb)
}

fn search(
    hooks: JungleHooks,
    options: SearchOptions,
    pos: Jungle,
    depth: u32,
) -> SearchResult<qi_jungle::Move> {
    let mut searcher = Searcher::with_hooks(options, hooks);
    let mut game = Game::new(pos);
    searcher.search(
        &mut game,
        &JungleEval::default(),
        Limits::depth(depth),
        &AtomicBool::new(false),
        |_| {},
    )
}

fn with_tables(dir: &TempDir) -> JungleHooks {
    let lazy = LazyTablebase::open(&dir.0, &Rules::standard()).unwrap();
    JungleHooks::default().with_tablebase(Some(Arc::new(lazy)))
}

/// The search's score for a table value.
fn score_of(wdl: Wdl, distance: u32) -> Score {
    match wdl {
        Wdl::Win => Score::win_in(distance),
        Wdl::Loss => Score::loss_in(distance),
        Wdl::Draw => Score::DRAW,
    }
}

/// Positions of `material` at a stride through its index, not over.
fn sample(material: &str, stride: u64) -> Vec<Jungle> {
    let m: Material = material.parse().unwrap();
    (0..m.index_count())
        .step_by(stride as usize)
        .filter_map(|i| m.position(i, &Rules::standard()))
        .filter(|p| p.outcome().is_none())
        .collect()
}

#[test]
fn the_search_with_tables_returns_the_tables_value() {
    let (dir, tb) = tables("agree");
    let hooks = with_tables(&dir);
    let mut checked = [0usize; 3];
    for material in MATERIALS.iter().chain(&["LvE", "DvW"]) {
        for pos in sample(material, 4513) {
            let (wdl, distance) = tb.probe(&pos).unwrap().unwrap();
            // Two plies: every reply of the root is answered by a table.
            let result = search(hooks.clone(), JungleKit::tuned_options(), pos, 2);
            assert_eq!(
                result.score,
                score_of(wdl, distance),
                "{pos}: {wdl} in {distance}"
            );
            // A win in one ply ends the game there: the game says so, not
            // a table (mate-distance pruning may then leave no table hit).
            assert!(result.tbhits > 0 || distance == 1, "{pos}");
            // The move keeps the value: its child's value is the parent's,
            // one ply nearer, for the other side.
            let mut child = pos;
            child.play(result.best_move.unwrap()).unwrap();
            let (cw, cd) = tb.probe(&child).unwrap().unwrap();
            assert_eq!(cw, wdl.flip(), "{pos}");
            if wdl != Wdl::Draw {
                assert_eq!(
                    cd + 1,
                    distance,
                    "{pos}: the shortest win, the longest loss"
                );
            }
            checked[wdl as usize] += 1;
        }
    }
    assert!(
        checked.iter().all(|&n| n > 0),
        "wins, draws and losses: {checked:?}"
    );
}

#[test]
fn a_full_width_search_without_tables_agrees_where_it_can_decide() {
    let (_dir, tb) = tables("exact");
    let mut checked = 0;
    for material in ["LvE", "DvW", "TDvW"] {
        for pos in sample(material, 211) {
            let (wdl, distance) = tb.probe(&pos).unwrap().unwrap();
            // Short decisive values only: a full-width search to their
            // depth sees every line end (draws it never proves).
            if wdl == Wdl::Draw || distance > 5 {
                continue;
            }
            let result = search(
                JungleHooks::default(),
                SearchOptions::exact(1),
                pos,
                distance,
            );
            assert_eq!(
                result.score,
                score_of(wdl, distance),
                "{pos}: {wdl} in {distance}"
            );
            assert_eq!(result.tbhits, 0);
            checked += 1;
        }
    }
    assert!(checked > 20, "{checked} positions checked");
}

#[test]
fn tables_find_at_two_plies_what_the_search_alone_does_not() {
    let (dir, tb) = tables("shallow");
    let m: Material = "TDvW".parse().unwrap();
    // The longest win of the material.
    let (pos, distance) = (0..m.index_count())
        .filter_map(|i| m.position(i, &Rules::standard()))
        .filter_map(|p| match tb.probe(&p).unwrap() {
            Some((Wdl::Win, d)) => Some((p, d)),
            _ => None,
        })
        .max_by_key(|&(_, d)| d)
        .unwrap();
    assert!(distance >= 15, "a long win: {distance} plies");
    let with = search(with_tables(&dir), JungleKit::tuned_options(), pos, 2);
    assert_eq!(with.score, Score::win_in(distance), "{pos}");
    let without = search(JungleHooks::default(), JungleKit::tuned_options(), pos, 6);
    assert!(!without.score.is_mate(), "{pos}: {}", without.score);
    assert_eq!(without.tbhits, 0);
}

#[test]
fn values_the_game_rules_could_change_are_not_taken() {
    let (dir, tb) = tables("rules");
    let hooks = with_tables(&dir);
    let pos = sample("TDvW", 7919)
        .into_iter()
        .find(|p| matches!(tb.probe(p).unwrap(), Some((Wdl::Win, d)) if d >= 9))
        .unwrap();
    let (_, distance) = tb.probe(&pos).unwrap().unwrap();
    let value = |text: &str, rules: &Rules| {
        let game = Game::new(Jungle::from_text(text, *rules).unwrap());
        hooks.table_value(&game)
    };
    let board = pos.to_string();
    let board = board.split(' ').take(2).collect::<Vec<_>>().join(" ");
    let standard = Rules::standard();
    assert_eq!(
        value(&format!("{board} 0 1"), &standard),
        Some(TableValue::Win(distance))
    );
    // The no-capture draw comes first: the win is not sure.
    let late = 200 - distance;
    assert_eq!(value(&format!("{board} {late} 120"), &standard), None);
    assert_eq!(
        value(&format!("{board} {} 120", late - 1), &standard),
        Some(TableValue::Win(distance))
    );
    // Under the anti-chase rules a table line may be forbidden.
    let mut chase = standard;
    chase.anti_chase = true;
    assert_eq!(value(&format!("{board} 0 1"), &chase), None);
    // Under initiator_loses, wins stand and draws do not.
    let mut initiator = standard;
    initiator.repetition = qi_jungle::Repetition::InitiatorLoses;
    assert_eq!(
        value(&format!("{board} 0 1"), &initiator),
        Some(TableValue::Win(distance))
    );
    let draw = sample("TDvW", 101)
        .into_iter()
        .find(|p| matches!(tb.probe(p).unwrap(), Some((Wdl::Draw, _))));
    if let Some(draw) = draw {
        let text = draw.to_string();
        assert_eq!(value(&text, &standard), Some(TableValue::Draw));
        assert_eq!(value(&text, &initiator), None);
    }
    // A search from a position whose wins are all unsure does not score
    // the table's win.
    let late_pos = Jungle::from_text(&format!("{board} 199 120"), standard).unwrap();
    let result = search(hooks.clone(), JungleKit::tuned_options(), late_pos, 3);
    assert_ne!(result.score, Score::win_in(distance));
}

#[test]
fn the_library_engine_takes_a_table_directory() {
    let (dir, tb) = tables("dyn");
    let pos = sample("LCvE", 7919)
        .into_iter()
        .find(|p| matches!(tb.probe(p).unwrap(), Some((Wdl::Win, d)) if d >= 9))
        .unwrap();
    let (_, distance) = tb.probe(&pos).unwrap().unwrap();
    let mut engine =
        engine_for::<Games>("jungle", EvalProfile::Default, &Overrides::default()).unwrap();
    engine.set_position(Some(&pos.to_string()), &[]).unwrap();
    engine.set_tablebase(Some(&dir.0)).unwrap();
    let best = engine.best_move(Limits::depth(2)).unwrap();
    assert_eq!(best.score, Score::win_in(distance));
    engine.set_tablebase(None).unwrap();
    engine.new_game();
    engine.set_position(Some(&pos.to_string()), &[]).unwrap();
    let best = engine.best_move(Limits::depth(2)).unwrap();
    assert_ne!(best.score, Score::win_in(distance));
    // A directory that cannot be read is refused.
    assert!(engine.set_tablebase(Some(&dir.0.join("missing"))).is_err());
    // The hooks of the kit hold no tables by default.
    assert!(JungleKit::hooks(EvalProfile::Default).tablebase().is_none());
}

/// `tbhits` counts the tables' answers only: a directory whose one file is
/// refused answers nothing, though the search meets finished games (the
/// Lion entering the den) among the materials the directory names.
#[test]
fn tbhits_count_only_what_a_table_answered() {
    let rules = Rules::standard();
    let dir = TempDir::new("refused-only");
    let m: Material = "LvC".parse().unwrap();
    Tablebase::generate(&rules, &[m], 1)
        .unwrap()
        .save_dir(&dir.0)
        .unwrap();
    let path = Tablebase::file_path(&dir.0, m);
    let mut bytes = std::fs::read(&path).unwrap();
    let last = bytes.len() - 1;
    bytes[last] ^= 0x55;
    std::fs::write(&path, bytes).unwrap();
    let pos = Jungle::from_text("7/7/3L3/7/7/7/7/7/c6 w", rules).unwrap();
    let result = search(with_tables(&dir), JungleKit::tuned_options(), pos, 4);
    assert!(
        result.score.is_mate(),
        "the den is entered: {:?}",
        result.score
    );
    assert_eq!(result.tbhits, 0);
    // With the file intact the same search hits the table.
    Tablebase::generate(&rules, &[m], 1)
        .unwrap()
        .save_dir(&dir.0)
        .unwrap();
    let result = search(with_tables(&dir), JungleKit::tuned_options(), pos, 4);
    assert!(result.tbhits > 0);
}
