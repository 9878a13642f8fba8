//! Game records: written text reads back to the same record and the same
//! game, for both games and every preset; faulty text is refused with the
//! place of the fault, never a panic.

use proptest::prelude::*;
use qi_core::testkit::{random_playout, Rng};
use qi_core::{Game, Position};
use qi_engine::record::{
    ParseErrorKind, Record, RecordMove, RecordResult, ReplayError, MAX_VARIATION_DEPTH,
};
use qi_engine::{FiveTigersKit, GameKit, Games, JungleKit};

/// A random game of kit `K` under `preset` from a random position reached
/// from the start (so that `Start` is exercised too), with comments on some
/// moves.
fn random_record<K: GameKit>(preset: &str, seed: u64, plies: usize) -> (Record, K::Game) {
    let rules = K::parse_rules(&format!("{}:{preset}", K::NAME)).unwrap();
    let mut rng = Rng::new(seed);
    let mut start = K::Position::new(rules);
    if seed.is_multiple_of(3) {
        let walked = random_playout(&start, (seed % 7) as usize, &mut rng);
        if !walked.is_game_over() {
            start = walked;
        }
    }
    let mut game = K::Game::new(start);
    for _ in 0..plies {
        if game.outcome().is_some() {
            break;
        }
        let moves = game.legal_moves();
        if moves.is_empty() {
            break;
        }
        game.play(moves[rng.below(moves.len())]).unwrap();
    }
    let mut record = Record::from_game::<K>(&game);
    for (i, mv) in record.moves.iter_mut().enumerate() {
        if rng.below(3) == 0 {
            mv.comment = Some(format!("score cp {} depth {}", i as i32 - 7, i % 13));
        }
    }
    record.set_tag("First", "qi engine --hash 16");
    record.set_tag("Second", "a \"quoted\" \\ name");
    (record, game)
}

fn check_round_trip<K: GameKit>(preset: &str, seed: u64, plies: usize) {
    let (record, game) = random_record::<K>(preset, seed, plies);
    let text = record.to_string();
    let read: Record = text.parse().unwrap_or_else(|e| panic!("{e}\n{text}"));
    assert_eq!(read, record, "{text}");
    assert_eq!(read.to_string(), text);
    let replayed = read.replay::<K>().unwrap_or_else(|e| panic!("{e}\n{text}"));
    assert_eq!(replayed.position(), game.position(), "{text}");
    assert_eq!(replayed.start(), game.start());
    assert_eq!(replayed.moves(), game.moves());
    assert_eq!(replayed.outcome(), game.outcome());
    assert_eq!(
        read.final_position::<Games>().unwrap(),
        game.position().to_string()
    );
}

#[test]
fn every_preset_of_both_games_round_trips_and_replays() {
    for (i, preset) in JungleKit::PRESETS.iter().enumerate() {
        for seed in 0..6 {
            check_round_trip::<JungleKit>(preset, seed * 11 + i as u64, 400);
        }
    }
    for (i, preset) in FiveTigersKit::PRESETS.iter().enumerate() {
        for seed in 0..6 {
            check_round_trip::<FiveTigersKit>(preset, seed * 11 + i as u64, 400);
        }
    }
}

#[test]
fn a_finished_game_records_its_result_and_reason() {
    let mut seed = 0;
    let (record, game) = loop {
        let (record, game) = random_record::<JungleKit>("standard", seed, 2000);
        if game.outcome().is_some() {
            break (record, game);
        }
        seed += 1;
    };
    let outcome = game.outcome().unwrap();
    assert_eq!(record.result(), RecordResult::of(Some(outcome)));
    assert_ne!(record.result(), RecordResult::Unfinished);
    assert!(record.tag("Termination").is_some());
    assert!(record
        .to_string()
        .trim_end()
        .ends_with(outcome.score_text()));
}

#[test]
fn hand_written_text_with_move_numbers_and_comments_reads() {
    let text = "[Event \"club night\"]\n[Game \"jungle:datou\"]\n[Start \"startpos\"]\n\
                [First \"Red\"]\n[Second \"Blue\"]\n\n\
                1. a3a4 {score cp 12\n depth 9} 1... g7g6 2. a4a5 *";
    let record: Record = text.parse().unwrap();
    assert_eq!(record.moves.len(), 3);
    assert_eq!(
        record.moves[0].comment.as_deref(),
        Some("score cp 12 depth 9")
    );
    assert_eq!(record.tag("Event"), Some("club night"));
    assert_eq!(record.result(), RecordResult::Unfinished);
    let game = record.replay::<JungleKit>().unwrap();
    assert_eq!(game.ply(), 3);
    let again: Record = record.to_string().parse().unwrap();
    assert_eq!(again, record);
}

