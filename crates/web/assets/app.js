// qi web app: the page of `qi serve`. Plain JavaScript, no libraries; it
// talks to the JSON API of docs/web.md and listens to the session's
// server-sent events for the engine's live output. As a static site
// (scripts/export-site.sh, <html data-backend="local">), local.js answers
// the same requests with the game and engine in the page.
"use strict";

const $ = (id) => document.getElementById(id);

const app = {
  id: null,          // the session id
  view: null,        // the last game view from the server
  selected: null,    // the square of the piece about to move
  busy: false,       // a request that changes the game is in flight
  analysing: false,  // an analysis runs
  thinking: false,   // the engine is choosing its move
  events: null,      // the EventSource
  downSq: null,      // the square a pointer went down on
  searchNote: "idle", // how the last search ended
  local: null,       // local.js's backend, on a static site
};

// Where the mode and engine time are kept, so a reload keeps them.
const SETTINGS = "qi-settings";

// local.js, once its module has run (module scripts run after this one).
function localBackend() {
  if (document.documentElement.dataset.backend !== "local") return Promise.resolve(null);
  if (window.qiLocal) return Promise.resolve(window.qiLocal);
  return new Promise((resolve) => {
    window.addEventListener("qi-local", () => resolve(window.qiLocal), { once: true });
  });
}

// ---- the API ---------------------------------------------------------------

async function api(method, path, body) {
  if (app.local) return app.local.request(method, path, body);
  const init = { method, headers: {} };
  if (body !== undefined) {
    init.headers["content-type"] = "application/json";
    init.body = JSON.stringify(body);
  }
  const response = await fetch(path, init);
  let data = null;
  try {
    data = await response.json();
  } catch (e) {
    data = null;
  }
  if (!response.ok) {
    const message = data && data.error ? data.error : `${response.status} ${response.statusText}`;
    throw new Error(message);
  }
  return data;
}

function sessionPath(suffix) {
  return `/api/sessions/${app.id}${suffix || ""}`;
}

function showError(message) {
  const box = $("error");
  if (!message) {
    box.hidden = true;
    box.textContent = "";
    return;
  }
  box.hidden = false;
  box.textContent = message;
}

// Runs a request that returns a view, shows it, and reports errors.
async function act(method, suffix, body) {
  showError(null);
  try {
    const view = await api(method, sessionPath(suffix), body);
    show(view);
    return view;
  } catch (e) {
    showError(e.message);
    return null;
  }
}

// ---- moves -----------------------------------------------------------------

// The squares of a move: a3a4 -> [a3, a4]; c3-c4 -> [c3, c4]; xb2 -> [b2].
function squaresOf(move) {
  return move.replace(/^x/, "").match(/[a-w][0-9]+/g) || [];
}

function isSingle(move) {
  return squaresOf(move).length === 1;
}

function humanToMove() {
  const view = app.view;
  if (!view || view.result || app.thinking) return false;
  const mode = $("mode").value;
  return mode === "human" || mode === view.to_move;
}

function movesFrom(sq) {
  return app.view.legal.filter((m) => !isSingle(m) && squaresOf(m)[0] === sq);
}

function clickSquare(sq) {
  if (!humanToMove() || app.busy) return;
  const legal = app.view.legal;
  if (app.selected) {
    const move = legal.find((m) => {
      const s = squaresOf(m);
      return s.length === 2 && s[0] === app.selected && s[1] === sq;
    });
    if (move) {
      app.selected = null;
      playMove(move);
      return;
    }
  }
  const single = legal.find((m) => isSingle(m) && squaresOf(m)[0] === sq);
  if (single) {
    app.selected = null;
    playMove(single);
    return;
  }
  app.selected = movesFrom(sq).length > 0 && app.selected !== sq ? sq : null;
  drawMarks();
}

async function playMove(move) {
  app.busy = true;
  const view = await act("POST", "/play", { move });
  app.busy = false;
  if (view) maybeEngineMove();
}

