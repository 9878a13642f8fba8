//! Unit tests of `five_tigers::key`.

use super::*;

#[test]
fn plain_keys_are_the_canonical_keys() {
    for (x, o) in [
        (0b111u32, 1 << 24 | 1 << 12),
        (1 << 12, 1 << 0 | 1 << 4),
        (0x1_0401, 0x40),
    ] {
        for stm in Side::BOTH {
            let s = State {
                boards: [x, o],
                stm,
                bans: [None, None],
                owed: 0,
                taker: Side::First,
            };
            assert_eq!(
                Some(plain_canonical_key([x, o], stm)),
                s.canonical().map(|c| c.0)
            );
        }
    }
}

#[test]
fn board_images_match_the_rules_crate() {
    for (s, sym) in Symmetry::ALL.into_iter().enumerate() {
        for b in [0x1u32, 0x155_5555, 0x1ff_ffff, 0x0f0_f0f1, 0x12_3456] {
            assert_eq!(map_board(s, b), sym.bitboard(Bitboard32(b)).0);
        }
    }
}

/// The bans of a side's 3 lowest pieces keep the keys they had (pinned),
/// and those of its 4th and 5th pieces set the high bits 62–63.
#[test]
fn bans_of_every_piece_have_keys_and_old_keys_are_unchanged() {
    let old = State {
        boards: [0b111, 1 << 24 | 1 << 12],
        stm: Side::Second,
        bans: [Some(Ban { at: 2, back: 7 }), Some(Ban { at: 12, back: 11 })],
        owed: 0,
        taker: Side::First,
    };
    // First: piece 2 (index 2) back up, code 9; Second: piece 12
    // (index 0) back left, code 4.
    let pinned = 0b111 | (1u64 << 24 | 1 << 12) << 25 | 1 << 50 | 9 << 51 | 4 << 55;
    assert_eq!(old.key(), Some(pinned));
    let five = State {
        boards: [0b1_1111, 1 << 24],
        stm: Side::First,
        // First's 5th piece (index 4) back up: code 17 = 0b1_0001;
        // Second's only piece back left: code 4.
        bans: [Some(Ban { at: 4, back: 9 }), Some(Ban { at: 24, back: 23 })],
        owed: 0,
        taker: Side::First,
    };
    let k = five.key().unwrap();
    assert_eq!((k >> 51) & 15, 1);
    assert_eq!((k >> 62) & 3, 1);
    assert_eq!(State::from_key(k), Some(five));
    let fourth = State {
        boards: [0b1_1111, 1 << 24],
        bans: [Some(Ban { at: 3, back: 8 }), None],
        ..five
    };
    let k = fourth.key().unwrap();
    assert_eq!(((k >> 51) & 15, k >> 62), (13, 0));
    assert_eq!(State::from_key(k), Some(fourth));
    assert!(five.canonical().is_some());
}

#[test]
fn keys_round_trip() {
    let s = State {
        boards: [0b111, 1 << 24 | 1 << 12],
        stm: Side::Second,
        bans: [Some(Ban { at: 2, back: 7 }), Some(Ban { at: 12, back: 11 })],
        owed: 2,
        taker: Side::First,
    };
    let k = s.key().unwrap();
    assert_eq!(State::from_key(k), Some(s));
    for i in 0..8 {
        let m = s.mapped(i);
        assert_eq!(State::from_key(m.key().unwrap()), Some(m));
        assert_eq!(m.canonical(), s.canonical());
    }
}
