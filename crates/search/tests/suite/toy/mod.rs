//! Toy games for the search tests: a generic game layer over any
//! position, a seeded random game tree (or DAG), Nim and tic-tac-toe.
#![allow(dead_code)]

use std::fmt;
use std::str::FromStr;

pub use qi_core::SimpleGame;
use qi_core::{
    DrawReason, Evaluator, ExternalResult, Game, IllegalMove, MoveList, Outcome, Position, Side,
    WinReason,
};
use qi_search::SearchHooks;

/// SplitMix64 finaliser.
pub fn mix(mut z: u64) -> u64 {
    z = z.wrapping_add(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// Text errors of the toy games.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ToyParseError(pub String);

impl fmt::Display for ToyParseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "bad toy text: {}", self.0)
    }
}

impl std::error::Error for ToyParseError {}

// ---------------------------------------------------------------------------
// A game layer with a repetition rule.

/// Like [`SimpleGame`], plus: the third occurrence of a position ends the
/// game, lost by the side that made it (`mover_loses`, Jungle style) or
/// drawn.
#[derive(Clone, Debug)]
pub struct RepGame<P: Position> {
    pub inner: SimpleGame<P>,
    pub mover_loses: bool,
}

impl<P: Position> RepGame<P> {
    pub fn new(pos: P, mover_loses: bool) -> RepGame<P> {
        RepGame {
            inner: SimpleGame::new(pos),
            mover_loses,
        }
    }

    /// The positions before the current one equal to it: any earlier
    /// frame, whoever is to move and across passes (sides do not
    /// alternate in the toy games).
    fn seen(&self) -> usize {
        let frames = self.inner.history().frames();
        let (now, before) = frames.split_last().expect("never empty");
        before
            .iter()
            .filter(|f| f.position() == now.position())
            .count()
    }

    fn repetition(&self) -> Option<Outcome> {
        if self.seen() < 2 {
            return None;
        }
        Some(if self.mover_loses {
            let frames = self.inner.history().frames();
            let mover = frames[frames.len() - 2].position().side_to_move();
            Outcome::win(mover.opponent(), WinReason::Repetition)
        } else {
            Outcome::Draw(DrawReason::Repetition)
        })
    }
}

impl<P: Position> Game for RepGame<P> {
    type Position = P;

    /// A game whose repetitions are draws.
    fn new(pos: P) -> RepGame<P> {
        RepGame::new(pos, false)
    }

    fn position(&self) -> &P {
        self.inner.position()
    }

    fn start(&self) -> &P {
        self.inner.start()
    }

    fn moves(&self) -> &[P::Move] {
        self.inner.moves()
    }

    fn occurrences(&self) -> usize {
        1 + self.seen()
    }

    fn external_result(&self) -> Option<ExternalResult> {
        self.inner.external_result()
    }

    fn generate_moves(&self, moves: &mut MoveList<P::Move>) {
        if self.outcome().is_none() {
            self.inner.generate_moves(moves);
        }
    }

    fn play_unchecked(&mut self, mv: P::Move) {
        self.inner.play_unchecked(mv);
    }

    fn play(&mut self, mv: P::Move) -> Result<(), IllegalMove> {
        if self.outcome().is_some() {
            return Err(IllegalMove::new(mv, qi_core::Refusal::NotLegal));
        }
        self.inner.play(mv)
    }

    fn undo(&mut self) -> Option<P::Move> {
        self.inner.undo()
    }

    fn outcome(&self) -> Option<Outcome> {
        self.inner.outcome().or_else(|| self.repetition())
    }

    fn record(&mut self, result: ExternalResult) {
        self.inner.record(result);
    }

    fn ply(&self) -> usize {
        self.inner.ply()
    }
}

// ---------------------------------------------------------------------------
// Random game tree / DAG.

