#![doc = include_str!("../README.md")]
#![deny(missing_docs)]
#![forbid(unsafe_code)]

pub use qi_core as core;
pub use qi_engine as engine;
pub use qi_five_tigers as five_tigers;
pub use qi_jungle as jungle;
pub use qi_search as search;
