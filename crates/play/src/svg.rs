//! Boards drawn as SVG: the same picture for the web page and for
//! `qi render`.
//!
//! Jungle's board shows its terrain (water, traps, dens) and the animals
//! labelled in Chinese and English; Five Tigers' board shows its grid with
//! the diagonals of its formations and the X and O stones. The last move,
//! a selected square and legal destinations can be highlighted. Every square
//! or point carries its name in a `data-sq` attribute, which the page uses
//! to turn clicks into moves.
//!
//! ```
//! use qi_play::svg::{render, RenderOptions};
//!
//! let svg = render("jungle", None, &RenderOptions::default()).unwrap();
//! assert!(svg.starts_with("<svg"));
//! assert!(svg.contains("象") && svg.contains("Elephant"));
//! ```

use std::any::Any;
use std::fmt::Write;

use qi_core::{Game, Position, Refusal, Side};
use qi_engine::record::Record;
use qi_engine::{GameFn, GameKit, Games, Registry, RulesOf, SpecError};
use qi_five_tigers::{FiveTigers, FormationKind, Point, FORMATIONS};
use qi_jungle::{Animal, Jungle, Square};

use crate::reason::Reason;

/// What to highlight on a board, by square or point name (`a3`).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Marks {
    /// The squares of the last move (its origin and destination, or the
    /// point placed on or removed from).
    pub last: Vec<String>,
    /// A selected square (the piece about to move).
    pub selected: Option<String>,
    /// Legal destinations (or, for Five Tigers, points to place on or
    /// remove from).
    pub targets: Vec<String>,
}

/// How to draw a board.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct RenderOptions {
    /// The highlights.
    pub marks: Marks,
    /// Draw the board from the second side's point of view (its pieces at
    /// the bottom).
    pub flip: bool,
    /// Write a caption under the board: the side to move and the position
    /// text.
    pub caption: bool,
}

/// Why a board could not be drawn.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum RenderError {
    /// The game spec names no game or rules of the registry.
    #[error("{0}")]
    Spec(#[from] SpecError),
    /// The position text is not a position of the game.
    #[error("bad position: {0}")]
    Position(Reason),
    /// A highlighted square is not on the board.
    #[error("'{0}' is not a square of the board")]
    Square(String),
    /// A move that cannot be read or is not legal.
    #[error("move {number} '{text}': {reason}")]
    Move {
        /// The move's number, from 1.
        number: usize,
        /// The move (control characters escaped).
        text: String,
        /// Why it is refused.
        reason: Reason,
    },
    /// A game record that cannot be read or replayed.
    #[error("bad record: {0}")]
    Record(Reason),
    /// A ply beyond the record's moves.
    #[error("ply {ply} is beyond the record's {len} moves")]
    Ply {
        /// The ply asked for.
        ply: usize,
        /// The record's number of moves.
        len: usize,
    },
    /// The game has no drawing.
    #[error("no drawing for the game '{0}'")]
    NoDrawing(String),
}

/// Draws the position `text` (the start position when `None`) of the game
/// `spec` names (`jungle`, `five-tigers:ten`, ...).
pub fn render(
    spec: &str,
    text: Option<&str>,
    options: &RenderOptions,
) -> Result<String, RenderError> {
    render_game(spec, text, &[], options)
}

/// Draws the position of the game `spec` names after `moves` (played in
/// the game layer, so every rule applies) from `text` (the start position
/// when `None`). The last move is highlighted unless `options` already
/// marks squares as last.
pub fn render_game(
    spec: &str,
    text: Option<&str>,
    moves: &[&str],
    options: &RenderOptions,
) -> Result<String, RenderError> {
    struct Draw<'a>(Option<&'a str>, &'a [&'a str], &'a RenderOptions);
    impl GameFn for Draw<'_> {
        type Output = Result<String, RenderError>;
        fn call<K: GameKit>(self, rules: RulesOf<K>) -> Self::Output {
            let start = start_position::<K>(rules, self.0).map_err(RenderError::Position)?;
            let mut game = K::Game::new(start);
            for (i, text) in self.1.iter().enumerate() {
                let bad = |reason: Reason| RenderError::Move {
                    number: i + 1,
                    text: text.chars().take(40).flat_map(char::escape_debug).collect(),
                    reason,
                };
                let mv = text
                    .parse::<<K::Position as Position>::Move>()
                    .map_err(|e| bad(Reason::of_error(&e)))?;
                if let Some(outcome) = game.outcome() {
                    return Err(bad(game_over(outcome)));
                }
                game.play(mv).map_err(|e| bad(Reason::of(&e.reason)))?;
            }
            render_at::<K>(&game, game.moves().len(), self.2)
        }
    }
    Games::dispatch(spec, Draw(text, moves, options))?
}

