// @ts-check
// The backend of the static site (scripts/export-site.sh): the game lives
// in this page (qi-wasm) and in localStorage, so it survives reloads and
// closed tabs; the engine searches in a Web Worker (engine-worker.js), so
// the page never freezes, and a stop ends the worker. It gives the views
// and events `qi serve` gives (docs/web.md), so the page is the same with
// either backend.
import init, { Game, games } from "../pkg/qi_wasm.js";
import { KeptClock } from "./kept-clock.js";
import { engineWorker, splitSearch } from "./split-search.js";

/** @typedef {import("./backend.js").Backend} Backend */
/** @typedef {import("../state.js").View} View */
/** @typedef {import("../state.js").SearchEvent} SearchEvent */
/** @typedef {import("../state.js").SearchInfo} SearchInfo */
/** @typedef {"engine" | "analysis"} SearchKind */
/**
 * A search that runs: its kind, and its stop (which gives the best line
 * so far).
 * @typedef {{ kind: SearchKind, stop: () => SearchInfo | null }} Search
 */

const STORE = "qi-local-game";

/**
 * A refusal of this backend, with its kind and fields as the library's
 * errors have them, so that the page translates it by kind (errors.js).
 * @param {string} kind
 * @param {Record<string, unknown>} fields
 * @param {string} message
 */
function refusal(kind, fields, message) {
  return Object.assign(new Error(message), { kind, fields });
}

/**
 * A record with the clock's time control in its `TimeControl` tag (after
 * the other tags, as docs/records.md has it), as `qi serve` writes it.
 * @param {string} record
 * @param {string} control
 */
function withTimeControl(record, control) {
  const end = record.indexOf("\n\n");
  if (end < 0) return record;
  return `${record.slice(0, end)}\n[TimeControl "${control}"]${record.slice(end)}`;
}

/**
 * The backend, on the engine's compiled wasm module (boot.js compiles it
 * while the page loads).
 * @param {WebAssembly.Module} module
 * @returns {Promise<Backend>}
 */
