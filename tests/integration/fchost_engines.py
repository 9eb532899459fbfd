"""fchost reacts to all four engines, against fcswitch over net_memif (issue 17).

H1 → S → H2, three processes, each link a memif socket. H1's flow leaves at its port's line
rate (1 Gb/s); S sends to H2 at 200 Mb/s (its port's rate_limit), so S's input from H1 fills and
S holds H1 back with the engine under test. For pfc, cbfc, gfc-buffer and gfc-time, each:
  - every frame H1 sent reached H2, in order, none lost; no lossless drop anywhere; every
    process exits 0 (S on SIGTERM) with its mempool full;
  - H1 sent no more than the bottleneck let through (≤ 1.3 × 200 Mb/s over the flow's time,
    against the 1 Gb/s it would send alone): it was held back;
  - H1's engine says how: paused (PFC), waited for credits (CBFC), slowed to a stage's rate
    (buffer-based GFC) or to a rate from its credits (time-based GFC).
And with engine = "none" on both ends: S drops what H1 sends beyond the bottleneck, so the
checks above can fail. Prints H2's throughput per engine (a figure, not an assertion).

usage: fchost_engines.py FCSWITCH FCHOST SOURCE_DIR WORK_DIR
"""
import json
import os
import pathlib
import shutil
import sys

fcswitch, fchost, source, work = sys.argv[1:5]
sys.path.insert(0, os.path.join(source, "tools", "testbed"))
import testbed_configs as tc  # noqa: E402

work = pathlib.Path(work)
BOTTLENECK_BPS = tc.BOTTLENECK_BPS
FLOW_S = 1.5
failures = []


def check(ok, what):
    if not ok:
        failures.append(what)
        print("FAIL:", what)


def engine_counters(summary):
    (queue,) = [q for q in summary["queues"] if q["prio"] == 3]
    return queue["engine"]


def run(engine):
    d = work / engine
    shutil.rmtree(d, ignore_errors=True)
    d.mkdir(parents=True)
    tc.bottleneck(d, engine, f"fche_{engine}",
                  {"start": '"200ms"', "duration": f'"{FLOW_S}s"'})
    codes = tc.run_bottleneck(d, fcswitch, fchost, FLOW_S + 1.2)
    check(codes == [0, 0, 0], f"{engine}: exit codes h2, h1, s = {codes} (logs in {d})")
    h1 = json.loads((d / "h1.json").read_text())
    h2 = json.loads((d / "h2.json").read_text())
    sw = json.loads((d / "s.json").read_text())
    sent = h1["flows"][0]
    got = [f for f in h2["flows"] if f["id"] == 1]
    received = got[0] if got else {"received_packets": 0, "received_bytes": 0, "lost_packets": 0,
                                   "reordered_packets": 0}
    switch_lossless = sum(p["drops"].get("lossless_overflow", 0) for p in sw["ports"])
    return sent, received, h1, h2, sw, switch_lossless


for engine in ("pfc", "cbfc", "gfc-buffer", "gfc-time"):
    sent, received, h1, h2, sw, switch_lossless = run(engine)
    held_to = 1.3 * BOTTLENECK_BPS * FLOW_S / 8
    print(f"{engine:<10} H1 sent {sent['sent_bytes'] / 1e6:6.1f} MB, H2 received "
          f"{received['received_bytes'] / 1e6:6.1f} MB "
          f"({received['received_bytes'] * 8 / FLOW_S / 1e6:.0f} Mb/s: its bytes over the flow's "
          f"{FLOW_S} s), missing {received['lost_packets']}")
    check(sent["sent_packets"] > 1000, f"{engine}: H1 sent only {sent['sent_packets']} frames")
    check(received["received_packets"] == sent["sent_packets"] and received["lost_packets"] == 0
          and received["reordered_packets"] == 0,
          f"{engine}: H1 sent {sent['sent_packets']}, H2 received "
          f"{received['received_packets']} ({received['lost_packets']} missing, "
          f"{received['reordered_packets']} reordered)")
    check(switch_lossless == 0 and h1["lossless_drops"] == 0 and h2["lossless_drops"] == 0,
          f"{engine}: lossless drops S {switch_lossless}, H1 {h1['lossless_drops']}, "
          f"H2 {h2['lossless_drops']}")
    check(sent["sent_bytes"] <= held_to,
          f"{engine}: H1 sent {sent['sent_bytes']} bytes, more than the bottleneck passes "
          f"({held_to:.0f}): not held back")
    check(h1["mempool_in_use_after_shutdown"] == 0 and h2["mempool_in_use_after_shutdown"] == 0
          and sw["mempool_in_use"] == 0, f"{engine}: mbufs not back in a pool")
    c = engine_counters(h1)
    how = {
        "pfc": c.get("pause_frames_received", 0) > 0 and c.get("paused_ns", 0) > 0,
        "cbfc": c.get("credit_updates_received", 0) > 0 and c.get("blocked_ns", 0) > 0,
        # GFC: the rate limiter held the queue (blocked_ns) at the rates the messages set.
        "gfc-buffer": c.get("stage_messages_received", 0) > 0 and c.get("blocked_ns", 0) > 0,
        "gfc-time": c.get("credit_updates_received", 0) > 0 and c.get("blocked_ns", 0) > 0,
    }[engine]
    check(how, f"{engine}: H1's engine counters do not show it reacting: {c}")

# The control: no flow control on either end. S drops, so the checks above can fail.
sent, received, _, _, sw, _ = run("none")
drops = sum(sum(p["drops"].values()) for p in sw["ports"])
print(f"none       H1 sent {sent['sent_bytes'] / 1e6:6.1f} MB, H2 received "
      f"{received['received_bytes'] / 1e6:6.1f} MB, S dropped {drops} frames")
check(received["received_packets"] < sent["sent_packets"] and drops > 0,
      "none: without flow control nothing was lost, so the test shows nothing")
# Unheld, H1 sends at its port's rate, which emulate_wire paces (a memif alone takes frames as
# fast as the CPU makes them: 1.9 GB in 1.5 s before it existed).
check(sent["sent_bytes"] <= 1.05 * 1e9 * FLOW_S / 8,
      f"none: H1 sent {sent['sent_bytes']} bytes in {FLOW_S} s, faster than its 1 Gb/s wire")

if failures:
    print(f"{len(failures)} failures")
    sys.exit(1)
print("fchost reacted to pfc, cbfc, gfc-buffer and gfc-time; lossless throughout")
