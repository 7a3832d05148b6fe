#!/usr/bin/env bash
# A soak with faults (issue 11, "Soak and faults"): ten meshnoded over loopback UDP for MINUTES
# with random link cuts, restarts, one kill -9 and one flooding neighbour (meshflood); exits
# non-zero when a check fails (see scripts/soak.py). Time-bounded and self-stopping.
# Usage: scripts/soak.sh MINUTES [--seed N] [--max-slope KB_PER_MIN] [--out FILE]
# Environment: MESHNODE_BIN=DIR uses meshnoded and relayctl already built there and MESHTOOLS_BIN=DIR
# meshflood (CI passes the debug builds of the main and the Benchmarks package).
set -euo pipefail
cd "$(dirname "$0")/.."
minutes=${1:?usage: scripts/soak.sh MINUTES [--seed N] [--out FILE]}
shift
source scripts/release-bin.sh
release_tools meshflood
command -v python3 >/dev/null || { echo "soak: python3 is required" >&2; exit 69; }
# Bounded: the soak itself stops after MINUTES; this stops it if anything hangs.
exec timeout --signal=TERM --kill-after=30 "$(( ${minutes%.*} * 60 + 180 ))" \
  python3 scripts/soak.py --bin "$MESHNODE_BIN" --tools "$MESHTOOLS_BIN" --minutes "$minutes" "$@"
