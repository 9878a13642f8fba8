//! No public entry point of the engine crate panics (or aborts) on input a
//! caller can pass: game specs, option names and values, position texts
//! and moves, search options of any size (a transposition table that cannot
//! be allocated is a typed error), search limits, opening suites, records,
//! SPRT and time-control texts, any floating-point figures.

use std::sync::Mutex;
use std::sync::OnceLock;

use proptest::prelude::*;
use qi_engine::arena::{self, elo_of, score_of, Sprt, Tally, TimeControl};
use qi_engine::options::{set_search_option, Overrides};
use qi_engine::record::Record;
use qi_engine::{
    engine_for, DynEngine, EvalProfile, FiveTigersKit, GameKit, Games, JungleKit, KitEngine,
    Registry,
};
use qi_search::{Level, Limits, SearchOptions, TableAllocError};

/// Text that mixes the games' own vocabulary with anything at all.
fn text() -> impl Strategy<Value = String> {
    prop_oneof![
        any::<String>(),
        "[a-z0-9:,=_ /.-]{0,40}",
        prop::sample::select(vec![
            "jungle",
            "jungle:datou",
            "five-tigers",
            "five-tigers:ten,pieces_per_side=12",
            "jungle:standard,anti_chase=on,jumps=none",
            "7/3L3/7/7/7/7/7/7/6l w 0 1",
            "5/5/2X2/5/5 o place X:12,O:13 - o -,- 0",
        ])
        .prop_map(str::to_string),
        ("(jungle|five-tigers)[:,]", "[a-z0-9:,=_]{0,30}").prop_map(|(a, b)| a + &b),
    ]
}

/// One engine of each game, built once (a table each) and reused: every
/// case leaves it as a fresh engine would be but for what it set.
fn engines() -> &'static Mutex<Vec<Box<dyn DynEngine>>> {
    static ENGINES: OnceLock<Mutex<Vec<Box<dyn DynEngine>>>> = OnceLock::new();
    ENGINES.get_or_init(|| {
        let mut overrides = Overrides::default();
        overrides.set("Hash", "1").unwrap();
        Mutex::new(
            ["jungle", "five-tigers"]
                .iter()
                .map(|spec| engine_for::<Games>(spec, EvalProfile::Default, &overrides).unwrap())
                .collect(),
        )
    })
}

/// Search options with any switches, thread and line counts, and a table
/// either small or far beyond any machine's memory (`2^43` MiB and up is
/// more bytes than `isize::MAX`).
fn options() -> impl Strategy<Value = SearchOptions> {
    (
        prop_oneof![0usize..3, (1usize << 43)..=usize::MAX],
        1usize..4,
        0usize..6,
        any::<[bool; 10]>(),
    )
        .prop_map(|(hash_mib, threads, multi_pv, switches)| {
            let mut options = SearchOptions::default()
                .with_hash_mib(hash_mib)
                .with_threads(threads)
                .with_multi_pv(multi_pv);
            for ((name, _), on) in qi_engine::options::SWITCHES.iter().zip(switches) {
                set_search_option(&mut options, name, &on.to_string()).unwrap();
            }
            options
        })
}

