// The static site's service worker: it keeps every file of the site (the
// page, its scripts, the qi-wasm package) in a cache named by the site's
// version, so that the installed app starts and plays offline. A new
// version (scripts/export-site.sh writes version.js with a hash of the
// files) installs beside the old one and waits; the page offers "new
// version, reload", which tells it to take over.
importScripts("version.js");

const CACHE = `qi-site-${self.QI_VERSION}`;
// Addresses relative to this script, so the site works from any directory.
const FILES = [
  "./", "index.html", "app.js", "errors.js", "app.css", "local.js", "engine-worker.js", "site.json",
  "manifest.webmanifest", "icon.svg", "icon-192.png", "icon-512.png", "version.js",
  "pkg/qi_wasm.js", "pkg/qi_wasm_bg.wasm",
];

self.addEventListener("install", (event) => {
  event.waitUntil(caches.open(CACHE).then((cache) => cache.addAll(FILES.map((f) => new Request(f, { cache: "reload" })))));
});

self.addEventListener("activate", (event) => {
  // The old versions' caches go once this one controls the pages.
  event.waitUntil((async () => {
    for (const name of await caches.keys()) {
      if (name.startsWith("qi-site-") && name !== CACHE) await caches.delete(name);
    }
    await self.clients.claim();
  })());
});

self.addEventListener("message", (event) => {
  if (event.data === "skip-waiting") self.skipWaiting();
});

// Cache first, for the site's own files; anything else goes to the
// network as usual.
self.addEventListener("fetch", (event) => {
  const request = event.request;
  if (request.method !== "GET" || new URL(request.url).origin !== self.location.origin) return;
  event.respondWith((async () => {
    const cache = await caches.open(CACHE);
    const hit = await cache.match(request, { ignoreSearch: true });
    if (hit) return hit;
    return fetch(request);
  })());
});
