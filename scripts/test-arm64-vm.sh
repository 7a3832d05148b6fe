#!/usr/bin/env bash
# Installs the arm64 package (scripts/build-arm64.sh) into a Debian 13 arm64 VM with systemd as PID 1,
# emulated by qemu-system-aarch64 (TCG, no KVM): `apt-get install ./meshnoded_*_arm64.deb` with no
# network (every Depends must already be met by trixie's packages in the image), then in the guest:
#   1. the package enabled and started meshnoded.service: active (running);
#   2. `relayctl status` answers on the default socket; with no Bluetooth adapter in the VM (and so
#      no bluetoothd: bluetooth.service's condition) the transport says `waiting for bluetoothd`
#      (or, were bluetoothd there, `waiting for adapter`);
#   3. `systemctl restart` returns once the daemon said READY=1; `systemctl stop` ends it with
#      Result=success.
# Opt-in (not in scripts/test.sh: it costs minutes of both cores). Exit 0 on pass.
#
#   sudo scripts/test-arm64-vm.sh [DEB]     (default: .build/deb-arm64/meshnoded_*_arm64.deb)
#   sudo scripts/test-arm64-vm.sh --prepare (only the image, steps 1-4 below)
#
# Runs as root on Debian 12 or 13 (amd64); installs debootstrap, qemu-system-arm, e2fsprogs, cpio,
# kmod and xz-utils if missing. Under MESHNODE_ARM64VM_DIR (default /var/tmp/meshnode-arm64vm), reused by the next run:
#   root/          a Debian 13 arm64 root (debootstrap --foreign: systemd, dbus, bluez, the libraries)
#   kernel/        trixie's linux-image-arm64, fetched by apt with a private arm64 configuration
#   initrd.img     busybox-static and the modules that mount an ext4 virtio disk
#   base.img       the root as an ext4 image, after debootstrap's second stage ran in the VM (once)
# Each test boots base.img read-only (qemu -snapshot), with the package on a second disk.
# Console logs: $dir/run/. Each boot holds MESHNODE_VM_LOCK (default /tmp/meshnode-vm.lock, as
# `flock` around the other VM scripts), so do not wrap this script in that lock too.
set -euo pipefail
cd "$(dirname "$0")/.."
[ "$(id -u)" -eq 0 ] || { echo "test-arm64-vm: run as root (debootstrap, mkfs)" >&2; exit 1; }
prepare=
if [ "${1:-}" = --prepare ]; then
  prepare=1
else
  deb=${1:-$(ls .build/deb-arm64/meshnoded_*_arm64.deb 2> /dev/null | head -n 1)}
  [ -f "$deb" ] || { echo "usage: $0 [meshnoded_VERSION_arm64.deb | --prepare] (none found; sudo scripts/build-arm64.sh)" >&2; exit 2; }
  deb=$(readlink -f "$deb")
fi
dir=${MESHNODE_ARM64VM_DIR:-/var/tmp/meshnode-arm64vm}
mirror=${MESHNODE_DEBIAN_MIRROR:-http://deb.debian.org/debian}
start=$(date +%s)
step() { echo "== arm64 VM [$(( $(date +%s) - start )) s]: $*"; }
# The libraries the package links (its shlibs Depends) and its other Depends, present before the install.
include=systemd-sysv,udev,dbus,bluez,libdbus-1-3,libssl3t64,libsystemd0,libsqlite3-0,libmosquitto1,busybox-static

missing=()
for p in debootstrap qemu-system-arm e2fsprogs cpio kmod xz-utils; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ "${#missing[@]}" -gt 0 ]; then
  step "installing ${missing[*]}"
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${missing[@]}" > /dev/null
fi
mkdir -p "$dir/run"

# Boots the kernel and the initramfs; the console goes to $1; times out after $2 s; sets $vm_seconds
# (the boot's time, not counting the wait for the lock).
vm() {
  local log=$1 limit=$2 lock t; shift 2
  exec {lock}> "${MESHNODE_VM_LOCK:-/tmp/meshnode-vm.lock}"
  flock "$lock"
  t=$(date +%s)
  timeout --foreground "$limit" nice qemu-system-aarch64 -M virt -cpu cortex-a72 -smp 2 -m 2048 \
    -accel tcg,thread=multi -nic none -display none -monitor none -serial "file:$log" -no-reboot \
    -kernel "$dir/kernel/vmlinuz" -initrd "$dir/initrd.img" "$@" {lock}>&- || true
  vm_seconds=$(( $(date +%s) - t ))
  exec {lock}>&-
}

