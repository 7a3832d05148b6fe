#!/bin/bash
# Scenario for scripts/blelab-run: the link of a pair is dropped again and again while frames are in
# flight, and bluetoothd survives every drop (docs/BLUEZ.md, "Why write-without-response"):
#   scripts/blelab-run -n 3 --btvirt ../shared/blelab/btvirt/btvirt Tests/VM/meshnoded-drops.sh BIN
# Both nodes broadcast a message every 0.5 s; Tests/VM/drops.py drops their link DROPS (20) times,
# each right after a burst of sends: every 5th drop powers B's adapter off and on, the others call
# Device1.Disconnect on the peer (from A's side and from B's in turn), and it waits up to 10 s for
# the pair to be neighbours again before the next (a drop during the key exchange counts too). Checks:
#   1. bluetoothd's process ID never changes during the drops and it writes no core; both nodes exit 0;
#   2. each node saw a link-down for every drop made while the pair were neighbours (a drop that
#      comes before they relinked may find no link), and the pair is neighbours again after the last drop;
#   3. no message was delivered twice;
#   4. (RESTART=1, the default) then bluetoothd is killed with SIGKILL under the same traffic and started
#      again 2 s later: the nodes register again, relink, and a message crosses each way within 120 s
#      (the time from bluetoothd's start to the first message each way is printed);
#   5. with STRICT_DELIVERY=1 (the default in scripts/test-vm.sh; the engine's link acknowledgement, PROTOCOL.md D12, is what
#      makes it hold): every message sent during the drops while both ends were up (`send` said
#      `sentTo` >= 1), up to 5 s before bluetoothd's kill, was delivered, except one whose link dropped
#      before the peer had it and whose neighbour then stayed away past its departure grace (the sender saw
#      `peer_left` after the send, and no later message of its reached the peer before): unconfirmed, it was
#      held (D12 step 5) and went with everything held for the neighbour (Part E), and the sender's hold
#      counters (expired + evicted) must cover those and the held messages lost. Without STRICT_DELIVERY the
#      losses are only printed; so are those of messages held for the neighbour, which a neighbour that stays
#      away past its departure grace legitimately loses.
. "$MESHLAB_LIB"
. "$(dirname "$MESHLAB_LIB")/scenario-lib.sh"
bin=$(readlink -f "$1")
[ -x "$bin/meshnoded" ] && [ -x "$bin/relayctl" ] || { echo "no meshnoded and relayctl in $bin"; exit 3; }
read -r -a adapters <<< "$MESHLAB_ADAPTERS"
[ ${#adapters[@]} -ge 2 ] || { echo "only ${#adapters[@]} adapters: $MESHLAB_ADAPTERS"; exit 3; }
names=(A B)
failed=0
drops=${DROPS:-20}
bt_pid=$(cat /run/meshlab/bluetoothd.pid)
start_line 2
linked() { log_neighbours_at_least 0 1 && log_neighbours_at_least 1 1 && neighbours_at_least 0 1 && neighbours_at_least 1 1; }
if wait_until 180 linked; then stamp "up: A and B are neighbours"; else fail "the nodes did not link"; fi
if [ $failed = 0 ]; then
  DROPS=$drops BT_PID=$bt_pid RESTART=${RESTART:-1} /usr/bin/python3 "$(dirname "$MESHLAB_LIB")/drops.py" "$MESHLAB_OUT" /tmp/mesh-A/control.sock \
    /tmp/mesh-B/control.sock "${adapters[0]}" "${adapters[1]}" "${addr[0]}" "${addr[1]}" || fail "drops.py failed"
fi
value() { sed -n "s/^$1=//p" "$MESHLAB_OUT/drops-summary.txt" 2>/dev/null; }
# drops.py checked bluetoothd's process ID and the cores after the drops, before its restart phase.
if [ "$(value bluetoothd_survived)" = 1 ]; then stamp "bluetoothd survived every drop: still pid $bt_pid, no core"; else fail "bluetoothd did not survive the drops (pid $bt_pid gone or changed, $(value cores) core file(s) in $MESHLAB_OUT/vm)"; fi
cores=$(ls "$MESHLAB_OUT"/vm/core.* 2>/dev/null | wc -l)
[ "$cores" = 0 ] || fail "$cores core file(s) in $MESHLAB_OUT/vm"
if [ "${RESTART:-1}" = 1 ]; then
  stamp "after bluetoothd was killed and started again under traffic: first message A->B $(value restart_first_from_A_s) s, B->A $(value restart_first_from_B_s) s after its start"
  [ "$(value restart_first_from_A_s)" != never ] && [ "$(value restart_first_from_B_s)" != never ] && [ -n "$(value restart_first_from_A_s)" ] \
    || fail "no message crossed within 120 s of bluetoothd's restart"
  bluez_running || fail "bluetoothd is not running after its restart"
fi
[ "$(value unrecovered)" = 0 ] || fail "the nodes were not neighbours again within 90 s of the last drop"
stamp "$(value dropped_before_keyed_again) of $drops drops came before the pair was neighbours again (10 s)"
for n in A B; do
  [ "$(value link_downs_$n)" -ge "$(value drops_on_link)" ] 2>/dev/null \
    || fail "$n saw $(value link_downs_$n) link-downs, fewer than the $(value drops_on_link) drops made while linked"
done
for n in A B; do
  stamp "$n, after bluetoothd's restart: $(value ${n}_restart_sent_up) sent while linked, $(value ${n}_restart_lost_up) lost (not checked: the restart may outlast the departure grace)"
  stamp "$n sent $(value ${n}_sent_up) while linked (lost $(value ${n}_lost_up): $(value ${n}_lost_up_list)), $(value ${n}_sent_held) held for the neighbour (lost $(value ${n}_lost_held)), $(value ${n}_not_sent) refused; $(value ${n}_duplicated) delivered twice"
  stamp "$n: of those lost while linked, $(value ${n}_lost_up_departed) were unconfirmed when the link dropped and went with the neighbour's departure ($(value ${n}_lost_up_departed_list)); counters: hold held $(value ${n}_hold_held) resent $(value ${n}_hold_resent) sent_late $(value ${n}_hold_sent_late) expired $(value ${n}_hold_expired) evicted $(value ${n}_hold_evicted), links unconfirmed_at_link_down $(value ${n}_links_unconfirmed_at_link_down) resent $(value ${n}_links_resent) departures $(value ${n}_links_departures)"
  [ "$(value ${n}_duplicated)" = 0 ] || fail "messages of $n delivered twice"
  if [ "${STRICT_DELIVERY:-0}" = 1 ]; then
    [ "$(value ${n}_lost_up_linked)" = 0 ] || fail "messages of $n sent while linked were lost without a departure of the neighbour"
    [ "$(value ${n}_hold_covers_losses)" = 1 ] || fail "$n's hold counters (expired + evicted) do not cover the messages lost with the neighbour's departure"
  fi
done
stamp "recovery after a drop: median $(value recovery_median_s) s, longest $(value recovery_max_s) s"
stamp "stopping"
stop_nodes 2
save_kernel_log
stamp "result: $([ $failed = 0 ] && echo PASS || echo FAIL)"
exit $failed
