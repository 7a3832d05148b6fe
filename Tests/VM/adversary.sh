#!/bin/bash
# Scenario for scripts/blelab-run --hci-trace: material for the passive-listener adversary (issue 36;
# scripts/adversary.py reads the HCI trace, scripts/adversary_score.py scores it against what this
# scenario records). Five meshnoded processes in a line A-B-C-D-E (deny lists, as meshnoded-line5.sh)
# chat by script for CHAT seconds (default 42; CHAT2 in the second) in each of two epochs of mesh time: after the first,
# every node stops, the VM's clock steps one hour ahead and the nodes start again with the same
# identities (bluetoothd keeps running; under privacy a node's start powers its adapter off and on for
# a new address, BLUEZ.md "Addresses"). Tests/VM/adversary-rotation.sh keeps nodes up across the step.
#   scripts/blelab-run -n 6 -t 900 --hci-trace --btvirt ../shared/blelab/btvirt/btvirt \
#     Tests/VM/adversary.sh BIN_DIR        (BIN_DIR holds meshnoded and relayctl)
# Records in $MESHLAB_OUT: adversary.N.btsnoop (every controller's HCI traffic, for the adversary), truth.txt (node letter, adapter, node ID, per phase), sends.txt (one line
# per message sent: wall-clock ms, origin letter, destination letter or "*"), peers-PHASE-X.json, the
# node logs. The checks are only that each phase's line forms; the scoring is the scorer's.
. "$MESHLAB_LIB"
. "$(dirname "$MESHLAB_LIB")/scenario-lib.sh"
bin=$(readlink -f "$1")
[ -x "$bin/meshnoded" ] && [ -x "$bin/relayctl" ] || { echo "no meshnoded and relayctl in $bin"; exit 3; }
chat=${CHAT:-42}; chat2=${CHAT2:-$chat}   # CHAT2=0: the second phase only advertises (CI: linking only)
count=5
read -r -a adapters <<< "$MESHLAB_ADAPTERS"
[ ${#adapters[@]} -ge "$count" ] || { echo "only ${#adapters[@]} adapters: $MESHLAB_ADAPTERS"; exit 3; }
names=(A B C D E)
want=(1 2 2 2 1)
# Under kernel privacy (--bluetoothd Tests/VM/bluetoothd-privacy.sh) nodes that can change their address
# with the name do (BLUEZ.md "Addresses"); an older binary has no such option.
# The deny lists name public addresses, which peers no longer see: the nodes then link as they find
# each other, at most 2 links each (a full mesh of 5 has crashed the emulator's one bluetoothd twice).
node_flags=(); privacy=0
if btmgmt info 2>/dev/null | grep -q "current settings:.*privacy"; then
  privacy=1; node_flags=(--max-connections 2)
  "$bin/meshnoded" --help 2>&1 | grep -q -- --rotate-address && node_flags+=(--rotate-address on)
  stamp "kernel privacy on: nodes run with ${node_flags[*]}"
fi
failed=0
: > "$MESHLAB_OUT/sends.txt"; : > "$MESHLAB_OUT/truth.txt"
# Our own HCI trace, in the VM's memory, copied out at the end. btmon 5.66 crashes now and then
# (a segmentation fault within minutes with nodes of protocol version 1): it starts again at once
# into the next file, and scripts/adversary.py reads the files in turn.
(n=0; while [ ! -e /tmp/adversary.stop ]; do
  btmon -w "/tmp/adversary.$n.btsnoop" > /dev/null 2>&1 & echo $! > /tmp/adversary.btmon; wait $!; n=$((n + 1)); done) &
btmon_loop=$!
now_ms() { date +%s%3N; }
lined_up() {
  bluez_running || return 0
  local i
  for i in 0 1 2 3 4; do log_neighbours_at_least "$i" $(( privacy ? 1 : want[i] )) || return 1; done
  for i in 0 1 2 3 4; do neighbours_at_least "$i" $(( privacy ? 1 : want[i] )) || return 1; done
}
all_advertising() { local i; for i in 0 1 2 3 4; do [ "$(log_count "$i" 'advertising [0-9a-f]{8}')" -ge 1 ] || return 1; done; }
# One phase: start the line, wait for it, chat, record, stop.  Usage: phase N
phase() {
  local p=$1 i t end from to
  local seconds=$chat; [ "$p" = 2 ] && seconds=$chat2
  start_line "$count"
  if [ "$seconds" = 0 ]; then
    # Nothing to chat: linking needs only each node's advertisement under this hour's name.
    if wait_until 300 all_advertising && bluez_running; then stamp "phase $p: every node advertises"; sleep 10
    else fail "phase $p: not every node advertised"; fi
  elif wait_until 300 lined_up && bluez_running; then stamp "phase $p: the line formed"; else fail "phase $p: the line did not form"; fi
  for i in 0 1 2 3 4; do
    echo "phase $p ${names[$i]} ${adapters[$i]} $(node_id "$i") ${addr[$i]}" >> "$MESHLAB_OUT/truth.txt"
  done
  # Each node broadcasts once (teaches its keys up to three hops), then direct messages and
  # broadcasts alternate, one every 6 s, to nodes at most two hops away.
  [ "$seconds" -gt 0 ] && for i in 0 1 2 3 4; do echo "$(now_ms) ${names[$i]} *" >> "$MESHLAB_OUT/sends.txt"; ctl "$i" send "hello from ${names[$i]}" > /dev/null; sleep 6; done
  end=$(( $(date +%s) + seconds )); t=0
  while [ "$(date +%s)" -lt "$end" ]; do
    from=$(( RANDOM % count ))
    if [ $(( t % 3 )) = 2 ]; then
      echo "$(now_ms) ${names[$from]} *" >> "$MESHLAB_OUT/sends.txt"; ctl "$from" send "news $t" > /dev/null
    else
      to=$(( from + (RANDOM % 2 + 1) * (RANDOM % 2 * 2 - 1) ))
      [ "$to" -lt 0 ] && to=$(( from + 1 )); [ "$to" -ge "$count" ] && to=$(( from - 1 ))
      echo "$(now_ms) ${names[$from]} ${names[$to]}" >> "$MESHLAB_OUT/sends.txt"
      ctl "$from" send --detach --to "$(node_id "$to")" "note $t" > /dev/null || stamp "send $t failed"
    fi
    t=$(( t + 1 )); sleep 6
  done
  for i in 0 1 2 3 4; do ctl "$i" --json peers > "$MESHLAB_OUT/peers-$p-${names[$i]}.json" 2>/dev/null; done
  stop_nodes "$count"
  for i in 0 1 2 3 4; do mv "$MESHLAB_OUT/meshnoded-${names[$i]}.log" "$MESHLAB_OUT/meshnoded-$p-${names[$i]}.log"; done
}
phase 1
date -s "@$(( $(date +%s) + 3600 ))" > /dev/null; stamp "clock stepped one hour ahead: $(date -u +%H:%M)"
phase 2
bluez_running || fail "bluetoothd is gone"
touch /tmp/adversary.stop; kill "$(cat /tmp/adversary.btmon)"; wait "$btmon_loop" 2>/dev/null
cp /tmp/adversary.*.btsnoop "$MESHLAB_OUT/"
stamp "result: $([ $failed = 0 ] && echo PASS || echo FAIL)"
exit $failed
