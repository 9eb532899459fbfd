"""A switch restarted under its hosts: the hosts' memif clients dial it again (dpdk::MemifRedial).

H1 → S → H2 over net_memif, as in link_flap.py, under PFC: H1's flow at line rate for 8 s. A
second into the flow S stops (SIGTERM); a new S process starts on the same sockets once the old
one has exited. A memif client of DPDK 22.11 connects only as its port starts, so without the
redial both hosts' links stay down and the new S forwards nothing. Checks:
  - the new S forwards H1's flow to H2 (more than 1 000 frames out of its port h2), which only
    a redial of both H1 and H2 makes possible;
  - each host logged its server's going and its link's coming back after its dials;
  - every process exits 0 with its pool full.
usage: memif_redial.py FCSWITCH FCHOST SOURCE_DIR WORK_DIR
"""
import json
import os
import pathlib
import re
import shutil
import signal
import sys
import time

fcswitch, fchost, source, work = sys.argv[1:5]
sys.path.insert(0, os.path.join(source, "tools", "testbed"))
import testbed_configs as tc  # noqa: E402

work = pathlib.Path(work)
failures = []


def check(ok, what):
    if not ok:
        failures.append(what)
        print("FAIL:", what)


shutil.rmtree(work, ignore_errors=True)
work.mkdir(parents=True)
tc.bottleneck(work, "pfc", "fcredial", {"start": '"100ms"', "duration": '"8s"'})
procs = []


def switch(n):
    """The switch's n-th process, forwarding."""
    return tc.start_switch(procs, [fcswitch, work / "s.toml", "--report-json", work / f"s{n}.json"],
                           work / f"s{n}.log")


try:
    s1 = switch(1)
    zero = time.time() + 3.5
    hosts = {name: tc.start(procs, [fchost, work / f"{name}.toml", "--start-at", f"{zero:.3f}",
                                    "--duration", "10", "--summary", work / f"{name}.json"],
                            work / f"{name}.log")
             for name in ("h1", "h2")}
    time.sleep(max(0.0, zero + 1.1 - time.time()))  # a second into the flow
    s1.send_signal(signal.SIGTERM)
    code_s1 = s1.wait(timeout=60)
    s2 = switch(2)
    codes_h = {name: h.wait(timeout=60) for name, h in hosts.items()}
    s2.send_signal(signal.SIGTERM)
    code_s2 = s2.wait(timeout=60)
finally:
    tc.kill_unfinished(procs)

check([code_s1, code_s2] == [0, 0] and not any(codes_h.values()),
      f"exit codes: S {code_s1}, new S {code_s2}, hosts {codes_h} ({work})")
new_s = json.loads((work / "s2.json").read_text())
(h2_port,) = [p for p in new_s["ports"] if p["name"] == "h2"]
forwarded = sum(h2_port["tx_packets"])  # per egress queue
print(f"the new S forwarded {forwarded} frames of H1's flow to H2")
check(forwarded > 1000, f"the new S forwarded only {forwarded} frames to H2: the hosts did not "
      f"dial it ({work}/h1.log, h2.log)")
for name in ("h1", "h2"):
    log = (work / f"{name}.log").read_text()
    check("link down: its memif server has gone; dialling it again" in log
          and re.search(r"link up \(.*, after \d+ dials?\)", log),
          f"{name} did not log its server's going and its link back after dials ({work})")
    check(json.loads((work / f"{name}.json").read_text())["mempool_in_use_after_shutdown"] == 0,
          f"{name}'s mbufs not back")
check(new_s["mempool_in_use"] == 0, "the new S's mbufs not back")
if failures:
    sys.exit(1)
print("memif redial: both hosts dialled the restarted switch, which forwarded the flow again")
