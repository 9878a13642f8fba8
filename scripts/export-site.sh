#!/usr/bin/env bash
# Writes the web app as a static site that any file server can serve and
# that works offline (nothing is loaded from elsewhere):
#   scripts/export-site.sh DIR
# DIR gets the page of `qi serve` (crates/web/assets) with a site.json
# that names its in-page backend (backend/local.js: the game in the page
# and localStorage, the engine in a Web Worker), and the qi-wasm package
# in DIR/pkg, built by scripts/build-wasm.sh, each script and style sheet
# minified. Try it:
# python3 -m http.server -d DIR 8000
set -euo pipefail
cd "$(dirname "$0")/.."

[ $# -eq 1 ] || { echo "usage: scripts/export-site.sh DIR" >&2; exit 2; }
out="$1"
mkdir -p "$out"
scripts/build-wasm.sh "$out/pkg"

# The page of `qi serve`, every file of crates/web/assets as it is (its
# addresses are relative, so the site works from any directory of a
# host), and the site.json that names its backend: the in-page one
# (backend/local.js), where `qi serve` answers "server".
cp -R crates/web/assets/. "$out/"
printf '{"backend": "local"}\n' > "$out/site.json"
# Each script and style sheet minified on its own by esbuild (no bundle:
# the same files, the same ES modules and imports), which drops the
# comments and JSDoc that the sources in crates/web/assets keep: a first
# visit gets 31 KB less gzipped (docs/PERFORMANCE.md). Chinese text stays
# UTF-8, as in the sources (esbuild would escape it, 6 bytes a character).
# esbuild comes from npm at the version scripts/site-tools pins,
# installed there on first use.
tools="$PWD/scripts/site-tools"
if [ ! -x "$tools/node_modules/.bin/esbuild" ]; then
  command -v npm >/dev/null 2>&1 || { echo "export-site.sh: npm installs esbuild (Debian: apt-get install npm)" >&2; exit 1; }
  (cd "$tools" && npm ci --no-audit --no-fund --loglevel=error)
fi
sources=$(cd "$out" && find . -type f \( -name '*.js' -o -name '*.css' \) | sed 's|^\./||' | LC_ALL=C sort)
(cd "$out" && "$tools/node_modules/.bin/esbuild" $sources --minify --charset=utf8 --outdir=. --allow-overwrite --log-level=warning)
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
