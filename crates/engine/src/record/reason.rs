//! Why a game ended, in the words of its game: the one wording of a
//! record's `Termination` tag, of the web page's result and of the
//! browser build's, so that a saved game says what the page said.

use std::any::Any;

use qi_core::{DrawReason, Outcome, Position, WinReason};
use qi_five_tigers::FiveTigers;

/// The reason `outcome` ended the game in `position` (its final
/// position), in words: `den entered`, `no step left` (a Five Tigers side
/// that cannot move), `no animals left`, `no capture for 100 plies`, ...
///
/// ```
/// use qi_core::Game as _;
/// use qi_engine::record::reason_in;
/// use qi_five_tigers::{FiveTigers, Game};
///
/// let blocked: FiveTigers = "5/5/5/X4/OX3 o move X:0,O:0 - o -,- 0".parse().unwrap();
/// let game = Game::new(blocked);
/// let outcome = game.outcome().unwrap();
/// assert_eq!(reason_in(game.position(), outcome), "no step left");
/// ```
pub fn reason_in<P: Position + 'static>(position: &P, outcome: Outcome) -> String {
    let tigers = (position as &dyn Any)
        .downcast_ref::<FiveTigers>()
        .is_some();
    match outcome {
        Outcome::Win { reason, .. } => match reason {
            WinReason::NoPieces if tigers => "no pieces left".to_string(),
            WinReason::NoPieces => "no animals left".to_string(),
            WinReason::NoLegalMove if tigers => "no step left".to_string(),
            WinReason::NoLegalMove if position.count_moves() > 0 => {
                "no legal move (the anti-chase rules forbid every move)".to_string()
            }
            WinReason::Repetition => "repetition (the side that began it did not vary)".to_string(),
            other => other.to_string(),
        },
        Outcome::Draw(DrawReason::NoCapture) => {
            let noun = if tigers { "removal" } else { "capture" };
            format!("no {noun} for {} plies", position.no_capture_plies())
        }
        Outcome::Draw(DrawReason::Repetition) => "threefold repetition".to_string(),
        Outcome::Draw(reason) => reason.to_string(),
    }
}
