"""pcap files as net_pcap reads and writes them: microsecond timestamps, little-endian,
Ethernet link type."""
import struct


def write_pcap(path, frames):
    with open(path, "wb") as f:
        f.write(struct.pack("<IHHiIII", 0xA1B2C3D4, 2, 4, 0, 0, 65535, 1))
        for i, data in enumerate(frames):
            f.write(struct.pack("<IIII", 0, i, len(data), len(data)))
            f.write(data)


def read_pcap(path):
    """The frames of a pcap file."""
    with open(path, "rb") as f:
        data = f.read()
    frames, at = [], 24
    while at + 16 <= len(data):
        length = struct.unpack_from("<I", data, at + 8)[0]
        frames.append(data[at + 16:at + 16 + length])
        at += 16 + length
    return frames
