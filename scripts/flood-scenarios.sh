#!/usr/bin/env bash
# Measures each flood of issue 11 ("Floods by a neighbour that speaks the protocol"): a line
# A-B-C of release meshnoded over loopback UDP, the hostile neighbour meshflood (M) linked to B,
# A sending a probe broadcast every 0.5 s while M floods B. Prints a table and writes JSON.
# Usage: scripts/flood-scenarios.sh [--modes m1,m2] [--seconds 20] [--rate 0] [--tail 10] [--out FILE]
# Environment: MESHNODE_BIN=DIR uses binaries already built there instead of building.
set -euo pipefail
cd "$(dirname "$0")/.."
if [ -z "${MESHNODE_BIN:-}" ]; then
  arguments=("$@")
  set --  # install-deps.sh takes its arguments as extra packages
  source scripts/install-deps.sh
  set -- "${arguments[@]}"
  for product in meshnoded relayctl meshflood; do
    swift build -c release --product "$product" 2>&1 | tail -n 1
  done
  MESHNODE_BIN="$(swift build -c release --show-bin-path)"
fi
exec python3 scripts/flood_scenarios.py --bin "$MESHNODE_BIN" "$@"
