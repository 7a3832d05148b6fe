#!/usr/bin/env bash
# Issue 22 with real daemons over loopback UDP (docs/PROTOCOL.md Part G): a line A - B - D.
# D stops; A sends 20 direct messages to D through B, whose mailbox keeps them; B is kill -9'ed
# and restarted once in between (the mailbox reopened from SQLite); D comes back: all 20 must
# be delivered exactly once, in the order sent. Then B's database from before D came back is
# put back and B restarted, so B hands all 20 over again after D's seen cache (10 s here) has
# forgotten them: D's delivery memory must refuse every one. Prints B's bytes written per held
# message (/proc/PID/io write_bytes) and the hand-over time. With meshflood in $MESHTOOLS_BIN
# (scripts/test.sh builds it), a neighbour of B also mails 10,000 freshly minted absent IDs
# while the 20 wait (B's relay budget opened wide, so only the mailbox's caps stand in the way):
# the 20 must survive, the flood must stay within the caps, the database bounded; then B is
# kill -9'ed in the middle of a second flood and must reopen its database clean with the 20.
# Last, B starts on a garbage database: one log line, the file moved aside, an empty mailbox.
# About a minute.
# Usage: scripts/mailbox-daemons.sh [BIN_DIR]   (default: swift build --show-bin-path)
# MAILBOX_COUNT=N sends N messages instead of 20 (even; the hand-over benchmark uses 100).
set -euo pipefail
cd "$(dirname "$0")/.."
bin="${1:-$(swift build --show-bin-path)}"
count=${MAILBOX_COUNT:-20}
half=$((count / 2))
work="$(mktemp -d /tmp/meshnode-mailbox.XXXXXX)"
base=$(( 20000 + RANDOM % 20000 ))
declare -A port=([A]=$base [B]=$((base + 1)) [D]=$((base + 2))) pid=()
watcher=""
fail() {
  echo "mailbox-daemons: FAIL: $*; logs in $work" >&2
  for node in B D; do ctl "$node" stats 2>/dev/null | grep -E "^(message|mailbox|links) " | grep -v " 0$" | sed "s/^/  $node: /" >&2 || true; done
  exit 1
}
cleanup() {
  [ -n "$watcher" ] && kill "$watcher" 2>/dev/null || true
  for p in "${pid[@]}"; do kill -TERM "$p" 2>/dev/null || true; done
  wait 2>/dev/null || true
}
trap cleanup EXIT
ctl() { local node=$1; shift; "$bin/relayctl" --socket "$work/$node/control.sock" "$@"; }
json_field() { sed -n "s/.*\"$1\" *: *\"\\{0,1\\}\\([0-9a-f]*\\)\"\\{0,1\\}.*/\\1/p" | head -n 1; }
held_for_d() { ctl B --json mailbox | python3 -c "import json,sys; r=json.load(sys.stdin)['recipients']; print(sum(x['count'] for x in r if x['nodeID']=='$d_id'))"; }
counter() { ctl "$1" --json stats | python3 -c "import json,sys; print(json.load(sys.stdin)['counters']['$2']['$3'])"; }

start() {
  local node=$1
  mkdir -p "$work/$node"
  local args=(--transport udp --udp-port "${port[$node]}" --state-directory "$work/$node" --runtime-directory "$work/$node"
              --name "node-$node" --control-group "$(id -gn)" --timers.heartbeat_interval=1s --timers.departure_grace=3s --udp.connect_interval=1s)
  case $node in
    A) args+=(--neighbours "127.0.0.1:${port[B]}" --mailbox.enabled=false) ;;
    B) args+=(--neighbours "127.0.0.1:${port[D]}" --mailbox.reach_window=2s --budget.messages_per_second=100000
              --budget.message_burst=100000 --budget.bytes_per_second=104857600 --budget.byte_burst=104857600) ;;
    D) args+=(--seen.expiry=10s --seen.max_clock_skew=5s) ;;
  esac
  "$bin/meshnoded" "${args[@]}" >>"$work/$node/meshnoded.log" 2>&1 &
  pid[$node]=$!
}
neighbours() { ctl "$1" --json status 2>/dev/null | json_field neighbourCount; }
wait_neighbours() {
  for _ in $(seq 1 150); do [ "$(neighbours "$1")" -ge "$2" ] 2>/dev/null && return 0; sleep 0.1; done
  fail "$1 has fewer than $2 neighbour(s)"
}

