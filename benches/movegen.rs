//! Move generation, copy-make and perft benchmarks for both games.
//!
//! Run with `cargo bench --bench movegen`. Mid-game positions are reached by
//! seeded random playouts from the start, so they are the same in every run
//! (their text is printed once at the start of the run).

use std::hint::black_box;

use criterion::{criterion_group, criterion_main, Criterion};
use qi::core::conformance::Rng;
use qi::core::{MoveList, Position};
use qi::five_tigers::FiveTigers;
use qi::jungle::Jungle;
use qi::search::perft;

/// The position `plies` random moves after `start` (seeded).
fn playout<P: Position>(start: &P, plies: usize, seed: u64) -> P {
    let mut rng = Rng::new(seed);
    let mut pos = start.clone();
    for _ in 0..plies {
        let moves = pos.legal_moves();
        if moves.is_empty() {
            break;
        }
        pos.play_unchecked(moves[rng.below(moves.len())]);
    }
    pos
}

/// The start and three mid-game positions of a game.
fn positions<P: Position>(start: P, plies: [usize; 3]) -> Vec<(String, P)> {
    let mut out = vec![("start".to_string(), start.clone())];
    for (i, n) in plies.into_iter().enumerate() {
        let pos = playout(&start, n, 11 + i as u64);
        eprintln!("mid{} ({n} plies): {pos}", i + 1);
        out.push((format!("mid{}", i + 1), pos));
    }
    out
}

fn bench_game<P: Position>(c: &mut Criterion, game: &str, start: P, plies: [usize; 3]) {
    for (name, pos) in positions(start, plies) {
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

fn jungle(c: &mut Criterion) {
    bench_game(c, "jungle", Jungle::default(), [12, 30, 60]);
    let start = Jungle::default();
    let mut group = c.benchmark_group("jungle/perft");
    group.sample_size(10);
    group.bench_function("5", |b| b.iter(|| perft(black_box(&start), 5)));
    group.finish();
}

fn five_tigers(c: &mut Criterion) {
    bench_game(c, "five-tigers", FiveTigers::default(), [8, 24, 40]);
    let start = FiveTigers::default();
    let mut group = c.benchmark_group("five-tigers/perft");
    group.sample_size(10);
    for depth in [5, 6] {
        group.bench_function(format!("{depth}"), |b| {
            b.iter(|| perft(black_box(&start), depth))
        });
    }
    group.finish();
}

criterion_group!(benches, jungle, five_tigers);
criterion_main!(benches);