/// Shape of a random game.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct TreeConfig {
    pub seed: u64,
    /// Node ids per level (a DAG with transpositions); 0 for a tree.
    pub width: u64,
    /// Every node at this level is terminal.
    pub max_level: u32,
    /// Most moves of a node (at least 1).
    pub max_branching: u64,
    /// Evaluations lie in `-eval_range..=eval_range`.
    pub eval_range: u64,
    /// Moves never change the level: with `width` > 0 the game is a graph
    /// with cycles (for repetition rules) and only stalemates end it.
    pub cyclic: bool,
    /// About one node in this many ends the game early (0: none do; only
    /// `max_level` ends it).
    pub terminal_one_in: u64,
}

impl TreeConfig {
    pub fn tree(seed: u64, max_level: u32) -> TreeConfig {
        TreeConfig {
            seed,
            width: 0,
            max_level,
            max_branching: 5,
            eval_range: 200,
            cyclic: false,
            terminal_one_in: 9,
        }
    }

    pub fn cyclic(seed: u64, width: u64) -> TreeConfig {
        TreeConfig {
            cyclic: true,
            max_level: u32::MAX,
            ..TreeConfig::dag(seed, u32::MAX, width)
        }
    }

    pub fn dag(seed: u64, max_level: u32, width: u64) -> TreeConfig {
        TreeConfig {
            seed,
            width,
            max_level,
            max_branching: 5,
            eval_range: 200,
            cyclic: false,
            terminal_one_in: 9,
        }
    }
}

/// A node of the random game.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct TreeNode {
    pub cfg: TreeConfig,
    pub level: u32,
    pub id: u64,
    /// A pass was made here: the other side is to move.
    pub passed: bool,
}

/// Move `n` of a node.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct TreeMove(pub u8);

impl fmt::Display for TreeMove {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "m{}", self.0)
    }
}

impl FromStr for TreeMove {
    type Err = ToyParseError;
    fn from_str(s: &str) -> Result<TreeMove, ToyParseError> {
        s.strip_prefix('m')
            .and_then(|n| n.parse().ok())
            .map(TreeMove)
            .ok_or_else(|| ToyParseError(s.to_string()))
    }
}

impl TreeNode {
    pub fn root(cfg: TreeConfig) -> TreeNode {
        TreeNode {
            cfg,
            level: 0,
            id: 0,
            passed: false,
        }
    }

    fn hash(&self) -> u64 {
        mix(self.cfg.seed ^ mix(u64::from(self.level) ^ mix(self.id)))
    }

    fn branching(&self) -> u64 {
        1 + (self.hash() >> 32) % self.cfg.max_branching.max(1)
    }

    /// The First-relative evaluation in `-eval_range..=eval_range`.
    pub fn value_for_first(&self) -> i32 {
        let r = self.cfg.eval_range;
        ((self.hash() >> 44) % (2 * r + 1)) as i32 - r as i32
    }

    fn board_outcome(&self) -> Option<Outcome> {
        let h = self.hash();
        let early = self.cfg.terminal_one_in;
        let decided = self.level >= self.cfg.max_level
            || (self.level > 0 && early > 0 && (h >> 20) % early == 4 % early);
        if decided {
            return Some(match (h >> 12) % 3 {
                0 => Outcome::win(Side::First, WinReason::NoPieces),
                1 => Outcome::win(Side::Second, WinReason::NoPieces),
                _ => Outcome::Draw(DrawReason::NoCapture),
            });
        }
        if early > 0 && (h >> 40) % (2 * early - 1) == 5 % (2 * early - 1) {
            // Stalemated: the side to move has no move and loses.
            return Some(Outcome::win(
                self.side_to_move().opponent(),
                WinReason::NoLegalMove,
            ));
        }
        None
    }

    fn child_id(&self, i: u8) -> u64 {
        let c =
            mix(self.id ^ mix((u64::from(i) + 1) | (u64::from(self.level) << 8)) ^ self.cfg.seed);
        if self.cfg.width > 0 {
            c % self.cfg.width
        } else {
            c
        }
    }
}

