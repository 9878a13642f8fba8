//! A third game costs one module and one registry line: tic-tac-toe,
//! defined in this file alone, gets the conformance checks, perft and
//! divide, a search that finds its forced wins, a scripted engine session
//! through the library's type-erased engine, and games between two
//! in-process engines through the arena `qi match` uses.

use std::fmt;
use std::str::FromStr;
use std::sync::atomic::AtomicBool;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use qi_core::testkit::random_walks;
use qi_core::{
    DrawReason, Evaluator, MoveList, MoveSpace, Outcome, Position, RuleName, Side, SimpleGame,
    WinReason,
};
use qi_engine::arena::{self, InProcessPlayer, MatchConfig};
use qi_engine::options::Overrides;
use qi_engine::{
    engine_for, DynEngine, EngineEvent, EvalProfile, GameFn, GameKit, Games, KitEngine, OneRuleSet,
    Registry, RulesOf, SpecError,
};
use qi_search::{Limits, SearchHooks, SearchOptions, Searcher, StrengthScale};

// ---------------------------------------------------------------------------
// The rules.

/// Why text could not be read.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{0}")]
struct TextError(String);

/// A cell `0..9`, written `a1`..`c3` (file then rank).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
struct Cell(u8);

impl fmt::Display for Cell {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", (b'a' + self.0 % 3) as char, self.0 / 3 + 1)
    }
}

impl FromStr for Cell {
    type Err = TextError;
    fn from_str(s: &str) -> Result<Cell, TextError> {
        match s.as_bytes() {
            [f @ b'a'..=b'c', r @ b'1'..=b'3'] => Ok(Cell((r - b'1') * 3 + (f - b'a'))),
            _ => Err(TextError(format!("'{s}' is no cell (a1..c3)"))),
        }
    }
}

/// Tic-tac-toe's own draw.
const BOARD_FULL: DrawReason = DrawReason::Rule(RuleName::new("board full"));

const LINES: [u16; 8] = [0o007, 0o070, 0o700, 0o111, 0o222, 0o444, 0o421, 0o124];

/// The marks of each side (bit `i` is cell `i`) and the side to move.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
struct Ttt {
    marks: [u16; 2],
    stm: Side,
}

impl Ttt {
    fn read(text: &str) -> Result<Ttt, String> {
        let (board, side) = text
            .split_once(' ')
            .ok_or_else(|| format!("'{text}' has no side to move"))?;
        let ranks: Vec<&str> = board.split('/').collect();
        if ranks.len() != 3 || ranks.iter().any(|r| r.len() != 3) {
            return Err(format!("'{board}' is not three ranks of three cells"));
        }
        let mut marks = [0u16; 2];
        for (i, rank) in ranks.iter().enumerate() {
            for (file, c) in rank.chars().enumerate() {
                let bit = 1 << ((2 - i) * 3 + file);
                match c {
                    'x' => marks[0] |= bit,
                    'o' => marks[1] |= bit,
                    '.' => {}
                    _ => return Err(format!("'{c}' is not x, o or .")),
                }
            }
        }
        let stm = match side {
            "x" => Side::First,
            "o" => Side::Second,
            _ => return Err(format!("'{side}' is not x or o")),
        };
        Ok(Ttt { marks, stm })
    }

    fn winner(&self) -> Option<Side> {
        Side::BOTH
            .into_iter()
            .find(|s| LINES.iter().any(|&l| self.marks[s.index()] & l == l))
    }

    fn empty(&self) -> u16 {
        !(self.marks[0] | self.marks[1]) & 0o777
    }
}

/// Three ranks from the top, `x`, `o` or `.`, then the side to move:
/// `x../.o./... x`.
impl fmt::Display for Ttt {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for rank in (0..3).rev() {
            for file in 0..3 {
                let bit = 1 << (rank * 3 + file);
                let c = if self.marks[0] & bit != 0 {
                    'x'
                } else if self.marks[1] & bit != 0 {
                    'o'
                } else {
                    '.'
                };
                write!(f, "{c}")?;
            }
            if rank > 0 {
                f.write_str("/")?;
            }
        }
        write!(f, " {}", if self.stm == Side::First { 'x' } else { 'o' })
    }
}

