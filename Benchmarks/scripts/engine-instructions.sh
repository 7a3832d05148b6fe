#!/usr/bin/env bash
# B's engine on daemon-cpu.sh's flood, in instructions per relayed message (callgrind; the machine's
# load does not move it): enginecpu under valgrind, counting only B's engine calls.
# Usage: Benchmarks/scripts/engine-instructions.sh [--baseline DIR] [--rate 40 --rate 400] [--messages 1000] [--keep DIR] [--out FILE]
# Environment: MESHTOOLS_BIN=DIR uses an enginecpu already built there instead of building.
set -euo pipefail
cd "$(dirname "$0")/../.."
command -v valgrind >/dev/null || { echo "engine-instructions: needs valgrind (apt-get install valgrind)" >&2; exit 69; }
MESHNODE_BIN=unused  # no daemon runs: release-bin.sh then builds only the tools
source scripts/release-bin.sh
release_tools enginecpu
exec python3 Benchmarks/scripts/engine_instructions.py --tools "$MESHTOOLS_BIN" "$@"
