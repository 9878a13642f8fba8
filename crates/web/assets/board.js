// @ts-check
// The board: the view's picture, the marks drawn over it (selection,
// destinations, formations, removals, the analysis's arrow, the keyboard's
// square), the last move's animation, and the pointer and keyboard input,
// which it hands to the page as squares (wireBoard).
import { $, boardSvg, input } from "./dom.js";
import { sideName, words } from "./i18n.js";
import { humanToMove, movesFrom, positionKey, squaresOf } from "./rules.js";
import { betterMove } from "./panels/review.js";
import { state } from "./state.js";

/** @typedef {import("./state.js").View} View */

/**
 * The centre of a square on the board picture.
 * @param {SVGSVGElement} svg
 * @param {string} sq
 * @returns {[number, number] | null}
 */
export function centreOf(svg, sq) {
  const cell = svg.querySelector(`.sq[data-sq="${sq}"]`);
  if (!cell) return null;
  const at = (/** @type {string} */ name) => Number(cell.getAttribute(name));
  if (cell.tagName === "circle") return [at("cx"), at("cy")];
  return [at("x") + at("width") / 2, at("y") + at("height") / 2];
}

/**
 * A ring over a square.
 * @param {SVGSVGElement} svg
 * @param {string} sq
 * @param {string} cls
 * @param {number} r
 * @param {Record<string, string | number>} attrs
 */
function mark(svg, sq, cls, r, attrs) {
  const centre = centreOf(svg, sq);
  if (!centre) return;
  const circle = document.createElementNS(svg.namespaceURI, "circle");
  circle.setAttribute("class", `overlay ${cls}`);
  circle.setAttribute("cx", String(centre[0]));
  circle.setAttribute("cy", String(centre[1]));
  circle.setAttribute("r", String(r));
  circle.setAttribute("pointer-events", "none");
  circle.setAttribute("data-sq", sq);
  for (const [k, v] of Object.entries(attrs)) circle.setAttribute(k, String(v));
  svg.append(circle);
}

/**
 * The piece on a square, in words (for screen readers).
 * @param {SVGSVGElement} svg
 * @param {View} view
 * @param {string} sq
 */
function squareLabel(svg, view, sq) {
  const w = words();
  const piece = svg.querySelector(`.piece[data-sq="${sq}"]`);
  if (!(piece instanceof SVGElement)) return `${sq}, ${w.empty}`;
  const side = sideName(view.side_names[piece.dataset.side === "first" ? 0 : 1]);
  const animal = (/** @type {Record<string, string>} */ (w.animals))[(piece.dataset.piece || "").toUpperCase()];
  return view.game === "jungle" && animal ? `${sq}, ${side} ${animal}` : `${sq}, ${side}`;
}

/**
 * The squares of the picture, with their names.
 * @param {SVGSVGElement} svg
 * @returns {SVGElement[]}
 */
function squares(svg) {
  return [...svg.querySelectorAll(".sq[data-sq]")].filter((n) => n instanceof SVGElement);
}

/**
 * Draws the view's board: its squares as buttons for the keyboard and
 * screen readers (one tab stop, the focused square; arrows move between
 * squares), the marks, and the move just played sliding in.
 * @param {View | null} before the view shown until now
 * @param {View} view
 */
export function drawBoard(before, view) {
  $("board").innerHTML = view.svg;
  const svg = boardSvg();
  if (!svg) return;
  const cells = squares(svg);
  if (!cells.some((s) => s.dataset.sq === state.focusSq)) state.focusSq = null;
  const focus = state.focusSq || (cells[0] && cells[0].dataset.sq);
  for (const cell of cells) {
    cell.setAttribute("role", "button");
    cell.setAttribute("tabindex", cell.dataset.sq === focus ? "0" : "-1");
    cell.setAttribute("aria-label", squareLabel(svg, view, cell.dataset.sq || ""));
  }
  // A piece lies over its square; clicks on it reach the square's handler
  // through data-sq, and keyboard focus stays on the square.
  svg.setAttribute("focusable", "false");
  animateMove(svg, before, view);
}

/**
 * The piece of a move just played slides from its square (a placement
 * fades in), unless animation is off or the system asks for less motion.
 * @param {SVGSVGElement} svg
 * @param {View | null} before
 * @param {View} view
 */
function animateMove(svg, before, view) {
  if (!input("animate").checked || !before || before.spec !== view.spec || view.ply !== before.ply + 1 || !view.last) return;
  if (matchMedia("(prefers-reduced-motion: reduce)").matches) return;
  if (view.last.startsWith("x")) return;
  const sqs = squaresOf(view.last);
  const piece = svg.querySelector(`.piece[data-sq="${sqs[sqs.length - 1]}"]`);
  if (!piece) return;
  if (sqs.length === 1) {
    piece.animate([{ opacity: 0 }, { opacity: 1 }], { duration: 200, easing: "ease-out" });
    return;
  }
  const a = centreOf(svg, sqs[0]);
  const b = centreOf(svg, sqs[1]);
  if (!a || !b) return;
  piece.animate(
    [{ transform: `translate(${a[0] - b[0]}px, ${a[1] - b[1]}px)` }, { transform: "translate(0px, 0px)" }],
    { duration: 180, easing: "ease-out" },
  );
}

