//! Five Tigers endgame tables probed in the search tree
//! (`FiveTigersHooks::with_tablebase`): the search's value agrees with the
//! tables' and its move keeps it, the tables find exact values at depths
//! where the search alone cannot, and values the game-record rules could
//! change are not taken from the tables.

use std::path::PathBuf;
use std::sync::atomic::AtomicBool;
use std::sync::Arc;

use qi_core::Position;
use qi_engine::five_tigers::{FiveTigersEval, FiveTigersHooks};
use qi_engine::{engine_for, options::Overrides, EvalProfile, FiveTigersKit, GameKit, Games};
use qi_five_tigers::{FiveTigers, Game, Move, Rules};
use qi_search::{Limits, Score, SearchResult, Searcher, TableValue};
use qi_tablebase::five_tigers::{LazyTablebase, Material, Tablebase};
use qi_tablebase::Wdl;

/// A directory of its own under the system's temporary directory, removed
/// when dropped.
struct TempDir(PathBuf);

impl TempDir {
    fn new(name: &str) -> TempDir {
        let dir =
            std::env::temp_dir().join(format!("qi-ft-tb-search-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        TempDir(dir)
    }
}

impl Drop for TempDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// The materials the tests use under `shandong-shuttle` (generated in well
/// under a second all together; none of them needs another table).
const MATERIALS: [&str; 5] = ["2v1", "3v1", "1v3", "2v2", "3v2"];

fn tables(name: &str, rules: &Rules, materials: &[&str]) -> (TempDir, Tablebase) {
    let dir = TempDir::new(name);
    let materials: Vec<Material> = materials.iter().map(|m| m.parse().unwrap()).collect();
    let tb = Tablebase::generate(rules, &materials, 2).unwrap();
    tb.save_dir(&dir.0).unwrap();
    (dir, tb)
}

fn with_tables(dir: &TempDir, rules: &Rules) -> FiveTigersHooks {
    let lazy = LazyTablebase::open(&dir.0, rules).unwrap();
    FiveTigersHooks::default().with_tablebase(Some(Arc::new(lazy)))
}

fn search(hooks: FiveTigersHooks, pos: FiveTigers, limits: Limits) -> SearchResult<Move> {
    let mut searcher = Searcher::with_hooks(FiveTigersKit::tuned_options(), hooks);
    let mut game = Game::new(pos);
    searcher.search(
        &mut game,
        &FiveTigersEval::default(),
        limits,
        &AtomicBool::new(false),
        |_| {},
    )
}

/// The search's score for a table value.
fn score_of(wdl: Wdl, distance: u32) -> Score {
    match wdl {
        Wdl::Win => Score::win_in(distance),
        Wdl::Loss => Score::loss_in(distance),
        Wdl::Draw => Score::DRAW,
    }
}

/// Whether `a` is better than `b` for the side to move: a win beats a
/// draw beats a loss, a shorter win and a longer loss are better.
fn better(a: (Wdl, u32), b: (Wdl, u32)) -> bool {
    let rank = |(w, d): (Wdl, u32)| match w {
        Wdl::Win => (2, -(d as i64)),
        Wdl::Draw => (1, 0),
        Wdl::Loss => (0, d as i64),
    };
    rank(a) > rank(b)
}

/// The exact value of `pos` for its side to move: the tables' where they
/// answer, and through the removals owed (not stored in the files, a few
/// plies at most) by playing them out; the side to move may stay the same
/// across a ply (a taker removing twice).
fn value(tb: &Tablebase, pos: &FiveTigers) -> (Wdl, u32) {
    if let Some(v) = tb.probe(pos).unwrap() {
        return v;
    }
    assert!(!pos.owed().is_empty(), "{pos} has no table value");
    let mut best: Option<(Wdl, u32)> = None;
    for mv in pos.legal_moves() {
        let mut child = *pos;
        child.play(mv).unwrap();
        let (w, d) = value(tb, &child);
        let v = if child.side_to_move() == pos.side_to_move() {
            (w, d + 1)
        } else {
            (w.flip(), d + 1)
        };
        if best.is_none_or(|b| better(v, b)) {
            best = Some(v);
        }
    }
    best.unwrap()
}

/// Positions of `material` (the tables' stored representatives) at a
/// stride, not over.
fn sample(tb: &Tablebase, material: &str, stride: usize) -> Vec<FiveTigers> {
    tb.table(material.parse().unwrap())
        .unwrap()
        .entries()
        .step_by(stride)
        .map(|(p, _, _)| p)
        .filter(|p| p.outcome().is_none())
        .collect()
}

#[test]
fn the_search_with_tables_returns_the_tables_value_and_a_move_keeping_it() {
    let rules = Rules::shandong_shuttle();
    let (dir, tb) = tables("agree", &rules, &MATERIALS);
    let hooks = with_tables(&dir, &rules);
    let mut checked = [0usize; 3];
    let mut tbhits = 0;
    for material in MATERIALS {
        for pos in sample(&tb, material, 397) {
            let (wdl, distance) = tb.probe(&pos).unwrap().unwrap();
            // Four plies: a step forming a three-diagonal and its two
            // removals, after which every line is in a table again.
            let result = search(hooks.clone(), pos, Limits::depth(4));
            assert_eq!(
                result.score,
                score_of(wdl, distance),
                "{pos}: {wdl} in {distance}"
            );
            // A win by one forming step and its removals ends the game
            // with removals owed, where no table is read: counted overall.
            tbhits += result.tbhits;
            let mut child = pos;
            child.play(result.best_move.unwrap()).unwrap();
            let (cw, cd) = value(&tb, &child);
            let kept = if child.side_to_move() == pos.side_to_move() {
                cw
            } else {
                cw.flip()
            };
            assert_eq!(kept, wdl, "{pos}: the move keeps the value");
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
    assert!(tbhits > 0);
}

#[test]
fn under_the_shuttle_ban_too() {
    let rules = Rules::shandong();
    let (dir, tb) = tables("ban", &rules, &["2v1", "3v1"]);
    let hooks = with_tables(&dir, &rules);
    let mut checked = 0;
    for material in ["2v1", "3v1"] {
        // Stored states with a previous step are positions of play: the
        // search sees the same ban as the tables.
        for pos in sample(&tb, material, 211) {
            let (wdl, distance) = tb.probe(&pos).unwrap().unwrap();
            let result = search(hooks.clone(), pos, Limits::depth(4));
            assert_eq!(result.score, score_of(wdl, distance), "{pos}");
            checked += 1;
        }
    }
    assert!(checked > 50, "{checked}");
}

#[test]
fn tables_find_at_four_plies_what_the_search_alone_does_not() {
    let rules = Rules::shandong_shuttle();
    let (dir, tb) = tables("shallow", &rules, &["3v2"]);
    let (pos, distance) = tb
        .table("3v2".parse().unwrap())
        .unwrap()
        .entries()
        .filter(|(_, w, _)| *w == Wdl::Win)
        .map(|(p, _, d)| (p, d))
        .max_by_key(|&(_, d)| d)
        .unwrap();
    assert_eq!(distance, 49, "the longest win of 3v2");
    let with = search(with_tables(&dir, &rules), pos, Limits::depth(4));
    assert_eq!(with.score, Score::win_in(distance), "{pos}");
    let without = search(FiveTigersHooks::default(), pos, Limits::depth(8));
    assert!(!without.score.is_mate(), "{pos}: {}", without.score);
    assert_eq!(without.tbhits, 0);
}

#[test]
fn values_the_game_rules_could_change_are_not_taken() {
    let rules = Rules::shandong_shuttle();
    let (dir, tb) = tables("rules", &rules, &["3v2"]);
    let hooks = with_tables(&dir, &rules);
    let (pos, distance) = tb
        .table("3v2".parse().unwrap())
        .unwrap()
        .entries()
        .find(|(p, w, d)| *w == Wdl::Win && *d >= 9 && p.outcome().is_none())
        .map(|(p, _, d)| (p, d))
        .unwrap();
    // The position text with another quiet count (its last field).
    let text = pos.to_setup().to_string();
    let board = text.rsplit_once(' ').unwrap().0;
    let value = |quiet: u32, rules: &Rules| {
        let pos = FiveTigers::from_text_lenient(&format!("{board} {quiet}"), *rules).unwrap();
        hooks.table_value(&Game::new(pos))
    };
    assert_eq!(value(0, &rules), Some(TableValue::Win(distance)));
    // The quiet-move draw (100 plies) comes first: the win is not sure.
    let late = 100 - distance;
    assert_eq!(value(late, &rules), None);
    assert_eq!(value(late - 1, &rules), Some(TableValue::Win(distance)));
    // Without the quiet-move draw every win stands.
    let endless = Rules {
        no_capture_draw: 0,
        ..rules
    };
    assert_eq!(value(99, &endless), Some(TableValue::Win(distance)));
    // A draw stands whatever the count: the rules only add draws.
    let draw = tb
        .table("3v2".parse().unwrap())
        .unwrap()
        .entries()
        .find(|(_, w, _)| *w == Wdl::Draw)
        .map(|(p, _, _)| p)
        .unwrap();
    let text = draw.to_setup().to_string();
    let board_draw = text.rsplit_once(' ').unwrap().0;
    let game =
        Game::new(FiveTigers::from_text_lenient(&format!("{board_draw} 98"), rules).unwrap());
    assert_eq!(hooks.table_value(&game), Some(TableValue::Draw));
    // A position already seen in the game is the game's to judge: after
    // two cycles of four steps (both sides stepping out and back; the
    // previous steps count, so the first cycle's end is the second's),
    // none. The first drawn position where the first steps form nothing.
    let mut repeated = None;
    for (start, _, _) in tb
        .table("3v2".parse().unwrap())
        .unwrap()
        .entries()
        .filter(|(_, w, _)| *w == Wdl::Draw)
        .take(200)
    {
        let mut game = Game::new(start);
        let mut out = Vec::new();
        for _ in 0..2 {
            let Some(&mv) = game.legal_moves().first() else {
                break;
            };
            if game.play(mv).is_err() {
                break;
            }
            out.push(mv);
        }
        let back: Vec<Move> = out
            .iter()
            .filter_map(|mv| match *mv {
                Move::Step { from, to } => Some(Move::Step { from: to, to: from }),
                _ => None,
            })
            .collect();
        let cycle: Vec<Move> = out.iter().chain(&back).copied().collect();
        if cycle.len() != 4 || !game.position().owed().is_empty() {
            continue;
        }
        let mut game = Game::new(start);
        if cycle.iter().chain(&cycle).all(|&mv| game.play(mv).is_ok()) && game.occurrences() == 2 {
            repeated = Some(game);
            break;
        }
    }
    let repeated = repeated.expect("a drawn position with a cycle");
    assert_eq!(hooks.table_value(&repeated), None);
    // Outside the tables: the placement phase.
    assert_eq!(hooks.table_value(&Game::new(FiveTigers::new(rules))), None);
    // The search from the late position does not score the table's win.
    let late_pos = FiveTigers::from_text_lenient(&format!("{board} 99"), rules).unwrap();
    let result = search(hooks.clone(), late_pos, Limits::depth(3));
    assert_ne!(result.score, Score::win_in(distance));
}

#[test]
fn the_library_engine_takes_a_table_directory() {
    let rules = Rules::shandong_shuttle();
    let (dir, tb) = tables("dyn", &rules, &["3v2"]);
    let (pos, score) = tb
        .table("3v2".parse().unwrap())
        .unwrap()
        .entries()
        // A position the strict reader takes: with no previous step, O
        // (who steps first) is to move.
        .find(|(p, w, d)| {
            *w != Wdl::Draw
                && *d >= 15
                && p.outcome().is_none()
                && FiveTigers::from_text(&p.to_string(), rules).is_ok()
        })
        .map(|(p, w, d)| (p, score_of(w, d)))
        .unwrap();
    let mut engine = engine_for::<Games>(
        "five-tigers:shandong-shuttle",
        EvalProfile::Default,
        &Overrides::default(),
    )
    .unwrap();
    engine.set_position(Some(&pos.to_string()), &[]).unwrap();
    engine.set_tablebase(Some(&dir.0)).unwrap();
    let best = engine.best_move(Limits::depth(4)).unwrap();
    assert_eq!(best.score, score, "{pos}");
    engine.set_tablebase(None).unwrap();
    engine.new_game();
    engine.set_position(Some(&pos.to_string()), &[]).unwrap();
    let best = engine.best_move(Limits::depth(4)).unwrap();
    assert_ne!(best.score, score);
    assert!(engine.set_tablebase(Some(&dir.0.join("missing"))).is_err());
    assert!(FiveTigersKit::hooks(EvalProfile::Default)
        .tablebase()
        .is_none());
}

/// The figure of docs/tablebases.md ("Five Tigers endings"): 3v2 positions
/// of `shandong-shuttle` won in 9 plies or more, searched at a fixed node
/// count with and without the tables; how many get the table's exact
/// score, and how many play a move that keeps the shortest win. Run with
/// `cargo test --release -p qi-engine --test suite five_tigers_tablebase_search
/// -- --ignored --nocapture`.
#[test]
#[ignore = "a measurement (seconds in release), not a check"]
fn measure_the_gain_at_a_fixed_node_count() {
    let rules = Rules::shandong_shuttle();
    let (dir, tb) = tables("measure", &rules, &["3v2"]);
    let wins: Vec<(FiveTigers, u32)> = tb
        .table("3v2".parse().unwrap())
        .unwrap()
        .entries()
        .filter(|(p, w, d)| *w == Wdl::Win && *d >= 9 && p.outcome().is_none())
        .map(|(p, _, d)| (p, d))
        .collect();
    let stride = (wins.len() / 200).max(1);
    let suite: Vec<(FiveTigers, u32)> = wins.into_iter().step_by(stride).take(200).collect();
    for nodes in [2_000, 20_000] {
        for tables_on in [false, true] {
            let hooks = if tables_on {
                with_tables(&dir, &rules)
            } else {
                FiveTigersHooks::default()
            };
            let (mut exact, mut keeps) = (0, 0);
            for &(pos, distance) in &suite {
                let result = search(hooks.clone(), pos, Limits::nodes(nodes));
                exact += usize::from(result.score == Score::win_in(distance));
                let mut child = pos;
                child.play(result.best_move.unwrap()).unwrap();
                let (cw, cd) = value(&tb, &child);
                let kept = if child.side_to_move() == pos.side_to_move() {
                    cw
                } else {
                    cw.flip()
                };
                keeps += usize::from(kept == Wdl::Win && cd + 1 == distance);
            }
            println!(
                "nodes {nodes} tables {tables_on}: {} positions, exact score {exact}, \
                 shortest-win move {keeps}",
                suite.len()
            );
        }
    }
}

/// The root move from the tables (`qi_engine::root_table_move`) follows
/// the game's history: a position seen before is the search's (a cycle
/// may draw it by repetition), a new one the tables', which give their
/// fastest win.
#[test]
fn the_root_move_from_the_tables_follows_the_game_history() {
    let rules = Rules::shandong_shuttle();
    let (dir, tb) = tables("root-repetition", &rules, &["3v2"]);
    let hooks = with_tables(&dir, &rules);
    // A won position and a cycle of four steps from it (each side out and
    // back): after one cycle the position is new (the previous steps
    // count), after two it is there for the second time.
    let found = tb
        .table("3v2".parse().unwrap())
        .unwrap()
        .entries()
        .filter(|(p, w, _)| *w == Wdl::Win && p.outcome().is_none())
        .find_map(|(start, _, _)| {
            let mut game = Game::new(start);
            let mut out = Vec::new();
            for _ in 0..2 {
                let &mv = game.legal_moves().first()?;
                game.play(mv).ok()?;
                out.push(mv);
            }
            let back = out.iter().filter_map(|mv| match *mv {
                Move::Step { from, to } => Some(Move::Step { from: to, to: from }),
                _ => None,
            });
            let cycle: Vec<Move> = out.iter().copied().chain(back).collect();
            let mut once = Game::new(start);
            for &mv in &cycle {
                once.play(mv).ok()?;
            }
            let mut twice = once.clone();
            for &mv in &cycle {
                twice.play(mv).ok()?;
            }
            let usable = |g: &Game| g.outcome().is_none() && g.position().owed().is_empty();
            (cycle.len() == 4
                && usable(&once)
                && usable(&twice)
                && once.occurrences() == 1
                && twice.occurrences() == 2
                && hooks.table_value(&once).is_some())
            .then_some((once, twice))
        });
    let (once, twice) = found.expect("a won position with a cycle");
    let chosen = qi_engine::root_table_move(&once, &hooks).expect("a new position");
    let (wdl, distance) = tb.probe(once.position()).unwrap().unwrap();
    assert_eq!(wdl, Wdl::Win);
    assert_eq!(chosen.value, TableValue::Win(distance), "{chosen:?}");
    assert_eq!(qi_engine::root_table_move(&twice, &hooks), None);
}

/// Tables read ahead by a thread (`with_tablebase_read_ahead`, what
/// `FiveTigersKit::attach_tablebase` does when a file is big): every file
/// is read without a probe, and once they are in the hooks give exactly
/// the values of tables read on demand.
#[test]
fn tables_read_ahead_give_the_values_of_tables_read_on_demand() {
    let rules = Rules::shandong_shuttle();
    let (dir, tb) = tables("read-ahead", &rules, &MATERIALS);
    let lazy = Arc::new(LazyTablebase::open(&dir.0, &rules).unwrap());
    let ahead = FiveTigersHooks::default().with_tablebase_read_ahead(Some(Arc::clone(&lazy)));
    let start = std::time::Instant::now();
    while !ahead.tables_ready() {
        assert!(start.elapsed().as_secs() < 60, "the tables are read");
        std::thread::sleep(std::time::Duration::from_millis(2));
    }
    assert_eq!(lazy.loaded(), MATERIALS.len());
    let on_demand = with_tables(&dir, &rules);
    assert!(on_demand.tables_ready());
    let mut answered = 0;
    for material in MATERIALS {
        for pos in sample(&tb, material, 97) {
            let game = Game::new(pos);
            let value = ahead.table_value(&game);
            assert_eq!(value, on_demand.table_value(&game), "{pos}");
            answered += usize::from(value.is_some());
        }
    }
    assert!(answered > 100, "{answered}");
    // No tables: nothing to read, nothing probed.
    let none = FiveTigersHooks::default().with_tablebase_read_ahead(None);
    assert!(none.tablebase().is_none() && none.tables_ready());
}