// The engine plays when it is its turn at the end of the line.
async function maybeEngineMove() {
  const view = app.view;
  if (!view || view.result || app.thinking) return;
  const mode = $("mode").value;
  if (mode === "human" || mode === view.to_move) return;
  if (view.ply !== view.moves.length) return;
  await engineMove();
}

async function engineMove() {
  if (app.thinking || !app.view || app.view.result) return;
  app.thinking = true;
  updateButtons();
  $("status").textContent = `${app.view.to_move_name} (engine) is thinking…`;
  const movetime_ms = Number($("movetime").value);
  const view = await act("POST", "/engine", { movetime_ms });
  app.thinking = false;
  updateButtons();
  if (!view && app.view) show(app.view);
  // In a game against the engine, play on if it is still its turn (a
  // Five Tigers side with several removals moves several times running).
  if (view) maybeEngineMove();
}

// ---- drawing ---------------------------------------------------------------

// The analysis panel empty: what it showed was about another position.
function clearAnalysis() {
  for (const id of ["an-depth", "an-score", "an-nodes", "an-nps", "an-pv"]) $(id).textContent = "–";
  $("an-lines").innerHTML = "";
  $("an-multi").innerHTML = "";
  app.searchNote = "idle";
}

function show(view) {
  const before = app.view;
  if (before && (before.text !== view.text || before.spec !== view.spec || before.ply !== view.ply)) clearAnalysis();
  app.view = view;
  app.analysing = view.searching === "analysis";
  if (app.selected && movesFrom(app.selected).length === 0) app.selected = null;
  $("board").innerHTML = view.svg;
  const status = $("status");
  status.textContent = view.status;
  status.classList.toggle("over", !!view.result);
  const removal = $("removal");
  if (view.removal) {
    removal.hidden = false;
    const r = view.removal;
    removal.textContent = r.chooser === r.side
      ? `Removal: ${r.side} takes ${r.count} more piece${r.count === 1 ? "" : "s"} — click a piece of ${otherName(r.side)}.`
      : `Removal: ${r.chooser} has no loose piece and gives up one of its own (${r.side} is owed ${r.count}).`;
  } else if (view.hands && view.phase === "place") {
    removal.hidden = false;
    removal.textContent = `In hand: ${view.side_names[0]} ${view.hands[0]}, ${view.side_names[1]} ${view.hands[1]}`;
  } else {
    removal.hidden = true;
  }
  $("position-text").value = view.text;
  const select = $("game-select");
  if ([...select.options].some((o) => o.value === view.spec)) {
    select.value = view.spec;
    $("custom-spec").value = "";
  } else if (document.activeElement !== $("custom-spec")) {
    $("custom-spec").value = view.spec;
  }
  drawMoves();
  drawMarks();
  updateButtons();
  document.body.dataset.game = view.game;
}

function otherName(name) {
  const names = app.view.side_names;
  return names[0] === name ? names[1] : names[0];
}

function drawMoves() {
  const list = $("moves");
  list.innerHTML = "";
  const view = app.view;
  view.moves.forEach((move, i) => {
    const item = document.createElement("li");
    const num = document.createElement("span");
    num.className = "num";
    num.textContent = `${i + 1}.`;
    const button = document.createElement("button");
    button.type = "button";
    button.textContent = move;
    button.dataset.ply = String(i + 1);
    if (i + 1 === view.ply) button.classList.add("current");
    button.addEventListener("click", () => goto(i + 1));
    item.append(num, button);
    list.append(item);
  });
  const current = list.querySelector(".current");
  if (current) current.scrollIntoView({ block: "nearest" });
}

// The centre of a square on the board picture.
function centreOf(svg, sq) {
  const cell = svg.querySelector(`.sq[data-sq="${sq}"]`);
  if (!cell) return null;
  if (cell.tagName === "circle") {
    return [Number(cell.getAttribute("cx")), Number(cell.getAttribute("cy"))];
  }
  return [
    Number(cell.getAttribute("x")) + Number(cell.getAttribute("width")) / 2,
    Number(cell.getAttribute("y")) + Number(cell.getAttribute("height")) / 2,
  ];
}

