#!/bin/bash
# Scenario for scripts/blelab-run: a client walks away and its mail waits in a mailbox (docs/PROTOCOL.md
# Part G). A line A-M-B by deny lists, and a client P without a GATT server (meshnoded --gatt-server
# false, as a phone app; docs/BLUEZ.md "Client slots") that dials B only. Every node runs the shipped
# defaults ([mailbox] on, reach window 2 min, departure grace 30 s). B holds two LE links, which
# needs the fixed btvirt (docs/BLUEZ.md):
#   scripts/blelab-run -n 5 --btvirt ../shared/blelab/btvirt/btvirt Tests/VM/meshnoded-mailbox.sh BIN
# Checks, in order (a timeline in seconds since VM boot is printed):
#   1. the line links, P claims a slot of B and links to it; P's broadcast reaches A (A learns P's keys);
#   2. P walks away: its controller is powered off (its meshnoded keeps running, as an app does), so
#      both ends lose the LE link; A writes HELD_IN_GRACE direct messages to P at once (B holds them
#      for P's departure grace, then deposits them when the grace ends) and HELD_AFTER more once B
#      logged P's departure (deposited at once: P left B, so what B last heard from P over P's own
#      link does not make P "heard", G1); P's last message is then less than 2 minutes old;
#   3. `relayctl mailbox` on B shows every message held for P; P stays away at least AWAY seconds;
#   4. P's controller comes back, P redials B; B hands every message over oldest first (the order A
#      wrote them; its debug log) and P receives each exactly once (the order P saw is printed: the
#      8 notifications of one tick have been seen to arrive reordered, docs/BLUEZ.md);
#   5. B's mailbox is empty, B counts deposited = delivered = the messages sent, P counts them
#      delivered; nothing more arrives 5 s later; no log holds a message's text;
#   6. every node stops on SIGTERM with exit status 0, and P's mailbox database keeps the IDs of the
#      messages delivered to it (the memory that refuses a second copy, G4).
. "$MESHLAB_LIB"
. "$(dirname "$MESHLAB_LIB")/scenario-lib.sh"
bin=$(readlink -f "$1")
[ -x "$bin/meshnoded" ] && [ -x "$bin/relayctl" ] || { echo "no meshnoded and relayctl in $bin"; exit 3; }
read -r -a adapters <<< "$MESHLAB_ADAPTERS"
[ ${#adapters[@]} -ge 4 ] || { echo "only ${#adapters[@]} adapters: $MESHLAB_ADAPTERS"; exit 3; }
names=(A M B P)
failed=0
in_grace=${HELD_IN_GRACE:-3}; after=${HELD_AFTER:-5}; away=${AWAY:-30}
total=$((in_grace + after))
log_of() { echo "$MESHLAB_OUT/meshnoded-${names[$1]}.log"; }
# Whether node I's log shows at least N lines matching PATTERN.
log_at_least() { [ "$(log_count "$1" "$3")" -ge "$2" ]; }
# Node J's full ID as node I logged it when J became its neighbour.
id_from_log() { grep -o "neighbour joined: node-${names[$2]} \[peer=[0-9a-f]*" "$(log_of "$1")" | head -n 1 | sed 's/.*peer=//'; }
# How many messages B's `relayctl mailbox` shows held for node ID.
held_at_b() { ctl 2 --json mailbox 2>/dev/null | tr -d '\n ' | grep -o "{[^{}]*\"nodeID\":\"$1\"[^{}]*}" | json_number count; }
power() { busctl --system set-property org.bluez "/org/bluez/${adapters[3]}" org.bluez.Adapter1 Powered b "$1"; }

stamp "load $(cut -d' ' -f1-3 /proc/loadavg)"
start_line 3
linked() { log_neighbours_at_least 1 2 && log_neighbours_at_least 0 1 && log_neighbours_at_least 2 1; }
if wait_until 240 linked; then stamp "up: M has 2 neighbours, A and B one each"; else fail "the line did not link"; fi
p_dir=/tmp/mesh-P; mkdir -p "$p_dir"
addr+=("$(address "${adapters[3]}")")
"$bin/meshnoded" --transport bluez --adapter "${adapters[3]}" --state-directory "$p_dir" --runtime-directory "$p_dir" \
  --name node-P --log-level debug --control-group root --gatt-server false --deny "${addr[0]},${addr[1]}" \
  > >(uptime_lines > "$(log_of 3)") 2>&1 &
pids+=($!)
stamp "client P started on ${adapters[3]} (${addr[3]})"
if wait_until 120 log_neighbours_at_least 3 1 && wait_until 30 log_neighbours_at_least 2 2; then
  stamp "P linked to B ($(grep -o 'claimed client slot [^ ]*' "$(log_of 3)" | tail -n 1))"
else
  fail "P did not link to B"
fi
id_p=$(id_from_log 2 3)
stamp "P is $id_p"

ctl 3 send "hello from the client" > /dev/null || fail "P's broadcast was refused"
if wait_until 60 log_at_least 0 1 'message delivered'; then stamp "P's broadcast reached A"; else fail "P's broadcast did not reach A"; fi

departures_before=$(log_count 2 'neighbour departed')
t_away=$(uptime_s)
stamp "P walks away: its controller ${adapters[3]} is powered off"
power false
sent=()
send_to_p() {
  local id
  if id=$(ctl 0 send --to "$id_p" "$1" 2> "$MESHLAB_OUT/send.err" | tail -n 1) && [ -n "$id" ]; then
    sent+=("$id"); stamp "A -> P $id ($1): $(tr '\n' ' ' < "$MESHLAB_OUT/send.err")"
  else
    fail "A could not send '$1': $(cat "$MESHLAB_OUT/send.err")"
  fi
}
for ((i = 1; i <= in_grace; i++)); do send_to_p "mail $i, while P's link is in its grace"; done
b_saw_departure() { [ "$(log_count 2 'neighbour departed')" -gt "$departures_before" ]; }
if wait_until 90 b_saw_departure; then stamp "B: P departed (grace over)"; else fail "B never logged P's departure"; fi
for ((i = in_grace + 1; i <= total; i++)); do send_to_p "mail $i, after P's grace"; done
if wait_until 30 log_at_least 2 "$total" 'held for [0-9a-f]+, who is not in range'; then
  stamp "B deposited all $total"
else
  fail "B deposited $(log_count 2 'held for [0-9a-f]+, who is not in range') of $total"
fi
ctl 2 mailbox | tee "$MESHLAB_OUT/mailbox-B-before.txt"
[ "$(held_at_b "$id_p")" = "$total" ] || fail "B's mailbox shows $(held_at_b "$id_p") held for P, not $total"
[ "$(log_count 3 'message delivered')" = 0 ] || fail "P delivered something while away"
until awk -v now="$(uptime_s)" -v t="$t_away" -v a="$away" 'BEGIN { exit !(now - t >= a) }'; do sleep 1; done

t_back=$(uptime_s)
stamp "P comes back after $(awk -v a="$t_back" -v b="$t_away" 'BEGIN { printf "%.1f", a - b }') s: its controller is powered on"
power true
if wait_until 150 log_at_least 3 "$total" 'message delivered'; then
  stamp "P delivered $total messages $(awk -v a="$(uptime_s)" -v b="$t_back" 'BEGIN { printf "%.1f", a - b }') s after power-on"
else
  fail "P delivered $(log_count 3 'message delivered') of $total after coming back"
fi
sleep 5   # a late or second copy would show now
got=($(grep -o 'message delivered .*message_id=[0-9a-f]*' "$(log_of 3)" | sed 's/.*message_id=//'))
handed=($(grep -o 'held message handed over .*message_id=[0-9a-f]*' "$(log_of 2)" | sed 's/.*message_id=//' | awk '!seen[$0]++'))
stamp "A wrote:      ${sent[*]}"
stamp "B handed:     ${handed[*]}"
stamp "P delivered:  ${got[*]}"
[ "${handed[*]}" = "${sent[*]}" ] || fail "B did not hand over every message, oldest first"
[ "$(printf '%s\n' "${got[@]}" | sort | tr '\n' ' ')" = "$(printf '%s\n' "${sent[@]}" | sort | tr '\n' ' ')" ] \
  || fail "P did not deliver exactly the messages sent, once each"
# Notifications B sends in one tick may reach P in another order (docs/BLUEZ.md, "Mailbox hand-over
# to a client"): reported, and P's copies are checked once each above.
if [ "${got[*]}" = "${sent[*]}" ]; then stamp "P delivered them in the order written"
else stamp "P delivered them in another order than written (one tick's notifications reordered on the way)"; fi
grep -q "handed [0-9]* held message(s) to ${id_p:0:8}" "$(log_of 2)" && stamp "B: $(grep -o "handed [0-9]* held message(s) to ${id_p:0:8}" "$(log_of 2)" | tr '\n' ';')" \
  || fail "B logged no hand-over to P"
grep -q "mail [0-9]*, " "$MESHLAB_OUT"/meshnoded-*.log && fail "message text found in a log"

saves=(); for i in 2 3; do save_stats "$i" & saves+=($!); done; wait "${saves[@]}"
ctl 2 mailbox | tee "$MESHLAB_OUT/mailbox-B-after.txt"
b_line="B mailbox:"; for c in deposited delivered copies_sent held refused_duplicate store_errors commits; do b_line+=" $c=$(stat_of 2 mailbox "$c")"; done
stamp "$b_line; P: delivered=$(stat_of 3 message delivered) dropped_seen=$(stat_of 3 message dropped_seen) dropped_stale=$(stat_of 3 message dropped_stale)"
[ "$(stat_of 2 mailbox deposited)" = "$total" ] || fail "B counts $(stat_of 2 mailbox deposited) deposited, not $total"
[ "$(stat_of 2 mailbox delivered)" = "$total" ] || fail "B counts $(stat_of 2 mailbox delivered) delivered, not $total"
[ "$(stat_of 2 mailbox held)" = 0 ] || fail "B still holds $(stat_of 2 mailbox held)"
[ -z "$(held_at_b "$id_p")" ] || fail "B's mailbox still lists P"
[ "$(stat_of 3 message delivered)" = "$total" ] || fail "P counts $(stat_of 3 message delivered) delivered, not $total"
b_line="B transport:"; for c in notifications_sent frames_held frames_refused client_slot_claims connect_failures; do b_line+=" $c=$(stat_of 2 transport "$c")"; done
stamp "$b_line; P link-ups: $(log_count 3 'link up \(')"

stamp "stopping; load $(cut -d' ' -f1-3 /proc/loadavg)"
stop_nodes 4
remembered=$(python3 -c "import sqlite3,sys; print(sqlite3.connect(sys.argv[1]).execute('SELECT count(*) FROM delivered').fetchone()[0])" "$p_dir/mailbox.db" 2>&1)
stamp "P's mailbox database remembers $remembered delivered message ID(s)"
[ "$remembered" = "$total" ] || fail "P's database remembers $remembered delivered IDs, not $total"
bluez_running || fail "bluetoothd is gone"
save_kernel_log
stamp "result: $([ $failed = 0 ] && echo PASS || echo FAIL)"
exit $failed
