//! The search's tuning constants, each with the reason for its value, and
//! the margins an evaluation's scale sets ([`SearchParams`]).

/// How often (in nodes) the clock and the stop flag are read.
pub(super) const CHECK_EVERY: u64 = 2048;

/// First half-width of an aspiration window, in centi-units (the
/// default of [`SearchParams::aspiration_delta`]).
const ASPIRATION_DELTA: i32 = 25;

/// Futility margin per ply of remaining depth, in centi-units (the default
/// of [`SearchParams::futility_margin`]).
const FUTILITY_MARGIN: i32 = 150;

/// Deepest remaining depth of reverse futility pruning. (Depth 6 with a
/// margin of 120 lost 37 ± 30 Elo against no reverse futility in a
/// 200-game match; depth 3 with 200 scored +14 ± 31.)
pub(super) const RFP_DEPTH: i32 = 3;

/// Reverse futility margin per ply of remaining depth, in centi-units (the
/// default of [`SearchParams::rfp_margin`]).
const RFP_MARGIN: i32 = 200;

/// Shallowest remaining depth reduced by internal iterative reduction.
pub(super) const IIR_DEPTH: i32 = 4;

/// Deepest remaining depth of late-move pruning.
pub(super) const LMP_DEPTH: i32 = 4;

/// Quiet moves searched before the rest are pruned, by remaining depth
/// (the default of [`SearchParams::lmp_moves`]).
const LMP_MOVES: [usize; LMP_DEPTH as usize + 1] = [0, 6, 10, 16, 26];

/// The search's margins that depend on the evaluation's scale and
/// smoothness, which an evaluation profile may set for itself
/// ([`SearchHooks::search_params`](crate::SearchHooks::search_params)):
/// a learned evaluation whose scores spread and swing differently from
/// the hand-written one's prunes and widens its windows differently.
/// [`Default`] gives the values tuned with the hand-written evaluations.
///
/// ```
/// use qi_search::SearchParams;
///
/// let p = SearchParams::default();
/// assert_eq!((p.aspiration_delta, p.futility_margin, p.rfp_margin), (25, 150, 200));
/// assert_eq!(p.lmp_moves, [0, 6, 10, 16, 26]);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct SearchParams {
    /// First half-width of an aspiration window, in centi-units; it
    /// doubles at each failure and gives way to an open window past 16
    /// times this.
    pub aspiration_delta: i32,
    /// Futility margin per ply of remaining depth (at most 2), in
    /// centi-units: quiet moves are skipped where the static evaluation
    /// plus this is at most alpha.
    pub futility_margin: i32,
    /// Reverse futility margin per ply of remaining depth, in centi-units.
    pub rfp_margin: i32,
    /// Late-move pruning: the quiet moves searched, by remaining depth
    /// (index 1 to 4), before the rest are skipped.
    pub lmp_moves: [usize; LMP_DEPTH as usize + 1],
}

impl Default for SearchParams {
    fn default() -> SearchParams {
        SearchParams {
            aspiration_delta: ASPIRATION_DELTA,
            futility_margin: FUTILITY_MARGIN,
            rfp_margin: RFP_MARGIN,
            lmp_moves: LMP_MOVES,
        }
    }
}

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
