#!/bin/bash
# Scenario for scripts/blelab-run: N gattcheck instances, one per emulated controller, must discover
# each other, link, exchange frames both ways, survive bluetoothd being killed and restarted, and
# (POWER=1, the default) the first adapter being powered off and on again.
#   scripts/blelab-run -n 4 Tests/VM/gattcheck.sh Benchmarks/.build/debug/gattcheck 3
# TOPOLOGY=mesh (default): every pair links.  TOPOLOGY=line: instance i denies every instance but
# i-1 and i+1 by address, so A-B-C form a line; a denied pair that exchanges a frame fails the run.
# ORDER="1 0 2" maps instances to adapters in another order (see below).
# Prints a timeline (seconds since VM boot) and exits non-zero if any phase failed.
. "$MESHLAB_LIB"
bin=$(readlink -f "$1"); count=${2:-2}; power=${POWER:-1}; topology=${TOPOLOGY:-mesh}
names=(aaaa0001 bbbb0002 cccc0003 dddd0004 eeee0005)
read -r -a adapters <<< "$MESHLAB_ADAPTERS"
# ORDER="1 0 2" assigns instance i the ORDER[i]-th adapter (the lower adapter address dials first).
if [ -n "${ORDER:-}" ]; then picked=(); for k in $ORDER; do picked+=("${adapters[$k]}"); done; adapters=("${picked[@]}"); fi
[ ${#adapters[@]} -ge "$count" ] || { echo "only ${#adapters[@]} adapters: $MESHLAB_ADAPTERS"; exit 3; }
failed=0
stamp() { printf '%7.2f  %s\n' "$(uptime_s)" "$*"; }
address() { busctl --system get-property org.bluez "/org/bluez/$1" org.bluez.Adapter1 Address | cut -d'"' -f2; }
linked() { [ "$topology" = mesh ] || [ $(( $1 - $2 )) = 1 ] || [ $(( $2 - $1 )) = 1 ]; }
pairs=(); denied_pairs=()
for i in $(seq 0 $((count - 1))); do for j in $(seq 0 $((count - 1))); do
  [ "$i" = "$j" ] && continue
  if linked "$i" "$j"; then pairs+=("$i $j"); else denied_pairs+=("$i $j"); fi
done; done
logs=(); pids=()
stamp "adapters: $MESHLAB_ADAPTERS; starting $count instances, topology $topology"
for i in $(seq 0 $((count - 1))); do
  log="$MESHLAB_OUT/gattcheck-${names[$i]}.log"
  args=(--adapter "${adapters[$i]}" --name "${names[$i]}" --duration 900)
  expect=0
  for j in $(seq 0 $((count - 1))); do
    [ "$i" = "$j" ] && continue
    if linked "$i" "$j"; then expect=$((expect + 1)); else args+=(--deny "$(address "${adapters[$j]}")"); fi
  done
  "$bin" "${args[@]}" --expect "$expect" > "$log" 2>&1 &
  pids+=($!); logs+=("$log")
done

hits() { grep -c "$3 ${names[$2]}" "${logs[$1]}"; }  # instance, peer, phrase
declare -A base
snapshot() { for p in "${pairs[@]}"; do set -- $p; base[$1,$2]=$(hits "$1" "$2" "$PHRASE"); done; }
phase() { # $1 title, $2 phrase ("first frame from" or "recovered"), $3 seconds; waits for one new line per pair
  local t=$(uptime_s) deadline=$(( $(date +%s) + $3 )) ok=1
  for p in "${pairs[@]}"; do
    set -- $p
    until [ "$(hits "$1" "$2" "$PHRASE")" -gt "${base[$1,$2]:-0}" ] || [ "$(date +%s)" -ge $deadline ]; do sleep 0.2; done
    [ "$(hits "$1" "$2" "$PHRASE")" -gt "${base[$1,$2]:-0}" ] || { stamp "FAIL: ${names[$1]} never logged '$PHRASE ${names[$2]}'"; ok=0; failed=1; }
  done
  [ $ok = 1 ] && stamp "$TITLE: done in $(echo "$(uptime_s) - $t" | bc) s"
}
run_phase() { TITLE=$1 PHRASE=$2; phase "$1" "$2" "$3"; }

PHRASE="first frame from"; snapshot
run_phase "discovery+link+first frames" "first frame from" 240
sleep 10
PHRASE="recovered"; snapshot
stamp "killing bluetoothd (pid $(cat /run/meshlab/bluetoothd.pid))"
bluez_kill
sleep 3
stamp "starting bluetoothd again"
bluez_start
run_phase "recovery after bluetoothd restart" "recovered" 240
sleep 10
if [ "$power" = 1 ]; then
  snapshot
  keep=("${pairs[@]}"); pairs=()
  for p in "${keep[@]}"; do set -- $p; { [ "$1" = 0 ] || [ "$2" = 0 ]; } && pairs+=("$p"); done
  stamp "powering ${adapters[0]} off"
  busctl --system set-property org.bluez "/org/bluez/${adapters[0]}" org.bluez.Adapter1 Powered b false
  sleep 3
  stamp "powering ${adapters[0]} on"
  busctl --system set-property org.bluez "/org/bluez/${adapters[0]}" org.bluez.Adapter1 Powered b true
  run_phase "recovery after power cycle of ${adapters[0]}" "recovered" 240
  pairs=("${keep[@]}")
  sleep 10
fi
for p in "${denied_pairs[@]}"; do
  set -- $p
  [ "$(hits "$1" "$2" "first frame from")" = 0 ] || { stamp "FAIL: denied pair ${names[$1]}-${names[$2]} exchanged frames"; failed=1; }
done
stamp "stopping instances"
for pid in "${pids[@]}"; do kill -TERM "$pid"; done
for pid in "${pids[@]}"; do wait "$pid" || { stamp "instance $pid exited $?"; failed=1; }; done
for log in "${logs[@]}"; do echo "== $(basename "$log")"; grep -E "SUMMARY|COUNTERS" "$log"; done
stamp "result: $([ $failed = 0 ] && echo PASS || echo FAIL)"
exit $failed
