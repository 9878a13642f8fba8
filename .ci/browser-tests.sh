#!/usr/bin/env bash
# Browser tests of `qi serve`: Debian's chromium driven by Playwright
# (playwright-core from npm, web-tests/) against a server on a free port of
# this machine; then the same page as a static site (scripts/export-site.sh)
# from a plain file server (python3 -m http.server), and from
# `qi serve --site`, the three at once. Screenshots go to target/web-tests/,
# target/web-tests/static/ and target/web-tests/site/. Run after the Rust tests,
# which build the qi binary this uses, and after .ci/wasm-tests.sh, which
# installs what the wasm build needs.
set -euo pipefail
cd "$(dirname "$0")/.."

target="${CARGO_TARGET_DIR:-target}"
out="target/web-tests"
mkdir -p "$out"

# Chromium, a font with Chinese characters for readable screenshots, and
# node with npm: installed from Debian's packages when missing.
missing=()
command -v chromium >/dev/null 2>&1 || missing+=(chromium)
command -v node >/dev/null 2>&1 || missing+=(nodejs)
command -v npm >/dev/null 2>&1 || missing+=(npm)
dpkg -s fonts-wqy-zenhei >/dev/null 2>&1 || missing+=(fonts-wqy-zenhei)
if [ "${#missing[@]}" -gt 0 ]; then
  echo "installing ${missing[*]}"
  export DEBIAN_FRONTEND=noninteractive
  timeout 600 apt-get update -qq
  timeout 900 apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi

(cd web-tests && timeout 300 npm ci --no-audit --no-fund --loglevel=error)

# The binary that .ci/run's `cargo test --workspace --all-features` built
# (the test profile, the same features), so nothing is built again.
cargo build -q --workspace --all-features --profile test --bin qi
qi="$target/debug/qi"

# Each run below is a subshell of its own, in the background: its
# servers are killed when it exits, however it ends. A run's timeout
# (20 minutes) bounds a hung browser, not the tests' speed: the three
# runs share the machine.
server=""
files=""
cleanup() {
  for pid in "$server" "$files"; do
    if [ -n "$pid" ] && kill -0 "$pid" 2>/dev/null; then
      kill -KILL "$pid" 2>/dev/null || true
    fi
  done
}

# start_server LOG ARGS...: runs `qi serve --port 0 ARGS` in the
# background, sets $server and $url.
start_server() {
  local log="$1"
  shift
  "$qi" serve --port 0 "$@" >"$log" 2>&1 &
  server=$!
  url=""
  for _ in $(seq 1 300); do
    url=$(grep -o 'http://127\.0\.0\.1:[0-9]*/' "$log" || true)
    [ -n "$url" ] && break
    kill -0 "$server" 2>/dev/null || { cat "$log"; echo "qi serve did not start"; exit 1; }
    sleep 0.1
  done
  [ -n "$url" ] || { echo "qi serve printed no address"; exit 1; }
  echo "qi serve $* at $url"
}

# stop_server LOG: SIGTERM (as Ctrl-C does SIGINT) must end the analyses
# the tests left running and exit cleanly within 10 s; fails otherwise.
stop_server() {
  local log="$1"
  kill -TERM "$server"
  for _ in $(seq 1 100); do
    kill -0 "$server" 2>/dev/null || break
    sleep 0.1
  done
  if kill -0 "$server" 2>/dev/null; then
    echo "qi serve did not stop within 10 s of SIGTERM"
    return 1
  fi
  local code=0
  wait "$server" || code=$?
  server=""
  if [ "$code" -ne 0 ] || ! grep -q "qi serve: stopped" "$log"; then
    echo "qi serve did not stop cleanly (exit code $code)"
    cat "$log"
    return 1
  fi
  echo "qi serve stopped cleanly"
}

# The page against `qi serve`, then the defects of the server itself.
serve_run() {
  trap cleanup EXIT
  start_server "$out/server.log"
  local status=0
  QI_URL="$url" SHOTS="$out" timeout 1200 node web-tests/run.mjs || status=1
  QI_URL="$url" SHOTS="$out" timeout 300 node web-tests/server.mjs || status=1
  stop_server "$out/server.log" || status=1
  return "$status"
}

# The static site from a plain file server: the game and the engine in
# the page, no qi server.
static_run() {
  trap cleanup EXIT
  local site="$1"
  python3 -u -m http.server --bind 127.0.0.1 --directory "$site" 0 >"$out/static-server.log" 2>&1 &
  files=$!
  local static_url=""
  for _ in $(seq 1 100); do
    port=$(grep -o 'port [0-9]*' "$out/static-server.log" | head -1 | cut -d' ' -f2 || true)
    [ -n "$port" ] && static_url="http://127.0.0.1:$port/" && break
    sleep 0.1
  done
  [ -n "$static_url" ] || { cat "$out/static-server.log"; echo "the file server did not start"; exit 1; }
  echo "static site at $static_url"
  # QI_SITE_DIR: the update test writes a new version.js there.
  QI_STATIC=1 QI_SITE_DIR="$site" QI_URL="$static_url" SHOTS="$out/static" timeout 1200 node web-tests/run.mjs
}

# The same site served by `qi serve --site` (no session API): the page
# must work there exactly as from a plain file server.
site_run() {
  trap cleanup EXIT
  local site="$1"
  start_server "$out/site-server.log" --site "$site"
  local status=0
  QI_STATIC=1 QI_SITE_DIR="$site" QI_URL="$url" SHOTS="$out/site" timeout 1200 node web-tests/run.mjs || status=1
  stop_server "$out/site-server.log" || status=1
  return "$status"
}

# The three runs go at once, each with its own browser, server and log
# (printed in this order once each run has ended): a test mostly waits
# for the page, the engine or a timer, so that one after another the
# runs left a 2-core machine idle most of the time. The qi serve run
# starts while the static site is exported.
runs=()
stop_runs() {
  for run in "${runs[@]}"; do
    pid_var="${run}_pid"
    kill -TERM "${!pid_var}" 2>/dev/null || true
  done
}
trap stop_runs EXIT
serve_run >"$out/serve-run.log" 2>&1 &
serve_pid=$!
runs+=(serve)

site="$target/site"
status=0
if scripts/export-site.sh "$site"; then
  # The page's modules type-checked from their JSDoc (TypeScript from
  # npm, no build), against the qi-wasm package's types of the site just
  # built.
  mkdir -p "$out/types/pkg"
  cp "$site/pkg/qi_wasm.d.ts" "$out/types/pkg/"
  (cd web-tests && npx tsc -p tsconfig.json && npx tsc -p tsconfig.worker.json) || status=1
  # The update test rewrites the site's version.js while it runs: each
  # static run has its own copy of the site.
  rm -rf "$site-served"
  cp -R "$site" "$site-served"
  static_run "$site" >"$out/static-run.log" 2>&1 &
  static_pid=$!
  runs+=(static)
  site_run "$site-served" >"$out/site-run.log" 2>&1 &
  site_pid=$!
  runs+=(site)
else
  status=1
fi

for run in "${runs[@]}"; do
  pid_var="${run}_pid"
  wait "${!pid_var}" || status=1
  cat "$out/$run-run.log"
done
trap - EXIT
exit "$status"
