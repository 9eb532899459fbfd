"""PABO on processes (PABO §II, §III): fcswitch bounces, fchost sends bounced frames again.

H1 → S → H2 over net_memif, lossy priority 0; S sends to H2 at 200 Mb/s, H1's flow comes in
bursts at its line rate (20 ms on, 180 ms off), faster than S drains it. S runs PABO on the
priority with sub-queues of 100 packets (PABO §V-B's θ = 0.8, λ = 50, the authors' guard of 3);
both hosts run its host side ([pabo], a bounce queue of 1 500, PABO §V-A's senders).

  PABO: S bounces frames of the bursts back to H1 (towards their source); H1 sends every one
      of them again, from its bounce queue; H2 receives every frame H1 sent, some after a
      bounce (the shim stripped, n_p counted), some out of order; nothing is dropped anywhere.
  The control: bounce = false, the same sub-queue as a drop-tail queue. S drops what does not
      fit (queue_capacity) and H2 misses those frames, so the checks above can fail.

usage: fchost_pabo.py FCSWITCH FCHOST SOURCE_DIR WORK_DIR
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
failures = []

SWITCH_PABO = """[pabo]
priorities = [0]
bounce = {bounce}
theta = 0.8
lambda = 50
guard = 3
normal_capacity = 100
bounce_capacity = 100
"""
HOST_PABO = """[pabo]
priorities = [0]
bounce_capacity = 1500
"""
BURSTS = {"priority": 0, "pattern": '"on-off"', "on": '"20ms"', "off": '"180ms"',
          "start": '"200ms"', "duration": '"2s"'}
NO_FLOW_CONTROL = ([], "")  # priority 0 is lossy: PABO runs on no lossless priority


def check(ok, what):
    if not ok:
        failures.append(what)
        print("FAIL:", what)


def run(name, bounce):
    d = work / name
    shutil.rmtree(d, ignore_errors=True)
    d.mkdir(parents=True)
    tc.bottleneck(d, NO_FLOW_CONTROL, f"fchp_{name}", BURSTS,
                  switch_extra=SWITCH_PABO.format(bounce=bounce),
                  host_extra=(HOST_PABO, HOST_PABO))
    codes = tc.run_bottleneck(d, fcswitch, fchost, 2.6)
    check(codes == [0, 0, 0], f"{name}: exit codes h2, h1, s = {codes} (logs in {d})")
    h1, h2, sw = (json.loads((d / f).read_text()) for f in ("h1.json", "h2.json", "s.json"))
    check(h1["mempool_in_use_after_shutdown"] == 0 and h2["mempool_in_use_after_shutdown"] == 0
          and sw["mempool_in_use"] == 0, f"{name}: mbufs not back in a pool")
    sent = h1["flows"][0]
    got = ([f for f in h2["flows"] if f["id"] == 1] or [{}])[0]
    s_ports = {p["name"]: p for p in sw["ports"]}
    s_pabo = {port: p["pabo"]["0"] for port, p in s_ports.items()}
    s_drops = sum(sum(p["drops"].values()) for p in sw["ports"])
    return sent, got, h1["ports"][0], s_pabo, s_drops


sent, got, h1_nic, s_pabo, s_drops = run("pabo", "true")
bounced_to_h1 = s_pabo["h1"]["bounced"]
resent = h1_nic.get("pabo", {}).get("resent_bounced", 0)
after_bounce = got.get("pabo", {}).get("bounced_packets", 0)
print(f"pabo       H1 sent {sent['sent_packets']} frames; S bounced {bounced_to_h1} back to H1, "
      f"H1 sent {resent} again; H2 received {got.get('received_packets')} "
      f"({after_bounce} after a bounce, {got.get('reordered_packets')} out of order, "
      f"{got.get('lost_packets')} missing); S dropped {s_drops}")
check(sent["sent_packets"] > 1000, f"pabo: H1 sent only {sent['sent_packets']} frames")
check(bounced_to_h1 > 0 and s_pabo["h1"]["arrived_bounced"] == bounced_to_h1,
      f"pabo: S bounced nothing back to H1, or saw other than its own bounces come back: "
      f"{s_pabo['h1']}")
check(resent == bounced_to_h1 and h1_nic["pabo"]["bounce_full_drops"] == 0,
      f"pabo: S bounced {bounced_to_h1} frames to H1, H1 sent {resent} again: {h1_nic['pabo']}")
check(got.get("received_packets") == sent["sent_packets"] and got.get("lost_packets") == 0,
      f"pabo: H1 sent {sent['sent_packets']} frames, H2 received {got.get('received_packets')} "
      f"({got.get('lost_packets')} missing)")
check(0 < after_bounce <= got.get("received_packets", 0),
      f"pabo: H2 counted {after_bounce} frames delivered after a bounce")
check(s_drops == 0, f"pabo: S dropped {s_drops} frames")

sent, got, h1_nic, s_pabo, s_drops = run("drop_tail", "false")
print(f"drop-tail  H1 sent {sent['sent_packets']} frames; H2 received "
      f"{got.get('received_packets')}; S dropped {s_drops} (queue_capacity)")
check(s_pabo["h1"]["bounced"] == 0 and h1_nic["pabo"]["resent_bounced"] == 0,
      f"drop-tail: bounces without bouncing: S {s_pabo['h1']}, H1 {h1_nic['pabo']}")
check(s_drops > 0 and got.get("received_packets", 0) < sent["sent_packets"],
      f"drop-tail: S dropped {s_drops}, H2 received {got.get('received_packets')} of "
      f"{sent['sent_packets']}: the bursts fit, so the test shows nothing")

if failures:
    print(f"{len(failures)} failures")
    sys.exit(1)
print("fchost sends S's bounces again and H2 gets every frame; drop-tail loses them")
