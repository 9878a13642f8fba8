// @ts-check
// What the page reads from a view and the players' settings: the squares
// of a move, whose turn it is, whether the game is over. No drawing, no
// requests.
import { select } from "./dom.js";
import { state } from "./state.js";

/** @typedef {import("./state.js").View} View */

/**
 * The squares of a move: a3a4 -> [a3, a4]; c3-c4 -> [c3, c4]; xb2 -> [b2].
 * @param {string} move
 * @returns {string[]}
 */
export function squaresOf(move) {
  return move.replace(/^x/, "").match(/[a-w][0-9]+/g) || [];
}

/**
 * A placement or a removal: a move of one square.
 * @param {string} move
 */
export function isSingle(move) {
  return squaresOf(move).length === 1;
}

/**
 * Who plays: "human" (two players), "first" or "second" (the player's
 * side against the engine), or "analysis".
 * @returns {string}
 */
export function mode() {
  return select("mode").value;
}

export function againstEngine() {
  return mode() === "first" || mode() === "second";
}

/**
 * The game's identity at the end of its line, for a result the backend
 * does not know (resignation, agreed draw).
 * @param {View} view
 */
export function gameKey(view) {
  return `${view.spec}|${view.start}|${view.moves.join(" ")}`;
}

/**
 * The moves of the game's main line (the view's tree read along each
 * node's first child: in the tree's order, a node's first child follows
 * it).
 * @param {View} view
 * @returns {string[]}
 */
export function mainMoves(view) {
  const tree = view.tree || [];
  /** @type {string[]} */
  const moves = [];
  for (let i = 0; i < tree.length && (i === 0 ? tree[i].parent === null : tree[i].parent === i - 1); i += 1) {
    moves.push(tree[i].move);
  }
  return moves;
}

/**
 * The game's main line, for what belongs to it wherever the shown
 * position is (a review).
 * @param {View} view
 */
export function mainKey(view) {
  return `${view.spec}|${view.start}|${mainMoves(view).join(" ")}`;
}

/**
 * Whether the shown position is on the main line.
 * @param {View} view
 */
export function onMainLine(view) {
  const main = mainMoves(view);
  return view.ply <= main.length && view.moves.slice(0, view.ply).every((m, i) => m === main[i]);
}

/**
 * The position shown, in its game (a hint belongs to it).
 * @param {View} view
 */
export function positionKey(view) {
  return `${gameKey(view)}|${view.ply}`;
}

/** The resignation or agreed draw that ended the shown game, if any. */
export function endedNow() {
  const view = state.view;
  return state.ended && view && view.ply === view.moves.length && state.ended.key === gameKey(view) ? state.ended : null;
}

export function gameOver() {
  return !!(state.view && (state.view.result || endedNow()));
}

/** Whether the page takes a move from the player now. */
export function humanToMove() {
  const view = state.view;
  if (!view || gameOver() || state.thinking) return false;
  return !againstEngine() || mode() === view.to_move;
}

/**
 * The moves of the piece on a square.
 * @param {string} sq
 */
export function movesFrom(sq) {
  const view = state.view;
  return view ? view.legal.filter((m) => !isSingle(m) && squaresOf(m)[0] === sq) : [];
}

/**
 * The other side's name.
 * @param {View} view
 * @param {string} name
 */
export function otherName(view, name) {
  const names = view.side_names;
  return names[0] === name ? names[1] : names[0];
}

/**
 * How many plies a takeback undoes: against the engine, its plies since
 * the player's last turn and that whole turn (a Five Tigers turn with
 * removals is several plies, and so is the engine's); otherwise one.
 */
export function takebackCount() {
  const view = state.view;
  if (!view || view.ply === 0) return 0;
  if (!againstEngine()) return 1;
  const movers = view.movers || [];
  const me = mode();
  let i = view.ply;
  while (i > 0 && movers[i - 1] !== me) i -= 1;
  if (i === 0) return 0; // the player has not moved yet
  while (i > 0 && movers[i - 1] === me) i -= 1;
  return view.ply - i;
}

/**
 * The side that resigns now: against the engine the player, otherwise
 * the side to move.
 * @param {View} view
 * @returns {string}
 */
export function resigner(view) {
  return againstEngine() ? mode() : view.to_move;
}
