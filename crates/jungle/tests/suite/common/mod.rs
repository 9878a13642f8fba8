//! An independent, straightforward reference implementation of the Jungle
//! rules (spec sections 3–5, board decisions only), written square by square
//! with no bitboards, to check the engine against.
#![allow(dead_code)]

use qi_core::testkit::Rng;
use qi_core::{Position, Side};
use qi_jungle::{
    Animal, JumpBlock, JumpBlockArea, Jumps, Jungle, Move, Piece, RankOrder, Repetition, Rules,
    Square, TrappedAttacks,
};

/// Parses a position or panics with the error.
pub fn pos(jfen: &str, rules: Rules) -> Jungle {
    Jungle::from_text(jfen, rules).unwrap_or_else(|e| panic!("bad test JFEN {jfen:?}: {e}"))
}

/// Parses a position that no game may reach (puzzle or analysis loading),
/// or panics with the error.
pub fn pos_lenient(jfen: &str, rules: Rules) -> Jungle {
    Jungle::from_text_lenient(jfen, rules).unwrap_or_else(|e| panic!("bad test JFEN {jfen:?}: {e}"))
}

/// Parses a move.
pub fn mv(text: &str) -> Move {
    text.parse().unwrap()
}

/// The legal moves as sorted text.
pub fn move_texts(pos: &Jungle) -> Vec<String> {
    let mut v: Vec<String> = pos.legal_moves().iter().map(|m| m.to_string()).collect();
    v.sort();
    v
}

/// Whether `text` is a legal move of `pos`.
pub fn legal(pos: &Jungle, text: &str) -> bool {
    pos.legal_moves().contains(&mv(text))
}

pub fn presets() -> [(&'static str, Rules); 4] {
    [
        ("standard", Rules::standard()),
        ("yeshou", Rules::yeshou()),
        ("datou", Rules::datou()),
        ("traditional", Rules::traditional()),
    ]
}

// ---- the reference ----

/// (file, rank), both 0-based.
pub type Sq = (i32, i32);

pub fn sq_of(s: Square) -> Sq {
    (s.file() as i32, s.rank() as i32)
}

pub fn square(s: Sq) -> Square {
    Square::from_file_rank(s.0 as u8, s.1 as u8).unwrap()
}

pub fn on_board(s: Sq) -> bool {
    (0..7).contains(&s.0) && (0..9).contains(&s.1)
}

/// The rivers: files b, c, e, f on ranks 4, 5, 6.
pub fn is_water(s: Sq) -> bool {
    matches!(s.0, 1 | 2 | 4 | 5) && matches!(s.1, 3..=5)
}

pub fn den_of(side: Side) -> Sq {
    match side {
        Side::First => (3, 0),
        Side::Second => (3, 8),
    }
}

pub fn trap_owner(s: Sq) -> Option<Side> {
    match s {
        (2, 0) | (4, 0) | (3, 1) => Some(Side::First),
        (2, 8) | (4, 8) | (3, 7) => Some(Side::Second),
        _ => None,
    }
}

/// Strength per the spec's list (Elephant 8 … Rat 1), Dog/Wolf swapped
/// under Dog over Wolf.
pub fn strength(a: Animal, order: RankOrder) -> i32 {
    let wolf_over_dog = order == RankOrder::WolfOverDog;
    match a {
        Animal::Elephant => 8,
        Animal::Lion => 7,
        Animal::Tiger => 6,
        Animal::Leopard => 5,
        Animal::Wolf => {
            if wolf_over_dog {
                4
            } else {
                3
            }
        }
        Animal::Dog => {
            if wolf_over_dog {
                3
            } else {
                4
            }
        }
        Animal::Cat => 2,
        Animal::Rat => 1,
    }
}

/// Spec section 4, read literally.
pub fn can_capture(rules: &Rules, att: Piece, from: Sq, def: Piece, to: Sq) -> bool {
    if att.side == def.side {
        return false;
    }
    // An animal in one of its enemy's traps has lost its fighting power
    // under trapped_attacks = none: it captures nothing there.
    if rules.trapped_attacks == TrappedAttacks::None && trap_owner(from) == Some(def.side) {
        return false;
    }
    let (from_water, to_water) = (is_water(from), is_water(to));
    if from_water && to_water {
        // only Rats are in water; two Rats in water capture each other
        return att.animal == Animal::Rat && def.animal == Animal::Rat;
    }
    if from_water != to_water {
        // across the bank: only Rat against Rat, and only with the option
        return att.animal == Animal::Rat && def.animal == Animal::Rat && rules.rat_bank_capture;
    }
    // both on land
    if trap_owner(to) == Some(att.side) {
        return true;
    }
    if att.animal == Animal::Rat && def.animal == Animal::Elephant {
        return true;
    }
    if att.animal == Animal::Elephant && def.animal == Animal::Rat {
        return false;
    }
    strength(att.animal, rules.rank_order) >= strength(def.animal, rules.rank_order)
}

/// A board as a plain array.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RefBoard {
    pub cells: [[Option<Piece>; 9]; 7],
    pub side: Side,
    pub rules: Rules,
}

