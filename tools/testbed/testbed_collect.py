"""Joins what the testbed's processes leave — fchost's summary.json per host (flows sent and
received, host/host_summary.h) and fcswitch's --report-json per switch (drops, flow control,
the stall at the stop: node/stall_watch.h) — into one table and a verdict per run; and asks
Prometheus the Grafana dashboard's queries, as of a moment of the run.

  testbed_collect.py dashboard PROMETHEUS_URL DASHBOARD.json OUT.json [AT_UNIX_S]
  testbed_collect.py scraped PROMETHEUS_URL [TIMEOUT_S]  # waits until every target is up
  testbed_collect.py table RUN_DIR [LINK_BPS]      # writes RUN_DIR/verdict.json, prints the table
  testbed_collect.py verdicts RUN_DIR...           # one line per run
  testbed_collect.py compare RUN_DIR...            # the processes beside fclab's run of the
                                                   # same ring (RUN_DIR/lab): agreement.json

Verdicts: "deadlock" — every switch stalled at the stop (packets held, nothing moving for at
least 1 s) or at a closed gate then, and no flow received more than 1 % of the link rate over the last 20 % of the run;
"moving" — every flow received something over the last 20 % and no switch stalled at the
stop; else "neither". The lab's: "deadlock" where fclab found one, else as the processes'.

The host ingress (each switch's port h, where its host's flow enters) has a steady occupancy:
the mean over the last 20 % of the run of the switch's [trace] (fcswitch) or of queues.csv's
samples (fclab), the figure the lab demo's table gives.
"""
import csv
import json
import pathlib
import signal
import sys
import time
import urllib.parse
import urllib.request

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent))
import testbed_configs as tc  # noqa: E402

# The lab and the processes agree (GFC §6.1's ring, both switch models) when their verdicts
# are the same, each flow's rate over the last 20 % is within RATE_TOLERANCE of the lab's (or
# both below 1 % of the link rate: a deadlock), each host ingress's steady occupancy within
# OCCUPANCY_TOLERANCE of the lab's, and neither lost a lossless frame.
RATE_TOLERANCE = 0.10
OCCUPANCY_TOLERANCE = 0.15


def load(path):
    return json.loads(pathlib.Path(path).read_text())


def dashboard(prometheus, board, out, at=None):
    """Each panel target of the dashboard, its variables set to match everything: how many
    series it returns, from which nodes; evaluated at Unix time `at` (three quarters into the
    run, asked once the run is over, so that the queries neither share the run's CPUs nor miss
    a node that has stopped), or now."""
    def query(expr):
        url = f"{prometheus}/api/v1/query?query={urllib.parse.quote(expr)}"
        if at is not None:
            url += f"&time={float(at):.3f}"
        with urllib.request.urlopen(url, timeout=10) as r:
            return json.load(r)["data"]["result"]

    panels = load(board)["panels"]
    answers = []
    for panel in panels:
        for target in panel.get("targets", []):
            expr = target["expr"]
            for var, value in (("$__rate_interval", "5s"), ("$node", ".*"), ("$port", ".*"),
                               ("$prio", ".*")):
                expr = expr.replace(var, value)
            result = query(expr)
            nodes = sorted({s["metric"].get("node", "") for s in result} - {""})
            answers.append({"panel": panel.get("title", ""), "expr": target["expr"],
                            "series": len(result), "nodes": nodes})
    pathlib.Path(out).write_text(json.dumps(answers, indent=1))
    with_data = [a for a in answers if a["series"]]
    nodes = sorted({n for a in answers for n in a["nodes"]})
    print(f"dashboard: {len(with_data)} of {len(answers)} queries returned data, from "
          f"{', '.join(nodes) or 'no node'}")
    # Why a node would be missing: each target's scrapes in the 10 s before, succeeded of tried
    # (scrapes.json beside OUT.json).
    tried = {s["metric"]["instance"]: int(float(s["value"][1]))
             for s in query("count_over_time(up[10s])")}
    good = {s["metric"]["instance"]: int(float(s["value"][1]))
            for s in query("sum_over_time(up[10s])")}
    pathlib.Path(out).with_name("scrapes.json").write_text(json.dumps(
        {i: {"tried": n, "succeeded": good.get(i, 0)} for i, n in sorted(tried.items())}))


