//! Every error a page may show, one example of each variant: each
//! serialises as `{code, fields}` with a code of its own, and the list of
//! codes with their examples is the file the page's translations are
//! checked against (`crates/wasm/js/test/error-codes.json`, by the wasm
//! package's Node tests). A variant added to one of these errors fails to
//! compile here (the matches are exhaustive) until it has an example.
//! `QI_BLESS=1 cargo test -p qi-play --test suite error_codes` rewrites
//! the file.

use std::collections::{BTreeMap, BTreeSet};
use std::fmt::Display;

use qi_core::{ParseCoordError, Refusal, Side};
use qi_engine::record::{ParseError, ParseErrorKind, TagError};
use qi_five_tigers as ft;
use qi_jungle as jungle;
use qi_play::error_data::{ErrorData, Field};
use qi_play::reason::TreeRefusal;
use serde::Serialize;
use serde_json::{json, Value};

/// The examples: each error's `{code, fields, message}`, and for each
/// enum the variants the examples cover (by their arm in its match).
struct Examples {
    all: Vec<Value>,
    covered: BTreeMap<&'static str, BTreeSet<usize>>,
}

impl Examples {
    fn add<E: Serialize + Display>(&mut self, name: &'static str, arm: fn(&E) -> usize, e: E) {
        self.covered.entry(name).or_default().insert(arm(&e));
        let mut value = serde_json::to_value(&e).unwrap();
        value["message"] = Value::String(e.to_string());
        self.all.push(value);
    }
}

fn coord(e: &ParseCoordError) -> usize {
    use ParseCoordError::*;
    match e {
        Empty => 0,
        BadFile(_) => 1,
        FileOffBoard(_) => 2,
        MissingRank => 3,
        BadRank(_) => 4,
        RankOffBoard(_) => 5,
    }
}

fn refusal(e: &Refusal) -> usize {
    use Refusal::*;
    match e {
        GameOver { .. } => 0,
        NotLegal => 1,
        AntiChase { .. } => 2,
        RemoveOnly { .. } => 3,
        Owed { .. } => 4,
        NoRemovalOwed => 5,
        Occupied => 6,
        PlacementOver => 7,
        StepInPlacement => 8,
        Shuttle => 9,
        NotAStep { .. } => 10,
    }
}

fn jfen(e: &jungle::JfenError) -> usize {
    use jungle::JfenError::*;
    match e {
        Empty => 0,
        RankCount(_) => 1,
        RankWidth { .. } => 2,
        UnknownPiece { .. } => 3,
        BadDigit { .. } => 4,
        DuplicatePiece(_) => 5,
        MissingSide => 6,
        BadSide(_) => 7,
        BadCounter { .. } => 8,
        ExtraField(_) => 9,
        RulesMismatch { .. } => 10,
        Setup(_) => 11,
        Impossible(_) => 12,
    }
}

fn jungle_setup(e: &jungle::SetupError) -> usize {
    use jungle::SetupError::*;
    match e {
        DuplicatePiece { .. } => 0,
        AnimalInWater { .. } => 1,
        OwnDen { .. } => 2,
        BothDensEntered => 3,
        ZeroFullmove => 4,
        Impossible(_) => 5,
    }
}

fn impossible(e: &jungle::ImpossiblePosition) -> usize {
    use jungle::ImpossiblePosition::*;
    match e {
        EmptyBoard => 0,
        MoverInEnemyDen { .. } => 1,
        LastMoverWithoutAnimals { .. } => 2,
        CountersContradict { .. } => 3,
    }
}

fn jungle_move(e: &jungle::ParseMoveError) -> usize {
    use jungle::ParseMoveError::*;
    match e {
        BadLength(_) => 0,
        BadFrom { .. } => 1,
        BadTo { .. } => 2,
        SameSquare(_) => 3,
    }
}

fn jungle_rules(e: &jungle::ParseRulesError) -> usize {
    use jungle::ParseRulesError::*;
    match e {
        UnknownPreset(_) => 0,
        UnknownOption(_) => 1,
        MissingValue(_) => 2,
        BadValue { .. } => 3,
        Renamed { .. } => 4,
    }
}

