// @ts-check
// The static site's service worker: it keeps every file of the site (the
// page, its modules, the qi-wasm package) in a cache named by the site's
// version, so that the installed app starts and plays offline. A new
// version (scripts/export-site.sh writes version.js with a hash of the
// files and their list) installs beside the old one and waits; the page
// offers "new version, reload", which tells it to take over.
importScripts("version.js");

const sw = /** @type {ServiceWorkerGlobalScope & { QI_VERSION: string, QI_FILES: string[] }} */ (
  /** @type {unknown} */ (self)
);
const CACHE = `qi-site-${sw.QI_VERSION}`;
// Addresses relative to this script, so the site works from any
// directory: the page's address and every file of the site.
const FILES = ["./", ...sw.QI_FILES];

sw.addEventListener("install", (event) => {
  event.waitUntil(caches.open(CACHE).then((cache) => cache.addAll(FILES.map((f) => new Request(f, { cache: "reload" })))));
  // Where the browser has static routes (Chrome 123 and later), the same
  // answer without this worker: the site's files straight from the cache
  // (what the cache lacks from the network), so that a repeat visit does
  // not wait for this worker to start and answer each file in turn.
  // An address with a query is left to the fetch handler, which finds the
  // file without it. A browser whose routes take no cache as their source
  // refuses them: the fetch handler answers then, and the worker still
  // installs.
  const install = /** @type {ExtendableEvent & { addRoutes?: (rules: unknown) => Promise<void> }} */ (event);
  if (install.addRoutes) {
    const scope = new URL("./", sw.location.href).pathname;
    const rules = {
      condition: { urlPattern: { pathname: `${scope}*`, search: "" }, requestMethod: "GET" },
      source: { cacheName: CACHE },
    };
    try {
      event.waitUntil(install.addRoutes(rules).catch(() => {}));
    } catch (e) {
      // Refused at once: the same.
    }
  }
});

sw.addEventListener("activate", (event) => {
  // The old versions' caches go once this one controls the pages.
  event.waitUntil((async () => {
    for (const name of await caches.keys()) {
      if (name.startsWith("qi-site-") && name !== CACHE) await caches.delete(name);
    }
    await sw.clients.claim();
  })());
});

sw.addEventListener("message", (event) => {
  if (event.data === "skip-waiting") sw.skipWaiting();
});

// The cache, opened once.
/** @type {Promise<Cache> | null} */
let opened = null;

// Cache first, for the site's own files; anything else goes to the
// network as usual.
sw.addEventListener("fetch", (event) => {
  const request = event.request;
  if (request.method !== "GET" || new URL(request.url).origin !== sw.location.origin) return;
  event.respondWith((async () => {
    opened = opened || caches.open(CACHE);
    const hit = await (await opened).match(request, { ignoreSearch: true });
    if (hit) return hit;
    return fetch(request);
  })());
});
