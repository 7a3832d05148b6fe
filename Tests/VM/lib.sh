# Helpers for scenarios running inside the blelab-run VM (source "$MESHLAB_LIB").
# bluetoothd's output goes to $MESHLAB_OUT/vm/bluetoothd.log (appended across restarts).

# Starts bluetoothd (experimental interfaces on) and records its process ID. When it crashes, its
# core goes to $MESHLAB_OUT/vm/core.bluetoothd.PID (read it on the host with gdb; BlueZ 5.66 has
# been seen to segfault under emulation, docs/BLUEZ.md "What is left").
bluez_start() {
  local dir="${MESHLAB_OUT:-$out}/vm"
  echo "$dir/core.%e.%p" > /proc/sys/kernel/core_pattern 2>/dev/null
  local daemon=/usr/libexec/bluetooth/bluetoothd
  [ -f /run/meshlab/bluetoothd.path ] && daemon=$(cat /run/meshlab/bluetoothd.path)
  (ulimit -c unlimited; exec "$daemon" -n -E >> "$dir/bluetoothd.log" 2>&1) &
  echo $! > /run/meshlab/bluetoothd.pid
}

# Kills the bluetoothd this VM started (by its recorded ID) and waits for it to leave the bus.
bluez_kill() {
  pid=$(cat /run/meshlab/bluetoothd.pid)
  kill -9 "$pid" 2>/dev/null
  i=0
  while busctl --system status org.bluez >/dev/null 2>&1 && [ $i -lt 50 ]; do sleep 0.1; i=$((i+1)); done
}

# The adapters bluetoothd shows now, sorted, space separated.
bluez_adapters() {
  busctl --system tree org.bluez 2>/dev/null | grep -o '/org/bluez/hci[0-9]*$' | sed 's#.*/##' | sort -u | tr '\n' ' ' | sed 's/ $//'
}

# Seconds since the VM booted.
uptime_s() { cut -d' ' -f1 /proc/uptime; }

# Waits until FILE contains PATTERN (grep -E) or SECONDS pass (by the clock); returns 0 when found.
wait_for_line() {
  file=$1; pattern=$2; deadline=$(( $(date +%s) + $3 ))
  until grep -Eq "$pattern" "$file" 2>/dev/null; do
    [ "$(date +%s)" -lt "$deadline" ] || return 1
    sleep 0.2
  done
}

# --- Used by the two guest scripts (guest.sh, guest-systemd.sh) while the VM boots. ---

# The value of meshlab.NAME on the kernel command line.
meshlab_param() { sed -n "s/.*meshlab\.$1=\([^ ]*\).*/\1/p" /proc/cmdline; }

# Reads the VM's settings from the kernel command line into out, count, btvirt and trace (and the
# bluetoothd to run, for bluez_start), and
# mounts the output folder shared with the host at its host path, with vm/ (logs) inside.
meshlab_guest_init() {
  out=$(meshlab_param out)
  count=$(meshlab_param n)
  trace=$(meshlab_param trace)
  btvirt=$(meshlab_param btvirt); [ -n "$btvirt" ] || btvirt=btvirt
  logs="$out/vm"
  mkdir -p "$out"
  mount -t 9p -o trans=virtio,version=9p2000.L,msize=512000 meshout "$out"
  mkdir -p "$logs" /run/meshlab
  bluetoothd=$(meshlab_param bluetoothd)
  [ -n "$bluetoothd" ] && echo "$bluetoothd" > /run/meshlab/bluetoothd.path
}

# Loads the Bluetooth modules and starts btvirt with COUNT emulated LE controllers (BTVIRT is
# the binary; TRACE=1 adds its debug output and a btmon capture in LOGS), then waits up to 10 s
# for the kernel to show them.  Usage: btvirt_start COUNT BTVIRT TRACE LOGS
btvirt_start() {
  modprobe bluetooth && modprobe hci_vhci || echo "no bluetooth modules"
  if [ "$3" = 1 ]; then
    btmon -w "$4/hci.btsnoop" > /dev/null 2>&1 &
    echo $! > /run/meshlab/btmon.pid
    "$2" -d -L -l"$1" > "$4/btvirt.log" 2>&1 &
  else
    "$2" -L -l"$1" > "$4/btvirt.log" 2>&1 &
  fi
  echo $! > /run/meshlab/btvirt.pid
  i=0
  while [ "$(ls /sys/class/bluetooth 2>/dev/null | wc -l)" -lt "$1" ] && [ $i -lt 100 ]; do sleep 0.1; i=$((i+1)); done
}

# Controllers whose initialisation timed out: under emulation a controller sometimes misses its
# Reset (the kernel logs "hciN: Opcode 0x0c03 failed: -110") and then never shows up.
init_timeouts() { dmesg 2>/dev/null | grep -oE 'hci[0-9]+: Opcode 0x[0-9a-f]{4} failed: -110'; }
dead_controllers() { init_timeouts | cut -d: -f1 | sort -u | wc -l; }

# Waits until bluetoothd shows COUNT adapters, less the controllers that died in their
# initialisation (every scenario asks for one spare), or until 20 s after uptime T0.
# Usage: wait_for_adapters COUNT T0
wait_for_adapters() {
  until [ "$(bluez_adapters | wc -w)" -ge $(( $1 - $(dead_controllers) )) ] || [ "$(uptime_s | cut -d. -f1)" -ge $(( ${2%.*} + 20 )) ]; do
    sleep 0.5
  done
  echo "adapters: $(bluez_adapters) at $(uptime_s)s"
  [ "$(dead_controllers)" = 0 ] || echo "controllers whose initialisation timed out: $(init_timeouts | tr '\n' ' ')"
}

# Runs the command file blelab-run wrote with the scenario's environment; records its status.
meshlab_run_command() {
  MESHLAB_OUT="$1" MESHLAB_LIB="$2" MESHLAB_ADAPTERS=$(bluez_adapters) \
    bash "$1/.command" > "$1/command.log" 2>&1
  echo $? > "$1/.exit"
}