#[test]
fn moves_without_a_result_token_read_as_an_unfinished_game() {
    // As PGN readers do: the token is missing, the game is `*`.
    let text = "[Game \"jungle:standard\"]\n\n1. a3a4 1... g7g6\n";
    let record: Record = text.parse().unwrap();
    assert_eq!(record.moves.len(), 2);
    assert_eq!(record.result(), RecordResult::Unfinished);
    let game = record.replay::<JungleKit>().unwrap();
    assert_eq!((game.ply(), game.outcome()), (2, None));
    // Written back, the record gains its token and reads the same.
    assert!(record.to_string().trim_end().ends_with("g7g6 *"));
    assert_eq!(record.to_string().parse::<Record>().unwrap(), record);
    // With a `Result` tag, the tag gives the result.
    let tagged: Record = "[Game \"jungle\"]\n[Result \"0-1\"]\n\na3a4"
        .parse()
        .unwrap();
    assert_eq!(tagged.result(), RecordResult::SecondWins);
    // A file whose last record lacks its token reads every record.
    let file = format!("{tagged}\n{text}");
    assert_eq!(Record::read_all(&file).unwrap(), vec![tagged, record]);
}

#[test]
fn a_resignation_replays_as_a_decided_game() {
    let text =
        "[Game \"jungle:standard\"]\n[Result \"0-1\"]\n[Termination \"resignation\"]\n\na3a4 0-1\n";
    let game = Record::replay::<JungleKit>(&text.parse().unwrap()).unwrap();
    assert_eq!(
        game.outcome().and_then(|o| o.winner()),
        Some(qi_core::Side::Second)
    );
}

#[test]
fn a_file_of_records_reads_as_a_list() {
    let one = random_record::<JungleKit>("datou", 1, 30).0;
    let two = random_record::<FiveTigersKit>("ten", 2, 30).0;
    let text = format!("{one}\n{two}\n");
    assert_eq!(Record::read_all(&text).unwrap(), vec![one, two]);
    assert_eq!(
        text.parse::<Record>().unwrap_err().kind,
        ParseErrorKind::TrailingText
    );
}

fn parse_error(text: &str) -> (usize, usize, ParseErrorKind) {
    let e = text.parse::<Record>().unwrap_err();
    (e.line, e.column, e.kind)
}

#[test]
fn malformed_text_names_line_and_column() {
    assert_eq!(
        parse_error("[Game \"jungle\"]\n[Event \"x\n\na3a4 *"),
        (2, 1, ParseErrorKind::UnterminatedTag)
    );
    assert_eq!(
        parse_error("[Game \"jungle\"]\n\na3a4 {score *"),
        (3, 6, ParseErrorKind::UnterminatedComment)
    );
    assert_eq!(
        parse_error("[Game \"jungle\"]\n\na3a4 score} *"),
        (3, 11, ParseErrorKind::UnbalancedBrace)
    );
    assert_eq!(
        parse_error("[Game \"jungle\"]\n\na3a4 {a {b}} *"),
        (3, 9, ParseErrorKind::UnbalancedBrace)
    );
    assert_eq!(
        parse_error("[Game \"jungle\"]\n\na3a4 b\"7 *"),
        (3, 6, ParseErrorKind::BadMove("b\"7".into()))
    );
    assert_eq!(
        parse_error("[Result \"1-0\"]\n\na3a4 0-1"),
        (
            3,
            6,
            ParseErrorKind::ResultMismatch {
                token: "0-1".into(),
                tag: "1-0".into()
            }
        )
    );
    assert_eq!(
        parse_error("[Result \"2-0\"]\n*").2,
        ParseErrorKind::BadResult("2-0".into())
    );
    assert_eq!(
        parse_error("{hello} a3a4 *").2,
        ParseErrorKind::MisplacedComment
    );
    assert_eq!(
        parse_error("a3a4 [Game \"x\"] *").2,
        ParseErrorKind::TagAfterMoves
    );
    assert_eq!(parse_error("   ").2, ParseErrorKind::Empty);
    assert!(matches!(
        parse_error("[Game jungle]\n*").2,
        ParseErrorKind::BadTag(_)
    ));
    let e = "[Game \"jungle\"]\n[Event \"x\n*"
        .parse::<Record>()
        .unwrap_err();
    assert_eq!(e.to_string(), "line 2, column 1: unterminated tag");
}

