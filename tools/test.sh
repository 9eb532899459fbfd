#!/usr/bin/env bash
# Installs what is missing, builds, and runs every test: unit, config examples, DPDK and
# vdev integration (build/); then in one clang ASan+UBSan build (build-san/) the unit tests
# again, the frame-parser and config-reader fuzzers and a short soak of fcswitch and fchost.
# Ends with one line: "tests: N passed, M failed, K skipped".
set -uo pipefail
cd "$(dirname "$0")/.."
# Where the time goes, printed before the closing line: "time: install 12 s, build 410 s, …".
phase_times=()
phase_start=$SECONDS
phase_done() {  # NAME
  phase_times+=("$1 $((SECONDS - phase_start)) s")
  phase_start=$SECONDS
}
tools/install-deps.sh || exit 1
phase_done install
tools/build.sh || exit 1
phase_done build
# Under ASan+UBSan (build-san/, tools/sanitizer-build.sh) only what the unit suite runs (its
# test binaries), fcswitch and fchost for the soak, and the fuzz targets: the DPDK,
# integration and lab tests run on build/ only.
tools/sanitizer-build.sh build-san unit_tests workload_unit_tests fcswitch fchost \
  frame_header_fuzz control_frame_fuzz switch_config_fuzz lab_scenario_fuzz \
  scenario_values_fuzz || exit 1
phase_done "sanitizer build"

passed=0
failed=0
skipped=0
run_suite() {  # build dir, then meson test arguments
  local dir=$1
  shift
  meson test -C "$dir" --print-errorlogs "$@"
  local rc=$?
  local log="$dir/meson-logs/testlog.json"
  local ok fail skip
  ok=$(grep -c -E '"result": "(OK|EXPECTEDFAIL)"' "$log" || true)
  fail=$(grep -c -E '"result": "(FAIL|TIMEOUT|ERROR|UNEXPECTEDPASS)"' "$log" || true)
  skip=$(grep -c -E '"result": "SKIP"' "$log" || true)
  passed=$((passed + ok))
  failed=$((failed + fail))
  skipped=$((skipped + skip))
  [ "$rc" -eq 0 ] || [ "$fail" -gt 0 ] || failed=$((failed + 1))  # meson failed without a test result
}

run_suite build
phase_done tests
UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1 run_suite build-san --no-rebuild --suite unit
phase_done "sanitized unit tests"

# The frame parsers and the config readers of fcswitch and fclab under libFuzzer (ASan+UBSan),
# counted as one test.
if tests/fuzz/run.sh build-san; then
  passed=$((passed + 1))
else
  echo "FAIL: fuzz"
  failed=$((failed + 1))
fi
phase_done fuzz

# A short soak: fcswitch and three fchost under ASan+UBSan, every engine, SIGTERM under load.
if tools/soak.py --seconds 20 --build build-san --out build-san/soak; then
  passed=$((passed + 1))
else
  echo "FAIL: soak"
  failed=$((failed + 1))
fi
phase_done soak

# The end of each failed test's output again, just above the closing lines: a CI that keeps only
# the last lines of a run still shows why.
for dir in build build-san; do
  /usr/bin/python3 - "$dir/meson-logs/testlog.json" <<'PY' || true
import json, sys
try:
    lines = open(sys.argv[1]).read().splitlines()
except OSError:
    sys.exit(0)
for line in lines:
    test = json.loads(line)
    if test.get("result") in ("FAIL", "TIMEOUT", "ERROR", "UNEXPECTEDPASS"):
        tail = ((test.get("stdout") or "") + (test.get("stderr") or "")).splitlines()[-40:]
        print(f"== {test['name']} failed ({test['result']}, exit {test.get('returncode')}); "
              f"its last {len(tail)} lines:")
        print("\n".join(tail))
PY
done
(IFS=,; echo "time: ${phase_times[*]}" | sed 's/,/, /g')
echo "tests: $passed passed, $failed failed, $skipped skipped"
[ "$failed" -eq 0 ]
