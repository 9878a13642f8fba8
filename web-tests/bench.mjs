// The wasm engine's speed in headless Chromium and the time to an
// interactive board, as docs/PERFORMANCE.md reports them. Not a test and
// not run in CI: a measurement, to run by hand on a quiet machine against
// a static site (scripts/export-site.sh DIR; python3 -m http.server -d DIR):
//
//   QI_URL=http://127.0.0.1:PORT/ node web-tests/bench.mjs [runs]
//
// It prints what a first visit downloads (bytes as served, and gzip -9 of
// each file, as a compressing host sends them), for three fresh browser
// contexts the time from `goto` to the board drawn and the page ready
// (the page's "qi-ready" mark),
// then a repeat visit's (the files from the service worker's cache),
// then each search `runs` times (3 by
// default) on the page's main thread: nodes, milliseconds and nodes/s;
// then on the engine's 1 and 2 threads (Web Workers splitting the root);
// then a 100-ply game's review at the page's budget, `runs` times.
// Compare with native `qi engine` (`Hash 16`, `Threads 1`, `go depth D`).

import { chromium } from "playwright-core";
import { gzipSync } from "node:zlib";

const BASE = process.env.QI_URL || "http://127.0.0.1:8000/";
const CHROMIUM = process.env.CHROMIUM || "/usr/bin/chromium";
const runs = Number(process.argv[2] || 3);

// The searches of docs/PERFORMANCE.md: game, depth, engine options.
const SEARCHES = [
  ["jungle", 14, {}],
  ["five-tigers", 12, {}],
  ["jungle", 14, { EvalProfile: "nnue" }],
];

const browser = await chromium.launch({
  executablePath: CHROMIUM,
  headless: true,
  args: ["--headless", "--no-sandbox", "--disable-gpu"],
});
// The time from `since` (Date.now() of this process) to the page's
// "qi-ready" mark (controller.js: the board drawn and interactive), on
// the page's clock: Playwright's wait for the selector is polled, and
// under load it notices the page hundreds of milliseconds late.
async function readyAfter(page, since) {
  await page.waitForSelector("body[data-ready='1'] #board svg");
  const ready = await page.evaluate(() => performance.timeOrigin + performance.getEntriesByName("qi-ready")[0].startTime);
  return Math.round(ready - since);
}

for (let i = 0; i < 3; i++) {
  const context = await browser.newContext();
  const page = await context.newPage();
  // What the first visit fetches (the first context's), every file of it.
  const bodies = [];
  if (i === 0) page.on("response", (r) => bodies.push(r.body().catch(() => Buffer.alloc(0))));
  const t0 = Date.now();
  await page.goto(BASE);
  console.log(`interactive board: ${await readyAfter(page, t0)} ms from goto`);
  if (i === 0) {
    // The service worker's precache (every file of the site) counted too.
    await page.waitForFunction(() => navigator.serviceWorker && navigator.serviceWorker.controller !== null, null, { timeout: 30000 });
    const all = await Promise.all(bodies);
    const bytes = all.reduce((n, b) => n + b.length, 0);
    const gzipped = all.reduce((n, b) => n + gzipSync(b, { level: 9 }).length, 0);
    console.log(`first visit: ${all.length} responses, ${bytes} bytes, ${gzipped} bytes gzip -9`);
    // A repeat visit: the page and its files from the service worker.
    for (let j = 0; j < 3; j++) {
      const t1 = Date.now();
      await page.reload();
      console.log(`repeat visit (service worker): ${await readyAfter(page, t1)} ms from reload`);
    }
  }
  await context.close();
}
const context = await browser.newContext();
const page = await context.newPage();
await page.goto(BASE);
await page.waitForSelector("body[data-ready='1']");
for (const [spec, depth, options] of SEARCHES) {
  for (let i = 0; i < runs; i++) {
    const r = await page.evaluate(
      async ([spec, depth, options]) => {
        const qi = await import("./pkg/qi_wasm.js");
        const game = new qi.Game(spec);
        for (const [name, value] of Object.entries(options)) game.setOption(name, value);
        const t = performance.now();
        const done = game.search({ depth });
        const ms = performance.now() - t;
        game.free();
        return { nodes: done.nodes, ms, best: done.best };
      },
      [spec, depth, options],
    );
    const label = `${spec}${options.EvalProfile ? ` (${options.EvalProfile})` : ""} depth ${depth}`;
    console.log(`${label}: ${r.nodes} nodes ${r.ms.toFixed(0)} ms ${Math.round((r.nodes / r.ms) * 1000)} nodes/s best ${r.best}`);
  }
}
// The same searches on the engine's threads as the page runs them
// (backend/split-search.js: one Web Worker per thread, the root moves
// split between them): the time from the start to the depth completed
// (worker start-up included) and the nodes of every worker over it.
for (const [spec, depth, options] of SEARCHES) {
  if (Object.keys(options).length) continue; // the workers search with the default options
  for (const threads of [1, 2]) {
    for (let i = 0; i < runs; i++) {
      const r = await page.evaluate(
        async ([spec, depth, threads]) => {
          const { splitSearch } = await import("./backend/split-search.js");
          const qi = await import("./pkg/qi_wasm.js");
          const v = new qi.Game(spec).view(false);
          const task = { spec: v.spec, start: v.start, moves: [], legal: v.legal, limits: { depth }, multipv: 1 };
          // The module compiled, as the page has it once loaded.
          const module = await WebAssembly.compileStreaming(fetch("./pkg/qi_wasm_bg.wasm"));
          const engine = { url: new URL("./engine-worker.js", location.href), module };
          const t = performance.now();
          const run = splitSearch(task, threads, engine, () => {});
          const done = await run.result;
          return { ms: performance.now() - t, nodes: done.nodes, best: done.best, workers: run.workers };
        },
        [spec, depth, threads],
      );
      console.log(`${spec} depth ${depth} on ${r.workers} thread(s): ${r.nodes} nodes ${r.ms.toFixed(0)} ms ${Math.round((r.nodes / r.ms) * 1000)} nodes/s best ${r.best}`);
    }
  }
}
// A game review at the page's budget, in the engine's worker as the Review
// button runs it: the 100-ply game of crates/wasm/js/bench-review.mjs (the
// engine against itself at depth 3 a move).
for (let i = 0; i < runs; i++) {
  const r = await page.evaluate(async () => {
    const qi = await import("./pkg/qi_wasm.js");
    const { REVIEW_NODES } = await import("./controller.js");
    const game = new qi.Game("jungle");
    for (let ply = 0; ply < 100; ply++) {
      const done = game.search({ depth: 3 });
      if (!done.best) break;
      game.play(done.best);
    }
    const record = game.record("qi");
    game.free();
    const t = performance.now();
    const review = await window.__qiTest.backend.review(record, REVIEW_NODES, () => {}).result;
    return { ms: performance.now() - t, nodes: review.nodes, plies: review.moves.length, budget: REVIEW_NODES };
  });
  console.log(`review of ${r.plies} plies at ${r.budget} nodes a position: ${r.nodes} nodes ${(r.ms / 1000).toFixed(1)} s`);
}
await browser.close();