impl Position for Ttt {
    /// One rule set: `()`, whose one spec is the game's name.
    type Rules = ();
    type Move = Cell;
    type ParseError = TextError;

    const MOVE_INDEX_COUNT: usize = 9;

    fn new(_: ()) -> Ttt {
        Ttt {
            marks: [0; 2],
            stm: Side::First,
        }
    }

    fn from_text(text: &str, _: ()) -> Result<Ttt, TextError> {
        Ttt::read(text).map_err(TextError)
    }

    fn rules(&self) -> &() {
        &()
    }

    fn move_index(mv: Cell) -> usize {
        usize::from(mv.0)
    }

    fn no_capture_plies(&self) -> u32 {
        0
    }

    fn side_to_move(&self) -> Side {
        self.stm
    }

    fn generate_moves(&self, moves: &mut MoveList<Cell>) {
        if self.outcome().is_none() {
            let empty = self.empty();
            moves.extend((0..9).filter(|i| empty >> i & 1 != 0).map(Cell));
        }
    }

    fn play_unchecked(&mut self, mv: Cell) {
        self.marks[self.stm.index()] |= 1 << mv.0;
        self.stm = self.stm.opponent();
    }

    fn outcome(&self) -> Option<Outcome> {
        if let Some(side) = self.winner() {
            Some(Outcome::win(side, WinReason::NoLegalMove))
        } else if self.empty() == 0 {
            Some(Outcome::Draw(BOARD_FULL))
        } else {
            None
        }
    }

    fn is_capture(&self, _: Cell) -> bool {
        false
    }

    fn zobrist(&self) -> u64 {
        self.zobrist_from_scratch()
    }

    fn zobrist_from_scratch(&self) -> u64 {
        let key = u64::from(self.marks[0]) | u64::from(self.marks[1]) << 9;
        (key | (self.stm.index() as u64) << 18).wrapping_mul(0x9E37_79B9_7F4A_7C15)
    }
}

impl MoveSpace for Ttt {
    fn move_space(&self) -> Vec<Cell> {
        (0..9).map(Cell).collect()
    }
}

/// The game layer: the library's, for a game without history rules.
type TttGame = SimpleGame<Ttt>;

/// Lines still open to the side to move minus those open to the opponent.
struct TttEval;

impl Evaluator<Ttt> for TttEval {
    fn evaluate(&self, pos: &Ttt) -> i32 {
        let open = |side: Side| {
            let theirs = pos.marks[side.opponent().index()];
            LINES.iter().filter(|&&l| theirs & l == 0).count() as i32
        };
        10 * (open(pos.stm) - open(pos.stm.opponent()))
    }
}

struct TttHooks;

impl SearchHooks<TttGame> for TttHooks {
    fn tuned_options(&self) -> SearchOptions {
        SearchOptions::exact(1)
    }
}

// ---------------------------------------------------------------------------
// The kit and the registry line.

enum TttKit {}

impl GameKit for TttKit {
    type Position = Ttt;
    type Game = TttGame;
    type Eval = TttEval;
    type Hooks = TttHooks;

    const NAME: &'static str = "tic-tac-toe";
    const PRESETS: &'static [&'static str] = &[];
    // Unmeasured: the levels of a game nobody plays only need to work.
    const STRENGTH: StrengthScale = StrengthScale {
        unit: 100,
        nodes: [0, 0, 20, 40, 80, 160, 320, 640, 1_280],
        ratings: [0, 100, 200, 300, 400, 500, 600, 700, 800, 900],
    };

    fn eval(_: EvalProfile) -> TttEval {
        TttEval
    }

    fn hooks(_: EvalProfile) -> TttHooks {
        TttHooks
    }

    fn draw(position: &Ttt) -> String {
        format!("{position}\n")
    }
}

