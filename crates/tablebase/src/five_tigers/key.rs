//! The states of the Five Tigers graph, their 64-bit keys and the 8
//! symmetries of the board.
//!
//! A state is what decides the rest of the game under the board rules: the
//! two boards, the side to move, the removals owed (count and taker) and,
//! under `shuttle = forbidden`, each side's banned step back. The quiet
//! count is left out (it belongs to the game record, as in Jungle), and a
//! previous step is kept only while it can still ban a step (see
//! [`State::from_position`]), so that positions which play alike share a
//! key.
//!
//! Key layout (bits): 0–24 First's board, 25–49 Second's board, 50 side to
//! move (1 = Second), 51–54 First's ban (low 4 bits), 55–58 Second's ban
//! (low 4 bits), 59–60 removals owed (0–3), 61 the taker (1 = Second), 62
//! First's ban (high bit), 63 Second's ban (high bit). A ban is 0 for
//! none, else the 5-bit code `1 + 4 i + d`: the piece that stepped is the
//! `i`-th lowest of its side (0–4) and `d` the direction back to the point
//! it left (0 up, 1 down, 2 right, 3 left). Codes of the 3 lowest pieces
//! (1–12) have the high bit 0, so the keys of the tables to 3 a side are
//! those they had before the 4th and 5th pieces' bans (codes 13–20) got
//! their high bits.

use qi_core::{Bitboard32, Position, Side};
use qi_five_tigers::{
    FiveTigers, LastStep, Owed, Phase, Point, Rules, Setup, Shuttle, Symmetry, NEIGHBOURS,
};

/// Every point of the board, as a board's bit set.
pub(super) const ALL: u32 = qi_five_tigers::ALL_POINTS.0;

/// The image of every point under each symmetry, in the order of
/// [`Symmetry::ALL`].
const PERM: [[u8; 25]; 8] = build_perm();

const fn build_perm() -> [[u8; 25]; 8] {
    let mut t = [[0u8; 25]; 8];
    let mut s = 0;
    while s < 8 {
        let mut p = 0;
        while p < 25 {
            // `Point::new` is `Some` for every index below 25.
            if let Some(pt) = Point::new(p as u8) {
                t[s][p] = Symmetry::ALL[s].point(pt).index();
            }
            p += 1;
        }
        s += 1;
    }
    t
}

/// For each symmetry and rank, the image of each of the 32 subsets of the
/// rank's five points: a board is mapped with five lookups instead of 25
/// bit tests, which matters when tens of millions of states are keyed.
const RANK_IMAGE: [[[u32; 32]; 5]; 8] = build_rank_image();

const fn build_rank_image() -> [[[u32; 32]; 5]; 8] {
    let mut t = [[[0u32; 32]; 5]; 8];
    let mut s = 0;
    while s < 8 {
        let mut r = 0;
        while r < 5 {
            let mut bits = 0;
            while bits < 32 {
                let mut image = 0u32;
                let mut f = 0;
                while f < 5 {
                    if bits & (1 << f) != 0 {
                        image |= 1 << PERM[s][r * 5 + f];
                    }
                    f += 1;
                }
                t[s][r][bits] = image;
                bits += 1;
            }
            r += 1;
        }
        s += 1;
    }
    t
}

/// The image of point `p` under symmetry number `s`.
#[inline]
pub(crate) fn map_point(s: usize, p: u8) -> u8 {
    PERM[s][p as usize]
}

/// The image of a board under symmetry number `s`.
#[inline]
pub(crate) fn map_board(s: usize, b: u32) -> u32 {
    let t = &RANK_IMAGE[s];
    t[0][(b & 31) as usize]
        | t[1][((b >> 5) & 31) as usize]
        | t[2][((b >> 10) & 31) as usize]
        | t[3][((b >> 15) & 31) as usize]
        | t[4][((b >> 20) & 31) as usize]
}

/// The image of a ban under symmetry number `s`.
#[inline]
pub(crate) fn map_ban(s: usize, ban: Option<Ban>) -> Option<Ban> {
    ban.map(|b| Ban {
        at: map_point(s, b.at),
        back: map_point(s, b.back),
    })
}

/// A step back that a side may not play next: its piece on `at` may not
/// step to `back` (the reverse of its previous step).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(crate) struct Ban {
    /// The point the side's piece stands on (its previous step's target).
    pub at: u8,
    /// The point it left (its previous step's origin).
    pub back: u8,
}

/// One node of the graph (see the module docs).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(crate) struct State {
    /// First's and Second's boards.
    pub boards: [u32; 2],
    /// The side to move (the side that decides now: during a self-removal
    /// the side losing the piece).
    pub stm: Side,
    /// Each side's ban, by [`Side::index`].
    pub bans: [Option<Ban>; 2],
    /// Removals owed (0 when nothing is).
    pub owed: u8,
    /// The side owed them (First when nothing is owed).
    pub taker: Side,
}

/// The most removals owed that a state (and its key) holds.
pub(crate) const MAX_KEYED_OWED: u8 = 3;

