#!/usr/bin/env python3
"""ECN marking on the lab's switches (config/lab/gfc-ring.toml, 5 ms, virtual time): [ecn] is a
section every switch of a scenario takes, as [flow_control] is. The lab's hosts send Not-ECT
frames, so the ring queues count `not_ect` past K and mark nothing; every switch port reports
its counters and no host port does; nothing is dropped for ECN (the frames balance); and with
a probability band the draws are seeded, so two runs count the same.

usage: ecn_lab.py FCLAB SOURCE_DIR
"""
import json
import pathlib
import subprocess
import sys
import tempfile

STEP = ["ecn.queues=[3]", "ecn.k_min=40KB", "ecn.k_max=40KB"]  # DCTCP's K
BAND = ["ecn.queues=[3]", "ecn.k_min=5KB", "ecn.k_max=200KB", "ecn.p_max=0.2"]  # DCQCN §3.1


def run(fclab, scenario, out, sets):
    args = [fclab, scenario, "--out", str(out), "--quiet", "--no-plots", "--set", "lab.duration=5ms"]
    for s in sets:
        args += ["--set", s]
    subprocess.run(args, check=True, stdout=subprocess.DEVNULL)
    return json.loads((out / "summary.json").read_text())


def ecn_by_port(summary):
    return {(p["node"], p["port"]): p.get("ecn") for p in summary["ports"]}


def main():
    fclab, source = sys.argv[1], pathlib.Path(sys.argv[2])
    ring = str(source / "config/lab/gfc-ring.toml")
    with tempfile.TemporaryDirectory() as tmp:
        tmp = pathlib.Path(tmp)
        step = run(fclab, ring, tmp / "step", STEP)
        band = [ecn_by_port(run(fclab, ring, tmp / f"band{i}", BAND)) for i in (1, 2)]
    ports = ecn_by_port(step)
    switches = {k: v for k, v in ports.items() if k[0].startswith("S")}
    total = {name: sum(v[name] for v in switches.values() if v)
             for name in ("marked", "not_ect", "ce_arrived")}
    chosen = sum(v["not_ect"] for v in band[0].values() if v)
    conservation = step["conservation"]
    results = [
        (all(v is not None for v in switches.values()),
         f"every switch port reports ECN counters: {switches}"),
        (all(v is None for k, v in ports.items() if k[0].startswith("H")),
         "no host port does (hosts do not mark)"),
        (total["not_ect"] > 0 and total["marked"] == 0 and total["ce_arrived"] == 0,
         f"the ring's queues passed K with Not-ECT frames only: {total}"),
        (conservation["dropped"] == 0 and step["lossless_drops"] == 0,
         f"nothing dropped for ECN: {conservation}, lossless drops {step['lossless_drops']}"),
        (0 < chosen < total["not_ect"],
         f"the band chose {chosen} packets, fewer than the step's {total['not_ect']}"),
        (band[0] == band[1], "two runs of the band count the same: the draws are seeded"),
    ]
    for ok, what in results:
        print(("ok   " if ok else "FAIL ") + what)
    failed = sum(not ok for ok, _ in results)
    print(f"ecn_lab: {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
