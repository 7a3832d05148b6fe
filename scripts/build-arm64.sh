#!/usr/bin/env bash
# Builds arm64 meshnoded and relayctl from Debian packages alone, and meshnoded_VERSION_arm64.deb for
# Debian 13 (trixie) / Raspberry Pi OS based on it (docs/OPERATIONS.md, "Installing on a Raspberry Pi").
#
#   scripts/build-arm64.sh [--roots-only] [--no-deb] [--debug] [--tests FILTER] [--out DIR]
#     --roots-only    prepare the two roots below and stop (CI starts this early, in the background)
#     --no-deb        build the two binaries only
#     --debug         build the two binaries in debug (about half the compile time of release; they load
#                     the Swift runtime of libswiftlang from the arm64 root), no package: CI's check
#     --tests FILTER  also cross-build the test bundle (debug) and run the Swift Testing tests whose
#                     names match FILTER (a regular expression, as `swift test --filter`) under
#                     qemu-aarch64-static; with --debug, no release build and no package
#     --out DIR       where the package, its listing and lintian.txt go (default .build/deb-arm64)
#
# Runs as root on Debian 12 or 13 (amd64) and changes nothing of the host but three apt packages
# (debootstrap, qemu-user-static, file). Everything else lives under MESHNODE_ARM64_CACHE
# (default /var/cache/meshnode-arm64) and is reused by the next run:
#   build/  a Debian 13 amd64 root with Debian's Swift 6.0.3 (swiftlang), in which the cross build runs
#           (and, once a package is made, dpkg-dev, the aarch64 strip, lintian)
#           (that compiler needs Debian 13's glibc, so it runs chrooted, never on the host)
#   arm64/  a Debian 13 arm64 root: the sysroot the cross build compiles and links against
#           (the -dev packages, the arm64 Swift standard library of swiftlang:arm64), and the root
#           qemu-aarch64-static loads the arm64 binaries from (scripts/run-local-mesh.sh)
# The binaries link the Swift runtime statically, as `make build` does on amd64: the package needs
# no Swift on the Pi, only the C libraries its Depends line names.
# Binaries: .build-arm64/aarch64-unknown-linux-gnu/{release,debug}/{meshnoded,relayctl}.
set -euo pipefail
cd "$(dirname "$0")/.."
repo=$(pwd)
out=.build/deb-arm64 deb=1 tests= mode=release roots_only=
while [ $# -gt 0 ]; do
  case $1 in
    --roots-only) roots_only=1 ;;
    --no-deb) deb= ;;
    --debug) deb= mode=debug ;;
    --tests) tests=$2; shift ;;
    --out) out=$2; shift ;;
    *) echo "usage: $0 [--roots-only] [--no-deb] [--debug] [--tests FILTER] [--out DIR]" >&2; exit 2 ;;
  esac
  shift
done
[ "$(id -u)" -eq 0 ] || { echo "build-arm64: run as root (debootstrap, chroot, mounts)" >&2; exit 1; }
cache=${MESHNODE_ARM64_CACHE:-/var/cache/meshnode-arm64}
mirror=${MESHNODE_DEBIAN_MIRROR:-http://deb.debian.org/debian}
build=$cache/build target=$cache/arm64
suite=trixie
start=$(date +%s)
step() { echo "== arm64 [$(( $(date +%s) - start )) s]: $*"; }

# What the cross build compiles and links against, and what the arm64 binaries load at run time.
target_packages=libswiftlang,libc6-dev,libstdc++-14-dev,libgcc-14-dev,libdbus-1-dev,libssl-dev,libsystemd-dev,libsqlite3-dev,libmosquitto-dev
# The arm64 run-time libraries dpkg-shlibdeps reads (their shlibs and symbols files) for Depends.
shlib_packages="libc6:arm64 libstdc++6:arm64 libgcc-s1:arm64 libdbus-1-3:arm64 libssl3t64:arm64 libsystemd0:arm64
  libsqlite3-0:arm64 libmosquitto1:arm64"

missing=()
for p in debootstrap qemu-user-static file; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ "${#missing[@]}" -gt 0 ]; then
  step "installing ${missing[*]}"
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${missing[@]}" > /dev/null
fi
mkdir -p "$cache"
# One run at a time per cache: each bind-mounts its repository at the build root's /src.
exec 9> "$cache/.lock"
flock 9

