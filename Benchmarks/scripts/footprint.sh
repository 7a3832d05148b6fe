#!/usr/bin/env bash
# Reproduces the footprint figures of docs/PERFORMANCE.md ("Footprint: flash and memory"):
# builds with `make build`, stages `make install DESTDIR=...` (stripped), prints the installed
# sizes, then runs the installed meshnoded over loopback UDP: idle, with 50 neighbours, and under
# a fragment flood (meshflood --mode partial) from 50 links; prints RSS figures, writes JSON.
# Usage: Benchmarks/scripts/footprint.sh [--out FILE] [--neighbours 50] [--flooders 50] [--flood-seconds 20]
# Environment: MESHTOOLS_BIN=DIR uses a meshflood already built there (else a release build).
set -euo pipefail
cd "$(dirname "$0")/../.."
export PATH="/opt/swift/usr/bin:$PATH"
make build >/dev/null
stage="$(mktemp -d /tmp/footprint-stage.XXXXXX)"
trap 'rm -rf "$stage"' EXIT
make install DESTDIR="$stage" >/dev/null
MESHNODE_BIN="$stage/usr/local/bin"  # release-bin.sh then builds only the tools
source scripts/release-bin.sh
release_tools meshflood
python3 Benchmarks/scripts/footprint.py --stage-bin "$MESHNODE_BIN" --tool-bin "$MESHTOOLS_BIN" "$@"
