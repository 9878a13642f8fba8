// @ts-check
// The engine of the static page on several threads: one Web Worker per
// thread (engine-worker.js), each with its own wasm instance, searching
// its share of the root moves (every n-th legal move, the `searchmoves` of
// its limits); their lines are merged into one search's reports. WebAssembly
// threads over shared memory (Lazy SMP, as `qi engine` does natively)
// need a standard library built with atomics, which the package is not:
// here the workers share nothing, so each searches its moves with its own
// transposition table and bounds (docs/web.md "Threads").
//
// The merged search reports at the depth every worker has completed (a
// worker whose lines are all proven wins or losses stands for any depth):
// each worker's lines there are its best moves' exact scores, so the best
// of them is the whole position's best at that depth.

/** @typedef {import("../state.js").SearchInfo} SearchInfo */

/**
 * The search's result, as qi-wasm's `Game.search` gives it.
 * @typedef {{ best: string | null, lines: { score: string, score_first: number, depth: number, pv: string[] }[],
 *   info: SearchInfo | null, nodes: number, stopped: boolean }} SearchDone
 */

/**
 * What to search: the game to the shown position, its legal moves, the
 * limits, the lines wanted and the level (weaker levels choose among the
 * root moves, so they search on one thread).
 * @typedef {{ spec: string, start: string, moves: string[], legal: string[],
 *   limits: { movetime?: number, depth?: number, nodes?: number }, multipv: number, level?: number }} SearchTask
 */

/**
 * One worker's part: its reports by depth (each depth's lines, best
 * first), its last complete depth, and its end.
 * @typedef {{ worker: Worker, wanted: number, depths: Map<number, SearchInfo[]>, last: number,
 *   done: SearchDone | null }} Part
 */

/**
 * The engine's workers: engine-worker.js's address and the compiled wasm
 * module, which each worker instantiates (a WebAssembly.Module is posted
 * to a worker without its bytes, and nothing is compiled again); without
 * the module a worker fetches and compiles its own.
 * @typedef {{ url: URL, module?: WebAssembly.Module }} Engine
 */

/**
 * A worker of `engine` given its first task (`task` with the module).
 * @param {Engine} engine
 * @param {Record<string, unknown>} task
 */
export function engineWorker(engine, task) {
  const worker = new Worker(engine.url, { type: "module" });
  worker.postMessage({ ...task, module: engine.module });
  return worker;
}

/**
 * A score for comparison, from the side to move's view: a win sooner is
 * better, a loss later is better.
 * @param {string} score "cp N" or "mate N"
 */
export function scoreRank(score) {
  const [kind, value] = score.split(" ");
  const n = Number(value);
  if (kind !== "mate") return n;
  return n > 0 ? 1e9 - n : -1e9 - n;
}

/**
 * Every `count`-th of `moves` from the `part`-th: one worker's root moves.
 * Moves are dealt in turn so that each worker gets some of the moves the
 * game generates first.
 * @param {string[]} moves
 * @param {number} count
 * @param {number} part
 */
export function share(moves, count, part) {
  return moves.filter((_, i) => i % count === part);
}

/**
 * The threads a search of `task` uses: at most `threads`, one per root
 * move at most, and one for a weaker level.
 * @param {SearchTask} task
 * @param {number} threads
 */
export function threadsFor(task, threads) {
  if (task.level && task.level < 10) return 1;
  return Math.max(1, Math.min(threads, task.legal.length));
}

/**
 * The lines of the parts at `depth` merged: the best `wanted`, numbered
 * from 1 when several are wanted.
 * @param {SearchInfo[][]} perPart
 * @param {number} wanted
 * @returns {SearchInfo[]}
 */
export function mergeLines(perPart, wanted) {
  const all = perPart.flat().sort((a, b) => scoreRank(b.score) - scoreRank(a.score));
  return all.slice(0, wanted).map((line, k) => ({ ...line, multipv: wanted > 1 ? k + 1 : undefined }));
}

/**
 * Searches `task` on `threads` workers.
 * @param {SearchTask} task
 * @param {number} threads
 * @param {Engine} engine
 * @param {(info: SearchInfo) => void} onInfo each merged iteration, its lines best first
 * @returns {{ result: Promise<SearchDone>, stop: () => SearchInfo | null, workers: number }}
 *   the result once every worker is done; `stop` ends the workers and
 *   gives the best line merged so far
 */
