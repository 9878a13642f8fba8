#!/usr/bin/env bash
# Writes the web app as a static site that any file server can serve and
# that works offline (nothing is loaded from elsewhere):
#   scripts/export-site.sh DIR
# DIR gets the page of `qi serve` (crates/web/assets) switched to its
# in-page backend (backend/local.js: the game in the page and
# localStorage, the engine in a Web Worker), and the qi-wasm package in DIR/pkg, built by
# scripts/build-wasm.sh. Try it: python3 -m http.server -d DIR 8000
set -euo pipefail
cd "$(dirname "$0")/.."

[ $# -eq 1 ] || { echo "usage: scripts/export-site.sh DIR" >&2; exit 2; }
out="$1"
mkdir -p "$out"
scripts/build-wasm.sh "$out/pkg"

# The page of `qi serve` as it is, every file of crates/web/assets (its
# addresses are relative, so the site works from any directory of a
# host); site.json tells it to use the in-page backend (backend/local.js),
# where `qi serve` answers "server".
cp -R crates/web/assets/. "$out/"
printf '{"backend": "local"}\n' >"$out/site.json"
# version.js: the version the service worker caches the site under (a
# hash of every file, so a new build replaces the old cache and the page
# offers it) and the files it keeps (all of them but the package's
# README, types and package.json, which no page loads).
files=$(cd "$out" && find . -type f ! -name version.js ! -path './pkg/README.md' ! -path './pkg/package.json' \
  ! -name '*.d.ts' | sed 's|^\./||' | LC_ALL=C sort)
version=$(cd "$out" && printf '%s\n' $files | tr '\n' '\0' | xargs -0 sha256sum | sha256sum | cut -c1-16)
{
  printf 'self.QI_VERSION = "%s";\n' "$version"
  printf 'self.QI_FILES = [\n'
  printf '  "%s",\n' $files version.js
  printf '];\n'
} >"$out/version.js"
echo "static site in $out"
