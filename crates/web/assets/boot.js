// @ts-check
// The page's backend, chosen and started as soon as the page is read:
// index.html loads this module (which imports nothing) before main.js, so
// that the static site's engine (backend/local.js and its wasm module,
// compiled while it downloads) and the page's own modules load at the
// same time, not one after the other. main.js awaits `backendReady`.

/** @typedef {import("./backend/backend.js").Backend} Backend */

/**
 * The backend this page has, as site.json names it: `qi serve` answers
 * `{"backend": "server"}`, a static site's file (written by
 * scripts/export-site.sh) `{"backend": "local"}`. The one page serves
 * both, unchanged. The in-page backend (backend/local.js, with the
 * engine's wasm module) is loaded only where it is named.
 * @returns {Promise<Backend>}
 */
async function chooseBackend() {
  if ((await backendNamed()) !== "local") {
    const { serverBackend } = await import("./backend/server.js");
    return serverBackend();
  }
  // The engine's module compiles while it downloads and while
  // backend/local.js, its modules and the page's load, all asked at once.
  preload(LOCAL_MODULES);
  const module = compileEngine();
  module.catch(() => {});
  const { localBackend } = await import("./backend/local.js");
  return localBackend(await module);
}

/**
 * The modules the in-page backend imports, itself first: preloaded as
 * soon as the page knows its backend, so that they load side by side
 * rather than each after the module importing it (a browser test checks
 * that the page loads no module it did not preload).
 */
const LOCAL_MODULES = ["backend/local.js", "backend/kept-clock.js", "backend/split-search.js", "pkg/qi_wasm.js"];

/**
 * Asks for `paths` (relative to the page) as module preloads.
 * @param {string[]} paths
 */
function preload(paths) {
  for (const path of paths) {
    const link = document.createElement("link");
    link.rel = "modulepreload";
    link.href = new URL(path, import.meta.url).href;
    document.head.append(link);
  }
}

/**
 * The in-page backend's wasm module (qi-wasm), compiled as it downloads.
 * @returns {Promise<WebAssembly.Module>}
 */
async function compileEngine() {
  const response = await fetch(new URL("pkg/qi_wasm_bg.wasm", import.meta.url));
  if (!response.ok) throw new Error(`the engine's module could not be fetched: ${response.status} ${response.statusText}`);
  // A host that does not send application/wasm: compiled once all is read.
  if ((response.headers.get("content-type") || "").startsWith("application/wasm")) return WebAssembly.compileStreaming(response);
  return WebAssembly.compile(await response.arrayBuffer());
}

/**
 * The backend site.json names (null without one).
 * @returns {Promise<string | null>}
 */
async function backendNamed() {
  try {
    const response = await fetch("site.json", { cache: "no-cache" });
    return response.ok ? (await response.json()).backend : null;
  } catch (e) {
    return null;
  }
}

/** The backend, once started (it fails when it cannot be). */
export const backendReady = chooseBackend();
// Its failure is main.js's to show, when it awaits it.
backendReady.catch(() => {});
