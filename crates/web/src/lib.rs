//! The qi web app's local server ([`server`]): the page, and the games of
//! [`qi_play`] driven over HTTP.
//!
//! The server is axum on tokio. The page, its script and its style are
//! embedded in the binary, so it works offline. Commands are JSON requests;
//! the engine's live output (depth, score, nodes per second, principal
//! variation) streams to the page as server-sent events. See `docs/web.md`.
#![deny(missing_docs)]
#![forbid(unsafe_code)]

pub mod server;

// The games and boards moved to qi-play, which the browser build shares;
// their old paths stay for the crate's users.
pub use qi_play::{game, svg};
