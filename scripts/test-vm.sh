#!/usr/bin/env bash
# Runs meshnoded against the real BlueZ stack in throwaway VMs (scripts/blelab-run), one scenario
# after the other (Tests/VM/meshnoded-line.sh):
#   line of 3   A-B-C by deny lists on the fixed btvirt (../shared/blelab/btvirt/btvirt beside the
#               repository: the stock one cannot carry a controller's second LE link, docs/BLUEZ.md
#               "Why: btvirt's connection handles") carry a broadcast and a direct message, B relaying
#               it opaque, and recover by themselves after bluetoothd is killed and restarted (NODES=2,
#               a pair on the stock btvirt, runs the same checks by hand);
#   line of 5   A-B-C-D-E on the fixed btvirt: A's broadcast stops after 3 hops (at D), D's broadcast
#               teaches A its keys, a direct A -> D is opaque at B and C (Tests/VM/meshnoded-line5.sh);
#   client      a client without a GATT server (meshnoded --gatt-server false) in a line P-B-C gets
#               its frames by notification and reaches C two hops away, both ways
#               (Tests/VM/meshnoded-client.sh, fixed btvirt);
#   mailbox     a client without a GATT server walks away from B (controller off, past its departure
#               grace) while A, two hops from B in a line A-M-B, writes it 8 direct messages; it redials
#               and gets each once; B handed them over oldest first and its mailbox is empty
#               (Tests/VM/meshnoded-mailbox.sh, fixed btvirt; about 2-3 minutes);
#   no bluetoothd  a pair started while bluetoothd is stopped waits for it, says so, and links once it
#               starts; a node on a missing adapter waits (Tests/VM/meshnoded-nobluez.sh, stock btvirt);
#   bridge      a BLE island A-G1 (fixed btvirt) and a UDP island G2-U, joined only through a mosquitto on
#               loopback in the VM (G1, G2 gateways, [mqtt] defaults): broadcasts and direct messages cross
#               both ways exactly once, with 1 hop at the far node, once on the broker (Tests/VM/meshnoded-bridge.sh);
#   lan         two BLE islands A-G1 and G2-B (fixed btvirt, deny lists) whose gateways run `--transport bluez,lan`
#               in two network namespaces joined by a veth pair and find each other by discovery: broadcasts
#               both ways and a direct A -> B exactly once, 2 hops at the far node (Tests/VM/meshnoded-lan.sh);
#   doctor      `relayctl doctor` on a node set up as the package sets it up (all OK; the unit SKIP, no
#               systemd here), with its adapter powered off (FAIL, exit 78), and without bluetoothd
#               (FAIL within 10 s, no hang), in one boot (Tests/VM/relayctl-doctor.sh, stock btvirt);
#   drops       a pair's link dropped 20 times under steady traffic, right after bursts of sends (Device1.Disconnect
#               from either side, every 5th an adapter power cycle): bluetoothd keeps its process ID and writes no
#               core; then bluetoothd is killed and restarted under the same traffic and messages cross again
#               (Tests/VM/meshnoded-drops.sh, fixed btvirt): every message sent while the pair was linked is
#               delivered exactly once, unless its link dropped before the peer had it and the neighbour then
#               stayed away past its departure grace (MESHNODE_VM_STRICT_DELIVERY=0 only prints the losses);
#   outage      A-B-C on the fixed btvirt: messages A sends while bluetoothd is down, and while B's
#               adapter is off, are held and reach C once B is back (Tests/VM/meshnoded-outage.sh).
#   adversary   five nodes under kernel privacy (Privacy = device, rotate_address on, every pair linked) chat across an hour of
#               mesh time, renaming and changing address at it (Tests/VM/adversary-rotation.sh, fixed btvirt, HCI
#               traces); a passive listener reading only what radios carry (scripts/adversary.py) must name no
#               node ID and link no observation across the hour (scripts/adversary_score.py --check, SECURITY.md).
# Each scenario that fails is tried once more (software-emulated radios are slow and sometimes lose
# a controller at boot), the adversary scenario twice more (its churn sometimes meets the guest kernel's
# hci_chan_del oops, BLUEZ.md); a last failure fails the whole run. Exit 0 when every scenario passed.
set -euo pipefail
cd "$(dirname "$0")/.."
repo=$(pwd)
source scripts/install-deps.sh
# MESHNODE_BIN names a folder with meshnoded and relayctl already built (scripts/test.sh sets it).
if [ -z "${MESHNODE_BIN:-}" ]; then
  swift build --product meshnoded 2>&1 | tail -n 1
  swift build --product relayctl 2>&1 | tail -n 1