/// The library's games plus this one.
type MyGames = (TttKit, Games);

fn ttt(text: &str) -> Ttt {
    Ttt::from_text(text, ()).expect("valid test position")
}

// ---------------------------------------------------------------------------
// What the third game gets.

#[test]
fn the_registry_lists_parses_and_dispatches_the_new_game() {
    let names: Vec<&str> = MyGames::games().iter().map(|g| g.name).collect();
    assert_eq!(names, ["tic-tac-toe", "jungle", "five-tigers"]);
    assert_eq!(MyGames::default_spec(), "tic-tac-toe");
    assert_eq!(
        MyGames::preset_specs()[..2],
        ["tic-tac-toe", "jungle:standard"]
    );
    assert_eq!(
        MyGames::canonical(" tic-tac-toe ").as_deref(),
        Ok("tic-tac-toe")
    );
    // One rule set: any other rules are a typed error.
    let Err(SpecError::BadRules { game, error }) =
        MyGames::dispatch("tic-tac-toe:misere", Count(1))
    else {
        panic!("tic-tac-toe has no rules 'misere'")
    };
    assert_eq!(game, "tic-tac-toe");
    assert_eq!(
        error.downcast_ref::<OneRuleSet>(),
        Some(&OneRuleSet {
            game: "tic-tac-toe",
            spec: "tic-tac-toe:misere".into()
        })
    );
    assert!(
        Games::dispatch("tic-tac-toe", Count(1)).is_err(),
        "not in the library's list"
    );
    assert_eq!(MyGames::dispatch("jungle", Count(1)), Ok(24));
}

/// Perft through the registry.
struct Count(u32);

impl GameFn for Count {
    type Output = u64;
    fn call<K: GameKit>(self, rules: RulesOf<K>) -> u64 {
        qi_search::perft(&K::Position::new(rules), self.0)
    }
}

#[test]
fn conformance_checks_pass() {
    let checked = random_walks(&Ttt::new(()), 200, 9, 7);
    assert!(checked > 1000, "{checked}");
}

#[test]
fn perft_and_divide() {
    // The number of move sequences of each length (games stop at a win).
    let expected = [1, 9, 72, 504, 3024, 15120, 54720, 148176, 200448, 127872];
    for (depth, &n) in expected.iter().enumerate() {
        assert_eq!(MyGames::dispatch("tic-tac-toe", Count(depth as u32)), Ok(n));
    }
    let divide = qi_search::divide(&Ttt::new(()), 9);
    assert_eq!(divide.len(), 9);
    assert_eq!(divide.iter().map(|(_, n)| n).sum::<u64>(), 127872);
    // By symmetry the corners agree, and so do the edges.
    assert_eq!(divide[0].1, divide[8].1);
    assert_eq!(divide[1].1, divide[7].1);
}

#[test]
fn the_search_finds_forced_wins_and_the_draw() {
    let search = |text: &str, depth: u32| {
        let mut game = TttGame::new(ttt(text));
        let mut searcher: Searcher<TttGame, TttHooks> =
            Searcher::with_hooks(TttHooks.tuned_options(), TttHooks);
        searcher.search(
            &mut game,
            &TttEval,
            Limits::depth(depth),
            &AtomicBool::new(false),
            |_| {},
        )
    };
    // x wins at once on c1.
    let r = search(".../oo./xx. x", 9);
    assert_eq!(r.best_move, Some(Cell(2)));
    assert_eq!(r.score.to_string(), "mate 1");
    // With x in a corner and o in the opposite one, x forces a win on its
    // third move.
    let r = search("x../.../..o x", 9);
    assert_eq!(r.score.to_string(), "mate 3");
    let mut game = TttGame::new(ttt("x../.../..o x"));
    assert_eq!(
        qi_search::reference::minimax(&mut game, &TttEval, 9),
        r.score,
        "plain minimax agrees"
    );
    // Tic-tac-toe is a draw.
    assert_eq!(search(".../.../... x", 9).score.to_string(), "cp 0");
}