/// Why a position has no state: it is not one the tables cover.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum NoState {
    /// Placement phase, two owed entries, a count above 3 removals, or more
    /// than 5 pieces of a side.
    OutOfScope,
    /// A previous step whose way back is blocked by the side to move's
    /// piece, which may step away before the banned side moves: no
    /// position of play has it (the way back is empty until the other
    /// side has stepped), so the tables leave it out.
    BlockedBan,
}

impl std::fmt::Display for NoState {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            NoState::OutOfScope => "not a movement-phase ending of up to 5 pieces a side",
            NoState::BlockedBan => "a banned step back blocked by the side to move",
        })
    }
}

impl State {
    /// The state of a table's cell: `boards`, side `stm` (0 First) to
    /// move, `bans`, nothing owed.
    pub(crate) fn at_rest(boards: [u32; 2], stm: usize, bans: [Option<Ban>; 2]) -> State {
        let (stm, owed, taker) = (Side::BOTH[stm], 0, Side::First);
        State {
            boards,
            stm,
            bans,
            owed,
            taker,
        }
    }

    /// The state of `pos` under `rules`' shuttle option.
    pub fn from_position(pos: &FiveTigers) -> Result<State, NoState> {
        if pos.phase() != Phase::Movement {
            return Err(NoState::OutOfScope);
        }
        let boards = [pos.pieces(Side::First).0, pos.pieces(Side::Second).0];
        if boards.iter().any(|b| b.count_ones() > super::MAX_PIECES) {
            return Err(NoState::OutOfScope);
        }
        let owed = pos.owed();
        if owed.len() > 1 {
            return Err(NoState::OutOfScope);
        }
        let (taker, count) = owed.first().unwrap_or((Side::First, 0));
        if count > MAX_KEYED_OWED {
            return Err(NoState::OutOfScope);
        }
        let stm = pos.side_to_move();
        let mut bans = [None, None];
        if pos.rules().shuttle == Shuttle::Forbidden {
            for side in Side::BOTH {
                if let Some(step) = pos.last_step(side) {
                    bans[side.index()] = relevant_ban(boards, stm, count, taker, side, step)?;
                }
            }
        }
        Ok(State {
            boards,
            stm,
            bans,
            owed: count,
            taker,
        })
    }

    /// The position of this state under `rules` (quiet count 0), if the
    /// rules admit it (at least as many pieces per side as on the board).
    pub fn to_position(self, rules: &Rules) -> Option<FiveTigers> {
        let mut setup = Setup::empty().phase(Phase::Movement);
        for side in Side::BOTH {
            for p in Bitboard32(self.boards[side.index()]).iter() {
                setup = setup.place(Point::new(p)?, side);
            }
        }
        let next = if self.owed > 0 {
            self.taker.opponent()
        } else {
            self.stm
        };
        let owed = if self.owed > 0 {
            Owed::from_entries(&[(self.taker, self.owed)])?
        } else {
            Owed::NONE
        };
        setup = setup.side_to_move(self.stm).next(next).owed(owed);
        for side in Side::BOTH {
            if let Some(ban) = self.bans[side.index()] {
                let step = LastStep {
                    from: Point::new(ban.back)?,
                    to: Point::new(ban.at)?,
                };
                setup = setup.last_step(side, Some(step));
            }
        }
        setup.into_position_lenient(*rules).ok()
    }

    /// The key of this state (see the module docs); `None` if more than 3
    /// removals are owed, or a ban is not a step of a piece of its side
    /// onto an adjacent point, or of one of its 5 lowest pieces.
    pub fn key(&self) -> Option<u64> {
        if self.owed > 3 {
            return None;
        }
        let mut k = u64::from(self.boards[0])
            | u64::from(self.boards[1]) << 25
            | (self.stm.index() as u64) << 50
            | u64::from(self.owed & 3) << 59
            | (self.taker.index() as u64) << 61;
        for side in Side::BOTH {
            let i = side.index();
            if let Some(ban) = self.bans[i] {
                let code = ban_code(self.boards[i], ban)?;
                k |= (code & 15) << (51 + 4 * i) | (code >> 4) << (62 + i);
            }
        }
        Some(k)
    }

    /// The state of a key written by [`State::key`], if it is one.
    pub fn from_key(key: u64) -> Option<State> {
        let boards = [(key & 0x1ff_ffff) as u32, ((key >> 25) & 0x1ff_ffff) as u32];
        if boards[0] & boards[1] != 0 || boards.iter().any(|b| b.count_ones() > super::MAX_PIECES) {
            return None;
        }
        let mut bans = [None, None];
        for (i, ban) in bans.iter_mut().enumerate() {
            let code = (key >> (51 + 4 * i)) & 15 | ((key >> (62 + i)) & 1) << 4;
            if code != 0 {
                *ban = Some(ban_decode(boards[i], code)?);
            }
        }
        Some(State {
            boards,
            stm: Side::BOTH[((key >> 50) & 1) as usize],
            bans,
            owed: ((key >> 59) & 3) as u8,
            taker: Side::BOTH[((key >> 61) & 1) as usize],
        })
    }

