#!/usr/bin/env bash
# LAN discovery between daemons in network namespaces made here (veth pairs on bridges in a
# namespace of their own; nothing leaves the machine). Needs root; says so and exits 0 without it.
# See scripts/lan_discovery.py. Environment: MESHNODE_BIN=DIR uses binaries already built there.
set -euo pipefail
cd "$(dirname "$0")/.."
if [ "$(id -u)" != 0 ] || ! command -v ip >/dev/null; then
  echo "lan-discovery: skipped: needs root and iproute2 to make network namespaces"
  exit 0
fi
source scripts/release-bin.sh
exec python3 scripts/lan_discovery.py --bin "$MESHNODE_BIN" "$@"