impl fmt::Display for TreeNode {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} {} {}", self.level, self.id, u8::from(self.passed))
    }
}

impl Position for TreeNode {
    type Rules = TreeConfig;
    type Move = TreeMove;
    type ParseError = ToyParseError;

    const MOVE_INDEX_COUNT: usize = 256;

    fn new(cfg: TreeConfig) -> TreeNode {
        TreeNode::root(cfg)
    }

    fn from_text(text: &str, cfg: TreeConfig) -> Result<TreeNode, ToyParseError> {
        let err = || ToyParseError(text.to_string());
        let mut parts = text.split_whitespace();
        let level = parts.next().and_then(|t| t.parse().ok()).ok_or_else(err)?;
        let id = parts.next().and_then(|t| t.parse().ok()).ok_or_else(err)?;
        let passed = parts.next().map(|t| t == "1").unwrap_or(false);
        Ok(TreeNode {
            cfg,
            level,
            id,
            passed,
        })
    }

    fn rules(&self) -> &TreeConfig {
        &self.cfg
    }

    fn move_index(mv: TreeMove) -> usize {
        usize::from(mv.0)
    }

    fn no_capture_plies(&self) -> u32 {
        0
    }

    fn side_to_move(&self) -> Side {
        let parity = if self.level & 1 == 0 {
            Side::First
        } else {
            Side::Second
        };
        // About one node in four breaks the alternation.
        let flip = (self.hash() >> 8) & 3 == 0;
        let side = if flip { parity.opponent() } else { parity };
        if self.passed {
            side.opponent()
        } else {
            side
        }
    }

    fn generate_moves(&self, moves: &mut MoveList<TreeMove>) {
        if self.board_outcome().is_none() {
            moves.extend((0..self.branching() as u8).map(TreeMove));
        }
    }

    fn play_unchecked(&mut self, mv: TreeMove) {
        self.id = self.child_id(mv.0);
        if !self.cfg.cyclic {
            self.level += 1;
        }
        self.passed = false;
    }

    fn outcome(&self) -> Option<Outcome> {
        self.board_outcome()
    }

    fn is_capture(&self, mv: TreeMove) -> bool {
        mix(self.hash() ^ u64::from(mv.0) ^ 0xCAFE) % 3 == 1
    }

    fn zobrist(&self) -> u64 {
        self.zobrist_from_scratch()
    }

    fn zobrist_from_scratch(&self) -> u64 {
        mix(self.hash() ^ u64::from(self.passed))
    }
}

/// Scores tree nodes by their hashed value.
#[derive(Clone, Copy, Debug, Default)]
pub struct TreeEval;

impl Evaluator<TreeNode> for TreeEval {
    fn evaluate(&self, pos: &TreeNode) -> i32 {
        pos.value_for_first() * pos.side_to_move().sign()
    }
}

/// Tree hooks: captures ordered by a hashed value, passes allowed.
#[derive(Clone, Copy, Debug, Default)]
pub struct TreeHooks;

impl SearchHooks<SimpleGame<TreeNode>> for TreeHooks {
    fn capture_order(&self, game: &SimpleGame<TreeNode>, mv: TreeMove) -> i32 {
        (mix(game.position().id ^ u64::from(mv.0)) % 100) as i32
    }

    fn make_null(&self, game: &mut SimpleGame<TreeNode>) -> bool {
        let mut next = *game.position();
        next.passed = !next.passed;
        game.push_pass(next);
        true
    }

    fn undo_null(&self, game: &mut SimpleGame<TreeNode>) {
        game.undo();
    }
}

pub type TreeGame = SimpleGame<TreeNode>;

pub fn tree_game(cfg: TreeConfig) -> TreeGame {
    SimpleGame::new(TreeNode::root(cfg))
}

// ---------------------------------------------------------------------------
// Nim: take 1 to 3 stones; whoever takes the last stone wins.

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Nim {
    pub stones: u8,
    pub stm: Side,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Take(pub u8);

impl fmt::Display for Take {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.0)
    }
}

