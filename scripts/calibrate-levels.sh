#!/usr/bin/env bash
# The level ladder of docs/levels.md: level 1 against a uniformly random
# mover, then each level against the one below it, with `qi match` on the
# game's built-in openings. Prints one line per pair and a table with the
# ratings (the random mover is 0).
#
#   scripts/calibrate-levels.sh GAME [GAMES] [NODES] [CONCURRENCY] [FIRST] [LAST]
#
# GAMES per pair (200), NODES per move for every engine (100000: the full
# engine's budget at level 10; weaker levels stop at their own), games at
# once (2), the pairs of levels FIRST to LAST only (1 and 10: every pair,
# level 1's against the random mover). Builds qi in release first. The
# ratings column adds up the pairs it ran.
set -euo pipefail
cd "$(dirname "$0")/.."
game="${1:?usage: scripts/calibrate-levels.sh GAME [GAMES] [NODES] [CONCURRENCY] [FIRST] [LAST]}"
games="${2:-200}"
nodes="${3:-100000}"
concurrency="${4:-2}"
first="${5:-1}"
last="${6:-10}"
cargo build --release -q -p qi-cli
qi="$PWD/target/release/qi"

total=0
printf '| pair | score (W-D-L) | Elo of the stronger | ± (95%%) | level | rating |\n|---|---|---|---|---|---|\n'
for level in $(seq "$first" "$last"); do
  if [ "$level" -eq 1 ]; then
    weaker=(--engine-b "$qi engine --random")
    name="level 1 vs random"
  else
    weaker=(--engine-b "$qi engine" --option-b "Level=$((level - 1))")
    name="level $level vs $((level - 1))"
  fi
  out="$("$qi" match --game "$game" --engine-a "$qi engine" --option-a "Level=$level" "${weaker[@]}" \
    --games "$games" --nodes "$nodes" --concurrency "$concurrency" 2>&1)"
  score="$(printf '%s\n' "$out" | sed -n 's/^score: A \([0-9-]*\) .*= \([0-9.]*%\)$/\1 (\2)/p')"
  elo="$(printf '%s\n' "$out" | sed -n 's/^elo: A - B = \([+-][0-9.]*\) +\/- \([0-9.inf]*\).*/\1 \2/p')"
  diff="${elo% *}"
  err="${elo#* }"
  total="$(awk -v t="$total" -v d="$diff" 'BEGIN { printf "%.0f", t + d }')"
  printf '| %s | %s | %s | %s | %s | %s |\n' "$name" "$score" "$diff" "$err" "$level" "$total"
done
