#!/bin/bash
# Builds meshnoded_VERSION_ARCH.deb from the release binaries with Debian's own tools
# (dpkg-shlibdeps, dpkg-deb) and plain maintainer scripts, then runs lintian on it.
# Called by `make deb`; usage: packaging/deb/build-deb.sh VERSION SCRATCH OUTDIR
#   VERSION  package version (make deb takes ProductVersion.swift's unless VERSION= is given)
#   SCRATCH  the scratch path of `make build` (binaries in SCRATCH/release; make deb builds them first)
#   OUTDIR   where the tree, the .deb and lintian.txt go
# Cross-building (scripts/build-arm64.sh runs this in its Debian 13 build root): DEB_HOST_ARCH names
# the package's architecture (dpkg-shlibdeps then reads that architecture's libraries) and
# STRIP_PROGRAM the strip that understands its binaries (aarch64-linux-gnu-strip).
# The file layout comes from `make install` with Debian's paths; what only the package needs
# (control, conffiles, scripts, copyright, changelog, lintian overrides) comes from this folder.
set -euo pipefail
version=$1 scratch=$2 outdir=$3
here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/../.." && pwd)
[ -n "$version" ] || { echo "build-deb: no version" >&2; exit 2; }
arch=${DEB_HOST_ARCH:-$(dpkg --print-architecture)}
strip_program=${STRIP_PROGRAM:-strip}
mkdir -p "$outdir"
outdir=$(cd "$outdir" && pwd)
# The tree is laid out as debhelper would (debian/meshnoded), which dpkg-shlibdeps expects.
rm -rf "$outdir/debian"
root=$outdir/debian/meshnoded
mkdir -p "$root/DEBIAN"

# 1. Files, where Debian wants them (the unit in /usr/lib/systemd/system, binaries in /usr/bin).
make -C "$repo" --no-print-directory install DESTDIR="$root" SCRATCH="$scratch" PREFIX=/usr \
  UNITDIR=/usr/lib/systemd/system SYSUSERSDIR=/usr/lib/sysusers.d DOCDIR=/usr/share/doc/meshnoded \
  LIBEXECDIR=/usr/libexec/meshnoded STRIP="-s --strip-program=$strip_program" > "$outdir/install.log"
# The binaries must run on a Pi without the Swift toolchain: no RUNPATH or RPATH but $ORIGIN (a plain
# `swift build -c release` links dynamically with a RUNPATH into the toolchain; make build does not).
for binary in "$root/usr/bin/meshnoded" "$root/usr/bin/relayctl"; do
  paths=$(readelf -d "$binary" | sed -n 's/.*(\(RUNPATH\|RPATH\)).*\[\(.*\)\]/\2/p' | tr ':' '\n' | grep -v '^\$ORIGIN' || true)
  [ -z "$paths" ] || { echo "build-deb: $(basename "$binary") has a RUNPATH outside \$ORIGIN ($paths): not a make build binary" >&2; exit 1; }
done
doc=$root/usr/share/doc/meshnoded
# The example is the conffile itself; the documents and man pages are compressed, as Policy asks.
rm "$doc/meshnoded.conf.example"
# make install strips the symbols; also drop the sections dh_strip drops.
"$strip_program" --remove-section=.comment --remove-section=.note "$root/usr/bin/meshnoded" "$root/usr/bin/relayctl"
sed -i 's|file:///usr/share/doc/meshnoded/OPERATIONS.md|file:///usr/share/doc/meshnoded/OPERATIONS.md.gz|' \
  "$root/usr/lib/systemd/system/meshnoded.service"
