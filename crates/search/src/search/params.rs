//! The search's tuning constants, each with the reason for its value.

/// How often (in nodes) the clock and the stop flag are read.
pub(super) const CHECK_EVERY: u64 = 2048;

/// First half-width of an aspiration window, in centi-units.
pub(super) const ASPIRATION_DELTA: i32 = 25;

/// Futility margin per ply of remaining depth, in centi-units.
pub(super) const FUTILITY_MARGIN: i32 = 150;

/// Deepest remaining depth of reverse futility pruning. (Depth 6 with a
/// margin of 120 lost 37 ± 30 Elo against no reverse futility in a
/// 200-game match; depth 3 with 200 scored +14 ± 31.)
pub(super) const RFP_DEPTH: i32 = 3;

/// Reverse futility margin per ply of remaining depth, in centi-units.
pub(super) const RFP_MARGIN: i32 = 200;

/// Shallowest remaining depth reduced by internal iterative reduction.
pub(super) const IIR_DEPTH: i32 = 4;

/// Deepest remaining depth of late-move pruning.
pub(super) const LMP_DEPTH: i32 = 4;

/// Quiet moves searched before the rest are pruned, by remaining depth.
pub(super) const LMP_MOVES: [usize; LMP_DEPTH as usize + 1] = [0, 6, 10, 16, 26];

/// Late-move reductions by remaining depth and moves searched: about
/// `0.75 + ln(depth) ln(moves) / 2.25` plies.
pub(super) fn lmr_table() -> Vec<[u8; 64]> {
    (0..64)
        .map(|d| {
            let mut row = [0u8; 64];
            for (m, r) in row.iter_mut().enumerate() {
                if d > 0 && m > 0 {
                    let v = 0.75 + (d as f64).ln() * (m as f64).ln() / 2.25;
                    *r = v.max(0.0) as u8;
                }
            }
            row
        })
        .collect()
}
