//! The network file (docs/nnue.md, "Network file"): a header, the
//! quantised weights and a checksum, in either of two versions that differ
//! only in how the first layer is stored. Version 2, which the trainer
//! writes, keeps each first-layer weight in a byte and escapes the few
//! that do not fit; version 1 keeps them as 16 bits. Both read into the
//! same [`Layers`].

use super::checksum::Checksum;
use super::features::INPUTS;

/// The first eight bytes of a network file.
pub const MAGIC: [u8; 8] = *b"QINNUENT";
/// The network format version the trainer writes; this build reads it and
/// version 1.
pub const VERSION: u32 = 2;
/// Hidden units per perspective.
pub const HIDDEN: usize = 128;
/// The clipped ReLU's top (the float model's 1.0) and the scale of the
/// first layer's weights.
pub const QA: i32 = 255;
/// The scale of the output layer's weights.
pub const QB: i32 = 512;

/// A first-layer byte of version 2 that stands for the next escaped
/// weight (one outside `-127..=127`).
const ESCAPE: i8 = i8::MIN;
/// The header both versions share: magic, version, shape, scale, QA, QB.
const HEADER_LEN: usize = 32;
/// Version 2's header: the shared one and the number of escaped weights.
const HEADER_V2_LEN: usize = HEADER_LEN + 4;
const FIRST_LAYER: usize = INPUTS * HIDDEN;
/// What follows the first layer in both versions: `b1`, `w2`, `b2`, the
/// checksum.
const TAIL_LEN: usize = 2 * (HIDDEN + 2 * HIDDEN) + 4 + 8;
/// A version 1 file's length.
const V1_LEN: usize = HEADER_LEN + 2 * FIRST_LAYER + TAIL_LEN;
/// The longest file of any version: version 2 with every weight escaped.
pub(crate) const MAX_LEN: usize = HEADER_V2_LEN + 3 * FIRST_LAYER + TAIL_LEN;

/// Why a network file was refused.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum NetworkError {
    /// The file could not be read.
    #[error("network file {path}: {source}")]
    Io {
        /// The file.
        path: String,
        /// What went wrong.
        source: std::io::Error,
    },
    /// The file is not as long as its header says a network is.
    #[error("network file: {found} bytes, its header makes it {expected} bytes")]
    Length {
        /// The bytes present.
        found: usize,
        /// The bytes a network of this header has (the header's own
        /// length when the file is shorter than that).
        expected: usize,
    },
    /// The file is longer than a network of any version.
    #[error("network file: {found} bytes, longer than any network ({MAX_LEN} bytes)")]
    TooLong {
        /// The bytes present.
        found: u64,
    },
    /// The file does not start with [`MAGIC`].
    #[error("network file: not a qi network (bad magic {0:02x?})")]
    BadMagic([u8; 8]),
    /// The file is of a format version this build does not read.
    #[error("network file: version {found}, this build reads versions 1 to {VERSION}")]
    Version {
        /// The version the file says.
        found: u32,
    },
    /// The layers are not of the sizes this build computes with.
    #[error("network file: {inputs} inputs and {hidden} hidden units, this build has {INPUTS} and {HIDDEN}")]
    Shape {
        /// The inputs the file says.
        inputs: u32,
        /// The hidden units the file says.
        hidden: u32,
    },
    /// The quantisation scales are not this build's.
    #[error("network file: quantisation {qa}/{qb}, this build uses {QA}/{QB}")]
    Quantisation {
        /// The first layer's scale in the file.
        qa: i32,
        /// The output layer's scale in the file.
        qb: i32,
    },
    /// The output scale is not positive.
    #[error("network file: output scale {0} is not positive")]
    Scale(i32),
    /// The weights do not match the checksum.
    #[error("network file: checksum {found:016x}, the file says {expected:016x} (damaged)")]
    Checksum {
        /// The checksum in the file.
        expected: u64,
        /// The checksum of the bytes read.
        found: u64,
    },
    /// Version 2's first layer marks another number of escaped weights
    /// than its header announces.
    #[error("network file: {markers} escape markers in the first layer, the header announces {announced} escaped weights")]
    Escapes {
        /// The markers in the first layer.
        markers: usize,
        /// The escaped weights the header announces.
        announced: usize,
    },
    /// An escaped weight would have fitted in its byte: the file is not
    /// as the trainer writes it.
    #[error("network file: escaped first-layer weight {index} is {value}, which fits in a byte")]
    NeedlessEscape {
        /// The weight's place in the first layer (input-major).
        index: usize,
        /// Its value.
        value: i16,
    },
    /// A hidden unit's weights could overflow the 16-bit accumulator.
    #[error("network file: hidden unit {unit} can overflow the 16-bit accumulator")]
    Overflow {
        /// The unit.
        unit: usize,
    },
}

