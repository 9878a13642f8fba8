//! `qi engine`: the JCEI protocol (UCI-like, docs/engine.md) on
//! stdin/stdout, for every game of the registry: [`parse`] reads command
//! lines, [`session`] answers them through the library's type-erased engine.

pub mod parse;
pub mod session;

pub use session::{run, EngineArgs};