def scraped(prometheus, timeout_s=30):
    """Waits until Prometheus has scraped every target of its config and found it up, so that
    the dashboard covers a run from its time zero: Prometheus applies its targets only a few
    seconds after it starts, and a target scraped before its process listened is down until
    the next scrape. False, with the targets not up and why, after timeout_s."""
    deadline = time.monotonic() + float(timeout_s)
    while True:
        try:
            with urllib.request.urlopen(f"{prometheus}/api/v1/targets?state=active",
                                        timeout=5) as r:
                targets = json.load(r)["data"]["activeTargets"]
            problem = "no target yet"
        except OSError as e:
            targets, problem = [], f"not answering ({e})"
        down = [t for t in targets if t["health"] != "up"]
        if targets and not down:
            return True
        if time.monotonic() > deadline:
            if targets:
                problem = "; ".join(f"{t['scrapeUrl']} {t['health']} {t.get('lastError', '')}"
                                    for t in down)
            print(f"Prometheus at {prometheus}, after {timeout_s} s: {problem}", file=sys.stderr)
            return False
        time.sleep(0.1)


def signal_name(status):
    """" (SIGSEGV)" for a shell's exit status 139: 128 + the signal that ended the process."""
    try:
        return f" ({signal.Signals(status - 128).name})" if status > 128 else ""
    except ValueError:
        return ""


def trace_steady_bytes(trace, port, prio, run_s, tail_s):
    """The mean ingress occupancy of (port, prio) in a switch's [trace] CSV over the tail_s
    before run_s (the report's run_seconds: from the lcores' start, as the trace's time)."""
    samples = [int(r["ingress_bytes"]) for r in csv.DictReader(open(trace))
               if r["port"] == port and int(r["prio"]) == prio
               and run_s - tail_s <= float(r["time_s"]) <= run_s]
    return sum(samples) / len(samples) if samples else None


def verdict_of(stalled, tails, link_bps, held=None):
    """`held`: per switch, stalled or at a closed gate at the stop (a deadlocked switch whose
    other ports moved a frame in its last second still holds the ring)."""
    locked = held if held is not None else stalled
    if locked and all(locked) and all(t < 0.01 * link_bps for t in tails):
        return "deadlock"
    if tails and all(t > 0 for t in tails) and not any(stalled):
        return "moving"
    return "neither"


