// @ts-check
// What the player's actions do: each asks the backend (backend/backend.js)
// for the change, shows the view it answers, and says why when it is
// refused. The engine's turn, the analysis that follows the position, the
// endings only the page knows (resignation, agreed draw) are decided here.
import { $, dialog, input, select, textarea } from "./dom.js";
import { sideName, words } from "./i18n.js";
import { drawMarks } from "./board.js";
import { hidePreview, onSearchEvent, showPreview } from "./panels/analysis.js";
import { flagOf, incrementMs } from "./panels/clock.js";
import { updateButtons } from "./panels/controls.js";
import { pathTo, shownVariation, treeOf } from "./panels/moves.js";
import { drawReview } from "./panels/review.js";
import { downloadRecord, linkedRecord, shareLink, withEnding } from "./panels/record.js";
import { showThinking } from "./panels/status.js";
import { againstEngine, gameKey, gameOver, mainKey, humanToMove, isSingle, mode, movesFrom, otherName, positionKey, resigner, squaresOf, takebackCount } from "./rules.js";
import { saveEnded, saveSettings } from "./settings.js";
import { sound } from "./sound.js";
import { state, view as shown } from "./state.js";
import { flash, refuse, showError } from "./ui.js";
import { show } from "./view.js";

/** @typedef {import("./backend/backend.js").Backend} Backend */
/** @typedef {import("./state.js").View} View */

/** @type {Backend | null} */
let current = null;

/** @returns {Backend} the page's backend */
export function backend() {
  if (!current) throw new Error("no backend yet");
  return current;
}

/** @param {Backend} chosen */
export function useBackend(chosen) {
  current = chosen;
}

/**
 * Runs a change of the game, shows its view, and reports a refusal.
 * @param {(b: Backend) => Promise<View>} change
 * @returns {Promise<View | null>}
 */
async function act(change) {
  showError(null);
  try {
    const view = await change(backend());
    show(view);
    return view;
  } catch (e) {
    showError(e);
    return null;
  }
}

/**
 * The player chose a square (a click, a tap, a drag's end, Enter).
 * @param {string} sq
 */
export function clickSquare(sq) {
  if (state.busy) return;
  if (!humanToMove()) {
    if (state.view && !gameOver()) refuse("notYourTurn");
    return;
  }
  const legal = shown().legal;
  if (state.selected) {
    const move = legal.find((m) => {
      const s = squaresOf(m);
      return s.length === 2 && s[0] === state.selected && s[1] === sq;
    });
    if (move) {
      state.selected = null;
      playMove(move);
      return;
    }
  }
  const single = legal.find((m) => isSingle(m) && squaresOf(m)[0] === sq);
  if (single) {
    state.selected = null;
    playMove(single);
    return;
  }
  if (movesFrom(sq).length > 0) {
    state.selected = state.selected !== sq ? sq : null;
  } else {
    if (state.selected !== sq) refuse("illegal");
    state.selected = null;
  }
  drawMarks();
}

/** @param {string} move */
async function playMove(move) {
  state.busy = true;
  showError(null);
  // A hint still searching gives way to the move (the server runs one
  // search at a time).
  if (state.hint && state.hint.move === null && state.analysing) {
    state.hint = null;
    try {
      await backend().stopAnalysis();
    } catch (e) {
      // the move below says what is wrong, if anything
    }
  }
  /** @type {View | null} */
  let view = null;
  try {
    view = await backend().play(move);
    show(view);
  } catch (e) {
    flagOrError(e);
  }
  state.busy = false;
  if (view) {
    sound();
    afterChange();
  }
}

// After the shown position changed: the engine plays if it is its turn,
// and a following analysis starts again.
function afterChange() {
  if (maybeEngineMove()) return;
  const follow = state.wantAnalysis || mode() === "analysis";
  if (follow && !state.analysing && !gameOver() && !state.thinking) startAnalysis();
}

