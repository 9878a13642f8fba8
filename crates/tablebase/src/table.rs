//! [`Table`]: the values and distances of one material of any game, and
//! [`Wdl`].

use std::fmt;

use qi_core::{Outcome, Side};

use crate::game::TableGame;

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

    /// The value of a finished game (`outcome`) for `side`: every game's
    /// tables and probes read a finished game through this one rule.
    pub fn of_outcome(outcome: Outcome, side: Side) -> Wdl {
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

/// The solved positions of one material under one rule set: for each slot
/// (the game's [`TableGame::slot`] of a position), the value for the side
/// to move and the distance in plies to the end of the game (0 for a
/// position already over; a draw has distance 0).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Table<G: TableGame> {
    pub(crate) material: G::Material,
    pub(crate) rules: G::Rules,
    pub(crate) index: G::Index,
    /// Two bits per position, four positions a byte, lowest bits first.
    pub(crate) values: Vec<u8>,
    pub(crate) distances: Distances,
    pub(crate) len: u64,
}

impl<G: TableGame> Table<G> {
    /// A table from its index and, slot by slot, its values and distances
    /// (what a game's [`TableGame::solve`] returns).
    pub fn new(
        material: G::Material,
        rules: G::Rules,
        index: impl Into<G::Index>,
        values: &[Wdl],
        distances: Vec<u16>,
    ) -> Table<G> {
        Table {
            material,
            rules,
            index: index.into(),
            values: crate::container::pack_values(values),
            distances: Distances::from_u16(distances),
            len: values.len() as u64,
        }
    }

    /// The material.
    pub fn material(&self) -> G::Material {
        self.material
    }

    /// The rules the table was generated under.
    pub fn rules(&self) -> &G::Rules {
        &self.rules
    }

    /// What finds a position's slot beyond its material.
    pub fn index(&self) -> &G::Index {
        &self.index
    }

    /// The number of slots (positions stored, one per symmetry class).
    pub fn len(&self) -> u64 {
        self.len
    }

    /// Whether the table has no slot (never, for a real material).
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// The value and distance of slot `slot`, if in range.
    pub fn at(&self, slot: u64) -> Option<(Wdl, u32)> {
        if slot >= self.len {
            return None;
        }
        let i = slot as usize;
        let code = self.values[i / 4] >> (2 * (i % 4)) & 3;
        // Code 3 marks a slot no position uses (only a blocked table has
        // them; a keyed file with one is refused when read).
        let wdl = Wdl::from_code(code)?;
        Some((wdl, self.distances.get(i)))
    }

    /// The value and distance of `pos` for its side to move, if it has a
    /// slot in this table.
    pub fn get(&self, pos: &G) -> Option<(Wdl, u32)> {
        G::slot(self.material, &self.index, pos).and_then(|i| self.at(i))
    }

    /// The statistics by the game's counting convention.
    pub fn stats(&self) -> G::Stats {
        G::stats(self)
    }
}
