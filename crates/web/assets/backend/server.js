// @ts-check
// The backend of `qi serve`: its JSON API (docs/web.md), one session per
// tab (its id kept in sessionStorage, so a reload finds the game), and the
// session's server-sent events for the engine's live output.

/** @typedef {import("./backend.js").Backend} Backend */
/** @typedef {import("../state.js").View} View */

/** Where the tab keeps its session's id. */
const SESSION = "qi-session";

/**
 * A server that does not answer at all (not an answer with an error):
 * the page says so in its own words (kind "unreachable"), not the
 * browser's ("Failed to fetch").
 */
class Unreachable extends Error {
  constructor() {
    super("the qi server does not answer");
    this.kind = "unreachable";
  }
}

/**
 * One request of the API.
 * @param {string} method
 * @param {string} path
 * @param {unknown} [body]
 * @param {AbortSignal} [signal] ends the request (the server stops its work)
 * @returns {Promise<any>}
 */
async function request(method, path, body, signal) {
  /** @type {RequestInit & { headers: Record<string, string> }} */
  const init = { method, headers: {}, signal };
  if (body !== undefined) {
    init.headers["content-type"] = "application/json";
    init.body = JSON.stringify(body);
  }
  let response;
  try {
    response = await fetch(path, init);
  } catch (e) {
    if (signal && signal.aborted) throw Object.assign(new Error("the review was cancelled"), { kind: "review.cancelled", fields: {} });
    throw new Unreachable();
  }
  let data = null;
  try {
    data = await response.json();
  } catch (e) {
    data = null;
  }
  if (!response.ok) {
    const message = data && data.error ? data.error : `${response.status} ${response.statusText}`;
    // The error's kind and fields (docs/web.md), to translate it by.
    throw Object.assign(new Error(message), { status: response.status, kind: data && data.kind, fields: data && data.fields });
  }
  return data;
}

/**
 * A game review with its progress: the server answers one JSON object a
 * line (`application/x-ndjson`, docs/web.md), `{progress: {done, total}}`
 * after each position searched, then `{review}` or `{error, kind,
 * fields}`. A refusal before the first position is a plain error answer.
 * @param {string} record
 * @param {number} nodes
 * @param {(done: number, total: number) => void} onProgress
 * @param {AbortSignal} signal ends the request (the server stops the review)
 * @returns {Promise<import("./backend.js").Review>}
 */
async function reviewStreamed(record, nodes, onProgress, signal) {
  const cancelled = () => Object.assign(new Error("the review was cancelled"), { kind: "review.cancelled", fields: {} });
  let response;
  try {
    response = await fetch("/api/review", {
      method: "POST",
      headers: { "content-type": "application/json", accept: "application/x-ndjson" },
      body: JSON.stringify({ record, nodes }),
      signal,
    });
  } catch (e) {
    if (signal.aborted) throw cancelled();
    throw new Unreachable();
  }
  if (!response.ok || !response.body) {
    /** @type {any} */
    let data = null;
    try {
      data = await response.json();
    } catch (e) {
      data = null;
    }
    const message = data && data.error ? data.error : `${response.status} ${response.statusText}`;
    throw Object.assign(new Error(message), { status: response.status, kind: data && data.kind, fields: data && data.fields });
  }
  const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
  let pending = "";
  try {
    for (;;) {
      const { value, done } = await reader.read();
      if (done) break;
      pending += value;
      let end;
      while ((end = pending.indexOf("\n")) >= 0) {
        const line = JSON.parse(pending.slice(0, end));
        pending = pending.slice(end + 1);
        if (line.progress) onProgress(line.progress.done, line.progress.total);
        else if (line.review) return line.review;
        else if (line.error) throw Object.assign(new Error(line.error), { kind: line.kind, fields: line.fields });
      }
    }
  } catch (e) {
    if (signal.aborted) throw cancelled();
    throw e;
  }
  if (signal.aborted) throw cancelled();
  throw new Unreachable();
}

/** @returns {Backend} */
export function serverBackend() {
  /** @type {string | null} */
  let id = null;
  /** @type {EventSource | null} */
  let events = null;
  const session = (/** @type {string} */ suffix = "") => `/api/sessions/${id}${suffix}`;
  /**
   * @param {string} suffix
   * @param {unknown} [body]
   * @returns {Promise<View>}
   */
  const post = (suffix, body) => request("POST", session(suffix), body);
  /** @param {View} view */
  const opened = (view) => {
    id = view.id;
    sessionStorage.setItem(SESSION, id);
    return view;
  };
  return {
    name: "server",
    games: () => request("GET", "/api/games"),
    async open(spec, flip) {
      const saved = sessionStorage.getItem(SESSION);
      if (saved) {
        try {
          return { view: opened(await request("GET", `/api/sessions/${saved}`)), lost: false };
        } catch (e) {
          if (e instanceof Unreachable) throw e;
        }
      }
      return { view: opened(await request("POST", "/api/sessions", { spec, flip })), lost: !!saved };
    },
    view: () => request("GET", session()),
    play: (move) => post("/play", { move }),
    undo: (count) => post("/undo", { count }),
    goto: (ply) => post("/goto", { ply }),
    gotoLine: (moves) => post("/line", { moves }),
    promote: () => post("/promote"),
    preview: async (moves) => (await request("POST", session("/preview"), { moves })).svg,
    newGame: (game) => post("/new", game),
    flip: (flip) => post("/flip", { flip }),
    record: async () => (await request("GET", session("/record"))).record,
    loadRecord: (record) => post("/record", { record }),
    engineMove: (options) => post("/engine", options),
    startAnalysis: (multipv, movetime_ms) => post("/analysis/start", movetime_ms ? { multipv, movetime_ms } : { multipv }),
    stopAnalysis: () => post("/analysis/stop"),
    setClock: (control) => (control ? post("/clock", { time_control: control }) : request("DELETE", session("/clock"))),
    pauseClock: () => post("/clock/pause"),
    review(record, nodes, onProgress) {
      // The server stops the review when the request is dropped.
      const abort = new AbortController();
      return { result: reviewStreamed(record, nodes, onProgress, abort.signal), cancel: () => abort.abort() };
    },
    setThreads() {
      // The server's engine has its threads of its own.
    },
    listen(onEvent, onBroken) {
      if (events) events.close();
      events = new EventSource(session("/events"));
      events.addEventListener("search", (event) => {
        let data;
        try {
          data = JSON.parse(event.data);
        } catch (e) {
          return; // not JSON: not an event of this page's
        }
        onEvent(data);
      });
      // The stream broke (the browser reconnects by itself): the page asks
      // whether the server is gone.
      events.addEventListener("error", () => onBroken());
    },
  };
}
