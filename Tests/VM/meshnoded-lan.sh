#!/bin/bash
# Scenario for scripts/blelab-run: two BLE islands whose gateways are joined only by a LAN link
# (issue 35; PROTOCOL.md Part C and Part I; OPERATIONS.md "Several Pis on one LAN"). In one VM:
#   BLE island 1   A - G1     meshnoded on emulated controllers (fixed btvirt)
#   LAN            G1 = G2    a veth pair made here between two network namespaces (10.78.0.0/24,
#                             nothing leaves the VM); G1 and G2 run `--transport bluez,lan
#                             --lan.interface lan0`, no peer configured: they find each other by
#                             discovery (Part I)
#   BLE island 2   G2 - B
# Deny lists keep the islands out of each other's reach on the one emulated air: A and G1 deny
# G2 and B, and the other way round.
#   scripts/blelab-run -n 5 --btvirt ../shared/blelab/btvirt/btvirt Tests/VM/meshnoded-lan.sh "$(swift build --show-bin-path)"
# Checks, in order (a timeline in seconds since VM boot is printed):
#   1. both islands link over BLE and G1, G2 link over the LAN by discovery; A and B have one
#      neighbour each, G1 and G2 two: one over `bluez` links, the other over `lan` links;
#   2. a broadcast from A is delivered exactly once at G1 (hops 0), G2 (1: relayed by G1 over the
#      LAN) and B (2: relayed again by G2 over BLE); the message hop limit (3) lets B have it and
#      stops it there (Part C step 9: 2 + 1 is not below 3);
#   3. a broadcast from B comes back the same way: once at G2, G1 and A, with 2 hops at A;
#   4. a direct message A -> B is delivered exactly once, at B alone, with 2 hops;
#   5. no message text in any log; every node stops on SIGTERM with exit status 0.
. "$MESHLAB_LIB"
. "$(dirname "$MESHLAB_LIB")/scenario-lib.sh"
bin=$(readlink -f "$1")
[ -x "$bin/meshnoded" ] && [ -x "$bin/relayctl" ] || { echo "no meshnoded and relayctl in $bin"; exit 3; }
read -r -a adapters <<< "$MESHLAB_ADAPTERS"
[ ${#adapters[@]} -ge 4 ] || { echo "only ${#adapters[@]} adapters: $MESHLAB_ADAPTERS"; exit 3; }
command -v ip > /dev/null || { echo "ip (iproute2) is needed"; exit 3; }
names=(A G1 G2 B)
failed=0
[ -e /dev/fd ] || ln -s /proc/self/fd /dev/fd   # process substitution; the VM's devtmpfs lacks it
ip link set lo up

# The LAN: one namespace per gateway, a veth pair between them (lan0 in each).
modprobe veth 2> /dev/null
for ns in lanG1 lanG2; do ip netns add "$ns" && ip -n "$ns" link set lo up || { echo "cannot make namespace $ns"; exit 3; }; done
ip link add lan0 netns lanG1 type veth peer name lan0 netns lanG2 || { echo "cannot make the veth pair"; exit 3; }
ip -n lanG1 addr add 10.78.0.1/24 dev lan0 && ip -n lanG1 link set lan0 up
ip -n lanG2 addr add 10.78.0.2/24 dev lan0 && ip -n lanG2 link set lan0 up
stamp "LAN: lanG1/lan0 10.78.0.1, lanG2/lan0 10.78.0.2 (a veth pair)"

addr=()
for i in 0 1 2 3; do addr+=("$(address "${adapters[$i]}")"); done
stamp "adapters ${adapters[*]:0:4} (${addr[*]})"
# Starts node I with its own flags, after PREFIX (a command, or nothing).  Usage: start_node I PREFIX... -- FLAGS...
start_node() {
  local i=$1 prefix=(); shift
  while [ "$1" != -- ]; do prefix+=("$1"); shift; done; shift
  local dir="/tmp/mesh-${names[$i]}"
  mkdir -p "$dir"
  ${prefix[@]+"${prefix[@]}"} "$bin/meshnoded" --adapter "${adapters[$i]}" --state-directory "$dir" --runtime-directory "$dir" \
    --name "node-${names[$i]}" --log-level debug --control-group root "$@" \
    > >(uptime_lines > "$MESHLAB_OUT/meshnoded-${names[$i]}.log") 2>&1 &
  pids[$i]=$!
}
island1="${addr[0]},${addr[1]}" island2="${addr[2]},${addr[3]}"
lan=(--transport bluez,lan --lan.interface lan0)
pids=()
start_node 0 -- --transport bluez --deny "$island2"
start_node 1 ip netns exec lanG1 -- "${lan[@]}" --deny "$island2"
start_node 2 ip netns exec lanG2 -- "${lan[@]}" --deny "$island1"
start_node 3 -- --transport bluez --deny "$island1"

# 1. Both islands and the LAN link.
if wait_until 300 log_neighbours_at_least 0 1 && wait_until 120 log_neighbours_at_least 3 1 \
   && wait_until 60 log_neighbours_at_least 1 2 && wait_until 60 log_neighbours_at_least 2 2; then
  stamp "up: A-G1 and G2-B over BLE, G1-G2 over the LAN"
else
  fail "the islands or the LAN link did not form"
fi
for i in 0 3; do
  [ "$(ctl "$i" --json status | json_number neighbourCount)" = 1 ] || fail "${names[$i]} does not have exactly one neighbour"
done
for i in 1 2; do
  ctl "$i" --json peers > "$MESHLAB_OUT/peers-${names[$i]}.json"
  # "NEIGHBOURS TRANSPORTS..." (each neighbour's transports, + between) and the link count: both
  # gateways announce at start, so both may dial at once and hold two links to each other.
  got=$(python3 -c 'import json, sys
p = json.load(open(sys.argv[1]))
p = p.get("result", p)
kinds = sorted("+".join(sorted({l.get("transport", "?") for l in n["links"]})) for n in p["neighbours"])
print(len(kinds), *kinds, "|", sum(len(n["links"]) for n in p["neighbours"]), "links")' \
    "$MESHLAB_OUT/peers-${names[$i]}.json" 2>&1)
  [ "${got%% |*}" = "2 bluez lan" ] || fail "${names[$i]}: neighbours by transport '$got', not '2 bluez lan'"
  stamp "${names[$i]} neighbours by transport: $got"
done
watchers=()
for i in 0 1 2 3; do
  ctl "$i" --json watch > "$MESHLAB_OUT/watch-${names[$i]}.jsonl" 2> /dev/null &
  watchers+=($!)
done
sleep 2

# "COUNT HOPS..." of the message events with ID in node NAME's watch recording.  Usage: seen_at NAME ID
seen_at() {
  python3 -c 'import json, sys
events = [json.loads(l) for l in open(sys.argv[1]) if l.strip()]
events = [e.get("event", e) for e in events]
hops = [e.get("hops") for e in events if e.get("type") == "message" and e.get("messageID") == sys.argv[2]]
print(len(hops), *hops)' "$MESHLAB_OUT/watch-$1.jsonl" "$2" 2> /dev/null
}
arrived() { [ "$(seen_at "$1" "$2" | cut -d' ' -f1)" -ge 1 ] 2>/dev/null; }
# Checks that message ID (WHAT) was delivered exactly once at each node in WANT, with the hops
# given after its name (NAME:HOPS), and nowhere else; waits for the last one.
# Usage: exactly_once WHAT ID NAME:HOPS...
exactly_once() {
  local what=$1 id=$2; shift 2
  local want=" $* " name got pair last=${*: -1}
  [ -n "$id" ] || { fail "$what: not sent"; return; }
  wait_until 60 arrived "${last%%:*}" "$id" || fail "$what: did not arrive at ${last%%:*}"
  sleep 3   # a late second copy would show by now
  for name in "${names[@]}"; do
    got=$(seen_at "$name" "$id")
    if [[ $want == *" $name:"* ]]; then
      pair=${want#* "$name":}; pair=${pair%% *}
      [ "$got" = "1 $pair" ] || fail "$what: at $name '${got:-none}' (count hops), not '1 $pair'"
    else
      [ "${got%% *}" = 0 ] || fail "$what: delivered at $name, which it is not for"
    fi
  done
  stamp "$what ($id): once at each of $* (node:hops)"
}
send_id() { ctl "$1" --json send "${@:2}" | sed -n 's/.*"messageID" *: *"\([0-9a-f]*\)".*/\1/p'; }

# 2. and 3. Broadcasts, each way; 4. a direct message (B's broadcast taught A its key).
id=$(send_id 0 "broadcast from A over the LAN")
exactly_once "broadcast A -> B" "$id" G1:0 G2:1 B:2
id=$(send_id 3 "broadcast from B over the LAN")
exactly_once "broadcast B -> A" "$id" G2:0 G1:1 A:2
id=$(send_id 0 --to "$(node_id 3)" "direct from A for B")
exactly_once "direct A -> B" "$id" B:2
for i in 1 2; do
  save_stats "$i"
  stamp "${names[$i]} message: relayed $(stat_of "$i" message relayed), dropped_ttl $(stat_of "$i" message dropped_ttl), dropped_seen $(stat_of "$i" message dropped_seen)"
done
save_stats 3
[ "$(stat_of 3 message relayed)" = 0 ] || fail "B relayed $(stat_of 3 message relayed) message(s): the hop limit should stop them at B"

# 5. Logs and a clean stop.
grep -qE "broadcast from (A|B) over the LAN|direct from A for B" "$MESHLAB_OUT"/meshnoded-*.log && fail "message text found in a log"
kill "${watchers[@]}" 2> /dev/null
stamp "stopping"
stop_nodes 4
ip netns del lanG1; ip netns del lanG2
stamp "result: $([ $failed = 0 ] && echo PASS || echo FAIL)"
exit $failed
