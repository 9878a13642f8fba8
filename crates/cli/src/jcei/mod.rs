//! `qi engine`: the JCEI protocol (UCI-like, docs/protocol.md) on
//! stdin/stdout, for every game of the registry: [`parse`] reads command
//! lines, [`session`] answers them through the library's type-erased engine.

pub mod input;
pub mod parse;
pub mod session;

pub use session::{run, EngineArgs};
