#!/usr/bin/env python3
"""Pyrrha's IQ usage under stress (Pyrrha §4.5, Fig. 7) in the lab: "(m − 1) out of m ToRs send
traffic simultaneously to the left 1/m of the ToRs … each host sends 40 one-BDP flows", on a
fat-tree of k pods, for several m. Per m it prints how many congestion roots there were at once
and how many isolation queues (IQs) the switches needed: the paper reports 6–20 IQs at k = 12,
"approximately proportional to the number of pods k".

The scenario is config/lab/pyrrha-iq-usage.toml (k = 4, m = 2, as written). For each (k, m) this
script writes it again with the fat-tree of k pods and the burst's destinations (`to`) set to the
hosts of ToRs T1…T(k²/(2m)), sizes the run to the burst (the destination hosts' links must carry
everything the senders send), runs fclab and reads its outputs:

  roots at once     the most egress ports acting as congestion roots at one time over the whole
                    network (pyrrha.csv: the sum of `self_nominated_ports` over the switches at
                    each sample, every [lab] sample_interval)
  table roots       the most roots one switch's table held at once (max_roots_active: exact)
  IQs a switch      the most IQs in use at once at one switch, over its egress ports: the most
                    of any switch, and the mean over the switches that used any (exact)
  IQs a port        the most IQs in use at once on one egress port (exact)
  exhausted         roots that found no free IQ and shared one (Pyrrha §4.5; 100 IQs a port)
  left              roots and IQs still in the tables at the end (every tree released: 0/0)
  drops, balanced   lossless drops, and frame conservation (generated = received + dropped)

usage: tools/pyrrha_iq_usage.py [--fclab FCLAB] [--k K] [--m M]... [--seed N] [--out DIR]
                                [--jobs N] [--json FILE]
"""
import argparse
import collections
import concurrent.futures
import csv
import json
import math
import pathlib
import re
import subprocess
import sys
import tempfile

ROOT = pathlib.Path(__file__).resolve().parent.parent
SCENARIO_FILE = ROOT / "config/lab/pyrrha-iq-usage.toml"
PAPER = "Pyrrha Fig. 7 (k = 12): 6–20 IQs, about proportional to k"

FLOWS_PER_HOST = 40     # the paper's
FLOW_BYTES = 25_000     # the scenario's one BDP
LINK_BPS = 10e9         # the scenario's rate
# The run lasts the time the destination hosts' links need for the whole burst, times this,
# plus a margin: hot destinations (drawn uniformly) take longer than the mean one.
DURATION_FACTOR = 1.6
DURATION_MARGIN_MS = 1.0


