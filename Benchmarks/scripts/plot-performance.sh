#!/usr/bin/env bash
# Plots the mesh-at-scale figures from docs/measurements/mesh-*.json (written by
# Benchmarks/scripts/mesh-scale.sh) into docs/plots/*.png with gnuplot (Debian's gnuplot-nox, installed
# here when missing): message frames per delivery and delivery ratio against N, for plain and
# managed flooding, on the dense and the sparse random geometric graphs.
set -euo pipefail
cd "$(dirname "$0")/../.."
if ! command -v gnuplot >/dev/null; then
  apt-get update -qq && apt-get install -y -qq gnuplot-nox >/dev/null
fi
if ! command -v jq >/dev/null; then
  apt-get update -qq && apt-get install -y -qq jq >/dev/null
fi
data="$(mktemp -d)"
trap 'rm -rf "$data"' EXIT
mkdir -p docs/plots

# One table per graph and scheduler: nodes, frames per delivery, delivery ratio (%), p95 latency (ms).
for graph in dense sparse; do
  for scheduler in plain managed; do
    for file in docs/measurements/mesh-"$graph"-*-"$scheduler".json; do
      [ -e "$file" ] || continue
      jq -r '[.nodes, .framesPerDelivery, (.deliveryRatio * 100), .p95LatencyMs, .heartbeatFramesPerNodePerMinute] | @tsv' "$file"
    done | sort -n > "$data/$graph-$scheduler.tsv"
  done
done

# The lossy runs (N = 200, mean degree 10, 5 % of frames lost on every link).
for scheduler in plain managed managed-coverage2; do
  file="docs/measurements/mesh-lossy-200-$scheduler.json"
  [ -e "$file" ] && jq -r '[.nodes, .framesPerDelivery, (.deliveryRatio * 100), .p95LatencyMs, .heartbeatFramesPerNodePerMinute] | @tsv' "$file"
done > "$data/lossy.tsv"

plot() {  # output, title, y label, column, extra gnuplot settings, extra plot items
  gnuplot <<GNUPLOT
set terminal pngcairo size 900,560 font "DejaVu Sans,12" noenhanced
set output "$1"
set title "$2"
set xlabel "nodes (N)"
set ylabel "$3"
set logscale x
set xrange [40:1250]
set xtics (50, 200, 1000)
set grid
set key below horizontal
$5
plot "$data/dense-plain.tsv" using 1:$4 with linespoints lw 2 pt 7 title "plain, mean degree 10", \
     "$data/dense-managed.tsv" using 1:$4 with linespoints lw 2 pt 5 title "managed, mean degree 10", \
     "$data/sparse-plain.tsv" using 1:$4 with linespoints lw 2 dt 2 pt 6 title "plain, mean degree 4", \
     "$data/sparse-managed.tsv" using 1:$4 with linespoints lw 2 dt 2 pt 4 title "managed, mean degree 4"${6:-}
GNUPLOT
}

plot docs/plots/mesh-frames-per-delivery.png "Message frames on the air per delivered message" "frames per delivery" 2 "set yrange [0:*]"
plot docs/plots/mesh-delivery-ratio.png "Delivery within the 3-hop limit (lossless links: all four at 100 %)" "delivered (%)" 3 \
  "set yrange [90:100.5]" \
  ", \"$data/lossy.tsv\" every ::0::0 using 1:3 with points pt 8 ps 3 lw 2 lc rgb \"black\" title \"plain, degree 10, 5 % frame loss\", \"$data/lossy.tsv\" every ::1::1 using 1:3 with points pt 11 ps 2 title \"managed, 5 % loss\", \"$data/lossy.tsv\" every ::2::2 using 1:3 with points pt 13 ps 2 title \"managed coverage 2, 5 % loss\""
plot docs/plots/mesh-p95-latency.png "95th-percentile latency (virtual time)" "ms" 4 "set yrange [0:*]"
plot docs/plots/mesh-heartbeats.png "Heartbeat frames per node per minute" "frames / node / minute" 5 "set yrange [0:*]"
ls -l docs/plots/mesh-*.png