impl FromStr for Take {
    type Err = ToyParseError;
    fn from_str(s: &str) -> Result<Take, ToyParseError> {
        s.parse()
            .map(Take)
            .map_err(|_| ToyParseError(s.to_string()))
    }
}

impl fmt::Display for Nim {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} {}", self.stones, self.stm)
    }
}

impl Position for Nim {
    type Rules = ();
    type Move = Take;
    type ParseError = ToyParseError;

    const MOVE_INDEX_COUNT: usize = 4;

    /// 21 stones, the usual start.
    fn new((): ()) -> Nim {
        Nim {
            stones: 21,
            stm: Side::First,
        }
    }

    fn from_text(text: &str, (): ()) -> Result<Nim, ToyParseError> {
        let err = || ToyParseError(text.to_string());
        let mut parts = text.split_whitespace();
        let stones = parts.next().and_then(|t| t.parse().ok()).ok_or_else(err)?;
        let stm = parts.next().and_then(|t| t.parse().ok()).ok_or_else(err)?;
        Ok(Nim { stones, stm })
    }

    fn rules(&self) -> &() {
        &()
    }

    fn move_index(mv: Take) -> usize {
        usize::from(mv.0)
    }

    fn no_capture_plies(&self) -> u32 {
        0
    }

    fn side_to_move(&self) -> Side {
        self.stm
    }

    fn generate_moves(&self, moves: &mut MoveList<Take>) {
        moves.extend((1..=self.stones.min(3)).map(Take));
    }

    fn play_unchecked(&mut self, mv: Take) {
        self.stones -= mv.0;
        self.stm = self.stm.opponent();
    }

    fn outcome(&self) -> Option<Outcome> {
        (self.stones == 0).then(|| Outcome::win(self.stm.opponent(), WinReason::NoPieces))
    }

    fn is_capture(&self, _: Take) -> bool {
        false
    }

    fn zobrist(&self) -> u64 {
        self.zobrist_from_scratch()
    }

    fn zobrist_from_scratch(&self) -> u64 {
        mix(u64::from(self.stones) * 2 + self.stm.index() as u64)
    }
}

/// Nim knows nothing short of the end.
#[derive(Clone, Copy, Debug, Default)]
pub struct ZeroEval;

impl<P: Position> Evaluator<P> for ZeroEval {
    fn evaluate(&self, _: &P) -> i32 {
        0
    }
}

pub fn nim(stones: u8) -> SimpleGame<Nim> {
    SimpleGame::new(Nim {
        stones,
        stm: Side::First,
    })
}

// ---------------------------------------------------------------------------
// Tic-tac-toe.

const LINES: [[usize; 3]; 8] = [
    [0, 1, 2],
    [3, 4, 5],
    [6, 7, 8],
    [0, 3, 6],
    [1, 4, 7],
    [2, 5, 8],
    [0, 4, 8],
    [2, 4, 6],
];

/// Cells: 0 empty, 1 First (x), 2 Second (o).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Ttt {
    pub cells: [u8; 9],
    pub stm: Side,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Cell(pub u8);

impl fmt::Display for Cell {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.0)
    }
}

impl FromStr for Cell {
    type Err = ToyParseError;
    fn from_str(s: &str) -> Result<Cell, ToyParseError> {
        match s.parse::<u8>() {
            Ok(n) if n < 9 => Ok(Cell(n)),
            _ => Err(ToyParseError(s.to_string())),
        }
    }
}

impl Ttt {
    pub fn empty() -> Ttt {
        Ttt {
            cells: [0; 9],
            stm: Side::First,
        }
    }

    /// From 9 characters `x`, `o`, `.`; the side to move is derived.
    pub fn parse(text: &str) -> Ttt {
        let mut cells = [0; 9];
        for (i, c) in text.chars().enumerate() {
            cells[i] = match c {
                'x' => 1,
                'o' => 2,
                _ => 0,
            };
        }
        let xs = cells.iter().filter(|&&c| c == 1).count();
        let os = cells.iter().filter(|&&c| c == 2).count();
        Ttt {
            cells,
            stm: if xs > os { Side::Second } else { Side::First },
        }
    }

