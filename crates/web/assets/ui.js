// @ts-check
// The page's notes to the player: the error box, a short hint under the
// board, a button's brief word. Each keeps what it shows so that a change
// of language says it again (sayAgain).
import { $ } from "./dom.js";
import { errorText, isWordKey, word } from "./i18n.js";

/** @typedef {import("./i18n.js").WordKey} WordKey */

/** @type {unknown} the error shown (an Error, or a message) */
let shownError = null;
/** @type {WordKey | null} the hint shown */
let hintKey = null;
/** @type {ReturnType<typeof setTimeout> | undefined} */
let hintTimer;

/**
 * Shows an error (an Error, or a message), or hides the box (null).
 * @param {unknown} error
 */
export function showError(error) {
  const box = $("error");
  if (!error) {
    shownError = null;
    box.hidden = true;
    box.textContent = "";
    return;
  }
  box.hidden = false;
  shownError = error;
  box.textContent = errorText(error);
}

/**
 * A short note under the board, by its word's key.
 * @param {WordKey} key
 */
export function hint(key) {
  const box = $("hint");
  hintKey = key;
  box.textContent = word(key);
  clearTimeout(hintTimer);
  hintTimer = setTimeout(() => {
    hintKey = null;
    box.textContent = "";
  }, 1800);
}

/**
 * A click that does nothing: the board shakes and says why.
 * @param {WordKey} key
 */
export function refuse(key) {
  const board = $("board");
  board.classList.remove("refused");
  void board.offsetWidth; // restarts the animation
  board.classList.add("refused");
  hint(key);
}

/**
 * A button says a word for a moment (Copied), then its own again.
 * @param {string} id
 * @param {string} text
 */
export function flash(id, text) {
  const node = $(id);
  node.textContent = text;
  setTimeout(() => {
    const own = node.dataset.i18n;
    if (own && isWordKey(own)) node.textContent = word(own);
  }, 1200);
}

/** The hint and the error shown, in the page's new language. */
export function sayAgain() {
  if (hintKey) $("hint").textContent = word(hintKey);
  if (shownError) $("error").textContent = errorText(shownError);
}