# 1. The arm64 root, unpacked on the host (its second stage needs an arm64 CPU: the VM runs it).
if [ ! -e "$dir/root/.meshnode-unpacked" ]; then
  step "debootstrap --foreign trixie arm64 into $dir/root"
  rm -rf "$dir/root"
  debootstrap --foreign --arch=arm64 --variant=minbase --include="$include" trixie "$dir/root" "$mirror" \
    > "$dir/debootstrap.log" 2>&1 || { tail -n 20 "$dir/debootstrap.log" >&2; exit 1; }
  touch "$dir/root/.meshnode-unpacked"
fi

# 2. trixie's arm64 kernel, through apt with a configuration of its own (the host's apt is untouched).
if [ ! -e "$dir/kernel/vmlinuz" ]; then
  step "trixie's linux-image-arm64"
  apt=$dir/apt
  rm -rf "$apt" "$dir/kernel"
  mkdir -p "$apt/lists/partial" "$apt/cache/archives/partial" "$apt/parts" "$apt/none" "$apt/dl"
  touch "$apt/status"
  echo "deb [arch=arm64 signed-by=/usr/share/keyrings/debian-archive-keyring.gpg] $mirror trixie main" > "$apt/sources.list"
  cat > "$apt/apt.conf" <<EOF
APT::Architecture "arm64"; APT::Architectures { "arm64"; };
Dir::Etc::SourceList "$apt/sources.list"; Dir::Etc::SourceParts "$apt/none"; Dir::Etc::Parts "$apt/parts";
Dir::Etc::PreferencesParts "$apt/none"; Dir::State "$apt"; Dir::State::Lists "$apt/lists";
Dir::State::status "$apt/status"; Dir::Cache "$apt/cache";
EOF
  APT_CONFIG=$apt/apt.conf apt-get update -qq
  image=$(APT_CONFIG=$apt/apt.conf apt-cache depends linux-image-arm64 | sed -n 's/^ *Depends: \(linux-image-[0-9].*\)$/\1/p' | head -n 1)
  [ -n "$image" ] || { echo "test-arm64-vm: no linux-image-arm64 in trixie" >&2; exit 1; }
  ( cd "$apt/dl" && APT_CONFIG=$apt/apt.conf apt-get download -qq "$image" 2> /dev/null )
  mkdir -p "$dir/kernel.new"
  dpkg-deb -x "$apt"/dl/linux-image-*.deb "$dir/kernel.new"
  kver=$(basename "$(ls -d "$dir"/kernel.new/usr/lib/modules/*)")
  depmod -b "$dir/kernel.new/usr" "$kver"
  cp "$dir/kernel.new/boot/vmlinuz-$kver" "$dir/kernel.new/vmlinuz"
  echo "$kver" > "$dir/kernel.new/version"
  mv "$dir/kernel.new" "$dir/kernel"
fi
kver=$(cat "$dir/kernel/version")

# 3. The initramfs: the modules that mount the root disk (virtio_blk, ext4 and what they need), then
#    switch_root to the cmdline's init= (debootstrap's second stage) or /sbin/init (systemd).
if [ ! -e "$dir/initrd.img" ]; then
  step "initramfs (busybox-static, virtio_blk, ext4)"
  ird=$dir/initrd.d
  rm -rf "$ird"; mkdir -p "$ird"/{bin,dev,proc,sys,newroot,modules}
  dpkg-deb --fsys-tarfile "$dir"/root/var/cache/apt/archives/busybox-static_*_arm64.deb | tar -x -O ./usr/bin/busybox > "$ird/bin/busybox"
  chmod 0755 "$ird/bin/busybox"
  moddir=$dir/kernel/usr/lib/modules/$kver
  order=()
  for m in crc32c_generic ext4 virtio_blk; do
    path=$(grep -E "/$m\.ko(\.xz)?:" "$moddir/modules.dep")
    for dep in $(echo "${path#*:}" | tr ' ' '\n' | tac) "${path%%:*}"; do
      [[ " ${order[*]} " == *" $dep "* ]] || order+=("$dep")
    done
  done
  : > "$ird/modules/order"
  for dep in "${order[@]}"; do
    name=$(basename "$dep" .xz)
    case $dep in *.xz) xz -dc "$moddir/$dep" > "$ird/modules/$name" ;; *) cp "$moddir/$dep" "$ird/modules/$name" ;; esac
    echo "$name" >> "$ird/modules/order"
  done
  cat > "$ird/init" <<'EOF'
