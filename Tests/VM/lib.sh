# Helpers for scenarios running inside the blelab-run VM (source "$MESHLAB_LIB").
# bluetoothd's output goes to $MESHLAB_OUT/vm/bluetoothd.log (appended across restarts).

# Starts bluetoothd (experimental interfaces on) and records its process ID.
bluez_start() {
  /usr/libexec/bluetooth/bluetoothd -n -E >> "${MESHLAB_OUT:-$out}/vm/bluetoothd.log" 2>&1 &
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
