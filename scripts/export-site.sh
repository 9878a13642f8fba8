#!/usr/bin/env bash
# Writes the web app as a static site that any file server can serve and
# that works offline (nothing is loaded from elsewhere):
#   scripts/export-site.sh DIR
# DIR gets the page of `qi serve` (crates/web/assets) switched to its
# in-page backend (local.js: the game in the page and localStorage, the
# engine in a Web Worker), and the qi-wasm package in DIR/pkg, built by
# scripts/build-wasm.sh. Try it: python3 -m http.server -d DIR 8000
set -euo pipefail
cd "$(dirname "$0")/.."

[ $# -eq 1 ] || { echo "usage: scripts/export-site.sh DIR" >&2; exit 2; }
out="$1"
mkdir -p "$out"
scripts/build-wasm.sh "$out/pkg"

assets=crates/web/assets
# The page of `qi serve` as it is (its addresses are relative, so the site
# works from any directory of a host); site.json tells it to use the
# in-page backend (local.js), which `qi serve` answers otherwise.
cp "$assets/index.html" "$assets/app.js" "$assets/errors.js" "$assets/app.css" \
  "$assets/local.js" "$assets/engine-worker.js" "$assets/sw.js" \
  "$assets/manifest.webmanifest" "$assets/icon.svg" "$assets/icon-192.png" \
  "$assets/icon-512.png" "$out/"
printf '{"backend": "local"}\n' >"$out/site.json"
# The version the service worker caches the site under: a hash of every
# file, so a new build replaces the old cache and the page offers it.
version=$(cd "$out" && find . -type f ! -name version.js -print0 | sort -z | xargs -0 sha256sum | sha256sum | cut -c1-16)
printf 'self.QI_VERSION = "%s";\n' "$version" >"$out/version.js"
echo "static site in $out"
