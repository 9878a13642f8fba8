//! g
/// Placeholder.
pub struct Game;
