//! The Five Tigers endgame suites of docs/tablebases.md: movement
//! positions that the side to move wins by the tables
//! (`tests/data/ft-tb-endgames-shuttle.txt`: 4 and 5 pieces a side under
//! `shandong-shuttle`; `tests/data/ft-tb-endgames-shandong.txt`: 3 a side
//! under `shandong`, the shuttle forbidden;
//! `tests/data/ft-tb-endgames-shandong-5.txt`: 4 and 5 pieces a side under
//! `shandong`), played out by the engine's
//! search (a fixed number of nodes a move, no root probing) against a
//! defender that plays the tables perfectly (the longest loss). A position
//! scores when every move of the engine keeps the shortest win (the table
//! distance falls by exactly one ply, removals included) and so the game
//! ends in the table's distance.
//!
//! `small_suites_are_won_in_the_shortest_way_with_tables` plays a few
//! positions of tables built here; the whole suites, with and without
//! tables, are an ignored test over directories of `qi tb generate`:
//!
//! ```text
//! QI_FT_TB_DIR=/tmp/ft-tb-shuttle QI_FT_TB_SHANDONG_DIR=/tmp/ft-tb-shandong \
//!   QI_FT_TB_NODES=1000,10000,100000 \
//!   cargo test --release -p qi-engine --test suite ft_tb_suite -- --ignored --nocapture
//! ```

use std::path::{Path, PathBuf};
use std::sync::atomic::AtomicBool;
use std::sync::Arc;

use qi_core::{Position, Side};
use qi_engine::five_tigers::{FiveTigersEval, FiveTigersHooks};
use qi_engine::{FiveTigersKit, GameKit};
use qi_five_tigers::{FiveTigers, Game, Move, Rules};
use qi_search::{Limits, Searcher};
use qi_tablebase::five_tigers::{LazyTablebase, Material, Tablebase};
use qi_tablebase::Wdl;

const SHUTTLE: &str = include_str!("../data/ft-tb-endgames-shuttle.txt");
const SHANDONG: &str = include_str!("../data/ft-tb-endgames-shandong.txt");
const SHANDONG_5: &str = include_str!("../data/ft-tb-endgames-shandong-5.txt");

/// A suite's positions under `rules`.
fn suite(text: &str, rules: &Rules) -> Vec<FiveTigers> {
    text.lines()
        .map(|l| l.split('#').next().unwrap().trim())
        .filter(|l| !l.is_empty())
        .map(|l| FiveTigers::from_text_lenient(l, *rules).unwrap())
        .collect()
}

/// How one position was played out.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Played {
    /// The table distance at the start.
    distance: u32,
    /// Every move of the engine kept the shortest win.
    shortest: bool,
    /// The plies to the engine's win, if it won.
    won_in: Option<u32>,
}

/// The exact value of `pos` for `side`: the tables' (through the removals
/// owed, which the files do not store), or the game's end.
fn value_for(tables: &LazyTablebase, pos: &FiveTigers, side: Side) -> (Wdl, u32) {
    if let Some(outcome) = pos.outcome() {
        return match outcome.winner() {
            Some(w) if w == side => (Wdl::Win, 0),
            Some(_) => (Wdl::Loss, 0),
            None => (Wdl::Draw, 0),
        };
    }
    let (wdl, d) = tables
        .probe_through_removals(pos)
        .unwrap()
        .unwrap_or_else(|| panic!("{pos}: a table for every position of the play"));
    if pos.side_to_move() == side {
        (wdl, d)
    } else {
        (wdl.flip(), d)
    }
}

/// The defender's move: the one whose value for the winner is worst for
/// it (a loss, else a draw, else the longest win).
fn defend(tables: &LazyTablebase, game: &Game, winner: Side) -> Move {
    let pos = *game.position();
    let key = |mv: &Move| {
        let mut child = pos;
        child.play(*mv).unwrap();
        match value_for(tables, &child, winner) {
            (Wdl::Loss, _) => (2, 0),
            (Wdl::Draw, _) => (1, 0),
            (Wdl::Win, d) => (0, d),
        }
    };
    game.legal_moves().into_iter().max_by_key(key).unwrap()
}

