#!/usr/bin/env bash
# Builds the qi JavaScript package (qi-wasm for the browser and Node):
#   scripts/build-wasm.sh [OUT_DIR]      (default: target/qi-wasm-pkg)
# Installs what is missing first: the wasm32-unknown-unknown target
# (rustup) and wasm-bindgen-cli at the version of the wasm-bindgen crate in
# Cargo.lock (cargo install --locked). wasm-opt (Debian's binaryen)
# optimises the module when it is installed. OUT_DIR then holds the
# package: qi_wasm.js, qi_wasm_bg.wasm, the .d.ts types, package.json and
# README.md.
set -euo pipefail
cd "$(dirname "$0")/.."

out="${1:-target/qi-wasm-pkg}"
target="${CARGO_TARGET_DIR:-target}"

if command -v rustup >/dev/null 2>&1; then
  rustup target list --installed | grep -qx wasm32-unknown-unknown \
    || rustup target add wasm32-unknown-unknown
fi

# The CLI must be the crate's exact version: the two agree on the ABI.
version=$(awk '/^name = "wasm-bindgen"$/ { getline; gsub(/version = |"/, ""); print; exit }' Cargo.lock)
[ -n "$version" ] || { echo "no wasm-bindgen in Cargo.lock" >&2; exit 1; }
if ! wasm-bindgen --version 2>/dev/null | grep -qx "wasm-bindgen $version"; then
  echo "installing wasm-bindgen-cli $version"
  cargo install --locked --quiet "wasm-bindgen-cli@$version"
fi

cargo build --quiet --release --target wasm32-unknown-unknown -p qi-wasm
rm -rf "$out"
mkdir -p "$out"
module="$target/wasm32-unknown-unknown/release/qi_wasm.wasm"

if command -v wasm-opt >/dev/null 2>&1; then
  # Before wasm-bindgen, not after: Debian's binaryen (108) breaks the
  # table of JavaScript references that wasm-bindgen adds ("failed to
  # grow table" at init). The features are those rustc enables by default
  # for wasm32-unknown-unknown, and simd128, which .cargo/config.toml
  # enables for it. The file keeps its name, which wasm-bindgen writes
  # into the module's imports.
  opt="$target/wasm-opt"
  mkdir -p "$opt"
  wasm-opt -O3 --enable-bulk-memory --enable-nontrapping-float-to-int \
    --enable-sign-ext --enable-mutable-globals --enable-multivalue \
    --enable-reference-types --enable-simd -o "$opt/qi_wasm.wasm" "$module"
  module="$opt/qi_wasm.wasm"
else
  echo "wasm-opt not found (Debian: apt-get install binaryen): module left unoptimised"
fi

# --target web: an ES module whose init() takes a URL (browsers) or the
# module's bytes (Node, tests), so one package serves both. The name
# section (wasm-opt has removed Rust's names; what is left names
# wasm-bindgen's shims) and the producers section are bytes no browser
# uses.
wasm-bindgen --target web --remove-name-section --remove-producers-section --out-dir "$out" "$module"

cp crates/wasm/js/package.json crates/wasm/README.md "$out/"
echo "qi-wasm package in $out ($(stat -c %s "$out/qi_wasm_bg.wasm") bytes of wasm)"
