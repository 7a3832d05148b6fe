#!/usr/bin/env bash
# Issue 21, scale: one mosquitto and 20 gateways on this machine, each with one local node
# (meshflood) sending stamped broadcasts; beside them the plain relay path, a node without [mqtt]
# relaying the same number of messages a second. Prints envelopes per second through the bridge,
# latency percentiles, CPU per message of the gateways, the relay and mosquitto, and the ratio.
# Usage: Benchmarks/scripts/mqtt-scale.sh [--gateways 20] [--rate 4] [--seconds 30] [--out FILE]
# Environment: MESHNODE_BIN=DIR (meshnoded, relayctl) and MESHTOOLS_BIN=DIR (meshflood) use
# binaries already built there instead of release builds.
set -euo pipefail
cd "$(dirname "$0")/../.."
source scripts/release-bin.sh
release_tools meshflood
exec python3 Benchmarks/scripts/mqtt_scale.py --bin "$MESHNODE_BIN" --tools "$MESHTOOLS_BIN" "$@"
