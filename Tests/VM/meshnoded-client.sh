#!/bin/bash
# Scenario for scripts/blelab-run: a client without a GATT server (meshnoded --gatt-server false, as a
# phone app that only dials and subscribes, or Web Bluetooth) in a line P-B-C made by deny lists
# (P and C deny each other's address). P registers no GATT application and no advertisement; it
# dials B, claims a client slot, subscribes to it, and gets every frame from B as a notification on
# that slot; B writes to C. (Three clients on one node: Tests/VM/meshnoded-clients.sh.)
#   scripts/blelab-run -n 4 --btvirt ../shared/blelab/btvirt/btvirt Tests/VM/meshnoded-client.sh "$(swift build --show-bin-path)"
# B holds two LE connections, which needs a btvirt with fixed connection handles (docs/BLUEZ.md).
# Checks, in order (a timeline in seconds since VM boot is printed):
#   1. discovery: P starts first; the time from B's start until P's adapter shows B's advertisement,
#      and from C's start until B's adapter shows C, are printed ("found after");
#   2. P links to B only, B to both, C to B only; B shows P as a peripheral link; P exports nothing;
#   3. a broadcast P -> C and one C -> P arrive (two hops, through B);
#   4. a direct message P -> C and one C -> P arrive, relayed opaque by B;
#   5. B sent notifications (its frames to P), P received frames and sent none as notifications;
#   6. with SECOND_CLIENT=1 (a fourth adapter: blelab-run -n 5) B exports no client slots
#      (--client-slots 0, the layout before slots) and a second client Q dials B too: B refuses it
#      (notify_clients_refused; BlueZ 5.66 would show Q every notification meant for P) and P still
#      receives from C;
#   7. every node stops on SIGTERM with exit status 0.
. "$MESHLAB_LIB"
bin=$(readlink -f "$1")
read -r -a adapters <<< "$MESHLAB_ADAPTERS"
count=3; [ "${SECOND_CLIENT:-0}" = 1 ] && count=4
[ ${#adapters[@]} -ge $count ] || { echo "only ${#adapters[@]} adapters: $MESHLAB_ADAPTERS"; exit 3; }
names=(P B C Q)
failed=0
stamp() { printf '%7.2f  %s\n' "$(uptime_s)" "$*"; }
fail() { stamp "FAIL: $*"; failed=1; }
address() { busctl --system get-property org.bluez "/org/bluez/$1" org.bluez.Adapter1 Address | cut -d'"' -f2; }
ctl() { local i=$1; shift; "$bin/relayctl" --socket "/tmp/mesh-${names[$i]}/control.sock" "$@"; }
json_number() { sed -n "s/.*\"$1\" *: *\([0-9]*\).*/\1/p" | head -n 1; }
counter() { ctl "$1" --json stats 2>/dev/null | tr -d '\n ' | grep -o "\"$2\":{[^}]*}" | grep -o "\"$3\":[0-9]*" | head -n 1 | cut -d: -f2; }
wait_until() { # seconds, command...
  local deadline=$(( $(date +%s) + $1 )); shift
  until "$@"; do [ "$(date +%s)" -lt "$deadline" ] || return 1; sleep 1; done
}
neighbours_at_least() { [ "$(ctl "$1" --json status 2>/dev/null | json_number neighbourCount)" -ge "$2" ] 2>/dev/null; }
delivered_at_least() { [ "$(counter "$1" message delivered)" -ge "$2" ] 2>/dev/null; }
node_id() { ctl "$1" --json id | sed -n 's/.*"nodeID" *: *"\([0-9a-f]*\)".*/\1/p'; }
knows() { ctl "$1" --json peers 2>/dev/null | grep -q "$2"; }
# Seconds (by the VM clock) until ADAPTER's bluetoothd shows a device object for ADDRESS, at most LIMIT.
found_after() { # adapter address limit start
  local path="/org/bluez/$1/dev_${2//:/_}" start=$4 deadline=$(( $(date +%s) + $3 ))
  until busctl --system introspect org.bluez "$path" org.bluez.Device1 >/dev/null 2>&1; do
    [ "$(date +%s)" -lt "$deadline" ] || { echo "never"; return 1; }
    sleep 0.2
  done
  awk -v now="$(uptime_s)" -v start="$start" 'BEGIN { printf "%.1f s", now - start }'
}
# Seconds (by the VM clock) until ADAPTER's advertising manager has an active advertisement, at most LIMIT.
advertising_after() { # adapter limit start
  local deadline=$(( $(date +%s) + $2 ))
  until [ "$(busctl --system get-property org.bluez "/org/bluez/$1" org.bluez.LEAdvertisingManager1 ActiveInstances 2>/dev/null | cut -d' ' -f2)" -ge 1 ] 2>/dev/null; do
    [ "$(date +%s)" -lt "$deadline" ] || { echo "never"; return 1; }
    sleep 0.2
  done
  awk -v now="$(uptime_s)" -v start="$3" 'BEGIN { printf "%.1f s", now - start }'
}
start_node() { # index, extra flags...
  local i=$1; shift
  local dir="/tmp/mesh-${names[$i]}"; mkdir -p "$dir"
  "$bin/meshnoded" --transport bluez --adapter "${adapters[$i]}" --state-directory "$dir" --runtime-directory "$dir" \
    --name "node-${names[$i]}" --log-level debug --control-group root "$@" \
    > "$MESHLAB_OUT/meshnoded-${names[$i]}.log" 2>&1 &
  pids[$i]=$!
}

addr=(); for i in $(seq 0 $((count - 1))); do addr+=("$(address "${adapters[$i]}")"); done
stamp "adapters ${adapters[*]:0:$count} (${addr[*]}): P is the client, B and C nodes"
pids=()
start_node 0 --gatt-server false --deny "${addr[2]}"
sleep 2
t_b=$(uptime_s)
if [ $count = 4 ]; then start_node 1 --client-slots 0; else start_node 1; fi
stamp "B started; advertising after $(advertising_after "${adapters[1]}" 60 "$t_b"); P's scan found B after $(found_after "${adapters[0]}" "${addr[1]}" 60 "$t_b")"
t_c=$(uptime_s); start_node 2 --deny "${addr[0]}"
stamp "C started; advertising after $(advertising_after "${adapters[2]}" 60 "$t_c"); B's scan found C after $(found_after "${adapters[1]}" "${addr[2]}" 60 "$t_c")"

if wait_until 240 neighbours_at_least 1 2 && wait_until 60 neighbours_at_least 0 1 && wait_until 60 neighbours_at_least 2 1; then
  stamp "up: B has 2 neighbours, P and C one each"
else
  fail "the line did not link"
fi
ctl 1 peers | tee "$MESHLAB_OUT/peers-B.txt"
ctl 0 peers | tee "$MESHLAB_OUT/peers-P.txt"
[ "$(ctl 0 --json status | json_number neighbourCount)" = 1 ] || fail "P has a neighbour besides B"
[ "$(ctl 2 --json status | json_number neighbourCount)" = 1 ] || fail "C has a neighbour besides B"
grep -q "GATT application registered\|advertising " "$MESHLAB_OUT/meshnoded-P.log" && fail "P registered a GATT application or advertised"
ctl 1 --json peers | tr -d '\n ' | grep -q '"role":"peripheral"' || fail "B shows no peripheral link"

device_name() { busctl --system get-property org.bluez "/org/bluez/$1/dev_${2//:/_}" org.bluez.Device1 "$3" 2>/dev/null | cut -d'"' -f2; }
adapter_alias() { busctl --system get-property org.bluez "/org/bluez/$1" org.bluez.Adapter1 Alias 2>/dev/null | cut -d'"' -f2; }
names_seen() {
  stamp "names: P's bluetoothd shows B as Name='$(device_name "${adapters[0]}" "${addr[1]}" Name)' Alias='$(device_name "${adapters[0]}" "${addr[1]}" Alias)'; B advertises '$(ctl 1 --json id | sed -n 's/.*"shortID" *: *"\([0-9a-f]*\)".*/\1/p')', its adapter alias (GAP name) is '$(adapter_alias "${adapters[1]}")'; B shows P as Name='$(device_name "${adapters[1]}" "${addr[0]}" Name)'"
}
names_seen

id_p=$(node_id 0); id_c=$(node_id 2)
sent=$(ctl 0 send "broadcast from the client")
if wait_until 60 delivered_at_least 2 1; then stamp "broadcast $sent P -> C delivered"; else fail "broadcast P -> C did not arrive"; fi
sent=$(ctl 2 send "broadcast to the client")
if wait_until 60 delivered_at_least 0 1; then stamp "broadcast $sent C -> P delivered"; else fail "broadcast C -> P did not arrive"; fi

wait_until 60 knows 0 "$id_c" || fail "P never learned C"
wait_until 60 knows 2 "$id_p" || fail "C never learned P"
relayed_before=$(counter 1 message relayed)
sent=$(ctl 0 send --to "$id_c" "direct from the client")
if wait_until 60 delivered_at_least 2 2; then stamp "direct $sent P -> C delivered"; else fail "direct P -> C did not arrive"; fi
sent=$(ctl 2 send --to "$id_p" "direct to the client")
if wait_until 60 delivered_at_least 0 2; then stamp "direct $sent C -> P delivered"; else fail "direct C -> P did not arrive"; fi
[ "$(counter 1 message relayed)" -ge $(( relayed_before + 2 )) ] 2>/dev/null || fail "B's relayed counter did not move by 2"
grep -q "sealed, opaque" "$MESHLAB_OUT/meshnoded-B.log" || fail "B's log does not show an opaque relay"
grep -q "direct from the client\|direct to the client" "$MESHLAB_OUT"/meshnoded-*.log && fail "message text found in a log"

names_seen
notified=$(counter 1 transport notifications_sent); held=$(counter 1 transport frames_held)
received=$(counter 0 transport frames_received); p_notified=$(counter 0 transport notifications_sent)
ignored=$(counter 2 transport notifications_ignored)
stamp "B: notifications_sent=$notified frames_held=$held; P: frames_received=$received notifications_sent=$p_notified; C: notifications_ignored=$ignored"
[ "${notified:-0}" -gt 0 ] || fail "B sent no notification"
[ "${received:-0}" -gt 0 ] || fail "P received no frame"
[ "${p_notified:-0}" = 0 ] || fail "P sent notifications"
if [ $count = 3 ]; then
  grep -q "claimed client slot" "$MESHLAB_OUT/meshnoded-P.log" || fail "P claimed no client slot"
  [ "$(counter 1 transport client_slot_claims)" -ge 1 ] 2>/dev/null || fail "B counts no slot claim"
fi

if [ $count = 4 ]; then
  start_node 3 --gatt-server false --deny "${addr[2]}"
  stamp "second client Q started"
  refused_at_least() { [ "$(counter 1 transport notify_clients_refused)" -ge 1 ] 2>/dev/null; }
  if wait_until 90 refused_at_least; then stamp "B refused Q: notify_clients_refused=$(counter 1 transport notify_clients_refused)"; else fail "B did not refuse the second client"; fi
  before=$(counter 0 message delivered)
  ctl 2 send "still for the first client" > /dev/null
  if wait_until 60 delivered_at_least 0 $((before + 1)); then stamp "P still receives from C"; else fail "P lost its route when Q came"; fi
  [ "$(ctl 3 --json status | json_number neighbourCount)" = 0 ] || fail "Q has a neighbour"
fi

stamp "stopping"
for i in $(seq 0 $((count - 1))); do
  kill -TERM "${pids[$i]}"
  wait "${pids[$i]}" || fail "node ${names[$i]} exited $?"
done
for i in $(seq 0 $((count - 1))); do
  echo "== ${names[$i]}: $(grep -c 'link up' "$MESHLAB_OUT/meshnoded-${names[$i]}.log") link-ups, $(grep -c 'link keyed' "$MESHLAB_OUT/meshnoded-${names[$i]}.log") key exchanges"
done
stamp "result: $([ $failed = 0 ] && echo PASS || echo FAIL)"
exit $failed