gzip -9n "$doc/OPERATIONS.md" "$doc/CONTROL.md" "$root"/usr/share/man/man*/*
install -m 0644 "$here/copyright" "$doc/copyright"
date=$(date -R -d "@${SOURCE_DATE_EPOCH:-$(git -C "$repo" log -1 --format=%ct 2>/dev/null || date +%s)}")
printf 'meshnoded (%s) unstable; urgency=medium\n\n  * Built from the MeshNode source tree; its history is the git log.\n\n -- %s  %s\n' \
  "$version" "$(sed -n 's/^Maintainer: //p' "$here/control.in")" "$date" | gzip -9n > "$doc/changelog.gz"
install -d "$root/usr/share/lintian/overrides"
# An override of a tag this lintian no longer has is itself an error (alien-tag): Debian 13's lintian
# dropped package-supports-alternative-init-but-no-init.d-script, which Debian 12's still reports.
if command -v lintian-explain-tags > /dev/null; then
  while IFS= read -r line; do
    tag=$(printf '%s\n' "$line" | sed -n 's/^meshnoded: \([a-z0-9.+-]*\).*/\1/p')
    if [ -z "$tag" ] || lintian-explain-tags "$tag" > /dev/null 2>&1; then printf '%s\n' "$line"; fi
  done < "$here/lintian-overrides" > "$root/usr/share/lintian/overrides/meshnoded"
  chmod 0644 "$root/usr/share/lintian/overrides/meshnoded"
else
  install -m 0644 "$here/lintian-overrides" "$root/usr/share/lintian/overrides/meshnoded"
fi

# 2. Control files: the exact shared libraries the binaries need (dpkg-shlibdeps reads the
#    package's name from debian/control), size, conffiles, scripts, checksums.
printf 'Source: meshnoded\n\nPackage: meshnoded\nArchitecture: any\n' > "$outdir/debian/control"
shlibs=$(cd "$outdir" && dpkg-shlibdeps -O -e"debian/meshnoded/usr/bin/meshnoded" -e"debian/meshnoded/usr/bin/relayctl" \
  | sed -n 's/^shlibs:Depends=//p')
[ -n "$shlibs" ] || { echo "build-deb: dpkg-shlibdeps found no libraries" >&2; exit 1; }
# Packed relative relocations (make build: -z pack-relative-relocs) need glibc 2.36's loader, and
# the binaries say so with the version GLIBC_ABI_DT_RELR, which Debian 12's libc6 symbols file
# does not map to a version: dpkg-shlibdeps alone would ask for less than the binaries need.
versions=$(readelf -V "$root/usr/bin/meshnoded" "$root/usr/bin/relayctl")
if [[ $versions == *GLIBC_ABI_DT_RELR* ]]; then
  shlibs=$(printf '%s' "$shlibs" | sed -E 's/libc6 \(>= [0-9.~+-]+\)/libc6 (>= 2.36)/')
fi
size=$(du -sk --exclude=DEBIAN "$root" | cut -f1)
sed -e "s/@VERSION@/$version/" -e "s/@ARCH@/$arch/" -e "s/@SIZE@/$size/" -e "s/@SHLIBS@/$shlibs/" \
  "$here/control.in" > "$root/DEBIAN/control"
echo /etc/meshnoded/meshnoded.conf > "$root/DEBIAN/conffiles"
install -m 0755 "$here/postinst" "$here/prerm" "$here/postrm" "$root/DEBIAN/"
(cd "$root" && find . -path ./DEBIAN -prune -o -type f -printf '%P\0' | LC_ALL=C sort -z | xargs -0 md5sum) \
  > "$root/DEBIAN/md5sums"
chmod 0644 "$root/DEBIAN/control" "$root/DEBIAN/conffiles" "$root/DEBIAN/md5sums"

# 3. The package, its listing, and lintian (errors fail the build; see lintian-overrides).
deb=$outdir/meshnoded_${version}_${arch}.deb
dpkg-deb --root-owner-group -Zxz --build "$root" "$deb" > /dev/null
dpkg-deb -c "$deb" > "$outdir/contents.txt"
echo "built $deb"
if command -v lintian > /dev/null; then
  set +e
  lintian --display-info --pedantic --show-overrides --fail-on error "$deb" > "$outdir/lintian.txt" 2>&1
  status=$?
  set -e
  cat "$outdir/lintian.txt"
  echo "lintian: $(grep -c '^E:' "$outdir/lintian.txt") errors, $(grep -c '^W:' "$outdir/lintian.txt") warnings ($outdir/lintian.txt)"
  [ "$status" = 0 ] || { echo "build-deb: lintian reported errors" >&2; exit 1; }
else
  echo "build-deb: lintian is not installed (apt-get install lintian); not checked" >&2
fi