def destination_hosts(k, m):
    tors = k * k // 2
    if tors % m:
        raise ValueError(f"m = {m} does not divide the {tors} ToRs of fat-tree:{k}")
    return [f"T{t}h{j}" for t in range(1, tors // m + 1) for j in range(1, k // 2 + 1)]


def duration_ms(k, m):
    hosts = k ** 3 // 4
    receivers = hosts // m
    burst_bytes = (hosts - receivers) * FLOWS_PER_HOST * FLOW_BYTES
    drain_s = burst_bytes * 8 / (receivers * LINK_BPS)
    return math.ceil((drain_s * 1e3 * DURATION_FACTOR + DURATION_MARGIN_MS) * 10) / 10


def scenario_text(k, m):
    """The scenario file with fat-tree:k and the destinations of m; the rest as written."""
    text = SCENARIO_FILE.read_text()
    names = ", ".join(f'"{n}"' for n in destination_hosts(k, m))
    text, n_to = re.subn(r"^to = \[[^\]]*\]", f"to = [{names}]", text, flags=re.M)
    text, n_spec = re.subn(r'^spec = "fat-tree:\d+"', f'spec = "fat-tree:{k}"', text, flags=re.M)
    text, n_dur = re.subn(r'^duration = "[^"]*"', f'duration = "{duration_ms(k, m)}ms"', text,
                          flags=re.M)
    if (n_to, n_spec, n_dur) != (1, 1, 1):
        raise SystemExit(f"{SCENARIO_FILE}: expected one `to`, `spec` and `duration` line to set")
    return text


def run(fclab, k, m, seed, out_dir):
    out_dir.mkdir(parents=True, exist_ok=True)
    scenario = out_dir / "scenario.toml"
    scenario.write_text(scenario_text(k, m))
    # Large fat-trees need more than fclab's default EAL memory and pool (docs/lab-sweeps.md: k = 16).
    mbufs = 65535 if k <= 6 else 262143
    command = [str(fclab), str(scenario), "--out", str(out_dir), "--quiet", "--no-plots",
               "--set", f"lab.seed={seed}", "--set", f"lab.mbufs={mbufs}"]
    if k > 6:
        command += ["--", "-m", "8192"]
    done = subprocess.run(command, capture_output=True, text=True)
    if done.returncode != 0:
        raise SystemExit(f"fclab failed for k = {k}, m = {m}:\n{done.stdout}{done.stderr}")
    return read_run(k, m, out_dir)


def read_run(k, m, out_dir):
    summary = json.loads((out_dir / "summary.json").read_text())
    pyrrha = [s["pyrrha"] for s in summary["switches"] if "pyrrha" in s]
    used = [p["max_iqs_in_use"] for p in pyrrha if p["max_iqs_in_use"] > 0]
    roots_at = collections.Counter()
    with open(out_dir / "pyrrha.csv") as f:
        for row in csv.DictReader(f):
            roots_at[row["time_s"]] += int(row["self_nominated_ports"])
    flows = summary["flows"]
    conservation = summary["conservation"]
    hosts = k ** 3 // 4
    return {
        "k": k,
        "m": m,
        "senders_fraction": (m - 1) / m,
        "senders": hosts - hosts // m,
        "receivers": hosts // m,
        "duration_ms": summary["duration_s"] * 1e3,
        "roots_at_once": max(roots_at.values(), default=0),
        "max_table_roots": max((p["max_roots_active"] for p in pyrrha), default=0),
        "max_iqs_switch": max(used, default=0),
        "mean_iqs_switch": sum(used) / len(used) if used else 0.0,
        "switches_with_iqs": len(used),
        "switches": len(pyrrha),
        "max_iqs_port": max((p["max_iqs_on_a_port"] for p in pyrrha), default=0),
        "iq_exhaustion": sum(p["iq_exhaustion"] for p in pyrrha),
        # What the tables still hold at the end, every flow delivered: the trees should be gone.
        "roots_left": sum(p["roots_active"] + p["self_nominated_ports"] for p in pyrrha),
        "iqs_left": sum(p["iqs_in_use"] for p in pyrrha),
        "lossless_drops": summary["lossless_drops"],
        "balanced": conservation["holds"],
        "flows": len(flows),
        "flows_done": sum(1 for f in flows if f.get("fct_s") is not None),
        "packet_hops": summary["packet_hops"],
    }


def print_table(rows):
    print(PAPER)
    print(f"{'k':>3} {'m':>3} {'senders':>9} {'recv':>5} {'ms':>6} {'roots at once':>13} "
          f"{'table roots':>11} {'IQs a switch (mean)':>19} {'IQs a port':>10} "
          f"{'exhausted':>9} {'left':>7} {'drops':>5} {'balanced':>8} {'flows done':>13}")
    for r in rows:
        print(f"{r['k']:>3} {r['m']:>3} {r['senders']:>4} {r['senders_fraction']:>4.2f} "
              f"{r['receivers']:>5} {r['duration_ms']:>6.1f} {r['roots_at_once']:>13} "
              f"{r['max_table_roots']:>11} "
              f"{r['max_iqs_switch']:>11} ({r['mean_iqs_switch']:>5.1f}) "
              f"{r['max_iqs_port']:>10} {r['iq_exhaustion']:>9} "
              f"{r['roots_left']:>3}/{r['iqs_left']:<3} {r['lossless_drops']:>5} "
              f"{'yes' if r['balanced'] else 'NO':>8} "
              f"{r['flows_done']:>6}/{r['flows']:<6}")


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--fclab", default=str(ROOT / "build/app/fclab"))
    parser.add_argument("--k", type=int, default=12, help="pods of the fat-tree (default 12)")
    parser.add_argument("--m", type=int, action="append",
                        help="1/m of the ToRs receive (repeat; default: 2 3 4 6 12 at k = 12, "
                             "else 2 4 and k²/2)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--out", help="keep each run's outputs here (default: a temporary "
                                      "directory)")
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument("--json", help="write the rows here too")
    args = parser.parse_args()
    if args.k < 2 or args.k % 2:
        parser.error("k must be even and at least 2")
    ms = args.m or ([2, 3, 4, 6, 12] if args.k == 12 else [2, 4, args.k * args.k // 2])
    for m in ms:
        try:
            destination_hosts(args.k, m)
        except ValueError as error:
            parser.error(str(error))
    with tempfile.TemporaryDirectory() as scratch:
        base = pathlib.Path(args.out or scratch)
        with concurrent.futures.ThreadPoolExecutor(max_workers=args.jobs) as pool:
            futures = [pool.submit(run, args.fclab, args.k, m, args.seed,
                                   base / f"k{args.k}-m{m}-seed{args.seed}") for m in ms]
            rows = [f.result() for f in futures]
    print_table(rows)
    if args.json:
        pathlib.Path(args.json).write_text(json.dumps(rows, indent=1) + "\n")
    bad = [r for r in rows if r["lossless_drops"] or not r["balanced"]]
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
