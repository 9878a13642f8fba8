//! The learned Jungle evaluation: the committed network against the float
//! model it was quantised from, the incremental accumulator against a
//! fresh sum, and the refusal of damaged network and data files.

use std::io::Cursor;

use proptest::prelude::*;
use qi_core::{Evaluator, Game as _, Position as _, Side};
use qi_engine::jungle::nnue::data::{read_samples, DataError, DataWriter, GameResult, Sample};
use qi_engine::jungle::nnue::{
    embedded, evaluate_fresh, evaluate_with, profile_network, Accumulator, Network, NetworkError,
    EMBEDDED_BYTES, HYBRID_NETWORK_SHARE, PROFILE_TEMPO,
};
use qi_engine::jungle::JungleEval;
use qi_engine::{EvalProfile, GameKit, JungleKit};
use qi_jungle::{Animal, Game, Jungle, Piece, Rules, Setup, Square};

/// The float model's evaluations the trainer exported with the committed
/// network (`--fixture`).
const REFERENCE: &str = include_str!("../data/nnue_reference.txt");

/// How far the integer network may be from the float model, in units of
/// its output (a logit; centi-units are this times the network's scale):
/// rounding the weights to 1/255 and 1/512 moves it by about 0.01
/// (docs/nnue.md gives the trainer's measured figures).
const TOLERANCE: f64 = 0.03;

fn position(squares: &[u8; 16], side: u8) -> Jungle {
    let mut setup = Setup::empty();
    for (i, &sq) in squares.iter().enumerate() {
        if sq == 63 {
            continue;
        }
        let owner = if i < 8 { Side::First } else { Side::Second };
        let animal = Animal::from_index(i % 8).expect("eight animals");
        setup.board[Square::new(sq).expect("on the board").index() as usize] =
            Some(Piece::new(owner, animal));
    }
    setup.side_to_move = if side == 0 { Side::First } else { Side::Second };
    Jungle::from_setup_lenient(setup, Rules::standard()).expect("a position of the data")
}

#[test]
fn quantised_network_matches_the_float_model() {
    let net = embedded().expect("the committed network reads");
    let tolerance = TOLERANCE * f64::from(net.scale());
    let mut checked = 0;
    for line in REFERENCE.lines().filter(|l| !l.starts_with('#')) {
        let mut fields = line.split_whitespace();
        let squares: Vec<u8> = fields
            .next()
            .unwrap()
            .split(',')
            .map(|s| s.parse().unwrap())
            .collect();
        let side: u8 = fields.next().unwrap().parse().unwrap();
        let float: f64 = fields.next().unwrap().parse().unwrap();
        let pos = position(&squares.try_into().unwrap(), side);
        let quantised = f64::from(evaluate_fresh(&net, &pos));
        assert!(
            (quantised - float).abs() <= tolerance,
            "{pos}: quantised {quantised}, float {float}"
        );
        checked += 1;
    }
    assert!(checked >= 32, "only {checked} reference positions");
}

#[test]
fn the_nnue_profile_evaluates_with_the_network() {
    let eval = JungleKit::eval(EvalProfile::Nnue);
    let net = eval
        .network()
        .expect("the nnue profile has a network")
        .clone();
    let pos = Jungle::from_text(
        "l5t/1d3c1/r1p1w1e/7/7/E6/2W1P1R/1C3D1/T5L b 1 1",
        Rules::standard(),
    )
    .unwrap();
    assert_eq!(eval.evaluate(&pos), evaluate_fresh(&net, &pos));
    assert!(std::sync::Arc::ptr_eq(&net, &profile_network().unwrap()));
    assert!(JungleKit::eval(EvalProfile::Hand).network().is_none());
    assert_eq!("nnue".parse::<EvalProfile>(), Ok(EvalProfile::Nnue));
    // Colour-flipped mirror: the same evaluation (both perspectives share
    // the weights, Blue's seeing the board turned).
    let start = Jungle::new(Rules::standard());
    let mirror = {
        let mut setup = Setup::empty();
        for sq in Square::all() {
            if let Some(p) = start.piece_at(sq) {
                let turned = Square::new(62 - sq.index()).unwrap();
                setup.board[turned.index() as usize] =
                    Some(Piece::new(p.side.opponent(), p.animal));
            }
        }
        setup.side_to_move = Side::Second;
        Jungle::from_setup_lenient(setup, Rules::standard()).unwrap()
    };
    assert_eq!(evaluate_fresh(&net, &start), evaluate_fresh(&net, &mirror));
}

