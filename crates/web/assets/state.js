// @ts-check
// The page's one state: the game view the backend last gave and what the
// page adds to it (the selection, the searches, the review). Modules read and change it here; nothing else is global.

/**
 * A game as the backends give it (docs/web.md's view).
 * @typedef {object} View
 * @property {string} id          the session (the server's) or "local"
 * @property {string} game        "jungle" or "five-tigers"
 * @property {string} spec        the game spec, e.g. "jungle:standard"
 * @property {string} start       the first position's text
 * @property {string} text        the shown position's text
 * @property {string[]} moves     the line shown, from the first position: the moves to
 *   the shown position, then its main continuation
 * @property {number} ply         the shown position's ply in the line
 * @property {TreeNode[]} [tree]  every move of the game's tree, each before its
 *   children, a main continuation before its variations
 * @property {number | null} [node] the shown position's place in `tree` (none at the start)
 * @property {("first" | "second")[]} [movers] who played each move
 * @property {string[]} legal     the shown position's legal moves
 * @property {string | null} [last] the move that led to the shown position
 * @property {string[]} [formed]  Five Tigers: the points of a formation just formed
 * @property {string} svg         the board's picture
 * @property {boolean} flip       drawn from the second side
 * @property {string} status      the status line, in English
 * @property {{ winner: string | null, reason: string } | null} result
 * @property {"first" | "second"} to_move
 * @property {string} to_move_name the side to move's name (Red, X...)
 * @property {[string, string]} side_names the first and second side's names
 * @property {{ side: string, chooser: string, count: number } | null} [removal] Five Tigers: a removal owed
 * @property {string} [phase]     Five Tigers: "place" or "move"
 * @property {[number, number] | null} [hands] Five Tigers: the pieces in hand
 * @property {"engine" | "analysis" | null} searching the search that runs
 * @property {ClockView | null} [clock] the game's clock, if it has one
 */

/**
 * A move of the game's tree (qi-play's NodeView): the place of the move
 * before it in the tree's list (none from the first position).
 * @typedef {{ parent: number | null, move: string, mover: "first" | "second" }} TreeNode
 */

/**
 * A clock as the backends show it (qi-play's ClockView): the time
 * control, each side's time left when the view was made, whose time runs.
 * @typedef {object} ClockView
 * @property {string} control          "300+2": 300 s a side, 2 s added a move
 * @property {[number, number]} remaining_ms the first and second side's time left
 * @property {"first" | "second" | null} running
 * @property {boolean} paused
 * @property {"first" | "second" | null} flagged the side out of time
 */

/**
 * An iteration's report of a search (docs/web.md's search events).
 * @typedef {object} SearchInfo
 * @property {number} depth
 * @property {number} [multipv]   the line's rank, from 1
 * @property {string} score       "cp N" or "mate N", the side to move's
 * @property {number} score_first the score for the first side
 * @property {number} nodes
 * @property {number} nps
 * @property {string[]} pv
 */

/**
 * A search event: its start, an iteration, its end.
 * @typedef {{ type: "start", search: "engine" | "analysis" }
 *   | ({ type: "info", search: "engine" | "analysis" } & SearchInfo)
 *   | { type: "done", search: "engine" | "analysis", best: string | null }} SearchEvent
 */

/**
 * A resignation or agreed draw, which the backends do not know of.
 * @typedef {{ key: string, winner: string | null, reason: string }} Ended
 */

/**
 * The lines of a search of several (MultiPV): see panels/analysis.js.
 * @typedef {{ depth: number, fresh: SearchInfo[], older: SearchInfo[], shown: SearchInfo[] }} Lines
 */

/** @returns {Lines} */
export const noLines = () => ({ depth: 0, fresh: [], older: [], shown: [] });

export const state = {
  /** @type {View | null} the last game view */
  view: null,
  /** @type {string[]} every preset spec, in the backend's order */
  presets: [],
  /** @type {string | null} the square of the piece about to move */
  selected: null,
  /** a request that changes the game is in flight */
  busy: false,
  /** @type {number | null} the ply the navigation steps not yet shown lead to */
  navigating: null,
  /** an analysis runs */
  analysing: false,
  /** analysis follows the position: it starts again after each change */
  wantAnalysis: false,
  /** the engine is choosing its move */
  thinking: false,
  /** @type {string | null} the square a pointer went down on */
  downSq: null,
  /** the piece was selected by the pointer going down (a drag may follow) */
  dragSelected: false,
  /** how the last search ended: a key of the page's words, or a text */
  searchNote: "idle",
  /** @type {Ended | null} */
  ended: null,
  /** @type {SearchInfo | null} the running analysis's best line (the arrow, the bar) */
  best: null,
  /** @type {Lines} */
  lines: noLines(),
  /** @type {string | null} the best line last listed (a repeated one grows in place) */
  lastLine: null,
  /** @type {string | null} the square that keyboard focus is on */
  focusSq: null,
  /** @type {string | null} the game whose result dialog was shown */
  resultShown: null,
  /** @type {{ key: string, result: import("./backend/backend.js").Review } | null} the last review, of the line `key` */
  review: null,
  /** @type {{ cancel: () => void, done: number, total: number } | null} the review that runs: positions searched of all */
  reviewing: null,
  /** @type {{ ply: number, move: string } | null} the better move shown as an arrow at position `ply` */
  better: null,
  /** @type {{ key: string, move: string | null } | null} the hint asked for in the position `key` (its move once found) */
  hint: null,
};

/**
 * The view, once the page has one (every action runs after the first).
 * @returns {View}
 */
export function view() {
  if (!state.view) throw new Error("no game yet");
  return state.view;
}
