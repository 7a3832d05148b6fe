#!/bin/bash
# Scenario for `scripts/blelab-run --systemd`: meshnoded installed from its Debian package
# (`make deb`, not `make install`) and run by systemd as meshnoded.service, with all of its
# hardening, on Debian's stock bluetoothd; a second meshnoded, started by hand on another
# emulated controller, is its neighbour.
#   make build && make deb && make deb VERSION=X+1 DEBDIR=... &&
#   scripts/blelab-run --systemd -n 4 -t 900 Tests/VM/systemd-unit.sh DEB DEB_UPGRADE
# (scripts/test-systemd.sh does all of it). Checks, in order:
#   1. dpkg -i installs it: user meshnode (sysusers.d), the unit enabled and started by the
#      package itself, the D-Bus policy, the conffile, man pages, completion, the metrics timer
#      disabled; the configuration is then edited as an operator would;
#   2. systemctl restart returns once the daemon said READY=1: active (running), status text,
#      WatchdogUSec 30 s; the state directory is 0700 and owned by meshnode;
#   3. the service's node links with the hand-started node over BLE; relayctl (the default
#      socket /run/meshnoded/control.sock) shows the neighbour;
#   4. a broadcast each way is delivered; `relayctl doctor` finds the package's set-up and the unit OK;
#   5. journald holds the structured MESHNODE_* fields of the service's records;
#   6. systemctl reload keeps it running and logs the reload;
#   7. SIGKILL of the main process: Restart=on-failure starts it again with the same node ID;
#      with a 6 s watchdog (a drop-in) a healthy node stays up and a frozen one is restarted;
#   7b. as a gateway ([mqtt], the shipped example drop-in, a mosquitto with a password given as a
#      systemd credential, on 192.0.2.10 added to lo): the unit's firewall keeps the broker out until
#      the drop-in's IPAddressAllow= names it; then the bridge connects, a broadcast crosses each way exactly
#      once (BLE hand node -> service -> broker -> a UDP gateway, and back), the password is in no
#      journal record or --print-config, and the security report is unchanged once [mqtt] is off;
#   8. systemctl stop ends it cleanly (Result=success); systemd-analyze security prints its score;
#   9. meshnoded-metrics.service writes the metrics file, which python3-prometheus-client parses;
#  10. dpkg -i of the package with a higher version: the config edit and the identity are kept,
#      the service is restarted exactly once (one stop, one start, a new invocation);
#  11. dpkg -r: the service is stopped and its files gone; config, identity and user kept;
#  12. dpkg -P: config, identity, user and group gone.
. "$MESHLAB_LIB"
deb=$1
deb_upgrade=$2
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

# 1. Install as an operator would: the package enables and starts the unit by itself.
export DEBIAN_FRONTEND=noninteractive
# The VM's root is this machine's, and a container image's /usr/sbin/policy-rc.d forbids
# starting services from packages (exit 101); a Pi has none. Set it aside, as a Pi would be.
if [ -e /usr/sbin/policy-rc.d ]; then
  mv /usr/sbin/policy-rc.d /usr/sbin/policy-rc.d.meshlab-aside
  stamp "set aside /usr/sbin/policy-rc.d (a container's)"
fi
# man-db's trigger re-indexes every manual page, minutes under emulation; `man` finds pages without it.
rm -f /var/lib/man-db/auto-update
[ -f "$deb" ] && [ -f "$deb_upgrade" ] || { fail "packages not found: $deb $deb_upgrade"; exit 1; }
dpkg -i "$deb" < /dev/null > "$MESHLAB_OUT/install.log" 2>&1 || { cat "$MESHLAB_OUT/install.log"; fail "dpkg -i $deb"; exit 1; }
stamp "installed $(dpkg-query -W -f='${Package} ${Version} ${Status}' meshnoded)"
getent passwd meshnode > /dev/null || fail "no user meshnode"
[ "$(getent passwd meshnode | cut -d: -f6,7)" = /var/lib/meshnoded:/usr/sbin/nologin ] || fail "user meshnode: $(getent passwd meshnode)"
for file in /usr/bin/meshnoded /usr/bin/relayctl /usr/lib/systemd/system/meshnoded.service /usr/lib/sysusers.d/meshnoded.conf \
  /usr/share/dbus-1/system.d/meshnoded.conf /etc/meshnoded/meshnoded.conf /usr/share/bash-completion/completions/relayctl \
  /usr/lib/systemd/system/meshnoded-metrics.timer /usr/libexec/meshnoded/meshnoded-metrics; do
  [ -e "$file" ] || fail "the package did not install $file"
