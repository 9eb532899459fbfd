#!/usr/bin/env bash
# Builds the fuzz targets with clang's libFuzzer, ASan and UBSan, and runs each for a fixed
# number of inputs: the frame parsers, and fcswitch's config reader (issue 22). Exit code 0
# when no target crashed.
set -euo pipefail
cd "$(dirname "$0")/../.."
out=build-fuzz
mkdir -p "$out"
flags=(-std=c++20 -O1 -g -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=all -Ilib)
wire=(lib/wire/frame_header.cc lib/wire/mac_address.cc lib/wire/pfc_frame.cc
  lib/wire/credit_frame.cc lib/wire/pyrrha_frame.cc lib/wire/ecn_mark.cc lib/wire/dscp_rewrite.cc)
# Seeds: a PFC frame, a credit frame and Pyrrha's PAUSE and MERGE, so mutation starts from the
# formats' edges.
seeds="$out/seeds"
rm -rf "$seeds" && mkdir -p "$seeds"
mac='\x01\x80\xc2\x00\x00\x01\x02\x00\x00\x00\x01\x00'
printf "${mac}\x88\x08\x01\x01\x00\x08%016d\xff\xff%030d" 0 0 > "$seeds/pfc"
printf "${mac}\x88\xb5\xcb\x01\x08\x00%064d" 0 > "$seeds/credit"
pyrrha='\x88\xb5\xb1\x01'  # EtherType, subtype, version; then opcode, priority, hops, 0, roots
printf "${mac}${pyrrha}\x01\x03\x01\x00\x00\x00\x00\x07\x00\x03%034d" 0 > "$seeds/pyrrha_pause"
printf "${mac}${pyrrha}\x03\x03\x02\x00\x00\x00\x00\x0c\x00\x01\x00\x00\x00\x0b\x00\x04%028d" 0 \
  > "$seeds/pyrrha_merge"
for target in frame_header_fuzz control_frame_fuzz; do
  clang++ "${flags[@]}" "${wire[@]}" "tests/fuzz/$target.cc" -o "$out/$target"
  echo "$target:"
  mkdir -p "$out/corpus_$target"
  "$out/$target" -runs="${FUZZ_RUNS:-2000000}" -max_len=256 -seed=1 "$out/corpus_$target" \
    "$seeds" 2>&1 | tail -1
done

# fcswitch's config reader on mutated configs, seeded with every config we ship and every bad
# one the tests refuse. Linked with Debian's toml++ library, as fcswitch is (header-only
# toml++ built with assertions aborts inside its parser on some bad keys, where the library
# reports a parse error: we fuzz what runs).
config_seeds="$out/config_seeds"
rm -rf "$config_seeds" && mkdir -p "$config_seeds"
cp config/*.toml config/lab/*.toml tests/configs/bad/*.toml "$config_seeds/"
config_sources=(lib/config/*.cc lib/fc/*.cc lib/wire/*.cc lib/shaping/*.cc lib/tagger/*.cc
  lib/topology/*.cc)
# shellcheck disable=SC2046
clang++ "${flags[@]}" $(pkg-config --cflags tomlplusplus) "${config_sources[@]}" \
  tests/fuzz/switch_config_fuzz.cc -lfmt $(pkg-config --libs tomlplusplus) \
  -o "$out/switch_config_fuzz"
echo "switch_config_fuzz:"
mkdir -p "$out/corpus_switch_config_fuzz"
"$out/switch_config_fuzz" -runs="${FUZZ_CONFIG_RUNS:-200000}" -max_len=4096 -seed=1 \
  "$out/corpus_switch_config_fuzz" "$config_seeds" 2>&1 | tail -1
