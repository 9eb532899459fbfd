"""A link goes down and comes back under load (issue 22, fault injection), for every engine.

H1 → S → H2 over net_memif, as in fchost_engines.py: H1's flow at 1 Gb/s, S's port to H2 at
200 Mb/s, S holding H1 back with the engine under test. One second into the flow H2 stops
(SIGTERM: its memif link to S goes down) and half a second later a new H2 process starts: the
link comes back once its EAL is up (0.5-2 s on a busy 2-core VM). The flow lasts 4.5 s so that
it still runs then (with 3 s, a slow start left the new H2 only S's buffer to receive). S keeps
running throughout. Checks, per engine:
  - what H1 sent reached one H2 or the other, less at most what was on the link when it went
    down (the memif ring's 64 slots and a TX burst) and what S dropped;
  - S drops nothing of the lossless class under PFC, CBFC and time-based GFC: they stop H1
    (a pause, no credit, rate 0 at B_m). Buffer-based GFC cannot: its last stage still sends
    at C/2^N (GFC §5.1), so while S's egress is down S's input overflows at that rate — at most
    that rate times the time the link was down, which the test measures and prints;
  - the flow moves again after the link comes back (the new H2 receives; no pause, credit or
    stage of the old peer holds S's port for ever), and S logs the link going down and up
    (it then says its flow-control state again: fc::FeedbackGenerator::link_restored);
  - every process exits 0 with its pool full.
usage: link_flap.py FCSWITCH FCHOST SOURCE_DIR WORK_DIR
"""
import json
import os
import pathlib
import shutil
import signal
import sys
import time

fcswitch, fchost, source, work = sys.argv[1:5]
sys.path.insert(0, os.path.join(source, "tools", "testbed"))
import testbed_configs as tc  # noqa: E402

work = pathlib.Path(work)
ON_THE_LINK = 64 + 32  # memif ring slots (rsize=6) and one TX burst
failures = []


def check(ok, what):
    if not ok:
        failures.append(what)
        print("FAIL:", what)


def run(engine):
    d = work / engine
    shutil.rmtree(d, ignore_errors=True)
    d.mkdir(parents=True)
    tc.bottleneck(d, engine, f"fcflap_{engine}", {"start": '"100ms"', "duration": '"4500ms"'},
                  receivers=("h2a", "h2b"))
    procs = []

    def start(args, log):
        return tc.start(procs, args, d / log)

    try:
        s = tc.start_switch(procs, [fcswitch, d / "s.toml", "--report-json", d / "s.json"],
                            d / "s.log")
        (h2a, h1), zero = tc.start_hosts_ready(
            procs, fchost, d, ("h2a", "h1"),
            lambda n: ("--summary", d / f"{n}.json") + (("--duration", "6.5") if n == "h1" else ()))
        time.sleep(max(0.0, zero + 1.1 - time.time()))  # one second into the flow
        h2a.send_signal(signal.SIGTERM)
        code_a = h2a.wait(timeout=30)
        down_at = time.time()
        time.sleep(0.5)  # the link stays down for half a second, then a new H2 connects
        h2b = start([fchost, d / "h2b.toml", "--duration", "5.5", "--summary", d / "h2b.json"],
                    "h2b.log")
        while "running" not in (d / "h2b.log").read_text() and h2b.poll() is None:
            time.sleep(0.01)
        down_s = time.time() - down_at
        code_b = h2b.wait(timeout=60)
        code_1 = h1.wait(timeout=60)
        s.send_signal(signal.SIGTERM)
        code_s = s.wait(timeout=30)
    finally:
        tc.kill_unfinished(procs)
    check([code_a, code_b, code_1, code_s] == [0, 0, 0, 0],
          f"{engine}: exit codes H2, new H2, H1, S = {[code_a, code_b, code_1, code_s]} ({d})")
    load = lambda name: json.loads((d / name).read_text())  # noqa: E731
    h1, a, b, sw = load("h1.json"), load("h2a.json"), load("h2b.json"), load("s.json")
    got = lambda h: sum(f["received_packets"] for f in h["flows"] if f["id"] == 1)  # noqa: E731
    sent = h1["flows"][0]["sent_packets"]
    before, after = got(a), got(b)
    lossless = sum(p["drops"].get("lossless_overflow", 0) for p in sw["ports"])
    on_link = sent - before - after - lossless
    (h1_port,) = [p for p in sw["ports"] if p["name"] == "h1"]
    print(f"{engine:<10} H1 sent {sent}, H2 got {before} before and {after} after the link was "
          f"down {down_s:.2f} s; {on_link} lost on the link, {lossless} dropped by S")
    if engine == "gfc-buffer":
        # The last stage S asked for, its rate, and what it sends in the time down (+50 %: the
        # time down is seen from here, not from S).
        stage = h1_port["flow_control"]["3"]["ingress_stage_max"]
        bound = 1e9 / 2**stage * down_s * 1.5 / 8 / 1514 + 5
        check(lossless <= bound, f"{engine}: S dropped {lossless} lossless frames, more than "
              f"stage {stage}'s rate lets in over {down_s:.2f} s ({bound:.0f})")
    else:
        check(lossless == 0, f"{engine}: S dropped {lossless} lossless frames")
    check(0 <= on_link <= ON_THE_LINK,
          f"{engine}: {on_link} frames lost, more than the {ON_THE_LINK} on the link")
    check(down_s < 3, f"{engine}: the new H2 took {down_s:.2f} s to connect; the flow had "
          "(almost) ended, so what it receives says little")
    check(after > 1000, f"{engine}: only {after} frames after the link came back")
    # S saw it (dpdk::LinkWatch), and its engines said their state again to the new H2.
    log = (d / "s.log").read_text()
    # At start the link is down until the first H2 connects (an info line); the cut is a
    # warning, and the link comes up twice: to the first H2, then to the second.
    check("[warning] port h2: link down" in log and log.count("port h2: link up") >= 2,
          f"{engine}: S did not log port h2's link going down and coming back ({d}/s.log)")
    check(all(h["mempool_in_use_after_shutdown"] == 0 for h in (h1, a, b))
          and sw["mempool_in_use"] == 0, f"{engine}: mbufs not back in a pool")


for engine in ("pfc", "cbfc", "gfc-buffer", "gfc-time"):
    run(engine)
if failures:
    print(f"{len(failures)} failures")
    sys.exit(1)
print("every engine survived the link going down and coming back; PFC, CBFC and time-based GFC "
      "lost only the link's frames")
