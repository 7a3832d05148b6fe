#!/usr/bin/env bash
# Installs the Debian 12 packages MeshNode builds against, when any is missing.
# Usage: scripts/install-deps.sh [extra-package ...]
set -euo pipefail
# Build: the -dev packages (libmosquitto-dev: the MQTT bridge). Tests: python3-prometheus-client (the metrics parser),
# mosquitto and mosquitto-clients (scripts/test-mqtt.sh's broker and hostile publisher), man-db and
# groff-base (man --warnings -l), bash-completion, faketime (the wrong-clock daemon test), openssl (test-mqtt's
# throwaway CA, the VM tests' throwaway passwords), iproute2 (the VM tests bring lo up and add a broker address).
# Packaging (make deb): dpkg-dev, lintian.
packages=(libdbus-1-dev libssl-dev libsystemd-dev libsqlite3-dev pkg-config dbus python3 python3-prometheus-client
  man-db groff-base bash-completion faketime dpkg-dev lintian libmosquitto-dev mosquitto mosquitto-clients openssl iproute2 "$@")
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ "${#missing[@]}" -gt 0 ]; then
  echo "meshnode: installing ${missing[*]}" >&2
  sudo_cmd=()
  [ "$(id -u)" -eq 0 ] || sudo_cmd=(sudo)
  "${sudo_cmd[@]}" apt-get update -qq
  DEBIAN_FRONTEND=noninteractive "${sudo_cmd[@]}" apt-get install -y -qq "${missing[@]}" >/dev/null
fi
if ! command -v swift >/dev/null 2>&1; then
  for dir in /opt/swift/usr/bin /usr/share/swift/usr/bin; do
    [ -x "$dir/swift" ] && export PATH="$dir:$PATH"
  done
fi
command -v swift >/dev/null 2>&1 || {
  echo "meshnode: a Swift 6 toolchain is required (swift.org/install, Debian 12 tarball)" >&2
  exit 69
}
