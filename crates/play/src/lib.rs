//! A game of the registry as a board app drives it, with no server in it:
//! boards drawn as SVG ([`svg`], the same picture for the web page and
//! `qi render`) and games with a line of moves, a cursor and a searcher
//! ([`game`]). `qi serve` (qi-web) and the browser build (qi-wasm) both
//! drive games through this crate.
#![deny(missing_docs)]
#![forbid(unsafe_code)]

pub mod clock;
pub mod error_data;
pub mod game;
pub mod poll;
pub mod reason;
pub mod review;
pub mod svg;
