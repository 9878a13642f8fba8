#!/bin/sh
# The pinned bytes of the larger tables (crates/tablebase/tests/suite/pinned_paths.rs,
# `large`): the closure of 3v3, 4v2, 3v2 and 2v3 under `shandong` in core
# (twins from their tables) and out of core, and of 3v3 under
# `shandong-shuttle`. A few minutes on 2 cores; CI runs the smaller pins.
#
#   scripts/tb-pin-large.sh
set -eu
cd "$(git rev-parse --show-toplevel)"
QI_TB_PIN_LARGE=1 exec cargo test --all-features -p qi-tablebase --test suite \
    -- pinned_paths::large:: --test-threads 1