/// Plays `start` out: the engine's search (with `hooks`, `limits` a move)
/// for the side to move against the tables' defence, `referee`.
fn play_out(
    referee: &LazyTablebase,
    start: FiveTigers,
    hooks: FiveTigersHooks,
    limits: Limits,
) -> Played {
    let winner = start.side_to_move();
    let (wdl, distance) = value_for(referee, &start, winner);
    assert_eq!(wdl, Wdl::Win, "{start}");
    let mut game = Game::new(start);
    let mut searcher = Searcher::with_hooks(FiveTigersKit::tuned_options(), hooks);
    let eval = FiveTigersEval::default();
    let never = AtomicBool::new(false);
    let mut played = Played {
        distance,
        shortest: true,
        won_in: None,
    };
    let mut plies = 0;
    while game.outcome().is_none() && plies < 400 {
        let pos = *game.position();
        let mv = if pos.side_to_move() == winner {
            let before = value_for(referee, &pos, winner);
            let mv = searcher
                .search(&mut game, &eval, limits, &never, |_| {})
                .best_move
                .unwrap();
            let mut child = pos;
            child.play(mv).unwrap();
            let after = value_for(referee, &child, winner);
            if before.0 != Wdl::Win || after != (Wdl::Win, before.1 - 1) {
                played.shortest = false;
            }
            mv
        } else {
            defend(referee, &game, winner)
        };
        game.play(mv).unwrap();
        plies += 1;
    }
    if game.outcome().and_then(|o| o.winner()) == Some(winner) {
        played.won_in = Some(plies);
    }
    played
}

/// The suite's score: positions won in the shortest way, positions won.
fn score(played: &[Played]) -> (usize, usize) {
    let shortest = played
        .iter()
        .filter(|p| p.shortest && p.won_in == Some(p.distance))
        .count();
    let won = played.iter().filter(|p| p.won_in.is_some()).count();
    (shortest, won)
}

/// Plays every position, with the tables in the tree or not. One set of
/// tables serves as referee and in the tree: the big files are read once.
fn run(
    tables: &Arc<LazyTablebase>,
    positions: &[FiveTigers],
    limits: Limits,
    in_tree: bool,
) -> Vec<Played> {
    let hooks = FiveTigersHooks::default().with_tablebase(in_tree.then(|| Arc::clone(tables)));
    positions
        .iter()
        .map(|&p| play_out(tables, p, hooks.clone(), limits))
        .collect()
}

/// A directory of its own under the system's temporary directory, removed
/// when dropped.
struct TempDir(PathBuf);

impl Drop for TempDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// The tables of `materials` (and what their removals lead to) under
/// `rules`, in a directory of their own.
fn small_tables(name: &str, rules: &Rules, materials: &[&str]) -> (TempDir, Tablebase) {
    let dir =
        TempDir(std::env::temp_dir().join(format!("qi-ft-tb-suite-{name}-{}", std::process::id())));
    let _ = std::fs::remove_dir_all(&dir.0);
    let materials: Vec<Material> = materials.iter().map(|m| m.parse().unwrap()).collect();
    let tb = Tablebase::generate(rules, &materials, 2).unwrap();
    tb.save_dir(&dir.0).unwrap();
    (dir, tb)
}

/// `n` won positions of `material` with nothing owed, the longest wins
/// first, each at least `shortest` plies.
fn longest_wins(tb: &Tablebase, material: &str, n: usize, shortest: u32) -> Vec<FiveTigers> {
    let mut wins: Vec<(FiveTigers, u32)> = tb
        .table(material.parse().unwrap())
        .unwrap()
        .entries()
        .filter(|(p, w, d)| *w == Wdl::Win && *d >= shortest && p.outcome().is_none())
        .map(|(p, _, d)| (p, d))
        .collect();
    wins.sort_by_key(|&(_, d)| std::cmp::Reverse(d));
    // Spread over the distances, not only the very longest.
    let stride = (wins.len() / n).max(1);
    wins.into_iter()
        .step_by(stride)
        .take(n)
        .map(|(p, _)| p)
        .collect()
}

/// Plays `positions` with the tables of `dir` and without: with them every
/// one is won in the shortest way, and the search alone keeps fewer.
fn check(dir: &Path, rules: &Rules, positions: &[FiveTigers], limits: Limits) {
    let tables = Arc::new(LazyTablebase::open(dir, rules).unwrap());
    let with = run(&tables, positions, limits, true);
    let without = run(&tables, positions, limits, false);
    assert!(
        with.iter()
            .all(|p| p.shortest && p.won_in == Some(p.distance)),
        "{with:?}"
    );
    assert!(
        score(&without).0 < score(&with).0,
        "the search alone keeps as many: {without:?}"
    );
}

#[test]
fn small_suites_are_won_in_the_shortest_way_with_tables() {
    // Four pieces against two, shuttle allowed (the retrograde generator):
    // won in 15 to 23 plies.
    let rules = Rules::shandong_shuttle();
    let (dir, tb) = small_tables("shuttle", &rules, &["4v2", "2v4"]);
    let mut positions = longest_wins(&tb, "4v2", 2, 15);
    positions.extend(longest_wins(&tb, "2v4", 1, 15));
    check(&dir.0, &rules, &positions, Limits::nodes(1_500));
    // The shuttle forbidden (the graph generator, previous steps in the
    // states): three against one.
    let rules = Rules::shandong();
    let (dir, tb) = small_tables("shandong", &rules, &["3v1"]);
    let positions = longest_wins(&tb, "3v1", 2, 13);
    check(&dir.0, &rules, &positions, Limits::nodes(1_500));
}

