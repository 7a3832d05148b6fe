#!/bin/bash
# Benchmark for scripts/blelab-run: one BLE link's per-frame delay and throughput (docs/PERFORMANCE.md,
# "One BLE link in the emulator"). Two gattcheck instances link; the first sends a latency phase (frames
# GAP seconds apart, default 0.3, LATENCY of them, default 30, so none waits behind another) and a throughput phase (frames of the link's limit, a window of 8 handed to the
# transport) to the second, which prints BENCH-RX lines:
#   swift build --package-path Benchmarks -c release --product gattcheck
#   scripts/blelab-run -n 3 Tests/VM/gattbench.sh Benchmarks/.build/release/gattcheck [FRAMES] [WRITE_TYPE]
. "$MESHLAB_LIB"
bin=$(readlink -f "$1"); frames=${2:-1000}; type=${3:-request}
read -r -a adapters <<< "$MESHLAB_ADAPTERS"
[ ${#adapters[@]} -ge 2 ] || { echo "only ${#adapters[@]} adapters: $MESHLAB_ADAPTERS"; exit 3; }
tx="$MESHLAB_OUT/gattbench-tx.log"; rx="$MESHLAB_OUT/gattbench-rx.log"
"$bin" --adapter "${adapters[0]}" --name aaaa0001 --duration 900 --interval 3600 --write-type "$type" \
  ${WINDOW:+--write-window "$WINDOW"} --bench "$frames" --bench-gap "${GAP:-0.3}" --bench-latency "${LATENCY:-30}" > "$tx" 2>&1 &
a=$!
"$bin" --adapter "${adapters[1]}" --name bbbb0002 --duration 900 --interval 3600 --write-type "$type" > "$rx" 2>&1 &
b=$!
wait_for_line "$tx" "BENCH-TX (done|link lost)" 400 || echo "no end of the benchmark within 400 s"
sleep 2
kill -TERM $a $b; wait $a; wait $b
grep -h "BENCH-TX\|linkUp\|COUNTERS" "$tx"; grep -h "BENCH-RX\|COUNTERS" "$rx"
grep -q "BENCH-RX throughput" "$rx"
