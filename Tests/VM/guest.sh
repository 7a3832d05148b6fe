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
param() { sed -n "s/.*$1=\([^ ]*\).*/\1/p" /proc/cmdline; }
out=$(param meshlab.out)
count=$(param meshlab.n)
trace=$(param meshlab.trace)
btvirt=$(param meshlab.btvirt); [ -n "$btvirt" ] || btvirt=btvirt
mkdir -p "$out"
mount -t 9p -o trans=virtio,version=9p2000.L,msize=512000 meshout "$out"
logs="$out/vm"
mkdir -p "$logs" /run/meshlab /run/dbus
here=$(dirname "$(readlink -f "$0")")
t0=$(cut -d' ' -f1 /proc/uptime)
{
  echo "kernel up at ${t0}s"
  modprobe bluetooth && modprobe hci_vhci || echo "no bluetooth modules"
  dbus-daemon --system --fork --nopidfile
  if [ "$trace" = 1 ]; then
    btmon -w "$logs/hci.btsnoop" > /dev/null 2>&1 &
    echo $! > /run/meshlab/btmon.pid
    "$btvirt" -d -L -l"$count" > "$logs/btvirt.log" 2>&1 &
  else
    "$btvirt" -L -l"$count" > "$logs/btvirt.log" 2>&1 &
  fi
  echo $! > /run/meshlab/btvirt.pid
  i=0
  while [ "$(ls /sys/class/bluetooth 2>/dev/null | wc -l)" -lt "$count" ] && [ $i -lt 100 ]; do sleep 0.1; i=$((i+1)); done
  . "$here/lib.sh"
  bluez_start
  # Under emulation a controller sometimes fails its reset and never shows up: wait 20 s at most.
  until [ "$(bluez_adapters | wc -w)" -ge "$count" ] || [ "$(uptime_s | cut -d. -f1)" -ge $(( ${t0%.*} + 20 )) ]; do
    sleep 0.5
  done
  echo "adapters: $(bluez_adapters) at $(cut -d' ' -f1 /proc/uptime)s"
} > "$logs/setup.log" 2>&1
export MESHLAB_OUT="$out" MESHLAB_LIB="$here/lib.sh"
. "$here/lib.sh"
MESHLAB_ADAPTERS=$(bluez_adapters)
export MESHLAB_ADAPTERS
bash "$out/.command" > "$out/command.log" 2>&1
echo $? > "$out/.exit"
cp /run/meshlab/*.log "$logs/" 2>/dev/null
[ -f /run/meshlab/btmon.pid ] && kill "$(cat /run/meshlab/btmon.pid)" 2>/dev/null && sleep 0.5
sync
poweroff -f
