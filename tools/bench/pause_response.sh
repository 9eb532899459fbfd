#!/usr/bin/env bash
# Two running switches (prints figures, never fails on speed): two fcswitch processes joined by
# net_memif, as two switches of a testbed joined by a cable. The upstream forwards 1514-byte UDP
# frames read without end from a pcap it is given into the link; the downstream forwards them
# to a port capped at 1 Gb/s, so its ingress fills and it holds the upstream back. Per engine
# and layout: the bottleneck's use, lossless drops at the link, the upstream's pause expiries
# that its TX saw beside the downstream's pause frames sent too late for the last pause and
# the upstream's late polls (a CPU taken away), τ p99 after each XOFF (the pause frame's way out
# of the downstream, the upstream's RX and gate, and what the upstream had committed past its
# gate), and the seconds τ was over response_time. The testbed layout runs on one CPU per
# switch where the machine has fewer than its 10 (its warning says what that does to τ).
# The same runs, with assertions, are tests/integration/wallclock_lossless.py.
# Usage: tools/bench/pause_response.sh [SECONDS] [ENGINE...]
set -euo pipefail
cd "$(dirname "$0")/../.."
seconds=${1:-4}
shift || true
engines=("${@:-pfc}")
fcswitch=${FCSWITCH:-build/app/fcswitch}
tools/install-deps.sh
tools/build.sh
work=$(mktemp -d)
[ -z "${KEEP:-}" ] || echo "work: $work"
trap '[ -n "${KEEP:-}" ] || rm -rf "$work"' EXIT
python3 tests/integration/wallclock_lossless.py "$fcswitch" "$work" --seconds "$seconds" \
  --engines "${engines[@]}" --bench
echo "(τ p99 is a bucket bound: 1 µs below 128 µs, powers of two above; the paper's testbed"
echo " measured a worst case of 90 µs with RX, TX and FWD each on its own core. A pause that ran"
echo " out under XOFF comes with a CPU taken away from one of the two: the downstream's late"
echo " pause frames or the upstream's late polls count it.)"
