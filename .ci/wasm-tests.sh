#!/usr/bin/env bash
# The JavaScript package (qi-wasm): built by scripts/build-wasm.sh (which
# installs the wasm target and wasm-bindgen-cli itself), then tested in
# Node with its built-in test runner: perft against the repository's perft
# suites, the API, searches and errors.
set -euo pipefail
cd "$(dirname "$0")/.."

# node, and binaryen for wasm-opt: from Debian's packages when missing.
missing=()
command -v node >/dev/null 2>&1 || missing+=(nodejs)
command -v wasm-opt >/dev/null 2>&1 || missing+=(binaryen)
if [ "${#missing[@]}" -gt 0 ]; then
  echo "installing ${missing[*]}"
  export DEBIAN_FRONTEND=noninteractive
  timeout 600 apt-get update -qq
  timeout 900 apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi

pkg="target/qi-wasm-pkg"
scripts/build-wasm.sh "$pkg"
QI_WASM_PKG="$pkg" timeout 600 node --test --test-timeout=120000 crates/wasm/js/test/*.test.mjs
