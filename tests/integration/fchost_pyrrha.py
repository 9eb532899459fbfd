"""fchost pauses per congestion root (Pyrrha §4.4, issue 20): a flow whose path crosses a
paused root waits, the others go on.

One fchost on net_pcap: its RX file holds one PAUSE from its switch for root 7:2 on priority 3,
read as soon as the host starts; 100 ms later two flows of priority 3 start, F1 through switch
7's port 2 (pyrrha_path = ["1:1", "7:2"]) and F2 through switch 8 (["1:1", "8:0"]). Checks: F1
sends nothing and its summary says it was held (one pause, held from its start to its end);
F2 sends at its rate, never held; the PAUSE was taken (the host's counters); exit 0 with the
pool full.

usage: fchost_pyrrha.py FCHOST WORK_DIR
"""
import json
import pathlib
import shutil
import struct
import subprocess
import sys

from pcap_files import read_pcap, write_pcap
from script_checks import Checks

fchost, work = sys.argv[1], pathlib.Path(sys.argv[2])
shutil.rmtree(work, ignore_errors=True)
work.mkdir(parents=True)
FLOW_S = 0.2


def pause_frame(switch_id, port, priority, hops=1):
    """lib/wire/pyrrha_frame.h: PAUSE for root switch_id:port, from the switch's port."""
    head = bytes.fromhex("0180c2000001") + bytes.fromhex("020000000a01") + b"\x88\xb5"
    body = struct.pack("!BBBBBBIHIH", 0xB1, 1, 1, priority, hops, 0, switch_id, port, 0, 0)
    return (head + body).ljust(60, b"\x00")


write_pcap(work / "in.pcap", [pause_frame(7, 2, 3)])


def flow(flow_id, path):
    return (f'[[flows]]\nid = {flow_id}\nto_mac = "02:00:00:00:02:01"\nto_ip = "10.0.2.1"\n'
            f'priority = 3\nrate = "100Mbps"\nstart = "100ms"\nduration = "{FLOW_S}s"\n'
            f'pyrrha_path = {json.dumps(path)}\n')


(work / "h.toml").write_text(f"""[switch]
name = "H1"
lossless_priorities = [3]
mbufs = 4095
[host]
ip = "10.0.1.1"
[eal]
args = ["--no-huge", "-m", "256", "--no-pci", "--no-telemetry", "--log-level=warning",
        "--file-prefix=fchpyrrha_{work.stat().st_ino}"]
[flow_control]
engine = "none"
[pyrrha]
priority = 3
[[ports]]
name = "nic"
device = "net_pcap0,rx_pcap={work}/in.pcap,tx_pcap={work}/out.pcap"
mac = "02:00:00:00:01:01"
""" + flow(1, ["1:1", "7:2"]) + flow(2, ["1:1", "8:0"]))

checks = Checks()
run = checks.run([fchost, str(work / "h.toml"), "--duration", "0.5", "--summary",
                  str(work / "h.json")], timeout=60)
checks.expect(run.returncode == 0, f"fchost exited {run.returncode}")
summary = json.loads((work / "h.json").read_text()) if (work / "h.json").exists() else {}
flows = {f["id"]: f for f in summary.get("flows", [])}
f1, f2 = flows.get(1, {}), flows.get(2, {})
checks.expect(f1.get("sent_packets") == 0, f"F1 (through paused root 7:2) sent nothing: {f1}")
checks.expect(f1.get("pyrrha_pauses") == 1 and f1.get("pyrrha_blocked_s", 0) >= FLOW_S * 0.9,
              f"F1 was held once, for its whole {FLOW_S} s: {f1.get('pyrrha_pauses')} pauses, "
              f"{f1.get('pyrrha_blocked_s')} s")
# 100 Mb/s for 0.2 s of 1500-byte frames: about 1 650; pacing on a busy machine may lose some.
checks.expect(f2.get("sent_packets", 0) > 1000, f"F2 (not through it) went on: {f2}")
checks.expect(f2.get("pyrrha_pauses") == 0 and f2.get("pyrrha_blocked_s") == 0,
              f"F2 was never held: {f2.get('pyrrha_pauses')} pauses")
sent = [f for f in read_pcap(work / "out.pcap") if f[12:14] == b"\x08\x00"]
checks.expect(len(sent) == f2.get("sent_packets"), f"the wire has F2's frames only: {len(sent)}")
checks.expect(summary.get("mempool_in_use_after_shutdown") == 0, "mbufs back in the pool")
checks.finish()
