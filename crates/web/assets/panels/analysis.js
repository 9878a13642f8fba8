// @ts-check
// The analysis panel: the engine's live output (depth, score, nodes, the
// best line and the lines of several), and the evaluation bar. A click on
// a line is the page's (its item has data-pv).
import { $ } from "../dom.js";
import { sideName, words } from "../i18n.js";
import { drawMarks } from "../board.js";
import { againstEngine, mode } from "../rules.js";
import { noLines, state } from "../state.js";
import { updateButtons } from "./controls.js";

/** @typedef {import("../state.js").SearchInfo} SearchInfo */
/** @typedef {import("../state.js").SearchEvent} SearchEvent */

/**
 * A score in the winner's words ("Red wins in 7"), or pawns for the first
 * side.
 * @param {SearchInfo} info
 */
export function formatScore(info) {
  if (info.score.startsWith("mate")) {
    const n = Number(info.score.split(" ")[1]);
    const firstWins = info.score_first > 0;
    const name = state.view ? sideName(state.view.side_names[firstWins ? 0 : 1]) : "";
    return words().winsIn(name, Math.abs(n));
  }
  const pawns = info.score_first / 100;
  return `${pawns >= 0 ? "+" : ""}${pawns.toFixed(2)}`;
}

/**
 * A line of analysis previewed: the board after it, small, beside the
 * line (lichess shows a line hovered the same way); played only when
 * clicked.
 * @param {string} svg
 * @param {HTMLElement} item the line's item in the list
 */
export function showPreview(svg, item) {
  const box = $("an-preview");
  box.innerHTML = svg;
  box.hidden = false;
  const line = item.getBoundingClientRect();
  const size = box.getBoundingClientRect();
  // Below the line, or above it when there is no room below; inside the
  // window across.
  const below = line.bottom + 4 + size.height <= window.innerHeight;
  box.style.top = `${Math.max(0, below ? line.bottom + 4 : line.top - 4 - size.height)}px`;
  box.style.left = `${Math.max(0, Math.min(line.left, window.innerWidth - size.width))}px`;
}

/** No line previewed. */
export function hidePreview() {
  const box = $("an-preview");
  box.hidden = true;
  box.innerHTML = "";
}

/** The analysis panel empty: what it showed was about another position. */
export function clearAnalysis() {
  hidePreview();
  for (const id of ["an-depth", "an-score", "an-nodes", "an-nps", "an-pv"]) $(id).textContent = "–";
  $("an-lines").innerHTML = "";
  $("an-multi").innerHTML = "";
  state.lines = noLines();
  state.searchNote = "idle";
  state.best = null;
  state.lastLine = null;
  drawEval();
}

/** The evaluation bar: the first side's share, from the best line's score. */
export function drawEval() {
  const bar = $("eval-bar");
  const info = state.best;
  if (!info || mode() === "first" || mode() === "second") {
    bar.hidden = true;
    return;
  }
  bar.hidden = false;
  let share;
  if (info.score.startsWith("mate")) {
    share = info.score_first > 0 ? 1 : 0;
  } else {
    share = 1 / (1 + Math.exp(-info.score_first / 250));
  }
  $("eval-fill").style.width = `${(share * 100).toFixed(1)}%`;
  $("eval-text").textContent = formatScore(info);
  bar.dataset.share = share.toFixed(3);
}

/**
 * The lines of a search of several lines (MultiPV). Each iteration sends
 * its lines one at a time, best first, so the list shows this iteration's
 * lines so far, then the previous iteration's whose first move none of
 * them has: the list never empties while the search runs (no flicker) and
 * never shows one move twice (the previous iteration's line 2 may be this
 * one's line 1).
 * @param {SearchInfo} data
 */
function showLine(data) {
  const lines = state.lines;
  if (data.depth !== lines.depth) {
    lines.older = lines.shown;
    lines.fresh = [];
    lines.depth = data.depth;
  }
  lines.fresh[(data.multipv || 1) - 1] = data;
  const fresh = lines.fresh.filter(Boolean);
  const firsts = new Set(fresh.map((line) => line.pv[0]));
  const count = Math.max(fresh.length, lines.older.length);
  lines.shown = fresh.concat(lines.older.filter((line) => !firsts.has(line.pv[0]))).slice(0, count);
  const list = $("an-multi");
  while (list.children.length < lines.shown.length) {
    const item = document.createElement("li");
    item.tabIndex = 0;
    item.setAttribute("role", "button");
    list.appendChild(item);
  }
  while (list.children.length > lines.shown.length) list.lastChild?.remove();
  lines.shown.forEach((line, k) => {
    const item = /** @type {HTMLElement} */ (list.children[k]);
    item.dataset.pv = line.pv.slice(0, 8).join(" ");
    item.textContent = `${formatScore(line)} ${line.pv.slice(0, 8).join(" ")}`;
  });
}

/**
 * A search event of the backend: the panel follows it.
 * @param {SearchEvent} data
 */
export function onSearchEvent(data) {
  // Against the engine its thinking stays hidden: analysis is for the
  // analysis board and two players.
  if (data.search === "engine" && againstEngine()) return;
  if (data.type === "start") {
    $("an-lines").innerHTML = "";
    $("an-multi").innerHTML = "";
    state.lines = noLines();
    state.searchNote = "idle";
    state.lastLine = null;
  } else if (data.type === "info" && (data.multipv || 1) > 1) {
    // Line K of several (MultiPV): its place in the list of best moves.
    showLine(data);
  } else if (data.type === "info") {
    if (data.multipv === 1) showLine(data);
    state.best = data;
    $("an-depth").textContent = String(data.depth);
    $("an-score").textContent = formatScore(data);
    $("an-nodes").textContent = data.nodes.toLocaleString("en");
    $("an-nps").textContent = data.nps.toLocaleString("en");
    $("an-pv").textContent = data.pv.join(" ") || "–";
    const text = `${formatScore(data)} ${data.pv.slice(0, 8).join(" ")}`;
    // A forced win found early repeats itself at every depth: one entry
    // whose depth grows, not a list of the same line.
    const list = $("an-lines");
    if (state.lastLine === text && list.firstChild) {
      list.firstChild.textContent = `d${data.depth} ${text}`;
    } else {
      const line = document.createElement("li");
      line.textContent = `d${data.depth} ${text}`;
      list.prepend(line);
    }
    state.lastLine = text;
    drawMarks();
    drawEval();
  } else if (data.type === "done") {
    // The hint's search ended: its move is the hint's arrow.
    if (data.search === "analysis" && state.hint && state.hint.move === null) {
      state.hint.move = data.best;
      if (!data.best) state.hint = null;
      drawMarks();
    }
    if (data.search === "analysis") {
      state.analysing = false;
      state.searchNote = data.best ? words().stoppedBest(data.best) : "stopped";
      updateButtons();
    }
  }
}