done
for page in meshnoded relayctl meshnoded.conf; do man -w "$page" > /dev/null 2>&1 || fail "no man page $page"; done
wait_until 60 systemctl is-active -q meshnoded && stamp "the package started meshnoded by itself: $(prop ActiveState)/$(prop SubState)" \
  || fail "meshnoded did not come up after install: $(prop ActiveState)/$(prop SubState)"
[ "$(systemctl is-enabled meshnoded)" = enabled ] || fail "meshnoded is $(systemctl is-enabled meshnoded) after install"
[ "$(systemctl is-enabled meshnoded-metrics.timer)" = disabled ] || fail "the metrics timer is $(systemctl is-enabled meshnoded-metrics.timer)"
wait_until 30 test -f /var/lib/meshnoded/identity.key || fail "no identity after the first start"
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

# 2. Restart under systemd with the edited configuration.
if systemctl restart meshnoded; then stamp "systemctl restart returned"; else fail "systemctl restart"; fi
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

# 4b. relayctl doctor on the installed service: every check of the package's set-up and the unit OK
# (the clock may WARN: this VM has no NTP; no line may FAIL).
relayctl doctor > "$MESHLAB_OUT/doctor-systemd.txt" 2>&1
code=$?
stamp "relayctl doctor: exit $code"
sed 's/^/          /' "$MESHLAB_OUT/doctor-systemd.txt"
[ "$code" = 0 ] || [ "$code" = 75 ] || fail "relayctl doctor exited $code"
for check in bluetoothd adapter roles advertising dbus-policy service-user control-group state-directory identity \
  disk-space unit control-socket; do
  label=$(awk -v check="$check" '$2 == check { print $1; exit }' "$MESHLAB_OUT/doctor-systemd.txt")
  [ "$label" = OK ] || fail "relayctl doctor: $check is ${label:-missing}, not OK"
done

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

# 7a. The watchdog, shortened to 6 s by a drop-in: keep-alives hold a healthy node up; a
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
# (7b's first restart follows: every restart churns the BLE link, under which the emulated
# bluetoothd has been seen to crash.)

# 7b. A gateway, made as OPERATIONS.md "Bridging islands" says: a mosquitto that wants a password,
#     standing for one on another machine; the password, a throwaway one, as the systemd credential
#     mqtt-password through the drop-in the package ships as an example (not in effect until copied);
#     [mqtt] in the config. The unit keeps the broker out until the drop-in's IPAddressAllow= names it;
#     then the bridge connects (status line, mqtt counters); a broadcast from the hand node (BLE) goes out
#     through the service and is seen on the broker; one from a second gateway (UDP, no link to this
#     island) comes in through the broker and reaches the service and, over BLE, the hand node, each
#     exactly once; the password is in no journal record and not in --print-config; with the drop-in
#     gone and [mqtt] off again, systemd-analyze security prints what it printed before, line for line.
mqtt_stat() { relayctl --json stats 2>/dev/null | tr -d '\n ' | grep -o '"mqtt":{[^}]*}' | grep -o "\"$1\":[0-9]*" | cut -d: -f2; }
far_ctl() { relayctl --socket /tmp/mesh-far/control.sock "$@"; }
bridge_connected() { relayctl --json status 2>/dev/null | tr -d '\n ' | grep -q '"bridge":{[^}]*"state":"connected"'; }
far_connected() { far_ctl --json status 2>/dev/null | tr -d '\n ' | grep -q '"bridge":{[^}]*"state":"connected"'; }
security_report() { systemd-analyze security meshnoded --no-pager 2>&1; }
security_report > "$MESHLAB_OUT/security-before-mqtt.txt"
# The broker stands for one on another machine: it listens only on 192.0.2.10 (TEST-NET-1, added to lo),
# which the unit's IPAddressAllow=localhost does not cover; the example drop-in names that address.
broker_port=18830 broker=/tmp/mesh-broker broker_ip=192.0.2.10
ip address add "$broker_ip/32" dev lo || fail "cannot add $broker_ip to lo"
mkdir -p "$broker" /etc/meshnode /tmp/mesh-far/credentials
secret=$(openssl rand -hex 16); observer=$(openssl rand -hex 16)
touch "$broker/passwd" && chmod 0600 "$broker/passwd"
mosquitto_passwd -b "$broker/passwd" gateway "$secret" && mosquitto_passwd -b "$broker/passwd" observer "$observer" \
  || fail "mosquitto_passwd"
