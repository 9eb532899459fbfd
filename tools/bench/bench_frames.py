#!/usr/bin/env python3
"""Writes the forwarding benchmark's input: a pcap of minimum-size Ethernet frames (60 bytes
in the capture, 64 on the wire with the FCS), IPv4/UDP to the RoCEv2 port, one destination
MAC for all (the switches under test hold a static entry for it), DSCP and ECN (RFC 3168: 0
Not-ECT, 1 ECT(1), 2 ECT(0), 3 CE) set to the given values.

The frames differ only in the UDP source port, so a switch that caches per flow (OVS's EMC)
sees a handful of flows, as a NIC's RSS would spread them, and every switch sees the same bytes.
net_pcap's infinite_rx=1 replays the file in a loop.

Usage: bench_frames.py OUT.pcap [--flows N] [--dscp D] [--ecn E] [--dst MAC] [--src MAC]
"""

import argparse
import struct

FRAME_BYTES = 60  # 64-byte frames less the 4-byte FCS, which DPDK does not hand over
ROCEV2_UDP_PORT = 4791  # IANA; the lossless traffic of a RoCE fabric


def ipv4_checksum(header: bytes) -> int:
    total = sum(struct.unpack(f"!{len(header) // 2}H", header))
    total = (total >> 16) + (total & 0xFFFF)
    total += total >> 16
    return ~total & 0xFFFF


def frame(dst: bytes, src: bytes, dscp: int, ecn: int, udp_src_port: int) -> bytes:
    ip_total = FRAME_BYTES - 14
    ip = bytearray(
        struct.pack("!BBHHHBBH4s4s", 0x45, dscp << 2 | ecn, ip_total, 0, 0, 64, 17, 0,
                    bytes([10, 0, 0, 1]), bytes([10, 0, 0, 2])))
    ip[10:12] = struct.pack("!H", ipv4_checksum(bytes(ip)))
    udp_len = ip_total - 20
    udp = struct.pack("!HHHH", udp_src_port, ROCEV2_UDP_PORT, udp_len, 0)  # checksum 0: none
    out = dst + src + b"\x08\x00" + bytes(ip) + udp
    return out + bytes(FRAME_BYTES - len(out))


def mac(text: str) -> bytes:
    return bytes.fromhex(text.replace(":", ""))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("out")
    parser.add_argument("--flows", type=int, default=16)
    parser.add_argument("--dscp", type=int, default=24)  # CS3: priority 3 by class selector
    parser.add_argument("--ecn", type=int, default=0, choices=range(4))  # Not-ECT
    parser.add_argument("--dst", default="02:00:00:00:00:0b")
    parser.add_argument("--src", default="02:00:00:00:00:0a")
    args = parser.parse_args()
    with open(args.out, "wb") as out:
        # pcap global header: magic, v2.4, GMT offset, accuracy, snaplen, LINKTYPE_ETHERNET
        out.write(struct.pack("<IHHiIII", 0xA1B2C3D4, 2, 4, 0, 0, 65535, 1))
        for i in range(args.flows):
            f = frame(mac(args.dst), mac(args.src), args.dscp, args.ecn, 1024 + i)
            out.write(struct.pack("<IIII", 0, i, len(f), len(f)) + f)


if __name__ == "__main__":
    main()
