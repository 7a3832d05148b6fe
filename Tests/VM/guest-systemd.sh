#!/bin/sh
# Second stage inside the VM when scripts/blelab-run has --systemd: runs as meshlab-command.service
# under systemd (PID 1) with journald and the system bus from this machine's own units. Starts
# btvirt's emulated controllers and Debian's stock bluetooth.service, runs the command
# scripts/blelab-run wrote, records its exit status and the boot's journal, and powers off.
export PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin
param() { sed -n "s/.*$1=\([^ ]*\).*/\1/p" /proc/cmdline; }
out=$(param meshlab.out)
count=$(param meshlab.n)
btvirt=$(param meshlab.btvirt); [ -n "$btvirt" ] || btvirt=btvirt
mkdir -p "$out"
mount -t 9p -o trans=virtio,version=9p2000.L,msize=512000 meshout "$out"
logs="$out/vm"
mkdir -p "$logs" /run/meshlab
here=$(dirname "$(readlink -f "$0")")
. "$here/lib.sh"
t0=$(uptime_s)
{
  echo "systemd reached the scenario at ${t0}s"
  modprobe bluetooth && modprobe hci_vhci || echo "no bluetooth modules"
  "$btvirt" -L -l"$count" > "$logs/btvirt.log" 2>&1 &
  echo $! > /run/meshlab/btvirt.pid
  i=0
  while [ "$(ls /sys/class/bluetooth 2>/dev/null | wc -l)" -lt "$count" ] && [ $i -lt 100 ]; do sleep 0.1; i=$((i+1)); done
  systemctl start bluetooth.service || echo "bluetooth.service did not start"
  until [ "$(bluez_adapters | wc -w)" -ge "$count" ] || [ "$(uptime_s | cut -d. -f1)" -ge $(( ${t0%.*} + 20 )) ]; do
    sleep 0.5
  done
  echo "adapters: $(bluez_adapters) at $(uptime_s)s"
} > "$logs/setup.log" 2>&1
export MESHLAB_OUT="$out" MESHLAB_LIB="$here/lib.sh"
MESHLAB_ADAPTERS=$(bluez_adapters)
export MESHLAB_ADAPTERS
bash "$out/.command" > "$out/command.log" 2>&1
echo $? > "$out/.exit"
journalctl -b --no-pager > "$logs/journal.log" 2>&1
sync
systemctl poweroff --force --force