/** The engine plays when it is its turn at the end of the line. */
export function maybeEngineMove() {
  const view = state.view;
  if (!view || gameOver() || state.thinking || !againstEngine()) return false;
  if (mode() === view.to_move) return false;
  if (view.ply !== view.moves.length) return false;
  engineMove();
  return true;
}

export async function engineMove() {
  if (state.thinking || !state.view || gameOver()) return;
  state.thinking = true;
  state.wantAnalysis = false;
  updateButtons();
  showThinking(state.view);
  const options = { movetime_ms: engineTime(state.view), level: Number(select("level").value) };
  showError(null);
  let view = null;
  /** @type {unknown} */
  let refused = null;
  try {
    view = await backend().engineMove(options);
  } catch (e) {
    refused = e;
  }
  // Shown once the engine is done, so the status no longer says it thinks.
  state.thinking = false;
  const latest = view || state.view;
  if (latest) show(latest);
  // The engine's own time ran out while it thought: its flag fell.
  if (refused && errorKind(refused) === "clock.flagged") clockRanOut();
  else if (refused) showError(refused);
  if (view) {
    sound();
    // In a game against the engine, play on if it is still its turn (a
    // Five Tigers side with several removals moves several times running).
    maybeEngineMove();
  }
}

/**
 * The engine's time for a move: the time chosen, but on a clock no more
 * than a twentieth of what is left and most of the increment, so that
 * it does not lose on time.
 * @param {View} view
 */
function engineTime(view) {
  const chosen = Number(select("movetime").value);
  const clock = view.clock;
  if (!clock) return chosen;
  const left = clock.remaining_ms[view.to_move === "first" ? 0 : 1];
  return Math.max(50, Math.min(chosen, Math.floor(left / 20 + incrementMs(clock.control) * 0.8)));
}

/**
 * The kind of a refusal (docs/web.md's `{kind, fields, message}`).
 * @param {unknown} e
 */
function errorKind(e) {
  return e && typeof e === "object" && "kind" in e ? e.kind : undefined;
}

/**
 * A refusal of a move because a flag fell is the flag's: the game ends
 * on time rather than show an error.
 * @param {unknown} e
 */
function flagOrError(e) {
  if (errorKind(e) === "clock.flagged") clockRanOut();
  else showError(e);
}

/** Asked once at a time: the running side's time showed nothing left. */
let checkingClock = false;

/**
 * The running side's time showed nothing left: the backend's clock says
 * whether its flag fell (the server's is the authority, its time the
 * page's only approximates); if it did, the game ends, lost on time.
 */
export async function clockRanOut() {
  if (checkingClock || !state.view) return;
  checkingClock = true;
  try {
    const view = await backend().view();
    show(view);
    const out = flagOf(view.clock);
    if (out && !gameOver() && view.ply === view.moves.length) {
      endGame(view.side_names[out === "first" ? 1 : 0], "loss on time");
    }
  } catch (e) {
    showError(e);
  } finally {
    checkingClock = false;
  }
}

/**
 * The time control of a new game (the new game dialog's), none for the
 * analysis board.
 * @returns {string | null}
 */
function chosenClock() {
  const control = select("nd-clock").value;
  return control && mode() !== "analysis" ? control : null;
}

// After a reload while the server's engine chose a move: the page waits
// for it (the server plays it into the session) instead of going stale.
async function waitForEngine() {
  state.thinking = true;
  updateButtons();
  showThinking(shown());
  for (;;) {
    await new Promise((resolve) => setTimeout(resolve, 300));
    let view;
    try {
      view = await backend().view();
    } catch (e) {
      state.thinking = false;
      showError(e);
      show(shown());
      return;
    }
    if (view.searching !== "engine") {
      state.thinking = false;
      show(view);
      maybeEngineMove();
      return;
    }
  }
}

/** The last step's end: the steps asked for are taken one after another. */
let navigation = Promise.resolve();
/** How many steps were asked for: the last one's end clears `state.navigating`. */
let steps = 0;
/** How many games were opened (new, loaded): a step asked for in another game is dropped. */
let games = 0;

