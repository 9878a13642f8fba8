// @ts-check
// The qi web app: the page of `qi serve` and of the static site. Plain
// JavaScript modules, no libraries and no build. It picks its backend
// once, at start (boot.js: the static site's page names "local", `qi
// serve`'s site.json answers "server"), wires the page's controls to the
// controller's actions, and opens the game.
import { backendReady } from "./boot.js";
import { wireBoard } from "./board.js";
import * as controller from "./controller.js";
import { $, button, dialog, input, select, textarea } from "./dom.js";
import { chooseLanguage, errorText, presetDescription, setLang, words } from "./i18n.js";
import { registerWorker } from "./offline.js";
import { onClockOut } from "./panels/clock.js";
import { updateButtons } from "./panels/controls.js";
import { fillGameSelects, openNewGameDialog } from "./panels/setup.js";
import { gameOver, humanToMove } from "./rules.js";
import { readEnded, readSettings, restoreSettings, saveSettings } from "./settings.js";
import { state, view } from "./state.js";
import { showError } from "./ui.js";
import { applyLanguage, show } from "./view.js";

/** @typedef {import("./backend/backend.js").Backend} Backend */

function wire() {
  wireBoard((sq) => controller.clickSquare(sq));
  onClockOut(() => controller.clockRanOut());
  /** @type {[string, () => unknown][]} */
  const clicks = [
    ["nav-first", () => controller.navigate(() => 0)],
    ["nav-back", () => controller.navigate((ply) => ply - 1)],
    ["nav-forward", () => controller.navigate((ply) => ply + 1)],
    ["nav-last", () => controller.navigate((_, end) => end)],
    ["undo", () => controller.takeback()],
    ["flip", () => controller.flip(!view().flip)],
    ["resign", () => controller.resign()],
    ["offer-draw", () => controller.offerDraw()],
    ["draw-accept", () => {
      dialog("draw-dialog").close();
      controller.endGame(null, "agreed draw");
    }],
    ["draw-decline", () => dialog("draw-dialog").close()],
    ["resign-yes", () => controller.confirmResign()],
    ["resign-no", () => dialog("resign-dialog").close()],
    ["result-close", () => dialog("result-dialog").close()],
    ["rematch", () => controller.rematch()],
    ["promote", () => controller.promoteVariation()],
    ["delete-variation", () => controller.deleteVariation()],
    ["review", () => controller.reviewGame()],
    // The game over: its review from the result dialog, as lichess offers.
    ["result-review", () => {
      dialog("result-dialog").close();
      if (!state.reviewing) controller.reviewGame();
    }],
    ["hint-button", () => controller.showHint()],
    ["review-better", () => {
      const better = button("review-better");
      controller.showBetter(Number(better.dataset.ply), better.dataset.move || "");
    }],
    ["new-game", () => openNewGameDialog()],
    ["nd-cancel", () => dialog("new-dialog").close()],
    ["nd-start", () => controller.startFromDialog()],
    ["engine-move", () => controller.engineMove()],
    ["analyse", () => controller.toggleAnalysis()],
    ["copy-text", () => controller.copyText()],
    ["share", () => controller.copyLink()],
    ["setup", () => controller.setUp()],
    ["save-record", () => controller.saveRecord()],
    ["load-record", () => controller.loadRecord(textarea("record-text").value)],
    // The error box closes with a click on it (or Escape, below).
    ["error", () => showError(null)],
  ];
  for (const [id, action] of clicks) $(id).addEventListener("click", () => action());
  // A move of the list, a line of the analysis: by their data.
  // A point of the review's graph: its column has the ply.
  $("review-graph").addEventListener("click", (event) => {
    const target = event.target instanceof Element ? event.target.closest("[data-ply]") : null;
    if (target instanceof SVGElement) controller.gotoMain(Number(target.dataset.ply));
  });
  $("moves").addEventListener("click", (event) => {
    const target = event.target instanceof Element ? event.target.closest("button[data-node]") : null;
    if (target instanceof HTMLElement) controller.gotoNode(Number(target.dataset.node));
  });
  const line = (/** @type {Event} */ event) => {
    const item = event.target instanceof Element ? event.target.closest("li[data-pv]") : null;
    if (item instanceof HTMLElement) controller.playLine(item.dataset.pv);
  };
  $("an-multi").addEventListener("click", line);
  // A line under the pointer (or focused) is previewed on a small board.
  const preview = (/** @type {Event} */ event) => {
    const item = event.target instanceof Element ? event.target.closest("li[data-pv]") : null;
    if (item instanceof HTMLElement) controller.previewLine(item);
  };
  $("an-multi").addEventListener("mouseover", preview);
  $("an-multi").addEventListener("focusin", preview);
  $("an-multi").addEventListener("mouseleave", () => controller.endPreview());
  $("an-multi").addEventListener("focusout", () => controller.endPreview());
  $("an-multi").addEventListener("keydown", (event) => {
    if (event.key === "Enter" || event.key === " ") {
      event.preventDefault();
      line(event);
    }
  });
  select("nd-game").addEventListener("change", () => {
    $("nd-desc").textContent = presetDescription(select("nd-game").value);
  });
  select("game-select").addEventListener("change", () => controller.newGame({ spec: select("game-select").value }));
  for (const id of ["movetime", "sound", "animate", "nd-clock"]) $(id).addEventListener("change", () => saveSettings());
  $("hints").addEventListener("change", () => {
    saveSettings();
    updateButtons();
  });
  select("level").addEventListener("change", () => {
    controller.showEngineTime();
    saveSettings();
  });
  select("lang").addEventListener("change", () => {
    setLang(select("lang").value === "zh" ? "zh" : "en");
    saveSettings();
    applyLanguage();
  });
  select("mode").addEventListener("change", () => controller.modeChanged());
  select("threads").addEventListener("change", () => {
    controller.backend().setThreads(Number(select("threads").value));
    saveSettings();
    if (state.analysing) controller.startAnalysis();
  });
  select("an-multipv").addEventListener("change", () => {
    if (state.analysing) controller.startAnalysis();
  });
  input("record-file").addEventListener("change", async () => {
    const files = input("record-file").files;
    const file = files && files[0];
    if (!file) return;
    const text = await file.text();
    textarea("record-text").value = text;
    await controller.loadRecord(text);
    input("record-file").value = "";
  });
  document.addEventListener("keydown", (event) => {
    if (event.key === "Escape" && !$("error").hidden) showError(null);
    const target = event.target instanceof Element ? event.target : null;
    if (target && target.closest("input, textarea, select, dialog, #board")) return;
    /** @type {Record<string, string>} */
    const keys = { ArrowLeft: "nav-back", ArrowRight: "nav-forward", Home: "nav-first", End: "nav-last" };
    if (keys[event.key]) {
      event.preventDefault();
      $(keys[event.key]).click();
    }
  });
}

