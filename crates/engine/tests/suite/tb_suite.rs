//! The endgame suite of docs/tablebases.md: positions of 3 animals that the
//! side to move wins (`tests/data/tb-endgames.txt`), played out by the
//! engine's search against a defender that plays the tables perfectly (the
//! longest loss). A position scores when every move of the engine keeps the
//! shortest win (the table distance falls by exactly one ply) and so the
//! game ends in the table's distance.
//!
//! `a_small_suite_is_won_in_the_shortest_way_with_tables` runs the first
//! positions with tables built here; the whole suite, with and without
//! tables, is an ignored test over a directory of `qi tb generate`:
//!
//! ```text
//! QI_TB_DIR=/tmp/tb-standard QI_TB_NODES=1000,10000,100000 \
//!   cargo test --release -p qi-engine --test suite tb_suite -- --ignored --nocapture
//! ```
//!
//! `QI_TB_PROFILES=default,hybrid` plays the suite with each evaluation
//! profile in turn (default: `default`, the hand-written evaluation).

use std::path::{Path, PathBuf};
use std::sync::atomic::AtomicBool;
use std::sync::Arc;

use qi_core::Position;
use qi_engine::jungle::{JungleEval, JungleHooks};
use qi_engine::{EvalProfile, GameKit, JungleKit};
use qi_jungle::{Game, Jungle, Move, Rules};
use qi_search::{Limits, Searcher};
use qi_tablebase::jungle::{LazyTablebase, Material, Tablebase};
use qi_tablebase::Wdl;

const SUITE: &str = include_str!("../data/tb-endgames.txt");

/// The suite's positions (under `standard`).
fn suite() -> Vec<Jungle> {
    SUITE
        .lines()
        .map(|l| l.split('#').next().unwrap().trim())
        .filter(|l| !l.is_empty())
        .map(|l| Jungle::from_text(l, Rules::standard()).unwrap())
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

/// The defender's move: the one whose value for the winner is worst for
/// it (a loss, else a draw, else the longest win).
fn defend(referee: &LazyTablebase, game: &Game) -> Move {
    let pos = *game.position();
    let key = |mv: &Move| {
        let mut child = pos;
        child.play(*mv).unwrap();
        match referee
            .probe(&child)
            .unwrap()
            .expect("a table for every child")
        {
            (Wdl::Loss, _) => (2, 0),
            (Wdl::Draw, _) => (1, 0),
            (Wdl::Win, d) => (0, d),
        }
    };
    game.legal_moves().into_iter().max_by_key(key).unwrap()
}

/// Plays `start` out: the engine's search (with `eval` and `hooks`,
/// `limits` a move) for the side to move against the tables' defence.
fn play_out(
    referee: &LazyTablebase,
    start: Jungle,
    eval: &JungleEval,
    hooks: JungleHooks,
    limits: Limits,
) -> Played {
    let (wdl, distance) = referee.probe(&start).unwrap().unwrap();
    assert_eq!(wdl, Wdl::Win, "{start}");
    let winner = start.side_to_move();
    let mut game = Game::new(start);
    let mut searcher = Searcher::with_hooks(JungleKit::tuned_options(), hooks);
    let never = AtomicBool::new(false);
    let mut played = Played {
        distance,
        shortest: true,
        won_in: None,
    };
    let mut plies = 0;
    while game.outcome().is_none() && plies < 400 {
        let ours = game.position().side_to_move() == winner;
        let mv = if ours {
            let before = referee.probe(game.position()).unwrap().unwrap();
            let mv = searcher
                .search(&mut game, eval, limits, &never, |_| {})
                .best_move
                .unwrap();
            let mut child = *game.position();
            child.play(mv).unwrap();
            let after = referee.probe(&child).unwrap().unwrap();
            if before.0 != Wdl::Win || after != (Wdl::Loss, before.1 - 1) {
                played.shortest = false;
            }
            mv
        } else {
            defend(referee, &game)
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

fn lazy(dir: &Path) -> Arc<LazyTablebase> {
    Arc::new(LazyTablebase::open(dir, &Rules::standard()).unwrap())
}

fn run(
    dir: &Path,
    positions: &[Jungle],
    profile: EvalProfile,
    limits: Limits,
    tables: bool,
) -> Vec<Played> {
    let referee = lazy(dir);
    let eval = JungleKit::eval(profile);
    let hooks = JungleKit::hooks(profile).with_tablebase(tables.then(|| lazy(dir)));
    positions
        .iter()
        .map(|&p| play_out(&referee, p, &eval, hooks.clone(), limits))
        .collect()
}

#[test]
fn a_small_suite_is_won_in_the_shortest_way_with_tables() {
    let positions: Vec<Jungle> = suite().into_iter().take(3).collect();
    let materials: Vec<Material> = positions.iter().map(|p| Material::of(p).unwrap()).collect();
    let dir = std::env::temp_dir().join(format!("qi-tb-suite-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    Tablebase::generate(&Rules::standard(), &materials, 2)
        .unwrap()
        .save_dir(&dir)
        .unwrap();
    let limits = Limits::nodes(2_000);
    let with = run(&dir, &positions, EvalProfile::Default, limits, true);
    let without = run(&dir, &positions, EvalProfile::Default, limits, false);
    std::fs::remove_dir_all(&dir).unwrap();
    assert!(
        with.iter()
            .all(|p| p.shortest && p.won_in == Some(p.distance)),
        "{with:?}"
    );
    assert!(score(&without).0 <= score(&with).0, "{without:?}");
}

/// The whole suite over the tables of `QI_TB_DIR`, at each node budget of
/// `QI_TB_NODES` (comma-separated, default 10000) and with each profile
/// of `QI_TB_PROFILES` (comma-separated, default `default`), with and
/// without tables in the tree.
#[test]
#[ignore = "needs every table up to 3 animals: QI_TB_DIR=DIR (qi tb generate DIR)"]
fn full_suite() {
    let dir = PathBuf::from(std::env::var("QI_TB_DIR").expect("QI_TB_DIR names the tables"));
    let budgets: Vec<u64> = std::env::var("QI_TB_NODES")
        .unwrap_or_else(|_| "10000".to_string())
        .split(',')
        .map(|n| n.trim().parse().expect("QI_TB_NODES: node counts"))
        .collect();
    let profiles: Vec<EvalProfile> = std::env::var("QI_TB_PROFILES")
        .unwrap_or_else(|_| "default".to_string())
        .split(',')
        .map(|p| p.trim().parse().expect("QI_TB_PROFILES: profile names"))
        .collect();
    let positions = suite();
    for (profile, nodes) in profiles
        .iter()
        .flat_map(|&p| budgets.iter().map(move |&n| (p, n)))
    {
        let limits = Limits::nodes(nodes);
        for tables in [true, false] {
            let start = std::time::Instant::now();
            let played = run(&dir, &positions, profile, limits, tables);
            let (shortest, won) = score(&played);
            println!(
                "profile {} nodes {nodes} tables {}: {shortest}/{} shortest wins, {won}/{} won ({:.1} s)",
                profile.name(),
                if tables { "on " } else { "off" },
                positions.len(),
                positions.len(),
                start.elapsed().as_secs_f64()
            );
            if tables {
                assert_eq!(shortest, positions.len(), "{played:?}");
            }
        }
    }
}
