#!/usr/bin/env bash
# Bad command-line values are refused by name, before anything starts (they used to pass:
# --duration -1, nan or 1e308 as "no limit", --log-level bogus as logging off).
# Usage: cli_bad_values.sh FCSWITCH FCLAB SOURCE_ROOT TAGGER_GEN FCHOST
set -uo pipefail
fcswitch=$1 fclab=$2 root=$3 tagger_gen=$4 fchost=$5
failed=0
expect_refused() {  # binary, what the message must name, args...
  local bin=$1 name=$2
  shift 2
  local out
  out=$("$bin" "$@" 2>&1)
  local status=$?
  if [ "$status" -ne 0 ] && grep -q -- "$name" <<<"$out" && ! grep -q "ok$" <<<"$out"; then
    echo "ok: $(basename "$bin") $* → $(head -1 <<<"$out")"
  else
    echo "FAIL: $(basename "$bin") $* → exit $status: $out"
    failed=1
  fi
}
config=$root/config/demo-pcap.toml
scenario=$root/config/lab/gfc-ring.toml
for v in -1 nan 1e308 inf abc; do expect_refused "$fcswitch" "--duration" "$config" --check --duration "$v"; done
expect_refused "$fcswitch" "--exit-on-idle" "$config" --check --exit-on-idle -5
expect_refused "$fcswitch" "--drain-timeout" "$config" --check --drain-timeout 1e9
expect_refused "$fcswitch" "--log-level" "$config" --check --log-level bogus
expect_refused "$fclab" "--log-level" "$scenario" --check --log-level bogus
expect_refused "$fclab" "--progress-every" "$scenario" --check --progress-every nan
# --threads: 1 to the CPUs this process may run on, and a scenario that can be split.
cpus=$(nproc)
for v in 0 -1 $((cpus + 1)) two; do
  expect_refused "$fclab" "--threads: expected 1 to $cpus (the CPUs this process may run on), found $v" \
    "$scenario" --check --threads "$v"
done
if [ "$cpus" -ge 2 ]; then
  expect_refused "$fclab" 'ring-100mbps.toml: --threads 2: runs on clock = "virtual" only, found "wall"' \
    "$root/tests/lab/ring-100mbps.toml" --check --threads 2
  expect_refused "$fclab" "window-lossy.toml: --threads 2: the network splits into 1 part at most" \
    "$root/tests/lab/window-lossy.toml" --check --threads 2
fi
# A result file that cannot be written is refused before the run, naming the option, the
# path and why (a report to such a path used to be lost, exit 0, no message).
expect_refused "$fcswitch" "--report-json: cannot write /nonexistent/d/r.json: its directory /nonexistent/d does not exist" \
  "$config" --check --report-json /nonexistent/d/r.json
expect_refused "$fcswitch" "--report-json: cannot write $root/config: is a directory" \
  "$config" --check --report-json "$root/config"
expect_refused "$fchost" "--summary: cannot write /nonexistent/s.json" \
  "$root/config/testbed-82599-host.toml" --check --summary /nonexistent/s.json
# A directory where a file was meant says so (it read as "ports: expected an array").
expect_refused "$fcswitch" "config: is a directory, not a TOML file" "$root/config" --check
expect_refused "$fclab" "lab: is a directory, not a TOML file" "$root/config/lab" --check
dir=$(mktemp -d)
mkdir "$dir/rules.toml"
printf '[lab]\ntagger_rules = "rules.toml"\n' > "$dir/s.toml"
expect_refused "$fclab" "rules.toml is a directory, not a TOML file" "$dir/s.toml" --check
# More ports than the DPDK build's ethdevs (Debian's: 32) or the port masks' 64: said at
# --check, at the first port too many (a run went on to the EAL, which refused the 33rd vdev
# as if its device string were wrong).
{
  printf '[switch]\nlossless_priorities = [3]\n'
  for i in $(seq 0 69); do printf '[[ports]]\nname = "p%d"\ndevice = "net_null%d"\n' "$i" "$i"; done
} > "$dir/many.toml"
expect_refused "$fcswitch" \
  "many.toml:[0-9]*:1: ports\[\(32\|64\)\]: expected at most \(32\|64\) ports (\(RTE_MAX_ETHPORTS\|port masks\)" \
  "$dir/many.toml" --check