/// Draws the position of a game record (`docs/records.md`) after `ply`
/// of its moves (all of them when `None`), the last of them highlighted
/// unless `options` already marks squares as last.
pub fn render_record(
    record: &str,
    ply: Option<usize>,
    options: &RenderOptions,
) -> Result<String, RenderError> {
    let (record, spec) = read_record(record).map_err(RenderError::Record)?;
    struct Draw<'a>(&'a Record, Option<usize>, &'a RenderOptions);
    impl GameFn for Draw<'_> {
        type Output = Result<String, RenderError>;
        fn call<K: GameKit>(self, rules: RulesOf<K>) -> Self::Output {
            let game = self
                .0
                .replay::<K>()
                .map_err(|e| RenderError::Record(Reason::of_replay::<K>(self.0, rules, &e)))?;
            let len = game.moves().len();
            let ply = self.1.unwrap_or(len);
            if ply > len {
                return Err(RenderError::Ply { ply, len });
            }
            render_at::<K>(&game, ply, self.2)
        }
    }
    Games::dispatch(&spec, Draw(&record, ply, options))
        .map_err(|e| RenderError::Record(Reason::of_game_tag(&e)))?
}

/// Reads a game record and its `Game` tag.
pub(crate) fn read_record(text: &str) -> Result<(Record, String), Reason> {
    let record: Record = text
        .parse()
        .map_err(|e: qi_engine::record::ParseError| Reason::of(&e))?;
    let spec = record
        .tag("Game")
        .ok_or_else(Reason::no_game_tag)?
        .to_string();
    Ok((record, spec))
}

/// The position `text` of game `K` under `rules` (the start position when
/// `None`, empty or `startpos`), or why the text is not one.
pub(crate) fn start_position<K: GameKit>(
    rules: RulesOf<K>,
    text: Option<&str>,
) -> Result<K::Position, Reason> {
    match text.map(str::trim) {
        None | Some("") | Some("startpos") => Ok(K::Position::new(rules)),
        Some(text) => K::Position::from_text(text, rules).map_err(|e| Reason::of_error(&e)),
    }
}

/// Why a move is refused after the end of the game.
pub(crate) fn game_over(outcome: impl std::fmt::Display) -> Reason {
    Reason::of(&Refusal::GameOver {
        outcome: outcome.to_string(),
    })
}

/// Draws `game`'s position after `ply` of its moves.
fn render_at<K: GameKit>(
    game: &K::Game,
    ply: usize,
    options: &RenderOptions,
) -> Result<String, RenderError> {
    let mut position = game.start().clone();
    for mv in &game.moves()[..ply] {
        position.play_unchecked(*mv);
    }
    let mut options = options.clone();
    if options.marks.last.is_empty() {
        if let Some(last) = ply.checked_sub(1).map(|i| game.moves()[i]) {
            options.marks.last = move_squares(&last.to_string());
        }
    }
    render_position::<K>(&position, &options)
}

/// Draws `position` of the game of kit `K` (the games this crate knows how
/// to draw: Jungle and Five Tigers).
pub fn render_position<K: GameKit>(
    position: &K::Position,
    options: &RenderOptions,
) -> Result<String, RenderError> {
    let any: &dyn Any = position;
    if let Some(jungle) = any.downcast_ref::<Jungle>() {
        let marks = Squares::read(&options.marks, 7, 9)?;
        Ok(draw_jungle(jungle, &marks, options))
    } else if let Some(tigers) = any.downcast_ref::<FiveTigers>() {
        let marks = Squares::read(&options.marks, 5, 5)?;
        Ok(draw_five_tigers(tigers, &marks, options))
    } else {
        Err(RenderError::NoDrawing(K::NAME.to_string()))
    }
}

/// The squares named in a move's text, in order: `a3a4` → a3, a4;
/// `c3-c4` → c3, c4; `xb2` → b2.
pub fn move_squares(text: &str) -> Vec<String> {
    let bytes = text.as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    while i + 1 < bytes.len() {
        if bytes[i].is_ascii_lowercase() && bytes[i] != b'x' && bytes[i + 1].is_ascii_digit() {
            out.push(text[i..i + 2].to_string());
            i += 2;
        } else {
            i += 1;
        }
    }
    out
}

/// The marks as (file, rank) pairs.
struct Squares {
    last: Vec<(u8, u8)>,
    selected: Option<(u8, u8)>,
    targets: Vec<(u8, u8)>,
}

