//! FNV-1a 64 over a file's bytes: the tests' own hash of table files,
//! written apart from the library so that a pinned hash checks the
//! library rather than repeating it.

/// FNV-1a 64 of `bytes`.
pub fn fnv1a(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xcbf2_9ce4_8422_2325, |h, &b| {
        (h ^ u64::from(b)).wrapping_mul(0x0000_0100_0000_01b3)
    })
}