# A run whose samples would write more CSV than [lab] csv_limit: refused at --check, before
# the first run of a sweep starts.
expect_refused "$fclab" "gfc-ring.toml:[0-9]*:[0-9]*: lab.sample_interval: expected samples whose CSV stays within lab.csv_limit (1000 bytes)" \
  "$scenario" --check --set lab.csv_limit=1000
# A CPU this process may not run on is refused before EAL starts (EAL printed its 100-line
# usage and exited); --check, perhaps of a config for another machine, says so as a warning.
# A trace file that cannot be written is refused by --check ("cannot write " with an empty
# name, after the start).
printf '[switch]\nname = "s"\n[eal]\ncpus = "1000"\n[[ports]]\nname = "p0"\ndevice = "net_null0"\n' \
  > "$dir/cpus.toml"
cpus_problem="cpus.toml: eal.cpus: expected CPUs this process may run on (.*), found CPU 1000 among them"
expect_refused "$fcswitch" "$cpus_problem" "$dir/cpus.toml" --duration 1
# (captured first: grep -q ends the pipe early, and pipefail took fcswitch's SIGPIPE for a no)
out=$("$fcswitch" "$dir/cpus.toml" --check 2>&1)
if grep -q "$cpus_problem (a start here would be refused)" <<<"$out"; then
  echo "ok: --check warns of a CPU this machine lacks"
else
  echo "FAIL: --check said nothing of CPU 1000"
  failed=1
fi
printf '[switch]\nname = "s"\n[[ports]]\nname = "p0"\ndevice = "net_null0"\n[trace]\nfile = ""\n' \
  > "$dir/trace.toml"
expect_refused "$fcswitch" 'trace.toml:7:8: trace.file: expected a file this process can write, found "" (an empty name)' \
  "$dir/trace.toml" --check
# A device argument its driver does not declare is named, with the keys it does, at --check
# and before a start, by fcswitch and fchost ("its driver refused" named no argument); a
# driver the EAL has not got leaves no runtime directory behind.
printf '[switch]\nname = "s"\n[[ports]]\nname = "p0"\ndevice = "net_null0,bogus_arg=1"\n' \
  > "$dir/arg.toml"
arg_problem='arg.toml:5:10: ports\[0\].device: expected arguments that driver net_null declares (size=<int> copy=<int> no-rx=0|1), found key "bogus_arg"'
expect_refused "$fcswitch" "$arg_problem" "$dir/arg.toml" --check
expect_refused "$fcswitch" "$arg_problem" "$dir/arg.toml" --duration 1
printf '[switch]\nname = "h"\n[host]\nip = "10.0.0.1"\n[[ports]]\nname = "nic"\ndevice = "net_null0,nope=1"\n' \
  > "$dir/host_arg.toml"
expect_refused "$fchost" 'host_arg.toml:7:10: ports\[0\].device: expected arguments that driver net_null declares .*, found key "nope"' \
  "$dir/host_arg.toml" --check
prefix=fcbaddrv_$$
printf '[switch]\nname = "s"\n[eal]\nargs = ["--no-huge", "--no-pci", "-m", "256", "--file-prefix=%s"]\n[[ports]]\nname = "p0"\ndevice = "%s"\n' \
  "$prefix" net_bogus0 > "$dir/driver.toml"
expect_refused "$fcswitch" 'driver.toml:7:10: ports\[0\].device: expected a driver of this DPDK at the start of its name (its virtual ones: .*net_memif, .*net_null, .*), found "net_bogus0"' \
  "$dir/driver.toml" --check
# One the EAL is given past the config (after --): the EAL refuses it.
printf '[switch]\nname = "s"\n[eal]\nargs = ["--no-huge", "--no-pci", "-m", "256", "--file-prefix=%s"]\n[[ports]]\nname = "p0"\ndevice = "%s"\n' \
  "$prefix" net_null0 > "$dir/eal_driver.toml"
expect_refused "$fcswitch" "rte_eal_init failed: a device the EAL could not take" \
  "$dir/eal_driver.toml" --duration 1 -- --vdev=net_bogus1