impl Squares {
    fn read(marks: &Marks, width: u8, height: u8) -> Result<Squares, RenderError> {
        let one = |name: &String| {
            square(name, width, height).ok_or_else(|| RenderError::Square(escape(name)))
        };
        Ok(Squares {
            last: marks.last.iter().map(one).collect::<Result<_, _>>()?,
            selected: marks.selected.as_ref().map(one).transpose()?,
            targets: marks.targets.iter().map(one).collect::<Result<_, _>>()?,
        })
    }
}

/// `a1` → (0, 0) on a board of `width` files and `height` ranks.
fn square(name: &str, width: u8, height: u8) -> Option<(u8, u8)> {
    let mut chars = name.chars();
    let file = chars.next()?;
    let rank: u8 = chars.as_str().parse().ok()?;
    if !file.is_ascii_lowercase() || !(1..=height).contains(&rank) {
        return None;
    }
    let file = file as u8 - b'a';
    (file < width).then_some((file, rank - 1))
}

/// `(0, 0)` → `a1`.
fn name(file: u8, rank: u8) -> String {
    format!("{}{}", (b'a' + file) as char, rank + 1)
}

/// Text escaped for XML.
fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '&' => out.push_str("&amp;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&apos;"),
            c if c.is_control() => out.push('?'),
            c => out.push(c),
        }
    }
    out
}

/// The Chinese name of an animal.
pub fn chinese(animal: Animal) -> &'static str {
    match animal {
        Animal::Rat => "鼠",
        Animal::Cat => "猫",
        Animal::Dog => "狗",
        Animal::Wolf => "狼",
        Animal::Leopard => "豹",
        Animal::Tiger => "虎",
        Animal::Lion => "狮",
        Animal::Elephant => "象",
    }
}

const FONT: &str =
    "font-family=\"'Noto Sans CJK SC','WenQuanYi Zen Hei','Microsoft YaHei',sans-serif\"";
const CELL: u32 = 60;
const MARGIN: u32 = 24;
const RED: &str = "#c62828";
const BLUE: &str = "#1f5fbf";

fn open_svg(out: &mut String, width: u32, height: u32, title: &str) {
    let _ = write!(
        out,
        "<svg xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 {width} {height}\" \
         width=\"{width}\" height=\"{height}\" {FONT} class=\"qi-board\">\
         <title>{}</title>",
        escape(title)
    );
}

fn caption(out: &mut String, y: u32, width: u32, text: &str) {
    let _ = write!(
        out,
        "<text x=\"{}\" y=\"{y}\" font-size=\"13\" text-anchor=\"middle\" fill=\"#333\">{}</text>",
        width / 2,
        escape(text)
    );
}

