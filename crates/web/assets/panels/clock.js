// @ts-check
// The two clocks beside the board: the side at the top of the board has
// its clock above it, the other below. The backend's clock (docs/web.md,
// docs/wasm.md) is the authority; between its views the page counts the
// running side's time down itself, and when that reaches nothing it asks
// the backend again (onOut), which says whether the flag fell.
import { $ } from "../dom.js";
import { sideName, words } from "../i18n.js";
import { gameOver } from "../rules.js";
import { state } from "../state.js";

/** @typedef {import("../state.js").View} View */
/** @typedef {import("../state.js").ClockView} ClockView */

/** When the shown clock was read (performance.now()). */
let readAt = 0;
/** @type {ReturnType<typeof setInterval> | null} */
let ticker = null;
/** @type {() => void} */
let onOut = () => {};
/** The running side's time reached nothing and the backend was asked. */
let reported = false;

/**
 * What to do when the running side's time shows nothing left (main.js
 * wires the controller's check of the flag).
 * @param {() => void} action
 */
export function onClockOut(action) {
  onOut = action;
}

/**
 * The side out of time, as the backend's clock says it: flagged, or the
 * running side with nothing left (the server records the flag at the
 * next move; its view already shows 0).
 * @param {ClockView | null | undefined} clock
 * @returns {"first" | "second" | null}
 */
export function flagOf(clock) {
  if (!clock) return null;
  if (clock.flagged) return clock.flagged;
  if (clock.running && !clock.paused && clock.remaining_ms[clock.running === "first" ? 0 : 1] === 0) return clock.running;
  return null;
}

/**
 * A time as a clock shows it: 4:59, and tenths under ten seconds (0:09.3).
 * @param {number} ms
 */
export function formatClock(ms) {
  const t = Math.max(0, ms);
  const minutes = Math.floor(t / 60000);
  const seconds = Math.floor((t % 60000) / 1000);
  const text = `${minutes}:${String(seconds).padStart(2, "0")}`;
  return t < 10000 ? `${text}.${Math.floor((t % 1000) / 100)}` : text;
}

/**
 * A Fischer increment of a time control ("300+2": 2000 ms; "600": 0).
 * @param {string} control
 */
export function incrementMs(control) {
  const [, inc] = control.split("+");
  return inc ? Number(inc) * 1000 : 0;
}

/**
 * Each side's time left now, counted down from the view's.
 * @param {ClockView} clock
 * @returns {[number, number]}
 */
export function remainingNow(clock) {
  const [first, second] = clock.remaining_ms;
  if (!clock.running || clock.paused || clock.flagged || gameOver()) return [first, second];
  const used = performance.now() - readAt;
  return clock.running === "first" ? [Math.max(0, first - used), second] : [first, Math.max(0, second - used)];
}

function paint() {
  const view = state.view;
  const clock = view ? view.clock : null;
  const boxes = [$("clock-top"), $("clock-bottom")];
  if (!view || !clock) {
    for (const box of boxes) box.hidden = true;
    stopTicking();
    return;
  }
  const left = remainingNow(clock);
  const flagged = flagOf(clock);
  // The first side is at the bottom unless the board is flipped.
  /** @type {("first" | "second")[]} */
  const sides = view.flip ? ["first", "second"] : ["second", "first"];
  boxes.forEach((box, i) => {
    const side = sides[i];
    const index = side === "first" ? 0 : 1;
    box.hidden = false;
    box.dataset.side = side;
    const running = clock.running === side && !clock.paused && !gameOver();
    box.classList.toggle("running", running);
    box.classList.toggle("low", left[index] < 10000);
    box.classList.toggle("flagged", flagged === side || (gameOver() && left[index] === 0));
    const name = /** @type {HTMLElement} */ (box.querySelector(".name"));
    const time = /** @type {HTMLElement} */ (box.querySelector(".time"));
    name.textContent = sideName(view.side_names[index]);
    time.textContent = formatClock(left[index]);
    time.setAttribute("aria-label", words().clockLeft(sideName(view.side_names[index]), formatClock(left[index])));
  });
  const running = clock.running && !clock.paused && !clock.flagged && !gameOver();
  if (running) {
    if (!ticker) ticker = setInterval(paint, 100);
    const index = clock.running === "first" ? 0 : 1;
    if (left[index] <= 0 && !reported) {
      reported = true;
      onOut();
    }
  } else {
    stopTicking();
  }
}

function stopTicking() {
  if (ticker) clearInterval(ticker);
  ticker = null;
}

/**
 * A new view of the game: its clock (or none) shown and counted down.
 * @param {View} view
 */
export function drawClocks(view) {
  readAt = performance.now();
  if (!view.clock || !view.clock.running || view.clock.paused) reported = false;
  else if (view.clock.remaining_ms[view.clock.running === "first" ? 0 : 1] > 0) reported = false;
  paint();
}
