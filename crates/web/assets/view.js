// @ts-check
// The page drawn from the state: a new view of the game shown in every
// panel, and the whole page said again in another language.
import { drawBoard, drawMarks } from "./board.js";
import { $, select } from "./dom.js";
import { currentLang, words } from "./i18n.js";
import { clearAnalysis, drawEval } from "./panels/analysis.js";
import { drawClocks } from "./panels/clock.js";
import { updateButtons } from "./panels/controls.js";
import { drawMoves } from "./panels/moves.js";
import { drawReview } from "./panels/review.js";
import { fillGameSelects, drawPosition, nameSides, showSpec } from "./panels/setup.js";
import { drawStatus, maybeShowResult } from "./panels/status.js";
import { mode, movesFrom } from "./rules.js";
import { state } from "./state.js";
import { sayAgain } from "./ui.js";

/** @typedef {import("./state.js").View} View */

/**
 * Shows a view of the game: the backend's answer to every change.
 * @param {View} view
 */
export function show(view) {
  const before = state.view;
  if (before && (before.text !== view.text || before.spec !== view.spec || before.ply !== view.ply)) clearAnalysis();
  state.view = view;
  state.analysing = view.searching === "analysis";
  if (state.selected && movesFrom(state.selected).length === 0) state.selected = null;
  drawBoard(before, view);
  drawStatus(view);
  drawPosition(view);
  showSpec(view.spec);
  nameSides();
  drawMoves(view);
  drawClocks(view);
  drawReview();
  drawMarks();
  drawEval();
  updateButtons();
  document.body.dataset.game = view.game;
  document.body.dataset.mode = mode();
  maybeShowResult(view);
}

/** Every word of the page in its language (i18n.js). */
export function applyLanguage() {
  const w = words();
  /** @type {Record<string, unknown>} */
  const table = w;
  const zh = currentLang() === "zh";
  document.documentElement.lang = zh ? "zh-CN" : "en";
  document.title = zh ? "qi — 斗兽棋与五虎棋" : "qi — Jungle 斗兽棋 and Five Tigers 五虎棋";
  if (!state.view) $("status").textContent = zh ? "加载中…" : "Loading…";
  for (const node of document.querySelectorAll("[data-i18n]")) {
    const value = node instanceof HTMLElement && node.dataset.i18n ? table[node.dataset.i18n] : undefined;
    if (typeof value === "string") node.textContent = value;
  }
  for (const [attr, data] of [["title", "i18n-title"], ["placeholder", "i18n-placeholder"], ["aria-label", "i18n-aria"]]) {
    for (const node of document.querySelectorAll(`[data-${data}]`)) {
      const value = table[node.getAttribute(`data-${data}`) || ""];
      if (typeof value === "string") node.setAttribute(attr, value);
    }
  }
  for (const option of select("movetime").options) option.textContent = w.seconds(Number(option.value) / 1000);
  for (const option of select("nd-clock").options) option.textContent = w.clockName(option.value);
  for (const id of ["level", "nd-level"]) {
    for (const option of select(id).options) option.textContent = w.levelName(Number(option.value));
  }
  select("lang").value = currentLang();
  nameSides();
  // What shows now in words of the page, said again.
  sayAgain();
  fillGameSelects();
  if (state.view) show(state.view);
}