echo "== A - B - D over UDP in $work"
start A; start B; start D
wait_neighbours B 2; wait_neighbours A 1; wait_neighbours D 1
d_id=$(ctl D --json id | json_field nodeID)
for _ in $(seq 1 100); do ctl A --json peers | grep -q "$d_id" && break; sleep 0.1; done
ctl A --json peers | grep -q "$d_id" || fail "A never learned D"

echo "== D stops; B lets it go (grace 3 s, reach window 2 s)"
kill -TERM "${pid[D]}"; wait "${pid[D]}" || true; unset 'pid[D]'
sleep 6

b_written() { sed -n 's/^write_bytes: //p' "/proc/${pid[B]}/io"; }
send_batch() {
  for n in $(seq "$1" "$2"); do
    out=$(ctl A send --to "$d_id" "m$(printf %03d "$n")" 2>&1) || fail "A could not send m$n: $out"
    sleep 0.1
  done
}
echo "== A sends $half messages to D through B"
written0=$(b_written)
send_batch 1 "$half"
sleep 1
held=$(counter B mailbox held)
written1=$(b_written)
[ "$held" -eq "$half" ] || fail "B holds $held messages, not $half"
echo "  B holds $half; bytes written by B meanwhile: $((written1 - written0)) ($(( (written1 - written0) / half )) per held message, $(counter B mailbox commits) commits)"

echo "== kill -9 B and restart it"
kill -KILL "${pid[B]}"; wait "${pid[B]}" 2>/dev/null || true
start B; wait_neighbours B 1; wait_neighbours A 1
[ "$(counter B mailbox held)" -eq "$half" ] || fail "B came back holding $(counter B mailbox held), not $half"
echo "== A sends the other $half"
send_batch $((half + 1)) "$count"
sleep 1
[ "$(counter B mailbox held)" -eq "$count" ] || fail "B holds $(counter B mailbox held), not $count"
ctl B mailbox
flood="${MESHTOOLS_BIN:-}/meshflood"
if [ -n "${MESHTOOLS_BIN:-}" ] && [ -x "$flood" ]; then
  echo "== a neighbour of B mails freshly minted absent IDs, 1,000 a second for 10 s"
  "$flood" --target "127.0.0.1:${port[B]}" --port $((base + 3)) --mode direct --rate 1000 --duration 10 --quiet-after 1 \
    >"$work/flood.log" 2>&1 || fail "meshflood failed: $(tail -n 3 "$work/flood.log")"
  sleep 1
  for_d=$(held_for_d)
  held=$(counter B mailbox held); deposited=$(counter B mailbox deposited)
  evicted=$(ctl B --json stats | python3 -c "import json,sys; c=json.load(sys.stdin)['counters']['mailbox']; print(sum(v for k,v in c.items() if k.startswith('evicted_')))")
  db=$(counter B mailbox database_bytes); rss=$(ctl B --json stats | python3 -c "import json,sys; print(json.load(sys.stdin)['memory']['residentBytes'])")
  echo "  B took $deposited deposits and evicted $evicted of them at the caps (one origin: its 200 first); holds $held ($for_d for D); database $db bytes, resident $rss bytes"
  [ "$for_d" -eq "$count" ] || fail "the flood pushed out D's mail: $for_d of $count left"
  [ "$held" -le $((count + 500)) ] || fail "B holds $held: the depositor cap (500) did not hold"
  [ "$evicted" -gt 0 ] || fail "the flood never reached a cap (deposited $deposited)"
  [ "$db" -le $((16 * 1024 * 1024)) ] || fail "the database grew to $db bytes"
  echo "== kill -9 B in the middle of a second flood (mid-write), then restart it"
  "$flood" --target "127.0.0.1:${port[B]}" --port $((base + 3)) --mode direct --rate 1000 --duration 6 \
    >"$work/flood2.log" 2>&1 &
  flood_pid=$!
  sleep 3
  kill -KILL "${pid[B]}"; wait "${pid[B]}" 2>/dev/null || true
  wait "$flood_pid" 2>/dev/null || true
  start B; wait_neighbours B 1; wait_neighbours A 1
  grep -q "damaged" "$work/B/meshnoded.log" && fail "B found its database damaged after kill -9"
  [ "$(held_for_d)" -eq "$count" ] || fail "after kill -9 mid-write B holds $(held_for_d) of $count for D"
  [ "$(counter B mailbox held)" -le $((count + 1000)) ] || fail "B holds $(counter B mailbox held) after the second flood"
  echo "  B restarted clean, holding $(counter B mailbox held) ($(held_for_d) for D)"
