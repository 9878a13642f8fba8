// @ts-check
// What the game is at: the status line, a removal owed and the pieces in
// hand (Five Tigers), and the result dialog once per finished game.
import { $, dialog } from "../dom.js";
import { currentLang, reasonText, sideName, words } from "../i18n.js";
import { endedNow, gameKey, gameOver, otherName } from "../rules.js";
import { state } from "../state.js";

/** @typedef {import("../state.js").View} View */

/**
 * The status line in the page's language, from the view's fields.
 * @param {View} view
 */
export function statusText(view) {
  const w = words();
  const ended = endedNow();
  if (ended) {
    if (ended.reason === "loss on time" && ended.winner) {
      return w.outOfTime(sideName(otherName(view, ended.winner)), sideName(ended.winner));
    }
    return ended.winner ? w.wins(sideName(ended.winner), reasonText(ended.reason)) : w.draw(reasonText(ended.reason));
  }
  if (currentLang() === "en") return view.status;
  if (view.result) {
    const r = view.result;
    return r.winner ? w.wins(sideName(r.winner), reasonText(r.reason)) : w.draw(reasonText(r.reason));
  }
  const me = sideName(view.to_move_name);
  if (view.removal) {
    const taker = sideName(view.removal.side);
    const victim = sideName(otherName(view, view.removal.side));
    const n = view.removal.count;
    return view.removal.chooser === view.removal.side
      ? `${taker}须提掉${victim}${n}子（先提散子）`
      : `${victim}没有散子：${victim}须献出自己的一子（${taker}还可提${n}子）`;
  }
  if (view.phase === "place") return w.toPlace(me);
  if (view.phase === "move") return w.toStep(me);
  return w.toMove(me);
}

/**
 * The status line, the removal owed, the pieces in hand.
 * @param {View} view
 */
export function drawStatus(view) {
  const w = words();
  const status = $("status");
  status.textContent = state.thinking ? w.thinking(sideName(view.to_move_name)) : statusText(view);
  status.classList.toggle("over", gameOver());
  const removal = $("removal");
  if (view.removal) {
    removal.hidden = false;
    const r = view.removal;
    removal.textContent = r.chooser === r.side
      ? w.removalTake(sideName(r.side), r.count, sideName(otherName(view, r.side)))
      : w.removalGive(sideName(r.chooser), sideName(r.side), r.count);
  } else {
    removal.hidden = true;
  }
  // The pieces in hand, while any are left to place (removals included);
  // none in the movement phase, where there is nothing to count.
  const hands = $("hands");
  if (view.hands && (view.hands[0] > 0 || view.hands[1] > 0)) {
    hands.hidden = false;
    hands.textContent = w.hands(sideName(view.side_names[0]), view.hands[0], sideName(view.side_names[1]), view.hands[1]);
  } else {
    hands.hidden = true;
  }
}

/**
 * The engine thinks for the side to move.
 * @param {View} view
 */
export function showThinking(view) {
  $("status").textContent = words().thinking(sideName(view.to_move_name));
}

/**
 * The result dialog, once per finished game.
 * @param {View} view
 */
export function maybeShowResult(view) {
  const box = dialog("result-dialog");
  if (!gameOver() || view.ply !== view.moves.length) {
    if (box.open) box.close();
    return;
  }
  const key = gameKey(view) + (endedNow() ? "|ended" : "");
  $("result-text").textContent = statusText(view);
  if (state.resultShown === key) return;
  state.resultShown = key;
  if (!box.open) box.show();
}