// The arrow's colour: the side to move's (Jungle's red or blue, Five
// Tigers' black X or white O), so that it says whose move it is.
/** @type {Record<string, [string, string]>} */
const ARROW_COLOURS = { jungle: ["#c62828", "#1565c0"], "five-tigers": ["#1b1b1b", "#f5f5f5"] };

/**
 * The best move of the analysis as an arrow (a ring for a placement or a
 * removal).
 * @param {SVGSVGElement} svg
 * @param {View} view
 */
function drawArrow(svg, view) {
  if (!state.best || !state.best.pv.length || !state.wantAnalysis && !state.analysing) return;
  const game = view.spec.split(":")[0];
  const colour = (ARROW_COLOURS[game] || ARROW_COLOURS.jungle)[view.to_move === "first" ? 0 : 1];
  // The other lines of several (MultiPV): thinner and lighter, under the
  // best one.
  const best = state.best.pv[0];
  for (const line of state.lines.shown) {
    if (line.pv.length && line.pv[0] !== best) drawMoveArrow(svg, line.pv[0], colour, "arrow-other", LIGHTER);
  }
  drawMoveArrow(svg, best, colour, "arrow");
}

/** An arrow's look: its width and opacity. */
const BOLD = { width: 9, opacity: 0.75 };
const LIGHTER = { width: 6, opacity: 0.3 };

// The better move of a game review: green, as lichess draws its best move.
const BETTER_COLOUR = "#15781b";

/**
 * A move as an arrow (a ring for a placement or a removal) of `colour`,
 * its overlay's class `kind`, the move in its data-move.
 * @param {SVGSVGElement} svg
 * @param {string} move
 * @param {string} colour
 * @param {string} kind
 * @param {{ width: number, opacity: number }} [look]
 */
function drawMoveArrow(svg, move, colour, kind, look = BOLD) {
  const sqs = squaresOf(move);
  if (sqs.length === 1) {
    mark(svg, sqs[0], kind, 20, { fill: "none", stroke: colour, "stroke-width": look.width - 3, "stroke-opacity": look.opacity + 0.05, "data-move": move });
    return;
  }
  const a = centreOf(svg, sqs[0]);
  const b = centreOf(svg, sqs[1]);
  if (!a || !b) return;
  const ns = svg.namespaceURI;
  const head = `qi-arrowhead-${colour.slice(1)}`;
  if (!svg.querySelector(`#${head}`)) {
    const defs = document.createElementNS(ns, "defs");
    defs.innerHTML = `<marker id="${head}" markerWidth="3" markerHeight="3" refX="1" refY="1.5" orient="auto"><path d="M0,0 L3,1.5 L0,3 z" fill="${colour}"/></marker>`;
    svg.prepend(defs);
  }
  const len = Math.hypot(b[0] - a[0], b[1] - a[1]) || 1;
  const end = [b[0] - ((b[0] - a[0]) / len) * 12, b[1] - ((b[1] - a[1]) / len) * 12];
  const line = document.createElementNS(ns, "line");
  /** @type {Record<string, string | number>} */
  const attrs = {
    class: `overlay ${kind}`, x1: a[0], y1: a[1], x2: end[0], y2: end[1], stroke: colour, "stroke-width": look.width,
    opacity: look.opacity, "marker-end": `url(#${head})`, "pointer-events": "none", "data-move": move,
  };
  for (const [k, v] of Object.entries(attrs)) line.setAttribute(k, String(v));
  svg.append(line);
}

/**
 * The marks drawn over the pieces: the selection and its destinations,
 * the formation just formed, the pieces a removal may take, the
 * keyboard's square, the analysis's best move.
 */
