#!/usr/bin/env bash
# Builds MeshNode, starts five meshnoded processes in a line A-B-C-D-E over the
# loopback UDP transport in a temporary folder, sends a message from A with
# relayctl, shows it arrive at D (three hops) and not at E, prints each node's
# stats and stops everything cleanly (scripts/local_mesh.py, through scripts/meshlab.py).
#
# Mixed architectures (scripts/build-arm64.sh): with MESHNODE_ARM64_BIN (a folder holding arm64
# meshnoded and relayctl) and MESHNODE_ARM64_ROOT (a Debian 13 arm64 root for their loader), the
# nodes named in MESHNODE_ARM64_NODES (default "B D") run the arm64 binaries under
# qemu-aarch64-static, and their relayctl is the arm64 one too; the others run the host build.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/install-deps.sh

echo "== building meshnoded and relayctl"
swift build --product meshnoded 2>&1 | tail -n 1
swift build --product relayctl 2>&1 | tail -n 1
exec python3 -u scripts/local_mesh.py "$(swift build --show-bin-path)"