impl RefBoard {
    pub fn from_jungle(pos: &Jungle) -> RefBoard {
        let mut cells = [[None; 9]; 7];
        for s in Square::all() {
            let (f, r) = sq_of(s);
            cells[f as usize][r as usize] = pos.piece_at(s);
        }
        RefBoard {
            cells,
            side: pos.side_to_move(),
            rules: *pos.rules(),
        }
    }

    pub fn at(&self, s: Sq) -> Option<Piece> {
        self.cells[s.0 as usize][s.1 as usize]
    }

    pub fn game_over(&self) -> bool {
        let mut count = [0; 2];
        for f in 0..7 {
            for r in 0..9 {
                if let Some(p) = self.cells[f][r] {
                    count[p.side.index()] += 1;
                    if (f as i32, r as i32) == den_of(p.side.opponent()) {
                        return true;
                    }
                }
            }
        }
        count[0] == 0 || count[1] == 0
    }

    fn jumps_allowed(&self, animal: Animal, vertical: bool) -> bool {
        let j = match animal {
            Animal::Lion => self.rules.lion_jumps,
            Animal::Tiger => self.rules.tiger_jumps,
            _ => return false,
        };
        match j {
            Jumps::None => false,
            Jumps::Both => true,
            Jumps::HorizontalOnly => !vertical,
            Jumps::VerticalOnly => vertical,
        }
    }

    /// Whether `p` standing on `from` may end its move on `to`.
    fn may_enter(&self, p: Piece, from: Sq, to: Sq) -> bool {
        if to == den_of(p.side) {
            return false;
        }
        if is_water(to) && p.animal != Animal::Rat {
            return false;
        }
        match self.at(to) {
            None => true,
            Some(q) if q.side == p.side => false,
            Some(q) => can_capture(&self.rules, p, from, q, to),
        }
    }

    /// Moves of `side` as if it were to move (ignores game over).
    pub fn moves_of(&self, side: Side) -> Vec<(Sq, Sq)> {
        let mut out = Vec::new();
        for f in 0..7 {
            for r in 0..9 {
                let from = (f, r);
                let Some(p) = self.at(from) else { continue };
                if p.side != side {
                    continue;
                }
                for (df, dr) in [(0, 1), (0, -1), (1, 0), (-1, 0)] {
                    let to = (f + df, r + dr);
                    if !on_board(to) {
                        continue;
                    }
                    if self.may_enter(p, from, to) {
                        out.push((from, to));
                    }
                    // river jump
                    if is_water(to) && self.jumps_allowed(p.animal, df == 0) {
                        let blocks = |q: Piece| match self.rules.jump_block {
                            JumpBlock::AnyRat => true,
                            JumpBlock::EnemyRat => q.side != p.side,
                        };
                        let mut cur = to;
                        let mut blocked = false;
                        while on_board(cur) && is_water(cur) {
                            if let Some(q) = self.at(cur) {
                                blocked |= blocks(q);
                            }
                            cur = (cur.0 + df, cur.1 + dr);
                        }
                        if self.rules.jump_block_area == JumpBlockArea::River {
                            // The river crossed: the water on the same side
                            // of the d file as the first water square.
                            for f in 0..7 {
                                for r in 0..9 {
                                    let w = (f, r);
                                    if is_water(w) && (f < 3) == (to.0 < 3) {
                                        blocked |= self.at(w).is_some_and(blocks);
                                    }
                                }
                            }
                        }
                        if !blocked && on_board(cur) && self.may_enter(p, from, cur) {
                            out.push((from, cur));
                        }
                    }
                }
            }
        }
        out
    }

