//! Repeatable randomness for tests and benches.

use crate::position::Position;

/// A small deterministic generator (xorshift64*), so walks are repeatable
/// without a dependency.
#[derive(Clone, Debug)]
pub struct Rng(u64);

impl Rng {
    /// A generator from a seed (any value).
    pub fn new(seed: u64) -> Rng {
        Rng(seed ^ 0x9E37_79B9_7F4A_7C15 | 1)
    }

    /// The next 64 random bits.
    pub fn next_u64(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }

    /// A number below `n` (`n` > 0).
    pub fn below(&mut self, n: usize) -> usize {
        (self.next_u64() % n as u64) as usize
    }
}

/// The position reached from `start` after `plies` uniformly random legal
/// moves (fewer if the game ends first): how tests and benches reach
/// repeatable mid-game positions.
pub fn random_playout<P: Position>(start: &P, plies: usize, rng: &mut Rng) -> P {
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

/// Plays `games` random games from `start` (uniformly random legal moves,
/// repeatable for a seed), calling `visit` on every position reached: the
/// start and at most `max_plies` positions after it per game. Returns the
/// number of positions visited.
pub fn walk<P: Position>(
    start: &P,
    games: usize,
    max_plies: usize,
    seed: u64,
    mut visit: impl FnMut(&P),
) -> usize {
    let mut rng = Rng::new(seed);
    let mut visited = 0;
    for _ in 0..games {
        let mut pos = start.clone();
        for _ in 0..=max_plies {
            visit(&pos);
            visited += 1;
            let moves = pos.legal_moves();
            if moves.is_empty() {
                break;
            }
            pos.play_unchecked(moves[rng.below(moves.len())]);
        }
    }
    visited
}
