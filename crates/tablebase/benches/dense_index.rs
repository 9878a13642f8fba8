//! The slot of a position in the dense index of the Five Tigers tables
//! (`five_tigers::Dense::slot`): what the retrograde generator computes
//! for every step of its initial pass and every un-step of its
//! propagation, and most of its time (docs/tablebases.md).
//!
//! Run with `cargo bench -p qi-tablebase --bench dense_index`. The boards
//! are drawn by a fixed generator, so every run times the same ones.

use std::hint::black_box;

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use qi_core::Side;
use qi_tablebase::five_tigers::{Dense, Material};

/// Boards per batch.
const BOARDS: usize = 4096;

/// `k` distinct points of `0..25` not in `taken`, from the generator `s`.
fn draw(s: &mut u64, k: u32, taken: u32) -> u32 {
    let mut set = 0u32;
    while set.count_ones() < k {
        // SplitMix64: the boards depend on nothing but the seed.
        *s = s.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = *s;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        let p = ((z ^ (z >> 31)) % 25) as u32;
        if (taken | set) & (1 << p) == 0 {
            set |= 1 << p;
        }
    }
    set
}

fn bench_slot(c: &mut Criterion) {
    let mut group = c.benchmark_group("five_tigers/dense_slot");
    group.throughput(Throughput::Elements(BOARDS as u64));
    for (first, second) in [(4, 4), (5, 4), (4, 5), (5, 5), (1, 5)] {
        let material = Material { first, second };
        let index = Dense::new(material);
        let mut seed = u64::from(first * 10 + second);
        let boards: Vec<([u32; 2], Side)> = (0..BOARDS)
            .map(|i| {
                let x = draw(&mut seed, first, 0);
                let o = draw(&mut seed, second, x);
                (
                    [x, o],
                    if i % 2 == 0 {
                        Side::First
                    } else {
                        Side::Second
                    },
                )
            })
            .collect();
        group.bench_function(material.to_string(), |b| {
            b.iter(|| {
                let mut sum = 0u64;
                for &(boards, stm) in &boards {
                    sum = sum.wrapping_add(index.slot(black_box(boards), stm));
                }
                sum
            })
        });
    }
    group.finish();
}

criterion_group!(benches, bench_slot);
criterion_main!(benches);
