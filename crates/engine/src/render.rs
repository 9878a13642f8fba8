//! Boards drawn for a terminal: Unicode, with ANSI styles for the sides
//! and the terrain. Print them through `anstream`, which removes the styles
//! where they are unwanted (`NO_COLOR`, output that is not a terminal).

use anstyle::{AnsiColor, Style};
use qi_core::{Position, Side};
use qi_five_tigers::{FiveTigers, Point};
use qi_jungle::{Jungle, Square, ALL_TRAPS, DENS, WATER};

const RED: Style = AnsiColor::Red.on_default().bold();
const BLUE: Style = AnsiColor::Blue.on_default().bold();
const WATER_BG: Style = Style::new().bg_color(Some(anstyle::Color::Ansi(AnsiColor::Cyan)));
const TRAP_BG: Style = Style::new().bg_color(Some(anstyle::Color::Ansi(AnsiColor::Yellow)));
const DEN_BG: Style = Style::new().bg_color(Some(anstyle::Color::Ansi(AnsiColor::Green)));
const NONE: Style = Style::new();

/// Draws a Jungle board, rank 9 at the top. Red (first) pieces are upper
/// case, Blue lower case; `≈` is water, `⊗` a trap, `⌂` a den; sides and
/// terrain are also coloured.
///
/// ```
/// use qi_games::engine::render;
/// use qi_games::prelude::*;
///
/// let board = render::jungle(&Jungle::default());
/// assert_eq!(board.lines().count(), 13);
/// assert!(board.contains('≈') && board.contains('⌂'));
/// assert!(board.ends_with(&format!("{}\n", Jungle::default())));
/// ```
pub fn jungle(pos: &Jungle) -> String {
    let mut out = String::from("   ┌─────────────────────┐\n");
    for rank in (0..9u8).rev() {
        out.push_str(&format!("{} │", rank + 1));
        for file in 0..7u8 {
            let sq = Square::from_file_rank(file, rank).expect("on the board");
            let index = sq.index();
            let terrain = if WATER.contains(index) {
                ('≈', WATER_BG)
            } else if ALL_TRAPS.contains(index) {
                ('⊗', TRAP_BG)
            } else if (DENS[0] | DENS[1]).contains(index) {
                ('⌂', DEN_BG)
            } else {
                ('·', NONE)
            };
            let cell = match pos.piece_at(sq) {
                Some(piece) => {
                    let fg = if piece.side == Side::First { RED } else { BLUE };
                    paint(
                        terrain.1.fg_color(fg.get_fg_color()).bold(),
                        &format!(" {} ", piece.letter()),
                    )
                }
                None => paint(terrain.1, &format!(" {} ", terrain.0)),
            };
            out.push_str(&cell);
        }
        out.push_str("│\n");
    }
    out.push_str("   └─────────────────────┘\n     a  b  c  d  e  f  g\n");
    let side = match pos.side_to_move() {
        Side::First => paint(RED, "Red"),
        Side::Second => paint(BLUE, "Blue"),
    };
    out.push_str(&format!("{side} to move   {pos}\n"));
    out
}

/// Draws a Five Tigers board: the 5 × 5 grid of lines with `X` and `O` on
/// the points, then the position text.
///
/// ```
/// use qi_games::engine::render;
/// use qi_games::prelude::*;
///
/// let mut pos = FiveTigers::default();
/// pos.play("c3".parse()?)?;
/// let board = render::five_tigers(&pos);
/// assert!(board.contains('X'));
/// assert!(board.contains(&pos.to_string()));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn five_tigers(pos: &FiveTigers) -> String {
    let mut out = String::new();
    for rank in (0..5u8).rev() {
        out.push_str(&format!("{} ", rank + 1));
        for file in 0..5u8 {
            let point = Point::from_file_rank(file, rank).expect("on the board");
            let cell = match pos.piece_at(point) {
                Some(Side::First) => paint(RED, "X"),
                Some(Side::Second) => paint(BLUE, "O"),
                None => "┼".to_string(),
            };
            out.push_str(&cell);
            if file < 4 {
                out.push_str("───");
            }
        }
        out.push('\n');
        if rank > 0 {
            out.push_str("  │   │   │   │   │\n");
        }
    }
    out.push_str("  a   b   c   d   e\n");
    let side = match pos.side_to_move() {
        Side::First => paint(RED, "X"),
        Side::Second => paint(BLUE, "O"),
    };
    out.push_str(&format!("{side} to move   {pos}\n"));
    out
}

fn paint(style: Style, text: &str) -> String {
    format!("{style}{text}{style:#}")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn jungle_start_board_shows_pieces_and_terrain() {
        let styled = jungle(&Jungle::default());
        let text = anstream::adapter::strip_str(&styled).to_string();
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(lines[1], "9 │ l  ·  ⊗  ⌂  ⊗  ·  t │");
        assert_eq!(lines[4], "6 │ ·  ≈  ≈  ·  ≈  ≈  · │");
        assert_eq!(lines[9], "1 │ T  ·  ⊗  ⌂  ⊗  ·  L │");
        assert!(lines[12].starts_with("Red to move"));
        assert!(styled.contains(&RED.render().to_string()));
    }

    #[test]
    fn five_tigers_board_shows_points() {
        let pos = FiveTigers::default();
        let mut game = pos;
        game.play("c3".parse().unwrap()).unwrap();
        let text = anstream::adapter::strip_str(&five_tigers(&game)).to_string();
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(lines[4], "3 ┼───┼───X───┼───┼");
        assert!(lines[10].starts_with("O to move"));
    }
}
