# Sourced (from the repository's root) by the scripts that start meshnoded: scripts/soak.sh and
# forged-closes.sh, and Benchmarks/scripts/*.sh. Unless MESHNODE_BIN names a folder of meshnoded
# and relayctl already built, installs what the build needs and sets it to a release build of both.
# `release_tools NAME...` does the same for MESHTOOLS_BIN with tools of the Benchmarks package
# (meshflood, enginecpu): unless MESHTOOLS_BIN is set, a release build of each named tool.
release_bin() {
  set --  # install-deps.sh takes its arguments as extra packages; give it none
  source scripts/install-deps.sh
  local product
  for product in meshnoded relayctl; do
    swift build -c release --product "$product" 2>&1 | tail -n 1
  done
  MESHNODE_BIN="$(swift build -c release --show-bin-path)"
}
release_tools() {
  [ -z "${MESHTOOLS_BIN:-}" ] || return 0
  local product
  for product in "$@"; do
    swift build -c release --package-path Benchmarks --product "$product" 2>&1 | tail -n 1
  done
  MESHTOOLS_BIN="$(swift build -c release --package-path Benchmarks --show-bin-path)"
}
[ -n "${MESHNODE_BIN:-}" ] || release_bin