fn draw_jungle(pos: &Jungle, marks: &Squares, options: &RenderOptions) -> String {
    let (files, ranks) = (7u32, 9u32);
    let width = MARGIN + files * CELL + 8;
    let board_bottom = 8 + ranks * CELL;
    let height = board_bottom + MARGIN + if options.caption { 40 } else { 0 };
    // Screen cell of a square.
    let at = |file: u8, rank: u8| -> (u32, u32) {
        let (col, row) = if options.flip {
            (files - 1 - u32::from(file), u32::from(rank))
        } else {
            (u32::from(file), ranks - 1 - u32::from(rank))
        };
        (MARGIN + col * CELL, 8 + row * CELL)
    };
    let side = qi_jungle::side_name(pos.side_to_move());
    let mut out = String::new();
    open_svg(&mut out, width, height, &format!("Jungle: {side} to move"));
    let _ = write!(
        out,
        "<rect x=\"0\" y=\"0\" width=\"{width}\" height=\"{height}\" fill=\"#fbf8ef\"/>"
    );
    for sq in Square::all() {
        let (x, y) = at(sq.file(), sq.rank());
        let (fill, kind) = if sq.is_water() {
            ("#8ecae6", "water")
        } else if sq.den_owner().is_some() {
            ("#c9a227", "den")
        } else if sq.is_trap() {
            ("#e0b07a", "trap")
        } else {
            ("#cde6b0", "land")
        };
        let _ = write!(
            out,
            "<rect class=\"sq {kind}\" data-sq=\"{}\" x=\"{x}\" y=\"{y}\" width=\"{CELL}\" \
             height=\"{CELL}\" fill=\"{fill}\" stroke=\"#6b7d57\" stroke-width=\"1\"/>",
            name(sq.file(), sq.rank())
        );
        let (cx, cy) = (x + CELL / 2, y + CELL / 2);
        let label = if sq.den_owner().is_some() {
            Some("穴 den")
        } else if sq.is_trap() {
            Some("阱 trap")
        } else {
            None
        };
        if let Some(label) = label {
            let (zh, en) = label.split_once(' ').unwrap_or((label, ""));
            let _ = write!(
                out,
                "<text x=\"{cx}\" y=\"{}\" font-size=\"22\" text-anchor=\"middle\" fill=\"#7a5418\" \
                 opacity=\"0.7\" pointer-events=\"none\">{zh}</text>\
                 <text x=\"{cx}\" y=\"{}\" font-size=\"10\" text-anchor=\"middle\" fill=\"#7a5418\" \
                 opacity=\"0.8\" pointer-events=\"none\">{en}</text>",
                cy + 4,
                cy + 20
            );
        }
    }
    highlights(&mut out, marks, |f, r| {
        let (x, y) = at(f, r);
        (x + CELL / 2, y + CELL / 2)
    });
    for sq in Square::all() {
        let Some(piece) = pos.piece_at(sq) else {
            continue;
        };
        let (x, y) = at(sq.file(), sq.rank());
        let (cx, cy) = (x + CELL / 2, y + CELL / 2);
        let (fill, side) = match piece.side {
            Side::First => (RED, "first"),
            Side::Second => (BLUE, "second"),
        };
        let animal = piece.animal;
        let _ = write!(
            out,
            "<g class=\"piece\" data-sq=\"{}\" data-side=\"{side}\" data-piece=\"{}\">\
             <circle cx=\"{cx}\" cy=\"{cy}\" r=\"26\" fill=\"{fill}\" stroke=\"#fff\" stroke-width=\"2\"/>\
             <text x=\"{cx}\" y=\"{}\" font-size=\"24\" text-anchor=\"middle\" fill=\"#fff\">{}</text>\
             <text x=\"{cx}\" y=\"{}\" font-size=\"9\" text-anchor=\"middle\" fill=\"#fff\">{}</text></g>",
            name(sq.file(), sq.rank()),
            piece.letter(),
            cy + 5,
            chinese(animal),
            cy + 18,
            animal.name()
        );
    }
    coordinates(
        &mut out,
        files,
        ranks,
        options.flip,
        |col| (MARGIN + col * CELL + CELL / 2, board_bottom + 17),
        |row| (MARGIN / 2, 8 + row * CELL + CELL / 2 + 4),
    );
    if options.caption {
        caption(
            &mut out,
            board_bottom + MARGIN + 22,
            width,
            &format!("{side} to move · {pos}"),
        );
    }
    out.push_str("</svg>\n");
    out
}

const SPACING: u32 = 80;
const EDGE: u32 = 50;