#[test]
fn faulty_moves_and_games_are_named_on_replay() {
    let record: Record = "[Game \"jungle:datou\"]\n\na3a4 zz9 *".parse().unwrap();
    assert!(matches!(
        record.replay::<JungleKit>(),
        Err(ReplayError::BadMove { number: 2, ref text, .. }) if text == "zz9"
    ));
    let record: Record = "[Game \"jungle:datou\"]\n\na3a4 a4a5 a1a7 *"
        .parse()
        .unwrap();
    let err = record.replay::<JungleKit>().unwrap_err();
    assert!(
        matches!(err, ReplayError::IllegalMove { number: 2, ref text, .. } if text == "a4a5"),
        "{err}"
    );
    assert!(err.to_string().starts_with("move 2 'a4a5' is illegal"));
    let record: Record = "[Game \"chess\"]\n\ne2e4 *".parse().unwrap();
    assert!(matches!(
        record.final_position::<Games>(),
        Err(ReplayError::Game(qi_engine::SpecError::UnknownGame { .. }))
    ));
    assert!(matches!(
        record.replay::<JungleKit>(),
        Err(ReplayError::Game(_))
    ));
    let record: Record = "[Game \"five-tigers:ten\"]\n\na3a4 *".parse().unwrap();
    assert!(record.replay::<JungleKit>().is_err());
    assert!(matches!(
        record.replay::<FiveTigersKit>(),
        Err(ReplayError::BadMove { number: 1, .. })
    ));
    let record: Record = "a3a4 *".parse().unwrap();
    assert_eq!(
        record.replay::<JungleKit>().unwrap_err(),
        ReplayError::MissingGame
    );
    let record: Record = "[Game \"jungle\"]\n[Start \"nonsense\"]\n\n*"
        .parse()
        .unwrap();
    assert!(matches!(
        record.replay::<JungleKit>(),
        Err(ReplayError::Start(_))
    ));
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    #[test]
    fn random_games_round_trip(seed in any::<u64>(), plies in 0usize..300, jungle in any::<bool>()) {
        if jungle {
            let preset = JungleKit::PRESETS[(seed % 4) as usize];
            check_round_trip::<JungleKit>(preset, seed, plies);
        } else {
            let preset = FiveTigersKit::PRESETS[(seed % 4) as usize];
            check_round_trip::<FiveTigersKit>(preset, seed, plies);
        }
    }

    #[test]
    fn records_with_variations_round_trip(seed in any::<u64>(), plies in 0usize..60, jungle in any::<bool>()) {
        let (mut record, game) = if jungle {
            let (record, game) = random_record::<JungleKit>("standard", seed, plies);
            (record, game.position().to_string())
        } else {
            let (record, game) = random_record::<FiveTigersKit>("ten", seed, plies);
            (record, game.position().to_string())
        };
        let mut rng = Rng::new(seed ^ 0x5eed);
        add_variations(&mut record.moves, &mut rng, 0);
        let text = record.to_string();
        let read: Record = text.parse().map_err(|e| TestCaseError::fail(format!("{e}\n{text}")))?;
        prop_assert_eq!(&read, &record, "{}", text);
        prop_assert_eq!(read.to_string(), text);
        // The main line replays as without the variations.
        prop_assert_eq!(read.final_position::<Games>().unwrap(), game);
    }

    #[test]
    fn mutated_text_never_panics(
        seed in any::<u64>(),
        edits in proptest::collection::vec((any::<usize>(), 0u8..4, any::<char>()), 1..6),
    ) {
        let (record, _) = random_record::<FiveTigersKit>("shandong", seed, 40);
        let mut chars: Vec<char> = record.to_string().chars().collect();
        let specials = ['[', ']', '{', '}', '"', '\\', '\n', ' ', 'x', '-', '*', '(', ')'];
        for (at, op, c) in edits {
            let at = at % (chars.len() + 1);
            let c = if op % 2 == 0 { specials[at % specials.len()] } else { c };
            match op {
                0 | 1 => chars.insert(at, c),
                2 if at < chars.len() => { chars.remove(at); }
                _ if at < chars.len() => chars[at] = c,
                _ => {}
            }
        }
        let text: String = chars.into_iter().collect();
        if let Ok(read) = text.parse::<Record>() {
            let again = read.to_string();
            prop_assert_eq!(again.parse::<Record>().unwrap(), read.clone());
            let _ = read.replay::<FiveTigersKit>();
            let _ = read.final_position::<Games>();
        } else {
            let e = text.parse::<Record>().unwrap_err();
            prop_assert!(e.line >= 1 && e.column >= 1);
        }
    }
}

