#!/usr/bin/env bash
# Forges UDP closes against a real A-B link with a raw-socket forger (issue 19 item 7) and reports
# link downs, probes and challenge counts; needs root (CAP_NET_RAW). See scripts/forged_closes.py.
# Usage: scripts/forged-closes.sh [--directions both,to-b,to-a,none] [--runs 3] [--event stop|restart] [--out FILE] ...
# Environment: MESHNODE_BIN=DIR uses binaries already built there instead of building.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/release-bin.sh
exec python3 scripts/forged_closes.py --bin "$MESHNODE_BIN" "$@"