def table(run_dir, link_bps=tc.RING_BPS):
    run = pathlib.Path(run_dir)
    hosts = {p.stem.upper(): load(p) for p in sorted(run.glob("h[0-9]*.json"))}
    switches = {p.stem.upper(): load(p) for p in sorted(run.glob("s[0-9]*.json"))}
    sent, received = {}, {}
    for name, h in hosts.items():
        for f in h["flows"]:
            if f.get("sent_packets"):
                sent[f["id"]] = (name, f)
            if f.get("received_packets"):
                received[f["id"]] = (name, f)
    lines = ["flow  from → to   sent MB  received MB  last 20 % Mb/s  lost  reordered  "
             "delay ms (mean)  FCT ms"]
    tails = []
    for fid in sorted(set(sent) | set(received)):
        src, s = sent.get(fid, ("?", {}))
        dst, r = received.get(fid, (s.get("to", "?"), {}))
        tail = r.get("tail_throughput_bps", 0.0)
        tails.append(tail)
        delay = r.get("delay_mean_s")
        # A sized flow received whole: its last arrival from its start, on the hosts' common
        # time zero (fchost --start-at).
        fct = "-"
        if s.get("size_bytes") and r.get("received_bytes", 0) >= s["size_bytes"]:
            fct = f"{(r['last_arrival_s'] - s['start_s']) * 1e3:.2f}"
        lines.append(f"{fid:>4}  {src} → {dst:<4} {s.get('sent_bytes', 0) / 1e6:8.1f} "
                     f"{r.get('received_bytes', 0) / 1e6:12.1f} {tail / 1e6:15.1f} "
                     f"{r.get('lost_packets', 0):5} {r.get('reordered_packets', 0):10} "
                     f"{delay * 1e3 if delay is not None else float('nan'):16.2f}  {fct:>6}")
        if s and not r:
            lines.append(f"      {s['sent_bytes']} bytes sent, none received")
    lines.append("switch  stalled at stop (s)  longest stall (s)  closed gates at stop   "
                 "lossless drops  pause/stage frames sent")
    stalled = []
    held = []
    lossless = 0
    for name, sw in switches.items():
        stall = sw.get("stall", {})
        at_stop = stall.get("at_stop_s", 0.0)
        stalled.append(at_stop >= 1.0)
        held.append(at_stop >= 1.0 or bool(stall.get("blocked_at_stop")))
        drops = sum(p["drops"].get("lossless_overflow", 0) for p in sw["ports"])
        lossless += drops
        gates = " ".join(f"{q['port']}/{q['prio']}" for q in stall.get("blocked_at_stop", []))
        frames = sum(p.get("pfc_frames_sent", 0) + p.get("credit_frames_sent", 0)
                     for p in sw["ports"])
        lines.append(f"{name:<7} {at_stop:19.1f} {stall.get('longest_s', 0.0):18.1f}  "
                     f"{gates or '-':<21} {drops:14} {frames:24}")
    for h in hosts.values():
        lossless += h.get("lossless_drops", 0)
    verdict = verdict_of(stalled, tails, link_bps, held)
    # The host ingress of each switch that traced it, over the hosts' last 20 %.
    duration = max((h.get("duration_s", 0.0) for h in hosts.values()), default=0.0)
    steady = {}
    for name, sw in switches.items():
        trace = run / f"{name.lower()}_trace.csv"
        if trace.exists() and duration:
            steady[name] = trace_steady_bytes(trace, "h", 3, sw["run_seconds"], 0.2 * duration)
    if steady:
        lines.append("host ingress, steady KB (last 20 %): " + "  ".join(
            f"{n} {b / 1e3:.0f}" if b is not None else f"{n} -" for n, b in steady.items()))
    lines.append(f"verdict: {verdict}; lossless drops {lossless}")
    # How each process ended (testbed_rehearsal.sh's exit_status: name and status a line).
    exits = {}
    if (run / "exit_status").exists():
        for line in (run / "exit_status").read_text().split("\n"):
            if line.strip():
                name, status = line.split()
                exits[name] = int(status)
    bad = [f"{n} {s}{signal_name(s)}" for n, s in sorted(exits.items()) if s]
    if exits:
        lines.append("exit statuses: " + (", ".join(bad) if bad else "all 0"))
    dash = run / "dashboard.json"
    if dash.exists():
        answers = load(dash)
        lines.append(f"Prometheus: {sum(1 for a in answers if a['series'])} of {len(answers)} "
                     f"dashboard queries returned data, from "
                     f"{', '.join(sorted({n for a in answers for n in a['nodes']}))}")
    scrapes = run / "scrapes.json"
    if scrapes.exists():
        lines.append("scrapes in the 10 s before, succeeded of tried: " + ", ".join(
            f"{i} {s['succeeded']}/{s['tried']}" for i, s in load(scrapes).items()))
    (run / "verdict.json").write_text(json.dumps(
        {"verdict": verdict, "lossless_drops": lossless, "tail_bps": tails,
         "stalled_at_stop": stalled, "exits": exits, "host_ingress_steady_bytes": steady},
        indent=1))
    print("\n".join(lines))
    return verdict


def verdicts(run_dirs):
    print("run            verdict    lossless drops  flows' last 20 % (Mb/s)")
    for d in run_dirs:
        v = load(pathlib.Path(d) / "verdict.json")
        print(f"{pathlib.Path(d).name:<14} {v['verdict']:<10} {v['lossless_drops']:14}  "
              f"{' '.join(f'{t / 1e6:.0f}' for t in v['tail_bps'])}")


