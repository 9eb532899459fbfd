#!/usr/bin/env bash
# tools/testbed_rehearsal.sh as a user runs it (issue 17): six processes over memif, PFC then
# buffer-based GFC. PFC deadlocks (every switch stalled with its ring egress at a closed gate,
# no flow moving, no lossless drop); buffer-based GFC's stages cascade round the ring and hold
# every ring egress to a stage's rate, with no gate closed and no lossless drop. How deep the
# cascade goes depends on the run: near stage 10 (≈ 1 Mb/s) the collector says "moving"; at the
# last stage, C/2^20 ≈ 1 kb/s, a frame every 13 s, it sees every switch stalled and says
# "deadlock". Prometheus scraped all six
# (the dashboard's queries return data from S1–S3 and H1–H3); every process exits 0 (a crash
# or a hang fails, with each process's report printed); nothing is left behind.
# usage: testbed_rehearsal.sh SOURCE_DIR FCSWITCH FCHOST WORK_DIR
set -euo pipefail
source_dir=$1
work=$4
rm -rf "$work"
mkdir -p "$work"
FCSWITCH=$2 FCHOST=$3 "$source_dir/tools/testbed_rehearsal.sh" --seconds 6 --out "$work" \
  > "$work/rehearsal.log" 2>&1 || { cat "$work/rehearsal.log"; exit 1; }
cat "$work/rehearsal.log"
if python3 - "$work" <<'PY'
import json, pathlib, sys
work = pathlib.Path(sys.argv[1])
failures = []
def check(ok, what):
    if not ok:
        failures.append(what)
        print("FAIL:", what)
pfc = json.loads((work / "pfc/verdict.json").read_text())
gfc = json.loads((work / "gfc-buffer/verdict.json").read_text())
check(pfc["verdict"] == "deadlock", f"PFC: {pfc['verdict']}, not deadlock")
check(pfc["lossless_drops"] == 0, f"PFC: {pfc['lossless_drops']} lossless drops")
for s in ("s1", "s2", "s3"):
    stall = json.loads((work / f"pfc/{s}.json").read_text())["stall"]
    check({"port": "cw", "prio": 3} in stall["blocked_at_stop"],
          f"PFC: {s}'s ring egress not at a closed gate at the stop: {stall}")
check(gfc["lossless_drops"] == 0, f"GFC: {gfc['lossless_drops']} lossless drops")
for s in ("s1", "s2", "s3"):
    report = json.loads((work / f"gfc-buffer/{s}.json").read_text())
    check(report["stall"]["blocked_at_stop"] == [],
          f"GFC: {s} has a closed gate at the stop: {report['stall']}")
    # The ring egress heard the next switch's stages and was held to their rates (its stage
    # at the report is the one the downstream said when it stopped: 0).
    cw = next(p for p in report["ports"] if p["name"] == "cw")["flow_control"]["3"]
    check(cw["stage_messages_received"] > 0 and cw["blocked_ns"] > 0,
          f"GFC: {s}'s ring egress never held by a stage: {cw}")
for run in ("pfc", "gfc-buffer"):
    exits = json.loads((work / run / "verdict.json").read_text())["exits"]
    check(sorted(exits) == ["H1", "H2", "H3", "S1", "S2", "S3"] and not any(exits.values()),
          f"{run}: a process did not exit 0 (a crash, or a hang killed): {exits}")
    answers = json.loads((work / run / "dashboard.json").read_text())
    nodes = {n for a in answers for n in a["nodes"]}
    check(nodes == {"S1", "S2", "S3", "H1", "H2", "H3"},
          f"{run}: the dashboard's queries returned data from {sorted(nodes)} only")
    for h in ("h1", "h2", "h3"):
        check(json.loads((work / run / f"{h}.json").read_text())
              ["mempool_in_use_after_shutdown"] == 0, f"{run}: {h}'s mbufs not back")
    for s in ("s1", "s2", "s3"):
        check(json.loads((work / run / f"{s}.json").read_text())["mempool_in_use"] == 0,
              f"{run}: {s}'s mbufs not back")
sys.exit(1 if failures else 0)
PY
then :; else
  # The evidence: each process's report (fcswitch's after its stop, fchost's summary) and
  # anything it said about a crash.
  for log in "$work"/*/[sh][0-9].log; do
    echo "== $log"
    sed -n '/stopping$\|fatal signal/,$p' "$log" | head -60 || true
  done
  exit 1
fi
# Nothing left: sockets, DPDK runtime directories, Prometheus's data, processes.
left=$(ls "$work"/*/*.sock 2> /dev/null; ls -d "$work"/*/tsdb 2> /dev/null;
       ls -d /var/run/dpdk/fcring* 2> /dev/null) || true
[ -z "$left" ] || { echo "FAIL: left behind: $left"; exit 1; }
if pgrep -f "$work/" > /dev/null; then
  echo "FAIL: processes of the rehearsal still running: $(pgrep -af "$work/")"
  exit 1
fi
echo "rehearsal: PFC deadlocked, GFC held the ring at its stages without loss, six processes" \
  "scraped, nothing left behind"
