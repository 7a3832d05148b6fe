#!/usr/bin/env bash
# Measures a hostile LAN host against B of a line A-B-C of release meshnoded over loopback UDP:
# garbage datagrams, connects, and sealed frames of a linked neighbour (meshflood), each with B's frame
# budget off and on (Benchmarks/scripts/lan_flood.py). Prints a table and writes JSON.
# Usage: Benchmarks/scripts/lan-flood.sh [--seconds 15] [--budgets 0,2000] [--floods garbage,connect,big,bad-signature] [--out FILE]
# Environment: MESHNODE_BIN=DIR (meshnoded, relayctl) and MESHTOOLS_BIN=DIR (meshflood) use
# binaries already built there instead of building.
set -euo pipefail
cd "$(dirname "$0")/../.."
source scripts/release-bin.sh
release_tools meshflood
exec python3 Benchmarks/scripts/lan_flood.py --bin "$MESHNODE_BIN" --tools "$MESHTOOLS_BIN" "$@"
