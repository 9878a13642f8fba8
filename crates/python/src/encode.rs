//! The fixed action spaces and observation planes of the reinforcement
//! learning interface, one [`Encoding`] per game (documented in
//! `docs/python.md`).
//!
//! An observation carries everything the game layer's rules read, not only
//! the board: the no-capture count, the repetition count, and for Jungle
//! the moves the anti-chase rules forbid now and the recent moves those
//! rules look back on. Without them two positions with the same planes
//! could have different legal moves or different outcomes.

use std::sync::OnceLock;

use qi_core::{MoveList, Position, Side};
use qi_engine::{FiveTigersKit, GameKit, JungleKit};
use qi_five_tigers::{FiveTigers, Move as TigerMove, Phase, Point};
use qi_jungle::{Jungle, Move as JungleMove, Repetition, Square};

/// How a game's moves map to action numbers and its games to planes.
pub(crate) trait Encoding: GameKit {
    /// Actions in the fixed action space.
    const ACTIONS: usize;
    /// Observation shape: planes, ranks, files.
    const SHAPE: [usize; 3];

    /// The action of legal move `mv` of `pos`. Distinct legal moves of one
    /// position have distinct actions.
    fn action_of(pos: &Self::Position, mv: <Self::Position as Position>::Move) -> usize;

    /// Fills `out` (zeroed, `SHAPE` in C order) with `game` seen by `side`.
    fn observe(game: &Self::Game, side: Side, out: &mut [f32]);