    /// Legal moves of the side to move as sorted text.
    pub fn legal_moves(&self) -> Vec<String> {
        if self.game_over() {
            return Vec::new();
        }
        let mut v: Vec<String> = self
            .moves_of(self.side)
            .into_iter()
            .map(|(a, b)| format!("{}{}", square(a), square(b)))
            .collect();
        v.sort();
        v
    }

    pub fn play(&self, from: Sq, to: Sq) -> RefBoard {
        let mut next = self.clone();
        next.cells[to.0 as usize][to.1 as usize] = self.at(from);
        next.cells[from.0 as usize][from.1 as usize] = None;
        next.side = self.side.opponent();
        next
    }

    pub fn perft(&self, depth: u32) -> u64 {
        if depth == 0 {
            return 1;
        }
        if self.game_over() {
            return 0;
        }
        self.moves_of(self.side)
            .into_iter()
            .map(|(a, b)| self.play(a, b).perft(depth - 1))
            .sum()
    }
}

/// JFEN from a list of `<letter><square>` tokens (`"Lb3 rf4"`) and the side
/// to move (`'w'` or `'b'`).
pub fn jfen(pieces: &str, side: char) -> String {
    let mut grid = [[None::<char>; 7]; 9];
    for token in pieces.split_whitespace() {
        let letter = token.chars().next().unwrap();
        let sq: Square = token[1..].parse().unwrap();
        grid[sq.rank() as usize][sq.file() as usize] = Some(letter);
    }
    let mut ranks = Vec::new();
    for rank in (0..9).rev() {
        let mut text = String::new();
        let mut empty = 0;
        for cell in grid[rank] {
            match cell {
                Some(c) => {
                    if empty > 0 {
                        text.push_str(&empty.to_string());
                        empty = 0;
                    }
                    text.push(c);
                }
                None => empty += 1,
            }
        }
        if empty > 0 {
            text.push_str(&empty.to_string());
        }
        ranks.push(text);
    }
    format!("{} {side}", ranks.join("/"))
}

/// A position from piece tokens (see [`jfen`]).
pub fn board(pieces: &str, side: char, rules: Rules) -> Jungle {
    pos(&jfen(pieces, side), rules)
}

/// A position from piece tokens, read leniently: it need not be one a
/// game reaches (see [`pos_lenient`]).
pub fn board_lenient(pieces: &str, side: char, rules: Rules) -> Jungle {
    pos_lenient(&jfen(pieces, side), rules)
}

// ---- the anti-chase rules, read literally from the record ----

/// One own move of a side as the anti-chase rules see it: the animal that
/// moved and the square it entered.
type Entered = (Piece, Sq);

/// The moves `side` made in `game`, most recent first.
fn own_moves(game: &qi_jungle::Game, side: Side) -> Vec<Entered> {
    let positions: Vec<Jungle> = game.positions().copied().collect();
    let mut out: Vec<Entered> = game
        .moves()
        .iter()
        .enumerate()
        .filter(|(i, _)| positions[*i].side_to_move() == side)
        .map(|(i, m)| (positions[i].piece_at(m.from).unwrap(), sq_of(m.to)))
        .collect();
    out.reverse();
    out
}

fn entered_trap(moves: &[Entered], p: Piece) -> bool {
    moves
        .iter()
        .any(|&(q, to)| q == p && trap_owner(to).is_some())
}

