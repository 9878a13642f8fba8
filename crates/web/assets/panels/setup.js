// @ts-check
// Choosing the game: the game selectors (the presets and a typed rule
// string), the new-game dialog, the side options named by the game's
// colours, and the position's text.
import { $, dialog, input, select, textarea } from "../dom.js";
import { presetDescription, presetName, sideName, words } from "../i18n.js";
import { mode } from "../rules.js";
import { state } from "../state.js";

/** @typedef {import("../state.js").View} View */

const GAME_SELECTS = ["game-select", "nd-game"];

/**
 * A selector shows a spec, added as a typed rule string when it is no
 * preset.
 * @param {HTMLSelectElement} control
 * @param {string} spec
 */
export function showSpecIn(control, spec) {
  if (![...control.options].some((o) => o.value === spec)) {
    control.querySelectorAll("option.custom").forEach((o) => o.remove());
    const option = document.createElement("option");
    option.className = "custom";
    option.value = spec;
    option.textContent = presetName(spec);
    control.append(option);
  }
  control.value = spec;
}

/**
 * The game selectors show the game played, a typed rule string included.
 * @param {string} spec
 */
export function showSpec(spec) {
  for (const id of GAME_SELECTS) showSpecIn(select(id), spec);
  $("nd-desc").textContent = presetDescription(select("nd-game").value);
}

/** The presets in the selectors, in the page's language. */
export function fillGameSelects() {
  for (const id of GAME_SELECTS) {
    const control = select(id);
    const value = control.value;
    control.innerHTML = "";
    for (const spec of state.presets) {
      const option = document.createElement("option");
      option.value = spec;
      option.textContent = presetName(spec);
      option.title = presetDescription(spec);
      control.append(option);
    }
    if (value) showSpecIn(control, value);
  }
}

/**
 * The "you play first / second" options name the colours of the game
 * shown only (Red or X, not both).
 */
export function nameSides() {
  const view = state.view;
  const w = words();
  for (const id of ["mode", "nd-side"]) {
    for (const option of select(id).options) {
      if (option.value !== "first" && option.value !== "second") continue;
      const first = option.value === "first";
      const names = id === "nd-side" || !view ? null : view.side_names;
      option.textContent = names ? w.playSide(first, sideName(names[first ? 0 : 1])) : w[first ? "modeFirst" : "modeSecond"];
    }
  }
}

/**
 * The position's text and the record's example, for the game shown.
 * @param {View} view
 */
export function drawPosition(view) {
  input("position-text").value = view.text;
  // The example tag names the game shown, not always Jungle.
  textarea("record-text").placeholder = words().recordPlaceholder(view.spec);
}

/** The new-game dialog, set to the game and settings shown. */
export function openNewGameDialog() {
  select("nd-side").value = mode();
  select("nd-level").value = select("level").value;
  input("custom-spec").value = "";
  if (state.view) showSpecIn(select("nd-game"), state.view.spec);
  $("nd-desc").textContent = presetDescription(select("nd-game").value);
  dialog("new-dialog").showModal();
}