fn ft_setup(e: &ft::SetupError) -> usize {
    use ft::SetupError::*;
    match e {
        OwedTwiceInARow { .. } => 0,
        LastStepNotAdjacent { .. } => 1,
        HandTooLarge { .. } => 2,
        TooManyPieces { .. } => 3,
        NoPieces => 4,
        PlacementWithEmptyHands => 5,
        PlacementOnFullBoard => 6,
        NextHandEmpty { .. } => 7,
        QuietPliesInPlacement { .. } => 8,
        StepInPlacement => 9,
        HandsInMovement { .. } => 10,
        OwedAfterLoss => 11,
        OwedFromEmptyBoard { .. } => 12,
        WrongSideToMove { .. } => 13,
        PlacedOutOfTurn { .. } => 14,
        NextOutOfTurn { .. } => 15,
        OwedInDeferredPlacement => 16,
        RemovedInDeferredPlacement { .. } => 17,
        TwoOwedInPlacement => 18,
        OwedNotToLastPlacer { .. } => 19,
        OwedWithoutFormation { .. } => 20,
        UnpaidFormations { .. } => 21,
        RemovedBeforeFormation { .. } => 22,
        FullBoardNothingOwed => 23,
        OwedNotFromPlacement { .. } => 24,
        StepsOutOfTurn => 25,
        LastStepOffBoard { .. } => 26,
        QuietWithoutSteps { .. } => 27,
        OwedNotFromStep { .. } => 28,
    }
}

fn ft_text(e: &ft::PositionTextError) -> usize {
    use ft::PositionTextError::*;
    match e {
        FieldCount(_) => 0,
        RulesMismatch { .. } => 1,
        BadChar { .. } => 2,
        Invalid { .. } => 3,
        Rules(_) => 4,
        Setup(_) => 5,
    }
}

fn ft_field(e: &ft::FieldError) -> usize {
    use ft::FieldError::*;
    match e {
        RankCount(_) => 0,
        DigitsInARow { .. } => 1,
        RankTooLong { .. } => 2,
        RankWidth { .. } => 3,
        Empty => 4,
        MissingNumber => 5,
        LeadingZero(_) => 6,
        TooLarge { .. } => 7,
        HandsForm => 8,
        HandsFirst => 9,
        HandsSecond => 10,
        HandTooLarge { .. } => 11,
        EmptyEntry => 12,
        ZeroEntry => 13,
        TooManyEntries => 14,
        EntriesInARow => 15,
        BadEntries => 16,
        StepsForm => 17,
        NotAStep(_) => 18,
        BadPoint { .. } => 19,
        NotAdjacent { .. } => 20,
        NoStep => 21,
        BadPhase(_) => 22,
    }
}

fn record_text(e: &ParseErrorKind) -> usize {
    use ParseErrorKind::*;
    match e {
        UnterminatedTag => 0,
        BadTag(_) => 1,
        DuplicateTag(_) => 2,
        TagAfterMoves => 3,
        BadResult(_) => 4,
        UnterminatedComment => 5,
        UnbalancedBrace => 6,
        MisplacedComment => 7,
        MisplacedVariation => 8,
        UnterminatedVariation => 9,
        UnbalancedParenthesis => 10,
        EmptyVariation => 11,
        VariationTooDeep => 12,
        BadMove(_) => 13,
        ResultMismatch { .. } => 14,
        TrailingText => 15,
        Empty => 16,
    }
}

fn record_tag(e: &TagError) -> usize {
    use TagError::*;
    match e {
        NoName => 0,
        Unquoted => 1,
        BadEscape => 2,
        Unclosed => 3,
    }
}

fn tree(e: &TreeRefusal) -> usize {
    match e {
        TreeRefusal::TooDeep { .. } => 0,
        TreeRefusal::NoSuchMove => 1,
    }
}

fn ft_rules(e: &ft::RulesError) -> usize {
    use ft::RulesError::*;
    match e {
        UnknownPreset { .. } => 0,
        BadSyntax { .. } => 1,
        UnknownOption { .. } => 2,
        BadValue { .. } => 3,
    }
}

fn ft_move(e: &ft::ParseMoveError) -> usize {
    use ft::ParseMoveError::*;
    match e {
        Empty => 0,
        Point(_) => 1,
        NotAdjacent { .. } => 2,
    }
}

/// The number of arms of each match above.
const ARMS: [(&str, usize); 15] = [
    ("coord", 6),
    ("refusal", 11),
    ("jfen", 13),
    ("jungle-setup", 6),
    ("impossible", 4),
    ("jungle-move", 4),
    ("jungle-rules", 5),
    ("ft-setup", 29),
    ("ft-text", 6),
    ("ft-rules", 4),
    ("ft-move", 3),
    ("ft-field", 23),
    ("record-text", 17),
    ("record-tag", 4),
    ("tree", 2),
];

