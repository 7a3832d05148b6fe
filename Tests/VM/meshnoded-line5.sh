#!/bin/bash
# Scenario for scripts/blelab-run: five meshnoded processes on the real BlueZ, each on its own emulated
# controller, in a line A-B-C-D-E made by deny lists (every node denies all but its two neighbours).
#   scripts/blelab-run -n 6 --btvirt ../shared/blelab/btvirt/btvirt Tests/VM/meshnoded-line5.sh "$(swift build --show-bin-path)"
# B, C and D hold two LE connections each, which only the fixed btvirt carries (docs/BLUEZ.md "Why:
# btvirt's connection handles"). Checks, in order (a timeline in seconds since VM boot is printed):
#   1. the line forms: B, C and D have two neighbours, A and E one; the time to line-up is printed;
#   2. a broadcast from A reaches B, C and D and never E (a message travels at most 3 hops);
#   3. after D broadcasts, A knows D (join notices travel two hops only; D's message teaches A its keys);
#   4. a direct message A -> D arrives; B and C relay it sealed and opaque, and no log has its text;
#   5. every node stops on SIGTERM with exit status 0.
# At the end: link-down counts per node (the daemon's "link down" lines) and a one-line summary.
. "$MESHLAB_LIB"
. "$(dirname "$MESHLAB_LIB")/scenario-lib.sh"
bin=$(readlink -f "$1")
[ -x "$bin/meshnoded" ] && [ -x "$bin/relayctl" ] || { echo "no meshnoded and relayctl in $bin"; exit 3; }
count=5; last=4
read -r -a adapters <<< "$MESHLAB_ADAPTERS"
[ ${#adapters[@]} -ge "$count" ] || { echo "only ${#adapters[@]} adapters: $MESHLAB_ADAPTERS"; exit 3; }
names=(A B C D E)
failed=0

start_line "$count"
started=$(uptime_s)
(sleep 25; top -b -n 1 -w 160 | head -n 25 > "$MESHLAB_OUT/vm/top.txt") &   # who uses the CPU while linking
want=(1 2 2 2 1)
lined_up() {
  bluez_running || return 0
  local i
  for i in 0 1 2 3 4; do log_neighbours_at_least "$i" "${want[$i]}" || return 1; done
  for i in 0 1 2 3 4; do neighbours_at_least "$i" "${want[$i]}" || return 1; done
}
if wait_until 300 lined_up && bluez_running; then
  lineup=$(awk -v a="$(uptime_s)" -v b="$started" 'BEGIN { printf "%.1f", a - b }')
  stamp "up: the line formed ${lineup} s after the nodes started"
else
  lineup=none
  bluez_running || fail "bluetoothd is gone"
  fail "the line did not form"
fi
for i in 0 1 2 3 4; do
  stamp "${names[$i]}: $(ctl "$i" --json status 2>/dev/null | json_number neighbourCount) neighbour(s)"
  ctl "$i" --json peers > "$MESHLAB_OUT/peers-${names[$i]}.json" 2>/dev/null
done
[ "$(ctl 0 --json status | json_number neighbourCount)" = 1 ] || fail "A has a neighbour besides B"
[ "$(ctl 4 --json status | json_number neighbourCount)" = 1 ] || fail "E has a neighbour besides D"

# Steps 2-4 only make sense on a line that formed.
checks() {
  # 2. A's broadcast: B, C, D, never E.
  id=$(ctl 0 send "broadcast from A")
  if wait_until 60 delivered_at_least 3 1; then stamp "broadcast $id from A delivered at D"; else fail "A's broadcast did not reach D"; fi
  for i in 1 2; do delivered_at_least "$i" 1 || fail "A's broadcast did not reach ${names[$i]}"; done
  sleep 5
  [ "$(counter 4 message delivered)" = 0 ] || fail "A's broadcast reached E (more than 3 hops)"
  stamp "E delivered $(counter 4 message delivered) message(s) after A's broadcast"

  # 3. D's broadcast teaches A D's keys.
  target=$(node_id 3)
  a_before=$(counter 0 message delivered)
  id=$(ctl 3 send "broadcast from D")
  if wait_until 60 delivered_at_least 0 $((a_before + 1)); then stamp "broadcast $id from D delivered at A"; else fail "D's broadcast did not reach A"; fi
  knows_d() { ctl 0 --json peers 2>/dev/null | grep -q "$target"; }
  if wait_until 30 knows_d; then stamp "A lists D ($target) among its peers"; else fail "A never learned D"; fi
  ctl 0 --json peers > "$MESHLAB_OUT/peers-A-after.json" 2>/dev/null

  # 4. A -> D direct, opaque at B and C.
  d_before=$(counter 3 message delivered)
  relayed_b=$(counter 1 message relayed); relayed_c=$(counter 2 message relayed)
  direct=$(ctl 0 send --to "$target" "for D only")
  if wait_until 60 delivered_at_least 3 $((d_before + 1)); then stamp "direct message $direct delivered at D"; else fail "direct message A -> D did not arrive"; fi
  [ "$(counter 1 message relayed)" -gt "$relayed_b" ] || fail "B's relayed counter did not move"
  [ "$(counter 2 message relayed)" -gt "$relayed_c" ] || fail "C's relayed counter did not move"
  for i in 1 2; do
    grep -q "sealed, opaque" "$MESHLAB_OUT/meshnoded-${names[$i]}.log" || fail "${names[$i]}'s log shows no opaque relay"
  done
  grep -q "for D only" "$MESHLAB_OUT"/meshnoded-*.log && fail "the direct message's text is in a log"
}
[ "$lineup" = none ] || checks
bluez_running || fail "bluetoothd is gone"
save_kernel_log

# Link-downs while running (before the nodes stop), then 5. SIGTERM.
downs=""
for i in 0 1 2 3 4; do downs+="${names[$i]}=$(grep -c 'link down' "$MESHLAB_OUT/meshnoded-${names[$i]}.log") "; done
stamp "stopping"
stop_nodes "$count"
for i in 0 1 2 3 4; do
  log="$MESHLAB_OUT/meshnoded-${names[$i]}.log"
  echo "== ${names[$i]}: $(grep -c 'link up' "$log") link-ups, $(grep -c 'link down' "$log") link-downs, $(grep -c 'link keyed' "$log") key exchanges"
done
stamp "summary: line-up ${lineup} s; link-downs ${downs% }"
stamp "result: $([ $failed = 0 ] && echo PASS || echo FAIL)"
exit $failed
