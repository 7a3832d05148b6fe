#!/bin/bash
# Scenario for scripts/blelab-run: N gattcheck instances, one per emulated controller, must discover
# each other, link, exchange frames both ways, then survive bluetoothd being killed and restarted,
# and (with POWER=1) the first adapter being powered off and on again.
#   scripts/blelab-run -n 4 Tests/VM/gattcheck.sh .build/debug/gattcheck 3
# Prints a timeline (seconds since VM boot) and exits non-zero if any phase failed.
. "$MESHLAB_LIB"
bin=$(readlink -f "$1"); count=${2:-2}; power=${POWER:-1}
names=(aaaa0001 bbbb0002 cccc0003 dddd0004 eeee0005)
read -r -a adapters <<< "$MESHLAB_ADAPTERS"
[ ${#adapters[@]} -ge "$count" ] || { echo "only ${#adapters[@]} adapters: $MESHLAB_ADAPTERS"; exit 3; }
failed=0
stamp() { printf '%7.2f  %s\n' "$(uptime_s)" "$*"; }
logs=(); pids=()
stamp "adapters: $MESHLAB_ADAPTERS; starting $count instances"
for i in $(seq 0 $((count - 1))); do
  log="$MESHLAB_OUT/gattcheck-${names[$i]}.log"
  "$bin" --adapter "${adapters[$i]}" --name "${names[$i]}" --expect $((count - 1)) --duration 900 > "$log" 2>&1 &
  pids+=($!); logs+=("$log")
done

# Every instance must hear from every other one.
all_heard() { # $1: pattern prefix ("first frame from" or "recovered"), $2: seconds
  for i in $(seq 0 $((count - 1))); do
    for j in $(seq 0 $((count - 1))); do
      [ "$i" = "$j" ] && continue
      wait_for_line "${logs[$i]}" "$1 ${names[$j]}" "$2" || { stamp "FAIL: ${names[$i]} never logged '$1 ${names[$j]}'"; return 1; }
    done
  done
}
phase() { # $1 name, $2 pattern, $3 seconds
  local t=$(uptime_s)
  if all_heard "$2" "$3"; then stamp "$1: done in $(echo "$(uptime_s) - $t" | bc) s"; else failed=1; fi
}

phase "discovery+link+first frames" "first frame from" 240
sleep 10
stamp "killing bluetoothd (pid $(cat /run/meshlab/bluetoothd.pid))"
bluez_kill
for log in "${logs[@]}"; do echo "---- bluez killed at $(uptime_s)" >> "$log.marks"; done
sleep 3
stamp "starting bluetoothd again"
bluez_start
phase "recovery after bluetoothd restart" "recovered" 240
sleep 10
if [ "$power" = 1 ]; then
  # Every pair involving instance 0 must log one more "recovered" line than before the power cycle.
  recovered() { grep -c "recovered $2" "${logs[$1]}"; }
  declare -A before
  for j in $(seq 1 $((count - 1))); do before[0,$j]=$(recovered 0 "${names[$j]}"); before[$j,0]=$(recovered "$j" "${names[0]}"); done
  stamp "powering ${adapters[0]} off"
  busctl --system set-property org.bluez "/org/bluez/${adapters[0]}" org.bluez.Adapter1 Powered b false
  sleep 3
  stamp "powering ${adapters[0]} on"
  busctl --system set-property org.bluez "/org/bluez/${adapters[0]}" org.bluez.Adapter1 Powered b true
  t=$(uptime_s); deadline=$(( $(date +%s) + 240 ))
  for j in $(seq 1 $((count - 1))); do
    for pair in "0 $j" "$j 0"; do
      set -- $pair
      until [ "$(recovered "$1" "${names[$2]}")" -gt "${before[$1,$2]}" ] || [ "$(date +%s)" -ge $deadline ]; do sleep 0.2; done
      [ "$(recovered "$1" "${names[$2]}")" -gt "${before[$1,$2]}" ] || { stamp "FAIL: ${names[$1]} did not recover ${names[$2]} after the power cycle"; failed=1; }
    done
  done
  stamp "power cycle: links and frames back in $(echo "$(uptime_s) - $t" | bc) s"
  sleep 10
fi
stamp "stopping instances"
for pid in "${pids[@]}"; do kill -TERM "$pid"; done
for pid in "${pids[@]}"; do wait "$pid" || { stamp "instance $pid exited $?"; failed=1; }; done
for log in "${logs[@]}"; do echo "== $(basename "$log")"; grep -E "SUMMARY|COUNTERS" "$log"; done
stamp "result: $([ $failed = 0 ] && echo PASS || echo FAIL)"
exit $failed
