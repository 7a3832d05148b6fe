#!/usr/bin/env bash
# Runs meshnoded.service as an operator would, under systemd as PID 1 in a throwaway VM
# (scripts/blelab-run --systemd): release build, `make install`, systemctl start / reload /
# stop, a crash and its restart, and a BLE link to a second node (Tests/VM/systemd-unit.sh).
# A failed run is tried once more, as in scripts/test-vm.sh. Exit 0 on pass.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/install-deps.sh
scratch=${MESHNODE_RELEASE_SCRATCH:-.build-release}
echo "== release build for make install ($scratch)"
make build SCRATCH="$scratch" 2>&1 | grep -E '^(Build|error)' || true
[ -x "$scratch/release/meshnoded" ] && [ -x "$scratch/release/relayctl" ] || { echo "release build failed" >&2; exit 1; }
for attempt in 1 2; do
  out=$(mktemp -d /tmp/meshnode-systemd.XXXXXX)
  echo "== systemd VM test, attempt $attempt (logs in $out)"
  set +e
  scripts/blelab-run --systemd -n 4 -t 600 -o "$out" Tests/VM/systemd-unit.sh "$scratch"
  status=$?
  set -e
  if [ "$status" = 0 ]; then echo "systemd VM test: passed"; exit 0; fi
  echo "systemd VM test: attempt $attempt ended with status $status" >&2
  [ -f "$out/journal-meshnoded.txt" ] && tail -n 20 "$out/journal-meshnoded.txt" >&2
done
exit 1
