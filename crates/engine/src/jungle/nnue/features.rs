//! The network's inputs: one per (owner seen from the perspective, animal,
//! square), 2 x 8 x 63 = 1008, each perspective seeing the board from its
//! own side (Blue's turned 180 degrees, the board's own symmetry), so that
//! one set of weights serves both sides.

use super::data::CAPTURED;

/// The squares of the board.
pub const SQUARES: usize = 63;
/// Inputs per perspective.
pub const INPUTS: usize = 2 * 8 * SQUARES;

/// The input of `animal` (Rat 0 .. Elephant 7) of side `owner` (0 Red, 1
/// Blue) standing on `square`, seen by `perspective` (0 Red, 1 Blue); the
/// caller knows the animal is on the board (`square < 63`).
///
/// ```
/// use qi_engine::jungle::nnue::feature;
///
/// // Red's Rat on square 0, seen by Red; Blue's Rat on square 62 seen by
/// // Blue: the same input.
/// assert_eq!(feature(0, 0, 0, 0), 0);
/// assert_eq!(feature(1, 1, 0, 62), 0);
/// // Seen by the enemy, an animal is in the second half.
/// assert_eq!(feature(1, 0, 0, 62), 8 * 63);
/// ```
#[inline(always)]
pub fn feature(perspective: usize, owner: usize, animal: usize, square: u8) -> usize {
    debug_assert!(square < CAPTURED);
    let seen = if perspective == 0 {
        square as usize
    } else {
        SQUARES - 1 - square as usize
    };
    ((usize::from(owner != perspective)) * 8 + animal) * SQUARES + seen
}