function mark(svg, sq, cls, r, attrs) {
  const centre = centreOf(svg, sq);
  if (!centre) return;
  const circle = document.createElementNS(svg.namespaceURI, "circle");
  circle.setAttribute("class", `overlay ${cls}`);
  circle.setAttribute("cx", centre[0]);
  circle.setAttribute("cy", centre[1]);
  circle.setAttribute("r", r);
  circle.setAttribute("pointer-events", "none");
  circle.dataset.sq = sq;
  for (const [k, v] of Object.entries(attrs)) circle.setAttribute(k, v);
  svg.append(circle);
}

// The selection and its legal destinations, drawn over the pieces.
function drawMarks() {
  const svg = $("board").querySelector("svg");
  if (!svg) return;
  svg.querySelectorAll(".overlay").forEach((n) => n.remove());
  if (!app.selected) return;
  mark(svg, app.selected, "selected", 29, { fill: "none", stroke: "#00897b", "stroke-width": 4 });
  for (const move of movesFrom(app.selected)) {
    mark(svg, squaresOf(move)[1], "target", 9, { fill: "#00897b", "fill-opacity": 0.75 });
  }
}

function updateButtons() {
  const view = app.view;
  const idle = !app.thinking;
  $("nav-first").disabled = !view || view.ply === 0 || !idle;
  $("nav-back").disabled = !view || view.ply === 0 || !idle;
  $("nav-forward").disabled = !view || view.ply >= view.moves.length || !idle;
  $("nav-last").disabled = !view || view.ply >= view.moves.length || !idle;
  $("undo").disabled = !view || view.ply === 0 || !idle;
  $("engine-move").disabled = !view || !!view.result || !idle;
  $("analyse").disabled = !view || (!app.analysing && (!!view.result || !idle));
  $("analyse").textContent = app.analysing ? "Stop" : "Analyse";
  $("an-state").textContent = app.analysing ? "analysing…" : app.thinking ? "engine thinking…" : app.searchNote;
}

// ---- the engine's live output ----------------------------------------------

function formatScore(info) {
  if (info.score.startsWith("mate")) {
    const n = Number(info.score.split(" ")[1]);
    const firstWins = app.view && app.view.to_move === "first" ? n > 0 : n < 0;
    return `${app.view ? app.view.side_names[firstWins ? 0 : 1] : ""} mates in ${Math.abs(n)}`;
  }
  const pawns = info.score_first / 100;
  return `${pawns >= 0 ? "+" : ""}${pawns.toFixed(2)}`;
}

// Line K of a search of several lines, in place K of the list: each
// iteration rewrites the lines in place (the list never empties while the
// search runs, so it does not flicker).
function showLine(data) {
  const list = $("an-multi");
  while (list.children.length < data.multipv) list.appendChild(document.createElement("li"));
  list.children[data.multipv - 1].textContent = `${formatScore(data)} ${data.pv.slice(0, 8).join(" ")}`;
}

function onSearchEvent(event) {
  let data;
  try {
    data = JSON.parse(event.data);
  } catch (e) {
    return;
  }
  if (data.type === "start") {
    $("an-lines").innerHTML = "";
    $("an-multi").innerHTML = "";
    app.searchNote = "idle";
  } else if (data.type === "info" && data.multipv > 1) {
    // Line K of several (MultiPV): its place in the list of best moves.
    showLine(data);
  } else if (data.type === "info") {
    if (data.multipv === 1) showLine(data);
    $("an-depth").textContent = String(data.depth);
    $("an-score").textContent = formatScore(data);
    $("an-nodes").textContent = data.nodes.toLocaleString("en");
    $("an-nps").textContent = data.nps.toLocaleString("en");
    $("an-pv").textContent = data.pv.join(" ") || "–";
    const line = document.createElement("li");
    line.textContent = `d${data.depth} ${formatScore(data)} ${data.pv.slice(0, 8).join(" ")}`;
    $("an-lines").prepend(line);
  } else if (data.type === "done") {
    if (data.search === "analysis") {
      app.analysing = false;
      app.searchNote = data.best ? `stopped (best ${data.best})` : "stopped";
      updateButtons();
    }
  }
}