/**
 * A new game or record replaces the line: steps still queued in the old
 * one are dropped, and the one the backend is answering ends first (it
 * would otherwise reach the backend after the new game, and move it).
 * @returns {Promise<void>}
 */
async function forgetSteps() {
  games += 1;
  state.navigating = null;
  await navigation.catch(() => {});
}

/**
 * A step through the line shown (the navigation buttons and arrow keys):
 * `to` gives the ply to show from the ply the last step asked for and the
 * line's length. Steps come faster than a backend answers (two quick
 * clicks, a held arrow key), so each starts where the one before it will
 * end, not at the view still shown, and the backend hears them one at a
 * time, in order: two clicks forward are two moves forward.
 * @param {(from: number, end: number) => number} to
 * @returns {Promise<void>} the step's end, once shown
 */
export function navigate(to) {
  const view = state.view;
  if (state.thinking || !view) return navigation;
  const from = state.navigating ?? view.ply;
  const ply = Math.max(0, Math.min(view.moves.length, to(from, view.moves.length)));
  if (ply === from) return navigation;
  state.navigating = ply;
  const step = ++steps;
  const game = games;
  navigation = navigation.then(() => (game === games ? goto(ply) : undefined)).finally(() => {
    if (step === steps && game === games) state.navigating = null;
  });
  return navigation;
}

/** @param {number} ply */
export async function goto(ply) {
  if (state.thinking || !state.view || ply === state.view.ply) return;
  state.selected = null;
  const view = await act((b) => b.goto(ply));
  if (view && (state.wantAnalysis || mode() === "analysis") && !gameOver()) startAnalysis();
}

/**
 * Shows a move of the game's tree (a click in the move list).
 * @param {number} node its place in the view's tree
 */
export async function gotoNode(node) {
  if (state.thinking || !state.view || node === state.view.node) return;
  const moves = pathTo(state.view, node);
  await gotoMoves(moves);
}

/**
 * Shows the position after `moves` of the tree; a following analysis
 * starts there.
 * @param {string[]} moves
 */
async function gotoMoves(moves) {
  state.selected = null;
  if (await act((b) => b.gotoLine(moves))) followAnalysis();
}

// A following analysis starts again after a change of the tree (the
// server stops the session's search on every change).
function followAnalysis() {
  if ((state.wantAnalysis || mode() === "analysis") && !gameOver()) startAnalysis();
}

/**
 * Shows the position after `ply` moves of the main line (the line a
 * review judged), wherever the shown position is.
 * @param {number} ply
 */
export async function gotoMain(ply) {
  const view = state.view;
  if (state.thinking || !view) return;
  const shape = treeOf(view);
  const moves = shape.main.slice(0, ply).map((i) => shape.tree[i].move);
  if (view.ply === ply && moves.every((m, i) => view.moves[i] === m)) return;
  await gotoMoves(moves);
}

/** The variation shown becomes the main line. */
export async function promoteVariation() {
  if (state.thinking || state.busy || !state.view || shownVariation(state.view) === null) return;
  if (await act((b) => b.promote())) followAnalysis();
}

/**
 * The variation shown leaves the tree (its first move and everything
 * after it); the position before it is shown.
 */
export async function deleteVariation() {
  const view = state.view;
  if (state.thinking || state.busy || !view) return;
  const first = shownVariation(view);
  if (first === null) return;
  state.busy = true;
  state.selected = null;
  const shown = await act(async (b) => {
    await b.gotoLine(pathTo(view, first));
    return b.undo(1);
  });
  state.busy = false;
  if (shown) followAnalysis();
}

/** @param {import("./backend/backend.js").NewGame} game */
export async function newGame(game) {
  if (state.thinking) return;
  state.selected = null;
  await forgetSteps();
  forgetEnded();
  // A new game is drawn from the player's side, whatever the last one's
  // flip was.
  const control = chosenClock();
  const view = await act(async (b) => {
    const fresh = await b.newGame({ flip: mode() === "second", ...game });
    return control ? b.setClock(control) : fresh;
  });
  if (view) afterChange();
}

