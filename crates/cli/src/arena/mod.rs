//! `qi match`: engines as child processes ([`process`]) playing the
//! library's arena ([`qi_engine::arena`]) from the command line ([`run()`]).

mod interrupt;
pub mod process;
mod progress;
pub mod run;

pub use run::{run, MatchArgs};
