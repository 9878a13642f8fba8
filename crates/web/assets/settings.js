// @ts-check
// What the page keeps between visits: the player's settings, and a game
// ended by resignation or agreement (the backends know only the rules'
// results).
import { input, select } from "./dom.js";
import { currentLang } from "./i18n.js";

// Where the mode, engine time, level, language and sounds are kept.
const SETTINGS = "qi-settings";
// A resignation or agreed draw.
const ENDED = "qi-ended";

/**
 * @typedef {object} Settings
 * @property {string} [mode]
 * @property {string} [movetime]
 * @property {string} [level]
 * @property {string} [threads] the engine's threads (the static page's workers)
 * @property {string} [clock] the time control of a new game ("" none)
 * @property {string} [lang]
 * @property {boolean} [sound]
 * @property {boolean} [animate]
 * @property {boolean} [hints] the Hint button shown while playing
 */

/** @returns {Settings} */
export function readSettings() {
  try {
    return JSON.parse(localStorage.getItem(SETTINGS) || "{}") || {};
  } catch (e) {
    return {};
  }
}

/** Keeps the controls' settings. */
export function saveSettings() {
  /** @type {Settings} */
  const settings = {
    mode: select("mode").value,
    movetime: select("movetime").value,
    level: select("level").value,
    threads: select("threads").value,
    clock: select("nd-clock").value,
    lang: currentLang(),
    sound: input("sound").checked,
    animate: input("animate").checked,
    hints: input("hints").checked,
  };
  localStorage.setItem(SETTINGS, JSON.stringify(settings));
}

/** Sets the controls as they were kept. */
export function restoreSettings() {
  const settings = readSettings();
  for (const [id, key] of /** @type {const} */ ([["mode", "mode"], ["movetime", "movetime"], ["level", "level"], ["threads", "threads"], ["nd-clock", "clock"]])) {
    const control = select(id);
    const value = settings[key];
    if ([...control.options].some((o) => o.value === value)) control.value = String(value);
  }
  input("sound").checked = !!settings.sound;
  input("animate").checked = settings.animate !== false;
  input("hints").checked = !!settings.hints;
}

/** @returns {import("./state.js").Ended | null} */
export function readEnded() {
  try {
    return JSON.parse(localStorage.getItem(ENDED) || "null");
  } catch (e) {
    return null;
  }
}

/** @param {import("./state.js").Ended | null} ended */
export function saveEnded(ended) {
  if (ended) localStorage.setItem(ENDED, JSON.stringify(ended));
  else localStorage.removeItem(ENDED);
}
