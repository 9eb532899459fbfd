#!/usr/bin/env bash
# Builds the fuzz targets with clang's libFuzzer, ASan and UBSan, and runs each for a fixed
# number of inputs. Exit code 0 when no target crashed.
set -euo pipefail
cd "$(dirname "$0")/../.."
out=build-fuzz
mkdir -p "$out"
clang++ -std=c++20 -O1 -g -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=all -Ilib \
  lib/wire/frame_header.cc lib/wire/mac_address.cc tests/fuzz/frame_header_fuzz.cc \
  -o "$out/frame_header_fuzz"
"$out/frame_header_fuzz" -runs="${FUZZ_RUNS:-2000000}" -max_len=256 -seed=1 2>&1 | tail -2
