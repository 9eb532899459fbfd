#!/usr/bin/env bash
# Builds the fuzz targets with clang's libFuzzer, ASan and UBSan, and runs each for a fixed
# number of inputs. Exit code 0 when no target crashed.
set -euo pipefail
cd "$(dirname "$0")/../.."
out=build-fuzz
mkdir -p "$out"
flags=(-std=c++20 -O1 -g -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=all -Ilib)
wire=(lib/wire/frame_header.cc lib/wire/mac_address.cc lib/wire/pfc_frame.cc
  lib/wire/credit_frame.cc lib/wire/control_frame_kind.cc)
# Seeds: a PFC frame and a credit frame, so mutation starts from the formats' edges.
seeds="$out/seeds"
rm -rf "$seeds" && mkdir -p "$seeds"
mac='\x01\x80\xc2\x00\x00\x01\x02\x00\x00\x00\x01\x00'
printf "${mac}\x88\x08\x01\x01\x00\x08%016d\xff\xff%030d" 0 0 > "$seeds/pfc"
printf "${mac}\x88\xb5\xcb\x01\x08\x00%064d" 0 > "$seeds/credit"
for target in frame_header_fuzz control_frame_fuzz; do
  clang++ "${flags[@]}" "${wire[@]}" "tests/fuzz/$target.cc" -o "$out/$target"
  echo "$target:"
  mkdir -p "$out/corpus_$target"
  "$out/$target" -runs="${FUZZ_RUNS:-2000000}" -max_len=256 -seed=1 "$out/corpus_$target" \
    "$seeds" 2>&1 | tail -1
done
