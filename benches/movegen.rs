//! Benchmarks for both games: move generation, move counting, copy-make,
//! perft, the evaluation and a fixed-depth search.
//!
//! Run with `cargo bench` (or `cargo bench --bench movegen -- jungle/perft`
//! for one group). Mid-game positions are reached by seeded random playouts
//! from the start, so they are the same in every run (their text is printed
//! once at the start of the run). See docs/PERFORMANCE.md for the figures.

use std::hint::black_box;
use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};

use criterion::{criterion_group, criterion_main, Criterion};
use qi_games::base::testkit::{random_playout, Rng};
use qi_games::base::{Evaluator, Game, MoveList, Position};
use qi_games::engine::{EvalProfile, GameFn, GameKit, Games, Registry, RulesOf};
use qi_games::search::{perft, Limits, SearchHooks, Searcher};

/// Per game: the plies of the three mid-game samples and the perft depths
/// (a game's opening lasts longer in Jungle than in Five Tigers). Games not
/// listed get the last row.
const SAMPLES: [(&str, [usize; 3], &[u32]); 2] = [
    ("five-tigers", [8, 24, 40], &[5, 6]),
    ("jungle", [12, 30, 60], &[5]),
];

/// The start and three mid-game positions of a game.
fn positions<P: Position>(start: P, plies: [usize; 3]) -> Vec<(String, P)> {
    let mut out = vec![("start".to_string(), start.clone())];
    for (i, n) in plies.into_iter().enumerate() {
        let pos = random_playout(&start, n, &mut Rng::new(11 + i as u64));
        eprintln!("mid{} ({n} plies): {pos}", i + 1);
        out.push((format!("mid{}", i + 1), pos));
    }
    out
}

fn bench_game<P: Position, E: Evaluator<P>>(
    c: &mut Criterion,
    game: &str,
    start: P,
    plies: [usize; 3],
    eval: &E,
) {
    for (name, pos) in positions(start, plies) {
        c.bench_function(&format!("{game}/evaluate/{name}"), |b| {
            b.iter(|| eval.evaluate(black_box(&pos)))
        });
        c.bench_function(&format!("{game}/generate/{name}"), |b| {
            b.iter(|| {
                let mut moves = MoveList::new();
                black_box(&pos).generate_moves(&mut moves);
                moves.len()
            })
        });
        c.bench_function(&format!("{game}/count/{name}"), |b| {
            b.iter(|| black_box(&pos).count_moves())
        });
        let moves = pos.legal_moves();
        c.bench_function(&format!("{game}/copy_make_all/{name}"), |b| {
            b.iter(|| {
                let mut hash = 0u64;
                for &mv in &moves {
                    let mut child = black_box(&pos).clone();
                    child.play_unchecked(mv);
                    hash ^= child.zobrist();
                }
                hash
            })
        });
    }
}

/// Searches `game` to depth 8 from a cleared searcher (the clearing is not
/// timed), `sample_size` 10.
fn bench_search<K: GameKit>(c: &mut Criterion, game: K::Game, eval: &K::Eval) {
    let hooks = K::hooks(EvalProfile::Default);
    let mut searcher = Searcher::with_hooks(hooks.tuned_options(), hooks);
    let stop = AtomicBool::new(false);
    let mut group = c.benchmark_group(format!("{}/search", K::NAME));
    group.sample_size(10);
    group.measurement_time(Duration::from_secs(8));
    group.bench_function("depth8", |b| {
        b.iter_custom(|iters| {
            let mut total = Duration::ZERO;
            for _ in 0..iters {
                searcher.clear();
                let mut game = game.clone();
                let t = Instant::now();
                let result = searcher.search(&mut game, eval, Limits::depth(8), &stop, |_| {});
                total += t.elapsed();
                black_box(result.best_move);
            }
            total
        })
    });
    group.finish();
}

/// Every benchmark of one game, from its default rules.
struct BenchGame<'a>(&'a mut Criterion);

impl GameFn for BenchGame<'_> {
    type Output = ();

    fn call<K: GameKit>(self, rules: RulesOf<K>) {
        let c = self.0;
        let (_, plies, depths) = SAMPLES
            .iter()
            .find(|(name, _, _)| *name == K::NAME)
            .unwrap_or(&SAMPLES[SAMPLES.len() - 1]);
        let eval = K::eval(EvalProfile::Default);
        let start = K::Position::new(rules);
        bench_game(c, K::NAME, start.clone(), *plies, &eval);
        let mut group = c.benchmark_group(format!("{}/perft", K::NAME));
        group.sample_size(10);
        for &depth in *depths {
            group.bench_function(format!("{depth}"), |b| {
                b.iter(|| perft(black_box(&start), depth))
            });
        }
        group.finish();
        bench_search::<K>(c, K::Game::new(start), &eval);
    }
}

/// Every registered game.
fn games(c: &mut Criterion) {
    for game in Games::games() {
        Games::dispatch(game.name, BenchGame(c)).expect("a registered game");
    }
}

/// Short warm-up and measurement times keep the whole run to a few minutes.
fn config() -> Criterion {
    Criterion::default()
        .warm_up_time(Duration::from_millis(500))
        .measurement_time(Duration::from_secs(2))
}

criterion_group! {
    name = benches;
    config = config();
    targets = games
}
criterion_main!(benches);
