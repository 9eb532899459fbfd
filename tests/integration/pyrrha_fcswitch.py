"""fcswitch runs Pyrrha from its own config, over net_pcap ports, in its two ways:
  - a table of onward paths ([[pyrrha.paths]]) and host_ports: the switch starts and says how
    many paths it read, forwards the class's frames (no root yet, so they go through the output
    queue) in order, and exits 0 with its pool full;
  - `network` and `node`: edge switch T1 of the k = 4 fat-tree (config/lab/fat-tree-k4.toml)
    takes its routes from that scenario and says so; 32 flows from T1h1 to T3h1 (another pod)
    leave by both uplinks, as its ECMP spreads them, and nothing is lost; a node the network
    lacks, other ports than the node's and a [[fib]] beside `network` are refused (exit 2)
    with the config's place.
The isolation itself is tested on the node (tests/dpdk/pyrrha_framer_test.cc with the table,
tests/dpdk/pyrrha_network_test.cc with the network, ECMP past the first hop).

usage: pyrrha_fcswitch.py FCSWITCH SOURCE_DIR WORK_DIR
"""
import json
import os
import pathlib
import shutil
import struct
import subprocess
import sys

from pcap_files import read_pcap, write_pcap
from script_checks import Checks

fcswitch, source, work = sys.argv[1], pathlib.Path(sys.argv[2]), pathlib.Path(sys.argv[3])
shutil.rmtree(work, ignore_errors=True)
work.mkdir(parents=True)
FRAMES = 20
DST, SRC = bytes.fromhex("02000000000b"), bytes.fromhex("020000000001")


def frame(sequence, dst=DST, src=SRC, src_port=4000):
    """IPv4/UDP at DSCP 24 (class selector 3: priority 3), 100 bytes."""
    payload = struct.pack("!I", sequence) + bytes(100 - 14 - 20 - 8 - 4)
    udp = struct.pack("!HHHH", src_port, 4000, 8 + len(payload), 0) + payload
    ip = struct.pack("!BBHHHBBH4s4s", 0x45, 24 << 2, 20 + len(udp), 0, 0, 64, 17, 0,
                     bytes([10, 0, 1, 1]), bytes([10, 0, 2, 1]))
    checksum = sum(struct.unpack("!10H", ip))
    checksum = (checksum & 0xFFFF) + (checksum >> 16)
    ip = ip[:10] + struct.pack("!H", ~checksum & 0xFFFF) + ip[12:]
    return dst + src + b"\x08\x00" + ip + udp


def switch_head(name, prefix):
    """[switch], [eal] and [flow_control] of a switch whose ports are files."""
    return f"""[switch]
name = "{name}"
lossless_priorities = [3]
mac_learning = false
mbufs = 4095
[eal]
args = ["--no-huge", "-m", "512", "--no-pci", "--file-prefix=fcpyrrha_{prefix}_{os.getpid()}",
        "--log-level=warning"]
[flow_control]
engine = "none"
"""


write_pcap(work / "in_h.pcap", [frame(s) for s in range(FRAMES)])
write_pcap(work / "in_up.pcap", [])
(work / "s.toml").write_text(switch_head("tor", "table") + f"""[[ports]]
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


def pool_full(report_path):
    if report_path.exists():
        report = json.loads(report_path.read_text())
        check(report.get("mempool_in_use") == 0,
              f"mbufs not back: {report.get('mempool_in_use')} ({report_path})")
    else:
        check(False, f"no report {report_path}")


pool_full(work / "s.json")

# [pyrrha] network: T1 of the k = 4 fat-tree. Its ports are named for their peers, in the
# scenario's order; the lab numbers nodes switches first (S1…S4, then pods' T and L), then the
# hosts T1h1, T1h2, T2h1, …, and gives node n the MAC 02:00:00:00:00:(n + 1): T1h1 is node
# 20, T3h1 node 24. A wrong guess here leaves the frames unrouted, and the check below fails.
T1_PORTS = ("T1h1", "T1h2", "L1", "L2")
T1H1, T3H1 = bytes.fromhex("020000000015"), bytes.fromhex("020000000019")
NETWORK = source / "config" / "lab" / "fat-tree-k4.toml"
net = work / "network"
net.mkdir()
write_pcap(net / "in_T1h1.pcap", [frame(s, T3H1, T1H1, 5000 + s) for s in range(32)])
for port in T1_PORTS[1:]:
    write_pcap(net / f"in_{port}.pcap", [])


def t1_toml(prefix, ports=T1_PORTS, node="T1", extra=""):
    devices = "".join(
        f'[[ports]]\nname = "{p}"\ndevice = "net_pcap{i},rx_pcap={net}/in_{p}.pcap,'
        f'tx_pcap={net}/out_{p}.pcap"\n' for i, p in enumerate(ports))
    return switch_head("T1", prefix) + f"""{devices}[pyrrha]
priority = 3
network = "{NETWORK}"
node = "{node}"
{extra}"""


(net / "t1.toml").write_text(t1_toml("run"))
run = subprocess.run([fcswitch, net / "t1.toml", "--exit-on-idle", "300", "--report-json",
                      net / "t1.json"], capture_output=True, text=True, timeout=60)
log = run.stdout + run.stderr
(net / "t1.log").write_text(log)
check(run.returncode == 0, f"fcswitch exited {run.returncode} ({net}/t1.log)")
check(f"Pyrrha's onward paths predicted from the network {NETWORK} as its switch T1 (switch id "
      "4): 16 FIB entries from its routes" in log, f"no word of the network in {net}/t1.log")
up = {p: sorted(struct.unpack_from("!I", f, 42)[0] for f in read_pcap(net / f"out_{p}.pcap")
                if f[12:14] == b"\x08\x00") for p in ("L1", "L2")}
print(f"T1 sent {len(up['L1'])} flows up to L1 and {len(up['L2'])} to L2")
check(sorted(up["L1"] + up["L2"]) == list(range(32)) and up["L1"] and up["L2"],
      f"expected the 32 flows spread over both uplinks, each once, found {up}")
check(not [f for f in read_pcap(net / "out_T1h2.pcap") if f[12:14] == b"\x08\x00"],
      "frames for another pod left by a host port")
pool_full(net / "t1.json")

# Refused before anything starts, at the config's key.
refusals = {
    "node": (t1_toml("node", node="T9"), "pyrrha.node: expected a switch of"),
    "ports": (t1_toml("ports", ports=("T1h1", "T1h2", "L2", "L1")),
              "pyrrha.node: expected [[ports]] named as T1's ports in"),
    "fib": (t1_toml("fib") + '[[fib]]\nmac = "02:00:00:00:00:19"\nport = "L1"\n',
            "pyrrha.network: expected no [[fib]] beside it"),
}
for name, (text, message) in refusals.items():
    (net / f"{name}.toml").write_text(text)
    run = subprocess.run([fcswitch, net / f"{name}.toml", "--check"], capture_output=True,
                         text=True, timeout=60)
    out = run.stdout + run.stderr
    check(run.returncode == 2 and f"{name}.toml:" in out and message in out,
          f"{name}: expected exit 2 and \"{message}\", found exit {run.returncode}: {out}")
checks.finish()
