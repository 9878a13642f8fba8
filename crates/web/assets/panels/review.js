// @ts-check
// The game review panel: the Review button (Cancel while it runs) and its
// progress, each side's accuracy, the graph of the first side's winning
// chances over the game (a click on it goes to that move), and at a move
// judged inaccurate, a mistake or a blunder, its better move. The marks
// in the move list (?!, ?, ??) are drawn by moves.js from the same review.
import { $, button } from "../dom.js";
import { sideName, words } from "../i18n.js";
import { againstEngine, gameOver, mainKey, onMainLine } from "../rules.js";
import { state } from "../state.js";

/** @typedef {import("../state.js").View} View */
/** @typedef {import("../backend/backend.js").Review} Review */
/** @typedef {Review["moves"][number]} MoveReview */

/** The marks of the judgements, as lichess writes them. */
export const MARKS = { inaccuracy: "?!", mistake: "?", blunder: "??" };

/** The judgements' colours in the graph (lichess's). */
const COLOURS = { inaccuracy: "#56b4e9", mistake: "#e69f00", blunder: "#df5353" };

/**
 * The review of the game shown (its whole line), if it has one.
 * @returns {Review | null}
 */
export function currentReview() {
  const view = state.view;
  return view && state.review && state.review.key === mainKey(view) ? state.review.result : null;
}

/**
 * The review of the move that led to position `ply`, if reviewed.
 * @param {number} ply
 * @returns {MoveReview | null}
 */
export function moveReview(ply) {
  const review = currentReview();
  return review ? review.moves.find((m) => m.ply === ply) || null : null;
}

/**
 * The better move to show as an arrow on the board now: the best move of
 * the position shown, when "Show the better move" asked for it there.
 * @returns {string | null}
 */
export function betterMove() {
  const view = state.view;
  const better = state.better;
  if (!view || !better || !currentReview() || better.ply !== view.ply) return null;
  return better.move;
}

/**
 * An SVG element with its attributes, in the namespace of `root` (the
 * graph's SVG, made by the HTML parser: the page names no address).
 * @param {Element} root
 * @param {string} name
 * @param {Record<string, string | number>} attrs
 */
function svgNode(root, name, attrs) {
  const node = document.createElementNS(root.namespaceURI, name);
  for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, String(v));
  return node;
}

/**
 * The graph of the first side's winning chances over the game: a point a
 * position, the judged moves as coloured dots, the position shown as a
 * line. Each position has a column of the graph to click (data-ply).
 * @param {Review} review
 * @param {number} shown the ply shown
 */
function drawGraph(review, shown) {
  const graph = $("review-graph");
  const width = 300;
  const count = review.positions.length;
  const step = width / Math.max(1, count - 1);
  graph.innerHTML = "<svg></svg>";
  const svg = /** @type {SVGSVGElement} */ (graph.firstElementChild);
  for (const [k, v] of Object.entries({ viewBox: `0 0 ${width} 100`, preserveAspectRatio: "none", role: "img" })) svg.setAttribute(k, v);
  svg.setAttribute("aria-label", words().reviewGraph);
  svg.append(svgNode(svg, "rect", { x: 0, y: 0, width, height: 100, class: "second-area" }));
  const points = review.positions.map((p, i) => `${(i * step).toFixed(2)},${(100 - p.win_first).toFixed(2)}`);
  svg.append(svgNode(svg, "polygon", { points: `0,100 ${points.join(" ")} ${((count - 1) * step).toFixed(2)},100`, class: "first-area" }));
  svg.append(svgNode(svg, "line", { x1: 0, y1: 50, x2: width, y2: 50, class: "mid" }));
  svg.append(svgNode(svg, "polyline", { points: points.join(" "), class: "curve" }));
  if (shown < count) {
    const x = shown * step;
    svg.append(svgNode(svg, "line", { x1: x, y1: 0, x2: x, y2: 100, class: "shown" }));
  }
  for (const move of review.moves) {
    if (!move.judgement || move.ply >= count) continue;
    const p = review.positions[move.ply];
    svg.append(svgNode(svg, "circle", {
      cx: move.ply * step, cy: 100 - p.win_first, r: 3.5, fill: COLOURS[move.judgement], "data-judged": move.ply,
    }));
  }
  review.positions.forEach((p, i) => {
    const column = svgNode(svg, "rect", { x: i * step - step / 2, y: 0, width: step, height: 100, class: "column", "data-ply": p.ply });
    const title = svgNode(svg, "title", {});
    title.textContent = `${p.ply}: ${p.win_first.toFixed(0)}%`;
    column.append(title);
    svg.append(column);
  });
}

/**
 * The panel as the state has it: the button, the progress, and the
 * review of the game shown.
 */
export function drawReview() {
  const w = words();
  const view = state.view;
  const running = state.reviewing;
  const review = currentReview();
  const start = button("review");
  start.textContent = running ? w.reviewCancel : w.review;
  // Against the engine, not before the game is over (it would be a hint).
  const playing = againstEngine() && !gameOver();
  start.disabled = !running && (!view || view.moves.length === 0 || state.thinking || playing);
  const progress = /** @type {HTMLProgressElement} */ ($("review-progress"));
  progress.hidden = !running;
  const note = $("review-state");
  if (running) {
    progress.max = running.total;
    progress.value = running.done;
    note.textContent = w.reviewing(running.done, running.total);
  } else {
    note.textContent = review && !review.complete ? w.reviewPartial : "";
  }
  const sides = $("review-sides");
  const graph = $("review-graph");
  const verdict = $("review-move");
  const better = button("review-better");
  if (!review || !view) {
    sides.innerHTML = "";
    graph.innerHTML = "";
    graph.hidden = true;
    verdict.textContent = "";
    better.hidden = true;
    return;
  }
  sides.innerHTML = "";
  review.sides.forEach((side, i) => {
    const item = document.createElement("li");
    item.dataset.side = i === 0 ? "first" : "second";
    const accuracy = side.accuracy === null ? "–" : `${Math.round(side.accuracy)}%`;
    item.textContent = w.accuracy(sideName(view.side_names[i]), accuracy, side.inaccuracies, side.mistakes, side.blunders);
    sides.append(item);
  });
  graph.hidden = false;
  drawGraph(review, view.ply);
  // The move that led to the position shown, when it was judged: what
  // it was, and the better move to show from the position before it.
  // The better move asked for comes first: it is the arrow on the board.
  const move = onMainLine(view) ? moveReview(view.ply) : null;
  const arrow = betterMove();
  if (arrow) {
    verdict.textContent = w.betterShown(arrow);
    better.hidden = true;
  } else if (move && move.judgement && move.best) {
    verdict.textContent = w.judged(move.played + MARKS[move.judgement], w.judgements[move.judgement], move.best);
    better.hidden = false;
    better.dataset.ply = String(move.ply - 1);
    better.dataset.move = move.best;
  } else {
    verdict.textContent = "";
    better.hidden = true;
  }
}