export async function startAnalysis() {
  showError(null);
  state.wantAnalysis = true;
  try {
    const multipv = Number(select("an-multipv").value) || 1;
    // The server runs one search per session: a running one ends first.
    if (state.analysing) await backend().stopAnalysis();
    show(await backend().startAnalysis(multipv));
  } catch (e) {
    state.analysing = false;
    state.wantAnalysis = false;
    state.searchNote = "lost";
    showError(e);
    updateButtons();
  }
}

export async function toggleAnalysis() {
  if (state.analysing) {
    state.wantAnalysis = false;
    await act((b) => b.stopAnalysis());
    state.analysing = false;
    updateButtons();
    return;
  }
  await startAnalysis();
}

// The search events stopped coming: if the backend is gone, say so rather
// than show "analysing…" for ever.
export async function searchBroken() {
  if (!state.analysing) return;
  try {
    await backend().view();
  } catch (e) {
    state.analysing = false;
    state.wantAnalysis = false;
    state.searchNote = "lost";
    showError(e);
    updateButtons();
  }
}

export async function takeback() {
  const count = takebackCount();
  if (state.thinking || count === 0) return;
  state.selected = null;
  forgetEnded();
  const view = await act((b) => b.undo(count));
  if (view) afterChange();
}

/** @param {boolean} flip */
export function flip(flip) {
  return act((b) => b.flip(flip));
}

function forgetEnded() {
  state.ended = null;
  saveEnded(null);
}

/**
 * A resignation or agreed draw ends the game.
 * @param {string | null} winner
 * @param {string} reason
 */
export function endGame(winner, reason) {
  const view = shown();
  state.ended = { key: gameKey(view), winner, reason };
  saveEnded(state.ended);
  state.wantAnalysis = false;
  if (state.analysing) act((b) => b.stopAnalysis());
  show(view);
  // The clock stops with the game (a flag has stopped it already).
  const clock = view.clock;
  if (clock && clock.running && !clock.paused && !flagOf(clock)) act((b) => b.pauseClock());
}

// Resign asks first (a misplaced tap must not end a game).
export function resign() {
  const view = state.view;
  if (!view || gameOver()) return;
  const loser = resigner(view);
  $("rs-text").textContent = words().resignAsk(sideName(view.side_names[loser === "first" ? 0 : 1]));
  dialog("resign-dialog").showModal();
}

export function confirmResign() {
  dialog("resign-dialog").close();
  const view = state.view;
  if (!view || gameOver()) return;
  const loser = resigner(view);
  endGame(view.side_names[loser === "first" ? 1 : 0], "resignation");
}

export function offerDraw() {
  const view = state.view;
  if (!view || gameOver()) return;
  const me = sideName(view.to_move_name);
  $("dd-text").textContent = words().drawOffer(me, sideName(otherName(view, view.to_move_name)));
  dialog("draw-dialog").showModal();
}

export function rematch() {
  dialog("result-dialog").close();
  newGame({ spec: shown().spec });
}

/** @type {HTMLElement | null} the line of analysis previewed (hovered, focused) */
let previewed = null;

/**
 * Previews a line of the analysis on a small board (the pointer over it,
 * or keyboard focus on it); the game does not change.
 * @param {HTMLElement} item the line's item, its moves in data-pv
 */
export async function previewLine(item) {
  const pv = item.dataset.pv;
  if (!pv || !state.view) return;
  previewed = item;
  try {
    const svg = await backend().preview(pv.split(" "));
    // Still the line under the pointer, with the same moves.
    if (previewed === item && item.dataset.pv === pv && item.isConnected) showPreview(svg, item);
  } catch (e) {
    if (previewed === item) hidePreview();
  }
}