/// Whether the 17-5 rule forbids `p` (of the side whose moves are `own`)
/// to enter `to`.
fn forbidden_17_5(own: &[Entered], p: Piece, to: Sq) -> bool {
    if own.len() < 17 {
        return false;
    }
    let window = &own[..17];
    if window.iter().any(|&(q, _)| q != p) || entered_trap(window, p) {
        return false;
    }
    let mut squares: Vec<Sq> = window.iter().map(|&(_, s)| s).collect();
    squares.sort();
    squares.dedup();
    squares.len() <= 5 && squares.contains(&to)
}

/// Whether the 7-3 rule, before its "chased" exemption, forbids `p` to
/// enter `to`.
fn forbidden_7_3_unless_chased(own: &[Entered], p: Piece, to: Sq) -> bool {
    let window = &own[..own.len().min(7)];
    !entered_trap(window, p) && window.iter().filter(|&&e| e == (p, to)).count() >= 3
}

/// The captures of `p` standing on `target` that `board`'s side
/// `attacker` could play, looking `levels` more levels into the
/// attacker's own anti-chase rules (0: board captures).
fn chased(
    game: &qi_jungle::Game,
    board: &RefBoard,
    target: Sq,
    attacker: Side,
    levels: u32,
) -> bool {
    let own = own_moves(game, attacker);
    board
        .moves_of(attacker)
        .into_iter()
        .filter(|&(_, to)| to == target)
        .any(|(from, to)| {
            if levels == 0 {
                return true;
            }
            let q = board.at(from).unwrap();
            let seven = forbidden_7_3_unless_chased(&own, q, to)
                && !chased(game, board, from, attacker.opponent(), levels - 1);
            !seven && !forbidden_17_5(&own, q, to)
        })
}

/// The legal moves of the side to move of `game` under the board rules
/// and the 7-3 / 17-5 rules (spec section 5.6), as sorted text. Ignores
/// the repetition and no-capture rules.
pub fn naive_game_moves(game: &qi_jungle::Game) -> Vec<String> {
    let pos = game.position();
    let board = RefBoard::from_jungle(pos);
    if !pos.rules().anti_chase {
        return board.legal_moves();
    }
    if board.game_over() {
        return Vec::new();
    }
    let side = pos.side_to_move();
    let own = own_moves(game, side);
    let mut v: Vec<String> = board
        .moves_of(side)
        .into_iter()
        .filter(|&(from, to)| {
            let p = board.at(from).unwrap();
            let seven = forbidden_7_3_unless_chased(&own, p, to)
                && !chased(game, &board, from, side.opponent(), 1);
            !seven && !forbidden_17_5(&own, p, to)
        })
        .map(|(a, b)| format!("{}{}", square(a), square(b)))
        .collect();
    v.sort();
    v
}

/// A random rule set: every option of the move and capture rules drawn
/// independently (the history rules off).
pub fn random_rules(rng: &mut Rng) -> Rules {
    let jumps = [
        Jumps::None,
        Jumps::Both,
        Jumps::HorizontalOnly,
        Jumps::VerticalOnly,
    ];
    Rules {
        rank_order: if rng.below(2) == 0 {
            RankOrder::WolfOverDog
        } else {
            RankOrder::DogOverWolf
        },
        lion_jumps: jumps[rng.below(4)],
        tiger_jumps: jumps[rng.below(4)],
        jump_block: if rng.below(2) == 0 {
            JumpBlock::AnyRat
        } else {
            JumpBlock::EnemyRat
        },
        jump_block_area: if rng.below(2) == 0 {
            JumpBlockArea::Path
        } else {
            JumpBlockArea::River
        },
        trapped_attacks: if rng.below(2) == 0 {
            TrappedAttacks::Normal
        } else {
            TrappedAttacks::None
        },
        rat_bank_capture: rng.below(2) == 0,
        no_capture_draw: 200,
        repetition: Repetition::Off,
        anti_chase: false,
    }
}
