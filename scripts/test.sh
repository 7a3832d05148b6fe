#!/usr/bin/env bash
# Runs the whole MeshNode test suite: installs Debian packages, builds with
# warnings as errors, runs every unit, simulator and process test.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/install-deps.sh
echo "== build (warnings are errors)"
swift build --build-tests -Xswiftc -warnings-as-errors
echo "== tests"
set +e
swift test --skip-build 2>&1 | tee .build/test-output.txt
status=${PIPESTATUS[0]}
set -e
exit "$status"
