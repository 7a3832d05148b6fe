#!/usr/bin/env bash
# Issue 12: meshnoded's whole-process CPU per relayed message beside the engine's alone.
# A line A-B-C of release meshnoded over loopback UDP; meshflood (M) linked to B sends one-frame
# broadcasts at a steady rate B keeps up with; B's CPU (utime+stime from /proc) over the flood
# is divided by the messages B relayed. enginecpu then runs the same messages through the engine
# alone, in-process, timing only B's engine. Prints a table and writes JSON.
# Usage: Benchmarks/scripts/daemon-cpu.sh [--baseline DIR] [--rate 500] [--seconds 10] [--repeat 1] [--perf] [--out FILE]
# Environment: MESHNODE_BIN=DIR (meshnoded, relayctl) and MESHTOOLS_BIN=DIR (meshflood, enginecpu)
# use binaries already built there instead of building.
set -euo pipefail
cd "$(dirname "$0")/../.."
source scripts/release-bin.sh
release_tools meshflood enginecpu
exec python3 Benchmarks/scripts/daemon_cpu.py --bin "$MESHNODE_BIN" --tools "$MESHTOOLS_BIN" "$@"
