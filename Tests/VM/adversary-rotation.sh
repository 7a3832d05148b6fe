#!/bin/bash
# Scenario for scripts/blelab-run --hci-trace --bluetoothd Tests/VM/bluetoothd-privacy.sh: the passive-listener
# adversary (issue 36) against nodes that stay up across an hour of mesh time. NODES meshnoded nodes (default 8,
# letters A...) and CLIENTS clients without a GATT server (default 2, P and Q) start once, all in range, with
# --rotate-address on and at most LINKS links each (default 3), LEAD seconds (default 150) before the VM clock's next full hour
# (set before they start: mesh time follows a clock only at start, PROTOCOL.md Part C). They chat by script
# until the hour; then every advertised name changes (PROTOCOL.md D13) and every adapter is powered off and on
# for a new address (BLUEZ.md "Addresses"); they chat again for CHAT seconds (default 42). A broadcast sent just
# before the hour must be delivered at most once by every other radio (and by one at least).
#   scripts/blelab-run -n 11 -t 1800 --hci-trace --btvirt ../shared/blelab/btvirt/btvirt \
#     --bluetoothd Tests/VM/bluetoothd-privacy.sh Tests/VM/adversary-rotation.sh BIN_DIR [NODES [CLIENTS]]
# Records what Tests/VM/adversary.sh records (truth.txt, sends.txt, meshnoded-P-X.log: each log split at the
# hour, adversary.N.btsnoop) for scripts/adversary.py and scripts/adversary_score.py, and relink.txt: per radio,
# seconds from the hour until it had keyed a link again and its power cycles since the hour.
. "$MESHLAB_LIB"
. "$(dirname "$MESHLAB_LIB")/scenario-lib.sh"
bin=$(readlink -f "$1")
[ -x "$bin/meshnoded" ] && [ -x "$bin/relayctl" ] || { echo "no meshnoded and relayctl in $bin"; exit 3; }
nodes=${2:-8}; clients=${3:-2}; chat=${CHAT:-42}; lead=${LEAD:-150}; links=${LINKS:-3}
count=$(( nodes + clients ))
read -r -a adapters <<< "$MESHLAB_ADAPTERS"
[ ${#adapters[@]} -ge "$count" ] || { echo "only ${#adapters[@]} adapters: $MESHLAB_ADAPTERS"; exit 3; }
letters=(A B C D E F G H I J K L M N O); names=("${letters[@]:0:$nodes}" P Q R S T U V W X Y Z)
names=("${names[@]:0:$count}")
failed=0
: > "$MESHLAB_OUT/sends.txt"; : > "$MESHLAB_OUT/truth.txt"; : > "$MESHLAB_OUT/relink.txt"
[ -e /dev/fd ] || ln -s /proc/self/fd /dev/fd
(n=0; while [ ! -e /tmp/adversary.stop ]; do
  btmon -w "/tmp/adversary.$n.btsnoop" > /dev/null 2>&1 & echo $! > /tmp/adversary.btmon; wait $!; n=$((n + 1)); done) &
btmon_loop=$!
now_ms() { date +%s%3N; }
log_of() { echo "$MESHLAB_OUT/meshnoded-${names[$1]}.log"; }
# Lines of node I's log after line N that match a pattern.  Usage: count_after I N PATTERN
count_after() { tail -n "+$(( $2 + 1 ))" "$(log_of "$1")" | grep -cE "$3"; }
start_radio() { # index, extra flags...
  local i=$1; shift
  local dir="/tmp/mesh-${names[$i]}"; mkdir -p "$dir"
  "$bin/meshnoded" --transport bluez --adapter "${adapters[$i]}" --state-directory "$dir" --runtime-directory "$dir" \
    --name "node-${names[$i]}" --log-level debug --control-group root --rotate-address on --max-connections "$links" "$@" \
    > >(uptime_lines > "$(log_of "$i")") 2>&1 &
  pids[$i]=$!
}
# Whether bluetoothd is gone or CHECK... holds: a wait ends at once when bluetoothd is gone.
bluez_gone_or() { bluez_running || return 0; "$@"; }
# Ends the run when bluetoothd is gone (the guest's 6.1 kernel can oops in hci_chan_del and take it with it,
# BLUEZ.md "What holds in the emulator"): nothing after it can pass, and its deadlines would only be waited out.
end_if_bluez_gone() {
  bluez_running && return 0
  save_kernel_log
  fail "bluetoothd is gone: $(grep -v 'btmon\[' "$MESHLAB_OUT/vm/dmesg.txt" |
    grep -m 1 -E 'list_del corruption|kernel BUG|invalid opcode|general protection|bluetoothd\[[0-9]+\]: segfault')"
  stop_nodes "$count"; touch /tmp/adversary.stop; kill "$(cat /tmp/adversary.btmon)" 2>/dev/null
  stamp "result: FAIL"; exit 1
}
all_linked() { local i; for ((i = 0; i < count; i++)); do log_neighbours_at_least "$i" 1 || return 1; done; }
addr=(); for ((i = 0; i < count; i++)); do addr+=("$(address "${adapters[$i]}")"); done
stamp "adapters ${adapters[*]:0:$count}: nodes ${names[*]:0:$nodes}, clients ${names[*]:$nodes}; load $(cut -d' ' -f1-3 /proc/loadavg)"
hour=$(( ($(date +%s) / 3600 + 1) * 3600 ))
date -s "@$(( hour - lead ))" > /dev/null; stamp "clock set $lead s before the hour: $(date -u +%H:%M:%S)"
pids=()
for ((i = 0; i < nodes; i++)); do start_radio "$i"; done
for ((i = nodes; i < count; i++)); do start_radio "$i" --gatt-server false; done
if wait_until 600 bluez_gone_or all_linked; then end_if_bluez_gone; stamp "every radio has a neighbour"
else fail "not every radio linked"; fi
ids=(); for ((i = 0; i < count; i++)); do ids+=("$(node_id "$i")"); done
for ((i = 0; i < count; i++)); do
  for p in 1 2; do echo "phase $p ${names[$i]} ${adapters[$i]} ${ids[$i]} ${addr[$i]}" >> "$MESHLAB_OUT/truth.txt"; done
done
# Chat: a broadcast or a direct message to another radio every 6 s, from a random radio.
chat_for() {
  local end=$(( $(date +%s) + $1 )) t=0 from to
  while [ "$(date +%s)" -lt "$end" ]; do
    from=$(( RANDOM % count ))
    if [ $(( t % 3 )) = 2 ]; then
      echo "$(now_ms) ${names[$from]} *" >> "$MESHLAB_OUT/sends.txt"; ctl "$from" send "news $t" > /dev/null
    else
      to=$(( (from + 1 + RANDOM % (count - 1)) % count ))
      echo "$(now_ms) ${names[$from]} ${names[$to]}" >> "$MESHLAB_OUT/sends.txt"
      ctl "$from" send --detach --to "${ids[$to]}" "note $t" > /dev/null || stamp "send $t failed"
    fi
    t=$(( t + 1 )); sleep 6
  done
}
[ "$(date +%s)" -lt $(( hour - 25 )) ] || fail "linked too late: $(( $(date +%s) - hour )) s from the hour"
chat_for $(( hour - 20 - $(date +%s) ))
# Each log is split here, before the hour; then the broadcast in flight at the hour, then the hour.
lines=(); for ((i = 0; i < count; i++)); do lines+=("$(wc -l < "$(log_of "$i")")"); done
[ "$(date +%s)" -lt $(( hour - 2 )) ] || fail "the chat ran past the hour: $(( $(date +%s) - hour )) s"
# From a radio with a linked neighbour (under TCG a busy bluetoothd sometimes leaves one alone for longer
# than its neighbours' departure grace, and a broadcast held for departed neighbours goes nowhere).
sender=0
for ((i = 0; i < count; i++)); do ctl "$i" --json peers 2>/dev/null | grep -q '"state" *: *"linked"' && { sender=$i; break; }; done
while [ "$(date +%s)" -lt $(( hour - 5 )) ]; do sleep 0.2; done
echo "$(now_ms) ${names[$sender]} *" >> "$MESHLAB_OUT/sends.txt"
flight=$(ctl "$sender" send "in flight at the hour" 2> "$MESHLAB_OUT/flight-send.txt")
[ -n "$flight" ] || fail "the broadcast in flight was not sent: $(tr '\n' ' ' < "$MESHLAB_OUT/flight-send.txt")"
while [ "$(date +%s)" -lt "$hour" ]; do sleep 0.2; done; step=$hour; stamp "the hour: $(date -u +%H:%M:%S)"
relinked=()
# The log line from which node I counts as relinked: its first power cycle after the split for a node (a link
# keyed between the split and the hour is not a relink), the split itself for a client.
relink_from() {
  local n
  [ "$1" -ge "$nodes" ] && { echo "${lines[$1]}"; return 0; }
  n=$(tail -n "+$(( ${lines[$1]} + 1 ))" "$(log_of "$1")" | grep -nm 1 'powering the adapter off and on' | cut -d: -f1)
  [ -n "$n" ] && echo $(( ${lines[$1]} + n ))
}
relink_done() {
  local i all=0 from
  for ((i = 0; i < count; i++)); do
    [ -n "${relinked[$i]}" ] && continue
    from=$(relink_from "$i")
    if [ -n "$from" ] && [ "$(count_after "$i" "$from" 'link keyed')" -ge 1 ]; then
      relinked[$i]=$(( $(date +%s) - step ))
    else all=1; fi
  done
  return $all
}
wait_until 240 bluez_gone_or relink_done; end_if_bluez_gone; relink_done || fail "not every radio changed its address and keyed a link within 240 s of the hour"
for ((i = 0; i < count; i++)); do
  echo "${names[$i]} ${relinked[$i]:-never} $(count_after "$i" "${lines[$i]}" 'powering the adapter off and on')" >> "$MESHLAB_OUT/relink.txt"
done
stamp "relinked after the hour (radio, seconds, power cycles): $(tr '\n' ';' < "$MESHLAB_OUT/relink.txt")"
for ((i = 0; i < nodes; i++)); do
  [ "$(count_after "$i" "${lines[$i]}" 'powering the adapter off and on')" -ge 1 ] || fail "${names[$i]} kept its address across the hour"
done
flight_delivered() { grep "message delivered" "$(log_of "$1")" | grep -c "message_id=${flight:-none}"; }
flight_everywhere() { local i; for ((i = 0; i < count; i++)); do [ $i = "$sender" ] || [ "$(flight_delivered "$i")" -ge 1 ] || return 1; done; }
# Part E: a copy a dropped link left unacknowledged goes again only if that neighbour returns within its
# grace, and a line of five may put a radio beyond the broadcast's hops: a miss is reported, a repeat fails.
wait_until 30 bluez_gone_or flight_everywhere; end_if_bluez_gone
got=0; missed=""
for ((i = 0; i < count; i++)); do
  [ $i = "$sender" ] && continue
  n=$(flight_delivered "$i")
  [ "$n" -le 1 ] || fail "${names[$i]} delivered the broadcast in flight $n times"
  if [ "$n" -ge 1 ]; then got=$(( got + 1 )); else missed+=" ${names[$i]}"; fi
done
[ "$got" -ge 1 ] || fail "no radio delivered the broadcast in flight at the hour"
stamp "the broadcast in flight at the hour from ${names[$sender]}: delivered once by $got of $(( count - 1 ))${missed:+, not by$missed}"
chat_for "$chat"
for ((i = 0; i < count; i++)); do ctl "$i" --json peers > "$MESHLAB_OUT/peers-2-${names[$i]}.json" 2>/dev/null; done
stop_nodes "$count"
for ((i = 0; i < count; i++)); do
  head -n "${lines[$i]}" "$(log_of "$i")" > "$MESHLAB_OUT/meshnoded-1-${names[$i]}.log"
  tail -n "+$(( ${lines[$i]} + 1 ))" "$(log_of "$i")" > "$MESHLAB_OUT/meshnoded-2-${names[$i]}.log"
done
bluez_running || fail "bluetoothd is gone"
touch /tmp/adversary.stop; kill "$(cat /tmp/adversary.btmon)"; wait "$btmon_loop" 2>/dev/null
cp /tmp/adversary.*.btsnoop "$MESHLAB_OUT/"
stamp "result: $([ $failed = 0 ] && echo PASS || echo FAIL)"
exit $failed