/**
 * The page's test hook, `window.__qiTest`: the browser tests
 * (web-tests/run.mjs) read the state and call the backend through it.
 * Nothing of the page uses it.
 */
function testHook() {
  const hook = {
    state, show, showError, errorText, humanToMove, gameOver, presetDescription,
    get backend() {
      return controller.backend();
    },
  };
  Object.assign(window, { __qiTest: hook });
}

// The engine's threads in the page by default: see docs/web.md "Threads".
const DEFAULT_THREADS = 1;

/** The choice of threads: 1 to the device's cores. */
function fillThreads() {
  const cores = Math.max(1, navigator.hardwareConcurrency || 1);
  for (let n = 1; n <= cores; n++) {
    const option = document.createElement("option");
    option.value = String(n);
    option.textContent = String(n);
    select("threads").append(option);
  }
  select("threads").value = String(Math.min(DEFAULT_THREADS, cores));
}

async function start() {
  setLang(chooseLanguage(readSettings().lang));
  for (const id of ["level", "nd-level"]) {
    for (let n = 1; n <= 10; n++) {
      const option = document.createElement("option");
      option.value = String(n);
      select(id).append(option);
    }
    select(id).value = controller.NEWCOMER_LEVEL;
  }
  fillThreads();
  wire();
  /** @type {Backend} */
  let backend;
  try {
    backend = await backendReady;
  } catch (e) {
    applyLanguage();
    showError(words().engineLoad(errorText(e)));
    $("status").textContent = "–";
    return;
  }
  controller.useBackend(backend);
  document.body.dataset.backend = backend.name;
  restoreSettings();
  $("threads-row").hidden = backend.name !== "local";
  backend.setThreads(Number(select("threads").value));
  controller.showEngineTime();
  applyLanguage();
  try {
    const games = await backend.games();
    state.presets = games.games.flatMap((g) => g.presets);
    fillGameSelects();
    state.ended = readEnded();
    await controller.openGame(games.default);
  } catch (e) {
    showError(words().cannotStart(errorText(e)));
  }
  // The static site works offline: its service worker installs once the
  // board is drawn, so that its copy of every file does not compete with
  // the files the first visit's board waits for.
  if (backend.name === "local") registerWorker();
}

testHook();
start();
