// @ts-check
// The page's backend, chosen and started as soon as the page is read:
// index.html loads this module before main.js, so that site.json, the
// static site's engine (backend/local.js and its wasm module, compiled
// while it downloads) and the page's own modules load at the same time,
// not one after the other. main.js awaits `backendReady`.
import { registerWorker } from "./offline.js";

/** @typedef {import("./backend/backend.js").Backend} Backend */

/**
 * The backend this page has: site.json names it. The static site's
 * (backend/local.js, with the engine's wasm module) is loaded only there.
 * @returns {Promise<Backend>}
 */
async function chooseBackend() {
  let site = null;
  try {
    const response = await fetch("site.json", { cache: "no-cache" });
    if (response.ok) site = await response.json();
  } catch (e) {
    site = null;
  }
  if (!site || site.backend !== "local") {
    const { serverBackend } = await import("./backend/server.js");
    return serverBackend();
  }
  // The static site works offline, the engine's module included.
  registerWorker();
  const { localBackend } = await import("./backend/local.js");
  return localBackend();
}

/** The backend, once started (it fails when it cannot be). */
export const backendReady = chooseBackend();
// Its failure is main.js's to show, when it awaits it.
backendReady.catch(() => {});
