"""fcswitch runs Pyrrha from its own config (issue 20): [pyrrha] with a table of onward paths
([[pyrrha.paths]]) and host_ports, over net_pcap ports. Before, fcswitch refused to start with
[pyrrha] (it had no path oracle). Checks: the switch starts and says how many paths it read,
forwards the class's frames (no root yet, so they go through the output queue) in order, and
exits 0 with its pool full. The isolation itself is tested on the node with the same table
(tests/dpdk/pyrrha_framer_test.cc, FcswitchTakesTheOnwardPathsFromItsConfig).

usage: pyrrha_fcswitch.py FCSWITCH WORK_DIR
"""
import json
import pathlib
import shutil
import struct
import subprocess
import sys

from pcap_files import read_pcap, write_pcap
from script_checks import Checks

fcswitch, work = sys.argv[1], pathlib.Path(sys.argv[2])
shutil.rmtree(work, ignore_errors=True)
work.mkdir(parents=True)
FRAMES = 20
DST, SRC = bytes.fromhex("02000000000b"), bytes.fromhex("020000000001")


def frame(sequence):
    """IPv4/UDP at DSCP 24 (class selector 3: priority 3), 100 bytes."""
    payload = struct.pack("!I", sequence) + bytes(100 - 14 - 20 - 8 - 4)
    udp = struct.pack("!HHHH", 4000, 4000, 8 + len(payload), 0) + payload
    ip = struct.pack("!BBHHHBBH4s4s", 0x45, 24 << 2, 20 + len(udp), 0, 0, 64, 17, 0,
                     bytes([10, 0, 1, 1]), bytes([10, 0, 2, 1]))
    checksum = sum(struct.unpack("!10H", ip))
    checksum = (checksum & 0xFFFF) + (checksum >> 16)
    ip = ip[:10] + struct.pack("!H", ~checksum & 0xFFFF) + ip[12:]
    return DST + SRC + b"\x08\x00" + ip + udp


write_pcap(work / "in_h.pcap", [frame(s) for s in range(FRAMES)])
write_pcap(work / "in_up.pcap", [])
(work / "s.toml").write_text(f"""[switch]
name = "tor"
lossless_priorities = [3]
mac_learning = false
mbufs = 4095
[eal]
args = ["--no-huge", "-m", "512", "--no-pci", "--file-prefix=fcpyrrha_{work.stat().st_ino}",
        "--log-level=warning"]
[flow_control]
engine = "none"
[[ports]]
name = "h"
device = "net_pcap0,rx_pcap={work}/in_h.pcap,tx_pcap={work}/out_h.pcap"
[[ports]]
name = "up"
device = "net_pcap1,rx_pcap={work}/in_up.pcap,tx_pcap={work}/out_up.pcap"
[[fib]]
mac = "02:00:00:00:00:0b"
port = "up"
[pyrrha]
priority = 3
switch_id = 1
host_ports = ["h"]
[[pyrrha.paths]]
egress = "up"
to = "02:00:00:00:00:0b"
hops = ["7:2", "9:0"]
""")
run = subprocess.run([fcswitch, work / "s.toml", "--exit-on-idle", "300", "--report-json",
                      work / "s.json"], capture_output=True, text=True, timeout=60)
log = run.stdout + run.stderr
(work / "s.log").write_text(log)
checks = Checks()
check = checks.expect
check(run.returncode == 0, f"fcswitch exited {run.returncode} ({work}/s.log)")
check("Pyrrha's onward paths from [[pyrrha.paths]]: 1 (egress, destination) pairs, 1 host "
      "ports" in log, f"no word of the path table in {work}/s.log")
out = [f for f in read_pcap(work / "out_up.pcap") if f[12:14] == b"\x08\x00"]
sequences = [struct.unpack_from("!I", f, 42)[0] for f in out]
check(sequences == list(range(FRAMES)),
      f"expected frames 0..{FRAMES - 1} out of port up in order, found {sequences}")
if (work / "s.json").exists():
    report = json.loads((work / "s.json").read_text())
    check(report.get("mempool_in_use") == 0, f"mbufs not back: {report.get('mempool_in_use')}")
else:
    check(False, "no report")
checks.finish()
