//! The checksum of the data and network files: the bytes read as
//! little-endian 64-bit words (the last padded with zeros), word `k`
//! multiplied by `2k + 1`, all summed with wrap-around. Any change of one
//! word changes it (odd factors are invertible modulo 2^64), so do two
//! records swapped, and NumPy computes it over a whole file in one
//! vectorised expression, which a byte-serial hash such as FNV is not.

/// A running checksum over bytes fed in any split.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Checksum {
    sum: u64,
    /// The index of the next whole word.
    word: u64,
    /// Bytes of an unfinished word.
    pending: [u8; 8],
    pending_len: usize,
}

impl Checksum {
    pub(crate) const fn new() -> Checksum {
        Checksum {
            sum: 0,
            word: 0,
            pending: [0; 8],
            pending_len: 0,
        }
    }

    fn add_word(&mut self, bytes: [u8; 8]) {
        let factor = self.word.wrapping_mul(2).wrapping_add(1);
        self.sum = self
            .sum
            .wrapping_add(u64::from_le_bytes(bytes).wrapping_mul(factor));
        self.word += 1;
    }

    pub(crate) fn update(&mut self, mut bytes: &[u8]) {
        while !bytes.is_empty() {
            let take = (8 - self.pending_len).min(bytes.len());
            self.pending[self.pending_len..self.pending_len + take].copy_from_slice(&bytes[..take]);
            self.pending_len += take;
            bytes = &bytes[take..];
            if self.pending_len == 8 {
                self.add_word(self.pending);
                self.pending = [0; 8];
                self.pending_len = 0;
            }
        }
    }

    /// The checksum of everything fed so far (a partial last word padded
    /// with zeros).
    pub(crate) fn value(&self) -> u64 {
        let mut last = *self;
        if last.pending_len > 0 {
            last.add_word(last.pending);
        }
        last.sum
    }
}

#[cfg(test)]
mod tests {
    use super::Checksum;

    fn of(bytes: &[u8]) -> u64 {
        let mut c = Checksum::new();
        c.update(bytes);
        c.value()
    }

    #[test]
    fn splits_do_not_matter_and_changes_show() {
        let bytes: Vec<u8> = (0..=255u8).cycle().take(1003).collect();
        let whole = of(&bytes);
        let mut parts = Checksum::new();
        for chunk in bytes.chunks(7) {
            parts.update(chunk);
        }
        assert_eq!(parts.value(), whole);
        // Word 0 is 0x0706050403020100, factor 1; word 1 factor 3.
        assert_eq!(
            of(&bytes[..16]),
            0x0706_0504_0302_0100u64.wrapping_add(0x0f0e_0d0c_0b0a_0908u64.wrapping_mul(3))
        );
        let mut changed = bytes.clone();
        changed[500] ^= 1;
        assert_ne!(of(&changed), whole);
        let mut swapped = bytes.clone();
        swapped.swap(0, 8);
        assert_ne!(of(&swapped), whole);
    }
}
