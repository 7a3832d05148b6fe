#!/bin/bash
# Benchmark for scripts/blelab-run: one BLE link's per-frame delay and throughput (docs/PERFORMANCE.md,
# "One BLE link in the emulator"). For each gattcheck binary given, in turn and in one VM, two
# instances link; the first sends a latency phase (LATENCY frames, default 30, GAP seconds apart,
# default 0.3, so none waits behind another) and a throughput phase (FRAMES frames of the link's
# limit, never more than 8 handed to the transport and not yet written) to the second, which prints
# BENCH-RX lines. Several binaries (say a build before and one after a change, twice each) meet the
# same load on a shared host:
#   swift build --package-path Benchmarks -c release --product gattcheck
#   scripts/blelab-run -n 3 Tests/VM/gattbench.sh FRAMES WRITE_TYPE BIN [BIN...]
# WRITE_TYPE is request or command; WINDOW=N passes --write-window N.
. "$MESHLAB_LIB"
frames=$1; type=$2; shift 2
read -r -a adapters <<< "$MESHLAB_ADAPTERS"
[ ${#adapters[@]} -ge 2 ] || { echo "only ${#adapters[@]} adapters: $MESHLAB_ADAPTERS"; exit 3; }
status=0; run=0
for bin in "$@"; do
  run=$((run + 1))
  tx="$MESHLAB_OUT/gattbench-$run-tx.log"; rx="$MESHLAB_OUT/gattbench-$run-rx.log"
  "$bin" --adapter "${adapters[0]}" --name aaaa0001 --duration 900 --interval 3600 --write-type "$type" \
    ${WINDOW:+--write-window "$WINDOW"} --bench "$frames" --bench-gap "${GAP:-0.3}" --bench-latency "${LATENCY:-30}" > "$tx" 2>&1 &
  a=$!
  "$bin" --adapter "${adapters[1]}" --name bbbb0002 --duration 900 --interval 3600 --write-type "$type" > "$rx" 2>&1 &
  b=$!
  wait_for_line "$tx" "BENCH-TX (done|link lost)" 400 || echo "no end of the benchmark within 400 s"
  sleep 2
  kill -TERM $a $b; wait $a; wait $b
  echo "== run $run: $bin ($type), load $(cut -d' ' -f1 /proc/loadavg)"
  grep -h "BENCH-TX done\|BENCH-TX link lost" "$tx"; grep -h "BENCH-RX" "$rx"
  grep -q "BENCH-RX throughput" "$rx" || status=1
  sleep 3
done
exit $status
