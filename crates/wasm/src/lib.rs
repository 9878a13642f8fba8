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
//! Every argument is checked at the boundary (its type, that a number is
//! an integer, its range: `goto(-1)` is refused, not wrapped to
//! 4294967295), and every error reaches JavaScript as an exception: an
//! `Error` whose message is the library's, with a stable `kind` and the
//! `fields` the message is made of (`{ kind: "ply", fields: { ply: 5, len:
//! 2 } }`), so that a page translates it by kind. No input traps the
//! module. The search runs on the
//! calling thread (a Web Worker in a page): the browser has no threads for
//! it, so `Threads` takes only 1; a page searches on several workers by
//! giving each a part of the root moves (`searchmoves` of the limits).
//!
//! Build the JavaScript package with `scripts/build-wasm.sh` (see
//! `docs/wasm.md`).
#![deny(missing_docs)]
#![forbid(unsafe_code)]

mod boundary;
mod limits;
mod timing;

use boundary::{
    bool_arg, function_arg, integer_arg, js_error, option_value_arg, optional_integer_arg,
    optional_string_arg, options_arg, string_arg, string_list_arg, ArgError,
};
use qi_engine::options::MAX_MULTI_PV;
use qi_engine::{Games, Registry};
use qi_play::error_data::ErrorData;
use qi_play::game::{load_record, new_game, GameError, InfoView, WebGame};
use qi_play::svg::{self, Marks, RenderError, RenderOptions};
use qi_search::Level;
use serde::{Deserialize, Serialize};
use wasm_bindgen::prelude::*;

pub use limits::{LimitsError, SearchLimits};
pub use timing::{review, Clock};

/// The deepest perft, as `qi perft` takes it.
pub const MAX_PERFT_DEPTH: u32 = 30;

/// The longest line of moves a ply can name (JavaScript's safe integers
/// end at 2^53; a line is far shorter).
const MAX_PLY: u64 = u32::MAX as u64;

/// A result whose error is a JavaScript `Error` with `kind` and `fields`.
type JsResult<T> = Result<T, JsValue>;

impl From<ArgError> for Thrown {
    fn from(e: ArgError) -> Thrown {
        Thrown(ErrorData::from(&e))
    }
}

impl From<GameError> for Thrown {
    fn from(e: GameError) -> Thrown {
        Thrown(ErrorData::from(&e))
    }
}

impl From<RenderError> for Thrown {
    fn from(e: RenderError) -> Thrown {
        Thrown(ErrorData::from(&e))
    }
}

impl From<LimitsError> for Thrown {
    fn from(e: LimitsError) -> Thrown {
        Thrown(e.data())
    }
}

/// An error on its way to JavaScript.
struct Thrown(ErrorData);

impl From<Thrown> for JsValue {
    fn from(t: Thrown) -> JsValue {
        js_error(&t.0)
    }
}

/// Any error of the boundary or the library, thrown.
fn thrown(e: impl Into<Thrown>) -> JsValue {
    e.into().into()
}

/// A value as a plain JavaScript object.
fn to_js<T: Serialize + ?Sized>(value: &T) -> JsResult<JsValue> {
    // Maps as objects, so the views read as `view.result.text`.
    let serializer = serde_wasm_bindgen::Serializer::json_compatible();
    value.serialize(&serializer).map_err(|e| {
        js_error(&ErrorData::new(
            "internal",
            [("reason", e.to_string().into())],
            e.to_string(),
        ))
    })
}

