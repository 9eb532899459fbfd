#!/usr/bin/env python3
"""The hosts' transports in the lab (issue 18): lab/host_source, lab/host_sink, lib/transport.

1. The window transport over a lossy priority (tests/lab/window-lossy.toml): the switch drops
   (its lossy pool holds less than the two windows) and Reno's retransmissions still deliver
   every byte of both 4 MB flows, in order, each flow complete; the same flows raw lose frames.
2. DCQCN capped by a 20 KB window on the same dumbbell: no input of S1 holds more than that.
   A DCQCN incast under PFC (config/lab/gfc-dcqcn.toml with pfc): the eight flows converge to
   fair shares (Jain's index over the last half), the bottleneck queue's mean over the last
   half is in the marking band (K_min 40 KB to K_max 200 KB), and no PFC pause is sent after
   the first 5 ms.
4. A TIMELY incast under PFC on the same dumbbell (RTTs from the ACKs' echoes, no ECN): the
   link stays busy, no pause after the first 10 ms, every sender took RTT samples.
3. GFC Fig. 20's sequence (config/lab/gfc-dcqcn.toml): H1's ingress queue at S1 reaches B_1
   and GFC holds H1 to 1.25 Gb/s or less (stage >= 3) while H1's DCQCN rate is still above
   1.25 Gb/s; DCQCN then goes below 1.25 Gb/s, after which GFC releases (stage 0) and stays
   released to the end; nothing is lost.

usage: transport_lab.py FCLAB SOURCE_DIR
"""
import csv
import pathlib
import sys
import tempfile

from lab_run import run_fclab
from script_checks import Checks

FRAME = 1514
LINE_BPS = 10e9


def run(fclab, scenario, out, *sets):
    return run_fclab(fclab, scenario, out, *sets, plots=False)


def rows(path):
    with open(path, newline="") as f:
        return list(csv.DictReader(f))


def main():
    fclab, source = sys.argv[1], pathlib.Path(sys.argv[2])
    checks = Checks()
    check = checks.expect

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

        # 2 and 3: the dumbbell of GFC §7, under PFC and under buffer-based GFC.
        dumbbell = str(source / "config/lab/gfc-dcqcn.toml")
        pfc = ["flow_control.engine=pfc", "flow_control.pfc.xoff=280KB",
               "flow_control.pfc.xon=277KB"]  # GFC §6.2.2's PFC thresholds for 300 KB
        # 4. TIMELY: the same incast, rates from RTTs.
        s = run(fclab, dumbbell, tmp / "timely", "flows.transport=timely", *pfc)
        x = [f["tail_throughput_bps"] for f in s["flows"]]
        acks = min(f["transport"]["acks_received"] for f in s["flows"])
        check(sum(x) >= 0.75 * LINE_BPS and acks > 0 and s["lossless_drops"] == 0,
              f"timely: {sum(x) / 1e9:.2f} Gb/s in all over the last 20 %, "
              f"{acks}+ RTT samples a sender, no loss")
        pauses = {}
        for r in rows(tmp / "timely" / "queues.csv"):
            if r["node"] == "S1":
                t = float(r["time_s"])
                pauses[t] = pauses.get(t, 0) + int(r["pause_frames_sent"])
        late = [t for t in sorted(pauses) if t >= 0.010]
        check(pauses[late[-1]] == pauses[late[0]],
              f"timely: no pause frame after 10 ms ({pauses[late[0]]} before)")
        # DCQCN under a window (Pyrrha §6's hosts): no input of S1 holds more than the window.
        s = run(fclab, dumbbell, tmp / "window-cap", "transport.dcqcn.window=20KB")
        held = max(q["max_ingress_bytes"] for q in s["queues"] if q["node"] == "S1")
        acked = min(f["transport"]["acks_received"] for f in s["flows"])
        check(held <= 20_000 and acked > 0 and s["lossless_drops"] == 0,
              f"dcqcn+window: S1 holds at most {held} bytes of an input (window 20 KB), "
              f"every flow ACKed ({acked}+ ACKs)")
        for engine in ("pfc", "gfc-buffer"):
            sets = pfc if engine == "pfc" else ["flow_control.engine=" + engine]
            out = tmp / engine
            s = run(fclab, dumbbell, out, *sets)
            check(s["lossless_drops"] == 0 and s["conservation"]["holds"],
                  f"{engine}+dcqcn: no lossless drop, every frame accounted for")
            check(all(f["transport"]["cnps_received"] > 0 for f in s["flows"]),
                  f"{engine}+dcqcn: every sender got CNPs")
            x = [f["tail_throughput_bps"] for f in s["flows"]]
            jain = sum(x) ** 2 / (len(x) * sum(v * v for v in x))
            check(jain >= 0.95 and sum(x) >= 0.75 * LINE_BPS,
                  f"{engine}+dcqcn: fair shares over the last 20 %: Jain {jain:.3f}, "
                  f"{sum(x) / 1e9:.2f} Gb/s in all ({', '.join(f'{v / 1e9:.2f}' for v in x)})")
            queues = rows(out / "queues.csv")
            inputs = [r for r in queues if r["node"] == "S1" and r["port"].startswith("h")]
            depth, pauses, stages = {}, {}, {}
            for r in inputs:  # every frame S1 holds goes out of "up": its egress queue
                t = float(r["time_s"])
                depth[t] = depth.get(t, 0) + int(r["ingress_bytes"])
                pauses[t] = pauses.get(t, 0) + int(r["pause_frames_sent"])
                stages[t] = max(stages.get(t, 0), int(r["fc_level"]))
            times = sorted(depth)
            half = [t for t in times if t >= times[-1] / 2]
            mean = sum(depth[t] for t in half) / len(half)
            check(40_000 <= mean <= 200_000,
                  f"{engine}+dcqcn: S1's bottleneck queue averages {mean / 1e3:.0f} KB over the "
                  "last half, in the marking band 40-200 KB")
            after = [t for t in times if t >= 0.005]
            if engine == "pfc":
                check(pauses[after[-1]] == pauses[after[0]] > 0,
                      f"pfc+dcqcn: no pause frame after 5 ms ({pauses[after[0]]} before)")
            else:
                check(max(stages[t] for t in after) == 0 < max(stages.values()),
                      f"gfc-buffer+dcqcn: no input of S1 at a GFC stage after 5 ms (up to "
                      f"stage {max(stages.values())} before)")
            if engine != "gfc-buffer":
                continue
            # Fig. 20: H1's ingress at S1 (port h1), H1's DCQCN rate (flow 0), GFC's stage.
            level = {float(r["time_s"]): int(r["fc_level"]) for r in inputs if r["port"] == "h1"}
            rate = {float(r["time_s"]): int(r["rate_bps"])
                    for r in rows(out / "transports.csv") if r["flow"] == "0"}
            fair = LINE_BPS / 8
            held = next((t for t in times if LINE_BPS / 2 ** level[t] <= fair), None)
            check(held is not None and rate[held] > fair,
                  f"fig. 20: GFC holds H1 to <= 1.25 Gb/s at {held} s while DCQCN is at "
                  f"{rate.get(held, 0) / 1e9:.2f} Gb/s")
            below = next((t for t in times if held and t > held and rate[t] < fair), None)
            check(below is not None, f"fig. 20: DCQCN goes below 1.25 Gb/s at {below} s")
            released = next((t for t in times if below and t > below and level[t] == 0), None)
            check(released is not None and all(level[t] == 0 for t in times if t >= released),
                  f"fig. 20: GFC releases H1 at {released} s, after DCQCN took over, for good")

    checks.finish()


if __name__ == "__main__":
    sys.exit(main())
