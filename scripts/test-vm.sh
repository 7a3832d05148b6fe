#!/usr/bin/env bash
# Runs meshnoded against the real BlueZ stack in a throwaway VM (scripts/blelab-run):
# two nodes on two emulated LE controllers link over GATT, carry a broadcast and a direct
# message, and recover by themselves after bluetoothd is killed and restarted; before that, a
# client without a GATT server reaches a node two hops away through a relay.
# A failed run is tried once more (software-emulated radios are slow and sometimes lose a
# controller at boot); a second failure fails. Exit 0 on pass.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/install-deps.sh
# MESHNODE_BIN names a folder with meshnoded and relayctl already built (scripts/test.sh sets it).
if [ -z "${MESHNODE_BIN:-}" ]; then
  swift build --product meshnoded 2>&1 | tail -n 1
  swift build --product relayctl 2>&1 | tail -n 1
fi
bin="${MESHNODE_BIN:-$(swift build --show-bin-path)}"

# -- Client without a GATT server (meshnoded --gatt-server false) in a line P-B-C, two hops both
# ways (Tests/VM/meshnoded-client.sh). B holds two LE links, so this needs the btvirt with fixed
# connection handles, which CI finds in shared/ beside the clone. One retry.
btvirt_fixed="$(pwd)/../shared/blelab/btvirt/btvirt"
[ -x "$btvirt_fixed" ] || { echo "BlueZ VM client test: no fixed btvirt at $btvirt_fixed" >&2; exit 1; }
client_passed=0
for attempt in 1 2; do
  out=$(mktemp -d /tmp/meshnode-vm-client.XXXXXX)
  echo "== BlueZ VM client test, attempt $attempt (logs in $out)"
  set +e
  scripts/blelab-run -n 4 -t 600 -o "$out" --btvirt "$btvirt_fixed" Tests/VM/meshnoded-client.sh "$bin"
  status=$?
  set -e
  if [ "$status" = 0 ]; then echo "BlueZ VM client test: passed"; client_passed=1; break; fi
  echo "BlueZ VM client test: attempt $attempt ended with status $status" >&2
  for log in "$out"/meshnoded-*.log; do [ -f "$log" ] && { echo "-- $log" >&2; tail -n 15 "$log" >&2; }; done
done
[ "$client_passed" = 1 ] || exit 1
# -- end of the client test
for attempt in 1 2; do
  out=$(mktemp -d /tmp/meshnode-vm.XXXXXX)
  echo "== BlueZ VM test, attempt $attempt (logs in $out)"
  set +e
  scripts/blelab-run -n 3 -t 600 -o "$out" env NODES=2 Tests/VM/meshnoded-line.sh "$bin"
  status=$?
  set -e
  if [ "$status" = 0 ]; then echo "BlueZ VM test: passed"; exit 0; fi
  echo "BlueZ VM test: attempt $attempt ended with status $status" >&2
  for log in "$out"/meshnoded-*.log; do [ -f "$log" ] && { echo "-- $log" >&2; tail -n 15 "$log" >&2; }; done
done
exit 1