/// The weights and scale of a network file, read and checked against its
/// header and checksum, and with which no accumulator can overflow.
pub(crate) struct Layers {
    /// Output centi-units per unit of the float model's output.
    pub(crate) scale: i32,
    /// First layer, one row of `HIDDEN` weights per input.
    pub(crate) w1: Box<[[i16; HIDDEN]]>,
    pub(crate) b1: [i16; HIDDEN],
    /// Output weights: the side to move's half, then the other's.
    pub(crate) w2: [[i16; HIDDEN]; 2],
    pub(crate) b2: i32,
}

/// Little-endian readers over bytes whose length has been checked.
struct Cursor<'a>(&'a [u8]);

impl<'a> Cursor<'a> {
    fn bytes(&mut self, n: usize) -> &'a [u8] {
        let (head, rest) = self.0.split_at(n);
        self.0 = rest;
        head
    }
    fn take<const N: usize>(&mut self) -> [u8; N] {
        self.bytes(N).try_into().expect("N bytes")
    }
    fn u32(&mut self) -> u32 {
        u32::from_le_bytes(self.take())
    }
    fn i32(&mut self) -> i32 {
        i32::from_le_bytes(self.take())
    }
    fn i16(&mut self) -> i16 {
        i16::from_le_bytes(self.take())
    }
    fn i16s(&mut self, out: &mut [i16]) {
        for v in out {
            *v = self.i16();
        }
    }
}

/// `bytes` at least `len` long, or the error that says so.
fn at_least(bytes: &[u8], len: usize) -> Result<(), NetworkError> {
    if bytes.len() < len {
        return Err(NetworkError::Length {
            found: bytes.len(),
            expected: len,
        });
    }
    Ok(())
}

/// Reads the layers of a network file of either version.
pub(crate) fn read(bytes: &[u8]) -> Result<Layers, NetworkError> {
    at_least(bytes, HEADER_LEN)?;
    let mut c = Cursor(bytes);
    let magic: [u8; 8] = c.take();
    if magic != MAGIC {
        return Err(NetworkError::BadMagic(magic));
    }
    let version = c.u32();
    if !(1..=VERSION).contains(&version) {
        return Err(NetworkError::Version { found: version });
    }
    let (inputs, hidden) = (c.u32(), c.u32());
    if inputs as usize != INPUTS || hidden as usize != HIDDEN {
        return Err(NetworkError::Shape { inputs, hidden });
    }
    let scale = c.i32();
    let (qa, qb) = (c.i32(), c.i32());
    if (qa, qb) != (QA, QB) {
        return Err(NetworkError::Quantisation { qa, qb });
    }
    if scale <= 0 {
        return Err(NetworkError::Scale(scale));
    }
    let (escaped, expected) = if version == 1 {
        (0, V1_LEN as u64)
    } else {
        at_least(bytes, HEADER_V2_LEN)?;
        let announced = c.u32();
        let len = (HEADER_V2_LEN + FIRST_LAYER + TAIL_LEN) as u64 + 2 * u64::from(announced);
        (announced as usize, len)
    };
    if bytes.len() as u64 != expected {
        return Err(NetworkError::Length {
            found: bytes.len(),
            expected: usize::try_from(expected).unwrap_or(usize::MAX),
        });
    }
    let expected = bytes.len();
    let body = expected - 8;
    let mut sum = Checksum::new();
    sum.update(&bytes[..body]);
    let claimed = u64::from_le_bytes(bytes[body..].try_into().expect("8 bytes"));
    if sum.value() != claimed {
        return Err(NetworkError::Checksum {
            expected: claimed,
            found: sum.value(),
        });
    }
    let mut w1 = vec![[0i16; HIDDEN]; INPUTS].into_boxed_slice();
    if version == 1 {
        for row in w1.iter_mut() {
            c.i16s(row);
        }
    } else {
        let bytes = c.bytes(FIRST_LAYER);
        let mut escapes = Cursor(c.bytes(2 * escaped));
        read_escaped(bytes, &mut escapes, escaped, w1.as_flattened_mut())?;
    }
    let mut b1 = [0i16; HIDDEN];
    c.i16s(&mut b1);
    let mut w2 = [[0i16; HIDDEN]; 2];
    c.i16s(&mut w2[0]);
    c.i16s(&mut w2[1]);
    let b2 = c.i32();
    // At most 16 animals stand on the board: the bias and 16 rows, and
    // one more for the update that adds before it subtracts.
    for unit in 0..HIDDEN {
        let largest = w1
            .iter()
            .map(|r| i32::from(r[unit]).abs())
            .max()
            .unwrap_or(0);
        if i32::from(b1[unit]).abs() + 17 * largest > i32::from(i16::MAX) {
            return Err(NetworkError::Overflow { unit });
        }
    }
    Ok(Layers {
        scale,
        w1,
        b1,
        w2,
        b2,
    })
}