#!/bin/busybox sh
/bin/busybox --install -s /bin
mount -t proc proc /proc; mount -t sysfs sysfs /sys; mount -t devtmpfs devtmpfs /dev
for m in $(cat /modules/order); do insmod "/modules/$m" || echo "initramfs: insmod $m failed"; done
init=/sbin/init
for arg in $(cat /proc/cmdline); do case $arg in init=*) init=${arg#init=} ;; esac; done
i=0; while [ ! -b /dev/vda ] && [ $i -lt 100 ]; do sleep 0.1; i=$((i + 1)); done
mount -t ext4 -o rw /dev/vda /newroot || { echo "initramfs: cannot mount /dev/vda"; poweroff -f; }
umount /proc /sys; mount --move /dev /newroot/dev
exec switch_root /newroot "$init"
EOF
  chmod 0755 "$ird/init"
  ( cd "$ird" && find . | cpio -o -H newc --quiet | gzip -1 ) > "$dir/initrd.img.new"
  mv "$dir/initrd.img.new" "$dir/initrd.img"
fi

# 4. base.img: the root with the kernel's modules, made into an ext4 image; then debootstrap's second
#    stage, in the VM as PID 1 (it configures every package; no emulation is registered on the host).
if [ ! -e "$dir/base.img.ready" ]; then
  step "base.img: the root as ext4, then debootstrap --second-stage in the VM"
  root=$dir/root
  rm -rf "$root/usr/lib/modules"; mkdir -p "$root/usr/lib/modules"
  cp -a "$dir/kernel/usr/lib/modules/$kver" "$root/usr/lib/modules/"
  # debootstrap --foreign may leave /proc a symlink to the host's /proc.
  if [ -L "$root/proc" ]; then rm "$root/proc"; mkdir "$root/proc"; fi
  echo meshnode-arm64 > "$root/etc/hostname"
  echo '/dev/vda / ext4 rw,errors=remount-ro 0 1' > "$root/etc/fstab"
  cat > "$root/meshnode-second-stage" <<'EOF'
#!/bin/sh
export PATH=/usr/sbin:/usr/bin:/sbin:/bin
mount -t proc proc /proc; mount -t sysfs sysfs /sys
echo "second stage: start at $(cut -d' ' -f1 /proc/uptime) s"
if /debootstrap/debootstrap --second-stage; then
  mountpoint -q /proc || mount -t proc proc /proc
  echo "second stage: done at $(cut -d' ' -f1 /proc/uptime) s"
  echo "MESHNODE-SECOND-STAGE-OK"
else
  tail -n 30 /debootstrap/debootstrap.log 2> /dev/null
  echo "MESHNODE-SECOND-STAGE-FAILED"
fi
rm -f /meshnode-second-stage
# (debootstrap unmounts /proc on its way out.)
mountpoint -q /proc || mount -t proc proc /proc
sync; mount -o remount,ro / 2> /dev/null; echo o > /proc/sysrq-trigger; sleep 60
EOF
  chmod 0755 "$root/meshnode-second-stage"
  # The unit each test boot starts (systemd.wants= on its cmdline): the guest script on the second disk.
  cat > "$root/etc/systemd/system/meshnode-arm64-test.service" <<'EOF'
[Unit]
Description=meshnoded arm64 package test (scripts/test-arm64-vm.sh)
After=multi-user.target
[Service]
Type=exec
ExecStart=/bin/sh -c 'mkdir -p /mnt/payload && mount -o ro /dev/vdb /mnt/payload && exec /bin/bash /mnt/payload/guest.sh'
StandardOutput=journal+console
StandardError=journal+console
EOF
  rm -f "$dir/base.img"
  mkfs.ext4 -q -L meshnode-root -d "$root" "$dir/base.img" 3G > /dev/null
  step "second stage in the VM (log: $dir/run/second-stage.log)"
  : > "$dir/run/second-stage.log"
  vm "$dir/run/second-stage.log" 5400 -drive "file=$dir/base.img,format=raw,if=virtio" \
    -append "console=ttyAMA0 root=/dev/vda rw init=/meshnode-second-stage panic=5"
  grep -q MESHNODE-SECOND-STAGE-OK "$dir/run/second-stage.log" \
    || { tail -n 40 "$dir/run/second-stage.log" >&2; echo "test-arm64-vm: the second stage failed" >&2; exit 1; }
  step "second stage: the VM ran $vm_seconds s"
  touch "$dir/base.img.ready"
fi

[ -z "$prepare" ] || { step "image ready: $dir/base.img"; exit 0; }

# 5. The test boot: base.img discarded after (-snapshot), the package and the guest script on /dev/vdb.
payload=$dir/payload.d
rm -rf "$payload"; mkdir -p "$payload"
cp "$deb" "$payload/"
cat > "$payload/guest.sh" <<'EOF'
#!/bin/bash
export PATH=/usr/sbin:/usr/bin:/sbin:/bin
failed=0
now() { cut -d' ' -f1 /proc/uptime; }
say() { echo "arm64vm: [$(now) s] $*"; }
fail() { say "FAIL: $*"; failed=1; }
since() { echo "$(( $(date +%s%N) / 1000000 - $1 )) ms"; }
ms() { echo $(( $(date +%s%N) / 1000000 )); }
prop() { systemctl show meshnoded -p "$1" --value; }
say "systemd: $(systemctl is-system-running --wait); $(systemd-analyze time 2>&1 | head -n 1)"
say "$(uname -m), dpkg architecture $(dpkg --print-architecture), $(. /etc/os-release; echo "$PRETTY_NAME"), bluez $(dpkg-query -W -f='${Version}' bluez)"
t=$(ms)
if apt-get install -y /mnt/payload/meshnoded_*_arm64.deb > /tmp/install.log 2>&1; then
  say "apt-get install (no network): $(since "$t"); $(dpkg-query -W -f='${Package} ${Version} ${Architecture}' meshnoded)"
else
  tail -n 20 /tmp/install.log; fail "apt-get install"
fi
for i in $(seq 60); do systemctl is-active -q meshnoded && break; sleep 1; done
[ "$(prop ActiveState)/$(prop SubState)" = active/running ] && say "meshnoded.service active (running) after the install; enabled: $(systemctl is-enabled meshnoded)" \
  || fail "meshnoded.service is $(prop ActiveState)/$(prop SubState) after the install"
t=$(ms)
systemctl restart meshnoded && say "systemctl restart (returns at READY=1): $(since "$t")" || fail "systemctl restart"
status=""
for i in $(seq 30); do status=$(relayctl status 2>&1) && break; sleep 1; done
echo "$status" | sed 's/^/  relayctl status: /'
grep -qE 'waiting for (bluetoothd|adapter)' <<< "$status" && say "relayctl status answers; the transport waits for bluetoothd or an adapter (none in the VM)" \
  || fail "relayctl status did not say 'waiting for bluetoothd' or 'waiting for adapter'"
[ "$(prop NRestarts)" = 0 ] || fail "NRestarts $(prop NRestarts)"
t=$(ms)
if ! systemctl stop meshnoded; then fail "systemctl stop"
elif [ "$(prop Result)" = success ] && [ "$(prop ActiveState)" = inactive ]; then say "systemctl stop: $(since "$t"), Result=success"
else fail "after stop: Result=$(prop Result) ActiveState=$(prop ActiveState)"; fi
journalctl -u meshnoded --no-pager -o cat | tail -n 12 | sed 's/^/  journal: /'
[ "$failed" = 0 ] && say "MESHNODE-ARM64-VM-PASS" || say "MESHNODE-ARM64-VM-FAIL"
sync
systemctl poweroff --force
EOF
rm -f "$dir/payload.img"
mkfs.ext4 -q -L meshnode-payload -d "$payload" "$dir/payload.img" $(( $(stat -c %s "$deb") / 1048576 + 32 ))M > /dev/null
log=$dir/run/test.log
: > "$log"
step "test boot: systemd, apt-get install $(basename "$deb"), meshnoded.service (console: $log)"
vm "$log" 1800 -snapshot -drive "file=$dir/base.img,format=raw,if=virtio" -drive "file=$dir/payload.img,format=raw,if=virtio" \
  -append "console=ttyAMA0 root=/dev/vda rw systemd.wants=meshnode-arm64-test.service systemd.mask=serial-getty@ttyAMA0.service systemd.show_status=false"
# The guest script's lines, as the console shows them: "[ 65.04] sh[261]: arm64vm: ...".
grep -aoE '\[ *[0-9.]+\] sh\[[0-9]+\]: .*' "$log" | sed -E 's/^\[ *[0-9.]+\] sh\[[0-9]+\]: //' || true
step "test boot: the VM ran $vm_seconds s"
grep -q MESHNODE-ARM64-VM-PASS "$log" && { echo "arm64 VM test: passed"; exit 0; }
tail -n 30 "$log" >&2
echo "arm64 VM test: failed" >&2
exit 1