    /// The image of this state under symmetry number `s` of
    /// [`Symmetry::ALL`].
    pub fn mapped(&self, s: usize) -> State {
        State {
            boards: [map_board(s, self.boards[0]), map_board(s, self.boards[1])],
            bans: [map_ban(s, self.bans[0]), map_ban(s, self.bans[1])],
            ..*self
        }
    }

    /// The smallest key of the 8 images and how many distinct states the 8
    /// images are (the size of the symmetry class: 8 divided by the number
    /// of symmetries that fix the state).
    pub fn canonical(&self) -> Option<(u64, u8)> {
        let mut keys = [0u64; 8];
        for (s, k) in keys.iter_mut().enumerate() {
            *k = self.mapped(s).key()?;
        }
        let min = keys.iter().copied().min()?;
        let fixed = keys.iter().filter(|&&k| k == keys[0]).count();
        Some((min, (8 / fixed) as u8))
    }
}

/// The ban that `side`'s previous `step` still imposes in a position with
/// `boards`, side to move `stm` and `owed` removals to `taker`, normalised so that
/// positions that play alike share a state: `None` when the step can no
/// longer be reversed before the side's next step.
fn relevant_ban(
    boards: [u32; 2],
    stm: Side,
    owed: u8,
    taker: Side,
    side: Side,
    step: LastStep,
) -> Result<Option<Ban>, NoState> {
    let at = step.to.index();
    let back = step.from.index();
    let own = boards[side.index()];
    let theirs = boards[side.opponent().index()];
    // The piece that stepped was taken: the side's other pieces cannot
    // reach the point before the side moves.
    if own & (1 << at) == 0 {
        return Ok(None);
    }
    // The way back is free: nothing but the other side's step (which may
    // enter it: then the ban is void at the side's step) and removals come
    // before the side's next step, so the ban must be kept.
    if (own | theirs) & (1 << back) == 0 {
        return Ok(Some(Ban { at, back }));
    }
    // Blocked by the side's own piece: it stays there until the side has
    // stepped, and that step replaces the ban.
    if own & (1 << back) != 0 {
        return Ok(None);
    }
    // Blocked by an enemy piece. If the enemy is to move with nothing
    // owed, it may step away, or if the side is owed removals, it may take
    // that piece: the way back may reopen. Otherwise (the side to move, or
    // the side losing pieces) the blocker stays until the ban is replaced.
    if (owed == 0 && stm != side) || (owed > 0 && side == taker) {
        return Err(NoState::BlockedBan);
    }
    Ok(None)
}

/// Direction code from `at` back to `back` (adjacent points).
fn direction(at: u8, back: u8) -> Option<u64> {
    match i16::from(back) - i16::from(at) {
        5 => Some(0),
        -5 => Some(1),
        1 if at % 5 != 4 => Some(2),
        -1 if !at.is_multiple_of(5) => Some(3),
        _ => None,
    }
}

fn ban_code(board: u32, ban: Ban) -> Option<u64> {
    if board & (1 << ban.at) == 0 {
        return None;
    }
    let index = (board & ((1u32 << ban.at) - 1)).count_ones();
    if index > 4 {
        return None;
    }
    Some(1 + 4 * u64::from(index) + direction(ban.at, ban.back)?)
}

fn ban_decode(board: u32, code: u64) -> Option<Ban> {
    let (index, dir) = ((code - 1) / 4, (code - 1) % 4);
    let at = Bitboard32(board).iter().nth(index as usize)?;
    // The neighbour in direction `dir`, as `direction` numbers them.
    let back = NEIGHBOURS[usize::from(at)]
        .iter()
        .find(|&b| direction(at, b) == Some(dir))?;
    Some(Ban { at, back })
}

/// Every subset of the 25 points with `k` points, in increasing order of
/// the mask.
pub(crate) fn subsets(k: u32, within: u32) -> Vec<u32> {
    let mut out = Vec::new();
    fn go(start: u8, k: u32, within: u32, acc: u32, out: &mut Vec<u32>) {
        if k == 0 {
            out.push(acc);
            return;
        }
        for p in start..25 {
            if within & (1 << p) != 0 {
                go(p + 1, k - 1, within, acc | 1 << p, out);
            }
        }
    }
    go(0, k, within, 0, &mut out);
    out
}

/// The canonical key ([`State::canonical`]) of the state with `boards`,
/// `stm` to move, no ban and nothing owed, computed straight from the
/// boards: the retrograde generator keys every slot of a table with it.
#[inline]
pub(crate) fn plain_canonical_key(boards: [u32; 2], stm: Side) -> u64 {
    let mut min = u64::MAX;
    for s in 0..8 {
        min =
            min.min(u64::from(map_board(s, boards[0])) | u64::from(map_board(s, boards[1])) << 25);
    }
    min | (stm.index() as u64) << 50
}

#[cfg(test)]
mod tests;
