#!/usr/bin/env bash
# The main job: installs what is missing, builds, and runs the demo. Until the lab lands
# (issue 5), the demo is one switch forwarding a mixed pcap through four net_pcap ports.
# Output (pcaps, report.json) goes to ${OUT:-out/demo}.
set -euo pipefail
cd "$(dirname "$0")/.."
tools/install-deps.sh
tools/build.sh
out=${OUT:-out/demo}
rm -rf "$out"
mkdir -p "$out"
build/tools/fcswitch-demo-traffic "$out"
cp config/demo-pcap.toml "$out/switch.toml"
cd "$out"
../../build/app/fcswitch switch.toml --exit-on-idle 300 --report-json report.json
echo "output pcaps and report.json in $out"