/// An engine's reports, shared with the search thread that writes them.
type Events = Arc<Mutex<Vec<EngineEvent>>>;

/// Reads an engine's reports into a shared list.
fn recorder() -> (Events, Box<dyn FnMut(EngineEvent) + Send>) {
    let events = Arc::new(Mutex::new(Vec::new()));
    let sink = Arc::clone(&events);
    (events, Box::new(move |e| sink.lock().unwrap().push(e)))
}

#[test]
fn a_scripted_engine_session_through_the_type_erased_engine() {
    let mut engine: Box<dyn DynEngine> =
        engine_for::<MyGames>("tic-tac-toe", EvalProfile::Default, &Overrides::default())
            .expect("a registered game");
    assert_eq!(engine.spec(), "tic-tac-toe");
    // position startpos moves a1 b2 b1 / go depth 9 / bestmove c1
    engine
        .set_position(None, &["a1".into(), "b2".into(), "b1".into()])
        .unwrap();
    assert_eq!(engine.position_text(), ".../.o./xx. o");
    let (events, report) = recorder();
    engine
        .go(Limits::depth(9), Arc::new(AtomicBool::new(false)), report)
        .join()
        .unwrap();
    let events = events.lock().unwrap();
    assert!(
        matches!(events.first(), Some(EngineEvent::Info(line)) if line.starts_with("info depth 1 ")),
        "{events:?}"
    );
    assert_eq!(
        events.last(),
        Some(&EngineEvent::BestMove(Some("c1".into()))),
        "o must block"
    );
    // Bad input is an error and leaves the game as it was.
    assert!(engine
        .set_position(None, &["a1".into(), "a1".into()])
        .is_err());
    assert!(engine.set_position(Some("xxx/ooo"), &[]).is_err());
    assert_eq!(engine.position_text(), ".../.o./xx. o");
    assert_eq!(engine.moves().len(), 6);
    assert_eq!(engine.perft(2), 30);
    // A finished game has no move.
    engine.set_position(Some("xxx/oo./... o"), &[]).unwrap();
    assert!(engine.outcome().is_some());
    assert_eq!(engine.best_move(Limits::depth(3)), None);
}

#[test]
fn in_process_engines_play_a_match_through_the_arena() {
    let start = Ttt::new(());
    let openings = arena::read_openings(
        &start,
        Some("# two openings\n.../.x./... o\nx../.../... o\n"),
    )
    .unwrap();
    let new_player = || {
        InProcessPlayer::new(Box::new(
            KitEngine::<TttKit>::new((), EvalProfile::Default, &Overrides::default()).unwrap(),
        ))
    };
    let slots: Vec<[arena::BoxedPlayer; 2]> = (0..2)
        .map(|_| {
            [
                Box::new(new_player()) as arena::BoxedPlayer,
                Box::new(new_player()),
            ]
        })
        .collect();
    let config = MatchConfig::new(4)
        .with_movetime(Some(Duration::from_millis(50)))
        .with_max_plies(20);
    let mut reports = Vec::new();
    let tally = arena::play_match::<TttGame>(&config, &start, &openings, slots, |r| {
        reports.push(r.clone())
    });
    // Perfect play from these openings is a draw.
    assert_eq!(
        (tally.wins, tally.draws, tally.losses),
        (0, 4, 0),
        "{reports:?}"
    );
    assert_eq!(reports.len(), 4);
    assert!(reports.iter().all(|r| r.moves.len() == 8), "{reports:?}");
    assert_eq!(reports[1].a_side, Side::Second, "colours swap");
    // Two games at a time, reported in order; two drawn pairs.
    assert!(reports.iter().enumerate().all(|(i, r)| r.index == i));
    assert_eq!(tally.pairs, [0, 0, 2, 0, 0]);
    // Each move carries the search's score and depth.
    assert!(reports[0].verdicts.iter().all(|v| v.comment().is_some()));
}
