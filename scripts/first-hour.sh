#!/usr/bin/env bash
# The "First hour" transcript of docs/OPERATIONS.md, from real output: a bad configuration, a
# good one, three meshnoded on a loopback UDP line, relayctl status/peers/watch/send, a doctor run
# on a UDP node and a socket error. Takes a few seconds.
#
#   scripts/first-hour.sh --write   run it and put the transcript into docs/OPERATIONS.md
#   scripts/first-hour.sh --check   run it and compare with the document (scripts/test.sh runs this)
#
# The comparison ignores what differs from run to run and machine to machine, and only that:
# node and message IDs, times, ages and uptimes, sizes, ports, link numbers, process IDs, user names, and the
# doctor lines about this machine's clock and disk (and the summary and exit status 75 they change). Everything else must
# be byte for byte what the programs print now. MESHNODE_BIN picks the binaries (default: swift
# build --show-bin-path).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
mode=${1:---check}
bin=${MESHNODE_BIN:-$(cd "$root" && swift build --show-bin-path)}
doc="$root/docs/OPERATIONS.md"
begin='<!-- first-hour transcript: begin (scripts/first-hour.sh --write) -->'
end='<!-- first-hour transcript: end -->'

# A short fixed directory, so the transcript shows the same paths each run; one run at a time.
base=/tmp/meshnode-first-hour
exec 9>"$base.lock"
flock 9
rm -rf "$base"
mkdir -p "$base"
pids=()
cleanup() {
    for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null || true; done
    for pid in "${pids[@]}"; do wait "$pid" 2>/dev/null || true; done
    rm -rf "$base"
}
trap cleanup EXIT
port=$((27400 + $$ % 200 * 3))
export PATH="$bin:$PATH"
unset RELAYCTL_SOCKET NO_COLOR INVOCATION_ID NOTIFY_SOCKET

out="$base/transcript"
: > "$out"
# show COMMAND...: the command as typed, its output, and its exit status when not 0.
show() {
    printf '$ %s\n' "$*" >> "$out"
    local status=0
    (cd "$base" && eval "$@") >> "$out" 2>&1 || status=$?
    if [ "$status" -ne 0 ]; then printf '(exit %s)\n' "$status" >> "$out"; fi
}
# wait_for SOCKET PYTHON-CONDITION: polls relayctl --json status until the condition on `s` holds.
wait_for() {
    local socket=$1 condition=$2
    for _ in $(seq 1 150); do
        if relayctl --socket "$socket" --json status 2>/dev/null \
            | python3 -c "import json,sys; s=json.load(sys.stdin); sys.exit(0 if ($condition) else 1)" 2>/dev/null; then
            return 0
        fi
        sleep 0.1
    done
    echo "first-hour: timed out waiting for $socket: $condition" >&2
    exit 1
}

for n in 1 2 3; do
    mkdir -p "$base/n$n"
    next=$((port + n))
    names=(x one two three)
    {
        printf '[node]\nname = %s\nstate_directory = %s/n%s/state\nruntime_directory = %s/n%s\n' \
            "${names[$n]}" "$base" "$n" "$base" "$n"
        printf '[transport]\nkind = udp\n[udp]\nport = %s\n' "$((port + n - 1))"
        [ "$n" -lt 3 ] && printf 'neighbours = 127.0.0.1:%s\n' "$next"
    } > "$base/n$n.conf"
done
sed "s/^port = .*/port = 70000/" "$base/n1.conf" > "$base/bad.conf"

show meshnoded --config bad.conf --check-config
show meshnoded --config n1.conf --check-config
show "meshnoded --config n1.conf --print-config | head -4"
for n in 1 2 3; do
    meshnoded --config "$base/n$n.conf" > "$base/n$n.log" 2>&1 &
    pids+=($!)
done
printf '$ %s\n' "meshnoded --config n1.conf &   # and n2.conf, n3.conf: a line one - two - three" >> "$out"
wait_for "$base/n2/control.sock" 's["neighbourCount"] == 2 and s["clock"]["synchronised"]'
wait_for "$base/n1/control.sock" 's["neighbourCount"] == 1 and s["knownNodeCount"] == 1'
wait_for "$base/n3/control.sock" 's["neighbourCount"] == 1 and s["knownNodeCount"] == 1'
show relayctl --socket n2/control.sock status
show relayctl --socket n1/control.sock peers
relayctl --socket "$base/n1/control.sock" watch > "$base/watch.out" 2>&1 &
watcher=$!
pids+=("$watcher")
for _ in $(seq 1 50); do grep -q '^watching' "$base/watch.out" && break; sleep 0.1; done
show relayctl --socket n3/control.sock send hello from three
for _ in $(seq 1 50); do grep -q 'message' "$base/watch.out" && break; sleep 0.1; done
kill "$watcher"
wait "$watcher" 2>/dev/null || true
printf '$ %s\n' "relayctl --socket n1/control.sock watch      # in another terminal; Ctrl-C stops it" >> "$out"
cat "$base/watch.out" >> "$out"
show relayctl --socket n2/control.sock doctor
show relayctl --socket n2 status

block() {
    printf '%s\n\n' "$begin"
    sed 's/^/    /' "$out"
    printf '\n%s\n' "$end"
}

# What may differ between runs and machines, masked on both sides before comparing.
mask() {
    sed -E \
        -e 's/[0-9a-f]{32}/<ID>/g' -e 's/\b[0-9a-f]{8}\b/<SHORT>/g' \
        -e 's/\b[0-9]{2}:[0-9]{2}:[0-9]{2}\b/<TIME>/g' \
        -e 's/\b[0-9]+(d|h|m|s)( [0-9]+(h|m|s))?\b/<AGE>/g' \
        -e 's/\b[0-9]+(\.[0-9])? (B|KiB|MiB|GiB|TiB)\b/<SIZE>/g' \
        -e 's/127\.0\.0\.1:[0-9]+/127.0.0.1:<PORT>/g' -e 's/#[0-9]+ /#<LINK> /g' -e 's/pid [0-9]+/pid <PID>/g' -e 's/(user|owner) [a-z_][a-z0-9_-]*/\1 <USER>/g' \
        -e 's/ +$//' \
        | awk '
            /^ *(OK|WARN|FAIL|SKIP) +(clock|mesh-clock|disk-space) / { skip = 1; next }
            skip && /^ +-> / { next }
            { skip = 0 }
            /^ *worst: / { next }
            /^ *\(exit 75\)$/ { next }
            { print }'
}

case $mode in
    --write)
        python3 - "$doc" "$begin" "$end" "$(block)" <<'PY'
import sys
path, begin, end, block = sys.argv[1:]
text = open(path, encoding="utf-8").read()
start = text.index(begin)
stop = text.index(end) + len(end)
open(path, "w", encoding="utf-8").write(text[:start] + block + text[stop:])
PY
        echo "first-hour: wrote the transcript into docs/OPERATIONS.md"
        ;;
    --check)
        awk -v b="$begin" -v e="$end" '$0 == b { on = 1 } on { print } $0 == e { on = 0 }' "$doc" | mask > "$base/documented"
        block | mask > "$base/now"
        if ! diff -u "$base/documented" "$base/now"; then
            echo "first-hour: docs/OPERATIONS.md's transcript is stale; run scripts/first-hour.sh --write" >&2
            exit 1
        fi
        echo "first-hour: the transcript in docs/OPERATIONS.md matches what the programs print"
        ;;
    *) echo "usage: scripts/first-hour.sh --write | --check" >&2; exit 64 ;;
esac
