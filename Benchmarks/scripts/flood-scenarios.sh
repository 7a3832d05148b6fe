#!/usr/bin/env bash
# Measures each flood of issue 11 ("Floods by a neighbour that speaks the protocol"): a line
# A-B-C of release meshnoded over loopback UDP, the hostile neighbour meshflood (M) linked to B,
# A sending a probe broadcast every 0.5 s while M floods B. Prints a table and writes JSON.
# Usage: Benchmarks/scripts/flood-scenarios.sh [--modes m1,m2] [--scheduler managed|plain] [--seconds 20] [--rate 0] [--tail 10] [--out FILE]
# Environment: MESHNODE_BIN=DIR (meshnoded, relayctl) and MESHTOOLS_BIN=DIR (meshflood) use
# binaries already built there instead of building.
set -euo pipefail
cd "$(dirname "$0")/../.."
source scripts/release-bin.sh
release_tools meshflood
exec python3 Benchmarks/scripts/flood_scenarios.py --bin "$MESHNODE_BIN" --tools "$MESHTOOLS_BIN" "$@"
