// The page's backend when it runs as a static site (scripts/export-site.sh):
// the game lives in this page (qi-wasm) and in localStorage, so it
// survives reloads and closed tabs; the engine searches in a Web Worker
// (engine-worker.js), so the page never freezes, and a stop ends the
// worker. It answers app.js's requests with the views `qi serve` gives
// (docs/web.md), so the page is the same with either backend.
import init, { Game, games } from "./pkg/qi_wasm.js";

const STORE = "qi-local-game";

const local = {
  game: null,        // the Game
  flip: false,
  search: null,      // { kind: "engine" | "analysis", worker, last, resolve, reject }
  listeners: [],     // the page's "search" event handlers
};

function emit(data) {
  const event = { data: JSON.stringify(data) };
  for (const f of local.listeners) f(event);
}

function view() {
  const v = local.game.view(local.flip);
  v.id = "local";
  v.flip = local.flip;
  v.searching = local.search ? local.search.kind : null;
  return v;
}

// The game as moves from its first position, the cursor and the flip:
// enough to rebuild it exactly (every rule that reads the history
// included).
function save() {
  const v = local.game.view(false);
  const state = { spec: v.spec, start: v.start, moves: v.moves, ply: v.ply, flip: local.flip };
  localStorage.setItem(STORE, JSON.stringify(state));
}

function restore() {
  const text = localStorage.getItem(STORE);
  if (!text) return null;
  try {
    const state = JSON.parse(text);
    const game = new Game(state.spec, state.start);
    for (const move of state.moves) game.play(move);
    game.goto(state.ply);
    local.flip = !!state.flip;
    return game;
  } catch (e) {
    // A saved game this version cannot replay: start afresh rather than
    // fail to load.
    console.warn(`qi: the saved game could not be restored (${e.message})`);
    return null;
  }
}

function stopSearch() {
  const search = local.search;
  if (!search) return null;
  search.worker.terminate();
  local.search = null;
  return search;
}

// Searches the shown position in a new worker; resolves with the result.
function startSearch(kind, limits, multipv = 1, level = undefined) {
  stopSearch();
  const v = local.game.view(false);
  const worker = new Worker(new URL("./engine-worker.js", import.meta.url), { type: "module" });
  const search = { kind, worker, last: null };
  local.search = search;
  const done = new Promise((resolve, reject) => {
    search.resolve = resolve;
    search.reject = reject;
  });
  worker.onmessage = (event) => {
    if (local.search !== search) return;
    const msg = event.data;
    if (msg.type === "info") {
      // The best line's report: with several lines, each iteration
      // reports line 1 first and the others after it.
      if (!msg.info.multipv || msg.info.multipv === 1) search.last = msg.info;
      emit({ type: "info", search: kind, ...msg.info });
    } else if (msg.type === "done") {
      local.search = null;
      worker.terminate();
      emit({ type: "done", search: kind, best: msg.done.best });
      search.resolve(msg.done);
    } else if (msg.type === "error") {
      local.search = null;
      worker.terminate();
      // The package's error, with its kind and fields (docs/wasm.md).
      search.reject(Object.assign(new Error(msg.message), { kind: msg.kind, fields: msg.fields }));
    }
  };
  worker.onerror = (event) => {
    if (local.search !== search) return;
    local.search = null;
    search.reject(new Error(`the engine failed: ${event.message || "worker error"}`));
  };
  emit({ type: "start", search: kind });
  worker.postMessage({ spec: v.spec, start: v.start, moves: v.moves.slice(0, v.ply), limits, multipv, level });
  return done;
}

function body(b) {
  return b || {};
}

// The requests of app.js, by method and path (docs/web.md's API).
async function request(method, path, b) {
  b = body(b);
  if (path === "/api/games") {
    const list = games();
    return { games: list.map((g) => ({ name: g.name, presets: g.specs })), default: list[0].specs[0] };
  }
  const m = path.match(/^\/api\/sessions(?:\/[^/]+)?(\/.*)?$/);
  if (!m) throw new Error(`no such request: ${method} ${path}`);
  const action = m[1] || "";
  if (action === "" && method === "POST") {
    local.game = restore();
    if (!local.game) {
      local.game = new Game(b.spec, b.text || undefined);
      local.flip = !!b.flip;
    }
    save();
    return view();
  }
  if (action === "" && method === "GET") return view();
  const game = local.game;
  switch (action) {
    case "/play":
      if (local.search && local.search.kind === "engine") throw new Error("the engine is thinking");
      stopSearch();
      game.play(b.move);
      break;
    case "/undo": {
      stopSearch();
      const count = b.count || 1;
      if (count > game.ply()) throw new Error(`cannot take back ${count} moves from ply ${game.ply()}`);
      for (let i = 0; i < count; i++) game.undo();
      break;
    }
    case "/goto":
      stopSearch();
      game.goto(b.ply);
      break;
    case "/new": {
      stopSearch();
      const fresh = new Game(b.spec, b.text || undefined);
      local.game = fresh;
      if (b.flip !== undefined) local.flip = !!b.flip;
      break;
    }
    case "/flip":
      local.flip = !!b.flip;
      break;
    case "/record":
      if (method === "GET") return { record: game.record() };
      stopSearch();
      local.game = Game.fromRecord(b.record);
      break;
    case "/engine": {
      const movetime = Math.max(1, Number(b.movetime_ms) || 1000);
      const done = await startSearch("engine", { movetime }, 1, b.level);
      if (!done.best) throw new Error("the engine has no move");
      local.game.play(done.best);
      break;
    }
    case "/analysis/start":
      startSearch("analysis", {}, b.multipv).catch(() => {});
      return view();
    case "/analysis/stop": {
      const stopped = stopSearch();
      if (stopped) {
        const best = stopped.last && stopped.last.pv.length ? stopped.last.pv[0] : null;
        emit({ type: "done", search: stopped.kind, best });
      }
      return view();
    }
    default:
      throw new Error(`no such request: ${method} ${path}`);
  }
  save();
  return view();
}

// What app.js uses in place of fetch and EventSource (it imports this
// module on a static site only).
export const backend = {
  request,
  listen(handler) {
    local.listeners = [handler];
  },
  ready: init(),
};
