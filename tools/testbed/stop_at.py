#!/usr/bin/env python3
"""Sends SIGTERM at Unix time UNIX_S to the process whose PID PID_FILE holds: a switch stops
when the run ends, on its own machine's clock, as the hosts' --start-at and --duration do.

    stop_at.py UNIX_S PID_FILE
"""
import os
import pathlib
import signal
import sys
import time

if len(sys.argv) != 3:
    sys.exit(__doc__)
time.sleep(max(0.0, float(sys.argv[1]) - time.time()))
try:
    os.kill(int(pathlib.Path(sys.argv[2]).read_text()), signal.SIGTERM)
except (OSError, ValueError) as error:
    sys.exit(f"stop_at: {sys.argv[2]}: {error}")