/** The pointer or focus left the lines: no preview. */
export function endPreview() {
  previewed = null;
  hidePreview();
}

/**
 * Plays a line of the analysis on the board: a variation of the game
 * when it leaves the line.
 * @param {string | undefined} pv
 */
export async function playLine(pv) {
  if (!pv || state.thinking || state.busy) return;
  endPreview();
  state.busy = true;
  showError(null);
  let view = null;
  for (const move of pv.split(" ")) {
    try {
      view = await backend().play(move);
    } catch (e) {
      showError(e);
      break;
    }
  }
  state.busy = false;
  if (view) {
    show(view);
    afterChange();
  }
}

// A review's budget per position: small enough that a 100-ply game
// reviews in about 10 s in the page's wasm (docs/web.md has the figure),
// the same verdicts on every machine (a node budget, not a time).
export const REVIEW_NODES = 80000;

/**
 * Reviews the game shown (its whole line): every position searched in
 * the engine's worker or by the server, each move judged; a second click
 * cancels it.
 */
export async function reviewGame() {
  const running = state.reviewing;
  if (running) {
    state.reviewing = null;
    running.cancel();
    drawReview();
    return;
  }
  const view = state.view;
  if (!view || view.moves.length === 0 || state.thinking || (againstEngine() && !gameOver())) return;
  showError(null);
  // One search at a time: the analysis gives way to the review.
  if (state.analysing) {
    state.wantAnalysis = false;
    await act((b) => b.stopAnalysis());
  }
  const key = mainKey(view);
  /** @type {{ cancel: () => void, done: number, total: number }} */
  const mine = { cancel: () => {}, done: 0, total: view.moves.length + 1 };
  state.reviewing = mine;
  drawReview();
  try {
    const record = await backend().record();
    if (state.reviewing !== mine) return;
    const started = backend().review(record, REVIEW_NODES, (done, total) => {
      if (state.reviewing !== mine) return;
      mine.done = done;
      mine.total = total;
      drawReview();
    });
    mine.cancel = started.cancel;
    const result = await started.result;
    if (state.reviewing !== mine) return;
    state.review = { key, result };
    state.better = null;
  } catch (e) {
    if (state.reviewing === mine && errorKind(e) !== "review.cancelled") showError(e);
  } finally {
    if (state.reviewing === mine) state.reviewing = null;
  }
  if (state.view) show(state.view);
}

/**
 * "Show the better move": the position before the judged move, with the
 * review's best move there as an arrow.
 * @param {number} ply
 * @param {string} move
 */
export async function showBetter(ply, move) {
  state.better = { ply, move };
  const before = shown();
  await gotoMain(ply);
  if (state.view === before) show(before);
}

// The hint's search: half a second at full strength.
const HINT_MS = 500;

/** The Hint button: a short search shows a good move as an arrow. */
export async function showHint() {
  const view = state.view;
  if (!view || !humanToMove() || state.analysing || state.busy) return;
  showError(null);
  state.hint = { key: positionKey(view), move: null };
  try {
    show(await backend().startAnalysis(1, HINT_MS));
  } catch (e) {
    state.hint = null;
    showError(e);
  }
}

export async function copyText() {
  const text = input("position-text").value;
  try {
    await navigator.clipboard.writeText(text);
    flash("copy-text", words().copied);
  } catch (e) {
    input("position-text").select();
    flash("copy-text", words().selectCopy);
  }
}

export async function saveRecord() {
  showError(null);
  try {
    downloadRecord(shown(), withEnding(shown(), await backend().record()));
  } catch (e) {
    showError(e);
  }
}

/**
 * @param {string} text
 * @returns {Promise<View | null>} the game loaded, null if refused
 */
export async function loadRecord(text) {
  if (state.thinking) return null;
  state.selected = null;
  await forgetSteps();
  const view = await act((b) => b.loadRecord(text));
  if (view) {
    select("mode").value = "human";
    saveSettings();
    show(view);
  }
  return view;
}

