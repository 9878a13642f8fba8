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
cp "$assets/app.js" "$assets/errors.js" "$assets/app.css" "$assets/local.js" "$assets/engine-worker.js" "$out/"
# The same page, with the in-page backend (module scripts run after the
# page's own script, which waits for local.js's "qi-local" event), and
# relative addresses, so that the site works from any directory of a host.
sed -e 's|<html lang="en">|<html lang="en" data-backend="local">|' \
    -e 's|href="/app.css"|href="app.css"|' \
    -e 's|<script src="/errors.js"></script>|<script src="errors.js"></script>|' \
    -e 's|<script src="/app.js"></script>|<script src="app.js"></script>\n<script type="module" src="local.js"></script>|' \
    "$assets/index.html" >"$out/index.html"
grep -q 'data-backend="local"' "$out/index.html" && grep -q 'src="local.js"' "$out/index.html" \
  && grep -q 'src="errors.js"' "$out/index.html" \
  || { echo "export-site: index.html no longer has the lines this script edits" >&2; exit 1; }
echo "static site in $out"