fn examples() -> Examples {
    let mut x = Examples {
        all: Vec::new(),
        covered: BTreeMap::new(),
    };
    let sq = |s: &str| s.parse::<jungle::Square>().unwrap();
    let pt = |s: &str| s.parse::<ft::Point>().unwrap();
    let lion = jungle::Piece::new(Side::First, jungle::Animal::Lion);
    let step = ft::LastStep {
        from: pt("c3"),
        to: pt("c5"),
    };

    for e in [
        ParseCoordError::Empty,
        ParseCoordError::BadFile('Z'),
        ParseCoordError::FileOffBoard('z'),
        ParseCoordError::MissingRank,
        ParseCoordError::BadRank('x'),
        ParseCoordError::RankOffBoard("10".into()),
    ] {
        x.add("coord", coord, e);
    }
    for e in [
        Refusal::GameOver {
            outcome: "first wins (den entered)".into(),
        },
        Refusal::NotLegal,
        Refusal::AntiChase { rule: "7-3" },
        Refusal::RemoveOnly {
            side: Side::First,
            own: false,
        },
        Refusal::Owed {
            side: Side::Second,
            count: 2,
        },
        Refusal::NoRemovalOwed,
        Refusal::Occupied,
        Refusal::PlacementOver,
        Refusal::StepInPlacement,
        Refusal::Shuttle,
        Refusal::NotAStep { side: Side::First },
    ] {
        x.add("refusal", refusal, e);
    }

    use jungle::{ImpossiblePosition as I, JfenError as J, SetupError as S};
    for e in [
        J::Empty,
        J::RankCount(8),
        J::RankWidth {
            rank: 3,
            squares: 8,
        },
        J::UnknownPiece {
            letter: 'x',
            rank: 9,
        },
        J::BadDigit {
            digit: '9',
            rank: 1,
        },
        J::DuplicatePiece(lion),
        J::MissingSide,
        J::BadSide("q".into()),
        J::BadCounter {
            field: "full-move",
            text: "x".into(),
        },
        J::ExtraField("z".into()),
        J::RulesMismatch {
            text: jungle::Rules::yeshou(),
            given: jungle::Rules::standard(),
        },
        J::Setup(S::BothDensEntered),
        J::Impossible(I::EmptyBoard),
    ] {
        x.add("jfen", jfen, e);
    }
    for e in [
        S::DuplicatePiece {
            piece: lion,
            first: sq("a1"),
            second: sq("g9"),
        },
        S::AnimalInWater {
            piece: lion,
            square: sq("b4"),
        },
        S::OwnDen {
            piece: lion,
            square: sq("d1"),
        },
        S::BothDensEntered,
        S::ZeroFullmove,
        S::Impossible(I::EmptyBoard),
    ] {
        x.add("jungle-setup", jungle_setup, e);
    }
    for e in [
        I::EmptyBoard,
        I::MoverInEnemyDen {
            piece: lion,
            square: sq("d9"),
        },
        I::LastMoverWithoutAnimals { side: Side::Second },
        I::CountersContradict {
            no_capture_plies: 9,
            plies: 4,
        },
    ] {
        x.add("impossible", impossible, e);
    }
    for e in [
        jungle::ParseMoveError::BadLength("a3".into()),
        jungle::ParseMoveError::BadFrom {
            text: "z3a4".into(),
            error: ParseCoordError::FileOffBoard('z'),
        },
        jungle::ParseMoveError::BadTo {
            text: "a3a0".into(),
            error: ParseCoordError::RankOffBoard("0".into()),
        },
        jungle::ParseMoveError::SameSquare("a3a3".into()),
    ] {
        x.add("jungle-move", jungle_move, e);
    }
    for e in [
        jungle::Rules::preset("nosuch").unwrap_err().into(),
        "standard,bogus=1".parse::<jungle::Rules>().unwrap_err(),
        "standard,anti_chase".parse::<jungle::Rules>().unwrap_err(),
        "standard,anti_chase=maybe"
            .parse::<jungle::Rules>()
            .unwrap_err(),
        jungle::ParseRulesError::Renamed {
            option: "repetition",
            value: "lose".into(),
            new_name: "initiator_loses",
        },
    ] {
        x.add("jungle-rules", jungle_rules, e);
    }

    use ft::SetupError as F;
    for e in [
        F::OwedTwiceInARow { side: Side::First },
        F::LastStepNotAdjacent {
            side: Side::First,
            step,
        },
        F::HandTooLarge {
            side: Side::First,
            hand: 14,
            max: 13,
        },
        F::TooManyPieces {
            side: Side::Second,
            max: 13,
        },
        F::NoPieces,
        F::PlacementWithEmptyHands,
        F::PlacementOnFullBoard,
        F::NextHandEmpty { next: Side::Second },
        F::QuietPliesInPlacement { plies: 3 },
        F::StepInPlacement,
        F::HandsInMovement { hands: [1, 0] },
        F::OwedAfterLoss,
        F::OwedFromEmptyBoard {
            victim: Side::Second,
        },
        F::WrongSideToMove {
            found: Side::Second,
            expected: Side::First,
        },
        F::PlacedOutOfTurn { placed: [3, 5] },
        F::NextOutOfTurn {
            found: Side::Second,
            expected: Side::First,
        },
        F::OwedInDeferredPlacement,
        F::RemovedInDeferredPlacement {
            side: Side::First,
            lost: 1,
        },
        F::TwoOwedInPlacement,
        F::OwedNotToLastPlacer { taker: Side::First },
        F::OwedWithoutFormation {
            taker: Side::First,
            count: 3,
        },
        F::UnpaidFormations {
            side: Side::First,
            held: 2,
            owed: 1,
        },
        F::RemovedBeforeFormation { side: Side::Second },
        F::FullBoardNothingOwed,
        F::OwedNotFromPlacement {
            owed: ft::Owed::from_entries(&[(Side::First, 3)]).unwrap(),
            capture: ft::PlacementCapture::Deferred,
        },
        F::StepsOutOfTurn,
        F::LastStepOffBoard {
            side: Side::Second,
            step,
        },
        F::QuietWithoutSteps { plies: 2 },
        F::OwedNotFromStep {
            side: Side::First,
            step,
            value: 1,
        },
    ] {
        x.add("ft-setup", ft_setup, e);
    }
    for e in [
        ft::PositionTextError::FieldCount(7),
        ft::PositionTextError::RulesMismatch {
            text: ft::Rules::preset("shandong").unwrap(),
            given: ft::Rules::preset("ten").unwrap(),
        },
        ft::PositionTextError::BadChar {
            field: ft::Field::ToMove,
            ch: 'q',
        },
        ft::PositionTextError::Invalid {
            field: ft::Field::Quiet,
            reason: ft::FieldError::LeadingZero("01".into()),
        },
        ft::PositionTextError::Rules(ft::Rules::preset("nosuch").unwrap_err()),
        ft::PositionTextError::Setup(F::NoPieces),
    ] {
        x.add("ft-text", ft_text, e);
    }
    for e in [
        ft::Rules::preset("nosuch").unwrap_err(),
        "ten,shuttle".parse::<ft::Rules>().unwrap_err(),
        "ten,bogus=1".parse::<ft::Rules>().unwrap_err(),
        "ten,pieces_per_side=99".parse::<ft::Rules>().unwrap_err(),
    ] {
        x.add("ft-rules", ft_rules, e);
    }
    for e in [
        ft::ParseMoveError::Empty,
        ft::ParseMoveError::Point(ParseCoordError::FileOffBoard('z')),
        ft::ParseMoveError::NotAdjacent {
            from: pt("a1"),
            to: pt("c3"),
        },
    ] {
        x.add("ft-move", ft_move, e);
    }
    use ft::FieldError as T;
    for e in [
        T::RankCount(4),
        T::DigitsInARow { rank: 2 },
        T::RankTooLong { rank: 5 },
        T::RankWidth { rank: 1, points: 4 },
        T::Empty,
        T::MissingNumber,
        T::LeadingZero("01".into()),
        T::TooLarge {
            text: "70000".into(),
            max: 65535,
        },
        T::HandsForm,
        T::HandsFirst,
        T::HandsSecond,
        T::HandTooLarge {
            side: Side::First,
            hand: "300".into(),
            max: 13,
        },
        T::EmptyEntry,
        T::ZeroEntry,
        T::TooManyEntries,
        T::EntriesInARow,
        T::BadEntries,
        T::StepsForm,
        T::NotAStep("c3".into()),
        T::BadPoint {
            text: "z9".into(),
            error: ParseCoordError::FileOffBoard('z'),
        },
        T::NotAdjacent {
            from: pt("a1"),
            to: pt("c3"),
        },
        T::NoStep,
        T::BadPhase("plac".into()),
    ] {
        x.add("ft-field", ft_field, e);
    }
    use ParseErrorKind as R;
    for e in [
        R::UnterminatedTag,
        R::BadTag(TagError::Unquoted),
        R::DuplicateTag("Game".into()),
        R::TagAfterMoves,
        R::BadResult("2-0".into()),
        R::UnterminatedComment,
        R::UnbalancedBrace,
        R::MisplacedComment,
        R::MisplacedVariation,
        R::UnterminatedVariation,
        R::UnbalancedParenthesis,
        R::EmptyVariation,
        R::VariationTooDeep,
        R::BadMove("a3@".into()),
        R::ResultMismatch {
            token: "0-1".into(),
            tag: "1-0".into(),
        },
        R::TrailingText,
        R::Empty,
    ] {
        x.add("record-text", record_text, e);
    }
    for e in [
        TagError::NoName,
        TagError::Unquoted,
        TagError::BadEscape,
        TagError::Unclosed,
    ] {
        x.add("record-tag", record_tag, e);
    }
    for e in [TreeRefusal::TooDeep { max: 64 }, TreeRefusal::NoSuchMove] {
        x.add("tree", tree, e);
    }
    // A record's text read: where, and what is wrong there.
    let e: ParseError = "[Game \"jungle\"]\n\n1. a3a4 {x *\n"
        .parse::<qi_engine::record::Record>()
        .unwrap_err();
    let mut value = serde_json::to_value(&e).unwrap();
    value["message"] = Value::String(e.to_string());
    x.all.push(value);
    // The codes qi-play gives a record's reasons and a game spec's: each
    // wraps the library's error of the tag or move.
    for record in [
        "[Game \"chess\"]\n\n*\n",
        "[Game \"jungle\"]\n[Start \"bad\"]\n\n*\n",
        "[Game \"jungle\"]\n\n1. a3a4 zz *\n",
        "[Game \"jungle\"]\n\n1. a3a4 a3a9 *\n",
        "[Result \"*\"]\n\n1. a3a4 *\n",
        "[Game \"jungle\"]\n[Start \"6l/7/3R3/7/7/7/7/7/6L w 0 1\"]\n[Result \"0-1\"]\n\nd7d8 g9f9 d8d9 0-1\n",
        "[Game \"jungle\"]\n\n1. a3a4 (a3a9) *\n",
    ] {
        let e = ErrorData::from(&qi_play::game::load_record(record).err().unwrap());
        let (Field::Cause(cause), Field::Text(reason)) = (&e.fields["cause"], &e.fields["reason"])
        else {
            panic!("{e:?}")
        };
        let mut cause = cause.clone();
        cause["message"] = Value::String(reason.clone());
        x.all.push(cause);
    }
    let e = qi_play::game::new_game("chess", None).err().unwrap();
    let qi_play::game::GameError::Spec(spec) = e else {
        panic!("{e}")
    };
    let reason = qi_play::reason::Reason::of_spec(&spec);
    let mut cause = reason.cause.unwrap();
    cause["message"] = Value::String(reason.message);
    x.all.push(cause);
    x
}

