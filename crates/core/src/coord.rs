//! Board coordinates in algebraic form (`a1`).

use std::fmt;

use crate::error::ParseCoordError;
use crate::geometry::Geometry;

/// A file and rank, both 0-based; written `a1` for (0, 0).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Coord {
    /// 0-based file (`a` = 0).
    pub file: u8,
    /// 0-based rank (`1` = 0).
    pub rank: u8,
}

impl Coord {
    /// A coordinate from a 0-based file and rank.
    pub const fn new(file: u8, rank: u8) -> Coord {
        Coord { file, rank }
    }

    /// Parses `a1`-style text on a board of the given geometry. The file is
    /// one lower-case letter, the rank a decimal number starting at 1.
    pub fn parse(text: &str, geometry: &Geometry) -> Result<Coord, ParseCoordError> {
        let mut chars = text.chars();
        let file_char = chars.next().ok_or(ParseCoordError::Empty)?;
        if !file_char.is_ascii_lowercase() {
            return Err(ParseCoordError::BadFile(file_char));
        }
        let file = file_char as u8 - b'a';
        if file >= geometry.width() {
            return Err(ParseCoordError::FileOffBoard(file_char));
        }
        let rank_text = chars.as_str();
        if rank_text.is_empty() {
            return Err(ParseCoordError::MissingRank);
        }
        if let Some(bad) = rank_text.chars().find(|c| !c.is_ascii_digit()) {
            return Err(ParseCoordError::BadRank(bad));
        }
        let rank: u32 = rank_text
            .parse()
            .map_err(|_| ParseCoordError::RankOffBoard(rank_text.to_string()))?;
        if rank == 0 || rank > geometry.height() as u32 || rank_text.starts_with('0') {
            return Err(ParseCoordError::RankOffBoard(rank_text.to_string()));
        }
        Ok(Coord::new(file, rank as u8 - 1))
    }

    /// The square index of this coordinate on `geometry`, if on the board.
    pub const fn index(self, geometry: &Geometry) -> Option<u8> {
        geometry.index(self.file, self.rank)
    }
}

impl fmt::Display for Coord {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", (b'a' + self.file) as char, self.rank + 1)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const G: Geometry = Geometry::new(7, 9);

    #[test]
    fn parses_and_prints() {
        for sq in 0..G.squares() {
            let c = G.coord(sq);
            let text = c.to_string();
            assert_eq!(Coord::parse(&text, &G), Ok(c));
            assert_eq!(c.index(&G), Some(sq));
        }
        assert_eq!(Coord::parse("a1", &G).unwrap().to_string(), "a1");
        assert_eq!(Coord::parse("g9", &G).unwrap(), Coord::new(6, 8));
    }

    #[test]
    fn rejects_bad_text() {
        assert_eq!(Coord::parse("", &G), Err(ParseCoordError::Empty));
        assert_eq!(
            Coord::parse("h1", &G),
            Err(ParseCoordError::FileOffBoard('h'))
        );
        assert_eq!(Coord::parse("A1", &G), Err(ParseCoordError::BadFile('A')));
        assert_eq!(Coord::parse("a", &G), Err(ParseCoordError::MissingRank));
        assert_eq!(
            Coord::parse("a0", &G),
            Err(ParseCoordError::RankOffBoard("0".into()))
        );
        assert_eq!(
            Coord::parse("a10", &G),
            Err(ParseCoordError::RankOffBoard("10".into()))
        );
        assert_eq!(
            Coord::parse("a01", &G),
            Err(ParseCoordError::RankOffBoard("01".into()))
        );
        assert_eq!(Coord::parse("ax", &G), Err(ParseCoordError::BadRank('x')));
        assert!(Coord::parse("a99999999999999999999", &G).is_err());
    }
}
