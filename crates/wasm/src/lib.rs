//! Jungle and Five Tigers with their engine in the browser: the qi library
//! compiled to WebAssembly with `wasm-bindgen`, for JavaScript.
//!
//! [`Game`] is one game of any game and preset of the registry (from a
//! spec, a position text or a record): its legal moves, play, undo and a
//! cursor over the line, the position text, the outcome in words, the
//! record, the SVG board (the drawing of `qi render`), perft, and a search
//! with depth, node and time limits that reports each iteration to a
//! JavaScript callback and stops when a callback says so. [`games`] lists
//! the games and presets; [`render`] and [`render_record`] draw boards as
//! `qi render` does.
//!
//! Every error reaches JavaScript as an exception (an `Error` whose
//! message is the library's); input never panics. The search runs on the
//! calling thread (a Web Worker in a page): the browser has no threads for
//! it, so `Threads` takes only 1.
//!
//! Build the JavaScript package with `scripts/build-wasm.sh` (see
//! `docs/wasm.md`).
#![deny(missing_docs)]
#![forbid(unsafe_code)]

mod limits;

use js_sys::Function;
use qi_engine::{Games, Registry};
use qi_play::game::{load_record, new_game, InfoView, WebGame};
use qi_play::svg::{self, Marks, RenderOptions};
use serde::{Deserialize, Serialize};
use wasm_bindgen::prelude::*;

pub use limits::SearchLimits;

/// An error for JavaScript: an `Error` with the library's message.
fn error(e: impl std::fmt::Display) -> JsError {
    JsError::new(&e.to_string())
}

/// A value as a plain JavaScript object.
fn to_js<T: Serialize + ?Sized>(value: &T) -> Result<JsValue, JsError> {
    // Maps as objects, so the views read as `view.result.text`.
    let serializer = serde_wasm_bindgen::Serializer::json_compatible();
    value.serialize(&serializer).map_err(error)
}

/// A JavaScript object read as `T`; `undefined` and `null` give `T`'s
/// default. Fields other than `fields` are refused: serde-wasm-bindgen
/// reads only the fields it looks for, so a misspelt limit would otherwise
/// pass unseen (and a search with no limit never end).
fn from_js<T: for<'de> Deserialize<'de> + Default>(
    value: JsValue,
    fields: &[(&str, &[&str])],
    what: &str,
) -> Result<T, JsError> {
    if value.is_undefined() || value.is_null() {
        return Ok(T::default());
    }
    let bad = |e: &dyn std::fmt::Display| JsError::new(&format!("bad {what}: {e}"));
    check_fields(&value, "", fields).map_err(|e| bad(&e))?;
    serde_wasm_bindgen::from_value(value).map_err(|e| bad(&e))
}

/// Refuses a field of the object `value` (at `path`) that is not among
/// `fields` (for nested objects, `("clock", &[...])` lists the fields of
/// `clock`, and `("", ...)` those of the top level).
fn check_fields(value: &JsValue, path: &str, fields: &[(&str, &[&str])]) -> Result<(), String> {
    let Some(object) = value.dyn_ref::<js_sys::Object>() else {
        return Ok(());
    };
    if js_sys::Array::is_array(value) {
        return Ok(());
    }
    let Some((_, known)) = fields.iter().find(|(p, _)| *p == path) else {
        return Ok(());
    };
    for key in js_sys::Object::keys(object).iter() {
        let key = key.as_string().unwrap_or_default();
        if !known.contains(&key.as_str()) {
            return Err(format!(
                "unknown field `{}`, expected one of {}",
                key.chars().take(40).collect::<String>(),
                known.join(", ")
            ));
        }
        let inner = js_sys::Reflect::get(object, &JsValue::from_str(&key)).unwrap_or(JsValue::NULL);
        check_fields(&inner, &key, fields)?;
    }
    Ok(())
}

/// The fields of board options.
const BOARD_FIELDS: &[(&str, &[&str])] =
    &[("", &["flip", "caption", "selected", "targets", "last"])];

/// The fields of search limits.
const LIMIT_FIELDS: &[(&str, &[&str])] = &[
    ("", &["depth", "nodes", "movetime", "clock"]),
    ("clock", &["time", "inc", "movestogo"]),
];

/// How to draw a board, as JavaScript gives it: `{ flip, caption,
/// selected, targets, last }` (squares by name, `a3`), every field
/// optional.
#[derive(Clone, Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
struct BoardOptions {
    #[serde(default)]
    flip: bool,
    #[serde(default)]
    caption: bool,
    #[serde(default)]
    selected: Option<String>,
    #[serde(default)]
    targets: Vec<String>,
    #[serde(default)]
    last: Vec<String>,
}

impl From<BoardOptions> for RenderOptions {
    fn from(o: BoardOptions) -> RenderOptions {
        RenderOptions {
            marks: Marks {
                last: o.last,
                selected: o.selected,
                targets: o.targets,
            },
            flip: o.flip,
            caption: o.caption,
        }
    }
}

