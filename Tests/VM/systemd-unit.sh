#!/bin/bash
# Scenario for `scripts/blelab-run --systemd`: meshnoded installed by `make install` (no DESTDIR)
# and run by systemd as meshnoded.service, with all of its hardening, on Debian's stock
# bluetoothd; a second meshnoded, started by hand on another emulated controller, is its neighbour.
#   make build && scripts/blelab-run --systemd -n 4 -t 900 Tests/VM/systemd-unit.sh [SCRATCH]
# SCRATCH is the scratch path `make build` used (default .build). Checks, in order:
#   1. make install creates user meshnode, the unit, the D-Bus policy and the config;
#   2. systemctl start returns once the daemon said READY=1: active (running), status text,
#      WatchdogUSec 30 s; the state directory is 0700 and owned by meshnode;
#   3. the service's node links with the hand-started node over BLE; relayctl (the default
#      socket /run/meshnoded/control.sock) shows the neighbour;
#   4. a broadcast each way is delivered;
#   5. journald holds the structured MESHNODE_* fields of the service's records;
#   6. systemctl reload keeps it running and logs the reload;
#   7. SIGKILL of the main process: Restart=on-failure starts it again with the same node ID;
#      with a 6 s watchdog (a drop-in) a healthy node stays up and a frozen one is restarted;
#   8. systemctl stop ends it cleanly (Result=success); systemd-analyze security prints its score;
#   9. make uninstall removes the unit and binaries and keeps the identity and the config.
. "$MESHLAB_LIB"
scratch=${1:-.build}
failed=0
stamp() { printf '%7.2f  %s\n' "$(uptime_s)" "$*"; }
fail() { stamp "FAIL: $*"; failed=1; }
wait_until() { # seconds, command...
  local deadline=$(( $(date +%s) + $1 )); shift
  until "$@"; do [ "$(date +%s)" -lt "$deadline" ] || return 1; sleep 1; done
}
prop() { systemctl show meshnoded -p "$1" --value; }
json_number() { sed -n "s/.*\"$1\" *: *\([0-9]*\).*/\1/p" | head -n 1; }
json_text() { sed -n "s/.*\"$1\" *: *\"\([^\"]*\)\".*/\1/p" | head -n 1; }
counter() { $2 --json stats 2>/dev/null | tr -d '\n ' | grep -o "\"message\":{[^}]*}" | grep -o "\"delivered\":[0-9]*" | cut -d: -f2; }
service_ctl() { relayctl "$@"; }
hand_ctl() { relayctl --socket /tmp/mesh-hand/control.sock "$@"; }
neighbours() { [ "$($1 --json status 2>/dev/null | json_number neighbourCount)" -ge 1 ] 2>/dev/null; }
delivered_at_least() { [ "$(counter message "$1")" -ge "$2" ] 2>/dev/null; }

