#!/usr/bin/env bash
# Builds the fuzz targets with clang's libFuzzer, ASan and UBSan, and runs each for a fixed
# number of inputs: the frame parsers, fcswitch's config reader and fclab's scenario reader
# (issue 22). Exit code 0 when no target crashed.
set -euo pipefail
cd "$(dirname "$0")/../.."
out=build-fuzz
mkdir -p "$out"
flags=(-std=c++20 -O1 -gline-tables-only -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=all -Ilib)
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

# The config readers on mutated text: fcswitch's (seeded with every config we ship and every
# bad one the tests refuse) and fclab's scenario reader (seeded with every scenario). Linked
# with Debian's toml++ library, as the programs are (header-only toml++ built with assertions
# aborts inside its parser on some bad keys, where the library reports a parse error: we fuzz
# what runs). Their sources are compiled once, two at a time, for both targets.
config_seeds="$out/config_seeds"
lab_seeds="$out/lab_seeds"
rm -rf "$config_seeds" "$lab_seeds" && mkdir -p "$config_seeds" "$lab_seeds"
cp config/*.toml config/lab/*.toml tests/configs/bad/*.toml "$config_seeds/"
cp config/lab/*.toml tests/lab/*.toml "$lab_seeds/"
config_sources=(lib/config/*.cc lib/fc/*.cc lib/wire/*.cc lib/shaping/*.cc lib/tagger/*.cc
  lib/topology/*.cc)
# The scenario reader (lib/scenario): no DPDK, no EAL.
lab_sources=(lib/workload/*.cc lib/scenario/*.cc)
objects="$out/objects"
mkdir -p "$objects"
# shellcheck disable=SC2046
compile=(clang++ -std=c++20 -O1 -gline-tables-only -fsanitize=fuzzer-no-link,address,undefined
  -fno-sanitize-recover=all -Ilib $(pkg-config --cflags tomlplusplus libdpdk)
  "-DFCSWITCH_WORKLOAD_DIR=\"$PWD/config/workloads\"")
printf '%s\n' "${config_sources[@]}" "${lab_sources[@]}" |
  xargs -P "$(nproc)" -I{} sh -c '"$@" -c "$0" -o "'"$objects"'/$(echo "$0" | tr / _).o"' {} \
    "${compile[@]}"
config_objects=()
for f in "${config_sources[@]}"; do config_objects+=("$objects/$(echo "$f" | tr / _).o"); done
lab_objects=("${config_objects[@]}")
for f in "${lab_sources[@]}"; do lab_objects+=("$objects/$(echo "$f" | tr / _).o"); done
link() {  # TARGET OBJECTS...
  local target=$1
  shift
  # shellcheck disable=SC2046
  "${compile[@]}" -fsanitize=fuzzer "$@" "tests/fuzz/$target.cc" -lfmt \
    $(pkg-config --libs tomlplusplus) -o "$out/$target"
}
link switch_config_fuzz "${config_objects[@]}"
link lab_scenario_fuzz "${lab_objects[@]}"
fuzz_config() {  # TARGET RUNS SEEDS
  echo "$1:"
  mkdir -p "$out/corpus_$1"
  "$out/$1" -runs="$2" -max_len=8192 -seed=1 -timeout=10 "$out/corpus_$1" "$3" 2>&1 | tail -1
}
fuzz_config switch_config_fuzz "${FUZZ_CONFIG_RUNS:-200000}" "$config_seeds"
# About 900 scenarios a second under ASan+UBSan (each builds its network's routes): half a
# minute's worth.
fuzz_config lab_scenario_fuzz "${FUZZ_LAB_RUNS:-30000}" "$lab_seeds"
