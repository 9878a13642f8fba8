#!/bin/sh
# Generates tables with the `qi` of two commits and compares them byte for
# byte (docs/tablebases.md, "Checking the tables"): the proof that a change to
# qi-tablebase leaves every table as it was.
#
#   scripts/tb-compare.sh OLD_REV [SIZE]
#
# OLD_REV is built from `git archive` in a temporary directory (the work
# tree is not touched); the new `qi` is this tree's. SIZE is `small` (the
# default: Jungle materials of up to 2 animals under two presets, Five
# Tigers up to 2 a side under both shuttle options; seconds) or `full`
# (every Jungle material of up to 3 animals under `standard`, every Five
# Tigers material of up to 3 a side with the shuttle allowed, and up to
# 3v2 / 2v3 with it forbidden: a few minutes on 2 cores). Exits non-zero
# at the first difference.
set -eu
old_rev=$1
size=${2:-small}
root=$(git rev-parse --show-toplevel)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

echo "building qi at $old_rev"
mkdir "$work/old"
git -C "$root" archive "$old_rev" | tar -x -C "$work/old"
# The old tree builds into its own target directory, whatever
# CARGO_TARGET_DIR says, so that the two builds never overwrite each other.
(cd "$work/old" && CARGO_TARGET_DIR="$work/old/target" cargo build --release --quiet -p qi-cli)
echo "building qi here"
(cd "$root" && cargo build --release --quiet -p qi-cli)
old_qi="$work/old/target/release/qi"
new_target=${CARGO_TARGET_DIR:-target}
case $new_target in /*) ;; *) new_target="$root/$new_target" ;; esac
new_qi="$new_target/release/qi"

# One run: a name, then `qi tb generate` arguments without the directory.
run() {
    name=$1
    shift
    for side in old new; do
        eval qi=\$${side}_qi
        /usr/bin/env time -f "$side $name %e s wall, %U s user, %M kB" \
            "$qi" tb generate --threads 2 "$@" "$work/$side-$name" 2>&1 | grep " s wall"
    done
    if ! diff -r "$work/old-$name" "$work/new-$name" > /dev/null; then
        echo "DIFFERENT: $name"
        diff -r "$work/old-$name" "$work/new-$name" || true
        exit 1
    fi
    n=$(find "$work/new-$name" -name '*.q??' | wc -l)
    echo "same bytes: $name ($n tables)"
}

if [ "$size" = full ]; then
    run jungle-standard --game jungle:standard --pieces 3
    run ft-shuttle --game five-tigers:shandong-shuttle --pieces 3
    run ft-shandong --game five-tigers:shandong --material 3v2 --material 2v3 \
        --material 3v1 --material 1v3 --material 2v2
else
    run jungle-standard --game jungle:standard --pieces 2
    run jungle-datou --game jungle:datou --pieces 2
    run ft-shuttle --game five-tigers:shandong-shuttle --pieces 2
    run ft-shandong --game five-tigers:shandong --pieces 2
fi
