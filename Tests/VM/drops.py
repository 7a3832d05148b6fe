#!/usr/bin/python3
"""Traffic and link drops for Tests/VM/meshnoded-drops.sh (runs inside the blelab-run VM).

Both nodes broadcast numbered messages at a steady rate over their control sockets and watch for
each other's; meanwhile the link between them is dropped DROPS times, each time right after a burst
of sends, so that frames are in flight: every POWER_EVERY-th drop powers node B's adapter off and on,
the others call Device1.Disconnect on the peer, alternately from A's side and from B's. Between
drops it waits until both nodes have their neighbour again, at most RELINK_WAIT (10) s: a drop
while the link is still being set up (key exchange frames in flight) counts as well; after the
last one it waits up to 90 s. Writes one line per send and per
delivery into OUT/drops-*.log and a summary (key=value lines) into OUT/drops-summary.txt.

usage: drops.py OUT SOCK_A SOCK_B ADAPTER_A ADAPTER_B ADDR_A ADDR_B
environment: DROPS (20), POWER_EVERY (5), INTERVAL (0.5 s between sends per node), BURST (6),
BT_PID (bluetoothd's process ID at the start: checked after the drops), RESTART=1: then, under the
same traffic, bluetoothd is killed (SIGKILL) and started again 2 s later (lib.sh's bluez_start), and
the time from its start to the first message each way is measured (summary: restart_*).
Of the messages sent while linked and lost, the summary tells apart those that went with the
neighbour's departure (X_lost_up_departed) from the rest (X_lost_up_linked), and whether the
sender's hold counters, read at the end, cover those and the held ones lost (X_hold_covers_losses);
every counter read then is kept in OUT/drops-stats-X.json.
"""
import json
import os
import random
import socket
import subprocess
import sys
import threading
import time

out, sock_a, sock_b, adapter_a, adapter_b, addr_a, addr_b = sys.argv[1:8]
drops = int(os.environ.get("DROPS", "20"))
power_every = int(os.environ.get("POWER_EVERY", "5"))
interval = float(os.environ.get("INTERVAL", "0.5"))
burst = int(os.environ.get("BURST", "6"))
start = time.monotonic()
stop = threading.Event()
lock = threading.Lock()


def uptime():
    with open("/proc/uptime") as f:
        return float(f.read().split()[0])


def say(line):
    with lock:
        print("%7.2f  %s" % (uptime(), line), flush=True)


class Control:
    """One control-socket connection; request() sends a line and reads its reply."""

    def __init__(self, path):
        self.path = path
        self.sock = None
        self.buffer = b""
        self.next_id = 0

    def connect(self):
        self.sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        self.sock.settimeout(15)
        self.sock.connect(self.path)
        self.buffer = b""

    def line(self):
        while b"\n" not in self.buffer:
            chunk = self.sock.recv(65536)
            if not chunk:
                raise ConnectionError("closed")
            self.buffer += chunk
        line, self.buffer = self.buffer.split(b"\n", 1)
        return json.loads(line)

    def request(self, command, **fields):
        """Sends one request and returns its reply. A request that went out is never sent again
        (a `send` repeated after a lost reply would be a second message with the same text, and
        count as a duplicate): only connecting is tried again."""
        for attempt in range(3):
            written = False
            try:
                if self.sock is None:
                    self.connect()
                self.next_id += 1
                fields.update(id=self.next_id, command=command)
                self.sock.sendall((json.dumps(fields) + "\n").encode())
                written = True
                while True:
                    reply = self.line()
                    if "event" not in reply and reply.get("id") == self.next_id:
                        return reply
            except (OSError, ConnectionError, ValueError) as error:
                say("control %s: %s%s" % (self.path, error, "" if written else " (again)"))
                self.sock = None
                if written:
                    return {"ok": False, "error": {"code": "no_reply"}}
                time.sleep(0.5)
        return {"ok": False, "error": {"code": "unreachable"}}


def neighbours(control):
    reply = control.request("status")
    return reply.get("result", {}).get("neighbourCount", 0) if reply.get("ok") else 0