    fn mark(side: Side) -> u8 {
        side.index() as u8 + 1
    }

    fn winner(&self) -> Option<Side> {
        LINES.iter().find_map(|l| {
            let c = self.cells[l[0]];
            (c != 0 && c == self.cells[l[1]] && c == self.cells[l[2]]).then_some({
                if c == 1 {
                    Side::First
                } else {
                    Side::Second
                }
            })
        })
    }
}

impl fmt::Display for Ttt {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for c in self.cells {
            f.write_str(match c {
                1 => "x",
                2 => "o",
                _ => ".",
            })?;
        }
        write!(f, " {}", self.stm)
    }
}

impl Position for Ttt {
    type Rules = ();
    type Move = Cell;
    type ParseError = ToyParseError;

    const MOVE_INDEX_COUNT: usize = 9;

    fn new((): ()) -> Ttt {
        Ttt::empty()
    }

    fn from_text(text: &str, (): ()) -> Result<Ttt, ToyParseError> {
        if text.len() < 9 {
            return Err(ToyParseError(text.to_string()));
        }
        Ok(Ttt::parse(text))
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
            moves.extend((0..9u8).filter(|&i| self.cells[i as usize] == 0).map(Cell));
        }
    }

    fn play_unchecked(&mut self, mv: Cell) {
        self.cells[mv.0 as usize] = Ttt::mark(self.stm);
        self.stm = self.stm.opponent();
    }

    fn outcome(&self) -> Option<Outcome> {
        if let Some(w) = self.winner() {
            return Some(Outcome::win(w, WinReason::NoPieces));
        }
        self.cells
            .iter()
            .all(|&c| c != 0)
            .then_some(Outcome::Draw(DrawReason::NoCapture))
    }

    fn is_capture(&self, mv: Cell) -> bool {
        // Completing a line counts as the "capture" of this game.
        let mut next = *self;
        next.play_unchecked(mv);
        next.winner().is_some()
    }

    fn zobrist(&self) -> u64 {
        self.zobrist_from_scratch()
    }

    fn zobrist_from_scratch(&self) -> u64 {
        let mut k = self.stm.index() as u64;
        for c in self.cells {
            k = k * 3 + u64::from(c);
        }
        mix(k)
    }
}

/// Open lines: +10 per line holding only the side to move's marks (and at
/// least one), -10 per line holding only the opponent's.
#[derive(Clone, Copy, Debug, Default)]
pub struct TttEval;

impl Evaluator<Ttt> for TttEval {
    fn evaluate(&self, pos: &Ttt) -> i32 {
        let me = Ttt::mark(pos.stm);
        let mut score = 0;
        for l in LINES {
            let cells = l.map(|i| pos.cells[i]);
            let mine = cells.iter().filter(|&&c| c == me).count();
            let theirs = cells.iter().filter(|&&c| c != 0 && c != me).count();
            if theirs == 0 && mine > 0 {
                score += 10;
            } else if mine == 0 && theirs > 0 {
                score -= 10;
            }
        }
        score
    }
}

/// Tic-tac-toe hooks: passing (never helps in tic-tac-toe, so null moves
/// are sound).
#[derive(Clone, Copy, Debug, Default)]
pub struct TttHooks;

impl SearchHooks<SimpleGame<Ttt>> for TttHooks {
    fn make_null(&self, game: &mut SimpleGame<Ttt>) -> bool {
        let mut next = *game.position();
        next.stm = next.stm.opponent();
        game.push_pass(next);
        true
    }

    fn undo_null(&self, game: &mut SimpleGame<Ttt>) {
        game.undo();
    }
}

pub fn ttt(text: &str) -> SimpleGame<Ttt> {
    SimpleGame::new(Ttt::parse(text))
}
