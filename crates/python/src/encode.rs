//! The fixed action spaces and observation planes of the reinforcement
//! learning interface, one [`Encoding`] per game (documented in
//! `docs/python.md`).

use qi_core::{Position, Side};
use qi_engine::{FiveTigersKit, GameKit, JungleKit};
use qi_five_tigers::{FiveTigers, Move as TigerMove, Phase, Point};
use qi_jungle::{Jungle, Move as JungleMove, Square};

/// How a game's moves map to action numbers and its positions to planes.
pub(crate) trait Encoding: GameKit {
    /// Actions in the fixed action space.
    const ACTIONS: usize;
    /// Observation shape: planes, ranks, files.
    const SHAPE: [usize; 3];

    /// The action of legal move `mv` of `pos`. Distinct legal moves of one
    /// position have distinct actions.
    fn action_of(pos: &Self::Position, mv: <Self::Position as Position>::Move) -> usize;

    /// Fills `out` (zeroed, `SHAPE` in C order) with `pos` seen by `side`.
    fn observe(pos: &Self::Position, side: Side, out: &mut [f32]);
}

/// Directions in a side's own frame: towards the enemy, to the right,
/// back, to the left.
const UP: usize = 0;
const RIGHT: usize = 1;
const DOWN: usize = 2;
const LEFT: usize = 3;

/// The direction of a move from `(file, rank)` to `(file2, rank2)` along a
/// rank or a file (Jungle jumps and every Five Tigers step are).
fn direction(from: (u8, u8), to: (u8, u8)) -> usize {
    if to.1 > from.1 {
        UP
    } else if to.1 < from.1 {
        DOWN
    } else if to.0 > from.0 {
        RIGHT
    } else {
        LEFT
    }
}

/// Jungle seen by the Second side is the board turned half round (square
/// `i` becomes `62 - i`), so that every side sees itself at the bottom
/// moving up, as the start position is symmetric that way.
fn jungle_frame(square: Square, side: Side) -> usize {
    match side {
        Side::First => square.index() as usize,
        Side::Second => 62 - square.index() as usize,
    }
}

/// Jungle observation planes.
pub(crate) mod jungle_planes {
    /// Planes 0–7: the observer's animals, Rat to Elephant.
    pub const OWN: usize = 0;
    /// Planes 8–15: the opponent's animals, Rat to Elephant.
    pub const OPPONENT: usize = 8;
    /// Plane 16: water.
    pub const WATER: usize = 16;
    /// Plane 17: the observer's traps (where enemies are weakened).
    pub const OWN_TRAPS: usize = 17;
    /// Plane 18: the opponent's traps.
    pub const OPPONENT_TRAPS: usize = 18;
    /// Plane 19: the observer's den.
    pub const OWN_DEN: usize = 19;
    /// Plane 20: the opponent's den (entering it wins).
    pub const OPPONENT_DEN: usize = 20;
    /// Plane 21: everywhere 1 when the observer is to move.
    pub const TO_MOVE: usize = 21;
    /// The number of planes.
    pub const COUNT: usize = 22;
}

impl Encoding for JungleKit {
    const ACTIONS: usize = 63 * 4;
    const SHAPE: [usize; 3] = [jungle_planes::COUNT, 9, 7];

    fn action_of(pos: &Jungle, mv: JungleMove) -> usize {
        let side = pos.side_to_move();
        let mut dir = direction(
            (mv.from.file(), mv.from.rank()),
            (mv.to.file(), mv.to.rank()),
        );
        if side == Side::Second {
            dir = (dir + 2) % 4;
        }
        jungle_frame(mv.from, side) * 4 + dir
    }

    fn observe(pos: &Jungle, side: Side, out: &mut [f32]) {
        use jungle_planes::*;
        let mut set =
            |plane: usize, square: Square| out[plane * 63 + jungle_frame(square, side)] = 1.0;
        for square in Square::all() {
            if let Some(piece) = pos.piece_at(square) {
                let base = if piece.side == side { OWN } else { OPPONENT };
                set(base + piece.animal.index(), square);
            }
            if square.is_water() {
                set(WATER, square);
            }
            match square.trap_owner() {
                Some(owner) if owner == side => set(OWN_TRAPS, square),
                Some(_) => set(OPPONENT_TRAPS, square),
                None => {}
            }
            match square.den_owner() {
                Some(owner) if owner == side => set(OWN_DEN, square),
                Some(_) => set(OPPONENT_DEN, square),
                None => {}
            }
        }
        if pos.side_to_move() == side {
            out[TO_MOVE * 63..(TO_MOVE + 1) * 63].fill(1.0);
        }
    }
}

/// Five Tigers observation planes.
pub(crate) mod tiger_planes {
    /// Plane 0: the observer's pieces.
    pub const OWN: usize = 0;
    /// Plane 1: the opponent's pieces.
    pub const OPPONENT: usize = 1;
    /// Plane 2: everywhere 1 during placement.
    pub const PLACEMENT: usize = 2;
    /// Plane 3: everywhere 1 when the observer is to move.
    pub const TO_MOVE: usize = 3;
    /// Plane 4: everywhere 1 when the side to move must remove a piece.
    pub const REMOVAL: usize = 4;
    /// Plane 5: the observer's pieces in hand / pieces per side.
    pub const OWN_HAND: usize = 5;
    /// Plane 6: the opponent's pieces in hand / pieces per side.
    pub const OPPONENT_HAND: usize = 6;
    /// Plane 7: the point the observer's banned reverse step would enter.
    pub const BANNED_STEP: usize = 7;
    /// The number of planes.
    pub const COUNT: usize = 8;
}

impl Encoding for FiveTigersKit {
    const ACTIONS: usize = 25 + 25 * 4 + 25;
    const SHAPE: [usize; 3] = [tiger_planes::COUNT, 5, 5];

    fn action_of(_pos: &FiveTigers, mv: TigerMove) -> usize {
        match mv {
            TigerMove::Place(p) => p.index() as usize,
            TigerMove::Step { from, to } => {
                let dir = direction((from.file(), from.rank()), (to.file(), to.rank()));
                25 + from.index() as usize * 4 + dir
            }
            TigerMove::Remove(p) => 125 + p.index() as usize,
        }
    }

    fn observe(pos: &FiveTigers, side: Side, out: &mut [f32]) {
        use tiger_planes::*;
        let fill = |out: &mut [f32], plane: usize, value: f32| {
            out[plane * 25..(plane + 1) * 25].fill(value)
        };
        for point in Point::all() {
            if let Some(owner) = pos.piece_at(point) {
                let plane = if owner == side { OWN } else { OPPONENT };
                out[plane * 25 + point.index() as usize] = 1.0;
            }
        }
        if pos.phase() == Phase::Placement {
            fill(out, PLACEMENT, 1.0);
        }
        if pos.side_to_move() == side {
            fill(out, TO_MOVE, 1.0);
        }
        if !pos.owed().is_empty() {
            fill(out, REMOVAL, 1.0);
        }
        let per_side = f32::from(pos.rules().pieces_per_side.max(1));
        fill(out, OWN_HAND, f32::from(pos.hand(side)) / per_side);
        fill(
            out,
            OPPONENT_HAND,
            f32::from(pos.hand(side.opponent())) / per_side,
        );
        if let Some(TigerMove::Step { to, .. }) = pos.forbidden_step(side) {
            out[BANNED_STEP * 25 + to.index() as usize] = 1.0;
        }
    }
}