def lab_side(summary, link_bps):
    """fclab's summary.json in the collector's terms: verdict, flow rates (in flow order),
    each switch's host ingress steady occupancy, lossless drops."""
    tails = [f["tail_throughput_bps"] for f in summary["flows"]]
    if summary["deadlock"]["detected"]:
        verdict = "deadlock"
    else:
        verdict = verdict_of([False], tails, link_bps)
    steady = {q["node"]: q["steady_ingress_bytes"] for q in summary["queues"]
              if q["port"] == "h" and q["prio"] == 3}
    return {"verdict": verdict, "tail_bps": tails, "host_ingress_steady_bytes": steady,
            "lossless_drops": summary["lossless_drops"]}


def within(real, lab, tolerance, floor):
    """real within `tolerance` of lab, or both below `floor`."""
    if real is None:
        return False
    return (real < floor and lab < floor) or abs(real - lab) <= tolerance * lab


def compare(run_dirs, link_bps=tc.RING_BPS):
    """Each run's processes against fclab's run of the same scenario; prints a table and
    writes RUN_DIR/agreement.json (agree, and what differs). Returns True if all agree."""
    print("run            side   verdict    lossless  flows' last 20 % (Mb/s)  "
          "host ingress steady (KB)")
    every = True
    for d in run_dirs:
        run = pathlib.Path(d)
        real = load(run / "verdict.json")
        lab = lab_side(load(run / "lab" / "summary.json"), link_bps)
        differs = []
        if real["verdict"] != lab["verdict"]:
            differs.append(f"verdict: {real['verdict']} here, {lab['verdict']} in the lab")
        for side in (real, lab):
            if side["lossless_drops"]:
                differs.append(f"{side['lossless_drops']} lossless drops "
                               f"({'lab' if side is lab else 'processes'})")
        if len(real["tail_bps"]) != len(lab["tail_bps"]):
            differs.append(f"{len(real['tail_bps'])} flows here, {len(lab['tail_bps'])} in the lab")
        for i, (r, l) in enumerate(zip(real["tail_bps"], lab["tail_bps"])):
            if not within(r, l, RATE_TOLERANCE, 0.01 * link_bps):
                differs.append(f"flow {i + 1}: {r / 1e6:.1f} Mb/s here, {l / 1e6:.1f} in the lab")
        for name, l in lab["host_ingress_steady_bytes"].items():
            r = real["host_ingress_steady_bytes"].get(name)
            # A floor of one frame: an empty ingress is empty on both sides.
            if not within(r, l, OCCUPANCY_TOLERANCE, 1518):
                differs.append(f"{name}'s host ingress: "
                               f"{'-' if r is None else f'{r / 1e3:.0f}'} KB here, "
                               f"{l / 1e3:.0f} KB in the lab")
        for label, side in (("real", real), ("lab", lab)):
            print(f"{run.name:<14} {label:<6} {side['verdict']:<10} {side['lossless_drops']:8}  "
                  f"{' '.join(f'{t / 1e6:5.1f}' for t in side['tail_bps']):<24} "
                  + " ".join("-" if b is None else f"{b / 1e3:5.0f}"
                             for b in side["host_ingress_steady_bytes"].values()))
        print(f"{'':<14} {'agree' if not differs else 'differ: ' + '; '.join(differs)}")
        (run / "agreement.json").write_text(json.dumps(
            {"agree": not differs, "differs": differs, "real": real, "lab": lab}, indent=1))
        every = every and not differs
    return every


if __name__ == "__main__":
    if len(sys.argv) >= 5 and sys.argv[1] == "dashboard":
        dashboard(*sys.argv[2:6])
    elif len(sys.argv) >= 3 and sys.argv[1] == "scraped":
        sys.exit(0 if scraped(*sys.argv[2:4]) else 1)
    elif len(sys.argv) >= 3 and sys.argv[1] == "table":
        table(sys.argv[2], float(sys.argv[3]) if len(sys.argv) > 3 else tc.RING_BPS)
    elif len(sys.argv) >= 3 and sys.argv[1] == "verdicts":
        verdicts(sys.argv[2:])
    elif len(sys.argv) >= 3 and sys.argv[1] == "compare":
        sys.exit(0 if compare(sys.argv[2:]) else 1)
    else:
        sys.exit(__doc__)
