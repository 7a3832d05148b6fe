#!/bin/bash
# Scenario for scripts/blelab-run: one BLE island bridged to a UDP island through an MQTT broker
# (issue 21; PROTOCOL.md Part F; OPERATIONS.md, "Bridging islands"). In one VM:
#   BLE island   A - G1        meshnoded on two emulated controllers; G1 is a gateway ([mqtt] on)
#   broker       mosquitto on 127.0.0.1 in the VM (anonymous, loopback only)
#   UDP island   G2 - U        loopback UDP; G2 is a gateway; no UDP link to the BLE island
#   scripts/blelab-run -n 3 --btvirt ../shared/blelab/btvirt/btvirt Tests/VM/meshnoded-bridge.sh "$(swift build --show-bin-path)"
# Every [mqtt] key but host, port and mesh keeps its default: downlink_hops 0, so a gateway re-bases
# what it receives to 0 hops and the far island gives it a hop budget of its own (Part F5).
# Checks, in order (a timeline in seconds since VM boot is printed):
#   1. both islands form (A-G1 over BLE, G2-U over UDP) and both gateways connect to the broker;
#   2. a broadcast from A is published once (an observer on the broker sees it once) and delivered
#      exactly once at G1, G2 and U; U gets it with 1 hop (re-based at G2, relayed once by G2);
#   3. a broadcast from U comes back the same way: exactly once at G2, G1 and A, with 1 hop at A
#      (the broadcasts also carry each origin's keys to the far island);
#   4. a direct message U -> A and one A -> U: each delivered exactly once, only at its recipient,
#      on the broker once, on the direct topic of its recipient;
#   5. no message text in any log; every node stops on SIGTERM with exit status 0.
. "$MESHLAB_LIB"
. "$(dirname "$MESHLAB_LIB")/scenario-lib.sh"
bin=$(readlink -f "$1")
[ -x "$bin/meshnoded" ] && [ -x "$bin/relayctl" ] || { echo "no meshnoded and relayctl in $bin"; exit 3; }
read -r -a adapters <<< "$MESHLAB_ADAPTERS"
[ ${#adapters[@]} -ge 2 ] || { echo "only ${#adapters[@]} adapters: $MESHLAB_ADAPTERS"; exit 3; }
command -v mosquitto > /dev/null && command -v mosquitto_sub > /dev/null || { echo "mosquitto and mosquitto-clients are needed"; exit 3; }
names=(A G1 G2 U)
failed=0
broker_port=18830 mesh=vmbridge
udp_g2=17002 udp_u=17003
root="relaychat/v1/$mesh"
[ -e /dev/fd ] || ln -s /proc/self/fd /dev/fd   # process substitution; the VM's devtmpfs lacks it
ip link set lo up 2> /dev/null || busybox ifconfig lo 127.0.0.1 up

# The broker, loopback only.
mkdir -p /tmp/mesh-broker
printf 'listener %s 127.0.0.1\nallow_anonymous true\nuser root\n' "$broker_port" > /tmp/mesh-broker/mosquitto.conf
mosquitto -c /tmp/mesh-broker/mosquitto.conf > "$MESHLAB_OUT/mosquitto.log" 2>&1 &
broker=$!
wait_until 10 bash -c "exec 3<>/dev/tcp/127.0.0.1/$broker_port" 2> /dev/null || fail "mosquitto does not listen on $broker_port"
mosquitto_sub -h 127.0.0.1 -p "$broker_port" -V mqttv5 -t "$root/#" -F '%t %x' > "$MESHLAB_OUT/broker-observed.txt" \
  2> "$MESHLAB_OUT/mosquitto_sub.log" &
observer=$!

# Starts node I with its own flags.  Usage: start_node I FLAGS...
start_node() {
  local i=$1; shift
  local dir="/tmp/mesh-${names[$i]}"
  mkdir -p "$dir"
  "$bin/meshnoded" --state-directory "$dir" --runtime-directory "$dir" --name "node-${names[$i]}" --log-level debug \
    --control-group root "$@" > >(uptime_lines > "$MESHLAB_OUT/meshnoded-${names[$i]}.log") 2>&1 &
  pids[$i]=$!
}
bridge=(--mqtt true --mqtt-host 127.0.0.1 --mqtt-port "$broker_port" --mqtt-mesh "$mesh")
pids=()
stamp "adapters ${adapters[*]:0:2} ($(address "${adapters[0]}") $(address "${adapters[1]}"))"
start_node 0 --transport bluez --adapter "${adapters[0]}"
start_node 1 --transport bluez --adapter "${adapters[1]}" "${bridge[@]}"
start_node 2 --transport udp --udp-port "$udp_g2" "${bridge[@]}"
start_node 3 --transport udp --udp-port "$udp_u" --neighbours "127.0.0.1:$udp_g2"

# 1. Both islands, both gateways.
connected() { ctl "$1" --json status 2>/dev/null | tr -d '\n ' | grep -q '"bridge":{[^}]*"state":"connected"'; }
if wait_until 300 log_neighbours_at_least 0 1 && wait_until 60 neighbours_at_least 0 1 && wait_until 60 neighbours_at_least 1 1; then
  stamp "BLE island up: A and G1 are neighbours"
else
  fail "A and G1 did not link over BLE"
fi
wait_until 60 neighbours_at_least 3 1 && stamp "UDP island up: G2 and U are neighbours" || fail "G2 and U did not link"
wait_until 30 connected 1 && wait_until 30 connected 2 && stamp "gateways: G1 $(ctl 1 status | grep -E '^ *mqtt ' | sed 's/^ *//'); G2 too" \
  || fail "a gateway did not connect to the broker"
[ "$(ctl 0 --json status | json_number neighbourCount)" = 1 ] || fail "A has a neighbour besides G1"
[ "$(ctl 3 --json status | json_number neighbourCount)" = 1 ] || fail "U has a neighbour besides G2"
watchers=()
for i in 0 1 2 3; do
  ctl "$i" --json watch > "$MESHLAB_OUT/watch-${names[$i]}.jsonl" 2> /dev/null &
  watchers+=($!)
done
sleep 2

# "COUNT HOPS..." of the message events with ID in node NAME's watch recording.  Usage: seen_at NAME ID
seen_at() {
  python3 -c 'import json, sys
hops = [e.get("hops") for e in (json.loads(l) for l in open(sys.argv[1]) if l.strip())
        if e.get("type") == "message" and e.get("messageID") == sys.argv[2]]
print(len(hops), *hops)' "$MESHLAB_OUT/watch-$1.jsonl" "$2" 2> /dev/null
}
# Whether node NAME has delivered message ID at least once.
arrived() { [ "$(seen_at "$1" "$2" | cut -d' ' -f1)" -ge 1 ] 2>/dev/null; }
# How often message ID went over the broker on TOPIC.  Usage: on_broker TOPIC ID
on_broker() { grep -ci "^$root/$1 .*$2" "$MESHLAB_OUT/broker-observed.txt"; }
# Checks that message ID (WHAT) was delivered exactly once at each node in WANT and nowhere else
# among EVERYONE, that the node LAST got it with HOPS hops, and that it crossed the broker once on TOPIC.
# Usage: exactly_once WHAT ID TOPIC LAST HOPS WANT...
exactly_once() {
  local what=$1 id=$2 topic=$3 last=$4 hops=$5; shift 5
  local want=" $* " name got
  [ -n "$id" ] || { fail "$what: not sent"; return; }
  wait_until 60 arrived "$last" "$id" || fail "$what: did not arrive at $last"
  sleep 3   # a late second copy would show by now
  for name in "${names[@]}"; do
    got=$(seen_at "$name" "$id")
    if [[ $want == *" $name "* ]]; then
      [ "${got%% *}" = 1 ] || fail "$what: delivered ${got%% *} times at $name, not once"
    else
      [ "${got%% *}" = 0 ] || fail "$what: delivered at $name, which it is not for"
    fi
  done
  got=$(seen_at "$last" "$id")
  [ "$got" = "1 $hops" ] || fail "$what: arrived at $last with hops ${got#* }, not $hops"
  [ "$(on_broker "$topic" "$id")" = 1 ] || fail "$what: went over the broker $(on_broker "$topic" "$id") times on $root/$topic"
  stamp "$what ($id): once at each of $*; $hops hop(s) at $last; once on $root/$topic"
}
send_id() { ctl "$1" --json send "${@:2}" | sed -n 's/.*"messageID" *: *"\([0-9a-f]*\)".*/\1/p'; }

# 2. and 3. Broadcasts, each way.
id=$(send_id 0 "broadcast from A over BLE")
exactly_once "broadcast A (BLE) -> U (UDP)" "$id" broadcast U 1 G1 G2 U
id=$(send_id 3 "broadcast from U over UDP")
exactly_once "broadcast U (UDP) -> A (BLE)" "$id" broadcast A 1 G2 G1 A

# 4. Direct messages, each way.
id_a=$(node_id 0); id_u=$(node_id 3)
id=$(send_id 3 --to "$id_a" "direct from U for A")
exactly_once "direct U (UDP) -> A (BLE)" "$id" "direct/$id_a" A 1 A
id=$(send_id 0 --to "$id_u" "direct from A for U")
exactly_once "direct A (BLE) -> U (UDP)" "$id" "direct/$id_u" U 1 U
for i in 1 2; do
  save_stats "$i"
  stamp "${names[$i]} mqtt: published $(stat_of "$i" mqtt published), received $(stat_of "$i" mqtt received), admitted $(stat_of "$i" mqtt admitted), dropped (gateway share $(stat_of "$i" mqtt dropped_over_gateway_share), total $(stat_of "$i" mqtt dropped_over_total), malformed $(stat_of "$i" mqtt dropped_malformed))"
done

# 5. Logs and a clean stop.
grep -qE "direct from (U for A|A for U)|broadcast from (A over BLE|U over UDP)" "$MESHLAB_OUT"/meshnoded-*.log && fail "message text found in a log"
kill "${watchers[@]}" 2> /dev/null
stamp "stopping"
stop_nodes 4
kill "$observer" "$broker" 2> /dev/null
stamp "result: $([ $failed = 0 ] && echo PASS || echo FAIL)"
exit $failed
