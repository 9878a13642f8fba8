// @ts-check
// The page's backend, chosen and started as soon as the page is read:
// index.html loads this module (which imports nothing) before main.js, so
// that the static site's engine (backend/local.js and its wasm module,
// compiled while it downloads) and the page's own modules load at the
// same time, not one after the other. main.js awaits `backendReady`.

/** @typedef {import("./backend/backend.js").Backend} Backend */

/**
 * The backend this page has. The static site's index.html names its own
 * (`<meta name="qi-backend" content="local">`, written by
 * scripts/export-site.sh with the preloads of its modules and wasm
 * module), so nothing is asked before the engine loads; `qi serve`'s page
 * has none and asks site.json, which the server answers. The in-page
 * backend (backend/local.js, with the engine's wasm module) is loaded
 * only where it is named.
 * @returns {Promise<Backend>}
 */
async function chooseBackend() {
  if ((await backendNamed()) !== "local") {
    const { serverBackend } = await import("./backend/server.js");
    return serverBackend();
  }
  // The engine's module compiles while it downloads and while
  // backend/local.js and the page's modules load.
  const module = compileEngine();
  module.catch(() => {});
  const { localBackend } = await import("./backend/local.js");
  return localBackend(await module);
}

/**
 * The in-page backend's wasm module (qi-wasm), compiled as it downloads
 * (the static site's index.html preloads it).
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
 * The backend the page names, or site.json's (null if neither).
 * @returns {Promise<string | null>}
 */
async function backendNamed() {
  const meta = document.querySelector('meta[name="qi-backend"]');
  if (meta instanceof HTMLMetaElement) return meta.content;
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