fn limits() -> impl Strategy<Value = Limits> {
    prop_oneof![
        (0u32..3).prop_map(Limits::depth),
        (0u64..2000).prop_map(Limits::nodes),
    ]
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    #[test]
    fn specs_of_any_text_are_read_or_refused(spec in text()) {
        let canonical = Games::canonical(&spec);
        let engine = engine_for::<Games>(&spec, EvalProfile::Default, &Overrides::default());
        prop_assert_eq!(canonical.is_ok(), engine.is_ok());
        let _ = JungleKit::parse_rules(&spec);
        let _ = FiveTigersKit::parse_rules(&spec);
        for profile in EvalProfile::ALL {
            let _ = engine_for::<Games>(&spec, profile, &Overrides::default()).map(|e| e.spec());
        }
    }

    #[test]
    fn options_of_any_name_and_value_are_set_or_refused(name in text(), value in text()) {
        let mut overrides = Overrides::default();
        let before = overrides.clone();
        if overrides.set(&name, &value).is_err() {
            prop_assert_eq!(&overrides, &before);
        }
        let _ = overrides.applied_to(SearchOptions::default());
        let mut options = SearchOptions::default();
        if set_search_option(&mut options, &name, &value).is_err() {
            prop_assert_eq!(options, SearchOptions::default());
        }
    }

    #[test]
    fn positions_and_moves_of_any_text_are_set_or_refused(
        which in 0usize..2,
        position in proptest::option::of(text()),
        moves in prop::collection::vec(text(), 0..4),
        depth in 0u32..3,
    ) {
        let mut engines = engines().lock().unwrap_or_else(|e| e.into_inner());
        let engine = &mut engines[which];
        engine.new_game();
        let before = engine.position_text();
        if engine.set_position(position.as_deref(), &moves).is_err() {
            prop_assert_eq!(engine.position_text(), before);
        }
        let _ = (engine.board(), engine.moves(), engine.eval(), engine.outcome());
        let _ = engine.perft(depth);
    }

    #[test]
    fn search_options_of_any_size_are_taken_or_refused(
        which in 0usize..2,
        options in options(),
        limits in limits(),
        level in any::<u8>(),
        seed in any::<u64>(),
    ) {
        let mut engines = engines().lock().unwrap_or_else(|e| e.into_inner());
        let engine = &mut engines[which];
        engine.new_game();
        let before = engine.options();
        match engine.configure(options) {
            Ok(()) => prop_assert_eq!(engine.options(), options),
            Err(e) => {
                prop_assert_eq!(e, TableAllocError { mib: options.hash_mib });
                prop_assert_eq!(engine.options(), before);
            }
        }
        if let Ok(level) = Level::new(level) {
            engine.set_strength(level, seed);
        }
        let best = engine.best_move(limits);
        prop_assert_eq!(best.is_some(), !engine.moves().is_empty());
        engine.set_strength(Level::FULL, 0);
        engine.configure(before).unwrap();
    }

    #[test]
    fn opening_suites_records_and_texts_of_any_content_are_read_or_refused(
        text in text(),
        lines in prop::collection::vec(text(), 0..4),
    ) {
        let suite = lines.join("\n");
        let jungle = <JungleKit as GameKit>::Position::default();
        let _ = arena::read_openings(&jungle, Some(&suite));
        let five_tigers = <FiveTigersKit as GameKit>::Position::default();
        let _ = arena::read_openings(&five_tigers, Some(&suite));
        let record = format!("[Game \"{text}\"]\n[Start \"{}\"]\n\n{suite}", lines.first().map_or("", String::as_str));
        for input in [&text, &suite, &record] {
            if let Ok(records) = Record::read_all(input) {
                for r in &records {
                    let _ = r.replay::<JungleKit>();
                    let _ = r.replay::<FiveTigersKit>();
                    let _ = r.final_position::<Games>();
                }
            }
            let _ = qi_engine::record::replay_all::<Games>(input);
            let _ = input.parse::<Sprt>();
            let _ = input.parse::<TimeControl>();
        }
    }

    #[test]
    fn figures_of_any_value_are_taken_or_refused(
        figures in prop::array::uniform4(prop_oneof![
            any::<f64>(),
            Just(f64::NAN),
            Just(f64::INFINITY),
            Just(0.0),
            Just(1.0),
            -1000.0..1000.0f64,
        ]),
    ) {
        let [a, b, c, d] = figures;
        let _ = (elo_of(a), score_of(b));
        if let Ok(sprt) = Sprt::new(a, b, c, d) {
            let _ = sprt.bounds();
        }
    }

    #[test]
    fn engines_of_any_table_size_are_built_or_refused(which in 0usize..2, options in options()) {
        let fits = options.hash_mib < 1 << 43;
        if which == 0 {
            let engine = KitEngine::<JungleKit>::with_options(Default::default(), EvalProfile::Default, options);
            prop_assert_eq!(engine.is_ok(), fits);
            if let Err(e) = engine {
                prop_assert_eq!(e, TableAllocError { mib: options.hash_mib });
            }
        } else {
            let engine = KitEngine::<FiveTigersKit>::with_options(Default::default(), EvalProfile::Default, options);
            prop_assert_eq!(engine.is_ok(), fits);
        }
    }

    #[test]
    fn tallies_of_any_counts_are_summed_and_rated(
        counts in prop::array::uniform3(prop_oneof![any::<u32>(), 0u32..10]),
        pairs in prop::array::uniform5(prop_oneof![any::<u32>(), 0u32..10]),
    ) {
        let [wins, draws, losses] = counts;
        let tally = Tally { wins, draws, losses, pairs };
        let games = u64::from(wins) + u64::from(draws) + u64::from(losses);
        prop_assert_eq!(u64::from(tally.games()), games.min(u64::from(u32::MAX)));
        let _ = (tally.pairs_complete(), tally.points(), tally.elo());
        let sprt = Sprt::new(0.0, 5.0, 0.05, 0.05).unwrap();
        let _ = sprt.status(&tally);
    }
}
