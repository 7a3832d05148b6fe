#!/usr/bin/env bash
# Runs meshnoded.service as an operator would, under systemd as PID 1 in a throwaway VM
# (scripts/blelab-run --systemd): release build, `make deb` twice (this version, and a rebuilt
# one with a higher version for the upgrade), then in the VM dpkg -i, systemctl restart / reload /
# stop, a crash and its restart, a BLE link to a second node, the node as an MQTT gateway (a mosquitto
# in the VM, the password as a systemd credential), the metrics timer's file, the
# upgrade, remove and purge (Tests/VM/systemd-unit.sh). A failed run is tried once more, as in
# scripts/test-vm.sh. Exit 0 on pass.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/install-deps.sh
scratch=${MESHNODE_RELEASE_SCRATCH:-.build-release}
echo "== release build for the package ($scratch)"
make build SCRATCH="$scratch" 2>&1 | grep -E '^(Build|error)' || true
[ -x "$scratch/release/meshnoded" ] && [ -x "$scratch/release/relayctl" ] || { echo "release build failed" >&2; exit 1; }
version=$(make -s print-version)
echo "== make deb: $version, and $version+vmtest1 for the upgrade"
make -s deb SCRATCH="$scratch" DEBDIR="$scratch/deb"
make -s deb SCRATCH="$scratch" DEBDIR="$scratch/deb-upgrade" VERSION="$version+vmtest1" > /dev/null
arch=$(dpkg --print-architecture)
deb=$(readlink -f "$scratch/deb/meshnoded_${version}_${arch}.deb")
deb_upgrade=$(readlink -f "$scratch/deb-upgrade/meshnoded_${version}+vmtest1_${arch}.deb")
dpkg-deb -c "$deb"
for attempt in 1 2; do
  out=$(mktemp -d /tmp/meshnode-systemd.XXXXXX)
  echo "== systemd VM test, attempt $attempt (logs in $out)"
  set +e
  scripts/blelab-run --systemd -n 4 -t 720 -o "$out" Tests/VM/systemd-unit.sh "$deb" "$deb_upgrade"
  status=$?
  set -e
  if [ "$status" = 0 ]; then echo "systemd VM test: passed"; exit 0; fi
  echo "systemd VM test: attempt $attempt ended with status $status" >&2
  [ -f "$out/journal-meshnoded.txt" ] && tail -n 20 "$out/journal-meshnoded.txt" >&2
done
exit 1