/// The same board with the other side to move.
fn other_side_to_move(pos: &Jungle) -> Jungle {
    let mut setup = pos.to_setup();
    setup.side_to_move = setup.side_to_move.opponent();
    Jungle::from_setup_lenient(setup, *pos.rules()).expect("the same board")
}

/// Positions of the built-in openings and a few plies after each (the
/// first legal moves: any board will do).
fn sample_positions() -> Vec<Jungle> {
    let start = Jungle::new(Rules::standard());
    let mut out = Vec::new();
    for o in qi_engine::arena::builtin_openings::<JungleKit>(&start).unwrap() {
        let mut pos = o;
        for ply in 0..6 {
            out.push(pos);
            let moves = pos.legal_moves();
            let Some(&mv) = moves.get(ply % moves.len().max(1)) else {
                break;
            };
            pos.play_unchecked(mv);
        }
    }
    out
}

#[test]
fn the_nnue_profile_gives_the_side_to_move_a_constant_term() {
    let profile = JungleKit::eval(EvalProfile::Nnue);
    let raw = JungleEval::default().with_network(embedded().unwrap());
    let (mut checked, mut raw_off) = (0, 0);
    for pos in sample_positions() {
        let other = other_side_to_move(&pos);
        let sum = profile.evaluate(&pos) + profile.evaluate(&other);
        // Each evaluation truncates once: at most one unit off each.
        assert!(
            (sum - 2 * PROFILE_TEMPO).abs() <= 2,
            "{pos}: {sum} for the two sides to move"
        );
        let raw_sum = raw.evaluate(&pos) + raw.evaluate(&other);
        if (raw_sum - 2 * PROFILE_TEMPO).abs() > 10 {
            raw_off += 1;
        }
        // What it keeps of the network: the difference of the two sides'
        // values (half of it, rounded).
        let half = (raw.evaluate(&pos) - raw.evaluate(&other)) / 2;
        assert!(
            (profile.evaluate(&pos) - PROFILE_TEMPO - half).abs() <= 2,
            "{pos}"
        );
        checked += 1;
    }
    assert!(checked >= 200, "{checked} positions");
    // The network as trained has a term of its own, varying by board.
    assert!(raw_off * 4 >= checked, "{raw_off} of {checked} boards");
}

/// The `hybrid` profile: half the `nnue` profile's value and half the
/// hand-written one's, except where the hand-written evaluation finds a
/// den race decided (its value kept whole, which a half would hide).
#[test]
fn the_hybrid_profile_mixes_the_network_and_the_hand_written_evaluation() {
    let hybrid = JungleKit::eval(EvalProfile::Hybrid);
    let nnue = JungleKit::eval(EvalProfile::Nnue);
    let hand = JungleKit::eval(EvalProfile::Hand);
    assert_eq!(hybrid.network_share(), HYBRID_NETWORK_SHARE);
    assert_eq!(HYBRID_NETWORK_SHARE, 50);
    assert!(std::sync::Arc::ptr_eq(
        hybrid.network().unwrap(),
        &profile_network().unwrap()
    ));
    assert_eq!("hybrid".parse::<EvalProfile>(), Ok(EvalProfile::Hybrid));
    let mut differ = 0;
    let positions = sample_positions();
    for pos in &positions {
        let (n, h) = (nnue.evaluate(pos), hand.evaluate(pos));
        assert_eq!(hybrid.evaluate(pos), (n + h) / 2, "{pos}");
        differ += usize::from(hybrid.evaluate(pos) != n && hybrid.evaluate(pos) != h);
    }
    assert!(
        differ * 2 > positions.len(),
        "{differ} of {}",
        positions.len()
    );
    // Red's Rat next to Blue's den with Red to move: a den race won.
    let race = Jungle::from_text(
        "l1R3t/1d3c1/r1p1w1e/7/7/E6/2W1P2/1C3D1/T5L w 10 6",
        Rules::standard(),
    )
    .unwrap();
    let decided = hand.den_race(&race).expect("a decided den race");
    assert_eq!(hybrid.evaluate(&race), decided);
    assert_eq!(hand.evaluate(&race), decided);
}

