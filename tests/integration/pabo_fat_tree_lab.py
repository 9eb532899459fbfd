#!/usr/bin/env python3
"""PABO §VI in the lab (config/lab/pabo-fat-tree.toml, tools/pabo_fat_tree.py): the k = 4
fat-tree's 3 → 1, 6 → 1 and many-to-many scenarios, four rounds of 1 MiB replies each, with PABO
(window flows that never resend) and without (TCP Reno over drop-tail queues of 200).

- With PABO nothing is dropped or lost anywhere, no frame is sent twice, every flow completes.
- Without it the drops are all at the paper's congestion point (C1 for 3 → 1, S9 for 6 → 1,
  S11 for many-to-many) and Reno's retransmissions still deliver every byte of every flow.
- FCT (Fig. 14): a loss costs Reno a 1 s RTO: Reno's slowest flow takes longer than that,
  PABO's slowest a tenth of it, and PABO's mean is at least five times lower. (How many of
  Reno's 24 flows lose their window's tail, and wait, moves with the order frames meet in:
  12 to 20 of them in 6 → 1, a mean 10–17 times PABO's.)
- Bounces (Fig. 11): only C1 in 3 → 1; S9 the most in 6 → 1 and S12 none; S11 the most in
  many-to-many, with C1 and C2. Table II: no packet has maxBouncedDistance 2 or more, and the
  share at 1 is within 20 points of the paper's (the lab bounces more: docs/experiments/pabo.md explains why),
  the largest in many-to-many as in the paper.
- Fig. 12: with PABO a larger share arrives displaced than without, and no |d| exceeds the
  93-frame window. Reno reorders only where a loss has frames of its window behind it: a
  window that loses its whole tail is resent in order (6 → 1 may show none).
9 → 1 and 12 → 1 take longer; tools/pabo_fat_tree.py runs them.

usage: pabo_fat_tree_lab.py FCLAB SOURCE_DIR
"""
import pathlib
import sys
import tempfile

from script_checks import Checks

WINDOW_FRAMES = 93
RTO_S = 1.0  # Reno's minimum RTO (INET's floor, tools/pabo_fat_tree.py)
# Without PABO, the one switch that drops (§VI-C/D).
DROPS_AT = {"3to1": {"C1"}, "6to1": {"S9"}, "mtom": {"S11"}}


def main():
    fclab, source = sys.argv[1], pathlib.Path(sys.argv[2])
    sys.path.insert(0, str(source / "tools"))
    import pabo_fat_tree as tree  # noqa: E402 (the tool's runs and the paper's figures)

    checks = Checks()
    check = checks.expect

    bounced_share = {}
    with tempfile.TemporaryDirectory() as tmp:
        for name, drop_at in DROPS_AT.items():
            pabo = tree.run(fclab, name, True, pathlib.Path(tmp) / f"{name}-pabo")
            plain = tree.run(fclab, name, False, pathlib.Path(tmp) / f"{name}-plain")
            label = tree.LABELS[name]
            servers = sum(len(s) for s in tree.SCENARIOS[name].values())
            check(pabo["flows"] == 4 * servers and plain["flows"] == pabo["flows"],
                  f"{label}: {pabo['flows']} flows (4 rounds of {servers} replies)")

            # With PABO: no loss, no resend, every flow complete.
            check(pabo["dropped"] == 0 and pabo["lost"] == 0 and pabo["conserved"],
                  f"{label}, PABO: {pabo['dropped']} dropped, {pabo['lost']} lost")
            check(pabo["complete"] == pabo["flows"] and pabo["retransmissions"] == 0
                  and pabo["received"] == pabo["sent"],
                  f"{label}, PABO: {pabo['complete']} of {pabo['flows']} flows complete, "
                  f"{pabo['received']} of {pabo['sent']} frames, {pabo['retransmissions']} resent")

            # Without: drops only at the congestion point, Reno recovers every byte.
            where = set(plain["drops"])
            check(plain["dropped"] > 0 and where == drop_at,
                  f"{label}, Reno: {plain['dropped']} dropped at {sorted(where)} "
                  f"(paper: {tree.PAPER[name]['drop_at']})")
            check(plain["complete"] == plain["flows"] and plain["lost"] == 0
                  and plain["received"] == pabo["received"] and plain["retransmissions"] > 0,
                  f"{label}, Reno: {plain['complete']} of {plain['flows']} flows complete, "
                  f"{plain['received']} distinct frames after {plain['retransmissions']} resends")

            # Fig. 14: the FCT.
            check(pabo["fct_mean_s"] * 5 <= plain["fct_mean_s"]
                  and pabo["fct_max_s"] < RTO_S / 10 and plain["fct_max_s"] > RTO_S,
                  f"{label}: mean FCT {1e3 * pabo['fct_mean_s']:.1f} ms with PABO, "
                  f"{1e3 * plain['fct_mean_s']:.1f} ms with Reno; slowest "
                  f"{1e3 * pabo['fct_max_s']:.1f} ms, {1e3 * plain['fct_max_s']:.1f} ms")

            # Fig. 11: who bounces.
            b = pabo["bounces"]
            if name == "3to1":
                check(set(b) == {"C1"}, f"{label}: only C1 bounces ({sorted(b)})")
            elif name == "6to1":
                check(max(b, key=b.get) == "S9" and "S12" not in b and {"C1", "C4"} <= set(b),
                      f"{label}: S9 bounces the most, C1 and C4 too, S12 never ({b})")
            else:
                check(max(b, key=b.get) == "S11" and {"C1", "C2"} <= set(b),
                      f"{label}: S11 bounces the most, C1 and C2 too ({b})")

            # Table II: maxBouncedDistance.
            d = [100 * x / pabo["received"] for x in pabo["max_distance"]]
            paper = tree.PAPER[name]["bounced"]
            bounced_share[name] = d[1]
            check(d[2] == 0 and d[3] == 0 and abs(d[1] - paper) <= 20,
                  f"{label}: maxBouncedDistance 0/1/2+ = {d[0]:.2f}/{d[1]:.2f}/{d[2] + d[3]:.2f} "
                  f"% (paper {100 - paper:.2f}/{paper:.2f}/–)")

            # Fig. 12: displacement.
            check(pabo["displaced"] > plain["displaced"]
                  and 0 < pabo["max_displacement"] <= WINDOW_FRAMES,
                  f"{label}: displaced {100 * pabo['displaced'] / pabo['received']:.1f} % with "
                  f"PABO, {100 * plain['displaced'] / plain['received']:.1f} % with Reno; "
                  f"max |d| {pabo['max_displacement']} / {plain['max_displacement']}")
    check(max(bounced_share, key=bounced_share.get) == "mtom",
          f"many-to-many bounces the largest share, as in Table II ({bounced_share})")
    checks.finish()


if __name__ == "__main__":
    sys.exit(main())
