#!/usr/bin/env bash
# Configures (once) and builds fcswitch into BUILD_DIR (default build/).
set -euo pipefail
cd "$(dirname "$0")/.."
build_dir=${BUILD_DIR:-build}
[ -f "$build_dir/build.ninja" ] || meson setup "$build_dir" "$@" >/dev/null
meson compile -C "$build_dir" >/dev/null