printf 'listener %s %s\nallow_anonymous false\npassword_file %s/passwd\nuser root\n' "$broker_port" "$broker_ip" "$broker" > "$broker/mosquitto.conf"
mosquitto -c "$broker/mosquitto.conf" > "$MESHLAB_OUT/mosquitto.log" 2>&1 &
mosquitto_pid=$!
wait_until 10 bash -c "exec 3<>/dev/tcp/$broker_ip/$broker_port" 2> /dev/null || fail "mosquitto does not listen on $broker_port"
( umask 0077; printf '%s\n' "$secret" > /etc/meshnode/mqtt-password; printf '%s\n' "$secret" > /tmp/mesh-far/credentials/mqtt-password )
example=/usr/share/doc/meshnoded/examples/mqtt-gateway.conf
[ -f "$example" ] || fail "the package did not install $example"
mkdir -p /etc/systemd/system/meshnoded.service.d
cp "$example" /etc/systemd/system/meshnoded.service.d/mqtt-gateway.conf
cp /etc/meshnoded/meshnoded.conf "$MESHLAB_OUT/meshnoded.conf.before-mqtt"
cat >> /etc/meshnoded/meshnoded.conf <<CONF
[mqtt]
enabled = true
host = $broker_ip
port = $broker_port
mesh = vmtest
username = gateway
password_file = mqtt-password
CONF
meshnoded --config /etc/meshnoded/meshnoded.conf --check-config || fail "--check-config refused the [mqtt] config"
# First as shipped (IPAddressAllow= commented out): the unit's firewall keeps the broker out, and
# status says so. Then with the broker's address allowed, as the example says to.
# (The kernel drops the SYN in silence: the bridge stays `connecting` until TCP gives up.)
broker_clients() { grep -c 'New client connected.* as meshnoded-' "$MESHLAB_OUT/mosquitto.log"; }
# The hand node goes away while the service restarts twice: a restart under a live BLE link churns
# it, and the emulated bluetoothd then left the bus in 2 of 4 runs; it comes back afterwards.
kill -TERM "$hand"; wait "$hand" || fail "hand node exited $?"
systemctl daemon-reload
systemctl restart meshnoded || fail "restart as a gateway: $(journalctl -u meshnoded --no-pager -o cat | tail -n 3)"
sleep 10
if ! bridge_connected && [ "$(broker_clients)" = 0 ]; then
  stamp "IPAddressAllow= not set: kept out for 10 s ($(relayctl status | grep -E '^ *mqtt ' | sed 's/^ *//'); the broker saw no client)"
else
  fail "a broker outside IPAddressAllow= was not kept out: $(relayctl status 2>&1 | grep -E '^ *mqtt '), $(broker_clients) clients at the broker"
fi
sed -i "s/^#IPAddressAllow=192\.0\.2\.10$/IPAddressAllow=$broker_ip/" /etc/systemd/system/meshnoded.service.d/mqtt-gateway.conf
grep -q "^IPAddressAllow=$broker_ip$" /etc/systemd/system/meshnoded.service.d/mqtt-gateway.conf || fail "the example has no IPAddressAllow= line to set"
mqtt_cursor=$(journalctl -n 0 --show-cursor -q | sed -n 's/^-- cursor: //p')
systemctl daemon-reload
systemctl restart meshnoded || fail "restart as a gateway: $(journalctl -u meshnoded --no-pager -o cat | tail -n 3)"
if wait_until 60 bridge_connected; then
  stamp "gateway: $(relayctl status | grep -E '^ *mqtt ' | sed 's/^ *//')"
else
  fail "the bridge did not connect: $(relayctl status 2>&1 | grep -E '^ *mqtt ')"
fi
relayctl status | grep -qE '^ *mqtt +connected to '"$broker_ip:$broker_port"'$' || fail "status has no line 'mqtt connected to $broker_ip:$broker_port'"
[ "$(mqtt_stat connects)" -ge 1 ] 2>/dev/null || fail "mqtt.connects is $(mqtt_stat connects)"
# The second gateway: UDP only (no link to the BLE island), the same broker, its password as a credential.
CREDENTIALS_DIRECTORY=/tmp/mesh-far/credentials meshnoded --transport udp --udp-port 17001 --state-directory /tmp/mesh-far \
  --runtime-directory /tmp/mesh-far --name "far gateway" --control-group root --mqtt true --mqtt-host "$broker_ip" \
  --mqtt-port "$broker_port" --mqtt-mesh vmtest --mqtt.username=gateway --mqtt.password_file=mqtt-password \
  > "$MESHLAB_OUT/meshnoded-far.log" 2>&1 &