export function drawMarks() {
  const svg = boardSvg();
  const view = state.view;
  if (!svg || !view) return;
  svg.querySelectorAll(".overlay").forEach((n) => n.remove());
  for (const sq of view.formed || []) {
    mark(svg, sq, "formed", 31, { fill: "none", stroke: "#e65100", "stroke-width": 5, "stroke-dasharray": "8 5" });
  }
  if (view.removal && humanToMove()) {
    for (const move of view.legal) {
      if (move.startsWith("x")) mark(svg, move.slice(1), "removable", 29, { fill: "none", stroke: "#c62828", "stroke-width": 4 });
    }
  }
  drawArrow(svg, view);
  const better = betterMove();
  if (better) drawMoveArrow(svg, better, BETTER_COLOUR, "better");
  const hinted = state.hint && state.hint.key === positionKey(view) ? state.hint.move : null;
  if (hinted) drawMoveArrow(svg, hinted, BETTER_COLOUR, "hint");
  if (state.selected) {
    mark(svg, state.selected, "selected", 29, { fill: "none", stroke: "#00897b", "stroke-width": 4 });
    for (const move of movesFrom(state.selected)) {
      mark(svg, squaresOf(move)[1], "target", 9, { fill: "#00897b", "fill-opacity": 0.75 });
    }
  }
  const focused = document.activeElement;
  if (focused instanceof SVGElement && focused.dataset.sq && svg.contains(focused)) {
    mark(svg, focused.dataset.sq, "focus", 33, { fill: "none", stroke: "#6a1b9a", "stroke-width": 4 });
  }
}

/**
 * The square under a pointer.
 * @param {PointerEvent} event
 * @returns {string | null}
 */
function squareAt(event) {
  const target = document.elementFromPoint(event.clientX, event.clientY);
  const node = target && target.closest ? target.closest("[data-sq]") : null;
  return node instanceof SVGElement && $("board").contains(node) ? node.dataset.sq || null : null;
}

/**
 * The square next to `sq` in an arrow key's direction on the screen.
 * @param {string} sq
 * @param {string} key
 */
function neighbour(sq, key) {
  const svg = boardSvg();
  const here = svg && centreOf(svg, sq);
  /** @type {Record<string, [number, number]>} */
  const dirs = { ArrowUp: [0, -1], ArrowDown: [0, 1], ArrowLeft: [-1, 0], ArrowRight: [1, 0] };
  const dir = dirs[key];
  if (!svg || !here || !dir) return null;
  let best = null;
  let bestDistance = Infinity;
  for (const cell of squares(svg)) {
    const c = centreOf(svg, cell.dataset.sq || "");
    if (!c) continue;
    const dx = c[0] - here[0];
    const dy = c[1] - here[1];
    const along = dx * dir[0] + dy * dir[1];
    const across = Math.abs(dx * dir[1] - dy * dir[0]);
    if (along <= 1 || across > 1) continue;
    if (along < bestDistance) {
      bestDistance = along;
      best = cell.dataset.sq || null;
    }
  }
  return best;
}

/**
 * Keyboard focus to a square.
 * @param {string | null} sq
 */
function focusSquare(sq) {
  const svg = boardSvg();
  if (!svg || !sq) return;
  state.focusSq = sq;
  for (const cell of squares(svg)) cell.setAttribute("tabindex", cell.dataset.sq === sq ? "0" : "-1");
  const cell = svg.querySelector(`.sq[data-sq="${sq}"]`);
  if (cell instanceof SVGElement) cell.focus();
  drawMarks();
}

/**
 * The board's input: a click or tap on a square, a drag from a piece, the
 * arrows and Enter on the focused square; each square chosen goes to
 * `onSquare`.
 * @param {(sq: string) => void} onSquare
 */
export function wireBoard(onSquare) {
  const board = $("board");
  board.addEventListener("pointerdown", (event) => {
    state.downSq = squareAt(event);
    if (state.downSq && humanToMove() && movesFrom(state.downSq).length > 0 && state.selected !== state.downSq) {
      // Select at once, so a drag shows the destinations.
      state.selected = state.downSq;
      state.dragSelected = true;
      drawMarks();
    } else {
      state.dragSelected = false;
    }
    event.preventDefault();
  });
  board.addEventListener("pointerup", (event) => {
    const sq = squareAt(event);
    const down = state.downSq;
    state.downSq = null;
    if (!sq) return;
    if (sq === down) {
      if (state.dragSelected) {
        state.dragSelected = false;
        return; // selected on pointerdown
      }
      onSquare(sq);
    } else if (down && state.selected === down) {
      onSquare(sq); // a drag from the selected piece
    }
  });
  board.addEventListener("keydown", (event) => {
    const target = event.target;
    const sq = target instanceof SVGElement ? target.dataset.sq : undefined;
    if (!sq) return;
    if (event.key.startsWith("Arrow")) {
      event.preventDefault();
      event.stopPropagation();
      const next = neighbour(sq, event.key);
      if (next) focusSquare(next);
    } else if (event.key === "Enter" || event.key === " ") {
      event.preventDefault();
      state.focusSq = sq;
      onSquare(sq);
      // The board is drawn again after a move: focus goes back to the square.
      setTimeout(() => focusSquare(state.focusSq), 0);
    }
  });
  board.addEventListener("focusin", (event) => {
    const target = event.target;
    if (target instanceof SVGElement && target.dataset.sq) {
      state.focusSq = target.dataset.sq;
      drawMarks();
    }
  });
  board.addEventListener("focusout", () => setTimeout(drawMarks, 0));
}