/// One game of Jungle or Five Tigers under any preset or rule string: the
/// line of moves played from its first position, with a cursor (the ply
/// shown), and its engine.
#[wasm_bindgen]
pub struct Game {
    inner: Box<dyn WebGame>,
}

#[wasm_bindgen]
impl Game {
    /// A new game of `spec` (`jungle`, `five-tigers:ten`,
    /// `jungle:standard,anti_chase=on`) from `position` (position text of
    /// the game; the start position when absent, empty or `startpos`).
    #[wasm_bindgen(constructor)]
    pub fn new(spec: &str, position: Option<String>) -> Result<Game, JsError> {
        let inner = new_game(spec, position.as_deref()).map_err(error)?;
        Ok(Game { inner })
    }

    /// The game of a record (`docs/records.md`), replayed under its rules
    /// (its `Game` tag) and shown at its end.
    #[wasm_bindgen(js_name = fromRecord)]
    pub fn from_record(record: &str) -> Result<Game, JsError> {
        let inner = load_record(record).map_err(error)?;
        Ok(Game { inner })
    }

    /// The canonical game spec (`jungle:standard`).
    pub fn spec(&self) -> String {
        self.inner.spec()
    }

    /// The moves legal in the shown position, in the game's notation
    /// (none once the game is over).
    #[wasm_bindgen(js_name = legalMoves)]
    pub fn legal_moves(&self) -> Vec<String> {
        self.inner.view(false).legal
    }

    /// Plays `mv` in the shown position; a move played before the end of
    /// the line replaces the rest of the line. Throws (and changes
    /// nothing) when the move cannot be read or is not legal.
    pub fn play(&mut self, mv: &str) -> Result<(), JsError> {
        self.inner.play(mv).map_err(error)
    }

    /// Takes back the move that led to the shown position (and drops the
    /// rest of the line). Throws when there is none.
    pub fn undo(&mut self) -> Result<(), JsError> {
        self.inner.undo().map_err(error)
    }

    /// Shows the position after `ply` moves of the line (0: the first
    /// position). Throws when the line is shorter.
    pub fn goto(&mut self, ply: usize) -> Result<(), JsError> {
        self.inner.goto(ply).map_err(error)
    }

    /// The shown position's text (`jfen` for Jungle, the Five Tigers
    /// position text).
    pub fn position(&self) -> String {
        self.inner.view(false).text
    }

    /// The whole line of moves.
    pub fn moves(&self) -> Vec<String> {
        self.inner.view(false).moves
    }

    /// How many moves of the line lead to the shown position.
    pub fn ply(&self) -> usize {
        self.inner.view(false).ply
    }

    /// The result once the game is over, else `null`: `{ token: "1-0",
    /// winner: "Red", reason: "den entered", text: "Red wins: den
    /// entered." }`.
    pub fn outcome(&self) -> Result<JsValue, JsError> {
        to_js(&self.inner.view(false).result)
    }

    /// What happens now, in words: `Blue to move`, `X must remove 2 of O's
    /// pieces (loose ones first)`, or the result.
    pub fn status(&self) -> String {
        self.inner.view(false).status
    }

    /// Everything a page shows of the game, as one object (spec, position
    /// texts, moves, ply, side to move and its name, legal moves, last
    /// move, result, status, Five Tigers' phase, removals and hands, and
    /// the board as SVG, drawn from the second side when `flip`).
    pub fn view(&self, flip: bool) -> Result<JsValue, JsError> {
        to_js(&self.inner.view(flip))
    }

    /// The whole line as a game record (`docs/records.md`).
    pub fn record(&self) -> String {
        self.inner.record()
    }

    /// The shown position as SVG, the drawing of `qi render`. `options`:
    /// `{ flip, caption, selected, targets, last }`, each optional (the
    /// last move is highlighted unless `last` is given). Throws on a
    /// square that is not on the board or an unknown field.
    pub fn svg(&self, options: JsValue) -> Result<String, JsError> {
        let options: BoardOptions = from_js(options, BOARD_FIELDS, "board options")?;
        self.inner.render(&options.into()).map_err(error)
    }

    /// The perft count of the shown position (board moves), as `qi perft`
    /// counts it.
    pub fn perft(&self, depth: u32) -> u64 {
        self.inner.perft(depth)
    }

    /// Sets the engine option `name` to `value` (the engine protocol's
    /// names and values: `Hash` in MiB, `MultiPV`, `Level`,
    /// `LimitStrength`, `Elo`, `Seed`, `LMR`, `NullMove`, ... `true` or
    /// `false`), from the next search on. Throws on an unknown option or a
    /// bad value, and changes nothing then.
    #[wasm_bindgen(js_name = setOption)]
    pub fn set_option(&mut self, name: &str, value: &str) -> Result<(), JsError> {
        self.inner.set_option(name, value).map_err(error)
    }

    /// The engine's strength from the next search on: level 1 (weakest)
    /// to 10 (the full engine), `docs/levels.md`. Throws outside 1 to 10.
    #[wasm_bindgen(js_name = setLevel)]
    pub fn set_level(&mut self, level: u32) -> Result<(), JsError> {
        self.set_option("Level", &level.to_string())
    }