# 1. The build root: Debian 13 amd64 with swiftlang, make, dpkg-dev, the aarch64 strip and lintian.
if [ ! -e "$build/.meshnode-ready" ]; then
  step "debootstrap $suite amd64 into $build (the build root)"
  rm -rf "$build"
  debootstrap --variant=minbase "$suite" "$build" "$mirror" > "$cache/build.log" 2>&1 \
    || { tail -n 20 "$cache/build.log" >&2; exit 1; }
  cp /etc/resolv.conf "$build/etc/resolv.conf"
  chroot "$build" dpkg --add-architecture arm64
  chroot "$build" apt-get update -qq
  step "installing swiftlang into the build root"
  chroot "$build" env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends \
    swiftlang libc6-dev >> "$cache/build.log" 2>&1 || { tail -n 20 "$cache/build.log" >&2; exit 1; }
  touch "$build/.meshnode-ready"
fi

# 2. The arm64 root: packages unpacked, not configured (a sysroot and a loader root need no more).
if [ ! -e "$target/.meshnode-ready" ]; then
  step "debootstrap $suite arm64 into $target (the sysroot and the emulated root)"
  rm -rf "$target"
  debootstrap --foreign --arch=arm64 --variant=minbase --include="$target_packages" "$suite" "$target" "$mirror" \
    > "$cache/arm64.log" 2>&1 || { tail -n 20 "$cache/arm64.log" >&2; exit 1; }
  # --foreign unpacks only the required packages; the included ones are downloaded, so unpack them too.
  for package in "$target"/var/cache/apt/archives/*.deb; do dpkg-deb -x "$package" "$target"; done
  step "unpacking the arm64 Swift standard library (swiftlang:arm64) into $target"
  rm -f "$build"/tmp/swiftlang_*_arm64.deb
  chroot "$build" sh -c 'cd /tmp && apt-get download -qq swiftlang:arm64'
  dpkg-deb --fsys-tarfile "$build"/tmp/swiftlang_*_arm64.deb | tar -x -C "$target" --wildcards \
    './usr/libexec/swift/lib/swift/*' './usr/libexec/swift/lib/swift_static/*' './usr/libexec/swift/lib/clang/*'
  rm -f "$build"/tmp/swiftlang_*_arm64.deb
  printf '{ "DisplayName": "Debian 13 arm64", "Version": "13" }\n' > "$target/SDKSettings.json"
  touch "$target/.meshnode-ready"
fi

[ -z "$roots_only" ] || { step "roots ready"; exit 0; }

# 3. The cross build, in the build root with the repository and the arm64 root bind-mounted.
mounts=()
cleanup() {
  local i
  for (( i=${#mounts[@]}-1; i>=0; i-- )); do umount "${mounts[$i]}" 2>/dev/null || umount -l "${mounts[$i]}" || true; done
}
trap cleanup EXIT
bind() { mkdir -p "$2"; mount --bind "$1" "$2"; mounts+=("$2"); }
mount -t proc proc "$build/proc"; mounts+=("$build/proc")
bind /dev "$build/dev"
bind "$repo" "$build/src"
bind "$target" "$build/sysroot"
in_build() { chroot "$build" env -i PATH=/usr/bin:/bin HOME=/root LANG=C.UTF-8 "$@"; }
# swift build's pkg-config reads the arm64 .pc files first and prefixes their paths with the sysroot.
cross=(env PKG_CONFIG_SYSROOT_DIR=/sysroot PKG_CONFIG_PATH=/sysroot/usr/lib/aarch64-linux-gnu/pkgconfig:/sysroot/usr/share/pkgconfig
  swift build --scratch-path .build-arm64 --triple aarch64-unknown-linux-gnu --sdk /sysroot
  -Xswiftc -sdk -Xswiftc /sysroot)
# The release flags of the Makefile's SWIFTFLAGS (lld, packed relative relocations, no exported
# symbols, full RELRO) with the Swift runtime linked in. The resource directory is the static one:
# given the shared one, the driver links the runtime's .so files despite --static-swift-stdlib.
release=(-c release --static-swift-stdlib -Xswiftc -resource-dir -Xswiftc /sysroot/usr/libexec/swift/lib/swift_static
  -Xswiftc -use-ld=lld -Xlinker -z -Xlinker pack-relative-relocs -Xlinker --no-export-dynamic -Xlinker -z -Xlinker now)
# Debug: the shared runtime (libswiftlang in the arm64 root, found through LD_LIBRARY_PATH under qemu).
debug=(-Xswiftc -resource-dir -Xswiftc /sysroot/usr/libexec/swift/lib/swift -Xswiftc -use-ld=lld)
if [ "$mode" = release ]; then flags=("${release[@]}"); else flags=("${debug[@]}"); fi
in_build swift --version 2>&1 | head -n 1
for product in meshnoded relayctl; do
  step "swift build $product (aarch64, $mode)"
  in_build sh -c 'cd /src && "$@"' build "${cross[@]}" "${flags[@]}" --product "$product" 2>&1 \
    | grep -v 'Could not read SDKSettings.json'
done
bin=.build-arm64/aarch64-unknown-linux-gnu/$mode
file "$bin/meshnoded" "$bin/relayctl"
LD_LIBRARY_PATH=/usr/libexec/swift/lib/swift/linux qemu-aarch64-static -L "$target" "$bin/meshnoded" --version

# 4. The package, made by the same script as the amd64 one, with Debian 13's dpkg-shlibdeps and lintian.
if [ -n "$deb" ]; then
  # The packaging tools only when a package is made (CI's --debug check does without them).
  if [ ! -e "$build/.meshnode-packaging" ]; then
    step "installing the packaging tools into the build root"
    # shellcheck disable=SC2086  # the list is words
    chroot "$build" env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends \
      make dpkg-dev binutils-aarch64-linux-gnu lintian $shlib_packages >> "$cache/build.log" 2>&1 \
      || { tail -n 20 "$cache/build.log" >&2; exit 1; }
    touch "$build/.meshnode-packaging"
  fi
  step "meshnoded .deb (arm64)"
  version=$(sed -n 's/.*static let current = "\(.*\)".*/\1/p' Sources/ControlProtocol/ProductVersion.swift)
  [ -n "$version" ] || { echo "build-arm64: no version in Sources/ControlProtocol/ProductVersion.swift" >&2; exit 1; }
  epoch=$(git log -1 --format=%ct 2>/dev/null || date +%s)
  mkdir -p "$out"
  rel=$(realpath --relative-to="$repo" "$out")
  in_build env SOURCE_DATE_EPOCH="$epoch" DEB_HOST_ARCH=arm64 STRIP_PROGRAM=aarch64-linux-gnu-strip \
    sh -c 'cd /src && packaging/deb/build-deb.sh "$@"' build-deb "$version" .build-arm64/aarch64-unknown-linux-gnu "$rel"
  file "$out/debian/meshnoded/usr/bin/meshnoded"
fi

# 5. Optionally, the unit tests under emulation (debug build; the test bundle loads the Swift runtime).
if [ -n "$tests" ]; then
  step "swift build --build-tests (aarch64, debug)"
  in_build sh -c 'cd /src && "$@"' build "${cross[@]}" "${debug[@]}" --build-tests 2>&1 | grep -v 'Could not read SDKSettings.json'
  step "Swift Testing suites matching '$tests' under qemu-aarch64-static"
  # The bundle was built at /src; tests that read docs/ by their #filePath find it there, because
  # qemu-aarch64-static -L looks up absolute paths in the arm64 root first.
  bind "$repo" "$target/src"
  # The Wycheproof vectors beside the repository (../shared/vectors), by their host path.
  vectors=${MESHNODE_VECTORS_DIR:-$repo/../shared/vectors}
  env LD_LIBRARY_PATH=/usr/libexec/swift/lib/swift/linux MESHNODE_VECTORS_DIR="$(realpath -m "$vectors")" \
    qemu-aarch64-static -L "$target" \
    .build-arm64/aarch64-unknown-linux-gnu/debug/MeshNodePackageTests.xctest --testing-library swift-testing --no-parallel --filter "$tests"
fi
step "done"
