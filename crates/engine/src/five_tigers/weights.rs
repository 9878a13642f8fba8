//! Every weight of the Five Tigers evaluation, with the values in use.

/// Every weight of the Five Tigers evaluation, in centi-units (a piece is
/// about 100). [`Default`] gives the values in use: set by hand, then
/// checked in engine-against-engine games at equal nodes, where none of
/// the single-weight changes tried (threat, open-formation, loose-piece,
/// held-formation and mobility weights up and down) scored measurably
/// better; against [`material_only`](FiveTigersWeights::material_only)
/// they score about 70%.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct FiveTigersWeights {
    /// A piece on the board or in hand.
    pub piece: i32,
    /// One removal owed to a side (capped by the enemy's pieces on the
    /// board), and under deferred scoring one unit of the score a side
    /// holds during placement.
    pub owed_removal: i32,
    /// A formation held during placement (its pieces are safe from
    /// removal; under immediate capture it was already paid for).
    pub held_placement: i32,
    /// A formation held in the movement phase, per removal of its value
    /// (stepping out and back in re-forms it).
    pub held_movement: i32,
    /// The best formation-forming move of the side with the next regular
    /// turn, per removal it would earn.
    pub threat_to_move: i32,
    /// The best formation-forming move of the side waiting for its turn,
    /// per removal (the opponent may block it).
    pub threat_waiting: i32,
    /// The second-best formation-forming point of the waiting side, per
    /// removal (two threats cannot both be blocked).
    pub threat_double: i32,
    /// Every further formation-forming point, per removal.
    pub threat_extra: i32,
    /// A formation missing one point in the movement phase that no own
    /// piece can step into yet.
    pub near_unreachable: i32,
    /// A formation with no enemy piece and two points missing.
    pub open_two: i32,
    /// A formation with no enemy piece and three points missing.
    pub open_three: i32,
    /// A loose piece (subtracted: it can be removed).
    pub loose: i32,
    /// One available step in the movement phase.
    pub mobility: i32,
    /// At most this many steps count for mobility.
    pub mobility_cap: i32,
    /// A side with no step in the movement phase (subtracted).
    pub no_step: i32,
    /// A side with a single step in the movement phase (subtracted).
    pub one_step: i32,
}

impl Default for FiveTigersWeights {
    fn default() -> FiveTigersWeights {
        FiveTigersWeights {
            piece: 100,
            owed_removal: 100,
            held_placement: 8,
            held_movement: 10,
            threat_to_move: 75,
            threat_waiting: 20,
            threat_double: 50,
            threat_extra: 12,
            near_unreachable: 6,
            open_two: 6,
            open_three: 2,
            loose: 5,
            mobility: 5,
            mobility_cap: 12,
            no_step: 400,
            one_step: 60,
        }
    }
}

impl FiveTigersWeights {
    /// Only material and owed removals: the yardstick a full evaluation
    /// must beat.
    pub fn material_only() -> FiveTigersWeights {
        FiveTigersWeights {
            piece: 100,
            owed_removal: 100,
            held_placement: 0,
            held_movement: 0,
            threat_to_move: 0,
            threat_waiting: 0,
            threat_double: 0,
            threat_extra: 0,
            near_unreachable: 0,
            open_two: 0,
            open_three: 0,
            loose: 0,
            mobility: 0,
            mobility_cap: 0,
            no_step: 0,
            one_step: 0,
        }
    }
}
