use proptest::prelude::*;

use super::*;

/// A state byte's code, as a table's packing reads one.
fn code(byte: u8) -> u8 {
    byte % 4
}

/// The packing of the reference: code `i` set alone into zeroed bytes.
fn reference(bytes: &[u8]) -> Vec<u8> {
    let mut values = vec![0u8; bytes.len().div_ceil(4)];
    for (i, &b) in bytes.iter().enumerate() {
        set_code(&mut values, i, code(b));
    }
    values
}

proptest! {
    #[test]
    fn packing_in_place_is_the_packing(bytes in prop::collection::vec(any::<u8>(), 0..200), threads in 1usize..4) {
        let expected = reference(&bytes);
        prop_assert_eq!(&pack_codes(bytes.len(), threads, |i| code(bytes[i])), &expected);
        prop_assert_eq!(&pack_in_place(bytes, threads, code), &expected);
    }
}

#[test]
fn packing_in_place_on_threads_is_the_packing() {
    // Past a part of 2^16 bytes: the later rounds split among threads.
    let bytes: Vec<u8> = (0..1_000_003u32)
        .map(|i| (i.wrapping_mul(2_654_435_761) >> 13) as u8)
        .collect();
    let expected = reference(&bytes);
    for threads in [1, 2, 3] {
        let packed = pack_in_place(bytes.clone(), threads, code);
        assert_eq!(packed.len(), bytes.len().div_ceil(4));
        assert!(packed == expected, "{threads} threads");
        assert_eq!(
            pack_codes(bytes.len(), threads, |i| code(bytes[i])),
            expected
        );
    }
}
