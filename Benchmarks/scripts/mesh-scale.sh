#!/usr/bin/env bash
# Runs every mesh-at-scale figure of docs/PERFORMANCE.md ("The mesh at scale", "Managed
# flooding") with the release meshsim and writes one JSON file per run to
# docs/measurements/mesh-<topology>-<nodes>-<scheduler>.json. Then run
# Benchmarks/scripts/plot-performance.sh for the plots.
#   Benchmarks/scripts/mesh-scale.sh            # everything (N = 50, 200 and 1,000; takes a while on 2 cores)
#   MESH_SIZES="50 200" Benchmarks/scripts/mesh-scale.sh   # fewer sizes
set -euo pipefail
cd "$(dirname "$0")/../.."
export PATH="/opt/swift/usr/bin:$PATH"
swift build -c release --package-path Benchmarks --product meshsim 2>&1 | tail -n 1
bin="$(swift build -c release --package-path Benchmarks --show-bin-path)/meshsim"
out=docs/measurements
mkdir -p "$out"
messages="${MESH_MESSAGES:-100}"
sizes="${MESH_SIZES:-50 200 1000}"

run() {  # name, then meshsim options
  local name="$1"; shift
  for scheduler in plain managed; do
    echo "== $name $scheduler" >&2
    "$bin" --json --messages "$messages" --scheduler "$scheduler" "$@" > "$out/mesh-$name-$scheduler.json"
    grep -E '"(deliveryRatio|framesPerDelivery|wallSeconds)"' "$out/mesh-$name-$scheduler.json" | tr -d '\n ' >&2
    echo >&2
  done
}

for n in $sizes; do
  # Dense: mean degree 10, at most 16 links a node.
  run "dense-$n" --topology rgg --nodes "$n" --degree 10 --max-links 16 --seed 1
  # Sparse: mean degree 4, at most 7 links a node.
  run "sparse-$n" --topology rgg --nodes "$n" --degree 4 --max-links 7 --seed 1
done
run "line-50" --topology line --nodes 50 --seed 1
run "ring-50" --topology ring --nodes 50 --seed 1
# Links that lose 5 % of frames (BLE's link layer acknowledges and retransmits, so this is a
# stress case), and managed flooding keeping a second copy there (coverage 2).
run "lossy-200" --topology rgg --nodes 200 --degree 10 --max-links 16 --seed 1 --loss 0.05
echo "== lossy-200 managed, coverage 2" >&2
"$bin" --json --messages "$messages" --scheduler managed --coverage 2 --topology rgg --nodes 200 --degree 10 \
  --max-links 16 --seed 1 --loss 0.05 > "$out/mesh-lossy-200-managed-coverage2.json"
