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
. "$(dirname "$MESHLAB_LIB")/scenario-lib.sh"
bin=$(readlink -f "$1")
[ -x "$bin/meshnoded" ] && [ -x "$bin/relayctl" ] || { echo "no meshnoded and relayctl in $bin"; exit 3; }
count=${NODES:-3}; last=$((count - 1))
read -r -a adapters <<< "$MESHLAB_ADAPTERS"
[ ${#adapters[@]} -ge "$count" ] || { echo "only ${#adapters[@]} adapters: $MESHLAB_ADAPTERS"; exit 3; }
names=(A B C)
failed=0
nodes=$(seq 0 $last)
start_line "$count"

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

target=$(node_id "$last")
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
stop_nodes "$count"
for i in $nodes; do
  echo "== ${names[$i]}: $(grep -c 'link up' "$MESHLAB_OUT/meshnoded-${names[$i]}.log") link-ups, $(grep -c 'link keyed' "$MESHLAB_OUT/meshnoded-${names[$i]}.log") key exchanges"
done
stamp "result: $([ $failed = 0 ] && echo PASS || echo FAIL)"
exit $failed
