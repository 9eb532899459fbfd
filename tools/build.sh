#!/usr/bin/env bash
# Configures (once) and builds fcswitch into BUILD_DIR (default build/).
set -euo pipefail
cd "$(dirname "$0")/.."
build_dir=${BUILD_DIR:-build}
# Unity: the files of each library compiled a few at a time as one unit, so their shared
# headers (DPDK, toml++, spdlog, nlohmann::json) are parsed once per unit, not once per file.
[ -f "$build_dir/build.ninja" ] || meson setup "$build_dir" -Dunity=on "$@" >/dev/null
meson compile -C "$build_dir" >/dev/null