/// Variations on some moves of `line`, each of a few made-up moves (the
/// reader does not check moves against the rules), some with comments and
/// variations of their own, up to three levels deep.
fn add_variations(line: &mut [RecordMove], rng: &mut Rng, depth: usize) {
    for mv in line.iter_mut() {
        while depth < 3 && rng.below(5) == 0 {
            let mut variation: Vec<RecordMove> = (0..1 + rng.below(4))
                .map(|i| RecordMove {
                    text: format!("{}{}", ["a3a4", "c3-c4", "xb2", "g7g6"][rng.below(4)], i),
                    comment: (rng.below(3) == 0).then(|| format!("idea {i}")),
                    variations: Vec::new(),
                })
                .collect();
            add_variations(&mut variation, rng, depth + 1);
            mv.variations.push(variation);
        }
    }
}

#[test]
fn variations_in_parentheses_read_as_a_tree() {
    let text = "[Game \"jungle:standard\"]\n\n\
                1. a3a4 (1. g3g4 {the other rook file} 1... g7g6 (1... a7a6) 2. g4g5) \
                1... g7g6 (1... a7a6) 2. a4a5 *";
    let record: Record = text.parse().unwrap();
    let texts = |line: &[RecordMove]| line.iter().map(|m| m.text.clone()).collect::<Vec<_>>();
    assert_eq!(texts(&record.moves), ["a3a4", "g7g6", "a4a5"]);
    let first = &record.moves[0].variations;
    assert_eq!(first.len(), 1);
    assert_eq!(texts(&first[0]), ["g3g4", "g7g6", "g4g5"]);
    assert_eq!(first[0][0].comment.as_deref(), Some("the other rook file"));
    assert_eq!(texts(&first[0][1].variations[0]), ["a7a6"]);
    assert_eq!(texts(&record.moves[1].variations[0]), ["a7a6"]);
    // Written as PGN writes it, and read back the same.
    let written = record.to_string();
    assert!(
        written.contains("a3a4 (g3g4 {the other rook file} g7g6 (a7a6) g4g5) g7g6 (a7a6) a4a5 *"),
        "{written}"
    );
    assert_eq!(written.parse::<Record>().unwrap(), record);
    // Replaying plays the main line.
    assert_eq!(record.replay::<JungleKit>().unwrap().ply(), 3);
    // docs/records.md's example: two variations of one move, after its
    // comment, written back as they were.
    let moves = "a3a4 {the main move} (g3g4 g7g6 (a7a6) g4g5) (c3d3) g7g6 a4a5 *";
    let record: Record = format!("[Game \"jungle:standard\"]\n\n{moves}\n")
        .parse()
        .unwrap();
    assert_eq!(record.moves[0].variations.len(), 2);
    assert_eq!(texts(&record.moves[0].variations[1]), ["c3d3"]);
    assert!(record.to_string().ends_with(&format!("\n\n{moves}\n")));
}

