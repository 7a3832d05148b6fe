#!/bin/bash
# Scenario for scripts/blelab-run: meshnoded processes on the real BlueZ, each on its own emulated
# controller. NODES=3 (default): a line A-B-C made by deny lists (A and C deny each other's
# address); NODES=2: a pair A-B.
#   scripts/blelab-run -n 4 Tests/VM/meshnoded-line.sh "$(swift build --show-bin-path)"
#   scripts/blelab-run -n 3 env NODES=2 Tests/VM/meshnoded-line.sh "$(swift build --show-bin-path)"
# The line needs B to hold two LE connections, which the stock btvirt cannot carry (it mixes up
# connection handles, docs/BLUEZ.md "Why: btvirt's connection handles"); give blelab-run
# `--btvirt PATH` with a fixed build for NODES=3.
# Checks, in order (a timeline in seconds since VM boot is printed):
#   1. every node links to its neighbours; `relayctl peers` on B shows its links with roles and MTU;
#   2. a broadcast sent on A arrives at the last node (through B in the line);
#   3. a direct message A -> last node arrives; in the line, B's counters and log show it relayed
#      opaque;
#   4. bluetoothd is killed and restarted: the nodes recover by themselves and a new message
#      from A reaches C;
#   5. every node stops on SIGTERM with exit status 0.
. "$MESHLAB_LIB"
bin=$(readlink -f "$1")
count=${NODES:-3}; last=$((count - 1))
read -r -a adapters <<< "$MESHLAB_ADAPTERS"
[ ${#adapters[@]} -ge "$count" ] || { echo "only ${#adapters[@]} adapters: $MESHLAB_ADAPTERS"; exit 3; }
names=(A B C)
failed=0
stamp() { printf '%7.2f  %s\n' "$(uptime_s)" "$*"; }
fail() { stamp "FAIL: $*"; failed=1; }
address() { busctl --system get-property org.bluez "/org/bluez/$1" org.bluez.Adapter1 Address | cut -d'"' -f2; }
ctl() { local i=$1; shift; "$bin/relayctl" --socket "/tmp/mesh-${names[$i]}/control.sock" "$@"; }
json_number() { sed -n "s/.*\"$1\" *: *\([0-9]*\).*/\1/p" | head -n 1; }
counter() { ctl "$1" --json stats 2>/dev/null | tr -d '\n ' | grep -o "\"$2\":{[^}]*}" | grep -o "\"$3\":[0-9]*" | cut -d: -f2; }
wait_until() { # seconds, command...
  local deadline=$(( $(date +%s) + $1 )); shift
  until "$@"; do [ "$(date +%s)" -lt "$deadline" ] || return 1; sleep 1; done
}
neighbours_at_least() { [ "$(ctl "$1" --json status 2>/dev/null | json_number neighbourCount)" -ge "$2" ] 2>/dev/null; }
delivered_at_least() { [ "$(counter "$1" message delivered)" -ge "$2" ] 2>/dev/null; }

nodes=$(seq 0 $last)
addr=(); for i in $nodes; do addr+=("$(address "${adapters[$i]}")"); done
stamp "adapters ${adapters[*]:0:$count} (${addr[*]})"
pids=()
for i in $nodes; do
  dir="/tmp/mesh-${names[$i]}"; mkdir -p "$dir"
  args=(--transport bluez --adapter "${adapters[$i]}" --state-directory "$dir" --runtime-directory "$dir"
        --name "node-${names[$i]}" --log-level debug --control-group root)
  if [ "$count" = 3 ]; then
    [ "$i" = 0 ] && args+=(--deny "${addr[2]}")
    [ "$i" = 2 ] && args+=(--deny "${addr[0]}")
  fi
  "$bin/meshnoded" "${args[@]}" > "$MESHLAB_OUT/meshnoded-${names[$i]}.log" 2>&1 &
  pids+=($!)
done

if wait_until 300 neighbours_at_least 1 "$last" && wait_until 60 neighbours_at_least 0 1 && wait_until 60 neighbours_at_least "$last" 1; then
  stamp "up: B has $last neighbour(s), the ends one each"
else
  fail "the nodes did not link"
fi
ctl 1 peers | tee "$MESHLAB_OUT/peers-B.txt"
ctl 1 --json peers > "$MESHLAB_OUT/peers-B.json"
links=$(grep -o '"role" *: *"\(central\|peripheral\)"' "$MESHLAB_OUT/peers-B.json" | wc -l)
mtus=$(grep -o '"mtu" *: *[0-9]*' "$MESHLAB_OUT/peers-B.json" | wc -l)
[ "$links" -ge "$last" ] && [ "$mtus" -ge "$last" ] || fail "peers on B lacks links with roles and MTU"
[ "$(ctl 0 --json status | json_number neighbourCount)" = 1 ] || fail "A has a neighbour besides B"

id=$(ctl 0 send "hello from A over BLE")
if wait_until 60 delivered_at_least "$last" 1; then stamp "broadcast $id from A delivered at ${names[$last]}"; else fail "broadcast did not reach ${names[$last]}"; fi

target=$(ctl "$last" --json id | sed -n 's/.*"nodeID" *: *"\([0-9a-f]*\)".*/\1/p')
wait_until 60 sh -c "$bin/relayctl --socket /tmp/mesh-A/control.sock --json peers | grep -q $target" || fail "A never learned ${names[$last]}"
relayed_before=$(counter 1 message relayed)
direct=$(ctl 0 send --to "$target" "for the last node only")
if wait_until 60 delivered_at_least "$last" 2; then stamp "direct message $direct delivered at ${names[$last]}"; else fail "direct message did not arrive"; fi
if [ "$count" = 3 ]; then
  [ "$(counter 1 message relayed)" -gt "$relayed_before" ] || fail "B's relayed counter did not move"
  grep -q "sealed, opaque" "$MESHLAB_OUT/meshnoded-B.log" || fail "B's log does not show an opaque relay"
fi
grep -q "for the last node only" "$MESHLAB_OUT"/meshnoded-*.log && fail "message text found in a log"

stamp "killing bluetoothd"
bluez_kill
sleep 3
stamp "starting bluetoothd again"
bluez_start
before=$(counter "$last" message delivered)
recovered() {
  ctl 0 send "after the restart" > /dev/null 2>&1
  sleep 4
  [ "$(counter "$last" message delivered)" -gt "$before" ]
}
if wait_until 300 recovered; then stamp "recovered: a new message from A reached ${names[$last]}"; else fail "no recovery after the bluetoothd restart"; fi

stamp "stopping"
for i in $nodes; do
  kill -TERM "${pids[$i]}"
  wait "${pids[$i]}" || fail "node ${names[$i]} exited $?"
done
for i in $nodes; do
  echo "== ${names[$i]}: $(grep -c 'link up' "$MESHLAB_OUT/meshnoded-${names[$i]}.log") link-ups, $(grep -c 'link keyed' "$MESHLAB_OUT/meshnoded-${names[$i]}.log") key exchanges"
done
stamp "result: $([ $failed = 0 ] && echo PASS || echo FAIL)"
exit $failed