export async function localBackend(module) {
  await init({ module_or_path: module });
  // The engine's workers instantiate the same module (split-search.js).
  const engine = { url: new URL("../engine-worker.js", import.meta.url), module };
  /** @type {Game | null} */
  let game = null;
  let flipped = false;
  /** @type {KeptClock | null} the game's clock, saved with it */
  let clock = null;
  /** @type {Search | null} */
  let search = null;
  /** @type {(event: SearchEvent) => void} */
  let listener = () => {};
  // The engine's threads: Web Workers that split the root moves
  // (split-search.js).
  let threads = 1;

  const current = () => {
    if (!game) throw new Error("no game");
    return game;
  };

  /** @returns {View} */
  const view = () => {
    const v = current().view(flipped);
    v.id = "local";
    v.flip = flipped;
    v.searching = search ? search.kind : null;
    v.clock = clock ? clock.view() : null;
    return v;
  };

  // The game as its record (the tree of moves: the main line and its
  // variations), the moves to the shown position and the flip: enough to
  // rebuild it exactly (every rule that reads the history included).
  const save = () => {
    const g = current();
    const v = g.view(false);
    localStorage.setItem(STORE, JSON.stringify({
      spec: v.spec, start: v.start, moves: v.moves, ply: v.ply, record: g.record(undefined), flip: flipped, clock: clock ? clock.log : null,
    }));
  };

  /** @returns {Game | null} */
  const restore = () => {
    const text = localStorage.getItem(STORE);
    if (!text) return null;
    try {
      const saved = JSON.parse(text);
      /** @type {Game} */
      let restored;
      if (typeof saved.record === "string") {
        restored = Game.fromRecord(saved.record);
        restored.gotoLine(saved.moves.slice(0, saved.ply));
      } else {
        // Saved before the tree: one line.
        restored = new Game(saved.spec, saved.start);
        for (const move of saved.moves) restored.play(move);
        restored.goto(saved.ply);
      }
      flipped = !!saved.flip;
      clock = restoreClock(saved.clock);
      return restored;
    } catch (e) {
      // A saved game this version cannot replay: start afresh rather than
      // fail to load.
      console.warn(`qi: the saved game could not be restored (${e instanceof Error ? e.message : e})`);
      return null;
    }
  };

  /**
   * The saved clock, replayed; none when it cannot be (a game is still
   * better than no game).
   * @param {import("./kept-clock.js").ClockLog | null | undefined} log
   * @returns {KeptClock | null}
   */
  const restoreClock = (log) => {
    if (!log) return null;
    try {
      return new KeptClock(log.control, log.events);
    } catch (e) {
      console.warn(`qi: the saved clock could not be restored (${e instanceof Error ? e.message : e})`);
      return null;
    }
  };

  const stopSearch = () => {
    const stopped = search;
    if (!stopped) return null;
    search = null;
    return { kind: stopped.kind, last: stopped.stop() };
  };

  /**
   * Searches the shown position on the engine's threads; resolves with
   * the result.
   * @param {SearchKind} kind
   * @param {{ movetime?: number }} limits
   * @param {number} [multipv]
   * @param {number} [level]
   * @returns {Promise<{ best: string | null }>}
   */
  const startSearch = async (kind, limits, multipv = 1, level = undefined) => {
    stopSearch();
    const v = current().view(false);
    const task = { spec: v.spec, start: v.start, moves: v.moves.slice(0, v.ply), legal: v.legal, limits, multipv, level };
    const running = splitSearch(task, threads, engine, (info) => {
      if (search === mine) listener({ type: "info", search: kind, ...info });
    });
    /** @type {Search} */
    const mine = { kind, stop: running.stop };
    search = mine;
    listener({ type: "start", search: kind });
    try {
      const done = await running.result;
      if (search === mine) {
        search = null;
        listener({ type: "done", search: kind, best: done.best });
      }
      return done;
    } catch (e) {
      if (search === mine) search = null;
      throw e;
    }
  };

  /**
   * Plays a move on the clock, as `qi serve` does: the side to move's
   * time runs (handed to it after a takeback; refused once a flag fell
   * or while paused), the move presses the clock, and the game's end
   * stops it.
   * @param {string} move
   */
  const playOnClock = (move) => {
    const g = current();
    if (clock) clock.start(g.view(false).to_move);
    g.play(move);
    if (clock) {
      clock.act("press");
      if (g.view(false).result) clock.act("stop");
    }
  };

  /**
   * A change of the game, saved, answered with the new view.
   * @param {() => void} change
   */
  const change = async (change) => {
    change();
    save();
    return view();
  };

  return {
    name: "local",
    async games() {
      /** @type {{ name: string, specs: string[] }[]} */
      const list = games();
      return { games: list.map((g) => ({ name: g.name, presets: g.specs })), default: list[0].specs[0] };
    },
    async open(spec, flip) {
      game = restore();
      if (!game) {
        game = new Game(spec, undefined);
        flipped = flip;
        clock = null;
      }
      save();
      return { view: view(), lost: false };
    },
    view: async () => view(),
    play: (move) => change(() => {
      if (search && search.kind === "engine") throw refusal("engine-thinking", {}, "the engine is thinking: wait for its move");
      stopSearch();
      playOnClock(move);
    }),
    undo: (count) => change(() => {
      stopSearch();
      const g = current();
      const ply = g.ply();
      if (count > ply) throw refusal("undo-count", { count, ply }, `cannot take back ${count} moves: the shown position is after ${ply}`);
      for (let i = 0; i < count; i++) g.undo();
    }),
    goto: (ply) => change(() => {
      stopSearch();
      current().goto(ply);
    }),
    gotoLine: (moves) => change(() => {
      stopSearch();
      current().gotoLine(moves);
    }),
    promote: () => change(() => {
      current().promote();
    }),
    preview: async (moves) => current().preview(moves, flipped),
    newGame: ({ spec, text, flip }) => change(() => {
      stopSearch();
      game = new Game(spec, text || undefined);
      clock = null;
      if (flip !== undefined) flipped = !!flip;
    }),
    flip: (flip) => change(() => {
      flipped = flip;
    }),
    record: async () => {
      const record = current().record(undefined);
      return clock ? withTimeControl(record, clock.timeControl) : record;
    },
    loadRecord: (record) => change(() => {
      stopSearch();
      game = Game.fromRecord(record);
      clock = null;
    }),
    async engineMove({ movetime_ms, level }) {
      const movetime = Math.max(1, Number(movetime_ms) || 1000);
      const done = await startSearch("engine", { movetime }, 1, level);
      if (!done.best) throw refusal("engine-no-move", {}, "the engine has no move");
      const best = done.best;
      return change(() => playOnClock(best));
    },
    async startAnalysis(multipv, movetime_ms) {
      startSearch("analysis", movetime_ms ? { movetime: movetime_ms } : {}, multipv).catch(() => {});
      return view();
    },
    async stopAnalysis() {
      const stopped = stopSearch();
      if (stopped) {
        const best = stopped.last && stopped.last.pv.length ? stopped.last.pv[0] : null;
        listener({ type: "done", search: stopped.kind, best });
      }
      return view();
    },
    async setClock(control) {
      if (!control) {
        clock = null;
        save();
        return view();
      }
      const made = new KeptClock(control);
      const v = current().view(false);
      if (!v.result) made.start(v.to_move);
      clock = made;
      save();
      return view();
    },
    async pauseClock() {
      if (clock) {
        const shown = clock.view();
        if (shown.running && !shown.paused && !shown.flagged) clock.act("pause");
        save();
      }
      return view();
    },
    review(record, nodes, onProgress) {
      const worker = engineWorker(engine, { review: record, budget: { nodes } });
      /** @type {(e: Error) => void} */
      let fail = () => {};
      const result = new Promise((resolve, reject) => {
        fail = reject;
        worker.onmessage = (event) => {
          const msg = event.data;
          if (msg.type === "progress") {
            onProgress(msg.done, msg.total);
          } else if (msg.type === "reviewed") {
            worker.terminate();
            resolve(msg.review);
          } else if (msg.type === "error") {
            worker.terminate();
            reject(Object.assign(new Error(msg.message), { kind: msg.kind, fields: msg.fields }));
          }
        };
        worker.onerror = (event) => {
          worker.terminate();
          const reason = event.message || "worker error";
          reject(refusal("engine-failed", { reason }, `the engine failed: ${reason}`));
        };
      });
      return {
        result,
        cancel() {
          worker.terminate();
          fail(refusal("review.cancelled", {}, "the review was cancelled"));
        },
      };
    },
    listen(onEvent) {
      listener = onEvent;
    },
    setThreads(count) {
      threads = Math.max(1, Math.floor(count) || 1);
    },
  };
}