#[test]
fn every_variant_has_an_example_with_a_code_of_its_own() {
    let x = examples();
    for (name, arms) in ARMS {
        let covered = x.covered.get(name).map_or(0, BTreeSet::len);
        assert_eq!(
            covered, arms,
            "{name}: {covered} of {arms} variants have an example"
        );
    }
    let mut codes = BTreeMap::new();
    for example in &x.all {
        let code = example["code"].as_str().expect("a code");
        assert!(
            code.split_once('.')
                .is_some_and(|(a, b)| !a.is_empty() && !b.is_empty()),
            "{code}: not family.name"
        );
        if let Some(first) = codes.insert(code.to_string(), example.clone()) {
            // Untagged wrappers give their inner error's code.
            assert_eq!(first, *example, "two variants with the code {code}");
        }
    }
    let file =
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../wasm/js/test/error-codes.json");
    let text = serde_json::to_string_pretty(&codes.values().collect::<Vec<_>>()).unwrap() + "\n";
    if std::env::var_os("QI_BLESS").is_some() {
        std::fs::write(&file, &text).unwrap();
    }
    let stored = std::fs::read_to_string(&file).unwrap_or_default();
    assert!(
        stored == text,
        "{} is not the list of codes: rewrite it with QI_BLESS=1 cargo test -p qi-play --test suite error_codes, then give each new code its words in crates/web/assets/errors.js",
        file.display()
    );
}

#[test]
fn a_move_refused_by_the_rules_says_why_as_a_code() {
    let mut game = jungle::Game::new(jungle::Jungle::default());
    let e = qi_core::Game::play(&mut game, "a3a5".parse().unwrap()).unwrap_err();
    assert_eq!(
        serde_json::to_value(&e.reason).unwrap(),
        json!({"code": "refusal.not-legal"})
    );
    let mut game = ft::Game::new(ft::FiveTigers::default());
    qi_core::Game::play(&mut game, "c3".parse().unwrap()).unwrap();
    let e = qi_core::Game::play(&mut game, "c3".parse().unwrap()).unwrap_err();
    assert_eq!(e.reason, Refusal::Occupied);
    assert_eq!(e.to_string(), "illegal move c3: the point is not empty");
}