/// A JavaScript object read as `T`; `undefined` and `null` give `T`'s
/// default, anything but a plain object is refused (an array would be read
/// as the fields in order). Fields other than `fields` are refused:
/// serde-wasm-bindgen reads only the fields it looks for, so a misspelt
/// limit would otherwise pass unseen (and a search with no limit never
/// end).
fn from_js<T: for<'de> Deserialize<'de> + Default>(
    value: JsValue,
    fields: &[(&str, &[&str])],
    what: &'static str,
) -> JsResult<T> {
    options_arg(&value, what).map_err(thrown)?;
    if value.is_undefined() || value.is_null() {
        return Ok(T::default());
    }
    let bad = |e: &dyn std::fmt::Display| {
        let reason = e.to_string();
        js_error(&ErrorData::new(
            "argument.fields",
            [("name", what.into()), ("reason", reason.as_str().into())],
            format!("bad {what}: {reason}"),
        ))
    };
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
    ("", &["depth", "nodes", "movetime", "clock", "searchmoves"]),
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
    pub fn new(
        #[wasm_bindgen(unchecked_param_type = "string")] spec: JsValue,
        #[wasm_bindgen(unchecked_param_type = "string | null | undefined")] position: JsValue,
    ) -> JsResult<Game> {
        let spec = string_arg(&spec, "spec").map_err(thrown)?;
        let position = optional_string_arg(&position, "position").map_err(thrown)?;
        let inner = new_game(&spec, position.as_deref()).map_err(thrown)?;
        Ok(Game { inner })
    }

    /// The game of a record (`docs/records.md`), replayed under its rules
    /// (its `Game` tag) and shown at its end.
    #[wasm_bindgen(js_name = fromRecord)]
    pub fn from_record(
        #[wasm_bindgen(unchecked_param_type = "string")] record: JsValue,
    ) -> JsResult<Game> {
        let record = string_arg(&record, "record").map_err(thrown)?;
        let inner = load_record(&record).map_err(thrown)?;
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
    /// the line is followed when the game's tree has it there, else it
    /// starts a variation. Throws (and changes
    /// nothing) when the move cannot be read or is not legal.
    pub fn play(
        &mut self,
        #[wasm_bindgen(unchecked_param_type = "string")] mv: JsValue,
    ) -> JsResult<()> {
        let mv = string_arg(&mv, "move").map_err(thrown)?;
        self.inner.play(&mv).map_err(thrown)
    }

    /// Takes back the move that led to the shown position (it leaves the
    /// game's tree with every move after it). Throws when there is none.
    pub fn undo(&mut self) -> JsResult<()> {
        self.inner.undo().map_err(thrown)
    }

    /// Shows the position after `ply` moves of the line (0: the first
    /// position). Throws when the line is shorter, or `ply` is not a
    /// whole number from 0.
    pub fn goto(
        &mut self,
        #[wasm_bindgen(unchecked_param_type = "number")] ply: JsValue,
    ) -> JsResult<()> {
        let ply = integer_arg(&ply, "ply", 0, MAX_PLY).map_err(thrown)?;
        self.inner.goto(ply as usize).map_err(thrown)
    }

    /// Shows the position after `moves` from the first position, moves of
    /// the game's tree (the way to a variation). Throws (and changes
    /// nothing) when the tree has no such line.
    #[wasm_bindgen(js_name = gotoLine)]
    pub fn goto_line(
        &mut self,
        #[wasm_bindgen(unchecked_param_type = "string[]")] moves: JsValue,
    ) -> JsResult<()> {
        let moves = string_list_arg(&moves, "moves")
            .map_err(thrown)?
            .unwrap_or_default();
        self.inner.goto_line(&moves).map_err(thrown)
    }

    /// Makes the line to the shown position the main line.
    pub fn promote(&mut self) {
        self.inner.promote();
    }

    /// The board (SVG) after `moves` from the shown position, drawn from
    /// the second side when `flip`: a line previewed, not played. Throws
    /// when a move cannot be played.
    pub fn preview(
        &self,
        #[wasm_bindgen(unchecked_param_type = "string[]")] moves: JsValue,
        #[wasm_bindgen(unchecked_param_type = "boolean | undefined")] flip: JsValue,
    ) -> JsResult<String> {
        let moves = string_list_arg(&moves, "moves")
            .map_err(thrown)?
            .unwrap_or_default();
        let flip = bool_arg(&flip, "flip").map_err(thrown)?;
        self.inner.preview(&moves, flip).map_err(thrown)
    }

    /// The shown position's text (`jfen` for Jungle, the Five Tigers
    /// position text).
    pub fn position(&self) -> String {
        self.inner.view(false).text
    }

    /// The line shown: the moves to the shown position, then its main
    /// continuation.
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
    pub fn outcome(&self) -> JsResult<JsValue> {
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
    pub fn view(
        &self,
        #[wasm_bindgen(unchecked_param_type = "boolean | undefined")] flip: JsValue,
    ) -> JsResult<JsValue> {
        let flip = bool_arg(&flip, "flip").map_err(thrown)?;
        to_js(&self.inner.view(flip))
    }

    /// The game as a record (`docs/records.md`: the main line, its
    /// variations in parentheses), with the `Event` tag `event` (`qi`
    /// when absent).
    pub fn record(
        &self,
        #[wasm_bindgen(unchecked_param_type = "string | null | undefined")] event: JsValue,
    ) -> JsResult<String> {
        let event = optional_string_arg(&event, "event").map_err(thrown)?;
        Ok(self.inner.record_of(event.as_deref().unwrap_or("qi")))
    }

    /// The shown position as SVG, the drawing of `qi render`. `options`:
    /// `{ flip, caption, selected, targets, last }`, each optional (the
    /// last move is highlighted unless `last` is given). Throws on a
    /// square that is not on the board or an unknown field.
    pub fn svg(&self, options: JsValue) -> JsResult<String> {
        let options: BoardOptions = from_js(options, BOARD_FIELDS, "board options")?;
        self.inner.render(&options.into()).map_err(thrown)
    }

    /// The perft count of the shown position (board moves), as `qi perft`
    /// counts it, to a depth from 0 to 30.
    pub fn perft(
        &self,
        #[wasm_bindgen(unchecked_param_type = "number")] depth: JsValue,
    ) -> JsResult<u64> {
        let depth = integer_arg(&depth, "depth", 0, MAX_PERFT_DEPTH.into()).map_err(thrown)?;
        Ok(self.inner.perft(depth as u32))
    }

    /// Sets the engine option `name` to `value` (the engine protocol's
    /// names and values: `Hash` in MiB, `MultiPV`, `Level`,
    /// `LimitStrength`, `Elo`, `Seed`, `LMR`, `NullMove`, ... `true` or
    /// `false`), from the next search on. Throws on an unknown option or a
    /// bad value, and changes nothing then.
    #[wasm_bindgen(js_name = setOption)]
    pub fn set_option(
        &mut self,
        #[wasm_bindgen(unchecked_param_type = "string")] name: JsValue,
        #[wasm_bindgen(unchecked_param_type = "string | number | boolean")] value: JsValue,
    ) -> JsResult<()> {
        let name = string_arg(&name, "name").map_err(thrown)?;
        let value = option_value_arg(&value, "value").map_err(thrown)?;
        self.inner.set_option(&name, &value).map_err(thrown)
    }

    /// The engine's strength from the next search on: level 1 (weakest)
    /// to 10 (the full engine), `docs/levels.md`. Throws outside 1 to 10.
    #[wasm_bindgen(js_name = setLevel)]
    pub fn set_level(
        &mut self,
        #[wasm_bindgen(unchecked_param_type = "number")] level: JsValue,
    ) -> JsResult<()> {
        let level = integer_arg(&level, "level", 1, Level::COUNT as u64).map_err(thrown)?;
        self.inner
            .set_option("Level", &level.to_string())
            .map_err(thrown)
    }

    /// How many of the best root moves the search gives, each with its
    /// score and line (`lines` of the result, `multipv` of each report):
    /// 1 to 256.
    #[wasm_bindgen(js_name = setMultiPV)]
    pub fn set_multi_pv(
        &mut self,
        #[wasm_bindgen(unchecked_param_type = "number")] lines: JsValue,
    ) -> JsResult<()> {
        let lines = integer_arg(&lines, "lines", 1, MAX_MULTI_PV as u64).map_err(thrown)?;
        self.inner
            .set_option("MultiPV", &lines.to_string())
            .map_err(thrown)
    }

    /// Searches the shown position on this thread.
    ///
    /// `limits`: `{ depth, nodes, movetime, clock: { time: [first ms,
    /// second ms], inc: [...], movestogo }, searchmoves: [moves] }`, each
    /// optional (`searchmoves`: the root moves to search, each legal here,
    /// as the page's threads split a position between their workers; none: until
    /// the tree is solved or a callback stops it; without a callback,
    /// limits that cannot end the search are refused). `onInfo(info)` is called after each
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
        #[wasm_bindgen(js_name = onInfo, unchecked_param_type = "((info: any) => any) | null | undefined")]
        on_info: JsValue,
        #[wasm_bindgen(js_name = shouldStop, unchecked_param_type = "(() => any) | null | undefined")]
        should_stop: JsValue,
    ) -> JsResult<JsValue> {
        let on_info = function_arg(&on_info, "onInfo").map_err(thrown)?;
        let should_stop = function_arg(&should_stop, "shouldStop").map_err(thrown)?;
        let mut limits: SearchLimits = from_js(limits, LIMIT_FIELDS, "search limits")?;
        if on_info.is_none() && should_stop.is_none() && !limits.is_bounded() {
            return Err(thrown(LimitsError::Unbounded));
        }
        let only = std::mem::take(&mut limits.searchmoves);
        let limits = limits.to_limits().map_err(thrown)?;
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
                            thrown_poll.borrow_mut().get_or_insert(e);
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
            self.inner
                .search_among(limits, &only, &mut poll, &mut report)
        };
        if let Some(e) = thrown {
            // The callback's own exception, as it threw it.
            return Err(e);
        }
        to_js(&done.map_err(crate::thrown)?)
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
pub fn games() -> JsResult<JsValue> {
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
pub fn canonical_spec(
    #[wasm_bindgen(unchecked_param_type = "string")] spec: JsValue,
) -> JsResult<String> {
    let spec = string_arg(&spec, "spec").map_err(thrown)?;
    Games::canonical(&spec).map_err(|e| thrown(GameError::Spec(e)))
}

/// Draws the position `position` (the start position when absent) of the
/// game `spec` after `moves`, as `qi render --game G --fen P --moves M`
/// does; `options` as for [`Game::svg`].
#[wasm_bindgen]
pub fn render(
    #[wasm_bindgen(unchecked_param_type = "string")] spec: JsValue,
    #[wasm_bindgen(unchecked_param_type = "string | null | undefined")] position: JsValue,
    #[wasm_bindgen(unchecked_param_type = "string[] | null | undefined")] moves: JsValue,
    options: JsValue,
) -> JsResult<String> {
    let spec = string_arg(&spec, "spec").map_err(thrown)?;
    let position = optional_string_arg(&position, "position").map_err(thrown)?;
    let moves = string_list_arg(&moves, "moves")
        .map_err(thrown)?
        .unwrap_or_default();
    let options: BoardOptions = from_js(options, BOARD_FIELDS, "board options")?;
    let moves: Vec<&str> = moves.iter().map(String::as_str).collect();
    svg::render_game(&spec, position.as_deref(), &moves, &options.into()).map_err(thrown)
}

/// Draws the position of a game record after `ply` of its moves (all of
/// them when absent), as `qi render --record F --ply N` does.
#[wasm_bindgen(js_name = renderRecord)]
pub fn render_record(
    #[wasm_bindgen(unchecked_param_type = "string")] record: JsValue,
    #[wasm_bindgen(unchecked_param_type = "number | null | undefined")] ply: JsValue,
    options: JsValue,
) -> JsResult<String> {
    let record = string_arg(&record, "record").map_err(thrown)?;
    let ply = optional_integer_arg(&ply, "ply", 0, MAX_PLY).map_err(thrown)?;
    let options: BoardOptions = from_js(options, BOARD_FIELDS, "board options")?;
    svg::render_record(&record, ply.map(|p| p as usize), &options.into()).map_err(thrown)
}