class Sender(threading.Thread):
    """Broadcasts `<name>-<n>` every `interval` seconds; burst() sends several at once."""

    def __init__(self, name, path):
        super().__init__(daemon=True)
        self.name, self.control = name, Control(path)
        self.sent = {}          # text -> "up" (sentTo >= 1), "held" (held for the neighbour), or the error
        self.count = 0
        self.times = {}         # text -> uptime of the send
        self.send_lock = threading.Lock()
        self.log = open(os.path.join(out, "drops-sent-%s.log" % name), "w")

    def send_one(self):
        with self.send_lock:
            self.count += 1
            text = "%s-%d" % (self.name, self.count)
            reply = self.control.request("send", text=text)
            if reply.get("ok"):
                result = reply["result"]
                kind = "up" if result.get("sentTo", 0) >= 1 else ("held" if result.get("heldFor", 0) >= 1 else "none")
            else:
                kind = reply.get("error", {}).get("code", "error")
            self.sent[text] = kind
            self.times[text] = uptime()
            self.log.write("%.3f %s %s\n" % (uptime(), text, kind))
            self.log.flush()

    def burst(self, n):
        for _ in range(n):
            self.send_one()

    def run(self):
        while not stop.is_set():
            self.send_one()
            stop.wait(interval)


class Watcher(threading.Thread):
    """Records every message event (text) and link event on one node."""

    def __init__(self, name, path):
        super().__init__(daemon=True)
        self.name, self.path = name, path
        self.delivered = {}
        self.first_seen = []    # (uptime, text) of every first delivery
        self.link_downs = 0
        self.departures = []    # uptimes of the peer's departures (`peer_left`: its grace ran out)
        self.log = open(os.path.join(out, "drops-watch-%s.log" % name), "w")

    def run(self):
        while not stop.is_set():
            control = Control(self.path)
            try:
                control.connect()
                control.sock.settimeout(1)
                control.sock.sendall(b'{"id":1,"command":"watch"}\n')
                while not stop.is_set():
                    try:
                        line = control.line()
                    except socket.timeout:
                        continue
                    event = line.get("event")
                    if not event:
                        continue
                    if event.get("type") == "message":
                        text = event.get("text", "")
                        self.delivered[text] = self.delivered.get(text, 0) + 1
                        if self.delivered[text] == 1:
                            self.first_seen.append((uptime(), text))
                    elif event.get("type") == "link_down":
                        self.link_downs += 1
                    elif event.get("type") == "peer_left":
                        self.departures.append(uptime())
                    self.log.write("%.3f %s\n" % (uptime(), json.dumps(event, sort_keys=True)))
                    self.log.flush()
            except (OSError, ConnectionError, ValueError) as error:
                say("watch %s: %s (again)" % (self.name, error))
                time.sleep(0.5)


def busctl(*args):
    return subprocess.run(["busctl", "--system"] + list(args), capture_output=True, text=True, timeout=30)


def device_path(adapter, address):
    return "/org/bluez/%s/dev_%s" % (adapter, address.replace(":", "_"))


def wait_linked(status_a, status_b, limit):
    deadline = time.monotonic() + limit
    while time.monotonic() < deadline:
        if neighbours(status_a) >= 1 and neighbours(status_b) >= 1:
            return True
        time.sleep(0.5)
    return False


def alive(pid):
    try:
        os.kill(pid, 0)
        return True
    except OSError:
        return False


def read_pid():
    with open("/run/meshlab/bluetoothd.pid") as f:
        return int(f.read().strip())


def kernel_oops():
    """The guest kernel's BUG or corruption line when one hit bluetoothd, else ''."""
    try:
        text = subprocess.run(["dmesg"], capture_output=True, text=True, timeout=10).stdout
    except (OSError, subprocess.SubprocessError):
        return ""
    if "Comm: bluetoothd" not in text:
        return ""
    lines = [line for line in text.splitlines() if "corruption" in line or "kernel BUG" in line]
    return lines[0].split("] ", 1)[-1] if lines else "an oops in bluetoothd's process"


bt_pid = int(os.environ.get("BT_PID", "0"))

senders = {"A": Sender("A", sock_a), "B": Sender("B", sock_b)}
watchers = {"A": Watcher("A", sock_a), "B": Watcher("B", sock_b)}
for thread in list(watchers.values()):
    thread.start()
time.sleep(1)
for thread in list(senders.values()):
    thread.start()
