// @ts-check
// The move list: the line in numbered turns, the move shown marked and
// scrolled to, and the way back to the line a variation replaced. A
// click on a move is the page's (its button has data-ply).
import { $ } from "../dom.js";
import { currentLang, words } from "../i18n.js";
import { squaresOf } from "../rules.js";
import { state } from "../state.js";
import { MARKS, moveReview } from "./review.js";

/** @typedef {import("../state.js").View} View */

/**
 * Jungle's pieces on each square, from position text: the first rank
 * written is the top one (rank 9), upper case is Red.
 * @param {string} text
 * @returns {Record<string, string>}
 */
function jungleBoard(text) {
  /** @type {Record<string, string>} */
  const board = {};
  const ranks = text.split(" ")[0].split("/");
  ranks.forEach((row, i) => {
    let file = 0;
    for (const ch of row) {
      if (/[0-9]/.test(ch)) {
        file += Number(ch);
      } else {
        board[`${String.fromCharCode(97 + file)}${ranks.length - i}`] = ch;
        file += 1;
      }
    }
  });
  return board;
}

/**
 * Each move of the line in words: the animal that moved and a capture
 * mark (Jungle), the removal mark (Five Tigers).
 * @param {View} view
 * @returns {string[]}
 */
function moveNames(view) {
  const w = words();
  if (view.game !== "jungle") {
    return view.moves.map((m) => (m.startsWith("x") ? `×${m.slice(1)}` : m));
  }
  const board = jungleBoard(view.start);
  return view.moves.map((m) => {
    const [from, to] = squaresOf(m);
    const piece = board[from];
    const captured = board[to];
    delete board[from];
    if (piece) board[to] = piece;
    const name = piece ? (/** @type {Record<string, string>} */ (w.animals))[piece.toUpperCase()] : null;
    if (!name) return m;
    const sep = captured ? "×" : currentLang() === "zh" ? "-" : "";
    return `${name} ${from}${sep}${to}`;
  });
}

/**
 * The move list in numbered turns: a turn of the first side and the
 * second's answer on one line (a Five Tigers turn with removals has
 * several moves).
 * @param {View} view
 */
export function drawMoves(view) {
  const list = $("moves");
  list.innerHTML = "";
  const names = moveNames(view);
  const movers = view.movers || view.moves.map((_, i) => (i % 2 === 0 ? "first" : "second"));
  /** @type {HTMLLIElement | null} */
  let row = null;
  let number = 0;
  view.moves.forEach((move, i) => {
    const side = movers[i];
    if (!row || (side === "first" && movers[i - 1] !== "first")) {
      number += 1;
      row = document.createElement("li");
      const num = document.createElement("span");
      num.className = "num";
      num.textContent = side === "first" ? `${number}.` : `${number}. …`;
      row.append(num);
      list.append(row);
    }
    const button = document.createElement("button");
    button.type = "button";
    button.textContent = names[i];
    button.dataset.ply = String(i + 1);
    button.dataset.move = move;
    button.dataset.side = side;
    if (i + 1 === view.ply) button.classList.add("current");
    // The review's judgement of the move: ?!, ? or ??.
    const judged = moveReview(i + 1);
    if (judged && judged.judgement) {
      const mark = document.createElement("span");
      mark.className = `judgement ${judged.judgement}`;
      mark.textContent = MARKS[judged.judgement];
      button.append(mark);
      button.title = words().judgements[judged.judgement];
    }
    row.append(button);
  });
  // The list scrolls to the current move; the window must not (on a
  // phone, scrollIntoView scrolled the whole page down to the list).
  // Measured on the screen: offsetTop is relative to the list itself
  // (position: relative), so it cannot be compared with the list's.
  const current = list.querySelector(".current");
  if (current) {
    const box = list.getBoundingClientRect();
    const item = current.getBoundingClientRect();
    if (item.top < box.top || item.bottom > box.bottom) {
      list.scrollTop += item.top - box.top - (list.clientHeight - item.height) / 2;
    }
  }
  const back = $("main-line");
  if (state.mainLine) {
    back.hidden = false;
    back.textContent = words().mainLine(state.mainLine.moves.length);
  } else {
    back.hidden = true;
  }
}
