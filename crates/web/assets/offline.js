// @ts-check
// The static site installs as an app that works offline: sw.js keeps its
// files (scripts/export-site.sh). A new version installs beside the old
// one and waits; the page offers to reload into it.
import { $ } from "./dom.js";

export async function registerWorker() {
  if (!("serviceWorker" in navigator)) return;
  /** @type {ServiceWorkerRegistration} */
  let registration;
  try {
    // Never from the HTTP cache, so a new version.js is seen at once.
    registration = await navigator.serviceWorker.register("sw.js", { updateViaCache: "none" });
  } catch (e) {
    console.warn(`qi: no offline app (${e instanceof Error ? e.message : e})`);
    return;
  }
  const offer = () => {
    if (registration.waiting && navigator.serviceWorker.controller) showUpdate(registration.waiting);
  };
  offer();
  registration.addEventListener("updatefound", () => {
    const next = registration.installing;
    if (next) next.addEventListener("statechange", () => { if (next.state === "installed") offer(); });
  });
}

/** @param {ServiceWorker} waiting */
function showUpdate(waiting) {
  $("update").hidden = false;
  $("update-reload").onclick = () => {
    navigator.serviceWorker.addEventListener("controllerchange", () => location.reload(), { once: true });
    waiting.postMessage("skip-waiting");
  };
}
