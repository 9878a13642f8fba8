// The wasm engine's speed in Node by the process's CPU time rather than
// the wall clock: on a machine shared with other work, CPU time moves far
// less with the load, so two builds of the package can be compared while
// others run. Not a test and not run in CI (docs/PERFORMANCE.md):
//
//   node crates/wasm/js/bench-cpu.mjs PKG_DIR [PKG_DIR...] [--runs N]
//
// Each package is loaded in turn and each search of web-tests/bench.mjs
// run N times (5 by default), alternating packages each round; it prints
// the best CPU-time nodes/s of each search and package.
import { readFileSync } from "node:fs";
import path from "node:path";

const args = process.argv.slice(2);
const runsAt = args.indexOf("--runs");
const runs = runsAt >= 0 ? Number(args.splice(runsAt, 2)[1]) : 5;
const SEARCHES = [
  ["jungle", 14, {}],
  ["five-tigers", 12, {}],
  ["jungle", 14, { EvalProfile: "nnue" }],
];

const packages = [];
for (const dir of args) {
  const qi = await import(path.resolve(dir, "qi_wasm.js"));
  // Each package's own instance: its glue keeps the module in its scope.
  await qi.default({ module_or_path: readFileSync(path.resolve(dir, "qi_wasm_bg.wasm")) });
  packages.push({ dir, qi, best: SEARCHES.map(() => 0) });
}

function cpuMs() {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
}

for (let round = 0; round < runs; round++) {
  for (const p of packages) {
    SEARCHES.forEach(([spec, depth, options], i) => {
      const game = new p.qi.Game(spec);
      for (const [name, value] of Object.entries(options)) game.setOption(name, value);
      const t = cpuMs();
      const done = game.search({ depth });
      const ms = cpuMs() - t;
      game.free();
      p.best[i] = Math.max(p.best[i], (done.nodes / ms) * 1000);
    });
  }
}
for (const p of packages) {
  const speeds = SEARCHES.map(([spec, depth, options], i) =>
    `${spec}${options.EvalProfile ? ` (${options.EvalProfile})` : ""} d${depth} ${Math.round(p.best[i])}`);
  console.log(`${p.dir}: ${speeds.join(", ")} nodes/s (best CPU time of ${runs})`);
}
