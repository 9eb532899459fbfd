"""fchost's transports against fcswitch over net_memif: the window and DCQCN, sender and receiver
in two processes, the switch marking ECN.

H1 → S → H2, three processes, each link a memif socket; S sends to H2 at 200 Mb/s (its port's
rate_limit) while H1's port runs at 1 Gb/s. H2 names H1's flow in [[receive]], so its sink
answers it; both hosts have the same [transport].

  window (PFC): a 10 MB flow under a 64 KB window. H2 acknowledges every frame and H1 finishes
      the flow on its ACKs: every frame delivered once, none resent, ACKs sent = frames
      received = ACKs H1 took, the flow complete in H1's summary.
  timely (PFC): the same flow; H2's ACKs echo each frame's send time, and the RTTs (S's queue)
      move H1's rate off the line rate.
  dcqcn (buffer-based GFC, S marking ECN on the class, S sending to H2 at 50 Mb/s): GFC
      Fig. 20's sequence on processes. The flow starts at line rate; S's queue from H1 climbs
      through GFC's stages before DCQCN has cut enough, so GFC holds H1; H2 sends CNPs for the
      CE-marked frames and H1 cuts its rate until the queue sits at the marking step, below
      B_1, and GFC lets go: in S's trace, GFC's first stage comes within 0.5 s of the flow's
      start and reaches stage 3, H1's gate held frames, and in the last 1.2 s S asks for
      stage 0 (90 % of the samples or more). Lossless throughout.
  dcqcn with H2 not answering (no [[receive]]): no CNP comes back, H1's rate never moves from the
      line rate, and GFC holds it to the end (a stage in 90 % of the last 1.2 s): the control, so
      the checks above can fail.

usage: fchost_transports.py FCSWITCH FCHOST SOURCE_DIR WORK_DIR
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
LINE_BPS = 1e9
failures = []

WINDOW_TRANSPORT = """[transport.window]
window = "64KB"
rto = "50ms"
"""
# DCQCN at the pace of these processes rather than of a 40 Gb/s NIC: a switch here answers in
# milliseconds (its τ), not microseconds, so its times are 20× the paper's (GFC §7: N = 50 µs,
# K = T = 55 µs) and its increases are scaled to the 1 Gb/s line (R_AI 40 Mb/s ÷ 40).
DCQCN_TRANSPORT = """[transport.dcqcn]
alpha = 0.05
cnp_interval = "1ms"
alpha_timer = "1100us"
increase_timer = "1100us"
additive_increase = "1Mbps"
hyper_increase = "10Mbps"
"""
# GFC Fig. 20's marking (§7): a step at 40 KB, below B_1. DCQCN cuts slowly (a CNP a
# millisecond, 2.5 % each at first), so the queue reaches B_1 and GFC holds H1 first, as the
# paper's incast does to its eight senders.
ECN = """[ecn]
queues = [3]
k_min = "40KB"
k_max = "40KB"
p_max = 1.0
"""


# Buffer-based GFC as the other tests' (tc.FLOW_CONTROL) with B_m = 1 MB and B_1 = 100 KB: the
# queue DCQCN settles at (about its 40 KB marking step) is below B_1, and the stages come every
# (B_top − B_1)/4 ≈ 212 KB, so that stage 3 (125 Mb/s, C/2³) is reached before DCQCN has cut H1
# below it.
GFC = ([3], tc.FLOW_CONTROL.format(buffer="1MB", engine="gfc-buffer", **tc.TIMES_1G)
       .replace('b1 = "500KB"', 'b1 = "100KB"'))
assert 'b1 = "100KB"' in GFC[1]
# S's rate to H2 in the DCQCN runs: far below what H1 sends (~280 Mb/s from a process that
# shares its CPU; 1 Gb/s alone), so that the queue climbs through GFC's stages at the start.
DCQCN_BOTTLENECK_BPS = 50e6


def check(ok, what):
    if not ok:
        failures.append(what)
        print("FAIL:", what)


def receive(transport):
    return f'[[receive]]\nid = 1\ntransport = "{transport}"\nfrom = "H1"\n'


def run(name, engine, flow_keys, transport_toml, receives, switch_extra="", seconds=2.5,
        bottleneck_bps=tc.BOTTLENECK_BPS, trace=False):
    """Runs H1 → S → H2; returns H1's, H2's and S's summaries. `trace`: S samples its queues
    every millisecond into trace.csv (fcswitch's [trace])."""
    d = work / name
    shutil.rmtree(d, ignore_errors=True)
    d.mkdir(parents=True)
    if trace:
        switch_extra += f'[trace]\ninterval = "1ms"\nfile = "{d}/trace.csv"\npriorities = [3]\n'
    tc.bottleneck(d, engine, f"fcht_{name}", {"start": '"200ms"', **flow_keys},
                  switch_extra=switch_extra,
                  host_extra=(transport_toml, transport_toml + receives),
                  bottleneck_bps=bottleneck_bps)
    codes = tc.run_bottleneck(d, fcswitch, fchost, seconds)
    check(codes == [0, 0, 0], f"{name}: exit codes h2, h1, s = {codes} (logs in {d})")
    # A host's link watch lets go of its port before the port closes: DPDK refuses a callback
    # of a closed port ("Invalid port_id"), which every fchost stop logged before.
    for h in ("h1", "h2"):
        check("Invalid port_id" not in (d / f"{h}.log").read_text(),
              f"{name}: {h}'s stop touched its closed port ({d / h}.log)")
    h1, h2, sw = (json.loads((d / f).read_text()) for f in ("h1.json", "h2.json", "s.json"))
    lossless = sum(p["drops"].get("lossless_overflow", 0) for p in sw["ports"])
    check(lossless == 0 and h1["lossless_drops"] == 0 and h2["lossless_drops"] == 0,
          f"{name}: lossless drops S {lossless}, H1 {h1['lossless_drops']}, "
          f"H2 {h2['lossless_drops']}")
    check(h1["mempool_in_use_after_shutdown"] == 0 and h2["mempool_in_use_after_shutdown"] == 0
          and sw["mempool_in_use"] == 0, f"{name}: mbufs not back in a pool")
    return h1, h2, sw


def flow(summary, what):
    got = [f for f in summary["flows"] if f["id"] == 1]
    check(len(got) == 1, f"{what}: flow 1 not in the summary")
    return got[0] if got else {}


def gate(summary):
    (queue,) = [q for q in summary["queues"] if q["prio"] == 3]
    return queue["engine"]


def switch_generator(sw, port):
    (p,) = [p for p in sw["ports"] if p["name"] == port]
    return p["flow_control"]["3"]


SIZE = 10_000_000
FRAMES = -(-SIZE // 1514)


def sized_flow(name, transport_toml):
    """A 10 MB flow over transport `name` under PFC, finished on the ACKs H2 sends: every frame
    received once, each acknowledged, every ACK taken by H1, the flow complete. Returns what H1
    and H2 say of its transport."""
    h1, h2, _ = run(name, "pfc", {"size": f"{SIZE}", "transport": f'"{name}"'}, transport_toml,
                    receive(name))
    sent, got = flow(h1, f"{name}: H1"), flow(h2, f"{name}: H2")
    ts, tr = sent.get("transport", {}), got.get("transport", {})
    print(f"{name:<10} H1 sent {sent.get('sent_packets')} frames, H2 received "
          f"{got.get('received_packets')}, ACKs sent {tr.get('acks_sent')}, taken by H1 "
          f"{ts.get('acks_received')}; rate at its lowest {ts.get('lowest_rate_bps', 0) / 1e6:.0f} "
          f"Mb/s, at the end {ts.get('final_rate_bps', 0) / 1e6:.0f} "
          f"Mb/s; complete after {ts.get('completed_s')} s")
    check(got.get("received_bytes") == FRAMES * 1514 and got.get("lost_packets") == 0,
          f"{name}: H2 received {got.get('received_bytes')} bytes of {FRAMES * 1514}")
    check(tr.get("acks_sent") == got.get("received_packets") == ts.get("acks_received"),
          f"{name}: ACKs sent {tr.get('acks_sent')}, frames received "
          f"{got.get('received_packets')}, ACKs taken {ts.get('acks_received')}: one per frame, "
          "every one back")
    check(ts.get("completed_s") is not None, f"{name}: H1 never had the last ACK")
    return ts, tr


# window: nothing resent on a lossless path.
ts, tr = sized_flow("window", WINDOW_TRANSPORT)
check(ts.get("retransmissions") == 0 and tr.get("duplicates") == 0,
      f"window: frames resent on a lossless path: {ts}, {tr}")

# timely: H2's ACKs echo each frame's send time, and H1's rate follows the RTTs, here above
# t_high (S's queue at 200 Mb/s): it leaves the line rate, under the bottleneck's 200 Mb/s at
# its lowest. The rate at the end says nothing: cut early, the rate climbs back by δ an ACK
# while the RTTs sit under t_low, and some runs end at the line rate. Increases of 1 Mb/s an
# ACK, without HAI (hai = 1: N·δ with N = 1 is δ), so that the rate moves slowly enough to be
# seen in S's queue.
TIMELY_TRANSPORT = """[transport.timely]
t_low = "1ms"
t_high = "5ms"
min_rtt = "200us"
additive_increase = "1Mbps"
hai = 1
"""
ts, _ = sized_flow("timely", TIMELY_TRANSPORT)
check(0 < ts.get("lowest_rate_bps", 0) < tc.BOTTLENECK_BPS,
      f"timely: the RTTs never took the rate under the bottleneck's: {ts}")


def stages(name):
    """S's trace of its port from H1: [(seconds since the flow's first frame, GFC stage)] up to
    2.2 s in (the hosts stop 2.3 s after the flow starts; the queue drains after that)."""
    rows = [line.split(",") for line in (work / name / "trace.csv").read_text().splitlines()[1:]]
    rows = [(float(r[0]), int(r[7]), float(r[5])) for r in rows if r[2] == "h1"]
    start = next((t for t, _, input_bps in rows if input_bps > 0), None)
    check(start is not None, f"{name}: S's trace never saw H1's flow")
    if start is None:
        return []
    return [(t - start, stage) for t, stage, _ in rows if start <= t <= start + 2.2]


def share(samples, test):
    return sum(1 for _, stage in samples if test(stage)) / max(1, len(samples))


# dcqcn under buffer-based GFC: the flow runs past the hosts' stop. S's trace gives the order
# of events: GFC's stages at the start, none once DCQCN holds the rate (the last 1.2 s).
LONG = {"duration": '"10s"', "transport": '"dcqcn"'}
h1, h2, sw = run("dcqcn", GFC, LONG, DCQCN_TRANSPORT, receive("dcqcn"), ECN,
                 bottleneck_bps=DCQCN_BOTTLENECK_BPS, trace=True)
sent, got = flow(h1, "dcqcn: H1"), flow(h2, "dcqcn: H2")
ts, tr = sent.get("transport", {}), got.get("transport", {})
held_ns = gate(h1).get("blocked_ns", -1)
trace = stages("dcqcn")
first_hold = next((t for t, stage in trace if stage >= 1), None)
top = max((stage for _, stage in trace), default=0)
late = [(t, stage) for t, stage in trace if t >= 1.0]
let_go = next((t for t, stage in reversed(trace) if stage >= 1), None)
print(f"dcqcn      CE-marked {tr.get('ce_marked')}, CNPs sent {tr.get('cnps_sent')}, taken by H1 "
      f"{ts.get('cnps_received')}; GFC: first stage at {first_hold or 0:.3f} s, highest {top}, "
      f"last at {let_go or 0:.3f} s, H1 held {held_ns / 1e6:.1f} ms; stage 0 in "
      f"{share(late, lambda x: x == 0):.0%} of the last 1.2 s; DCQCN's rate at the end "
      f"{ts.get('final_rate_bps', 0) / 1e6:.0f} Mb/s")
check(tr.get("ce_marked", 0) > 0 and tr.get("cnps_sent", 0) > 0
      and 0 < ts.get("cnps_received", 0) <= tr.get("cnps_sent", 0),
      f"dcqcn: no CNP loop: H2 {tr}, H1 {ts}")
check(first_hold is not None and first_hold < 0.5 and top >= 3 and held_ns > 0,
      f"dcqcn: GFC did not hold H1 first (first stage at {first_hold} s, highest {top}, H1 held "
      f"{held_ns} ns)")
check(share(late, lambda x: x == 0) >= 0.9,
      f"dcqcn: GFC still holds H1 after DCQCN's cuts: stages of the last 1.2 s {late[:20]}…")
check(0 < ts.get("final_rate_bps", 0) < LINE_BPS,
      f"dcqcn: H1's rate at the end {ts.get('final_rate_bps')} b/s: never cut")
check(got.get("lost_packets") == 0, f"dcqcn: H2 missed {got.get('lost_packets')} frames")

# The control: H2 does not answer; DCQCN never moves, and GFC holds H1 to the end.
h1, h2, sw = run("dcqcn_unanswered", GFC, LONG, DCQCN_TRANSPORT, "", ECN,
                 bottleneck_bps=DCQCN_BOTTLENECK_BPS, trace=True)
ts = flow(h1, "control: H1").get("transport", {})
late = [(t, stage) for t, stage in stages("dcqcn_unanswered") if t >= 1.0]
print(f"unanswered CNPs taken by H1 {ts.get('cnps_received')}, DCQCN's rate at the end "
      f"{ts.get('final_rate_bps', 0) / 1e6:.0f} Mb/s, GFC held H1 "
      f"{gate(h1).get('blocked_ns', 0) / 1e6:.1f} ms, a stage in "
      f"{share(late, lambda x: x >= 1):.0%} of the last 1.2 s")
check(ts.get("cnps_received") == 0 and ts.get("lowest_rate_bps") == LINE_BPS,
      f"control: H1 {ts}: CNPs without a receiver")
check(share(late, lambda x: x >= 1) >= 0.9,
      f"control: without DCQCN GFC let go of H1: stages of the last 1.2 s {late[:20]}…")

if failures:
    print(f"{len(failures)} failures")
    sys.exit(1)
print("fchost's window, TIMELY and DCQCN work against fcswitch; GFC held the DCQCN sender, then "
      "let go")