read -r -a adapters <<< "$MESHLAB_ADAPTERS"
[ ${#adapters[@]} -ge 2 ] || { echo "only ${#adapters[@]} adapters: $MESHLAB_ADAPTERS"; exit 3; }
stamp "systemd $(systemctl --version | head -n 1 | cut -d' ' -f2), adapters ${adapters[*]}"

# 1. Install as an operator would.
make install SCRATCH="$scratch" > "$MESHLAB_OUT/install.log" 2>&1 || { cat "$MESHLAB_OUT/install.log"; fail "make install"; exit 1; }
getent passwd meshnode > /dev/null || fail "no user meshnode"
[ -f /etc/systemd/system/meshnoded.service ] || fail "no unit"
[ -f /usr/share/dbus-1/system.d/meshnoded.conf ] || fail "no D-Bus policy"
cat >> /etc/meshnoded/meshnoded.conf <<CONF

# Written by Tests/VM/systemd-unit.sh.
[node]
name = unit node
log_level = debug
[transport]
kind = bluez
[bluez]
adapter = ${adapters[0]}
CONF
meshnoded --config /etc/meshnoded/meshnoded.conf --check-config || fail "--check-config refused the config"

# 2. Start under systemd.
if systemctl start meshnoded; then stamp "systemctl start returned"; else fail "systemctl start"; fi
[ "$(prop ActiveState)/$(prop SubState)" = active/running ] || fail "state $(prop ActiveState)/$(prop SubState)"
stamp "status text: $(prop StatusText); watchdog $(prop WatchdogUSec)"
[ "$(prop WatchdogUSec)" = 30s ] || fail "WatchdogUSec is $(prop WatchdogUSec)"
[ "$(stat -c '%a %U' /var/lib/meshnoded)" = "700 meshnode" ] || fail "state directory is $(stat -c '%a %U' /var/lib/meshnoded)"

# 3. A neighbour over BLE, started by hand on the second adapter.
mkdir -p /tmp/mesh-hand
meshnoded --transport bluez --adapter "${adapters[1]}" --state-directory /tmp/mesh-hand \
  --runtime-directory /tmp/mesh-hand --name "hand node" --control-group root > "$MESHLAB_OUT/meshnoded-hand.log" 2>&1 &
hand=$!
if wait_until 300 neighbours service_ctl && wait_until 60 neighbours hand_ctl; then
  stamp "linked: the service and the hand-started node are neighbours"
else
  fail "the nodes did not link"
fi
service_ctl peers | tee "$MESHLAB_OUT/peers-service.txt"

# 4. Broadcasts both ways.
hand_ctl send "from the hand node" > /dev/null
wait_until 60 delivered_at_least service_ctl 1 && stamp "hand -> service delivered" || fail "hand -> service not delivered"
service_ctl send "from the service" > /dev/null
wait_until 60 delivered_at_least hand_ctl 1 && stamp "service -> hand delivered" || fail "service -> hand not delivered"

# 5. Structured journal fields.
journalctl -u meshnoded -o json --no-pager > "$MESHLAB_OUT/journal-meshnoded.json"
for field in MESHNODE_NODE MESHNODE_PEER MESHNODE_LINK; do
  grep -q "\"$field\"" "$MESHLAB_OUT/journal-meshnoded.json" || fail "no $field in the journal"
done
stamp "journal: $(wc -l < "$MESHLAB_OUT/journal-meshnoded.json") records of meshnoded.service"
# Nothing the hardening refuses may show: refusals in the daemon's warnings, or lines from the runtime.
journalctl -u meshnoded -p warning --no-pager -o cat | grep -Ei 'not permitted|denied|cannot' > "$MESHLAB_OUT/refusals.txt"
[ -s "$MESHLAB_OUT/refusals.txt" ] && fail "refused under the unit: $(head -n 3 "$MESHLAB_OUT/refusals.txt")"
# errno=1 would be the unit's system call filter; errno=13, once per start, is the kernel
# refusing a priority above the default (no CAP_SYS_NICE), which is meant.
journalctl -u meshnoded --no-pager | grep -q 'Failed to set thread priority.*errno=1$' && fail "the system call filter refuses setpriority"

# 6. Reload.
before_id=$(service_ctl --json id | json_text nodeID)
systemctl reload meshnoded || fail "systemctl reload"
wait_until 10 sh -c 'journalctl -u meshnoded --no-pager | grep -q "reloaded"' || fail "no reload in the journal"
[ "$(prop ActiveState)" = active ] || fail "not active after reload"

# 7. Crash and restart.
main=$(prop MainPID)
kill -9 "$main"
wait_until 30 sh -c '[ "$(systemctl show meshnoded -p NRestarts --value)" -ge 1 ] && systemctl is-active -q meshnoded' \
  && stamp "restarted after SIGKILL (NRestarts=$(prop NRestarts))" || fail "no restart after SIGKILL"
wait_until 30 sh -c 'relayctl --json id > /dev/null 2>&1'
[ "$(service_ctl --json id | json_text nodeID)" = "$before_id" ] || fail "node ID changed across the restart"

# 7b. The watchdog, shortened to 6 s by a drop-in: keep-alives hold a healthy node up; a
#     frozen one (SIGSTOP) is killed by systemd and started again.
timeouts() { journalctl -u meshnoded --no-pager | grep -c 'Watchdog timeout'; }
mkdir -p /etc/systemd/system/meshnoded.service.d
printf '[Service]\nWatchdogSec=6s\n' > /etc/systemd/system/meshnoded.service.d/watchdog-test.conf
systemctl daemon-reload
systemctl restart meshnoded || fail "restart with the short watchdog"
seen=$(timeouts)
sleep 15
[ "$(timeouts)" = "$seen" ] && systemctl is-active -q meshnoded && stamp "15 s on a 6 s watchdog: kept alive" \
  || fail "a healthy node hit the watchdog"
restarts=$(prop NRestarts)
kill -STOP "$(prop MainPID)"
wait_until 40 sh -c "[ \$(systemctl show meshnoded -p NRestarts --value) -gt $restarts ] && systemctl is-active -q meshnoded" \
  && [ "$(timeouts)" -gt "$seen" ] && stamp "frozen node: watchdog timeout, restarted" || fail "a frozen node was not restarted by the watchdog"
rm -r /etc/systemd/system/meshnoded.service.d
systemctl daemon-reload
systemctl restart meshnoded || fail "restart without the drop-in"

# 8. Stop, and the hardening score.
systemctl stop meshnoded
[ "$(prop Result)" = success ] || fail "stop result $(prop Result)"
[ "$(prop ActiveState)" = inactive ] || fail "state after stop $(prop ActiveState)"
systemd-analyze security meshnoded --no-pager | tail -n 1
kill -TERM "$hand"; wait "$hand" || fail "hand node exited $?"
journalctl -u meshnoded --no-pager > "$MESHLAB_OUT/journal-meshnoded.txt"

# 9. Uninstall: the unit and binaries go, the node's identity and config stay.
make uninstall SCRATCH="$scratch" >> "$MESHLAB_OUT/install.log" 2>&1 || fail "make uninstall"
[ -e /etc/systemd/system/meshnoded.service ] && fail "unit still installed"
[ -e /usr/local/bin/meshnoded ] && fail "meshnoded still installed"
[ "$(systemctl show meshnoded -p LoadState --value)" = not-found ] || fail "systemd still loads meshnoded"
[ -f /var/lib/meshnoded/identity.key ] || fail "uninstall removed the node identity"
[ -f /etc/meshnoded/meshnoded.conf ] || fail "uninstall removed the config"
stamp "uninstalled; identity and config kept"
stamp "result: $([ $failed = 0 ] && echo PASS || echo FAIL)"
exit $failed
