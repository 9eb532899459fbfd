#!/usr/bin/env python3
"""Pyrrha's testbed in the lab (config/lab/pyrrha-testbed.toml; Pyrrha §5.2, Fig. 8, 10, 24).

Leaf-spine of three ToRs and two cores; the incast S1, S2 → R1 and the vulnerable flow VS → VR,
which shares core S2's port towards R1's ToR with S2 → R1. Printed beside the paper (Fig. 10:
100 Gb/s links; the lab's are 10 Gb/s, so the paper's figures are given as shares of the line).

Pass criteria (issue 20):
- Fig. 10 order (S1, S2, VS): with Pyrrha the incast keeps >= 0.95 of R1's line and VS gets
  >= 0.5 of its line; no frame lost anywhere, none reordered; under PFC (the same file with
  `pyrrha.enabled=false`, `flow_control.engine=pfc`) VS is held back with the incast: Pyrrha
  gives it at least 1.3 times what PFC does.
- Fig. 24 order (S2, VS, S1): first core S2's port to the ToR is the root (S2 → R1 and VS → VR
  share it); when S1 starts, the ToR's port to R1 becomes the root and core S2, a false positive,
  merges into it (MERGE sent); afterwards the same throughput criteria hold, nothing is lost.

usage: pyrrha_testbed_lab.py FCLAB SOURCE_DIR
"""
import pathlib
import sys
import tempfile

from lab_run import run_fclab
from script_checks import Checks

LINE_BPS = 10e9
PAPER = {"pyrrha": {"incast": 1.0, "vs": 0.667}, "pfc": {"incast": 1.0, "vs": 0.40}}
PFC = ("pyrrha.enabled=false", "flow_control.engine=pfc")
# Fig. 24's order: S2 first, then VS, then S1.
LATE_ROOT = ('flows=[{from="L1h1", to="L3h1", priority=3, start="4ms"}, '
             '{from="L2h1", to="L3h1", priority=3, start="0ms"}, '
             '{from="L1h2", to="L3h2", priority=3, start="2ms"}]',)


def shares(summary):
    """(incast share of R1's line, VS's share of VR's line), over the last 20 % of the run."""
    tail = {f["id"]: f["tail_throughput_bps"] for f in summary["flows"]}
    return (tail[0] + tail[1]) / LINE_BPS, tail[2] / LINE_BPS


def lossless(summary):
    """Frames lost or reordered anywhere, and whether the frames balance."""
    lost = sum(f["lost_packets"] for f in summary["flows"])
    reordered = sum(f["reordered_packets"] for f in summary["flows"])
    return lost, reordered, summary["lossless_drops"], summary["conservation"]["holds"]


def pyrrha_sent(summary, node, kind):
    for s in summary.get("switches", []):
        if s["node"] == node:
            return s.get("pyrrha", {}).get("messages_sent", {}).get(kind, 0)
    return 0


def main():
    fclab, source = sys.argv[1], pathlib.Path(sys.argv[2])
    scenario = source / "config/lab/pyrrha-testbed.toml"
    checks = Checks()
    check = checks.expect
    with tempfile.TemporaryDirectory() as tmp:
        out = pathlib.Path(tmp)
        runs = {
            "pyrrha": run_fclab(fclab, scenario, out / "pyrrha", plots=False),
            "pfc": run_fclab(fclab, scenario, out / "pfc", *PFC, plots=False),
            "pyrrha-late-root": run_fclab(fclab, scenario, out / "late", *LATE_ROOT, plots=False),
        }
    print(f"{'run':<18} {'incast/line':>12} {'paper':>6} {'VS/line':>8} {'paper':>6}")
    for name, summary in runs.items():
        incast, vs = shares(summary)
        paper = PAPER.get(name, PAPER["pyrrha"])
        print(f"{name:<18} {incast:>12.3f} {paper['incast']:>6.3f} {vs:>8.3f} {paper['vs']:>6.3f}")

    for name in ("pyrrha", "pyrrha-late-root"):
        incast, vs = shares(runs[name])
        check(incast >= 0.95, f"{name}: the incast keeps {incast:.3f} of R1's line (>= 0.95)")
        check(vs >= 0.5, f"{name}: the vulnerable flow gets {vs:.3f} of its line (>= 0.5)")
        lost, reordered, drops, balanced = lossless(runs[name])
        check(lost == 0 and reordered == 0 and drops == 0 and balanced,
              f"{name}: {lost} lost, {reordered} reordered, {drops} lossless drops, "
              f"conservation balanced: {balanced}")
    _, vs_pfc = shares(runs["pfc"])
    _, vs_pyrrha = shares(runs["pyrrha"])
    check(vs_pyrrha >= 1.3 * vs_pfc,
          f"PFC holds the vulnerable flow back: {vs_pfc:.3f} of the line, Pyrrha {vs_pyrrha:.3f}")
    lost, _, drops, balanced = lossless(runs["pfc"])
    check(lost == 0 and drops == 0 and balanced, f"pfc: {lost} lost, {drops} lossless drops")
    merges = pyrrha_sent(runs["pyrrha-late-root"], "S2", "merge")
    check(merges >= 1, f"late root: core S2, a false-positive root, sent {merges} MERGE")
    checks.finish()


if __name__ == "__main__":
    sys.exit(main())
