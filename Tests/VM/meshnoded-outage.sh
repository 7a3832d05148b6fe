#!/bin/bash
# Scenario for scripts/blelab-run: messages sent while a relay's radio is gone are held and reach
# the far end once the relay is back (docs/PROTOCOL.md Part E, "Holding for a neighbour in its
# grace"). A line A-B-C by deny lists on the fixed btvirt (B holds two LE links):
#   scripts/blelab-run -n 4 --btvirt ../shared/blelab/btvirt/btvirt Tests/VM/meshnoded-outage.sh BIN
# Checks, in order (a timeline in seconds since VM boot is printed):
#   1. the line links, and a broadcast from A reaches C;
#   2. bluetoothd is killed (every link in the VM goes); A sends, `relayctl send` says the message
#      is held; bluetoothd comes back 3 s later and the message reaches C;
#   3. B's adapter is powered off; A sends while it is off (held again); 3 s later it is powered on
#      and the message reaches C;
#   4. C delivered each message exactly once; A's hold counters show the late sends; bluetoothd
#      wrote no core and still runs; every node exits 0 on SIGTERM.
. "$MESHLAB_LIB"
. "$(dirname "$MESHLAB_LIB")/scenario-lib.sh"
bin=$(readlink -f "$1")
[ -x "$bin/meshnoded" ] && [ -x "$bin/relayctl" ] || { echo "no meshnoded and relayctl in $bin"; exit 3; }
read -r -a adapters <<< "$MESHLAB_ADAPTERS"
[ ${#adapters[@]} -ge 3 ] || { echo "only ${#adapters[@]} adapters: $MESHLAB_ADAPTERS"; exit 3; }
names=(A B C)
failed=0
# Under software emulation a line takes 20-40 s to link again after bluetoothd restarts or an
# adapter comes back, longer than the 30 s default grace and hold age, which would
# let the held copies expire first. What is tested is that held copies survive the outage and
# arrive exactly once, so the nodes get a 120 s grace and hold age and the waits are 90 s.
node_flags=(--timers.departure_grace=120s --hold.max_age=120s)
start_line 3
linked() { neighbours_at_least 1 2 && neighbours_at_least 0 1 && neighbours_at_least 2 1; }
if wait_until 300 linked; then stamp "up: B has 2 neighbours, the ends one each"; else fail "the nodes did not link"; fi
ctl 0 send "before any outage" > /dev/null || fail "first send refused"
if wait_until 60 delivered_at_least 2 1; then stamp "first broadcast delivered at C"; else fail "first broadcast did not reach C"; fi

# Sends TEXT from A while B is unreachable; the reply must say the copy is held.
send_held() {
  local err="$MESHLAB_OUT/send-$2.err"
  if ctl 0 send "$1" > /dev/null 2> "$err"; then
    grep -q "held for" "$err" && stamp "A: $(cat "$err")" || fail "A's send of '$1' did not say it was held: $(cat "$err")"
  else
    fail "A refused to send '$1': $(cat "$err")"
  fi
}
a_has_no_neighbour() { [ "$(ctl 0 --json status 2>/dev/null | json_number neighbourCount)" = 0 ]; }

stamp "killing bluetoothd"
bluez_kill
wait_until 10 a_has_no_neighbour || fail "A still counts B as ready with bluetoothd gone"
send_held "sent while bluetoothd is down" bluetoothd
sleep 3
stamp "starting bluetoothd again"
bluez_start
back=$(uptime_s)
if wait_until 90 delivered_at_least 2 2; then stamp "held message reached C (relayed by B) $(echo "$(uptime_s) - $back" | bc) s after bluetoothd started again"; else fail "the message sent while bluetoothd was down never reached C"; fi
wait_until 60 linked || fail "the line did not come back after the bluetoothd restart"

stamp "powering B's adapter ${adapters[1]} off"
busctl --system set-property org.bluez "/org/bluez/${adapters[1]}" org.bluez.Adapter1 Powered b false
wait_until 15 a_has_no_neighbour || fail "A still counts B as ready with B's adapter off"
send_held "sent while B's adapter is off" power
sleep 3
stamp "powering B's adapter on"
busctl --system set-property org.bluez "/org/bluez/${adapters[1]}" org.bluez.Adapter1 Powered b true
back=$(uptime_s)
if wait_until 90 delivered_at_least 2 3; then stamp "held message reached C $(echo "$(uptime_s) - $back" | bc) s after B's adapter came back"; else fail "the message sent while B's adapter was off never reached C"; fi

sleep 3
delivered=$(counter 2 message delivered)
[ "$delivered" = 3 ] || fail "C delivered $delivered messages, expected exactly 3"
stamp "A hold counters: held $(counter 0 hold held), sent_late $(counter 0 hold sent_late), resent $(counter 0 hold resent), expired $(counter 0 hold expired)"
stamp "B hold counters: held $(counter 1 hold held), sent_late $(counter 1 hold sent_late), resent $(counter 1 hold resent), expired $(counter 1 hold expired)"
[ "$(counter 0 hold sent_late)" -ge 2 ] 2>/dev/null || fail "A did not send its held copies late"
cores=$(ls "$MESHLAB_OUT"/vm/core.* 2>/dev/null | wc -l)
[ "$cores" = 0 ] || fail "bluetoothd crashed: $cores core file(s) in $MESHLAB_OUT/vm"
bluez_running || fail "bluetoothd is not running at the end"
stamp "stopping"
stop_nodes 3
for n in A B C; do
  echo "== $n: $(grep -c 'link up' "$MESHLAB_OUT/meshnoded-$n.log") link-ups, $(grep -c 'link down' "$MESHLAB_OUT/meshnoded-$n.log") link-downs"
done
save_kernel_log
stamp "result: $([ $failed = 0 ] && echo PASS || echo FAIL)"
exit $failed
