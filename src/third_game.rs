//! # A third game
//!
//! Everything generic in qi (perft, the search, the engine protocol, the
//! arena, the registry the command line reads) works on any game that
//! implements the traits of [`base`](crate::base). A game of your own
//! needs:
//!
//! 1. **A position**, implementing [`Position`](crate::base::Position):
//!    the start under its rules, text in and out, legal moves,
//!    copy-make, the board's own outcome, a Zobrist key. A game with one
//!    rule set says `type Rules = ()`.
//! 2. **A game layer**, implementing [`Game`](crate::base::Game): the
//!    rules that look at the history. A game without such rules takes
//!    [`SimpleGame`](crate::base::SimpleGame) as it is; one with
//!    repetition or move-count rules writes its layer on
//!    [`History`](crate::base::History), as Jungle's and Five Tigers' do.
//! 3. **Its own endings** named: a winning rule of the game is
//!    [`WinReason::Rule`](crate::base::WinReason::Rule), a drawing rule
//!    [`DrawReason::Rule`](crate::base::DrawReason::Rule), each with a
//!    [`RuleName`](crate::base::RuleName) of at most 23 bytes.
//! 4. **To join the registry** (the engine protocol, `qi match`, levels):
//!    a [`GameKit`](crate::engine::GameKit) with its evaluation and search
//!    hooks, and one entry in the registry's list.
//!
//! ## What the traits expect (checked by the conformance harness)
//!
//! * A finished position generates no move: the search stops on an empty
//!   move list, and [`Position::outcome`](crate::base::Position::outcome)
//!   says why the game ended.
//! * A move's text is context-free, and its `FromStr` reads what its
//!   `Display` writes; so does the position's text under its rules
//!   ([`Position::from_text`](crate::base::Position::from_text)).
//! * [`zobrist`](crate::base::Position::zobrist) equals
//!   [`zobrist_from_scratch`](crate::base::Position::zobrist_from_scratch)
//!   after every move, and [`move_index`](crate::base::Position::move_index)
//!   is below `MOVE_INDEX_COUNT`, distinct for distinct moves.
//! * Sides need not alternate: the search asks
//!   [`side_to_move`](crate::base::Position::side_to_move).
//!
//! With the feature `testkit`, `qi_games::base::testkit::random_walks`
//! plays random games of any position and checks all of this on each
//! move.
//!
//! ## The registry's spec contract
//!
//! A game spec names a game and its rules: `NAME`, `NAME:PRESET`, then
//! optional `,option=value` items (`jungle:datou,jumps=none`). The
//! registry picks the game by the text before the first `:` or `,`, then
//! passes **the whole spec** to the rules'
//! [`RulesSpec::from_spec`](crate::engine::RulesSpec::from_spec) (through
//! [`GameKit::parse_rules`](crate::engine::GameKit::parse_rules), which a
//! kit may override): the rules must read `NAME` alone (the default
//! preset) and `NAME:PRESET`, and refuse the rest with a typed error.
//! [`RulesSpec::to_spec`](crate::engine::RulesSpec::to_spec) writes them
//! back in canonical form. `()` implements it for a game with one rule
//! set: its one spec is the game's name, and its kit lists no presets.
//!
//! ## Tic-tac-toe, whole
//!
//! ```
//! use std::fmt;
//! use std::str::FromStr;
//!
//! use qi_games::base::{MoveList, MoveSpace, RuleName, SimpleGame};
//! use qi_games::engine::{EvalProfile, GameFn, Games, Registry, RulesOf};
//! use qi_games::prelude::*;
//! use qi_games::search::{divide, DefaultHooks, StrengthScale};
//!
//! /// Why text could not be read.
//! #[derive(Clone, Debug, PartialEq, Eq)]
//! struct TextError(String);
//!
//! impl fmt::Display for TextError {
//!     fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
//!         f.write_str(&self.0)
//!     }
//! }
//!
//! impl std::error::Error for TextError {}
//!
//! /// A cell `0..9`, written `a1`..`c3` (file, then rank).
//! #[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
//! struct Cell(u8);
//!
//! impl fmt::Display for Cell {
//!     fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
//!         write!(f, "{}{}", (b'a' + self.0 % 3) as char, self.0 / 3 + 1)
//!     }
//! }
//!
//! impl FromStr for Cell {
//!     type Err = TextError;
//!     fn from_str(s: &str) -> Result<Cell, TextError> {
//!         match s.as_bytes() {
//!             [f @ b'a'..=b'c', r @ b'1'..=b'3'] => Ok(Cell((r - b'1') * 3 + (f - b'a'))),
//!             _ => Err(TextError(format!("'{s}' is no cell (a1..c3)"))),
//!         }
//!     }
//! }
//!
//! const LINES: [u16; 8] = [0o007, 0o070, 0o700, 0o111, 0o222, 0o444, 0o421, 0o124];
//! const BOARD_FULL: DrawReason = DrawReason::Rule(RuleName::new("board full"));
//! const THREE_IN_A_ROW: WinReason = WinReason::Rule(RuleName::new("three in a row"));
//!
//! /// Each side's marks (bit `i`: cell `i`) and the side to move.
//! #[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
//! struct Ttt {
//!     marks: [u16; 2],
//!     to_move: Side,
//! }
//!
//! impl Ttt {
//!     fn empty(&self) -> u16 {
//!         !(self.marks[0] | self.marks[1]) & 0o777
//!     }
//! }
//!
//! /// The cells from a1 to c3 (`x`, `o` or `.`), a space, the side to move.
//! impl fmt::Display for Ttt {
//!     fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
//!         for i in 0..9 {
//!             let bit = 1 << i;
//!             let c = [(self.marks[0], 'x'), (self.marks[1], 'o')]
//!                 .iter()
//!                 .find(|(m, _)| m & bit != 0)
//!                 .map_or('.', |&(_, c)| c);
//!             write!(f, "{c}")?;
//!         }
//!         write!(f, " {}", if self.to_move == Side::First { 'x' } else { 'o' })
//!     }
//! }
//!
//! impl Position for Ttt {
//!     /// One rule set: its one spec is the game's name.
//!     type Rules = ();
//!     type Move = Cell;
//!     type ParseError = TextError;
//!     const MOVE_INDEX_COUNT: usize = 9;
//!
//!     fn new(_: ()) -> Ttt {
//!         Ttt { marks: [0; 2], to_move: Side::First }
//!     }
//!
//!     fn from_text(text: &str, _: ()) -> Result<Ttt, TextError> {
//!         let bad = || TextError(format!("'{text}' is not nine cells and x or o"));
//!         let (cells, side) = text.split_once(' ').ok_or_else(bad)?;
//!         let mut pos = Ttt::new(());
//!         for (i, c) in cells.chars().enumerate().take(9) {
//!             match c {
//!                 'x' => pos.marks[0] |= 1 << i,
//!                 'o' => pos.marks[1] |= 1 << i,
//!                 '.' => {}
//!                 _ => return Err(bad()),
//!             }
//!         }
//!         pos.to_move = match side {
//!             "x" => Side::First,
//!             "o" => Side::Second,
//!             _ => return Err(bad()),
//!         };
//!         if cells.chars().count() != 9 {
//!             return Err(bad());
//!         }
//!         Ok(pos)
//!     }
//!
//!     fn rules(&self) -> &() {
//!         &()
//!     }
//!
//!     fn move_index(mv: Cell) -> usize {
//!         usize::from(mv.0)
//!     }
//!
//!     fn no_capture_plies(&self) -> u32 {
//!         0
//!     }
//!
//!     fn side_to_move(&self) -> Side {
//!         self.to_move
//!     }
//!
//!     fn generate_moves(&self, moves: &mut MoveList<Cell>) {
//!         if self.outcome().is_none() {
//!             let empty = self.empty();
//!             moves.extend((0..9).filter(|i| empty >> i & 1 != 0).map(Cell));
//!         }
//!     }
//!
//!     fn play_unchecked(&mut self, mv: Cell) {
//!         self.marks[self.to_move.index()] |= 1 << mv.0;
//!         self.to_move = !self.to_move;
//!     }
//!
//!     fn outcome(&self) -> Option<Outcome> {
//!         let lines = |side: Side| LINES.iter().any(|&l| self.marks[side.index()] & l == l);
//!         match Side::BOTH.into_iter().find(|&side| lines(side)) {
//!             Some(winner) => Some(Outcome::win(winner, THREE_IN_A_ROW)),
//!             None if self.empty() == 0 => Some(Outcome::Draw(BOARD_FULL)),
//!             None => None,
//!         }
//!     }
//!
//!     fn is_capture(&self, _: Cell) -> bool {
//!         false
//!     }
//!
//!     fn zobrist(&self) -> u64 {
//!         self.zobrist_from_scratch()
//!     }
//!
//!     fn zobrist_from_scratch(&self) -> u64 {
//!         let key = u64::from(self.marks[0]) | u64::from(self.marks[1]) << 9;
//!         (key | (self.to_move.index() as u64) << 18).wrapping_mul(0x9E37_79B9_7F4A_7C15)
//!     }
//! }
//!
//! impl MoveSpace for Ttt {
//!     fn move_space(&self) -> Vec<Cell> {
//!         (0..9).map(Cell).collect()
//!     }
//! }
//!
//! /// Lines still open to the side to move, less those open to the other.
//! struct OpenLines;
//!
//! impl Evaluator<Ttt> for OpenLines {
//!     fn evaluate(&self, pos: &Ttt) -> i32 {
//!         let open = |side: Side| {
//!             let theirs = pos.marks[(!side).index()];
//!             LINES.iter().filter(|&&l| theirs & l == 0).count() as i32
//!         };
//!         10 * (open(pos.to_move) - open(!pos.to_move))
//!     }
//! }
//!
//! // Perft, and a game played and taken back: `SimpleGame` is the whole
//! // game layer.
//! assert_eq!(perft(&Ttt::new(()), 9), 127_872);
//! assert_eq!(divide(&Ttt::new(()), 1).len(), 9);
//! let mut game = SimpleGame::new(Ttt::new(()));
//! for cell in ["a1", "b2", "b1", "c1", "a3", "a2", "c2", "c3", "b3"] {
//!     game.play(cell.parse()?)?;
//! }
//! assert_eq!(game.outcome(), Some(Outcome::Draw(BOARD_FULL)));
//! assert_eq!(game.outcome().map(|o| o.to_string()).as_deref(), Some("1/2-1/2 (draw: board full)"));
//! assert!(game.play("a1".parse()?).is_err());
//! game.undo();
//! assert_eq!(game.position().to_string(), "xxoooxx.o x");
//!
//! // The search: x to move wins on c1 at once.
//! let mut game = SimpleGame::new(Ttt::from_text("xx.oo.... x", ())?);
//! let mut searcher: Searcher<SimpleGame<Ttt>> = Searcher::new(SearchOptions::exact(1));
//! let stop = std::sync::atomic::AtomicBool::new(false);
//! let result = searcher.search(&mut game, &OpenLines, Limits::depth(9), &stop, |_| {});
//! assert_eq!(result.best_move, Some("c1".parse()?));
//! assert_eq!(result.score.to_string(), "mate 1");
//!
//! enum TicTacToe {}
//!
//! impl GameKit for TicTacToe {
//!     type Position = Ttt;
//!     type Game = SimpleGame<Ttt>;
//!     type Eval = OpenLines;
//!     type Hooks = DefaultHooks;
//!
//!     const NAME: &'static str = "tic-tac-toe";
//!     const PRESETS: &'static [&'static str] = &[];
//!     // The levels' node budgets and ratings (unmeasured here).
//!     const STRENGTH: StrengthScale = StrengthScale {
//!         unit: 100,
//!         nodes: [0, 0, 20, 40, 80, 160, 320, 640, 1_280],
//!         ratings: [0, 100, 200, 300, 400, 500, 600, 700, 800, 900],
//!     };
//!
//!     fn eval(_: EvalProfile) -> OpenLines {
//!         OpenLines
//!     }
//!
//!     fn hooks(_: EvalProfile) -> DefaultHooks {
//!         DefaultHooks
//!     }
//!
//!     fn draw(position: &Ttt) -> String {
//!         format!("{position}\n")
//!     }
//! }
//!
//! /// The library's games and this one: what a front end dispatches on.
//! type MyGames = (TicTacToe, Games);
//!
//! /// Perft of the start of whichever game a spec names.
//! struct StartPerft(u32);
//!
//! impl GameFn for StartPerft {
//!     type Output = u64;
//!     fn call<K: GameKit>(self, rules: RulesOf<K>) -> u64 {
//!         perft(&K::Position::new(rules), self.0)
//!     }
//! }
//!
//! assert_eq!(MyGames::dispatch("tic-tac-toe", StartPerft(2)), Ok(72));
//! assert_eq!(MyGames::dispatch("jungle:datou", StartPerft(1)), Ok(24));
//! assert!(MyGames::dispatch("tic-tac-toe:misere", StartPerft(1)).is_err());
//! assert_eq!(MyGames::canonical("tic-tac-toe").as_deref(), Ok("tic-tac-toe"));
//! assert_eq!(MyGames::default_spec(), "tic-tac-toe");
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