far=$!
wait_until 30 far_connected || fail "the far gateway did not connect"
# (It reads /etc/meshnoded/meshnoded.conf too, now with the gateway's [mqtt]: --mqtt false.)
meshnoded --transport bluez --adapter "${adapters[1]}" --state-directory /tmp/mesh-hand --mqtt false \
  --runtime-directory /tmp/mesh-hand --name "hand node" --control-group root >> "$MESHLAB_OUT/meshnoded-hand.log" 2>&1 &
hand=$!
wait_until 120 neighbours service_ctl && wait_until 60 neighbours hand_ctl || fail "the hand node did not link again"
# Out: hand (BLE) -> service -> broker, seen by an observer and delivered at the far gateway once.
mosquitto_sub -h "$broker_ip" -p "$broker_port" -u observer -P "$observer" -t 'relaychat/v1/vmtest/#' -F '%t %x' \
  > "$MESHLAB_OUT/broker-observed.txt" 2> "$MESHLAB_OUT/mosquitto_sub.log" &
observer_pid=$!
sleep 2
far_before=$(counter message far_ctl); published_before=$(mqtt_stat published)
out_id=$(hand_ctl --json send "hand to the far island" | json_text messageID)
if wait_until 60 delivered_at_least far_ctl $((far_before + 1)); then stamp "hand (BLE) -> service -> broker -> far gateway: delivered"
else fail "the hand node's broadcast did not reach the far gateway"; fi
wait_until 10 grep -qi "^relaychat/v1/vmtest/broadcast .*${out_id}" "$MESHLAB_OUT/broker-observed.txt" \
  && stamp "the observer saw $out_id on relaychat/v1/vmtest/broadcast" || fail "the observer did not see $out_id on the broadcast topic"
[ "$(mqtt_stat published)" -gt "$published_before" ] 2>/dev/null || fail "mqtt.published did not move"
# In: far gateway -> broker -> service -> hand (BLE).
service_before=$(counter message service_ctl); hand_before=$(counter message hand_ctl); admitted_before=$(mqtt_stat admitted)
far_ctl send "from the far island" > /dev/null
wait_until 60 delivered_at_least service_ctl $((service_before + 1)) && stamp "far gateway -> broker -> service: delivered" \
  || fail "the far gateway's broadcast did not reach the service"
wait_until 60 delivered_at_least hand_ctl $((hand_before + 1)) && stamp "far gateway -> broker -> service -> hand (BLE): delivered" \
  || fail "the far gateway's broadcast did not reach the hand node"
[ "$(mqtt_stat admitted)" -gt "$admitted_before" ] 2>/dev/null || fail "mqtt.admitted did not move"
sleep 5   # a second copy, if any, would have arrived by now
[ "$(counter message far_ctl)" = $((far_before + 1)) ] || fail "the far gateway delivered $(( $(counter message far_ctl) - far_before )) copies"
[ "$(counter message service_ctl)" = $((service_before + 1)) ] || fail "the service delivered $(( $(counter message service_ctl) - service_before )) copies"
[ "$(counter message hand_ctl)" = $((hand_before + 1)) ] || fail "the hand node delivered $(( $(counter message hand_ctl) - hand_before )) copies"
relayctl --json stats | tr -d '\n ' | grep -o '"mqtt":{[^}]*}' > "$MESHLAB_OUT/mqtt-stats.json"
stamp "mqtt counters: $(cat "$MESHLAB_OUT/mqtt-stats.json")"
# The secret: in no journal record (all units, JSON with every field) and not in --print-config.
journalctl --no-pager -o json > "$MESHLAB_OUT/journal-all.json"
grep -qF "$secret" "$MESHLAB_OUT/journal-all.json" && fail "the MQTT password is in the journal"
printed=$(CREDENTIALS_DIRECTORY=/etc/meshnode meshnoded --config /etc/meshnoded/meshnoded.conf --print-config 2>&1)
grep -q 'password_file = mqtt-password' <<< "$printed" || fail "--print-config lacks password_file"
grep -qF "$secret" <<< "$printed" && fail "the MQTT password is in --print-config"
grep -qF "$secret" "$MESHLAB_OUT"/meshnoded-*.log "$MESHLAB_OUT/command.log" 2> /dev/null && fail "the MQTT password is in a log"
journalctl -u meshnoded --after-cursor="$mqtt_cursor" -p warning --no-pager -o cat | grep -Ei 'not permitted|denied' \
  && fail "refused under the unit as a gateway"