/// `default` is each game's strongest evaluation: Jungle's hybrid (it
/// beat the hand-written evaluation, docs/nnue.md), Five Tigers' hand-written
/// one (it has no network).
#[test]
fn the_default_profile_is_the_hybrid_in_jungle_and_the_hand_written_one_in_five_tigers() {
    let default = JungleKit::eval(EvalProfile::Default);
    let hybrid = JungleKit::eval(EvalProfile::Hybrid);
    let hand = JungleKit::eval(EvalProfile::Hand);
    assert_eq!(default.network_share(), HYBRID_NETWORK_SHARE);
    let positions = sample_positions();
    let mut differ = 0;
    for pos in &positions {
        assert_eq!(default.evaluate(pos), hybrid.evaluate(pos), "{pos}");
        differ += usize::from(default.evaluate(pos) != hand.evaluate(pos));
    }
    assert!(
        differ * 2 > positions.len(),
        "{differ} of {}",
        positions.len()
    );
    assert_eq!(EvalProfile::default(), EvalProfile::Default);
    assert_eq!("hand".parse::<EvalProfile>(), Ok(EvalProfile::Hand));

    use qi_engine::FiveTigersKit;
    let ft = qi_five_tigers::FiveTigers::default();
    assert_eq!(
        FiveTigersKit::eval(EvalProfile::Default).evaluate(&ft),
        FiveTigersKit::eval(EvalProfile::Hand).evaluate(&ft)
    );
    assert!(FiveTigersKit::PROFILES.contains(&EvalProfile::Hand));
    assert!(!FiveTigersKit::PROFILES.contains(&EvalProfile::Hybrid));
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    /// After any sequence of moves played and taken back, the accumulator
    /// kept from one evaluation to the next holds the sums of a fresh
    /// refresh, so the evaluations agree.
    #[test]
    fn incremental_accumulator_equals_a_refresh(steps in proptest::collection::vec((any::<u16>(), 0u8..4), 1..120)) {
        let net = embedded().unwrap();
        let mut game = Game::new(Jungle::new(Rules::standard()));
        let mut acc = Accumulator::default();
        for (choice, action) in steps {
            let moves = game.legal_moves();
            if action == 0 || moves.is_empty() || game.outcome().is_some() {
                game.undo();
            } else {
                game.play_unchecked(moves[usize::from(choice) % moves.len()]);
            }
            let pos = *game.position();
            let incremental = evaluate_with(&net, &mut acc, &pos);
            let mut fresh = Accumulator::default();
            fresh.refresh(&net, &pos);
            prop_assert_eq!(acc.sums(), fresh.sums());
            prop_assert_eq!(incremental, evaluate_fresh(&net, &pos));
        }
    }
}

/// The committed network as the trainer wrote it before version 2: 16 bits
/// a weight.
const NETWORK_V1: &[u8] = include_bytes!("../data/jungle-v1.nnue");

#[test]
fn the_network_reads_alike_from_either_file_version() {
    let v1 = Network::from_bytes(NETWORK_V1).expect("version 1 is read");
    let v2 = embedded().unwrap();
    assert_eq!(NETWORK_V1[8], 1);
    assert_eq!(EMBEDDED_BYTES[8], 2);
    // Half the bytes: nearly every first-layer weight fits in one.
    assert!(EMBEDDED_BYTES.len() * 19 < NETWORK_V1.len() * 10);
    // Weight for weight, scale and output alike.
    assert_eq!(v1, *v2);
    assert_eq!(v1.with_tempo(PROFILE_TEMPO), *profile_network().unwrap());
    for pos in sample_positions() {
        assert_eq!(
            evaluate_fresh(&v1, &pos),
            evaluate_fresh(&v2, &pos),
            "{pos}"
        );
    }
    // A version 1 file is refused as it always was when damaged.
    let mut flipped = NETWORK_V1.to_vec();
    flipped[1000] ^= 0x10;
    assert!(matches!(
        Network::from_bytes(&flipped),
        Err(NetworkError::Checksum { .. })
    ));
    let cut = Network::from_bytes(&NETWORK_V1[..NETWORK_V1.len() - 2]);
    assert!(
        matches!(cut, Err(NetworkError::Length { expected, .. }) if expected == NETWORK_V1.len()),
        "{cut:?}"
    );
}