fi
bin="${MESHNODE_BIN:-$(swift build --show-bin-path)}"
# The fixed emulator lives beside the repository (CI clones the repository next to shared/).
fixed_btvirt="$repo/../shared/blelab/btvirt/btvirt"

# Runs one scenario with one retry.  Usage: scenario NAME CONTROLLERS [blelab-run options...] COMMAND...
scenario() {
  local name=$1 controllers=$2; shift 2
  local attempt out status
  for ((attempt = 1; attempt <= ${ATTEMPTS:-2}; attempt++)); do
    out=$(mktemp -d /tmp/meshnode-vm.XXXXXX)
    echo "== BlueZ VM test: $name, attempt $attempt (logs in $out)"
    set +e
    scripts/blelab-run -n "$controllers" -t 600 -o "$out" "$@"
    status=$?
    set -e
    # SCENARIO_CHECK names a function that judges the scenario's output folder after the VM passed.
    if [ "$status" = 0 ] && [ -n "${SCENARIO_CHECK:-}" ]; then
      set +e; "$SCENARIO_CHECK" "$out" 2>&1 | tee "$out/check.log"; status=${PIPESTATUS[0]}; set -e
    fi
    if [ "$status" = 0 ]; then echo "BlueZ VM test: $name passed"; return 0; fi
    echo "BlueZ VM test: $name, attempt $attempt ended with status $status" >&2
    for log in "$out"/meshnoded-*.log; do [ -f "$log" ] && { echo "-- $log" >&2; tail -n 15 "$log" >&2; }; done
    # Why, once more after the node logs (a CI page that keeps only the end of the output still shows it).
    { echo "BlueZ VM test: $name, attempt $attempt: status $status; the scenario's last lines:"
      grep -hE 'FAIL|LOST|too little|Error' "$out/command.log" "$out/check.log" 2>/dev/null | tail -n 8 || true
      tail -n 3 "$out/command.log" 2>/dev/null || true; } >&2
  done
  return 1
}

[ -x "$fixed_btvirt" ] || { echo "BlueZ VM test: the fixed btvirt is missing at $fixed_btvirt" >&2; exit 1; }
scenario "line of 3" 4 --btvirt "$fixed_btvirt" env NODES=3 Tests/VM/meshnoded-line.sh "$bin"
scenario "line of 5" 6 --btvirt "$fixed_btvirt" Tests/VM/meshnoded-line5.sh "$bin"
scenario client 4 --btvirt "$fixed_btvirt" Tests/VM/meshnoded-client.sh "$bin"
scenario mailbox 5 --btvirt "$fixed_btvirt" Tests/VM/meshnoded-mailbox.sh "$bin"
scenario "no bluetoothd" 3 Tests/VM/meshnoded-nobluez.sh "$bin"
scenario bridge 3 --btvirt "$fixed_btvirt" Tests/VM/meshnoded-bridge.sh "$bin"
scenario lan 5 --btvirt "$fixed_btvirt" Tests/VM/meshnoded-lan.sh "$bin"
scenario doctor 2 Tests/VM/relayctl-doctor.sh "$bin"
scenario drops 3 -t 900 --btvirt "$fixed_btvirt" env STRICT_DELIVERY="${MESHNODE_VM_STRICT_DELIVERY:-1}" Tests/VM/meshnoded-drops.sh "$bin"
scenario outage 4 --btvirt "$fixed_btvirt" Tests/VM/meshnoded-outage.sh "$bin"
# The passive listener's guesses from the HCI traces, scored against the nodes' own records.
score_adversary() {
  python3 scripts/adversary.py $(ls -v "$1"/adversary.*.btsnoop) > "$1/guesses.json" &&
    python3 scripts/adversary_score.py "$1" "$1/guesses.json" --check --rotating
}
ATTEMPTS=3 SCENARIO_CHECK=score_adversary scenario adversary 6 -t 900 --hci-trace --btvirt "$fixed_btvirt" \
  --bluetoothd Tests/VM/bluetoothd-privacy.sh env CHAT=12 LEAD=120 LINKS=4 Tests/VM/adversary-rotation.sh "$bin" 5 0
echo "BlueZ VM test: every scenario passed"