export function splitSearch(task, threads, engine, onInfo) {
  const count = threadsFor(task, threads);
  const started = performance.now();
  /** @type {Part[]} */
  const parts = [];
  /** @type {SearchInfo | null} */
  let best = null;
  let reported = 0;
  let ended = false;
  /** @type {(done: SearchDone) => void} */
  let resolve = () => {};
  /** @type {(e: Error) => void} */
  let reject = () => {};
  const result = /** @type {Promise<SearchDone>} */ (new Promise((res, rej) => {
    resolve = res;
    reject = rej;
  }));

  const end = () => {
    ended = true;
    for (const part of parts) part.worker.terminate();
  };

  // A finished part whose lines are all proven stands for every depth.
  /** @param {Part} part */
  const final = (part) => !!part.done && part.last > 0 && (part.depths.get(part.last) || []).every((l) => l.score.startsWith("mate"));

  /** The depth every part has, and its lines merged there. */
  const merged = () => {
    const open = parts.filter((p) => !final(p));
    const depth = open.length ? Math.min(...open.map((p) => p.last)) : Math.max(...parts.map((p) => p.last));
    if (depth < 1) return null;
    const lines = mergeLines(parts.map((p) => p.depths.get(Math.min(depth, p.last)) || []), task.multipv);
    if (!lines.length) return null;
    const nodes = parts.reduce((sum, p) => sum + latestNodes(p), 0);
    const time = Math.max(1, Math.round(performance.now() - started));
    return { depth, lines, nodes, time };
  };

  /** @param {Part} part */
  const latestNodes = (part) => {
    if (part.done) return part.done.nodes;
    const lines = part.depths.get(part.last);
    return lines && lines.length ? lines[0].nodes : 0;
  };

  const report = () => {
    const now = merged();
    if (!now || now.depth <= reported) return;
    reported = now.depth;
    for (const line of now.lines) {
      const info = { ...line, depth: now.depth, nodes: now.nodes, nps: Math.round((now.nodes * 1000) / now.time), time_ms: now.time };
      if (!info.multipv || info.multipv === 1) best = info;
      onInfo(info);
    }
  };

  const finish = () => {
    if (!parts.every((p) => p.done)) return;
    end();
    if (count === 1 && parts[0].done) {
      // One thread: its own result (at a weaker level, the level's choice).
      resolve(parts[0].done);
      return;
    }
    report();
    const now = merged();
    const nodes = parts.reduce((sum, p) => sum + (p.done ? p.done.nodes : 0), 0);
    const stopped = parts.some((p) => p.done && p.done.stopped);
    if (!now) {
      // No part completed an iteration: any part's move is legal.
      const found = parts.find((p) => p.done && p.done.best);
      resolve({ best: found && found.done ? found.done.best : null, lines: [], info: null, nodes, stopped });
      return;
    }
    const lines = now.lines.map((l) => ({ score: l.score, score_first: l.score_first, depth: now.depth, pv: l.pv }));
    resolve({ best: now.lines[0].pv[0] || null, lines, info: best, nodes, stopped });
  };

  for (let k = 0; k < count; k++) {
    const searchmoves = count > 1 ? share(task.legal, count, k) : [];
    const limits = searchmoves.length ? { ...task.limits, searchmoves } : task.limits;
    const worker = engineWorker(engine, { spec: task.spec, start: task.start, moves: task.moves, limits, multipv: task.multipv, level: task.level });
    /** @type {Part} */
    const part = { worker, wanted: Math.min(task.multipv, searchmoves.length || task.legal.length || 1), depths: new Map(), last: 0, done: null };
    parts.push(part);
    worker.onmessage = (event) => {
      if (ended) return;
      const msg = event.data;
      if (msg.type === "info") {
        /** @type {SearchInfo} */
        const info = msg.info;
        if (count === 1) {
          if (!info.multipv || info.multipv === 1) best = info;
          onInfo(info);
          return;
        }
        const lines = part.depths.get(info.depth) || [];
        lines.push(info);
        part.depths.set(info.depth, lines);
        // An iteration's lines come together, the best first.
        if (lines.length === part.wanted) {
          part.last = info.depth;
          report();
        }
      } else if (msg.type === "done") {
        part.done = msg.done;
        finish();
      } else if (msg.type === "error") {
        end();
        // The package's error, with its kind and fields (docs/wasm.md).
        reject(Object.assign(new Error(msg.message), { kind: msg.kind, fields: msg.fields }));
      }
    };
    worker.onerror = (event) => {
      if (ended) return;
      end();
      const reason = event.message || "worker error";
      reject(Object.assign(new Error(`the engine failed: ${reason}`), { kind: "engine-failed", fields: { reason } }));
    };
  }

  return {
    result,
    workers: count,
    stop() {
      end();
      return best;
    },
  };
}
