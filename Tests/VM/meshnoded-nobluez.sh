#!/bin/bash
# Scenario for scripts/blelab-run: meshnoded started while bluetoothd is not on the bus waits for it,
# says so, and links by itself once bluetoothd starts; a node whose adapter does not exist waits too.
#   scripts/blelab-run -n 3 Tests/VM/meshnoded-nobluez.sh "$(swift build --show-bin-path)"
# Checks, in order (a timeline in seconds since VM boot is printed):
#   1. with bluetoothd killed, nodes A and B (hci0, hci1) and W (an adapter that does not exist,
#      hci9) start and keep running; A and B log "state: waiting for bluetoothd" and look again with
#      backoff (a few lookups in 12 s, not a spin); `relayctl status` answers;
#   2. bluetoothd starts: A and B reach "state: running", link, and a broadcast from A reaches B;
#      W logs "state: waiting for adapter hci9" and is still running;
#   3. every node stops on SIGTERM with exit status 0.
. "$MESHLAB_LIB"
. "$(dirname "$MESHLAB_LIB")/scenario-lib.sh"
bin=$(readlink -f "$1")
[ -x "$bin/meshnoded" ] && [ -x "$bin/relayctl" ] || { echo "no meshnoded and relayctl in $bin"; exit 3; }
read -r -a adapters <<< "$MESHLAB_ADAPTERS"
[ ${#adapters[@]} -ge 2 ] || { echo "only ${#adapters[@]} adapters: $MESHLAB_ADAPTERS"; exit 3; }
names=(A B W)
failed=0
log_of() { echo "$MESHLAB_OUT/meshnoded-${names[$1]}.log"; }
# Whether node I's log has a line matching PATTERN.
logged() { grep -Eq "$2" "$(log_of "$1")" 2>/dev/null; }
alive() { kill -0 "${pids[$1]}" 2>/dev/null; }

stamp "killing bluetoothd before any node starts"
bluez_kill
bluez_running && fail "bluetoothd still runs"
[ -e /dev/fd ] || ln -s /proc/self/fd /dev/fd
pids=()
node_adapters=("${adapters[0]}" "${adapters[1]}" hci9)
for i in 0 1 2; do
  dir="/tmp/mesh-${names[$i]}"; mkdir -p "$dir"
  "$bin/meshnoded" --transport bluez --adapter "${node_adapters[$i]}" --state-directory "$dir" \
    --runtime-directory "$dir" --name "node-${names[$i]}" --log-level debug --control-group root \
    > >(uptime_lines > "$(log_of $i)") 2>&1 &
  pids+=($!)
done

for i in 0 1 2; do
  if wait_until 60 logged "$i" "state: waiting for bluetoothd"; then
    stamp "${names[$i]}: $(grep -o 'state: waiting for bluetoothd[^[]*' "$(log_of "$i")" | head -n 1)"
  else
    fail "${names[$i]} never said it waits for bluetoothd"
  fi
done
sleep 12
for i in 0 1 2; do alive "$i" || fail "${names[$i]} exited while bluetoothd was missing"; done
lookups=$(grep -c 'bluetoothd is not on the bus' "$(log_of 0)")
stamp "A looked for bluetoothd $lookups times"
[ "$lookups" -ge 2 ] && [ "$lookups" -le 12 ] || fail "A looked for bluetoothd $lookups times in about 12 s (backoff: 1, 2, 4, 8 s ...)"
[ "$(ctl 0 --json status 2>/dev/null | sed -n 's/.*"state" *: *"\([a-z]*\)".*/\1/p')" = running ] \
  || fail "A's control socket does not answer status while bluetoothd is missing"

stamp "starting bluetoothd"
bluez_start
for i in 0 1; do
  if wait_until 120 logged "$i" "state: running on"; then stamp "${names[$i]}: running"; else fail "${names[$i]} did not come up"; fi
done
if wait_until 240 neighbours_at_least 0 1 && wait_until 60 neighbours_at_least 1 1; then
  stamp "A and B linked"
else
  fail "A and B did not link after bluetoothd started"
fi
ctl 0 send "after bluetoothd came" > /dev/null || fail "A refused to send"
if wait_until 60 delivered_at_least 1 1; then stamp "broadcast delivered at B"; else fail "the broadcast did not reach B"; fi
if wait_until 60 logged 2 "state: waiting for adapter hci9"; then
  stamp "W: $(grep -o 'state: waiting for adapter[^[]*' "$(log_of 2)" | tail -n 1)"
else
  fail "W never said it waits for adapter hci9"
fi
alive 2 || fail "W exited without its adapter"

stamp "stopping"
for i in 0 1 2; do
  kill -TERM "${pids[$i]}"
  wait "${pids[$i]}"; status=$?
  [ "$status" = 0 ] || fail "node ${names[$i]} exited $status"
done
save_kernel_log
stamp "result: $([ $failed = 0 ] && echo PASS || echo FAIL)"
exit $failed