function listen() {
  if (app.local) {
    app.local.listen(onSearchEvent);
    return;
  }
  if (app.events) app.events.close();
  app.events = new EventSource(sessionPath("/events"));
  app.events.addEventListener("search", onSearchEvent);
}

// ---- commands --------------------------------------------------------------

async function goto(ply) {
  if (app.thinking) return;
  app.selected = null;
  await act("POST", "/goto", { ply });
}

async function newGame(body) {
  if (app.thinking) return;
  app.selected = null;
  const view = await act("POST", "/new", body);
  if (view) maybeEngineMove();
}

function chosenSpec() {
  const custom = $("custom-spec").value.trim();
  return custom || $("game-select").value;
}

async function toggleAnalysis() {
  if (app.analysing) {
    await act("POST", "/analysis/stop");
    app.analysing = false;
    updateButtons();
    return;
  }
  showError(null);
  try {
    const multipv = Number($("an-multipv").value) || 1;
    const view = await api("POST", sessionPath("/analysis/start"), { multipv });
    show(view);
  } catch (e) {
    showError(e.message);
  }
}

async function copyText() {
  const text = $("position-text").value;
  try {
    await navigator.clipboard.writeText(text);
    flash("copy-text", "Copied");
  } catch (e) {
    $("position-text").select();
    flash("copy-text", "Select + copy");
  }
}

function flash(id, text) {
  const button = $(id);
  const old = button.dataset.label || button.textContent;
  button.dataset.label = old;
  button.textContent = text;
  setTimeout(() => { button.textContent = old; }, 1200);
}

async function saveRecord() {
  showError(null);
  try {
    const data = await api("GET", sessionPath("/record"));
    $("record-text").value = data.record;
    const blob = new Blob([data.record], { type: "text/plain" });
    const link = document.createElement("a");
    link.href = URL.createObjectURL(blob);
    link.download = `${app.view.game}-${new Date().toISOString().slice(0, 10)}.pgn`;
    document.body.append(link);
    link.click();
    link.remove();
    setTimeout(() => URL.revokeObjectURL(link.href), 1000);
  } catch (e) {
    showError(e.message);
  }
}

async function loadRecord(text) {
  if (app.thinking) return;
  app.selected = null;
  const view = await act("POST", "/record", { record: text });
  if (view) $("mode").value = "human";
}

function saveSettings() {
  const settings = { mode: $("mode").value, movetime: $("movetime").value };
  localStorage.setItem(SETTINGS, JSON.stringify(settings));
}

function restoreSettings() {
  try {
    const settings = JSON.parse(localStorage.getItem(SETTINGS) || "{}");
    for (const id of ["mode", "movetime"]) {
      const select = $(id);
      if ([...select.options].some((o) => o.value === settings[id])) select.value = settings[id];
    }
  } catch (e) {
    // Unreadable settings: the defaults of the page.
  }
}

async function start() {
  try {
    app.local = await localBackend();
    if (app.local) await app.local.ready;
    restoreSettings();
    const games = await api("GET", "/api/games");
    const select = $("game-select");
    for (const game of games.games) {
      for (const spec of game.presets) {
        const option = document.createElement("option");
        option.value = spec;
        option.textContent = spec;
        select.append(option);
      }
    }
    select.value = games.default;
    let view = null;
    const saved = sessionStorage.getItem("qi-session");
    if (saved) {
      try {
        view = await api("GET", `/api/sessions/${saved}`);
      } catch (e) {
        view = null;
      }
    }
    if (!view) view = await api("POST", "/api/sessions", { spec: select.value });
    app.id = view.id;
    sessionStorage.setItem("qi-session", app.id);
    select.value = view.spec;
    listen();
    show(view);
    document.body.dataset.ready = "1";
    // On a static site a reload while the engine was to move (or was
    // thinking: the page's worker died with it) lets it move.
    if (app.local) maybeEngineMove();
  } catch (e) {
    showError(`cannot start: ${e.message}`);
  }
}