else
  echo "== (no meshflood in MESHTOOLS_BIN: the flood stage is skipped)"
fi
echo "== B stops cleanly; its database is kept aside for the replay"
kill -TERM "${pid[B]}"; wait "${pid[B]}" || true
mkdir -p "$work/replay" && cp "$work/B/mailbox.db"* "$work/replay/"
start B; wait_neighbours B 1; wait_neighbours A 1

echo "== D comes back (B paused until D's watch is connected, so no delivery goes unseen)"
kill -STOP "${pid[B]}"
start D
for _ in $(seq 1 200); do ctl D --json status >/dev/null 2>&1 && break; sleep 0.05; done
ctl D --json watch >"$work/D/watch.jsonl" 2>/dev/null &
watcher=$!
for _ in $(seq 1 100); do [ -s "$work/D/watch.jsonl" ] && break; sleep 0.02; done
back=$(date +%s%N)
kill -CONT "${pid[B]}"
for _ in $(seq 1 600); do [ "$(grep -c '"type":"message"' "$work/D/watch.jsonl" || true)" -ge "$count" ] && break; sleep 0.05; done
handover_ms=$(( ($(date +%s%N) - back) / 1000000 ))
sleep 2
texts=$(grep '"type":"message"' "$work/D/watch.jsonl" | sed -n 's/.*"text":"\(m[0-9]*\)".*/\1/p' | tr '\n' ' ')
expected=$(for n in $(seq 1 "$count"); do printf 'm%03d ' "$n"; done)
[ "$texts" = "$expected" ] || fail "D got '$texts', not '$expected'"
echo "  D got all $count exactly once, in order, ${handover_ms} ms after B resumed (B's dial, handshake, hand-over)"
# B removes a handed-over message once D's link stayed up 2 s after it (PROTOCOL.md G2).
for _ in $(seq 1 50); do [ "$(held_for_d)" -eq 0 ] && break; sleep 0.1; done
[ "$(held_for_d)" -eq 0 ] || fail "B still holds $(held_for_d) for D"

echo "== replay: B restarted on its database from before D came back, after D's seen cache forgot"
sleep 12
seen_before=$(counter D message dropped_seen)
kill -TERM "${pid[B]}"; wait "${pid[B]}" || true
cp "$work/replay/"* "$work/B/"
start B; wait_neighbours D 1
for _ in $(seq 1 100); do [ "$(held_for_d)" -eq 0 ] && break; sleep 0.1; done
sleep 1
seen_after=$(counter D message dropped_seen)
delivered=$(grep -c '"type":"message"' "$work/D/watch.jsonl")
[ "$delivered" -eq "$count" ] || fail "D delivered $delivered messages after the replay, not $count"
[ $((seen_after - seen_before)) -ge "$count" ] || fail "D dropped only $((seen_after - seen_before)) replayed copies as seen"
echo "  all $count handed over again and refused by D's delivery memory (dropped_seen +$((seen_after - seen_before)))"
echo "== a garbage database: B must move it aside with one log line and start with an empty mailbox"
kill -TERM "${pid[B]}"; wait "${pid[B]}" || true
head -c 65536 /dev/urandom >"$work/B/mailbox.db"; rm -f "$work/B/mailbox.db-wal" "$work/B/mailbox.db-shm"
start B; wait_neighbours B 1
lines=$(grep -c "was damaged" "$work/B/meshnoded.log" || true)
[ "$lines" -eq 1 ] || fail "B logged $lines 'damaged' lines, not 1"
ls "$work/B/"mailbox.db.damaged-* >/dev/null 2>&1 || fail "the damaged database was not moved aside"
[ "$(counter B mailbox held)" -eq 0 ] || fail "B holds $(counter B mailbox held) after starting on garbage"
grep "was damaged" "$work/B/meshnoded.log" | sed 's/^/  /'
echo "mailbox-daemons: OK"