    /// `pos`'s board drawn for a terminal.
    fn board(pos: &Self::Position) -> String;
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

/// Fills plane `plane` (of `cells` cells) of `out` with `value`.
fn fill(out: &mut [f32], cells: usize, plane: usize, value: f32) {
    out[plane * cells..(plane + 1) * cells].fill(value);
}

/// `count / limit`, or 0 when there is no limit: the no-capture count as
/// the share of the draw limit used up.
fn share(count: u32, limit: u32) -> f32 {
    if limit == 0 {
        0.0
    } else {
        (count.min(limit) as f32) / (limit as f32)
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
    /// Plane 22: the no-capture count ÷ the no-capture draw limit (0
    /// without a limit).
    pub const NO_CAPTURE: usize = 22;
    /// Plane 23: everywhere 1 when the position has occurred twice or more.
    pub const SECOND_OCCURRENCE: usize = 23;
    /// Plane 24: everywhere 1 when it has occurred three times or more.
    pub const THIRD_OCCURRENCE: usize = 24;
    /// Plane 25: everywhere 1 when the last move was played from a
    /// position that stood for the third time (the `initiator_loses`
    /// repetition rule reads it).
    pub const MOVED_FROM_THIRD: usize = 25;
    /// Planes 26–33: for each animal of the side to move (Rat to
    /// Elephant), the squares the anti-chase rules forbid it to enter now.
    pub const RESTRICTED: usize = 26;
    /// Planes 34–40: the observer's last 7 moves, newest first: the square
    /// each entered, valued (animal + 1) ÷ 8.
    pub const OWN_RECENT: usize = 34;
    /// Planes 41–47: the opponent's last 7 moves, the same way.
    pub const OPPONENT_RECENT: usize = 41;
    /// Plane 48: the squares entered by the observer's latest run of moves
    /// by one animal (its last 17 moves at most), valued run length ÷ 17.
    pub const OWN_RUN: usize = 48;
    /// Plane 49: the same for the opponent.
    pub const OPPONENT_RUN: usize = 49;
    /// The number of planes.
    pub const COUNT: usize = 50;
    /// How many recent moves of each side the planes show (the 7-3 rule's
    /// window).
    pub const RECENT: usize = 7;
    /// The longest run the run planes measure (the 17-5 rule's window).
    pub const RUN: usize = 17;
}

/// Jungle's board cells.
const JUNGLE_CELLS: usize = 63;

impl Encoding for JungleKit {
    const ACTIONS: usize = JUNGLE_CELLS * 4;
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

    fn board(pos: &Jungle) -> String {
        qi_engine::render::jungle(pos)
    }

    fn observe(game: &qi_jungle::Game, side: Side, out: &mut [f32]) {
        use jungle_planes::*;
        let pos = game.position();
        let rules = pos.rules();
        let frame = |index: u8| match side {
            Side::First => index as usize,
            Side::Second => 62 - index as usize,
        };
        for (who, base) in [(side, OWN), (side.opponent(), OPPONENT)] {
            for (animal, &index) in pos.animal_squares(who).iter().enumerate() {
                // A captured animal's square is past the board.
                if usize::from(index) < JUNGLE_CELLS {
                    out[(base + animal) * JUNGLE_CELLS + frame(index)] = 1.0;
                }
            }
        }
        out[WATER * JUNGLE_CELLS..(OPPONENT_DEN + 1) * JUNGLE_CELLS]
            .copy_from_slice(&jungle_terrain()[side.index()]);
        if pos.side_to_move() == side {
            fill(out, JUNGLE_CELLS, TO_MOVE, 1.0);
        }
        fill(
            out,
            JUNGLE_CELLS,
            NO_CAPTURE,
            share(pos.no_capture_plies(), rules.no_capture_draw),
        );
        let occurrences = game.occurrences();
        if occurrences >= 2 {
            fill(out, JUNGLE_CELLS, SECOND_OCCURRENCE, 1.0);
        }
        if occurrences >= 3 {
            fill(out, JUNGLE_CELLS, THIRD_OCCURRENCE, 1.0);
            if rules.repetition == Repetition::InitiatorLoses && moved_from_third(game) {
                fill(out, JUNGLE_CELLS, MOVED_FROM_THIRD, 1.0);
            }
        }
        if rules.anti_chase {
            jungle_anti_chase_planes(game, side, out);
        }
    }
}

/// The terrain planes (water, both sides' traps, both dens) as each side
/// sees them: the same in every position, so computed once.
fn jungle_terrain() -> &'static [Vec<f32>; 2] {
    use jungle_planes::*;
    static TERRAIN: OnceLock<[Vec<f32>; 2]> = OnceLock::new();
    TERRAIN.get_or_init(|| {
        [Side::First, Side::Second].map(|side| {
            let mut planes = vec![0.0f32; (OPPONENT_DEN + 1 - WATER) * JUNGLE_CELLS];
            let mut set = |plane: usize, square: Square| {
                planes[(plane - WATER) * JUNGLE_CELLS + jungle_frame(square, side)] = 1.0
            };
            for square in Square::all() {
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
            planes
        })
    })
}

/// Whether the last move of `game` was played from a position that had
/// then occurred three times or more.
fn moved_from_third(game: &qi_jungle::Game) -> bool {
    let mut before = game.clone();
    before.undo().is_some() && before.occurrences() >= 3
}

/// The anti-chase planes: the moves forbidden now, each side's recent
/// moves and its latest run of moves by one animal.
fn jungle_anti_chase_planes(game: &qi_jungle::Game, side: Side, out: &mut [f32]) {
    use jungle_planes::*;
    let pos = game.position();
    // The board's moves that the game does not allow are exactly those the
    // anti-chase rules forbid (no other history rule removes moves).
    let mut board = MoveList::new();
    pos.generate_moves(&mut board);
    let legal = game.legal_moves();
    if board.len() != legal.len() && !(legal.is_empty() && game.outcome().is_some()) {
        for &mv in board.iter().filter(|mv| !legal.contains(mv)) {
            if let Some(piece) = pos.piece_at(mv.from) {
                out[(RESTRICTED + piece.animal.index()) * JUNGLE_CELLS
                    + jungle_frame(mv.to, side)] = 1.0;
            }
        }
    }
    // The last 2 × 17 plies, newest first, with the animal each moved (it
    // stands on the square it entered in the position after the move).
    let moves = game.moves();
    let window = moves.len().min(2 * RUN);
    let skip = moves.len() + 1 - window;
    let after: Vec<&Jungle> = game.positions().skip(skip).collect();
    let mut recent = [0usize; 2];
    let mut run: [(Option<usize>, usize, Vec<Square>); 2] =
        [(None, 0, Vec::new()), (None, 0, Vec::new())];
    let mut run_open = [true; 2];
    for k in 0..window {
        let mv = moves[moves.len() - 1 - k];
        let position = after[after.len() - 1 - k];
        let Some(piece) = position.piece_at(mv.to) else {
            continue;
        };
        let own = usize::from(piece.side != side);
        let animal = piece.animal.index();
        if recent[own] < RECENT {
            let plane = if own == 0 {
                OWN_RECENT
            } else {
                OPPONENT_RECENT
            } + recent[own];
            out[plane * JUNGLE_CELLS + jungle_frame(mv.to, side)] = (animal + 1) as f32 / 8.0;
            recent[own] += 1;
        }
        let (who, length, squares) = &mut run[own];
        if run_open[own] && *length < RUN && who.is_none_or(|a| a == animal) {
            *who = Some(animal);
            *length += 1;
            squares.push(mv.to);
        } else {
            run_open[own] = false;
        }
    }
    for (own, (_, length, squares)) in run.iter().enumerate() {
        let plane = if own == 0 { OWN_RUN } else { OPPONENT_RUN };
        for &square in squares {
            out[plane * JUNGLE_CELLS + jungle_frame(square, side)] = *length as f32 / RUN as f32;
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
    /// Plane 8: the point the observer's banned reverse step would leave.
    pub const BANNED_STEP_FROM: usize = 8;
    /// Plane 9: the point the opponent's banned reverse step would enter.
    pub const OPPONENT_BANNED_STEP: usize = 9;
    /// Plane 10: the point the opponent's banned reverse step would leave.
    pub const OPPONENT_BANNED_STEP_FROM: usize = 10;
    /// Plane 11: removals owed to the observer ÷ pieces per side.
    pub const OWN_OWED: usize = 11;
    /// Plane 12: removals owed to the opponent ÷ pieces per side.
    pub const OPPONENT_OWED: usize = 12;
    /// Plane 13: everywhere 1 when the observer has the regular turn once
    /// the removals owed are taken.
    pub const OWN_NEXT: usize = 13;
    /// Plane 14: the no-capture count ÷ the no-capture draw limit (0
    /// without a limit).
    pub const NO_CAPTURE: usize = 14;
    /// Plane 15: everywhere 1 when the position has occurred twice or more.
    pub const SECOND_OCCURRENCE: usize = 15;
    /// Plane 16: everywhere 1 when it has occurred three times or more.
    pub const THIRD_OCCURRENCE: usize = 16;
    /// The number of planes.
    pub const COUNT: usize = 17;
}

/// Five Tigers' board points.
const TIGER_CELLS: usize = 25;

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

    fn board(pos: &FiveTigers) -> String {
        qi_engine::render::five_tigers(pos)
    }

    fn observe(game: &qi_five_tigers::Game, side: Side, out: &mut [f32]) {
        use tiger_planes::*;
        let pos = game.position();
        for point in Point::all() {
            if let Some(owner) = pos.piece_at(point) {
                let plane = if owner == side { OWN } else { OPPONENT };
                out[plane * TIGER_CELLS + point.index() as usize] = 1.0;
            }
        }
        if pos.phase() == Phase::Placement {
            fill(out, TIGER_CELLS, PLACEMENT, 1.0);
        }
        if pos.side_to_move() == side {
            fill(out, TIGER_CELLS, TO_MOVE, 1.0);
        }
        if !pos.owed().is_empty() {
            fill(out, TIGER_CELLS, REMOVAL, 1.0);
        }
        let per_side = f32::from(pos.rules().pieces_per_side.max(1));
        fill(
            out,
            TIGER_CELLS,
            OWN_HAND,
            f32::from(pos.hand(side)) / per_side,
        );
        fill(
            out,
            TIGER_CELLS,
            OPPONENT_HAND,
            f32::from(pos.hand(side.opponent())) / per_side,
        );
        for (who, to_plane, from_plane) in [
            (side, BANNED_STEP, BANNED_STEP_FROM),
            (
                side.opponent(),
                OPPONENT_BANNED_STEP,
                OPPONENT_BANNED_STEP_FROM,
            ),
        ] {
            if let Some(TigerMove::Step { from, to }) = pos.forbidden_step(who) {
                out[to_plane * TIGER_CELLS + to.index() as usize] = 1.0;
                out[from_plane * TIGER_CELLS + from.index() as usize] = 1.0;
            }
        }
        let mut owed = [0u32; 2];
        for (who, count) in pos.owed().iter() {
            owed[usize::from(who != side)] += u32::from(count);
        }
        fill(out, TIGER_CELLS, OWN_OWED, owed[0] as f32 / per_side);
        fill(out, TIGER_CELLS, OPPONENT_OWED, owed[1] as f32 / per_side);
        if pos.next() == side {
            fill(out, TIGER_CELLS, OWN_NEXT, 1.0);
        }
        fill(
            out,
            TIGER_CELLS,
            NO_CAPTURE,
            share(
                pos.no_capture_plies(),
                u32::from(pos.rules().no_capture_draw),
            ),
        );
        let occurrences = game.occurrences();
        if occurrences >= 2 {
            fill(out, TIGER_CELLS, SECOND_OCCURRENCE, 1.0);
        }
        if occurrences >= 3 {
            fill(out, TIGER_CELLS, THIRD_OCCURRENCE, 1.0);
        }
    }
}