// ---- wiring ----------------------------------------------------------------

function squareAt(event) {
  const target = document.elementFromPoint(event.clientX, event.clientY);
  const node = target && target.closest ? target.closest("[data-sq]") : null;
  return node && $("board").contains(node) ? node.dataset.sq : null;
}

$("board").addEventListener("pointerdown", (event) => {
  app.downSq = squareAt(event);
  if (app.downSq && humanToMove() && movesFrom(app.downSq).length > 0 && app.selected !== app.downSq) {
    // Select at once, so a drag shows the destinations.
    app.selected = app.downSq;
    app.dragSelected = true;
    drawMarks();
  } else {
    app.dragSelected = false;
  }
  event.preventDefault();
});

$("board").addEventListener("pointerup", (event) => {
  const sq = squareAt(event);
  const down = app.downSq;
  app.downSq = null;
  if (!sq) return;
  if (sq === down) {
    if (app.dragSelected) {
      app.dragSelected = false;
      return; // selected on pointerdown
    }
    clickSquare(sq);
  } else if (down && app.selected === down) {
    clickSquare(sq); // a drag from the selected piece
  }
});

$("nav-first").addEventListener("click", () => goto(0));
$("nav-back").addEventListener("click", () => goto(Math.max(0, app.view.ply - 1)));
$("nav-forward").addEventListener("click", () => goto(Math.min(app.view.moves.length, app.view.ply + 1)));
$("nav-last").addEventListener("click", () => goto(app.view.moves.length));
$("undo").addEventListener("click", async () => {
  if (app.thinking) return;
  app.selected = null;
  // Against the engine, take back the engine's reply too.
  const mode = $("mode").value;
  const view = app.view;
  const count = mode !== "human" && view.to_move === mode && view.ply >= 2 ? 2 : 1;
  await act("POST", "/undo", { count });
});
$("flip").addEventListener("click", () => act("POST", "/flip", { flip: !app.view.flip }));
$("new-game").addEventListener("click", () => newGame({ spec: chosenSpec() }));
$("game-select").addEventListener("change", () => {
  $("custom-spec").value = "";
  newGame({ spec: chosenSpec() });
});
$("movetime").addEventListener("change", () => saveSettings());
$("mode").addEventListener("change", () => {
  saveSettings();
  const mode = $("mode").value;
  if (mode !== "human") act("POST", "/flip", { flip: mode === "second" }).then(() => maybeEngineMove());
});
$("engine-move").addEventListener("click", () => engineMove());
$("analyse").addEventListener("click", () => toggleAnalysis());
$("copy-text").addEventListener("click", () => copyText());
$("setup").addEventListener("click", () => {
  const text = $("setup-text").value.trim();
  if (!text) {
    showError("paste a position text first");
    return;
  }
  newGame({ spec: app.view ? app.view.spec : chosenSpec(), text });
});
$("save-record").addEventListener("click", () => saveRecord());
$("load-record").addEventListener("click", () => loadRecord($("record-text").value));
$("record-file").addEventListener("change", async (event) => {
  const file = event.target.files[0];
  if (!file) return;
  const text = await file.text();
  $("record-text").value = text;
  await loadRecord(text);
  event.target.value = "";
});
document.addEventListener("keydown", (event) => {
  if (event.target.closest("input, textarea, select")) return;
  if (event.key === "ArrowLeft") $("nav-back").click();
  if (event.key === "ArrowRight") $("nav-forward").click();
});

start();
