// The engine of the static page (local.js): one search per worker, of the
// game it is sent (its first position and the moves to the shown one, so
// the rules that read the history apply). Each iteration is posted as it
// finishes; the page stops a search by ending the worker.
import init, { Game } from "./pkg/qi_wasm.js";

const ready = init();

self.onmessage = async (event) => {
  const { spec, start, moves, limits, multipv, level } = event.data;
  try {
    await ready;
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
    const done = game.search(limits, (info) => {
      self.postMessage({ type: "info", info });
    });
    self.postMessage({ type: "done", done });
  } catch (e) {
    self.postMessage({
      type: "error",
      message: e && e.message ? e.message : String(e),
      kind: e && e.kind,
      fields: e && e.fields,
    });
  }
};
