#!/usr/bin/env python3
"""Pyrrha §6's incastmix in the lab (config/lab/pyrrha-incastmix.toml, tools/pyrrha_incastmix.py):
web-search background at load 0.8 and periodic incasts to L1h1 at load 0.5, window flows, on a
leaf-spine of 4 ToRs, 4 cores and 32 hosts; Pyrrha against PFC on the same flows. Two incast
degrees, each under both schemes, 16 ms of arrivals in 20 ms runs (four lab runs, two at a
time, ~40 s of CPU):

- the file's 24-to-1 (one flow per host of the other racks);
- the paper's five flows per sender host, 120-to-1 (--paper-degree), PFC's XOFF scaled with
  the incast as the file's is.

Checked under both schemes in both: no lossless drop, frames balanced, nothing lost, no
deadlock, and no frame reordered (Pyrrha's IQs and tiers keep each flow's order).

Pyrrha acts: the incast's ToR L1 sends PAUSE (a self-nominated root), the cores relay it, hosts
are paused, no switch runs out of IQs.

FCTs are the tool's: over the flows of a class Pyrrha completed, PFC's open ones at their age at
the end (a lower bound of their FCT), so every figure of PFC's is at most what it would be.

120-to-1 shows the paper's effect (Fig. 11, 14). Under PFC that incast (6.4 MB, 5 ms of
L1h1's line) holds the cores' ports to L1 long enough that the vulnerable flows' backlog
spreads the pauses to the hosts of every rack, and PFC leaves many flows open at the end.
Checked: the vulnerable flows' average FCT at least 42.8 % lower (measured, seeds 1–4: −77 …
−82 %); the incast's average and p99 not worse, every incast flow complete under Pyrrha; the
destination ToR's maximum buffer at least 1.8× lower (4.6 … 5.4×). The p99 claim (≥ 1.6×)
is checked on the vulnerable flows under 100 KB (30 … 44×): over all of them PFC's p99 is the
age of its stragglers, bounded by the run's length, so the lower bound shows only > 1 in 20 ms
(1.2 … 1.7×; 1.4 … 2.1× in the file's 30 ms).

24-to-1 does not meet the paper's figures, and cannot: Pyrrha takes away all the harm the
incast does — the vulnerable flows' FCT is that of the same flows with no incast at all
(tools/pyrrha_incastmix.py --no-incast-baseline) — but that harm is smaller than the paper's.
Its incast is 1.27 MB, 0.76 of a mean web-search flow and 1 ms of the destination's line; the
paper's is 36.8 MB, 22 mean flows, 2.9 ms. Most of a vulnerable flow's FCT is its own size over
a destination link loaded to 0.8, which no flow control changes. Checked, from seeds 1–4 at
20 ms and 30 ms (docs/experiments/pyrrha.md):
- the vulnerable flows' average FCT at least 10 % lower (measured −15 … −19 %; the paper
  ≥ −42.8 %), those under 100 KB, where HOL blocking is most of the FCT, at least 20 %
  (−27 … −55 %);
- their p99 not more than 5 % higher (measured 1.0 … 1.2× lower; paper ≥ 1.6×); the background
  flows' average not more than 2 % higher (measured 2 … 13 % lower);
- the incast's p99 within 2 % of PFC's (the destination's line drains it either way) and its
  average within 15 % (measured +10 … +12 %: Pyrrha's pauses, per (root, ingress) at every
  hop, serve the incast's flows in turn rather than in their order of arrival at one FIFO; each
  frame's delay is lower).

usage: pyrrha_incastmix_lab.py FCLAB SOURCE_DIR [RUNS_DIR]

RUNS_DIR: the same runs made already, by tools/reproduce.sh --quick (its runs/pyrrha-incastmix,
with 24-to-1/ and 120-to-1/ from the tool's --out): checked there instead of run again
(tests/integration/reproduce_quick.sh).
"""
import pathlib
import sys
import tempfile

from script_checks import Checks

ARRIVALS_MS, DURATION_MS = 16, 20


def switch_sent(summary, prefix, kind):
    return sum(s["pyrrha"]["messages_sent"][kind] for s in summary["switches"]
               if s["node"].startswith(prefix))


