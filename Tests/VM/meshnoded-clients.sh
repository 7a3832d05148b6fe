#!/bin/bash
# Scenario for scripts/blelab-run: three clients without a GATT server (meshnoded --gatt-server false,
# as web pages or restricted apps) on one node B at once, each in its own client slot (docs/BLUEZ.md,
# "Client slots"). B holds three LE connections, which needs the fixed btvirt (docs/BLUEZ.md).
#   scripts/blelab-run -n 5 --btvirt ../shared/blelab/btvirt/btvirt Tests/VM/meshnoded-clients.sh "$(swift build --show-bin-path)"
# Checks, in order (a timeline in seconds since VM boot is printed):
#   1. B starts, then P, Q and R, 3 s apart; each client links to B (B has 3 neighbours, each client 1);
#   2. B bound three different slots, one per client (its log), and each client claimed one (its log);
#      B refused no client (notify_clients_refused 0);
#   3. each client broadcasts once: the two other clients deliver it (through B);
#   4. direct messages P -> Q, Q -> R, R -> P arrive, relayed opaque by B;
#   5. no frame reached the wrong client: each client delivered exactly 3 messages (2 broadcasts, 1
#      direct); its link seal failures did not move while the messages went (frames sealed for
#      another client's link would fail to open); each of its "link keyed" lines comes within 10 s
#      of that link's "link up" (B's key exchanges with clients that linked later never reached it); no
#      unkeyed frame, failed key exchange, replay or malformed fragment. One seal failure during a
#      link's own handshake is the key exchanges crossing (node links show it too: PROTOCOL.md D4);
#   6. every node stops on SIGTERM with exit status 0.
. "$MESHLAB_LIB"
bin=$(readlink -f "$1")
read -r -a adapters <<< "$MESHLAB_ADAPTERS"
[ ${#adapters[@]} -ge 4 ] || { echo "only ${#adapters[@]} adapters: $MESHLAB_ADAPTERS"; exit 3; }
names=(B P Q R)
failed=0
. "$(dirname "$MESHLAB_LIB")/scenario-lib.sh"
[ -e /dev/fd ] || ln -s /proc/self/fd /dev/fd
start_node() { # index, extra flags...
  local i=$1; shift
  local dir="/tmp/mesh-${names[$i]}"; mkdir -p "$dir"
  "$bin/meshnoded" --transport bluez --adapter "${adapters[$i]}" --state-directory "$dir" --runtime-directory "$dir" \
    --name "node-${names[$i]}" --log-level debug --control-group root "$@" \
    > >(uptime_lines > "$MESHLAB_OUT/meshnoded-${names[$i]}.log") 2>&1 &
  pids[$i]=$!
}
knows() { ctl "$1" --json peers 2>/dev/null | grep -q "$2"; }

addr=(); for i in 0 1 2 3; do addr+=("$(address "${adapters[$i]}")"); done
stamp "adapters ${adapters[*]:0:4} (${addr[*]}): B is the node, P, Q and R clients"
pids=()
start_node 0
sleep 3
for i in 1 2 3; do start_node "$i" --gatt-server false; sleep 3; done
stamp "clients started"

if wait_until 240 log_neighbours_at_least 0 3 && wait_until 60 neighbours_at_least 0 3; then
  stamp "up: B has 3 neighbours"
else
  fail "B did not link all three clients"
fi
for i in 1 2 3; do
  [ "$(ctl "$i" --json status | json_number neighbourCount)" = 1 ] || fail "${names[$i]} does not have exactly one neighbour"
done
ctl 0 peers | tee "$MESHLAB_OUT/peers-B.txt"

slots=$(grep -o 'client slot [0-9]* claimed by' "$MESHLAB_OUT/meshnoded-B.log" | awk '{print $3}' | sort -u | tr '\n' ' ')
stamp "B bound slots: $slots"
[ "$(echo $slots | wc -w)" -ge 3 ] || fail "B did not bind three different slots"
for i in 1 2 3; do
  claim=$(grep -o 'claimed client slot [^ ]*' "$MESHLAB_OUT/meshnoded-${names[$i]}.log" | tail -n 1)
  stamp "${names[$i]}: ${claim:-no claim}"
  [ -n "$claim" ] || fail "${names[$i]} claimed no slot"
done
[ "$(counter 0 transport notify_clients_refused)" = 0 ] || fail "B refused a client"

ids=(); for i in 0 1 2 3; do ids+=("$(node_id "$i")"); done
for i in 1 2 3; do
  sent=$(ctl "$i" send "broadcast from ${names[$i]}")
  stamp "broadcast $sent from ${names[$i]}"
done
for i in 1 2 3; do
  if wait_until 90 delivered_at_least "$i" 2; then stamp "${names[$i]} delivered the two other broadcasts"
  else fail "${names[$i]} delivered $(counter "$i" message delivered) of 2 broadcasts"; fi
done
wait_until 60 delivered_at_least 0 3 || fail "B delivered $(counter 0 message delivered) of 3 broadcasts"

seals_before=(); for i in 1 2 3; do seals_before[$i]=$(counter "$i" links seal_failures); done
relayed_before=$(counter 0 message relayed)
for pair in "1 2" "2 3" "3 1"; do
  set -- $pair
  wait_until 60 knows "$1" "${ids[$2]}" || fail "${names[$1]} never learned ${names[$2]}"
  sent=$(ctl "$1" send --to "${ids[$2]}" "direct from ${names[$1]}")
  stamp "direct $sent ${names[$1]} -> ${names[$2]}"
done
for i in 1 2 3; do
  if wait_until 90 delivered_at_least "$i" 3; then stamp "${names[$i]} delivered its direct message"
  else fail "${names[$i]} delivered $(counter "$i" message delivered) of 3 messages"; fi
done
[ "$(counter 0 message relayed)" -ge $(( relayed_before + 3 )) ] 2>/dev/null || fail "B's relayed counter did not move by 3"
grep -q "direct from" "$MESHLAB_OUT"/meshnoded-*.log && fail "message text found in a log"

sleep 5   # anything late or doubled would show now
for i in 1 2 3; do
  line="${names[$i]}: delivered=$(counter "$i" message delivered)"
  for c in seal_failures unkeyed_frames key_exchange_failures replays; do line+=" $c=$(counter "$i" links "$c")"; done
  for c in frame_too_short kind_mismatch total_mismatch duplicate; do line+=" $c=$(counter "$i" fragments "$c")"; done
  line+=" frames_received=$(counter "$i" transport frames_received)"
  stamp "$line"
  [ "$(counter "$i" message delivered)" = 3 ] || fail "${names[$i]} delivered other than 3 messages"
  [ "$(counter "$i" links seal_failures)" = "${seals_before[$i]}" ] || fail "${names[$i]}: seal failures while messages went"
  for c in unkeyed_frames key_exchange_failures replays; do
    [ "$(counter "$i" links "$c")" = 0 ] || fail "${names[$i]} counts $c: a frame for another link reached it"
  done
  # Each "link keyed" must come within 10 s of its own link's "link up"; a key exchange B made for a
  # client that linked later would land at an unrelated time.
  late=$(awk '/link up/ { if (match($0, /link=[0-9]+/)) up[substr($0, RSTART, RLENGTH)] = $1 }
              /link keyed/ { if (match($0, /link=[0-9]+/)) { k = substr($0, RSTART, RLENGTH); if (!(k in up) || $1 - up[k] > 10) n++ } }
              END { print n + 0 }' "$MESHLAB_OUT/meshnoded-${names[$i]}.log")
  stamp "${names[$i]}: $(grep -c 'link keyed' "$MESHLAB_OUT/meshnoded-${names[$i]}.log") 'link keyed' lines, $late of them later than 10 s after their link came up"
  [ "$late" = 0 ] || fail "${names[$i]} was keyed long after its link came up: another client's key exchange reached it"
  for c in frame_too_short kind_mismatch total_mismatch duplicate; do
    [ "$(counter "$i" fragments "$c")" = 0 ] || fail "${names[$i]} counts fragments $c"
  done
done
b_line="B:"; for c in notifications_sent client_slot_claims client_slots_refused client_slots_exhausted notify_clients_refused frames_refused; do
  b_line+=" $c=$(counter 0 transport "$c")"; done
stamp "$b_line"
[ "$(counter 0 transport notifications_sent)" -gt 0 ] 2>/dev/null || fail "B sent no notification"
[ "$(counter 0 transport client_slot_claims)" -ge 3 ] 2>/dev/null || fail "B counts fewer than 3 slot claims"

stamp "stopping"
stop_nodes 4
stamp "result: $([ $failed = 0 ] && echo PASS || echo FAIL)"
exit $failed
