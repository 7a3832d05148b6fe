#!/usr/bin/env bash
# Reproduces the footprint figures of docs/PERFORMANCE.md ("Footprint: flash and memory"):
# builds with `make build`, stages `make install DESTDIR=...` (stripped), prints the installed
# sizes, then runs the installed meshnoded over loopback UDP: idle, with 50 neighbours, and under
# a fragment flood (meshflood --mode partial) from 50 links; prints RSS figures, writes JSON.
# Usage: scripts/footprint.sh [--out FILE] [--neighbours 50] [--flooders 50] [--flood-seconds 20]
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="/opt/swift/usr/bin:$PATH"
make build >/dev/null
stage="$(mktemp -d /tmp/footprint-stage.XXXXXX)"
trap 'rm -rf "$stage"' EXIT
make install DESTDIR="$stage" >/dev/null
# meshflood with the Makefile's flags and scratch path, so the shared modules are not rebuilt.
read -r -a flags <<<"$(make -s --no-print-directory --eval='print-swiftflags: ; @echo $(SWIFTFLAGS)' print-swiftflags)"
scratch="$(make -s --no-print-directory --eval='print-scratch: ; @echo $(SCRATCH)' print-scratch)"
swift build "${flags[@]}" --scratch-path "$scratch" --product meshflood >/dev/null
python3 scripts/footprint.py --stage-bin "$stage/usr/local/bin" \
    --tool-bin "$(swift build "${flags[@]}" --scratch-path "$scratch" --show-bin-path)" "$@"