security_report > "$MESHLAB_OUT/security-gateway.txt"
# Back to a node that bridges nothing: the drop-in gone, [mqtt] off.
kill "$observer_pid" 2> /dev/null; kill -TERM "$far"; wait "$far" || fail "far gateway exited $?"
cp "$MESHLAB_OUT/meshnoded.conf.before-mqtt" /etc/meshnoded/meshnoded.conf
rm -r /etc/systemd/system/meshnoded.service.d
systemctl daemon-reload   # step 8 stops the gateway; step 9 starts the node without [mqtt]
kill "$mosquitto_pid"; wait "$mosquitto_pid" 2> /dev/null
ip address del "$broker_ip/32" dev lo
security_report > "$MESHLAB_OUT/security-after-mqtt.txt"
if cmp -s "$MESHLAB_OUT/security-before-mqtt.txt" "$MESHLAB_OUT/security-after-mqtt.txt"; then
  stamp "[mqtt] off again: systemd-analyze security as before ($(tail -n 1 "$MESHLAB_OUT/security-after-mqtt.txt"))"
else
  fail "systemd-analyze security changed: $(diff "$MESHLAB_OUT/security-before-mqtt.txt" "$MESHLAB_OUT/security-after-mqtt.txt" | head -n 4)"
fi
cmp -s "$MESHLAB_OUT/security-before-mqtt.txt" "$MESHLAB_OUT/security-gateway.txt" \
  && stamp "as a gateway (the example drop-in, IPAddressAllow=$broker_ip): the same report" \
  || stamp "as a gateway (IPAddressAllow=$broker_ip): $(diff "$MESHLAB_OUT/security-before-mqtt.txt" "$MESHLAB_OUT/security-gateway.txt" | grep '^[<>]' | tr -s ' ' | head -n 4)"

# 8. Stop, and the hardening score.
systemctl stop meshnoded
[ "$(prop Result)" = success ] || fail "stop result $(prop Result)"
[ "$(prop ActiveState)" = inactive ] || fail "state after stop $(prop ActiveState)"
tail -n 1 "$MESHLAB_OUT/security-after-mqtt.txt"   # 7b's report of the unit as shipped
kill -TERM "$hand"; wait "$hand" || fail "hand node exited $?"
journalctl -u meshnoded --no-pager > "$MESHLAB_OUT/journal-meshnoded.txt"

# 9. The metrics timer's service writes a file node_exporter's textfile collector can read.
systemctl start meshnoded
wait_until 30 sh -c 'relayctl --json id > /dev/null 2>&1' || fail "no control socket after start"
if systemctl start meshnoded-metrics.service; then
  prom=/var/lib/prometheus/node-exporter/meshnoded.prom
  /usr/bin/python3 -c 'import sys; from prometheus_client.parser import text_string_to_metric_families as parse
names = {s.name for f in parse(open(sys.argv[1]).read()) for s in f.samples}
assert {"meshnode_uptime_seconds", "meshnode_message_relayed_total"} <= names, names
print(len(names), "metric names parsed")' "$prom" > "$MESHLAB_OUT/metrics-parse.txt" 2>&1 \
    && stamp "metrics: $(cat "$MESHLAB_OUT/metrics-parse.txt") from $prom ($(stat -c '%a %U' "$prom"))" \
    || fail "metrics file did not parse: $(tail -n 3 "$MESHLAB_OUT/metrics-parse.txt")"
else
  fail "meshnoded-metrics.service failed: $(journalctl -u meshnoded-metrics --no-pager -o cat | tail -n 3)"
fi