def main():
    fclab, source = sys.argv[1], pathlib.Path(sys.argv[2])
    sys.path.insert(0, str(source / "tools"))
    import pyrrha_incastmix as mix  # noqa: E402 (the tool's runs and figures)

    checks = Checks()
    check = checks.expect
    spec = mix.scenario()
    destination = mix.incast_destination(spec)
    schemes = list(mix.SCHEMES)
    seed = spec["lab"]["seed"]
    degrees = {"24-to-1": None, f"{mix.PAPER_DEGREE_SENDERS}-to-1": mix.PAPER_DEGREE_SENDERS}
    figures = {}
    made = pathlib.Path(sys.argv[3]) if len(sys.argv) > 3 else None
    with tempfile.TemporaryDirectory() as tmp:
        for name, senders in degrees.items():
            if made:
                runs = mix.load_all(made / name, [seed], schemes)
            else:
                runs = mix.run_all(fclab, pathlib.Path(tmp) / name, [seed], schemes, jobs=2,
                                   senders=senders, arrivals_ms=ARRIVALS_MS,
                                   duration_ms=DURATION_MS)
            res = mix.results(runs, [seed], schemes, destination)
            print(f"== {name}")
            print(mix.report(res, schemes), flush=True)
            figures[name] = (res, {s: runs[(seed, s)][0] for s in schemes})

    for name, (res, summaries) in figures.items():
        for s in schemes:
            h = res["health"][s]
            check(h["lossless_drops"] == 0 and h["balanced"] and h["lost"] == 0
                  and not h["deadlock"],
                  f"{name}, {s}: {h['lossless_drops']} lossless drops, frames balanced: "
                  f"{h['balanced']}, {h['lost']} lost, deadlock: {h['deadlock']}")
            check(h["reordered"] == 0, f"{name}, {s}: {h['reordered']} frames reordered")
        py = summaries["pyrrha"]
        l1, cores = switch_sent(py, "L1", "pause"), switch_sent(py, "S", "pause")
        exhausted = sum(s["pyrrha"]["iq_exhaustion"] for s in py["switches"])
        check(l1 > 0 and cores > 0 and res["health"]["pyrrha"]["pyrrha_host_pauses"] > 0
              and exhausted == 0,
              f"{name}: Pyrrha acts — L1 sent {l1} PAUSE, the cores {cores}, hosts received "
              f"{res['health']['pyrrha']['pyrrha_host_pauses']}; IQ exhaustion {exhausted}")

    def fct(res, scheme, row, what):
        return res["fct"][scheme][row][what]

    def reduction(res, row):
        return 1 - fct(res, "pyrrha", row, "avg_s") / fct(res, "pfc", row, "avg_s")

    def p99_ratio(res, row):
        return fct(res, "pfc", row, "p99_s") / fct(res, "pyrrha", row, "p99_s")

    # The file's 24-to-1: what the lab measures (docstring), short of the paper.
    res, _ = figures["24-to-1"]
    v, small = reduction(res, "vulnerable"), reduction(res, "vulnerable < 100 KB")
    check(v >= 0.10, f"24-to-1: vulnerable flows' average FCT {100 * v:.1f} % lower (>= 10 %; "
                     "paper >= 42.8 %)")
    check(small >= 0.20, f"24-to-1: vulnerable flows under 100 KB {100 * small:.1f} % lower "
                         "(>= 20 %)")
    ratio = p99_ratio(res, "vulnerable")
    check(ratio >= 0.95, f"24-to-1: vulnerable p99 {ratio:.2f}x lower (>= 0.95; paper >= 1.6)")
    bg = reduction(res, "background")
    check(bg >= -0.02, f"24-to-1: background flows' average FCT {100 * bg:.1f} % lower "
                       "(not 2 % higher)")
    incast_avg = fct(res, "pyrrha", "incast", "avg_s") / fct(res, "pfc", "incast", "avg_s")
    incast_p99 = 1 / p99_ratio(res, "incast")
    check(incast_p99 <= 1.02 and incast_avg <= 1.15,
          f"24-to-1: incast p99 {incast_p99:.3f}x PFC's (<= 1.02), average {incast_avg:.3f}x "
          "(<= 1.15)")

    # The paper's incast degree: the paper's claims, on figures where PFC's are lower bounds.
    name = f"{mix.PAPER_DEGREE_SENDERS}-to-1"
    res, _ = figures[name]
    v = reduction(res, "vulnerable")
    check(v >= mix.PAPER["vulnerable_avg_reduction"][0],
          f"{name}: vulnerable flows' average FCT {100 * v:.1f} % lower (paper >= 42.8 %)")
    ratio, small = p99_ratio(res, "vulnerable"), p99_ratio(res, "vulnerable < 100 KB")
    check(ratio > 1.0 and small >= mix.PAPER["vulnerable_p99_ratio"][0],
          f"{name}: vulnerable p99 {ratio:.2f}x lower (> 1), under 100 KB {small:.2f}x "
          "(paper >= 1.6x)")
    incast_avg = fct(res, "pyrrha", "incast", "avg_s") / fct(res, "pfc", "incast", "avg_s")
    incast_p99 = 1 / p99_ratio(res, "incast")
    pyrrha_open = res["fct"]["pyrrha"]["incast"]["open"]
    check(pyrrha_open == 0 and incast_avg <= 1.0 and incast_p99 <= 1.0,
          f"{name}: Pyrrha completes every incast flow ({pyrrha_open} open); their average "
          f"{incast_avg:.3f}x and p99 {incast_p99:.3f}x PFC's (not worse)")
    buffer = (res["buffer"]["pfc"]["DstToR"]["switch_bytes"] /
              res["buffer"]["pyrrha"]["DstToR"]["switch_bytes"])
    check(buffer >= mix.PAPER["max_buffer_ratio"][0],
          f"{name}: the destination ToR's maximum buffer {buffer:.2f}x lower (paper >= 1.8x)")
    checks.finish()


if __name__ == "__main__":
    sys.exit(main())
