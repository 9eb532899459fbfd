#!/usr/bin/env bash
# Sets up the sanitizer build (default build-san/) if it is not there, and compiles TARGETS in
# it: clang, ASan+UBSan (clang's UBSan checks float-to-integer overflow too, gcc's does not),
# -Dfuzz=true (libFuzzer's coverage instrumentation on every object, so the same objects serve
# the unit tests, the soak and the fuzzers: one build, not two), -O1 (a fuzzer at -O0 runs its
# inputs three to six times slower) and a unity build.
#   tools/sanitizer-build.sh DIR TARGET...
set -euo pipefail
cd "$(dirname "$0")/.."
build=$1
shift
if [ ! -f "$build/build.ninja" ]; then
  setup_log=$(mktemp)
  CXX=clang++ meson setup "$build" -Dfuzz=true -Dunity=on -Db_sanitize=address,undefined \
    -Db_lundef=false -Doptimization=1 -Ddebug=false > "$setup_log" 2>&1 ||
    { cat "$setup_log"; rm -f "$setup_log"; exit 1; }
  rm -f "$setup_log"
fi
meson compile -C "$build" "$@" > "$build/compile.log" || { cat "$build/compile.log"; exit 1; }