# 10. Upgrade to the rebuilt package: config edit and identity kept, one restart.
identity_hash=$(sha256sum < /var/lib/meshnoded/identity.key)
config_hash=$(sha256sum < /etc/meshnoded/meshnoded.conf)
node_id=$(service_ctl --json id | json_text nodeID)
invocation=$(prop InvocationID)
restarts=$(prop NRestarts)
cursor=$(journalctl -n 0 --show-cursor -q | sed -n 's/^-- cursor: //p')
dpkg -i "$deb_upgrade" < /dev/null >> "$MESHLAB_OUT/install.log" 2>&1 || { tail -n 20 "$MESHLAB_OUT/install.log"; fail "dpkg -i $deb_upgrade"; }
stamp "upgraded to $(dpkg-query -W -f='${Version}' meshnoded)"
[ "$(dpkg-query -W -f='${Version}' meshnoded)" = "$(dpkg-deb -f "$deb_upgrade" Version)" ] || fail "the version did not change"
[ "$(sha256sum < /etc/meshnoded/meshnoded.conf)" = "$config_hash" ] || fail "the upgrade changed the edited configuration"
grep -q '^name = unit node$' /etc/meshnoded/meshnoded.conf || fail "the configuration edit is gone"
[ ! -e /etc/meshnoded/meshnoded.conf.dpkg-new ] && [ ! -e /etc/meshnoded/meshnoded.conf.dpkg-old ] || fail "dpkg left .dpkg-new/.dpkg-old files"
[ "$(sha256sum < /var/lib/meshnoded/identity.key)" = "$identity_hash" ] || fail "the upgrade changed the identity"
wait_until 30 systemctl is-active -q meshnoded || fail "not active after the upgrade"
wait_until 30 sh -c 'relayctl --json id > /dev/null 2>&1'
[ "$(service_ctl --json id | json_text nodeID)" = "$node_id" ] || fail "node ID changed across the upgrade"
[ "$(prop InvocationID)" != "$invocation" ] || fail "the upgrade did not restart meshnoded"
[ "$(prop NRestarts)" = "$restarts" ] || fail "NRestarts went from $restarts to $(prop NRestarts): a crash during the upgrade"
journalctl -u meshnoded --after-cursor="$cursor" --no-pager -o cat > "$MESHLAB_OUT/journal-upgrade.txt"
starts=$(grep -c '^Started meshnoded.service' "$MESHLAB_OUT/journal-upgrade.txt")
stops=$(grep -c '^Stopped meshnoded.service' "$MESHLAB_OUT/journal-upgrade.txt")
[ "$starts/$stops" = 1/1 ] && stamp "upgrade: restarted once (1 stop, 1 start), node $node_id, config and identity kept" \
  || fail "upgrade: $stops stops and $starts starts of meshnoded.service (want 1 and 1)"

# 11. Remove: stopped, files gone; configuration, identity and user kept.
dpkg -r meshnoded < /dev/null >> "$MESHLAB_OUT/install.log" 2>&1 || fail "dpkg -r"
[ "$(dpkg-query -W -f='${Status}' meshnoded)" = "deinstall ok config-files" ] || fail "status after remove: $(dpkg-query -W -f='${Status}' meshnoded)"
pgrep -x meshnoded > /dev/null && fail "meshnoded still running after remove"
# Removed but not purged, the unit is masked (deb-systemd-helper, as debhelper does) or gone.
case $(systemctl show meshnoded -p LoadState --value) in masked|not-found) ;; *) fail "systemd still loads meshnoded after remove";; esac
[ -e /usr/bin/meshnoded ] && fail "meshnoded still installed"
[ -f /var/lib/meshnoded/identity.key ] || fail "remove deleted the node identity"
grep -q '^name = unit node$' /etc/meshnoded/meshnoded.conf || fail "remove deleted the configuration"
getent passwd meshnode > /dev/null || fail "remove deleted the user"
stamp "removed; identity, configuration and user kept"

# 12. Purge: everything goes.
dpkg -P meshnoded < /dev/null >> "$MESHLAB_OUT/install.log" 2>&1 || fail "dpkg -P"
dpkg-query -W meshnoded > /dev/null 2>&1 && fail "dpkg still knows meshnoded after purge"
[ "$(systemctl show meshnoded -p LoadState --value)" = not-found ] || fail "meshnoded is $(systemctl show meshnoded -p LoadState --value) after purge"
[ -e /etc/meshnoded ] && fail "purge left /etc/meshnoded"
[ -e /var/lib/meshnoded ] && fail "purge left /var/lib/meshnoded"
getent passwd meshnode > /dev/null && fail "purge left user meshnode"
getent group meshnode > /dev/null && fail "purge left group meshnode"
stamp "purged; configuration, identity, user and group gone"
stamp "result: $([ $failed = 0 ] && echo PASS || echo FAIL)"
exit $failed
