// @ts-check
// The engine of the static page (backend/local.js): one search per worker, of the
// game it is sent (its first position and the moves to the shown one, so
// the rules that read the history apply), or one game review (a record
// and a budget: each position's progress posted). Each iteration is
// posted as it finishes; the page stops a search or a review by ending
// the worker. The task carries the page's compiled wasm module
// (split-search.js's `engineWorker`), which the worker instantiates
// rather than fetch and compile it again.
import init, { Game, review } from "./pkg/qi_wasm.js";

/** @type {Promise<unknown> | null} */
let ready = null;

self.onmessage = async (event) => {
  const { spec, start, moves, limits, multipv, level, module } = event.data;
  try {
    ready = ready || init(module ? { module_or_path: module } : undefined);
    await ready;
    if (event.data.review) {
      const done = review(event.data.review, event.data.budget, (/** @type {number} */ positions, /** @type {number} */ total) => {
        self.postMessage({ type: "progress", done: positions, total });
      }, undefined);
      self.postMessage({ type: "reviewed", review: done });
      return;
    }
    const game = new Game(spec, start);
    for (const move of moves) game.play(move);
    if (multipv > 1) game.setMultiPV(multipv);
    // Levels 1 to 9 play weaker; 10 (or none) is the full engine. A weak
    // level chooses with a random sequence, which WebAssembly cannot seed
    // by itself (it has no entropy, and each search is a fresh worker):
    // without this every game at a level would be the same game.
    if (level) {
      game.setLevel(level);
      const [high, low] = crypto.getRandomValues(new Uint32Array(2));
      game.setOption("Seed", String((BigInt(high) << 32n) | BigInt(low)));
    }
    const done = game.search(limits, (/** @type {unknown} */ info) => {
      self.postMessage({ type: "info", info });
    }, undefined);
    self.postMessage({ type: "done", done });
  } catch (thrown) {
    // The package's errors carry their kind and fields (docs/wasm.md).
    const e = /** @type {{ message?: string, kind?: string, fields?: unknown }} */ (thrown || {});
    self.postMessage({
      type: "error",
      message: e.message ? e.message : String(thrown),
      kind: e.kind,
      fields: e.fields,
    });
  }
};
