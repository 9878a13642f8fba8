//! `qi-games`: game engines for two Chinese folk board games, Jungle (斗兽棋,
//! Dou Shou Qi) and Five Tigers (五虎棋, Wu Hu Qi).
//!
//! This facade re-exports the workspace crates:
//!
//! * [`core`]: bitboards, geometry, sides, outcomes and the [`core::Position`] trait;
//! * [`jungle`]: the Jungle rules, notation and game layer;
//! * [`five_tigers`]: the Five Tigers rules, notation and game layer;
//! * [`search`]: perft and the negamax search, generic over any game;
//! * [`engine`]: evaluation and search knowledge for each game, and the
//!   registry of games ([`engine::Games`]) that runs generic code for the
//!   game a spec names.
//!
//! ```
//! use qi_games::core::Position;
//! use qi_games::jungle::{Jungle, Move, Rules};
//!
//! let mut pos = Jungle::new(Rules::standard());
//! let mv: Move = "a3a4".parse()?;
//! pos.play(mv)?; // checked: an illegal move is an error
//! assert_eq!(pos.to_string(), "l5t/1d3c1/r1p1w1e/7/7/E6/2W1P1R/1C3D1/T5L b 1 1");
//! assert_eq!(qi_games::search::perft(&Jungle::default(), 2), 576);
//! assert!(pos.play("a4a5".parse()?).is_err()); // Blue is to move
//!
//! // Five Tigers: placement, step and removal moves share one type.
//! let mut ft = qi_games::five_tigers::FiveTigers::default();
//! ft.play("c3".parse()?)?;
//! assert_eq!(ft.legal_moves().len(), 24);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! Code written once for every game runs through the registry:
//!
//! ```
//! use qi_games::core::Position;
//! use qi_games::engine::{GameFn, GameKit, Games, Registry, RulesOf};
//!
//! struct StartMoves;
//! impl GameFn for StartMoves {
//!     type Output = usize;
//!     fn call<K: GameKit>(self, rules: RulesOf<K>) -> usize {
//!         K::Position::new(rules).count_moves()
//!     }
//! }
//! assert_eq!(Games::dispatch("five-tigers:ten", StartMoves)?, 25);
//! assert_eq!(Games::dispatch("jungle:datou", StartMoves)?, 24);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
#![deny(missing_docs)]
#![forbid(unsafe_code)]

pub use qi_core as core;
pub use qi_engine as engine;
pub use qi_five_tigers as five_tigers;
pub use qi_jungle as jungle;
pub use qi_search as search;