fn draw_five_tigers(pos: &FiveTigers, marks: &Squares, options: &RenderOptions) -> String {
    let n = 5u32;
    let width = EDGE * 2 + (n - 1) * SPACING;
    let board_bottom = EDGE * 2 + (n - 1) * SPACING;
    let height = board_bottom + if options.caption { 40 } else { 0 };
    let at = |file: u8, rank: u8| -> (u32, u32) {
        let (col, row) = if options.flip {
            (n - 1 - u32::from(file), u32::from(rank))
        } else {
            (u32::from(file), n - 1 - u32::from(rank))
        };
        (EDGE + col * SPACING, EDGE + row * SPACING)
    };
    let side = match pos.side_to_move() {
        Side::First => "X",
        Side::Second => "O",
    };
    let mut out = String::new();
    open_svg(
        &mut out,
        width,
        height,
        &format!("Five Tigers: {side} to move"),
    );
    let _ = write!(
        out,
        "<rect x=\"0\" y=\"0\" width=\"{width}\" height=\"{height}\" fill=\"#f3e2b8\"/>"
    );
    // The grid, then the diagonals of the diagonal formations.
    let mut line = |a: (u8, u8), b: (u8, u8), class: &str, stroke: &str| {
        let (x1, y1) = at(a.0, a.1);
        let (x2, y2) = at(b.0, b.1);
        let _ = write!(
            out,
            "<line class=\"{class}\" x1=\"{x1}\" y1=\"{y1}\" x2=\"{x2}\" y2=\"{y2}\" \
             stroke=\"{stroke}\" stroke-width=\"2\"/>"
        );
    };
    for i in 0..5u8 {
        line((i, 0), (i, 4), "grid", "#5b4322");
        line((0, i), (4, i), "grid", "#5b4322");
    }
    for formation in FORMATIONS.iter().filter(|f| {
        matches!(
            f.kind,
            FormationKind::ThreeDiagonal
                | FormationKind::FourDiagonal
                | FormationKind::ThroughHeaven
        )
    }) {
        let points: Vec<Point> = formation.mask.into_iter().filter_map(Point::new).collect();
        let (Some(first), Some(last)) = (points.first(), points.last()) else {
            continue;
        };
        line(
            (first.file(), first.rank()),
            (last.file(), last.rank()),
            "diagonal",
            "#8a6a3a",
        );
    }
    for point in (0..25u8).filter_map(Point::new) {
        let (x, y) = at(point.file(), point.rank());
        let _ = write!(
            out,
            "<circle class=\"sq point\" data-sq=\"{}\" cx=\"{x}\" cy=\"{y}\" r=\"34\" fill=\"#000\" \
             fill-opacity=\"0\"/><circle cx=\"{x}\" cy=\"{y}\" r=\"4\" fill=\"#5b4322\" pointer-events=\"none\"/>",
            name(point.file(), point.rank())
        );
    }
    highlights(&mut out, marks, at);
    for point in (0..25u8).filter_map(Point::new) {
        let Some(owner) = pos.piece_at(point) else {
            continue;
        };
        let (x, y) = at(point.file(), point.rank());
        let (fill, ink, letter, side) = match owner {
            Side::First => ("#222", "#fff", "X", "first"),
            Side::Second => ("#fafafa", "#222", "O", "second"),
        };
        let _ = write!(
            out,
            "<g class=\"piece\" data-sq=\"{}\" data-side=\"{side}\" data-piece=\"{letter}\">\
             <circle cx=\"{x}\" cy=\"{y}\" r=\"26\" fill=\"{fill}\" stroke=\"#5b4322\" stroke-width=\"2\"/>\
             <text x=\"{x}\" y=\"{}\" font-size=\"22\" text-anchor=\"middle\" fill=\"{ink}\">{letter}</text></g>",
            name(point.file(), point.rank()),
            y + 8
        );
    }
    coordinates(
        &mut out,
        n,
        n,
        options.flip,
        |col| (EDGE + col * SPACING, board_bottom - 8),
        |row| (12, EDGE + row * SPACING + 4),
    );
    if options.caption {
        let hands = format!(
            "X in hand {} · O in hand {}",
            pos.hand(Side::First),
            pos.hand(Side::Second)
        );
        caption(
            &mut out,
            board_bottom + 14,
            width,
            &format!("{side} to move · {hands}"),
        );
        caption(&mut out, board_bottom + 32, width, &pos.to_string());
    }
    out.push_str("</svg>\n");
    out
}

/// Draws the marks: the last move's squares as yellow discs, the selected
/// square as a ring, legal destinations as dots. `centre` gives a square's
/// centre on the picture.
fn highlights(out: &mut String, marks: &Squares, centre: impl Fn(u8, u8) -> (u32, u32)) {
    for &(f, r) in &marks.last {
        let (x, y) = centre(f, r);
        let _ = write!(
            out,
            "<circle class=\"last\" cx=\"{x}\" cy=\"{y}\" r=\"31\" fill=\"#ffd600\" fill-opacity=\"0.5\" \
             pointer-events=\"none\"/>"
        );
    }
    if let Some((f, r)) = marks.selected {
        let (x, y) = centre(f, r);
        let _ = write!(
            out,
            "<circle class=\"selected\" cx=\"{x}\" cy=\"{y}\" r=\"29\" fill=\"none\" stroke=\"#00897b\" \
             stroke-width=\"4\" pointer-events=\"none\"/>"
        );
    }
    for &(f, r) in &marks.targets {
        let (x, y) = centre(f, r);
        let _ = write!(
            out,
            "<circle class=\"target\" cx=\"{x}\" cy=\"{y}\" r=\"9\" fill=\"#00897b\" fill-opacity=\"0.75\" \
             pointer-events=\"none\"/>"
        );
    }
}

/// File letters along the bottom and rank numbers along the left.
fn coordinates(
    out: &mut String,
    files: u32,
    ranks: u32,
    flip: bool,
    file_at: impl Fn(u32) -> (u32, u32),
    rank_at: impl Fn(u32) -> (u32, u32),
) {
    for col in 0..files {
        let file = if flip { files - 1 - col } else { col };
        let (x, y) = file_at(col);
        let _ = write!(
            out,
            "<text x=\"{x}\" y=\"{y}\" font-size=\"13\" text-anchor=\"middle\" fill=\"#555\">{}</text>",
            (b'a' + file as u8) as char
        );
    }
    for row in 0..ranks {
        let rank = if flip { row + 1 } else { ranks - row };
        let (x, y) = rank_at(row);
        let _ = write!(
            out,
            "<text x=\"{x}\" y=\"{y}\" font-size=\"13\" text-anchor=\"middle\" fill=\"#555\">{rank}</text>"
        );
    }
}
