// The time of a game review in Node's wasm at the default budget: the
// 100-ply Jungle game of crates/play/examples/review_time.rs (the engine
// against itself at depth 3 a move), reviewed by `review`. Not a test and
// not run in CI (docs/web.md):
//
//   node crates/wasm/js/bench-review.mjs PKG_DIR
import { readFileSync } from "node:fs";
import path from "node:path";

const dir = process.argv[2] ?? "target/qi-wasm-pkg";
const qi = await import(path.resolve(dir, "qi_wasm.js"));
await qi.default({ module_or_path: readFileSync(path.resolve(dir, "qi_wasm_bg.wasm")) });

const game = new qi.Game("jungle");
for (let i = 0; i < 100; i++) {
  const done = game.search({ depth: 3 });
  if (!done.best) break;
  game.play(done.best);
}
const record = game.record("qi serve");
const start = performance.now();
const review = qi.review(record);
const seconds = (performance.now() - start) / 1000;
console.log(
  `${game.moves().length} plies reviewed at ${JSON.stringify(review.budget)}: ${seconds.toFixed(2)} s, ` +
    `${review.nodes} nodes, accuracy ${review.sides[0].accuracy.toFixed(1)} / ${review.sides[1].accuracy.toFixed(1)}`,
);