#[test]
fn damaged_network_files_are_refused() {
    assert!(Network::from_bytes(EMBEDDED_BYTES).is_ok());
    let cut = Network::from_bytes(&EMBEDDED_BYTES[..EMBEDDED_BYTES.len() - 1]);
    assert!(matches!(cut, Err(NetworkError::Length { .. })), "{cut:?}");
    let mut flipped = EMBEDDED_BYTES.to_vec();
    flipped[1000] ^= 0x10;
    let damaged = Network::from_bytes(&flipped);
    assert!(
        matches!(damaged, Err(NetworkError::Checksum { .. })),
        "{damaged:?}"
    );
    let mut magic = EMBEDDED_BYTES.to_vec();
    magic[0] = b'X';
    assert!(matches!(
        Network::from_bytes(&magic),
        Err(NetworkError::BadMagic(_))
    ));
    let mut version = EMBEDDED_BYTES.to_vec();
    version[8] = 9;
    assert!(matches!(
        Network::from_bytes(&version),
        Err(NetworkError::Version { found: 9 })
    ));
    let mut hidden = EMBEDDED_BYTES.to_vec();
    hidden[16] = 0;
    assert!(matches!(
        Network::from_bytes(&hidden),
        Err(NetworkError::Shape { hidden: 0, .. })
    ));
    // A file longer than any network is refused before it is read.
    let long = std::env::temp_dir().join(format!("qi-long-network-{}.nnue", std::process::id()));
    std::fs::File::create(&long)
        .unwrap()
        .set_len(1 << 30)
        .unwrap();
    let refused = Network::from_file(&long);
    std::fs::remove_file(&long).unwrap();
    assert!(
        matches!(
            refused,
            Err(NetworkError::TooLong {
                found: 1_073_741_824
            })
        ),
        "{refused:?}"
    );
    let missing = std::env::temp_dir().join("qi-no-such-network.nnue");
    let error = Network::from_file(&missing).unwrap_err();
    assert!(matches!(error, NetworkError::Io { .. }));
    assert!(
        error.to_string().contains("qi-no-such-network.nnue"),
        "{error}"
    );
}

fn sample(side: u8) -> Sample {
    let start = Jungle::new(Rules::standard());
    Sample {
        squares: [
            start.animal_squares(Side::First),
            start.animal_squares(Side::Second),
        ],
        side,
        result: GameResult::Win,
        flags: 0,
        score: -35,
        ply: 7,
    }
}

fn file(samples: &[Sample]) -> Vec<u8> {
    let mut writer = DataWriter::new(Cursor::new(Vec::new())).unwrap();
    for s in samples {
        writer.push(s).unwrap();
    }
    writer.finish().unwrap().into_inner()
}

#[test]
fn data_files_read_back_and_damage_is_refused() {
    let samples = [sample(0), sample(1), sample(0)];
    let bytes = file(&samples);
    assert_eq!(bytes.len(), 32 + 3 * 24);
    assert_eq!(read_samples(&bytes[..]).unwrap(), samples);

    let mut damaged = bytes.clone();
    damaged[40] ^= 1;
    assert!(matches!(
        read_samples(&damaged[..]),
        Err(DataError::Checksum { .. })
    ));
    assert!(matches!(
        read_samples(&bytes[..50]),
        Err(DataError::Length { .. })
    ));
    assert!(matches!(
        read_samples(&bytes[..10]),
        Err(DataError::Length { .. })
    ));
    let mut magic = bytes.clone();
    magic[3] = 0;
    assert!(matches!(
        read_samples(&magic[..]),
        Err(DataError::BadMagic(_))
    ));
    let mut version = bytes.clone();
    version[8] = 2;
    assert!(matches!(
        read_samples(&version[..]),
        Err(DataError::Version { found: 2 })
    ));
    // A record with a good checksum but an impossible field.
    let bad = file(&[sample(0), sample(2)]);
    assert!(matches!(
        read_samples(&bad[..]),
        Err(DataError::BadRecord { index: 1, .. })
    ));
    let mut twice = sample(0);
    twice.squares[1][0] = twice.squares[0][0];
    assert!(matches!(
        read_samples(&file(&[twice])[..]),
        Err(DataError::BadRecord { index: 0, .. })
    ));
}