    /// How many of the best root moves the search gives, each with its
    /// score and line (`lines` of the result, `multipv` of each report).
    #[wasm_bindgen(js_name = setMultiPV)]
    pub fn set_multi_pv(&mut self, lines: u32) -> Result<(), JsError> {
        self.set_option("MultiPV", &lines.to_string())
    }

    /// Searches the shown position on this thread.
    ///
    /// `limits`: `{ depth, nodes, movetime, clock: { time: [first ms,
    /// second ms], inc: [...], movestogo } }`, each optional (none: until
    /// the tree is solved or a stop). `onInfo(info)` is called after each
    /// iteration (once per line with `MultiPV`) with `{ depth, seldepth,
    /// multipv, score, score_first, nodes, nps, time_ms, pv }` and stops the
    /// search by returning `true`.
    /// `shouldStop()` is called every few thousand positions and stops it
    /// by returning `true` (a shared flag, a clock). An exception from
    /// either stops the search and is thrown again.
    ///
    /// Returns `{ best, lines, info, nodes, stopped }`: the move to play
    /// (`null` when the game is over; at a weaker level, the level's
    /// choice), the best root moves with `{ score, score_first, depth, pv }`
    /// each, the last completed iteration's report, the nodes searched and
    /// whether a callback stopped it.
    pub fn search(
        &mut self,
        limits: JsValue,
        #[wasm_bindgen(js_name = onInfo)] on_info: Option<Function>,
        #[wasm_bindgen(js_name = shouldStop)] should_stop: Option<Function>,
    ) -> Result<JsValue, JsValue> {
        let limits: SearchLimits = from_js(limits, LIMIT_FIELDS, "search limits")?;
        let limits = limits.to_limits().map_err(error)?;
        // The first exception from a callback: it ends the search and is
        // thrown once the search has returned.
        let mut thrown: Option<JsValue> = None;
        let done = {
            let thrown_poll = std::cell::RefCell::new(&mut thrown);
            let mut poll = || match &should_stop {
                None => false,
                Some(f) => match f.call0(&JsValue::NULL) {
                    Ok(v) => v.is_truthy(),
                    Err(e) => {
                        thrown_poll.borrow_mut().get_or_insert(e);
                        true
                    }
                },
            };
            let mut report = |info: &InfoView| match &on_info {
                None => false,
                Some(f) => {
                    let value = match to_js(info) {
                        Ok(v) => v,
                        Err(e) => {
                            thrown_poll.borrow_mut().get_or_insert(e.into());
                            return true;
                        }
                    };
                    match f.call1(&JsValue::NULL, &value) {
                        Ok(v) => v.is_truthy(),
                        Err(e) => {
                            thrown_poll.borrow_mut().get_or_insert(e);
                            true
                        }
                    }
                }
            };
            self.inner.search_here(limits, &mut poll, &mut report)
        };
        if let Some(e) = thrown {
            // The callback's own exception, as it threw it.
            return Err(e);
        }
        Ok(to_js(&done)?)
    }
}

/// A game and its presets, as [`games`] lists them.
#[derive(Serialize)]
struct GameEntry {
    name: &'static str,
    presets: &'static [&'static str],
    specs: Vec<String>,
}

/// The games and their presets: `[{ name: "jungle", presets:
/// ["standard", ...], specs: ["jungle:standard", ...] }, ...]`, the
/// default preset first.
#[wasm_bindgen]
pub fn games() -> Result<JsValue, JsError> {
    let list: Vec<GameEntry> = Games::games()
        .iter()
        .map(|g| GameEntry {
            name: g.name,
            presets: g.presets,
            specs: g.preset_specs().collect(),
        })
        .collect();
    to_js(&list)
}

/// The canonical form of a game spec (`jungle:datou,anti_chase=on` →
/// `jungle:datou`). Throws when it names no game or rules.
#[wasm_bindgen(js_name = canonicalSpec)]
pub fn canonical_spec(spec: &str) -> Result<String, JsError> {
    Games::canonical(spec).map_err(error)
}

/// Draws the position `position` (the start position when absent) of the
/// game `spec` after `moves`, as `qi render --game G --fen P --moves M`
/// does; `options` as for [`Game::svg`].
#[wasm_bindgen]
pub fn render(
    spec: &str,
    position: Option<String>,
    moves: Option<Vec<String>>,
    options: JsValue,
) -> Result<String, JsError> {
    let options: BoardOptions = from_js(options, BOARD_FIELDS, "board options")?;
    let moves = moves.unwrap_or_default();
    let moves: Vec<&str> = moves.iter().map(String::as_str).collect();
    svg::render_game(spec, position.as_deref(), &moves, &options.into()).map_err(error)
}

/// Draws the position of a game record after `ply` of its moves (all of
/// them when absent), as `qi render --record F --ply N` does.
#[wasm_bindgen(js_name = renderRecord)]
pub fn render_record(
    record: &str,
    ply: Option<usize>,
    options: JsValue,
) -> Result<String, JsError> {
    let options: BoardOptions = from_js(options, BOARD_FIELDS, "board options")?;
    svg::render_record(record, ply, &options.into()).map_err(error)
}