export async function copyLink() {
  showError(null);
  try {
    const link = shareLink(shown(), await backend().record());
    const box = input("share-link");
    box.value = link;
    box.hidden = false;
    box.select();
    try {
      await navigator.clipboard.writeText(link);
      flash("share", words().linkCopied);
    } catch (e) {
      flash("share", words().selectCopy);
    }
  } catch (e) {
    showError(e);
  }
}

// Opens the game of the address's hash, then takes the hash away: a
// reload keeps the game as played on from there.
export async function openLinkedGame() {
  const linked = linkedRecord(location.hash);
  if (!linked) return;
  history.replaceState(null, "", location.pathname + location.search);
  if (!(await loadRecord(linked.text))) return;
  // A tree shows its main line when loaded: the link's line is then found
  // in it.
  if (linked.line && linked.line.length && linked.line.join(" ") !== shown().moves.join(" ")) {
    await gotoMoves(linked.line);
  }
  if (linked.ply !== null && Number.isInteger(linked.ply) && linked.ply !== shown().ply) await goto(linked.ply);
}

// A first visit's level: a newcomer's first game is one they can win
// (level 10 is the full engine); a level chosen once is kept.
export const NEWCOMER_LEVEL = "3";
const FULL_LEVEL = "10";

// The time per move matters to the full engine only: the weaker levels
// search a fixed number of nodes and answer at once.
export function showEngineTime() {
  $("movetime-row").hidden = select("level").value !== FULL_LEVEL;
}

export function startFromDialog() {
  const spec = input("custom-spec").value.trim() || select("nd-game").value;
  select("mode").value = select("nd-side").value;
  select("level").value = select("nd-level").value;
  showEngineTime();
  saveSettings();
  dialog("new-dialog").close();
  newGame({ spec });
}

export function setUp() {
  const text = textarea("setup-text").value.trim();
  if (!text) {
    showError(words().pasteFirst);
    return;
  }
  newGame({ spec: state.view ? state.view.spec : select("game-select").value, text });
}

// The player's mode changed: analysis starts, or the engine takes its side.
export function modeChanged() {
  saveSettings();
  document.body.dataset.mode = mode();
  if (mode() === "analysis") {
    // The analysis board has no clock: the game's is taken away (a
    // paused one would refuse every move), before the analysis starts, so
    // that the view the start answers with is one without the clock (sent
    // together, the server could answer the start with the view from
    // before the clock went, and show it last).
    const clockGone = state.view && state.view.clock && !gameOver() ? act((b) => b.setClock(null)) : Promise.resolve(null);
    clockGone.then(() => {
      if (mode() === "analysis" && !state.analysing && !gameOver()) startAnalysis();
    });
    return;
  }
  if (againstEngine()) {
    state.wantAnalysis = false;
    if (state.analysing) act((b) => b.stopAnalysis());
    flip(mode() === "second").then(() => maybeEngineMove());
  }
}

/**
 * The game this tab had, or a new one; then what a reload interrupted.
 * @param {string} spec the game of a first visit
 */
export async function openGame(spec) {
  const { view, lost } = await backend().open(spec, mode() === "second");
  backend().listen(onSearchEvent, () => searchBroken());
  state.resultShown = gameKey(view) + (state.ended ? "|ended" : ""); // no dialog for a game finished before the reload
  show(view);
  document.body.dataset.ready = "1";
  // When the board became interactive, on the page's own clock (User
  // Timing), for web-tests/bench.mjs.
  performance.mark("qi-ready");
  if (lost) showError(words().sessionLost);
  if (linkedRecord(location.hash)) {
    await openLinkedGame();
    return;
  }
  // A reload while the engine was to move or thinking: the server's
  // engine goes on (wait for it), the page's died with the page (let
  // it move again).
  if (view.searching === "engine") waitForEngine();
  else if (mode() === "analysis" && !view.searching && !gameOver()) startAnalysis();
  else maybeEngineMove();
}