/// Version 2's first layer into `out`: each byte its weight, except
/// [`ESCAPE`], which takes the next of the `announced` 16-bit weights of
/// `escapes`.
fn read_escaped(
    bytes: &[u8],
    escapes: &mut Cursor<'_>,
    announced: usize,
    out: &mut [i16],
) -> Result<(), NetworkError> {
    let markers = bytes.iter().filter(|&&b| b as i8 == ESCAPE).count();
    if markers != announced {
        return Err(NetworkError::Escapes { markers, announced });
    }
    for (index, (w, &b)) in out.iter_mut().zip(bytes).enumerate() {
        *w = if b as i8 == ESCAPE {
            let value = escapes.i16();
            if (-127..=127).contains(&value) {
                return Err(NetworkError::NeedlessEscape { index, value });
            }
            value
        } else {
            i16::from(b as i8)
        };
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `bytes` with its checksum made right again.
    fn resealed(mut bytes: Vec<u8>) -> Vec<u8> {
        let body = bytes.len() - 8;
        let mut sum = Checksum::new();
        sum.update(&bytes[..body]);
        bytes[body..].copy_from_slice(&sum.value().to_le_bytes());
        bytes
    }

    fn embedded() -> Vec<u8> {
        super::super::EMBEDDED_BYTES.to_vec()
    }

    /// The place in the embedded file of its first escape marker, and of
    /// the weight that marker stands for.
    fn first_escape(bytes: &[u8]) -> (usize, usize) {
        let marker = HEADER_V2_LEN
            + bytes[HEADER_V2_LEN..]
                .iter()
                .position(|&b| b as i8 == ESCAPE)
                .expect("the embedded network escapes some weights");
        (marker, HEADER_V2_LEN + FIRST_LAYER)
    }

    #[test]
    fn the_embedded_network_is_version_2_and_escapes_few_weights() {
        let bytes = embedded();
        assert_eq!(u32::from_le_bytes(bytes[8..12].try_into().unwrap()), 2);
        let escaped = u32::from_le_bytes(bytes[32..36].try_into().unwrap()) as usize;
        assert!(escaped > 0 && escaped < FIRST_LAYER / 100, "{escaped}");
        assert!(read(&bytes).is_ok());
    }

    #[test]
    fn escapes_that_disagree_with_the_header_are_refused() {
        let good = embedded();
        let (marker, value) = first_escape(&good);
        // A marker turned into an ordinary weight: one escape too many.
        let mut bytes = good.clone();
        bytes[marker] = 5;
        let refused = read(&resealed(bytes)).err();
        assert!(
            matches!(refused, Some(NetworkError::Escapes { markers, announced }) if markers + 1 == announced),
            "{refused:?}"
        );
        // An escaped weight that fits in a byte.
        let mut bytes = good.clone();
        bytes[value..value + 2].copy_from_slice(&(-127i16).to_le_bytes());
        let refused = read(&resealed(bytes)).err();
        assert!(
            matches!(
                refused,
                Some(NetworkError::NeedlessEscape { index, value: -127 }) if index == marker - HEADER_V2_LEN
            ),
            "{refused:?}"
        );
        // A header announcing another count than the file's length holds.
        for announced in [u32::MAX, FIRST_LAYER as u32 + 1, 3] {
            let mut bytes = good.clone();
            bytes[32..36].copy_from_slice(&announced.to_le_bytes());
            let refused = read(&resealed(bytes)).err();
            assert!(
                matches!(refused, Some(NetworkError::Length { found, .. }) if found == good.len()),
                "{announced}: {refused:?}"
            );
        }
        // Cut inside either header.
        for len in [0, 20, 34] {
            let refused = read(&good[..len]).err();
            assert!(
                matches!(refused, Some(NetworkError::Length { found, .. }) if found == len),
                "{len}: {refused:?}"
            );
        }
        // Versions 0 and 3 are not read.
        for version in [0u32, 3] {
            let mut bytes = good.clone();
            bytes[8..12].copy_from_slice(&version.to_le_bytes());
            let refused = read(&resealed(bytes)).err();
            assert!(
                matches!(refused, Some(NetworkError::Version { found }) if found == version),
                "{refused:?}"
            );
        }
    }

    #[test]
    fn weights_that_could_overflow_the_accumulator_are_refused() {
        let good = embedded();
        // Hidden unit 3's bias at 32 000: with any row's weight of 46 or
        // more, 17 rows pass i16.
        let (_, escapes) = first_escape(&good);
        let escaped = u32::from_le_bytes(good[32..36].try_into().unwrap()) as usize;
        let at = escapes + 2 * escaped + 2 * 3;
        let mut bytes = good.clone();
        bytes[at..at + 2].copy_from_slice(&32_000i16.to_le_bytes());
        let refused = read(&resealed(bytes)).err();
        assert!(
            matches!(refused, Some(NetworkError::Overflow { unit: 3 })),
            "{refused:?}"
        );
    }

    #[test]
    fn another_scale_or_quantisation_is_refused() {
        let good = embedded();
        let mut scale = good.clone();
        scale[20..24].copy_from_slice(&0i32.to_le_bytes());
        assert!(matches!(
            read(&resealed(scale)).err(),
            Some(NetworkError::Scale(0))
        ));
        let mut qa = good;
        qa[24..28].copy_from_slice(&256i32.to_le_bytes());
        assert!(matches!(
            read(&resealed(qa)).err(),
            Some(NetworkError::Quantisation { qa: 256, .. })
        ));
    }
}