#[test]
fn the_suites_are_won_positions_of_their_materials() {
    let shuttle = suite(SHUTTLE, &Rules::shandong_shuttle());
    assert!(shuttle.len() >= 20, "{}", shuttle.len());
    for pos in &shuttle {
        let m = Material::of(pos).unwrap();
        assert!(m.first >= 4 && m.second >= 4, "{pos}");
        assert!(pos.owed().is_empty() && pos.outcome().is_none(), "{pos}");
    }
    let shandong = suite(SHANDONG, &Rules::shandong());
    assert!(shandong.len() >= 12, "{}", shandong.len());
    for pos in &shandong {
        let m = Material::of(pos).unwrap();
        assert!(
            m.first.max(m.second) == 3 && m.first.min(m.second) >= 2,
            "{pos}"
        );
    }
    let shandong_5 = suite(SHANDONG_5, &Rules::shandong());
    assert!(shandong_5.len() >= 20, "{}", shandong_5.len());
    let mut with_bans = 0;
    for pos in &shandong_5 {
        let m = Material::of(pos).unwrap();
        assert!(
            m.first.max(m.second) >= 4 && m.first.min(m.second) >= 3,
            "{pos}"
        );
        assert!(pos.owed().is_empty() && pos.outcome().is_none(), "{pos}");
        // Previous steps as a game leaves them: the ban applies.
        with_bans += usize::from(!pos.to_string().contains(" -,- "));
    }
    assert!(with_bans * 2 > shandong_5.len(), "{with_bans}");
}

/// The budgets of `QI_FT_TB_NODES` (comma-separated, default 10000).
fn budgets() -> Vec<u64> {
    std::env::var("QI_FT_TB_NODES")
        .unwrap_or_else(|_| "10000".to_string())
        .split(',')
        .map(|n| n.trim().parse().expect("QI_FT_TB_NODES: node counts"))
        .collect()
}

fn full(name: &str, dir: &Path, rules: &Rules, positions: &[FiveTigers]) {
    let tables = Arc::new(LazyTablebase::open(dir, rules).unwrap());
    for nodes in budgets() {
        let limits = Limits::nodes(nodes);
        for in_tree in [true, false] {
            let start = std::time::Instant::now();
            let played = run(&tables, positions, limits, in_tree);
            let (shortest, won) = score(&played);
            println!(
                "{name}: nodes {nodes} tables {}: {shortest}/{} shortest wins, {won}/{} won ({:.1} s)",
                if in_tree { "on " } else { "off" },
                positions.len(),
                positions.len(),
                start.elapsed().as_secs_f64()
            );
            if in_tree {
                assert_eq!(won, positions.len(), "{played:?}");
            }
        }
    }
}

/// The whole suites over the tables of `QI_FT_TB_DIR` (`shandong-shuttle`
/// to 5 a side) and of `QI_FT_TB_SHANDONG_DIR` (`shandong`: 3 a side, and
/// 4 and 5 a side where the tables go that far), each where its variable
/// is set, at each node budget of `QI_FT_TB_NODES`, with and without
/// tables in the tree.
#[test]
#[ignore = "needs the tables: QI_FT_TB_DIR=DIR and/or QI_FT_TB_SHANDONG_DIR=DIR (qi tb generate --game five-tigers:PRESET --pieces 5 DIR)"]
fn full_suites() {
    let shuttle = std::env::var("QI_FT_TB_DIR").ok();
    let shandong = std::env::var("QI_FT_TB_SHANDONG_DIR").ok();
    assert!(
        shuttle.is_some() || shandong.is_some(),
        "QI_FT_TB_DIR or QI_FT_TB_SHANDONG_DIR names the tables"
    );
    if let Some(dir) = shuttle {
        let rules = Rules::shandong_shuttle();
        full(
            "shandong-shuttle",
            Path::new(&dir),
            &rules,
            &suite(SHUTTLE, &rules),
        );
    }
    if let Some(dir) = shandong {
        let rules = Rules::shandong();
        full(
            "shandong",
            Path::new(&dir),
            &rules,
            &suite(SHANDONG, &rules),
        );
        let big = suite(SHANDONG_5, &rules);
        // Those of the suite's materials whose tables are in the directory.
        let tables = LazyTablebase::open(Path::new(&dir), &rules).unwrap();
        let present: Vec<FiveTigers> = big
            .into_iter()
            .filter(|p| matches!(tables.probe(p), Ok(Some(_))))
            .collect();
        full("shandong, 4-5 a side", Path::new(&dir), &rules, &present);
    }
}
