// @ts-check
// The buttons that act on the game, enabled when they can act, and the
// analysis's state word.
import { $, button, input } from "../dom.js";
import { isWordKey, words } from "../i18n.js";
import { gameOver, humanToMove, mode, takebackCount } from "../rules.js";
import { state } from "../state.js";

export function updateButtons() {
  const view = state.view;
  const idle = !state.thinking;
  const w = words();
  const atStart = !view || view.ply === 0 || !idle;
  const atEnd = !view || view.ply >= view.moves.length || !idle;
  button("nav-first").disabled = atStart;
  button("nav-back").disabled = atStart;
  button("nav-forward").disabled = atEnd;
  button("nav-last").disabled = atEnd;
  button("undo").disabled = !view || takebackCount() === 0 || !idle;
  button("engine-move").disabled = !view || gameOver() || !idle;
  button("resign").disabled = !view || gameOver() || !idle || view.ply !== view.moves.length || mode() === "analysis";
  button("offer-draw").disabled = !view || gameOver() || view.ply !== view.moves.length || mode() !== "human";
  // The hint, when the settings show it: while the player is to move.
  const hintButton = button("hint-button");
  hintButton.hidden = !input("hints").checked || mode() === "analysis";
  hintButton.disabled = !view || !humanToMove() || state.analysing || state.busy;
  button("analyse").disabled = !view || (!state.analysing && (gameOver() || !idle));
  button("analyse").textContent = state.analysing ? w.stop : w.analyse;
  const note = isWordKey(state.searchNote) ? w[state.searchNote] : state.searchNote;
  $("an-state").textContent = state.analysing ? w.analysing : state.thinking ? w.engineThinking : note;
}
