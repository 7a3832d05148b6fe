#!/bin/bash
# Scenario for scripts/blelab-run: three clients without a GATT server (meshnoded --gatt-server false,
# as web pages or restricted apps) on one node B at once, each in its own client slot (docs/BLUEZ.md,
# "Client slots"). B holds three LE connections, which needs the fixed btvirt (docs/BLUEZ.md).
#   scripts/blelab-run -n 5 --btvirt ../shared/blelab/btvirt/btvirt Tests/VM/meshnoded-clients.sh "$(swift build --show-bin-path)"
# The clients arrive one after another, as people do: P starts once B advertises, Q once B granted
# P its slot, R once B granted Q's (docs/BLUEZ.md, "What is left": client slots in the emulator).
# Checks, in order (a timeline in seconds since VM boot is printed):
#   1. each client links to B (B's log: 3 neighbours; each client's log: exactly 1);
#   2. B bound three different slots, one per client (its log), and each client claimed one (its log);
#   3. each client broadcasts once: the two other clients deliver it (through B);
#   4. direct messages P -> Q, Q -> R, R -> P arrive, relayed opaque by B;
#   5. no frame reached the wrong client: each client delivered exactly 3 messages (2 broadcasts, 1
#      direct); its link seal failures did not move while the messages went (frames sealed for
#      another client's link would fail to open); each of its "link keyed" lines comes within 10 s
#      of that link's "link up" (B's key exchanges with clients that linked later never reached it); no
#      unkeyed frame, failed key exchange, replay or malformed fragment. One seal failure during a
#      link's own handshake is the key exchanges crossing (node links show it too: PROTOCOL.md D4);
#      B refused no client (notify_clients_refused 0) and counts 3 slot claims;
#   6. every node stops on SIGTERM with exit status 0.
# Progress is read from the daemons' logs; relayctl (a second of CPU per start under emulation) is
# run only to send and once per node for its counters.
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
# Whether node I's log shows exactly N neighbours now.
log_neighbours_exactly() { [ $(( $(log_count "$1" 'neighbour joined') - $(log_count "$1" 'neighbour departed') )) = "$2" ]; }
# Whether node I's log shows at least N deliveries.
log_delivered_at_least() { [ "$(log_count "$1" 'message delivered')" -ge "$2" ]; }
# Whether node I has learned node J (its join notice, relayed by B).
log_knows() { log_count "$1" "node learned .*: node-${names[$2]} " >/dev/null; }
# Whether B granted at least N slot claims (its log).
b_claims_at_least() { [ "$(log_count 0 'client slot [0-9]+ claimed by')" -ge "$1" ]; }
# Node J's full ID as node I logged it when J became its neighbour.
id_from_log() { grep -o "neighbour joined: node-${names[$2]} \[peer=[0-9a-f]*" "$MESHLAB_OUT/meshnoded-${names[$1]}.log" | head -n 1 | sed 's/.*peer=//'; }

addr=(); for i in 0 1 2 3; do addr+=("$(address "${adapters[$i]}")"); done
stamp "adapters ${adapters[*]:0:4} (${addr[*]}): B is the node, P, Q and R clients; load $(cut -d' ' -f1-3 /proc/loadavg)"
pids=()
start_node 0
wait_for_line "$MESHLAB_OUT/meshnoded-B.log" 'advertising ' 60 || fail "B never advertised"
stamp "B advertises"
# The next client starts once B granted the previous one its slot: its scan then meets B's
# advertisement, registered again once that client's link is up.
for i in 1 2 3; do
  start_node "$i" --gatt-server false
  if wait_until 90 b_claims_at_least "$i"; then stamp "${names[$i]} claimed a slot of B"
  else fail "B granted ${names[$i]} no slot"; fi
done
wait_until 60 log_neighbours_at_least 0 3 || fail "B did not link all three clients"
for i in 1 2 3; do
  wait_until 30 log_neighbours_exactly "$i" 1 || fail "${names[$i]} does not have exactly one neighbour"
done
log_neighbours_exactly 0 3 || fail "B does not have exactly three neighbours"
stamp "up: B has 3 neighbours, each client 1"

slots=$(grep -o 'client slot [0-9]* claimed by' "$MESHLAB_OUT/meshnoded-B.log" | awk '{print $3}' | sort -u | tr '\n' ' ')
stamp "B bound slots: $slots"
[ "$(echo $slots | wc -w)" -ge 3 ] || fail "B did not bind three different slots"
for i in 1 2 3; do
  claim=$(grep -o 'claimed client slot [^ ]*' "$MESHLAB_OUT/meshnoded-${names[$i]}.log" | tail -n 1)
  stamp "${names[$i]}: ${claim:-no claim}"
  [ -n "$claim" ] || fail "${names[$i]} claimed no slot"
done

