#!/bin/sh
# Second stage inside the VM when scripts/blelab-run has --systemd: runs as meshlab-command.service
# under systemd (PID 1) with journald and the system bus from this machine's own units. Starts
# btvirt's emulated controllers and Debian's stock bluetooth.service, runs the command
# scripts/blelab-run wrote, records its exit status and the boot's journal, and powers off.
export PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin
here=$(dirname "$(readlink -f "$0")")
. "$here/lib.sh"
meshlab_guest_init
t0=$(uptime_s)
{
  echo "systemd reached the scenario at ${t0}s"
  btvirt_start "$count" "$btvirt" "$trace" "$logs"
  systemctl start bluetooth.service || echo "bluetooth.service did not start"
  wait_for_adapters "$count" "$t0"
} > "$logs/setup.log" 2>&1
meshlab_run_command "$out" "$here/lib.sh"
journalctl -b --no-pager > "$logs/journal.log" 2>&1
sync
systemctl poweroff --force --force
