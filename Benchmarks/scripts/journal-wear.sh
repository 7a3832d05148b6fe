#!/usr/bin/env bash
# What seen.journal costs (issue 19 item 2, docs/PERFORMANCE.md "Seen journal"): one meshnoded on
# loopback UDP with a `relayctl watch` attached (so every delivery waits for a sync), its state
# directory on the disk (not a tmpfs), and a meshflood neighbour broadcasting RATE messages a
# second for SECONDS. Prints what meshnoded wrote to storage in that time (/proc/PID/io
# write_bytes: page cache pages it dirtied, the bytes writeback sends to the card) per minute,
# its syncs, and the mean latency the journal added to a delivery (seen_journal counters).
# Usage: Benchmarks/scripts/journal-wear.sh [RATE] [SECONDS]   (defaults 40 and 60)
# Environment: MESHNODE_BIN=DIR (meshnoded, relayctl) and MESHTOOLS_BIN=DIR (meshflood) use binaries
# already built there (else release builds);
# WATCH=0 runs without the watcher (a relay nobody reads at: no syncs, only the kernel's writeback).
set -euo pipefail
cd "$(dirname "$0")/../.."
rate=${1:-40} seconds=${2:-60}
source scripts/release-bin.sh
release_tools meshflood
mkdir -p .build
dir=$(mktemp -d "$PWD/.build/journal-wear.XXXXXX")
port=$((38000 + RANDOM % 2000))
"$MESHNODE_BIN/meshnoded" --transport udp --udp-port "$port" --state-directory "$dir" --runtime-directory "$dir" \
  --name wear --log-level notice 2> "$dir/meshnoded.log" &
node=$!
watch=
trap 'kill $node $watch 2>/dev/null || true; wait 2>/dev/null || true' EXIT
for _ in $(seq 100); do [ -S "$dir/control.sock" ] && break; sleep 0.1; done
touch "$dir/watch.jsonl"
if [ "${WATCH:-1}" != 0 ]; then
  "$MESHNODE_BIN/relayctl" --socket "$dir/control.sock" --json watch > "$dir/watch.jsonl" &
  watch=$!
fi
sleep 1
before=$(awk '/^write_bytes/ {print $2}' "/proc/$node/io")
start=$(date +%s.%N)
"$MESHTOOLS_BIN/meshflood" --target "127.0.0.1:$port" --mode broadcast --rate "$rate" --duration "$seconds" --json \
  > "$dir/flood.json"
sleep 1
after=$(awk '/^write_bytes/ {print $2}' "/proc/$node/io")
end=$(date +%s.%N)
"$MESHNODE_BIN/relayctl" --socket "$dir/control.sock" --json stats > "$dir/stats.json"
python3 - "$dir" "$before" "$after" "$start" "$end" <<'PY'
import json, sys
d, before, after, start, end = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), float(sys.argv[4]), float(sys.argv[5])
stats = json.load(open(f"{d}/stats.json"))["counters"]
journal, message = stats["seen_journal"], stats["message"]
minutes = (end - start) / 60
watched = sum(1 for line in open(f"{d}/watch.jsonl") if '"message"' in line)
held = journal["deliveries_held"]
print(f"delivered {message['delivered']} ({watched} reported to the watcher) in {end - start:.1f} s; "
      f"journal: {journal['ids_written']} IDs, {journal['writes']} writes, {journal['syncs']} syncs "
      f"({journal['syncs'] / (end - start):.2f}/s)")
print(f"written to storage: {after - before} bytes, {(after - before) / minutes / 1024:.0f} KiB/min")
print(f"deliveries held for a sync: {held}, mean wait "
      f"{journal['held_microseconds'] / held / 1000 if held else 0:.1f} ms")
PY
echo "state directory: $dir"