ids=("$(id_from_log 1 0)"); for i in 1 2 3; do ids+=("$(id_from_log 0 "$i")"); done
stamp "IDs: ${ids[*]}"
saves=(); for i in 1 2 3; do save_stats "$i" before & saves+=($!); done; wait "${saves[@]}"
for i in 1 2 3; do
  sent=$(ctl "$i" send "broadcast from ${names[$i]}")
  stamp "broadcast $sent from ${names[$i]}"
done
for i in 1 2 3; do
  if wait_until 60 log_delivered_at_least "$i" 2; then stamp "${names[$i]} delivered the two other broadcasts"
  else fail "${names[$i]} delivered $(log_count "$i" 'message delivered') of 2 broadcasts"; fi
done
wait_until 30 log_delivered_at_least 0 3 || fail "B delivered $(log_count 0 'message delivered') of 3 broadcasts"

for pair in "1 2" "2 3" "3 1"; do
  set -- $pair
  wait_until 30 log_knows "$1" "$2" || fail "${names[$1]} never learned ${names[$2]}"
  sent=$(ctl "$1" send --to "${ids[$2]}" "direct from ${names[$1]}")
  stamp "direct $sent ${names[$1]} -> ${names[$2]}"
done
for i in 1 2 3; do
  if wait_until 60 log_delivered_at_least "$i" 3; then stamp "${names[$i]} delivered its direct message"
  else fail "${names[$i]} delivered $(log_count "$i" 'message delivered') of 3 messages"; fi
done
grep -q "direct from" "$MESHLAB_OUT"/meshnoded-*.log && fail "message text found in a log"

sleep 3   # anything late or doubled would show now
saves=(); for i in 0 1 2 3; do save_stats "$i" & saves+=($!); done; wait "${saves[@]}"
[ "$(stat_of 0 message relayed)" -ge 3 ] 2>/dev/null || fail "B relayed $(stat_of 0 message relayed) of 3 direct messages"
for i in 1 2 3; do
  line="${names[$i]}: delivered=$(stat_of "$i" message delivered)"
  for c in seal_failures unkeyed_frames key_exchange_failures replays; do line+=" $c=$(stat_of "$i" links "$c")"; done
  for c in frame_too_short kind_mismatch total_mismatch duplicate; do line+=" $c=$(stat_of "$i" fragments "$c")"; done
  line+=" frames_received=$(stat_of "$i" transport frames_received)"
  stamp "$line"
  [ "$(stat_of "$i" message delivered)" = 3 ] || fail "${names[$i]} delivered other than 3 messages"
  [ "$(log_count "$i" 'message delivered')" = 3 ] || fail "${names[$i]} logged other than 3 deliveries"
  [ "$(stat_of "$i" links seal_failures)" = "$(stat_of "$i" links seal_failures before)" ] || fail "${names[$i]}: seal failures while messages went"
  for c in unkeyed_frames key_exchange_failures replays; do
    [ "$(stat_of "$i" links "$c")" = 0 ] || fail "${names[$i]} counts $c: a frame for another link reached it"
  done
  # Each "link keyed" must come within 10 s of its own link's "link up"; a key exchange B made for a
  # client that linked later would land at an unrelated time.
  late=$(awk '/link up/ { if (match($0, /link=[0-9]+/)) up[substr($0, RSTART, RLENGTH)] = $1 }
              /link keyed/ { if (match($0, /link=[0-9]+/)) { k = substr($0, RSTART, RLENGTH); if (!(k in up) || $1 - up[k] > 10) n++ } }
              END { print n + 0 }' "$MESHLAB_OUT/meshnoded-${names[$i]}.log")
  stamp "${names[$i]}: $(log_count "$i" 'link keyed') 'link keyed' lines, $late of them later than 10 s after their link came up"
  [ "$late" = 0 ] || fail "${names[$i]} was keyed long after its link came up: another client's key exchange reached it"
  for c in frame_too_short kind_mismatch total_mismatch duplicate; do
    [ "$(stat_of "$i" fragments "$c")" = 0 ] || fail "${names[$i]} counts fragments $c"
  done
done
b_line="B:"; for c in notifications_sent client_slot_claims client_slots_refused client_slots_exhausted notify_clients_refused frames_refused connect_failures; do
  b_line+=" $c=$(stat_of 0 transport "$c")"; done
stamp "$b_line"
[ "$(stat_of 0 transport notifications_sent)" -gt 0 ] 2>/dev/null || fail "B sent no notification"
[ "$(stat_of 0 transport client_slot_claims)" -ge 3 ] 2>/dev/null || fail "B counts fewer than 3 slot claims"
[ "$(stat_of 0 transport notify_clients_refused)" = 0 ] || fail "B refused a client"
for i in 1 2 3; do stamp "${names[$i]}: connect_failures=$(stat_of "$i" transport connect_failures) link-ups=$(log_count "$i" 'link up \(')"; done

stamp "stopping; load $(cut -d' ' -f1-3 /proc/loadavg)"
stop_nodes 4
bluez_running || fail "bluetoothd is gone"
save_kernel_log
stamp "result: $([ $failed = 0 ] && echo PASS || echo FAIL)"
exit $failed
