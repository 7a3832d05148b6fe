#!/bin/bash
# Scenario for scripts/blelab-run: `relayctl doctor` against the real bluetoothd, in one VM boot.
#   scripts/blelab-run -n 2 Tests/VM/relayctl-doctor.sh "$(swift build --show-bin-path)"
# The node is set up as the package sets it up, without systemd (this VM has none): user and
# group meshnode (systemd-sysusers with systemd/meshnoded.sysusers), the D-Bus policy in
# /usr/share/dbus-1/system.d, /var/lib/meshnoded 0700 and /run/meshnoded 0750 owned by meshnode,
# /etc/meshnoded/meshnoded.conf naming the adapter; meshnoded runs as meshnode. The VM has no NTP,
# so its clock is marked synchronised as an NTP daemon marks it (adjtimex: STA_UNSYNC cleared).
# bluetoothd runs with Privacy = device, as the doctor's privacy fix says (main.conf in the VM's
# RAM overlay; bluetoothd restarted with the adapters powered off, as it sets privacy only then).
# Checks, in order (relayctl doctor runs as root, as `sudo relayctl doctor` would):
#   1. healthy: exit 0, no WARN or FAIL line; bluetoothd, adapter, roles, advertising, privacy (from
#      the kernel), dbus-policy, service-user, control-group, state-directory, identity, clock,
#      disk-space and control-socket are OK (unit and lan-interface are SKIP: no systemd, no [lan]
#      here); --json decodes to the same lines;
#   1b. the same node asked by user nobody (not root, not in the group): exit 78, bluetoothd OK
#      (Debian's bluetooth.conf lets every user ask it), privacy OK from the kernel (the management
#      socket answers Read Controller Information to any user), identity WARN "run relayctl doctor as root",
#      the control socket FAILs naming the group;
#   2. the adapter powered off (Powered=false over D-Bus, meshnoded still running): exit 78, the
#      adapter line FAILs with "bluetoothctl power on";
#   2b. bluetoothd frozen (SIGSTOP, still owning org.bluez): exit 78 within 10 s, bluetoothd FAILs
#      "does not answer (timed out: no reply within 2 s)";
#   3. no bluetoothd (killed): exit 78 within 10 s, bluetoothd FAILs with the command to start it,
#      adapter, roles and advertising are SKIP (not failed, no hang);
#   4. meshnoded stops on SIGTERM with status 0.
# Each run's text (and JSON) is kept in $MESHLAB_OUT/doctor-{healthy,nobody,powered-off,frozen,no-bluetoothd}.txt (.json).
. "$MESHLAB_LIB"
. "$(dirname "$MESHLAB_LIB")/scenario-lib.sh"
bin=$(readlink -f "$1")
repo=$(cd "$(dirname "$MESHLAB_LIB")/../.." && pwd)
[ -x "$bin/meshnoded" ] && [ -x "$bin/relayctl" ] || { echo "no meshnoded and relayctl in $bin"; exit 3; }
read -r -a adapters <<< "$MESHLAB_ADAPTERS"
[ ${#adapters[@]} -ge 1 ] || { echo "no adapter: $MESHLAB_ADAPTERS"; exit 3; }
adapter=${adapters[0]}
failed=0
log="$MESHLAB_OUT/meshnoded-D.log"
[ -e /dev/fd ] || ln -s /proc/self/fd /dev/fd

# Runs relayctl doctor (text, then --json) as NAME; sets `code` (the text run's exit status) and `took` (its seconds).
doctor() {
  local name=$1 start end
  start=$(date +%s%N)
  timeout 30 "$bin/relayctl" doctor > "$MESHLAB_OUT/doctor-$name.txt" 2>&1
  code=$?
  end=$(date +%s%N)
  took=$(( (end - start) / 1000000 ))
  timeout 30 "$bin/relayctl" --json doctor > "$MESHLAB_OUT/doctor-$name.json" 2>&1
  stamp "doctor ($name): exit $code in $took ms"
  sed 's/^/          /' "$MESHLAB_OUT/doctor-$name.txt"
}
# The label of CHECK's line in run NAME (OK, SKIP, WARN, FAIL).
label() { awk -v check="$2" '$2 == check { print $1; exit }' "$MESHLAB_OUT/doctor-$1.txt"; }
# Whether run NAME's line for CHECK, with the fix line below it, contains TEXT.
says() { grep -A1 -E "^[A-Z]+ +$2 " "$MESHLAB_OUT/doctor-$1.txt" | grep -qF -- "$3"; }

stamp "setting up $adapter as the package would"
# A fresh Pi: nothing of an earlier node (the VM's root is the build machine's, under a RAM overlay).
rm -rf /var/lib/meshnoded /run/meshnoded /etc/meshnoded
systemd-sysusers "$repo/systemd/meshnoded.sysusers" || fail "systemd-sysusers"
install -m 0644 "$repo/systemd/meshnoded-dbus.conf" /usr/share/dbus-1/system.d/meshnoded.conf
dbus-send --system --print-reply --dest=org.freedesktop.DBus / org.freedesktop.DBus.ReloadConfig > /dev/null \
  || fail "the bus did not reload its configuration"
install -d -m 700 -o meshnode -g meshnode /var/lib/meshnoded
install -d -m 750 -o meshnode -g meshnode /run/meshnoded
install -d -m 755 /etc/meshnoded
printf '[bluez]\nadapter = %s\n' "$adapter" > /etc/meshnoded/meshnoded.conf
# Clear STA_UNSYNC as an NTP daemon does once it trusts its source (struct timex: modes ADJ_STATUS |
# ADJ_MAXERROR | ADJ_ESTERROR, status 0, maxerror 50 ms, esterror 1 ms).
/usr/bin/python3 - <<'PY' || fail "could not mark the clock synchronised"
import ctypes
class Timex(ctypes.Structure):
    _fields_ = [("modes", ctypes.c_uint), ("offset", ctypes.c_long), ("freq", ctypes.c_long),
                ("maxerror", ctypes.c_long), ("esterror", ctypes.c_long), ("status", ctypes.c_int),
                ("rest", ctypes.c_long * 32)]
t = Timex(modes=0x10 | 0x04 | 0x08, maxerror=50000, esterror=1000, status=0)
libc = ctypes.CDLL(None, use_errno=True)
result = libc.adjtimex(ctypes.byref(t))
if result < 0: raise SystemExit("adjtimex: errno %d" % ctypes.get_errno())
PY
# Privacy = device under [General], then bluetoothd restarted on powered-off adapters.
sed -i 's/^#* *Privacy *=.*$//; s/^\[General\]$/[General]\nPrivacy = device/' /etc/bluetooth/main.conf
grep -qx 'Privacy = device' /etc/bluetooth/main.conf || fail "could not set Privacy in main.conf"
bluez_kill
for index in $MESHLAB_ADAPTERS; do btmgmt --index "${index#hci}" power off > /dev/null; done
bluez_start
adapters_back() { [ "$(bluez_adapters | wc -w)" -ge "${#adapters[@]}" ]; }
wait_until 30 adapters_back || fail "bluetoothd did not come back with the adapters"
btmgmt --index "${adapter#hci}" info | grep -q 'current settings:.*privacy' && stamp "$adapter has privacy on" \
  || fail "$adapter: btmgmt info shows no privacy"
# meshnoded as the service user, from a copy any user can run (the build folder may be private).
install -m 0755 "$bin/meshnoded" /usr/local/bin/meshnoded
setpriv --reuid=meshnode --regid=meshnode --init-groups /usr/local/bin/meshnoded --config /etc/meshnoded/meshnoded.conf \
  > >(uptime_lines > "$log") 2>&1 &
node_pid=$!   # not `pid`: lib.sh's bluez_kill sets that
if wait_until 120 grep -q "state: running on" "$log"; then stamp "meshnoded runs as meshnode on $adapter"; else fail "meshnoded did not come up"; fi

# 1. Healthy.
doctor healthy
[ "$code" = 0 ] || fail "healthy: exit $code, not 0"
for check in bluetoothd adapter roles advertising privacy dbus-policy service-user control-group state-directory identity clock \
  disk-space control-socket; do
  [ "$(label healthy $check)" = OK ] || fail "healthy: $check is $(label healthy $check), not OK"
done
[ "$(label healthy unit)" = SKIP ] || fail "healthy: unit is $(label healthy unit), not SKIP (no systemd here)"
says healthy privacy "(kernel: privacy on)" || fail "healthy: privacy was not read from the kernel"
[ "$(label healthy lan-interface)" = SKIP ] || fail "healthy: lan-interface is $(label healthy lan-interface), not SKIP"
grep -qE '^(WARN|FAIL) ' "$MESHLAB_OUT/doctor-healthy.txt" && fail "healthy: a WARN or FAIL line"
/usr/bin/python3 -c 'import json,sys; r=json.load(open(sys.argv[1])); assert r["worst"] == "ok", r["worst"]; assert len(r["findings"]) == 18' \
  "$MESHLAB_OUT/doctor-healthy.json" || fail "healthy: --json is not the report"

# 1b. The same node, asked by a user outside the control group and without root: what it cannot
# see is a WARN telling it to use sudo, and the socket a FAIL naming the group.
install -m 0755 "$bin/relayctl" /usr/local/bin/relayctl
setpriv --reuid=nobody --regid=nogroup --clear-groups /usr/local/bin/relayctl doctor > "$MESHLAB_OUT/doctor-nobody.txt" 2>&1
code=$?
stamp "doctor (as nobody): exit $code"
sed 's/^/          /' "$MESHLAB_OUT/doctor-nobody.txt"
[ "$code" = 78 ] || fail "as nobody: exit $code, not 78"
[ "$(label nobody bluetoothd)" = OK ] || fail "as nobody: bluetoothd is $(label nobody bluetoothd)"   # Debian lets anyone ask
[ "$(label nobody privacy)" = OK ] && says nobody privacy "(kernel: privacy on)" \
  || fail "as nobody: privacy is $(label nobody privacy), not OK from the kernel"
[ "$(label nobody identity)" = WARN ] && says nobody identity "as root" || fail "as nobody: identity is $(label nobody identity)"
[ "$(label nobody control-socket)" = FAIL ] && says nobody control-socket "usermod -aG meshnode" \
  || fail "as nobody: control-socket is $(label nobody control-socket)"

# 2. The adapter powered off.
busctl --system set-property org.bluez "/org/bluez/$adapter" org.bluez.Adapter1 Powered b false || fail "could not power $adapter off"
wait_until 10 sh -c "busctl --system get-property org.bluez /org/bluez/$adapter org.bluez.Adapter1 Powered | grep -q false" \
  || fail "$adapter is still powered"
doctor powered-off
[ "$code" = 78 ] || fail "powered off: exit $code, not 78"
[ "$(label powered-off adapter)" = FAIL ] || fail "powered off: adapter is $(label powered-off adapter), not FAIL"
says powered-off adapter "bluetoothctl power on" || fail "powered off: the adapter line does not say how to power it on"
[ "$(label powered-off bluetoothd)" = OK ] || fail "powered off: bluetoothd is $(label powered-off bluetoothd)"

# 2b. bluetoothd frozen (SIGSTOP): still on the bus, answers nothing; the doctor's wait is bounded.
kill -STOP "$(cat /run/meshlab/bluetoothd.pid)"
doctor frozen
kill -CONT "$(cat /run/meshlab/bluetoothd.pid)"
[ "$code" = 78 ] || fail "frozen: exit $code, not 78"
[ "$took" -le 10000 ] || fail "frozen: doctor took $took ms"
[ "$(label frozen bluetoothd)" = FAIL ] && says frozen bluetoothd "no reply within 2 s" || fail "frozen: bluetoothd is $(label frozen bluetoothd)"

# 3. No bluetoothd.
bluez_kill
bluez_running && fail "bluetoothd still runs"
doctor no-bluetoothd
[ "$code" = 78 ] || fail "no bluetoothd: exit $code, not 78"
[ "$took" -le 10000 ] || fail "no bluetoothd: doctor took $took ms"
[ "$(label no-bluetoothd bluetoothd)" = FAIL ] || fail "no bluetoothd: bluetoothd is $(label no-bluetoothd bluetoothd)"
says no-bluetoothd bluetoothd "systemctl enable --now bluetooth" || fail "no bluetoothd: no fix on the bluetoothd line"
for check in adapter roles advertising; do
  [ "$(label no-bluetoothd $check)" = SKIP ] || fail "no bluetoothd: $check is $(label no-bluetoothd $check), not SKIP"
done

# 4. Stop.
kill -TERM "$node_pid"
wait "$node_pid"; status=$?
[ "$status" = 0 ] || fail "meshnoded exited $status"
save_kernel_log
stamp "result: $([ $failed = 0 ] && echo PASS || echo FAIL)"
exit $failed
