#!/usr/bin/env bash
# Builds the libFuzzer targets (tests/fuzz/meson.build) and runs each for a fixed number of
# inputs: the frame parsers, fcswitch's config reader and fclab's scenario reader, under
# ASan+UBSan, two at a time. Exit code 0 when no target crashed.
#   tests/fuzz/run.sh [BUILD_DIR]
# BUILD_DIR (default build-san, the sanitizer build of tools/sanitizer-build.sh) is set up if it
# is not there; only the fuzz targets and the libraries they link are compiled.
set -euo pipefail
cd "$(dirname "$0")/../.."
build=${1:-build-san}
targets=(frame_header_fuzz control_frame_fuzz switch_config_fuzz lab_scenario_fuzz
  scenario_values_fuzz)
tools/sanitizer-build.sh "$build" "${targets[@]}"
out=$build/fuzz
mkdir -p "$out"
export UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1
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
# The config readers on mutated text: fcswitch's (seeded with every config we ship and every
# bad one the tests refuse) and fclab's scenario reader (seeded with every scenario). Linked
# with Debian's toml++ library, as the programs are (header-only toml++ built with assertions
# aborts inside its parser on some bad keys, where the library reports a parse error: we fuzz
# what runs).
config_seeds="$out/config_seeds"
lab_seeds="$out/lab_seeds"
rm -rf "$config_seeds" "$lab_seeds" && mkdir -p "$config_seeds" "$lab_seeds"
cp config/*.toml config/lab/*.toml tests/configs/bad/*.toml "$config_seeds/"
cp config/lab/*.toml tests/lab/*.toml "$lab_seeds/"
fuzz() {  # TARGET RUNS MAX_LEN [SEEDS]: its output in $out/TARGET.log, ".failed" beside it on a crash
  mkdir -p "$out/corpus_$1"
  rm -f "$out/$1.failed"
  "$build/tests/fuzz/$1" -runs="$2" -max_len="$3" -seed=1 -timeout=10 "$out/corpus_$1" ${4:+"$4"} \
    > "$out/$1.log" 2>&1 || touch "$out/$1.failed"
}
# Two at a time (the CI machine's two CPUs), about 45 s each way: the text fuzzers beside the
# config readers on values. About 900 text scenarios a second under ASan+UBSan (each builds
# its network's routes), 200 edited ones (each a whole shipped scenario).
(
  fuzz lab_scenario_fuzz "${FUZZ_LAB_RUNS:-20000}" 8192 "$lab_seeds"
  fuzz frame_header_fuzz "${FUZZ_RUNS:-2000000}" 256 "$seeds"
  fuzz control_frame_fuzz "${FUZZ_RUNS:-2000000}" 256 "$seeds"
) &
fuzz switch_config_fuzz "${FUZZ_CONFIG_RUNS:-200000}" 8192 "$config_seeds"
# The values fuzzer edits the shipped scenarios, parsed and where they are (the files they
# name resolve): its input is the choice of edits, seeded with fixed random bytes.
values_seeds="$out/values_seeds"
rm -rf "$values_seeds" && mkdir -p "$values_seeds"
/usr/bin/python3 -c "
import random, sys
r = random.Random(1)
for i in range(200):
    open(f'{sys.argv[1]}/{i:03d}', 'wb').write(bytes(r.randrange(256) for _ in range(48)))
" "$values_seeds"
FCSWITCH_SCENARIO_SEEDS=config/lab:tests/lab fuzz scenario_values_fuzz \
  "${FUZZ_VALUES_RUNS:-3000}" 256 "$values_seeds"
wait
status=0
for target in "${targets[@]}"; do
  echo "$target:"
  if [ -f "$out/$target.failed" ]; then  # the crash's report in full
    cat "$out/$target.log"
    status=1
  else  # "Done N runs in S second(s)"
    tail -1 "$out/$target.log"
  fi
done
exit "$status"