#[test]
fn faulty_variations_name_line_and_column() {
    assert_eq!(
        parse_error("[Game \"jungle\"]\n\n(a3a4) *"),
        (3, 1, ParseErrorKind::MisplacedVariation)
    );
    assert_eq!(
        parse_error("a3a4 ((a3a5) a4a5) *").2,
        ParseErrorKind::MisplacedVariation
    );
    assert_eq!(
        parse_error("a3a4 (a3a5 *").2,
        ParseErrorKind::UnterminatedVariation
    );
    assert_eq!(
        parse_error("a3a4 (a3a5").2,
        ParseErrorKind::UnterminatedVariation
    );
    assert_eq!(
        parse_error("a3a4 a4a5) *"),
        (1, 10, ParseErrorKind::UnbalancedParenthesis)
    );
    assert_eq!(
        parse_error("a3a4 ( ) *"),
        (1, 8, ParseErrorKind::EmptyVariation)
    );
    assert_eq!(
        parse_error("a3a4 ({why} a3a5) *").2,
        ParseErrorKind::MisplacedComment
    );
    // Nesting as deep as allowed reads; one more level is refused, and
    // text nested without end is refused without exhausting the stack.
    let nested = |depth: usize| {
        format!(
            "{}{} *",
            "a3a4 (".repeat(depth),
            "a3a4".to_string() + &")".repeat(depth)
        )
    };
    let read: Record = nested(MAX_VARIATION_DEPTH).parse().unwrap();
    assert_eq!(read.to_string().parse::<Record>().unwrap(), read);
    assert_eq!(
        parse_error(&nested(MAX_VARIATION_DEPTH + 1)).2,
        ParseErrorKind::VariationTooDeep
    );
    assert_eq!(
        parse_error(&"a3a4 (".repeat(200_000)).2,
        ParseErrorKind::VariationTooDeep
    );
}

/// The examples of docs/records.md read and replay.
#[test]
fn the_documented_examples_replay() {
    let doc = include_str!("../../../../docs/records.md");
    let examples: Vec<&str> = doc
        .split("```text\n")
        .skip(1)
        .map(|part| part.split("```").next().unwrap())
        .collect();
    assert_eq!(examples.len(), 2);
    for example in examples {
        let record: Record = example.parse().unwrap_or_else(|e| panic!("{e}\n{example}"));
        assert_eq!(record.to_string(), example);
        record.final_position::<Games>().unwrap();
    }
}

/// The record of `tags` tags (`[T0 "v"]` ...) and one move.
fn record_of_tags(tags: usize) -> String {
    let mut text = String::from("[Game \"jungle\"]\n");
    for i in 0..tags {
        text += &format!("[T{i} \"value {i}\"]\n");
    }
    text + "\na3a4 *\n"
}

/// The CPU time this thread has run, in seconds (Linux's schedstat: time
/// on a core, not on the wall clock, so that other processes of a loaded
/// machine do not count).
#[cfg(target_os = "linux")]
fn thread_cpu_time() -> f64 {
    let stat = std::fs::read_to_string("/proc/thread-self/schedstat").unwrap();
    let nanos: u64 = stat.split_whitespace().next().unwrap().parse().unwrap();
    nanos as f64 / 1e9
}

#[cfg(target_os = "linux")]
#[test]
fn tags_read_in_time_linear_in_their_number() {
    // 200 000 tags read in a fraction of a second when the duplicate check
    // is linear; the quadratic one took 52 s. The bound is the thread's
    // CPU time (not the wall clock, which a loaded machine stretches) and
    // sits far from both, so it neither flakes nor lets n² through.
    let text = record_of_tags(200_000);
    let start = thread_cpu_time();
    let record: Record = text.parse().unwrap();
    let spent = thread_cpu_time() - start;
    assert_eq!(record.moves.len(), 1);
    assert!(spent < 8.0, "200 000 tags took {spent:.2} s of CPU time");
    // A duplicate among many is still found, where it is.
    let twice = record_of_tags(100_000).replacen("[T1 ", "[T99999 \"x\"]\n[T1 ", 1);
    let err = twice.parse::<Record>().unwrap_err();
    assert_eq!(err.kind, ParseErrorKind::DuplicateTag("T99999".into()));
}

#[test]
fn a_byte_order_mark_at_the_start_is_skipped() {
    let text = "\u{feff}[Game \"jungle\"]\n\na3a4 *\n";
    let record: Record = text.parse().unwrap();
    assert_eq!(record.tag("Game"), Some("jungle"));
    assert_eq!(Record::read_all(text).unwrap().len(), 1);
    // Only at the start: inside the text it is a fault.
    assert!("[Game \"jungle\"]\n\u{feff}a3a4 *\n"
        .parse::<Record>()
        .is_err());
}
