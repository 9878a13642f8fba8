//! The values of positions and how tables code them: [`Wdl`], its 2-bit
//! code ([`UNUSED`] for a slot no position uses), the packing of codes
//! four a byte, the one rule for the width of distances (one byte each
//! while the longest fits, two past it) and the one coding of distances
//! as file bytes (one byte, or two little-endian). A leaf: it imports
//! nothing of the crate.

use std::fmt;

use qi_core::{Outcome, Side};

/// The 2-bit code of a slot no position uses (in a table's values and in
/// [`crate::retrograde::SliceValues::codes`]); 0, 1 and 2 code a loss, a
/// draw and a win.
pub const UNUSED: u8 = 3;

/// The longest distance one byte a distance holds: a table whose
/// longest distance is past it stores two bytes a distance.
pub(crate) const ONE_BYTE_LONGEST: u32 = u8::MAX as u32;

/// Whether a table whose longest distance is `longest` stores one byte
/// a distance (else two).
#[inline]
pub(crate) const fn fits_one_byte(longest: u32) -> bool {
    longest <= ONE_BYTE_LONGEST
}

/// The 2-bit code of slot `i` of packed `values` (four a byte, lowest
/// bits first).
#[inline]
pub(crate) fn code_at(values: &[u8], i: usize) -> u8 {
    values[i / 4] >> (2 * (i % 4)) & 3
}

/// Sets the code of slot `i` of packed `values`, whose bits there are 0.
#[inline]
pub(crate) fn set_code(values: &mut [u8], i: usize, code: u8) {
    values[i / 4] |= code << (2 * (i % 4));
}

/// The value and distance of slot `i` of a block's packed `values` and
/// its distance bytes `dist`, `width` bytes each (one, or two
/// little-endian); `None` for a slot no position uses.
#[inline]
pub(crate) fn value_at(values: &[u8], dist: &[u8], width: u8, i: usize) -> Option<(Wdl, u32)> {
    let wdl = Wdl::from_code(code_at(values, i))?;
    if width == 1 {
        Some((wdl, u32::from(dist[i])))
    } else {
        Some((
            wdl,
            u32::from(u16::from_le_bytes([dist[2 * i], dist[2 * i + 1]])),
        ))
    }
}

/// `dist` as file bytes into `bytes`: one byte each or two
/// (little-endian), as `bytes` has room for; a distance one byte cannot
/// hold is given back, not cut short.
pub(crate) fn encode_distances(dist: &[u16], bytes: &mut [u8]) -> Result<(), u16> {
    if bytes.len() == dist.len() {
        for (b, &d) in bytes.iter_mut().zip(dist) {
            *b = u8::try_from(d).map_err(|_| d)?;
        }
    } else {
        for (b, &d) in bytes.chunks_exact_mut(2).zip(dist) {
            b.copy_from_slice(&d.to_le_bytes());
        }
    }
    Ok(())
}

/// The file bytes `bytes` as `out.len()` distances of one byte each or
/// two, as `bytes` holds.
pub(crate) fn decode_distances(bytes: &[u8], out: &mut [u16]) {
    if bytes.len() == out.len() {
        for (d, &b) in out.iter_mut().zip(bytes) {
            *d = u16::from(b);
        }
    } else {
        for (d, b) in out.iter_mut().zip(bytes.chunks_exact(2)) {
            *d = u16::from_le_bytes([b[0], b[1]]);
        }
    }
}

/// The value byte of up to four consecutive slots' codes, the first in
/// the lowest bits (as [`set_code`] and [`code_at`] place them).
fn value_byte(codes: impl Iterator<Item = u8>) -> u8 {
    codes
        .enumerate()
        .fold(0, |byte, (k, c)| byte | c << (2 * k))
}

/// Sets each byte `j` of `out` to `byte(j)`, on `threads` threads, in
/// parts of at least `least` bytes.
fn fill(out: &mut [u8], threads: usize, least: usize, byte: impl Fn(usize) -> u8 + Sync) {
    let per = out.len().div_ceil(threads.max(1)).max(least).max(1);
    let filled = crate::threads::in_order(out.chunks_mut(per).enumerate(), threads, |(k, part)| {
        for (j, b) in part.iter_mut().enumerate() {
            *b = byte(k * per + j);
        }
        Ok::<_, std::convert::Infallible>(())
    });
    let Ok(_) = filled;
}

/// The codes `code(0)`, …, `code(len - 1)` packed four a byte, lowest
/// bits first, on `threads` threads.
pub(crate) fn pack_codes(len: usize, threads: usize, code: impl Fn(usize) -> u8 + Sync) -> Vec<u8> {
    let mut values = vec![0u8; len.div_ceil(4)];
    fill(&mut values, threads, 1, |j| {
        value_byte((4 * j..len.min(4 * j + 4)).map(&code))
    });
    values
}

