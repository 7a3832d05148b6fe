#!/bin/sh
# Second stage inside the VM, on the host's root with a RAM overlay: start the system bus, btvirt's
# emulated controllers and bluetoothd, run the command scripts/blelab-run wrote, record its exit status.
export PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin
mount -t proc proc /proc
mount -t sysfs sysfs /sys
mount -t devtmpfs devtmpfs /dev
mkdir -p /dev/pts /dev/shm
mount -t devpts devpts /dev/pts
mount -t tmpfs tmpfs /dev/shm
mount -t tmpfs tmpfs /run
hostname meshlab
here=$(dirname "$(readlink -f "$0")")
. "$here/lib.sh"
meshlab_guest_init
mkdir -p /run/dbus
t0=$(uptime_s)
{
  echo "kernel up at ${t0}s"
  dbus-daemon --system --fork --nopidfile
  btvirt_start "$count" "$btvirt" "$trace" "$logs"
  bluez_start
  wait_for_adapters "$count" "$t0"
} > "$logs/setup.log" 2>&1
meshlab_run_command "$out" "$here/lib.sh"
cp /run/meshlab/*.log "$logs/" 2>/dev/null
[ -f /run/meshlab/btmon.pid ] && kill "$(cat /run/meshlab/btmon.pid)" 2>/dev/null && sleep 0.5
sync
poweroff -f
