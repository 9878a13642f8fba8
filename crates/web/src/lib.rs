//! The qi web app: boards drawn as SVG ([`svg`]), games as the page drives
//! them ([`game`]) and the local server of `qi serve` ([`server`]).
//!
//! The server is axum on tokio. The page, its script and its style are
//! embedded in the binary, so it works offline. Commands are JSON requests;
//! the engine's live output (depth, score, nodes per second, principal
//! variation) streams to the page as server-sent events. See `docs/web.md`.
#![deny(missing_docs)]
#![forbid(unsafe_code)]

pub mod game;
pub mod server;
pub mod svg;