/// [`pack_codes`] of `code(bytes[i])` into the first quarter of `bytes`
/// itself, all that is kept: no second array beside the bytes, a quarter
/// less memory at the peak. Once bytes `0..p` are packed into `0..p/4`,
/// nothing reads `p/4..p` any more, so bytes `p..4p` pack into it, on
/// `threads` threads.
pub(crate) fn pack_in_place(
    mut bytes: Vec<u8>,
    threads: usize,
    code: impl Fn(u8) -> u8 + Sync,
) -> Vec<u8> {
    let len = bytes.len();
    let quad = |q: &[u8]| value_byte(q.iter().map(|&b| code(b)));
    // Bytes 0..4 are read before byte 0 is written.
    let mut done = len.min(4);
    if len > 0 {
        bytes[0] = quad(&bytes[..done]);
    }
    while done < len {
        let next = len.min(4 * done);
        let (packed, rest) = bytes.split_at_mut(done);
        let from = &rest[..next - done];
        let out = &mut packed[done / 4..next.div_ceil(4)];
        fill(out, threads, 1 << 14, |j| {
            quad(&from[4 * j..from.len().min(4 * j + 4)])
        });
        done = next;
    }
    bytes.truncate(len.div_ceil(4));
    bytes.shrink_to_fit();
    bytes
}

/// The value of a position for the side to move; the values order
/// from worst to best.
///
/// ```
/// use qi_tablebase::Wdl;
///
/// assert!(Wdl::Loss < Wdl::Draw && Wdl::Draw < Wdl::Win);
/// assert_eq!([Wdl::Loss, Wdl::Win].iter().max(), Some(&Wdl::Win));
/// assert_eq!(Wdl::Win.to_string(), "win");
/// ```
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
    /// The 2-bit code of the file format: 0 loss, 1 draw, 2 win
    /// ([`UNUSED`] is no value).
    pub(crate) const fn code(self) -> u8 {
        match self {
            Wdl::Loss => 0,
            Wdl::Draw => 1,
            Wdl::Win => 2,
        }
    }

    /// The value of a 2-bit code, `None` for [`UNUSED`].
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
    ///
    /// ```
    /// use qi_games::base::{DrawReason, Outcome, Side, WinReason};
    /// use qi_tablebase::Wdl;
    ///
    /// let first_wins = Outcome::win(Side::First, WinReason::NoPieces);
    /// assert_eq!(Wdl::of_outcome(first_wins, Side::First), Wdl::Win);
    /// assert_eq!(Wdl::of_outcome(first_wins, Side::Second), Wdl::Loss);
    /// let drawn = Outcome::Draw(DrawReason::Repetition);
    /// assert_eq!(Wdl::of_outcome(drawn, Side::Second), Wdl::Draw);
    /// ```
    pub fn of_outcome(outcome: Outcome, side: Side) -> Wdl {
        match outcome.winner() {
            Some(w) if w == side => Wdl::Win,
            Some(_) => Wdl::Loss,
            None => Wdl::Draw,
        }
    }

    /// The value for the other side.
    ///
    /// ```
    /// use qi_tablebase::Wdl;
    ///
    /// assert_eq!(Wdl::Win.flip(), Wdl::Loss);
    /// assert_eq!(Wdl::Draw.flip(), Wdl::Draw);
    /// ```
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
    /// How many distances.
    pub(crate) fn len(&self) -> usize {
        match self {
            Distances::U8(d) => d.len(),
            Distances::U16(d) => d.len(),
        }
    }

    /// The narrowest form of `d`.
    pub(crate) fn from_u16(d: Vec<u16>) -> Distances {
        if d.iter().all(|&x| fits_one_byte(u32::from(x))) {
            Distances::U8(d.into_iter().map(|x| x as u8).collect())
        } else {
            Distances::U16(d)
        }
    }

    /// The narrowest form of the distances `d` yields (walked twice).
    pub(crate) fn narrowest(d: impl Iterator<Item = u16> + Clone) -> Distances {
        if d.clone().all(|x| fits_one_byte(u32::from(x))) {
            Distances::U8(d.map(|x| x as u8).collect())
        } else {
            Distances::U16(d.collect())
        }
    }

    pub(crate) fn get(&self, i: usize) -> u32 {
        match self {
            Distances::U8(v) => u32::from(v[i]),
            Distances::U16(v) => u32::from(v[i]),
        }
    }

    /// No distances yet, room for `n` of `width` bytes each, or the
    /// allocator's refusal.
    pub(crate) fn with_capacity(
        width: u8,
        n: usize,
    ) -> Result<Distances, std::collections::TryReserveError> {
        Ok(if width == 1 {
            let mut v = Vec::new();
            v.try_reserve_exact(n)?;
            Distances::U8(v)
        } else {
            let mut v = Vec::new();
            v.try_reserve_exact(n)?;
            Distances::U16(v)
        })
    }

    /// The distances of the file bytes `bytes` (this table's width each)
    /// appended.
    pub(crate) fn extend_from_bytes(&mut self, bytes: &[u8]) {
        match self {
            Distances::U8(v) => v.extend_from_slice(bytes),
            Distances::U16(v) => v.extend(
                bytes
                    .chunks_exact(2)
                    .map(|b| u16::from_le_bytes([b[0], b[1]])),
            ),
        }
    }

    /// Distances `first..` as file bytes, as many as fill `out`.
    pub(crate) fn write_bytes(&self, first: usize, out: &mut [u8]) {
        match self {
            Distances::U8(v) => out.copy_from_slice(&v[first..first + out.len()]),
            Distances::U16(v) => {
                // Two bytes each: the narrowing never refuses.
                let _ = encode_distances(&v[first..first + out.len() / 2], out);
            }
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

#[cfg(test)]
mod tests;
