#!/usr/bin/env bash
# The MQTT bridge end to end (issue 21): a real mosquitto on a loopback port started here, two
# islands of meshnoded over loopback UDP, gateways, a 10 s broker outage and a hostile publisher
# and mqttflood (Benchmarks/) publishing 10,000 messages a second (scripts/mqtt_bridge.py). Exits
# non-zero when a check fails; bounded to 3 minutes.
# Usage: scripts/test-mqtt.sh [--out FILE] [--keep]
# Environment: MESHNODE_BIN=DIR uses binaries already built there (CI passes the debug build);
# MESHTOOLS_BIN=DIR a Benchmarks/ build with mqttflood (else a release build of it is made).
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/release-bin.sh
for tool in python3 mosquitto mosquitto_pub mosquitto_sub; do
  command -v "$tool" >/dev/null || { echo "test-mqtt: $tool is required (scripts/install-deps.sh)" >&2; exit 69; }
done
release_tools mqttflood
exec timeout --signal=TERM --kill-after=20 180 python3 scripts/mqtt_bridge.py --bin "$MESHNODE_BIN" --tools "$MESHTOOLS_BIN" "$@"
