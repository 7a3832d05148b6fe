#!/usr/bin/env bash
# Builds MeshNode, starts five meshnoded processes in a line A-B-C-D-E over the
# loopback UDP transport in a temporary folder, sends a message from A with
# relayctl, shows it arrive at D (three hops) and not at E, prints each node's
# stats and stops everything cleanly.
#
# Mixed architectures (scripts/build-arm64.sh): with MESHNODE_ARM64_BIN (a folder holding arm64
# meshnoded and relayctl) and MESHNODE_ARM64_ROOT (a Debian 13 arm64 root for their loader), the
# nodes named in MESHNODE_ARM64_NODES (default "B D") run the arm64 binaries under
# qemu-aarch64-static, and their relayctl is the arm64 one too; the others run the host build.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/install-deps.sh

echo "== building meshnoded and relayctl"
swift build --product meshnoded 2>&1 | tail -n 1
swift build --product relayctl 2>&1 | tail -n 1
bin="$(swift build --show-bin-path)"
work="$(mktemp -d /tmp/meshnode-demo.XXXXXX)"
base=$(( 20000 + RANDOM % 20000 ))
names=(A B C D E)
pids=()
watchers=()

cleanup() {
  for pid in "${watchers[@]}"; do kill "$pid" 2>/dev/null || true; done
  for pid in "${pids[@]}"; do kill -TERM "$pid" 2>/dev/null || true; done
  wait 2>/dev/null || true
}
trap cleanup EXIT

arm64_nodes=" ${MESHNODE_ARM64_NODES:-B D} "
attempts=100 settle=0.5
if [ -n "${MESHNODE_ARM64_BIN:-}" ]; then
  [ -d "${MESHNODE_ARM64_ROOT:-}" ] || { echo "MESHNODE_ARM64_BIN needs MESHNODE_ARM64_ROOT (an arm64 root)" >&2; exit 2; }
  command -v qemu-aarch64-static >/dev/null || { echo "qemu-aarch64-static is missing (apt-get install qemu-user-static)" >&2; exit 2; }
  attempts=400 settle=3   # emulated nodes start, subscribe and answer more slowly
fi
# The command that runs program $2 (meshnoded or relayctl) for node $1: arm64 under emulation, or the host's.
runner() {
  if [ -n "${MESHNODE_ARM64_BIN:-}" ] && [[ $arm64_nodes == *" ${names[$1]} "* ]]; then
    # LD_LIBRARY_PATH: a debug build loads the Swift runtime from the root (release links it in).
    echo env LD_LIBRARY_PATH=/usr/libexec/swift/lib/swift/linux qemu-aarch64-static -L "$MESHNODE_ARM64_ROOT" "$MESHNODE_ARM64_BIN/$2"
  else
    echo "$bin/$2"
  fi
}
ctl() { local node=$1; shift; $(runner "$node" relayctl) --socket "$work/${names[$node]}/control.sock" "$@"; }

echo "== starting five nodes in a line in $work (UDP ports $base..$((base + 4)))"
for i in 0 1 2 3 4; do
  dir="$work/${names[$i]}"
  mkdir -p "$dir"
  args=(--transport udp --udp-port $((base + i)) --state-directory "$dir" --runtime-directory "$dir"
        --name "node-${names[$i]}" --control-group "$(id -gn)")
  [ "$i" -gt 0 ] && args+=(--neighbours "127.0.0.1:$((base + i - 1))")
  if [[ "$(runner "$i" meshnoded)" == *qemu-aarch64-static* ]]; then echo "  ${names[$i]}: arm64 (qemu-aarch64-static)"; else echo "  ${names[$i]}: $(uname -m)"; fi
  $(runner "$i" meshnoded) "${args[@]}" >"$dir/meshnoded.log" 2>&1 &
  pids+=($!)
done

echo "== waiting for every link to finish its handshake"
want=(1 2 2 2 1)
for attempt in $(seq 1 "$attempts"); do
  ready=0
  for i in 0 1 2 3 4; do
    # A node whose control socket is not up yet answers nothing: not ready, not an error.
    count=$(ctl "$i" --json status 2>/dev/null | sed -n 's/.*"neighbourCount" *: *\([0-9]*\).*/\1/p' || true)
    [ "${count:-0}" -ge "${want[$i]}" ] && ready=$((ready + 1))
  done
  [ "$ready" -eq 5 ] && break
  sleep 0.2
done
[ "$ready" -eq 5 ] || { echo "the line did not come up; logs in $work" >&2; exit 1; }
for i in 0 1 2 3 4; do echo "  ${names[$i]} is $(ctl "$i" --json id | sed -n 's/.*"shortID" *: *"\([0-9a-f]*\)".*/\1/p')"; done

for i in 1 2 3 4; do
  ctl "$i" --json watch >"$work/${names[$i]}/watch.jsonl" 2>/dev/null &
  watchers+=($!)
done
# A watcher sees only what arrives after its `watch` request: wait until each node counts it
# (control.watches_started), however slowly an emulated relayctl starts.
for i in 1 2 3 4; do
  for attempt in $(seq 1 "$attempts"); do
    ctl "$i" --json stats 2>/dev/null | grep -q '"watches_started" *: *[1-9]' && break
    sleep 0.2
  done
done
sleep "$settle"

echo "== A sends a broadcast"
id=$(ctl 0 send "hello from A, three hops at most")
echo "  message ID $id"
for attempt in $(seq 1 "$((attempts / 2))"); do
  grep -q "$id" "$work/D/watch.jsonl" && break
  sleep 0.2
done
sleep 1
for i in 1 2 3 4; do
  if grep -q "$id" "$work/${names[$i]}/watch.jsonl"; then
    hops=$(grep "$id" "$work/${names[$i]}/watch.jsonl" | sed -n 's/.*"hops" *: *\([0-9]*\).*/\1/p' | head -n 1)
    echo "  ${names[$i]}: received (relayed $hops time(s), $((hops + 1)) hop(s) from A)"
  else
    echo "  ${names[$i]}: not received"
  fi
done
grep -q "$id" "$work/D/watch.jsonl" || { echo "D did not receive the message" >&2; exit 1; }
if grep -q "$id" "$work/E/watch.jsonl"; then echo "E received a message beyond its hop limit" >&2; exit 1; fi

echo "== stats"
for i in 0 1 2 3 4; do
  echo "-- ${names[$i]}"
  ctl "$i" stats | grep -E "^(uptime|GROUP|message +(received|delivered|relayed|sent) |links +key_exchanges)" || true
done

echo "== stopping"
for pid in "${watchers[@]}"; do kill "$pid" 2>/dev/null || true; done
watchers=()
status=0
for i in 0 1 2 3 4; do
  kill -TERM "${pids[$i]}"
  if wait "${pids[$i]}"; then echo "  ${names[$i]} stopped cleanly"; else echo "  ${names[$i]} exited with $?"; status=1; fi
done
pids=()
rm -rf "$work"
exit "$status"
