//! [`Table`]: the values and distances of one material, [`Wdl`] and
//! [`Stats`].

use std::fmt;

use qi_core::{Outcome, Side};
use qi_jungle::Rules;

use crate::material::{Indexer, Material};

/// The value of a position for the side to move.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Wdl {
    /// The side to move loses against best play.
    Loss,
    /// Neither side can force a win (under the board rules alone).
    Draw,
    /// The side to move wins.
    Win,
}

impl Wdl {
    /// The 2-bit code of the file format: 0 loss, 1 draw, 2 win (3 is
    /// never written).
    pub(crate) const fn code(self) -> u8 {
        match self {
            Wdl::Loss => 0,
            Wdl::Draw => 1,
            Wdl::Win => 2,
        }
    }

    /// The value of a 2-bit code, `None` for 3.
    pub(crate) const fn from_code(code: u8) -> Option<Wdl> {
        match code {
            0 => Some(Wdl::Loss),
            1 => Some(Wdl::Draw),
            2 => Some(Wdl::Win),
            _ => None,
        }
    }

    /// The value of a finished game (`outcome`) for `side`: both games'
    /// tables and probes read a finished game through this one rule.
    pub(crate) fn of_outcome(outcome: Outcome, side: Side) -> Wdl {
        match outcome.winner() {
            Some(w) if w == side => Wdl::Win,
            Some(_) => Wdl::Loss,
            None => Wdl::Draw,
        }
    }

    /// The value for the other side.
    pub const fn flip(self) -> Wdl {
        match self {
            Wdl::Loss => Wdl::Win,
            Wdl::Draw => Wdl::Draw,
            Wdl::Win => Wdl::Loss,
        }
    }
}

impl fmt::Display for Wdl {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Wdl::Loss => "loss",
            Wdl::Draw => "draw",
            Wdl::Win => "win",
        })
    }
}

/// The distances of a table: one byte each when every distance fits,
/// two otherwise.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Distances {
    /// Every distance is below 256.
    U8(Vec<u8>),
    /// Some distance is 256 or more.
    U16(Vec<u16>),
}

impl Distances {
    /// The narrowest form of `d`.
    pub(crate) fn from_u16(d: Vec<u16>) -> Distances {
        if d.iter().all(|&x| x <= u16::from(u8::MAX)) {
            Distances::U8(d.into_iter().map(|x| x as u8).collect())
        } else {
            Distances::U16(d)
        }
    }

    pub(crate) fn get(&self, i: usize) -> u32 {
        match self {
            Distances::U8(v) => u32::from(v[i]),
            Distances::U16(v) => u32::from(v[i]),
        }
    }

    /// Bytes per distance (1 or 2).
    pub(crate) fn width(&self) -> u8 {
        match self {
            Distances::U8(_) => 1,
            Distances::U16(_) => 2,
        }
    }
}

/// The solved positions of one material under one rule set: for each
/// index of [`Material::index_of`], the value for the side to move and
/// the distance in plies to the end of the game (0 for a position already
/// over, 1 for an immediate den entry or capture of the last animal; a
/// draw has distance 0).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Table {
    pub(crate) material: Material,
    pub(crate) rules: Rules,
    /// Two bits per position, four positions a byte, lowest bits first.
    pub(crate) values: Vec<u8>,
    pub(crate) distances: Distances,
    pub(crate) len: u64,
}

/// Counts of one table (the counting convention of `docs/tablebases.md`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Stats {
    /// Positions.
    pub positions: u64,
    /// Positions won by the side to move.
    pub wins: u64,
    /// Positions drawn.
    pub draws: u64,
    /// Positions lost by the side to move.
    pub losses: u64,
    /// The longest win, in plies.
    pub longest_win: u32,
    /// The index of a position with the longest win (the lowest), if any
    /// position is won.
    pub longest_win_index: Option<u64>,
}

impl Table {
    /// A table from unpacked values and distances.
    pub(crate) fn from_parts(
        material: Material,
        rules: Rules,
        values: &[Wdl],
        distances: Vec<u16>,
    ) -> Table {
        Table {
            material,
            rules,
            values: crate::container::pack_values(values),
            distances: Distances::from_u16(distances),
            len: values.len() as u64,
        }
    }

    /// The material.
    pub fn material(&self) -> Material {
        self.material
    }

    /// The rules the table was generated under.
    pub fn rules(&self) -> &Rules {
        &self.rules
    }

    /// The number of indices (positions stored: one of each left-right
    /// mirror pair, [`Material::index_count`]).
    pub fn len(&self) -> u64 {
        self.len
    }

    /// Whether the table has no position (never, for a real material).
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// The value and distance of the position with index `index`, if in
    /// range.
    pub fn get(&self, index: u64) -> Option<(Wdl, u32)> {
        if index >= self.len {
            return None;
        }
        let i = index as usize;
        let code = self.values[i / 4] >> (2 * (i % 4)) & 3;
        // Codes are checked when a table is read, so 3 never occurs.
        let wdl = Wdl::from_code(code).unwrap_or(Wdl::Draw);
        Some((wdl, self.distances.get(i)))
    }

    /// Wins, draws and losses for the side to move and the longest win,
    /// by the counting convention: an index stands for a position and its
    /// mirror image unless it is its own (see [`Material::index_count`]).
    pub fn stats(&self) -> Stats {
        let ix = Indexer::new(self.material);
        let mut s = Stats::default();
        for i in 0..self.len {
            let Some((wdl, d)) = self.get(i) else { break };
            let weight = ix.weight(i);
            s.positions += weight;
            match wdl {
                Wdl::Win => {
                    s.wins += weight;
                    if s.longest_win_index.is_none() || d > s.longest_win {
                        s.longest_win = d;
                        s.longest_win_index = Some(i);
                    }
                }
                Wdl::Draw => s.draws += weight,
                Wdl::Loss => s.losses += weight,
            }
        }
        s
    }
}
