#!/usr/bin/env python3
"""PABO Fig. 9 in the lab: the moderate case of config/lab/pabo-tree.toml (bursts of 1500)
swept over θ (the share of frames bounced at least once; λ = 50) and over λ (the mean totalHop,
3 switches + 2 per bounce on this tree; θ = 0.8). Prints two tables.

usage: tools/pabo_sweep.py [FCLAB] [OUT_DIR]
"""
import json
import pathlib
import subprocess
import sys
import tempfile

ROOT = pathlib.Path(__file__).resolve().parent.parent
THETAS = [0.5, 0.6, 0.7, 0.8, 0.9, 0.95]
LAMBDAS = [0, 1, 5, 10, 20, 30, 50]


def run(fclab, out, *sets):
    args = [fclab, str(ROOT / "config/lab/pabo-tree.toml"), "--out", str(out), "--quiet",
            "--set", "flows.burst=1500"]
    for s in sets:
        args += ["--set", s]
    subprocess.run(args, check=True, stdout=subprocess.DEVNULL)
    flows = json.loads((out / "summary.json").read_text())["flows"]
    received = sum(f["received_packets"] for f in flows)
    bounced = sum(f["pabo"]["bounced_packets"] for f in flows)
    counts = [sum(f["pabo"]["bounce_counts"][i] for f in flows) for i in range(32)]
    mean_hops = sum((3 + 2 * i) * c for i, c in enumerate(counts)) / received
    lost = sum(f["sent_packets"] - f["received_packets"] for f in flows)
    return bounced / received, mean_hops, lost


def main():
    fclab = sys.argv[1] if len(sys.argv) > 1 else str(ROOT / "build/app/fclab")
    with tempfile.TemporaryDirectory() as tmp:
        out = pathlib.Path(sys.argv[2]) if len(sys.argv) > 2 else pathlib.Path(tmp)
        print("Fig. 9(a): θ against the share of frames bounced (λ = 50)")
        print(f"{'θ':>6} {'bounced %':>10} {'mean totalHop':>14} {'lost':>5}")
        for theta in THETAS:
            share, hops, lost = run(fclab, out / f"theta{theta}", f"pabo.theta={theta}")
            print(f"{theta:>6} {100 * share:>10.2f} {hops:>14.2f} {lost:>5}")
        print("Fig. 9(b): λ against the mean totalHop (θ = 0.8)")
        print(f"{'λ':>6} {'bounced %':>10} {'mean totalHop':>14} {'lost':>5}")
        for lam in LAMBDAS:
            share, hops, lost = run(fclab, out / f"lambda{lam}", f"pabo.lambda={lam}")
            print(f"{lam:>6} {100 * share:>10.2f} {hops:>14.2f} {lost:>5}")


if __name__ == "__main__":
    main()
