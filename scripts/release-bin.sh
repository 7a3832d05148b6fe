# Sourced by scripts/soak.sh and scripts/flood-scenarios.sh: unless MESHNODE_BIN names a folder of
# binaries already built, installs what the build needs and sets it to a release build of
# meshnoded, relayctl and meshflood.
release_bin() {
  set --  # install-deps.sh takes its arguments as extra packages; give it none
  source scripts/install-deps.sh
  local product
  for product in meshnoded relayctl meshflood; do
    swift build -c release --product "$product" 2>&1 | tail -n 1
  done
  MESHNODE_BIN="$(swift build -c release --show-bin-path)"
}
[ -n "${MESHNODE_BIN:-}" ] || release_bin