status_a, status_b = Control(sock_a), Control(sock_b)
recoveries = []
unrecovered = 0
late = 0
drops_on_link = 0       # drops made while both nodes had their neighbour (the others may find no link)
relink_wait = int(os.environ.get("RELINK_WAIT", "10"))
say("traffic started: a message every %.2f s from each node; %d drops, every %d-th a power cycle of %s"
    % (interval, drops, power_every, adapter_b))
for number in range(1, drops + 1):
    time.sleep(random.uniform(1.0, 2.0))
    senders["A"].burst(burst // 2)
    senders["B"].burst(burst - burst // 2)
    if neighbours(status_a) >= 1 and neighbours(status_b) >= 1:
        drops_on_link += 1
    t0 = time.monotonic()
    if number % power_every == 0:
        how = "power cycle of B's adapter"
        busctl("set-property", "org.bluez", "/org/bluez/" + adapter_b, "org.bluez.Adapter1", "Powered", "b", "false")
        time.sleep(1)
        busctl("set-property", "org.bluez", "/org/bluez/" + adapter_b, "org.bluez.Adapter1", "Powered", "b", "true")
    elif number % 2 == 1:
        how = "A disconnects B"
        busctl("call", "org.bluez", device_path(adapter_a, addr_b), "org.bluez.Device1", "Disconnect")
    else:
        how = "B disconnects A"
        busctl("call", "org.bluez", device_path(adapter_b, addr_a), "org.bluez.Device1", "Disconnect")
    time.sleep(1)
    if wait_linked(status_a, status_b, relink_wait):
        took = time.monotonic() - t0
        recoveries.append(took)
        say("drop %d (%s): neighbours again %.1f s after it" % (number, how, took))
    else:
        late += 1
        say("drop %d (%s): not neighbours again within %d s; dropping again" % (number, how, relink_wait))
    if bt_pid > 0 and not alive(bt_pid):
        # Nothing after this can pass; say why at once instead of waiting out the phase.
        oops = kernel_oops()
        say("FAIL: bluetoothd (pid %d) is gone after drop %d%s" % (bt_pid, number,
            ": the guest kernel hit " + oops if oops else ""))
        sys.exit(1)
if wait_linked(status_a, status_b, 90):
    say("neighbours again after the last drop")
else:
    unrecovered = 1
    say("not neighbours again within 90 s of the last drop")
time.sleep(6)



extra = {}
cores = [n for n in os.listdir(os.path.join(out, "vm")) if n.startswith("core.")] if os.path.isdir(os.path.join(out, "vm")) else []
extra["bluetoothd_survived"] = int(bt_pid > 0 and read_pid() == bt_pid and alive(bt_pid) and not cores)
extra["cores"] = len(cores)
# The drop phase ends 5 s before bluetoothd is killed: what was sent later may still be on its way
# or unacknowledged at the kill, and is lost with its neighbour if the restart outlasts the departure
# grace; it is counted with the restart phase. Strict accounting covers what was sent before.
restart_at = uptime() - 5
if os.environ.get("RESTART") == "1":
    pid = read_pid()
    say("killing bluetoothd (pid %d) under traffic" % pid)
    os.kill(pid, 9)
    while alive(pid):
        time.sleep(0.05)
    time.sleep(2)
    marks = {name: sender.count for name, sender in senders.items()}
    subprocess.run(["sh", "-c", '. "$MESHLAB_LIB"; bluez_start'], env=dict(os.environ, MESHLAB_OUT=out))
    back = uptime()
    say("bluetoothd started again (pid %d)" % read_pid())
    deadline = time.monotonic() + 120
    firsts = {}
    while time.monotonic() < deadline and len(firsts) < 2:
        for name, peer in (("A", "B"), ("B", "A")):
            for at, text in list(watchers[peer].first_seen):
                if name not in firsts and at >= back and text.startswith(name + "-"):
                    firsts[name] = at - back
        time.sleep(0.2)
    for name in ("A", "B"):
        extra["restart_first_from_%s_s" % name] = "%.1f" % firsts[name] if name in firsts else "never"
    say("after the restart: first message from A at B %s s, from B at A %s s"
        % (extra["restart_first_from_A_s"], extra["restart_first_from_B_s"]))
    time.sleep(3)
stop.set()
for thread in list(senders.values()):
    thread.join(timeout=20)
time.sleep(10)  # resends after the last drop, and message events wait for the seen journal's sync
# The counters at the end (PROTOCOL.md Part E): a departure in the restart phase may take messages of the
# drop phase with it, so the check of messages lost with a departure reads them after it.
hold = {}
for name, path in (("A", sock_a), ("B", sock_b)):
    reply = Control(path).request("stats")
    counters = reply.get("result", {}).get("counters", {}) if reply.get("ok") else {}
    hold[name] = counters.get("hold", {})
    with open(os.path.join(out, "drops-stats-%s.json" % name), "w") as f:
        json.dump(counters, f, sort_keys=True)
    for group, field in (("hold", "held"), ("hold", "resent"), ("hold", "sent_late"), ("hold", "expired"),
                         ("hold", "evicted"), ("links", "unconfirmed_at_link_down"), ("links", "resent"), ("links", "departures")):
        extra["%s_%s_%s" % (name, group, field)] = counters.get(group, {}).get(field, "?")

summary = {"drops": drops, "drops_on_link": drops_on_link, "unrecovered": unrecovered, "dropped_before_keyed_again": late,
           "link_downs_A": watchers["A"].link_downs, "link_downs_B": watchers["B"].link_downs,
           "recovery_max_s": "%.1f" % max(recoveries) if recoveries else "-",
           "recovery_median_s": "%.1f" % sorted(recoveries)[len(recoveries) // 2] if recoveries else "-"}
summary.update(extra)
for name, peer in (("A", "B"), ("B", "A")):
    # The drop phase only: bluetoothd's restart can outlast the neighbour's departure grace, after
    # which what was sent to it is rightly gone; those are counted apart.
    sent = {t: k for t, k in senders[name].sent.items() if senders[name].times[t] < restart_at}
    late = {t: k for t, k in senders[name].sent.items() if senders[name].times[t] >= restart_at}
    summary["%s_restart_sent_up" % name] = sum(1 for k in late.values() if k == "up")
    summary["%s_restart_lost_up" % name] = sum(1 for t, k in late.items() if k == "up" and watchers[peer].delivered.get(t, 0) == 0)
    got = watchers[peer].delivered
    for kind in ("up", "held"):
        texts = [t for t, k in sent.items() if k == kind]
        summary["%s_sent_%s" % (name, kind)] = len(texts)
        summary["%s_lost_%s" % (name, kind)] = sum(1 for t in texts if got.get(t, 0) == 0)
    summary["%s_not_sent" % name] = sum(1 for k in sent.values() if k not in ("up", "held"))
    summary["%s_duplicated" % name] = sum(1 for t in senders[name].sent if got.get(t, 0) > 1)
    lost = sorted((t for t, k in sent.items() if k == "up" and got.get(t, 0) == 0), key=lambda t: int(t.split("-")[1]))
    summary["%s_lost_up_list" % name] = ",".join(lost[:40]) or "-"
    # A message the link took just before it dropped is unconfirmed and held for the neighbour
    # (PROTOCOL.md D12, step 5), and lost with everything held for it when it stays away past its
    # departure grace (Part E): legitimate when the sender saw the peer depart after the send and
    # no later message of the sender reached the peer before that (a link that carried later ones
    # would have carried this one first). Everything else lost is a loss on a live link.
    departed = []
    for text in lost:
        at, number = senders[name].times[text], int(text.split("-")[1])
        gone = [d for d in watchers[name].departures if d > at]
        later = [t for seen, t in watchers[peer].first_seen
                 if t.startswith(name + "-") and int(t.split("-")[1]) > number and gone and at < seen < gone[0]]
        if gone and not later:
            departed.append(text)
    summary["%s_lost_up_departed" % name] = len(departed)
    summary["%s_lost_up_departed_list" % name] = ",".join(departed[:40]) or "-"
    summary["%s_lost_up_linked" % name] = len(lost) - len(departed)
    # Each of those must have been held and dropped by the node: its hold counters cover them.
    dropped = int(hold[name].get("expired", 0)) + int(hold[name].get("evicted", 0)) if hold.get(name) else -1
    summary["%s_hold_covers_losses" % name] = int(dropped >= summary["%s_lost_held" % name] + len(departed))
with open(os.path.join(out, "drops-summary.txt"), "w") as f:
    for key, value in summary.items():
        f.write("%s=%s\n" % (key, value))
for key, value in summary.items():
    say("%s=%s" % (key, value))
