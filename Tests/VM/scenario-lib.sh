# Bash helpers for the meshnoded scenarios (meshnoded-line.sh, meshnoded-line5.sh), sourced after
# "$MESHLAB_LIB" (lib.sh stays POSIX sh: the guest's /bin/sh sources it while the VM boots).
# They expect `bin` (folder with meshnoded and relayctl), `names` (node letters) and `failed`.

# Prints a line stamped with the VM's uptime.
stamp() { printf '%7.2f  %s\n' "$(uptime_s)" "$*"; }
# Records a failure (the scenario goes on and fails at the end).
fail() { stamp "FAIL: $*"; failed=1; }
# The Bluetooth address of an adapter (hciN).
address() { busctl --system get-property org.bluez "/org/bluez/$1" org.bluez.Adapter1 Address | cut -d'"' -f2; }
# relayctl against node I.  Usage: ctl I ARGS...
ctl() { local i=$1; shift; "$bin/relayctl" --socket "/tmp/mesh-${names[$i]}/control.sock" "$@"; }
# The first number of a JSON field NAME on stdin.
json_number() { sed -n "s/.*\"$1\" *: *\([0-9]*\).*/\1/p" | head -n 1; }
# A counter of node I: section, field (e.g. `counter 1 message relayed`).
counter() { ctl "$1" --json stats 2>/dev/null | tr -d '\n ' | grep -o "\"$2\":{[^}]*}" | grep -o "\"$3\":[0-9]*" | cut -d: -f2; }
# Runs COMMAND once a second until it succeeds or SECONDS pass.  Usage: wait_until SECONDS COMMAND...
wait_until() {
  local deadline=$(( $(date +%s) + $1 )); shift
  until "$@"; do [ "$(date +%s)" -lt "$deadline" ] || return 1; sleep 1; done
}
# Whether node I has at least N neighbours (keyed links).
neighbours_at_least() { [ "$(ctl "$1" --json status 2>/dev/null | json_number neighbourCount)" -ge "$2" ] 2>/dev/null; }
# Whether node I's log shows at least N neighbours now (joined minus departed). Cheap: relayctl is a
# process start, which costs a second of CPU under software emulation; poll with this, confirm with
# neighbours_at_least.
log_neighbours_at_least() {
  local log="$MESHLAB_OUT/meshnoded-${names[$1]}.log"
  [ $(( $(grep -c 'neighbour joined' "$log") - $(grep -c 'neighbour departed' "$log") )) -ge "$2" ]
}
# Whether node I has delivered at least N messages.
delivered_at_least() { [ "$(counter "$1" message delivered)" -ge "$2" ] 2>/dev/null; }
# Node I's node ID (32 hex digits).
node_id() { ctl "$1" --json id | sed -n 's/.*"nodeID" *: *"\([0-9a-f]*\)".*/\1/p'; }

# Copies stdin to stdout, each line prefixed with the VM's uptime (the daemon's own lines have no time).
uptime_lines() {
  local line up rest
  while IFS= read -r line; do read -r up rest < /proc/uptime; printf '%s %s\n' "$up" "$line"; done
}

# Starts COUNT meshnoded processes on the first COUNT adapters (array `adapters`) as a line made by
# deny lists: node i denies every node but i-1 and i+1. Fills `addr` and `pids`; logs go to
# $MESHLAB_OUT/meshnoded-X.log; every node also gets the flags in the array `node_flags`, if set.
# Usage: start_line COUNT
start_line() {
  local count=$1 i j dir args deny
  addr=(); pids=()
  [ -e /dev/fd ] || ln -s /proc/self/fd /dev/fd   # process substitution; the VM's devtmpfs lacks it
  for ((i = 0; i < count; i++)); do addr+=("$(address "${adapters[$i]}")"); done
  stamp "adapters ${adapters[*]:0:$count} (${addr[*]})"
  for ((i = 0; i < count; i++)); do
    dir="/tmp/mesh-${names[$i]}"; mkdir -p "$dir"
    args=(--transport bluez --adapter "${adapters[$i]}" --state-directory "$dir" --runtime-directory "$dir"
          --name "node-${names[$i]}" --log-level debug --control-group root)
    deny=""   # one --deny with a comma-separated list: a repeated --deny replaces the earlier one
    for ((j = 0; j < count; j++)); do
      [ $(( i - j )) -gt 1 ] || [ $(( j - i )) -gt 1 ] && deny+="${deny:+,}${addr[$j]}"
    done
    [ -n "$deny" ] && args+=(--deny "$deny")
    args+=(${node_flags[@]+"${node_flags[@]}"})
    "$bin/meshnoded" "${args[@]}" > >(uptime_lines > "$MESHLAB_OUT/meshnoded-${names[$i]}.log") 2>&1 &
    pids+=($!)
  done
}

# Stops nodes 0..COUNT-1 with SIGTERM; a node that exits non-zero fails the scenario.  Usage: stop_nodes COUNT
stop_nodes() {
  local i status
  for ((i = 0; i < $1; i++)); do
    kill -TERM "${pids[$i]}"
    wait "${pids[$i]}"; status=$?
    [ "$status" = 0 ] || fail "node ${names[$i]} exited $status"
  done
}

# Whether the bluetoothd this VM started is still running.
bluez_running() { kill -0 "$(cat /run/meshlab/bluetoothd.pid 2>/dev/null)" 2>/dev/null; }

# Saves the kernel log (a daemon that crashed shows there) to $MESHLAB_OUT/vm/dmesg.txt.
save_kernel_log() { dmesg > "$MESHLAB_OUT/vm/dmesg.txt" 2>&1; }

# Saves node I's `relayctl --json stats` (one process start) as shell variables in
# $MESHLAB_OUT/stats-X[-SUFFIX].sh, read by `stat_of` without starting a process per counter (each
# costs a noticeable share of a second under emulation). Usage: save_stats I [SUFFIX]
save_stats() {
  ctl "$1" --json stats 2>/dev/null | tr -d '\n ' | awk -v prefix="S_${names[$1]}_${2}_" '{
    s = $0
    while (match(s, /"[A-Za-z_]+":\{[^{}]*\}/)) {
      block = substr(s, RSTART, RLENGTH); s = substr(s, RSTART + RLENGTH)
      name = block; sub(/^"/, "", name); sub(/".*/, "", name)
      body = block; sub(/^[^{]*\{/, "", body)
      n = split(body, pairs, ",")
      for (i = 1; i <= n; i++) if (match(pairs[i], /^"[A-Za-z_]+":[0-9]+/)) {
        split(substr(pairs[i], RSTART, RLENGTH), kv, ":"); gsub(/"/, "", kv[1])
        key = prefix name "_" kv[1]; if (!(key in seen)) { seen[key] = 1; print key "=" kv[2] }
      }
    }
  }' > "$MESHLAB_OUT/stats-${names[$1]}${2:+-$2}.sh"
}
# A counter from the last `save_stats I [SUFFIX]`: section, field.  Usage: stat_of I SECTION FIELD [SUFFIX]
stat_of() {
  local var="S_${names[$1]}_${4}_$2_$3"
  . "$MESHLAB_OUT/stats-${names[$1]}${4:+-$4}.sh"
  echo "${!var}"
}
# How many lines of node I's log match PATTERN (grep -E).  Usage: log_count I PATTERN
log_count() { grep -cE "$2" "$MESHLAB_OUT/meshnoded-${names[$1]}.log"; }
