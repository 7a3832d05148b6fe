#!/usr/bin/env bash
# Runs the whole MeshNode test suite: installs Debian packages, builds with
# warnings as errors, runs meshnoded against the real BlueZ in a VM
# (scripts/test-vm.sh), runs meshnoded.service under systemd in a VM
# (scripts/test-systemd.sh), the 2-minute soak, the mailbox over real daemons
# (scripts/mailbox-daemons.sh), forged UDP closes over raw sockets
# (scripts/forged-closes.sh, as root), the MQTT bridge against a real mosquitto, and (as root) the
# arm64 build with Debian 13's Swift 6.0.3 and a mixed amd64/arm64 demo under qemu
# (scripts/build-arm64.sh; MESHNODE_CI_ARM64=0 skips it). Every unit, simulator and process test
# runs first, right after the build.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/install-deps.sh
# Every step header says how long the run has taken so far (seconds since the start).
step() { echo "== [${SECONDS}s] $*"; }
# The arm64 step's two Debian 13 roots (downloads and unpacking, little CPU) are prepared in the
# background from the start, a fresh cache every run; the VMs wait for them, so nothing runs beside a VM.
arm64_prepare=
if [ "${MESHNODE_CI_ARM64:-1}" = 1 ] && [ "$(id -u)" -eq 0 ]; then
  arm64_cache=$(mktemp -d /var/tmp/meshnode-arm64-ci.XXXXXX)
  step "arm64 roots: prepared in the background into $arm64_cache (log: .build/arm64-roots.log)"
  mkdir -p .build
  MESHNODE_ARM64_CACHE="$arm64_cache" nice bash scripts/build-arm64.sh --roots-only > .build/arm64-roots.log 2>&1 &
  arm64_prepare=$!
fi
step "imports: every module a target imports is declared in Package.swift"
swift package dump-package | swift scripts/check-imports.swift
step "module graph: docs/ARCHITECTURE.md and docs/module-graph.{dot,svg} match Package.swift"
swift package dump-package | python3 scripts/module-graph.py --check
step "build (warnings are errors)"
swift build --build-tests -Xswiftc -warnings-as-errors
step "build meshflood and mqttflood (the Benchmarks package; the soak, the seen-journal test and the MQTT test run them)"
swift build --package-path Benchmarks --product meshflood -Xswiftc -warnings-as-errors
swift build --package-path Benchmarks --product mqttflood -Xswiftc -warnings-as-errors
export MESHTOOLS_BIN="$(swift build --package-path Benchmarks --show-bin-path)"
step "tests (unit, simulator and process tests first: a broken build fails in minutes, not after the VMs)"
set +e
swift test --skip-build 2>&1 | tee .build/test-output.txt
status=${PIPESTATUS[0]}
set -e
[ "$status" -eq 0 ] || { echo "unit tests failed (exit $status); the VM and daemon scenarios were not run" >&2; exit "$status"; }
step "bash completion of relayctl"
bash scripts/test-completion.sh
step "first hour: docs/OPERATIONS.md's transcript against what meshnoded and relayctl print now (seconds)"
MESHNODE_BIN="$(swift build --show-bin-path)" bash scripts/first-hour.sh --check
step "LAN discovery: four nodes on a bridge in network namespaces find each other, a UDP island's message crosses two LAN hops once, another bridge stays apart (seconds)"
MESHNODE_BIN="$(swift build --show-bin-path)" bash scripts/lan-discovery.sh
if [ -n "$arm64_prepare" ]; then
  step "arm64 roots: waiting for the background preparation to end before the VMs"
  wait "$arm64_prepare" || { tail -n 30 .build/arm64-roots.log >&2; echo "arm64 roots: preparation failed" >&2; exit 1; }
  tail -n 1 .build/arm64-roots.log
fi
step "BlueZ: meshnoded on the real bluetoothd with emulated radios (VM)"
MESHNODE_BIN="$(swift build --show-bin-path)" bash scripts/test-vm.sh
step "systemd: meshnoded.service installed and run under systemd (VM)"
bash scripts/test-systemd.sh
step "soak: ten nodes for 2 minutes with link cuts, restarts, kill -9 and a flooding neighbour"
# Any message delivered twice fails it, kill -9 included: the node keeps its seen cache in
# seen.journal (OPERATIONS.md, "Seen journal").
MESHNODE_BIN="$(swift build --show-bin-path)" bash scripts/soak.sh 2 --seed 7 --out .build/soak-results.json
step "mailbox: A - B - D daemons, D away, B kill -9'ed; 20 messages delivered once in order, a replay refused (~1 min)"
MESHTOOLS_BIN="$MESHTOOLS_BIN" bash scripts/mailbox-daemons.sh "$(swift build --show-bin-path)"
step "forged UDP closes: a raw-socket forger on the A-B link, both ways and one way, then a stop under it"
if [ "$(id -u)" -eq 0 ]; then
  MESHNODE_BIN="$(swift build --show-bin-path)" bash scripts/forged-closes.sh --directions both,to-b --runs 1 \
    --out .build/forged-closes.json
  MESHNODE_BIN="$(swift build --show-bin-path)" bash scripts/forged-closes.sh --directions both --runs 1 --event stop \
    --out .build/forged-closes-stop.json
else
  echo "skipped: raw sockets need root (CAP_NET_RAW)"
fi
step "MQTT bridge: a real mosquitto, two islands, two gateways, a 10 s broker outage, a hostile publisher"
MESHNODE_BIN="$(swift build --show-bin-path)" MESHTOOLS_BIN="$MESHTOOLS_BIN" bash scripts/test-mqtt.sh --out .build/mqtt-results.json
step "arm64: cross-built with Debian 13's Swift 6.0.3, then the five-node demo with B and D arm64 under qemu-aarch64-static"
# A debug build of both binaries against the roots prepared above (the release build costs about two
# and a half times its compile time: `make deb ARCH=arm64` by hand), then D receives and E does not,
# as on amd64 (OPERATIONS.md, "Building for a Raspberry Pi (arm64)").
if [ -n "$arm64_prepare" ]; then
  MESHNODE_ARM64_CACHE="$arm64_cache" bash scripts/build-arm64.sh --debug
  MESHNODE_ARM64_BIN=.build-arm64/aarch64-unknown-linux-gnu/debug MESHNODE_ARM64_ROOT="$arm64_cache/arm64" \
    MESHNODE_ARM64_NODES="B D" bash scripts/run-local-mesh.sh
  rm -rf "$arm64_cache"
elif [ "$(id -u)" -ne 0 ]; then
  echo "skipped: debootstrap and chroot need root"
else
  echo "skipped: MESHNODE_CI_ARM64=0"
fi
step "done: the unit tests passed first, then every scenario above"
# The closing line CI reads: the counts of the unit test run (Swift Testing and XCTest) from the start.
swift_testing=$(sed -n 's/.*Test run with \([0-9]*\) tests.* passed.*/\1/p' .build/test-output.txt | tail -n 1)
xctest=$(sed -n 's/.*Executed \([0-9]*\) tests, with 0 failures.*/\1/p' .build/test-output.txt | tail -n 1)
echo "tests: $(( ${swift_testing:-0} + ${xctest:-0} )) passed, 0 failed"