runtime=/var/run/dpdk
[ "$(id -u)" = 0 ] || runtime=${XDG_RUNTIME_DIR:-/tmp}/dpdk
if [ -e "$runtime/$prefix" ]; then
  echo "FAIL: a refused driver left $runtime/$prefix"
  failed=1
  rm -rf "${runtime:?}/$prefix"
else
  echo "ok: a refused driver left no $runtime/$prefix"
fi
# A report that cannot be written at the end (a disk that filled since the start: /dev/full)
# fails the run with the path and why, exit 4.
cat > "$dir/rings.toml" <<EOF
[switch]
lossless_priorities = [3]
mbufs = 4095
[eal]
args = ["--no-huge", "-m", "128", "--no-pci", "--no-telemetry", "--file-prefix=fccli$$", "--log-level=warning"]
[[ports]]
name = "p0"
device = "net_ring0"
[[ports]]
name = "p1"
device = "net_ring1"
EOF
out=$("$fcswitch" "$dir/rings.toml" --duration 0.2 --report-json /dev/full 2>&1)
status=$?
if [ "$status" -eq 4 ] && grep -q "cannot write /dev/full: No space left on device" <<<"$out"; then
  echo "ok: a report lost at the end → exit 4, said"
else
  echo "FAIL: --report-json /dev/full → exit $status: $(tail -3 <<<"$out")"
  failed=1
fi
# A sweep's values name its runs' directories: one given twice would write two runs into one
# directory, one with a '/' would write outside --out.
expect_refused "$fclab" '--sweep flow_control.engine: expected each value once, found "pfc" twice' \
  "$scenario" --check --sweep flow_control.engine=pfc,cbfc,pfc
expect_refused "$fclab" '--sweep lab.name: expected values that can name a directory, found "../x"' \
  "$scenario" --check --sweep lab.name=a,../x
# A bad value of a sweep is placed at the --sweep that gave it (it was named a --set).
expect_refused "$fclab" '^--sweep flow_control.engine=bogus:1:' \
  "$scenario" --check --sweep flow_control.engine=pfc,bogus
# --metrics HOST:0 says the port the kernel gave (it said port 0).
out=$("$fclab" "$scenario" --out "$dir/metrics" --no-plots --quiet --set lab.duration=1ms \
  --metrics 127.0.0.1:0 2>&1)
if grep -q "metrics: http://127.0.0.1:[1-9][0-9]*/metrics" <<<"$out"; then
  echo "ok: fclab --metrics 127.0.0.1:0 names the port bound"
else
  echo "FAIL: fclab --metrics 127.0.0.1:0 → $(grep metrics <<<"$out")"
  failed=1
fi
rm -rf "$dir"
# A pool smaller than the frames the network can hold is said before anything runs, --check
# included, with the pool that never runs out (the ring: lab_test's APoolThatRunsOutIsReported).
out=$("$fclab" "$scenario" --check --set lab.mbufs=1023 2>&1)
status=$?
said="the network can hold 1788 data frames of 1514 bytes (1188 in the switches' buffers, 396 on the wires, 204 in the hosts' queues), more than the pool's 1023 mbufs ([lab] mbufs): should they all fill, sources wait for frames and the run is the pool's; mbufs = 2047 never runs out"
if [ "$status" -eq 0 ] && grep -qF -- "$said" <<<"$out" &&
  ! "$fclab" "$scenario" --check 2>&1 | grep -q "can hold"; then
  echo "ok: fclab --check says a pool of 1023 may run out, and nothing of the default"
else
  echo "FAIL: fclab --check --set lab.mbufs=1023 → exit $status: $out"
  failed=1
fi
# tagger-gen verify refuses the options that shape generated rules (they were silently ignored).
clos=$root/config/lab/tagger-clos.toml
for option in "--out x.toml" "--elp shortest" "--algorithm greedy" "--bounces 2" "--seed 3"; do
  # shellcheck disable=SC2086  # the option and its value are two words
  expect_refused "$tagger_gen" "verify excludes ${option%% *}" --topology "$clos" $option \
    verify --rules "$root/config/lab/tagger-clos.rules.toml"
done
# And good ones still pass.
if "$fcswitch" "$config" --check --duration 2.5 --log-level warn >/dev/null 2>&1; then
  echo "ok: good values accepted"
else
  echo "FAIL: fcswitch --check --duration 2.5 --log-level warn refused"
  failed=1
fi
exit $failed
