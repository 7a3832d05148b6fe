"""The MQTT bridge end to end (issue 21; docs/OPERATIONS.md, "Bridging islands"): a real mosquitto on
a loopback port, two islands of meshnoded over loopback UDP with no UDP link between them.

Phases: (1) one gateway per island: broadcasts and direct messages cross both ways, each delivered
exactly once at every node it is for; (2) a second gateway in island 1: still exactly once; (2b) key
lookup across the broker: c2 joins island 2 two links behind its gateway and sends nothing, so nobody
in island 1 has its key; c1 `relayctl send --to` c2: the key is found through the broker and the
message delivered exactly once (PROTOCOL.md F3, F4, H4); (2c) d1 joins beside b1 as a third gateway of
island 1; (3) the
broker killed (SIGKILL) for 10 s and restarted while both islands send: islands deliver locally
throughout (every node of island 1, three of them gateways, delivers each of 8 broadcasts sent
meanwhile exactly once before the broker is back), every direct message sent during the outage
arrives exactly once after the reconnect;
(4) a hostile publisher on the broker (garbage, oversized, replay, forged signature, a garbage flood
through mosquitto_pub -l, 1,500 well-formed forged envelopes, 200 forged key answers and 200 key requests
for random IDs): counted by cause, and the islands' own probes still delivered; (4b) mqttflood
(Benchmarks/) at 10,000 messages a second for 4 s, every shape, while both islands send probes:
probes delivered, every message counted once by cause, budgets and RSS bounded; (5) TLS with a
throwaway CA and a password read as a systemd credential. Prints one JSON
summary; exits non-zero when a check fails. Standard library only."""
import argparse
import json
import os
import pwd
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(__file__))
from meshlab import Node, Watch, read_events, wait_neighbours  # noqa: E402

PREFIX, MESH = "relaychat/v1", "ci"
failures = []


def check(ok, what):
    print(("ok   " if ok else "FAIL ") + what, flush=True)
    if not ok:
        failures.append(what)


def free_port(kind=socket.SOCK_STREAM):
    with socket.socket(socket.AF_INET, kind) as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Broker:
    def __init__(self, work, port, name="broker", extra=""):
        self.port, self.dir = port, os.path.join(work, name)
        os.makedirs(self.dir, exist_ok=True)
        self.conf = os.path.join(self.dir, "mosquitto.conf")
        with open(self.conf, "w") as f:
            # Persistence keeps the gateways' sessions (subscriptions, QoS 1 messages) across the
            # outage; `user` stops mosquitto from dropping to a user that cannot write here.
            f.write(f"listener {port} 127.0.0.1\nallow_anonymous true\npersistence true\n"
                    f"persistence_location {self.dir}/\nautosave_interval 1\nmax_queued_messages 10000\nsys_interval 1\n"
                    f"user {pwd.getpwuid(os.getuid()).pw_name}\n" + extra)
        self.proc = None

    def start(self):
        log = open(os.path.join(self.dir, "mosquitto.log"), "ab")
        self.proc = subprocess.Popen(["mosquitto", "-c", self.conf], stdout=log, stderr=log)
        log.close()
        deadline = time.time() + 10
        while time.time() < deadline:
            try:
                socket.create_connection(("127.0.0.1", self.port), 0.2).close()  # TCP accept, before any TLS
                return
            except OSError:
                time.sleep(0.05)
        raise RuntimeError("mosquitto did not listen")

    def kill(self):
        if self.proc and self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait()


def bridge_flags(port):
    return ["--mqtt", "true", "--mqtt-host", "127.0.0.1", "--mqtt-port", str(port), "--mqtt-mesh", MESH]


def deliveries(watch_files, since=0.0):
    """{node name: {messageID: count}} of message events recorded after `since` (wall time)."""
    out = {}
    for name, path in watch_files.items():
        counts = {}
        for event in read_events(path):
            counts[event.get("messageID")] = counts.get(event.get("messageID"), 0) + 1
        out[name] = counts
    return out


def wait_for(predicate, seconds, step=0.25):
    deadline = time.time() + seconds
    while time.time() < deadline:
        if predicate():
            return True
        time.sleep(step)
    return predicate()


def bridge_status(node):
    return ((node.status() or {}).get("bridge") or {})


def broker_counter(port, name):
    """One of mosquitto's $SYS counters (published every second here, sys_interval 1)."""
    out = subprocess.run(["mosquitto_sub", "-p", str(port), "-h", "127.0.0.1", "-C", "1", "-W", "3",
                          "-t", f"$SYS/broker/{name}"], capture_output=True, text=True)
    try:
        return int(out.stdout.split()[0])
    except (ValueError, IndexError):
        return None


def rss_kb(pid, key="VmRSS"):
    with open(f"/proc/{pid}/status") as f:
        return next(int(line.split()[1]) for line in f if line.startswith(key + ":"))


FLOOD_MIX = "garbage:40,forged:20,minted:20,replay:5,bad-topic:5,mismatch:5,oversized:1"
# Which `mqtt` counter each shape of mqttflood meets first at a gateway (PROTOCOL.md F4).
FLOOD_CAUSE = {"garbage": "dropped_malformed", "oversized": "dropped_oversized", "bad-topic": "dropped_bad_topic",
               "mismatch": "dropped_topic_mismatch"}


def flood_phase(args, work, broker, nodes, files, replay_file, summary):
    """Phase 4b: mqttflood (Benchmarks/) publishes 10,000 messages a second for 4 s, every shape
    (garbage, oversized, bad topic, topic mismatch, a replay, forged signatures, envelopes signed by
    minted identities under minted gateways), while both islands send local probes and probes
    across the broker. Island probes >= 99 % delivered; every message a gateway received counted
    once, by cause; the budgets bound what reached the engine; RSS bounded; no gateway dies."""
    tool = os.path.join(args.tools or "", "mqttflood")
    if not os.access(tool, os.X_OK):
        check(False, f"mqttflood is built ({tool}; scripts/test-mqtt.sh builds it)")
        return
    gateways = ("a1", "b1", "a2")
    stats = lambda n: (nodes[n].stats() or {}).get("counters", {})
    # Payloads of 8 MB (mosquitto takes up to 256 MB by default): the gateways announce an MQTT 5
    # Maximum Packet Size (PROTOCOL.md F1), so the broker drops them and no gateway's memory sees them.
    # An 8 MB payload that reached a gateway would be counted there as oversized (F4 step 1); the
    # islands' own traffic may still cross meanwhile, so `received` is no measure of it.
    oversized = {n: stats(n).get("mqtt", {}).get("dropped_oversized", 0) for n in gateways}
    peak = {n: rss_kb(nodes[n].pid, "VmHWM") for n in gateways}
    huge = subprocess.run([tool, "--port", str(broker.port), "--mesh", MESH, "--rate", "10", "--duration", "1",
                           "--mix", "oversized", "--oversized-bytes", "8000000", "--json"], capture_output=True, text=True)
    time.sleep(1)
    grown = {n: rss_kb(nodes[n].pid, "VmHWM") - peak[n] for n in gateways}
    reached = {n: stats(n).get("mqtt", {}).get("dropped_oversized", 0) - oversized[n] for n in gateways}
    summary["huge_payloads"] = {"sent": (json.loads(huge.stdout or "{}") if huge.returncode == 0 else huge.stderr[-200:]),
                                "peak_rss_growth_kb": grown, "received": reached}
    check(huge.returncode == 0 and max(grown.values()) < 4096 and max(reached.values()) == 0,
          f"8 MB payloads never reach a gateway (counted oversized {reached}, peak RSS growth {grown} kB)")
    time.sleep(4)  # the shares spent by the forged flood refill
    before = {n: stats(n) for n in gateways}
    rss_before = {n: rss_kb(nodes[n].pid) for n in gateways}
    rss_before["mosquitto"] = rss_kb(broker.proc.pid)
    sys_before = {k: broker_counter(broker.port, k) for k in ("publish/messages/received", "publish/messages/dropped")}
    flood = subprocess.Popen([tool, "--port", str(broker.port), "--mesh", MESH, "--rate", "10000", "--duration", "4",
                              "--mix", FLOOD_MIX, "--replay", replay_file, "--identities", "16", "--max-signed", "1500",
                              "--json"], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    started = flood.stderr.readline()  # "mqttflood: flooding ..." once every payload is made
    check("flooding" in started, f"mqttflood started ({started.strip()})")
    local, across = {"b2": [], "c1": []}, {"c1": [], "b2": []}
    i = 0
    while flood.poll() is None:
        for name in ("b2", "c1"):
            _, mid = nodes[name].send(f"flood probe {name} {i}")
            local[name].append(mid)
            across[name].append(mid)
        i += 1
    out, err = flood.communicate()
    report = json.loads(out.strip().splitlines()[-1]) if out.strip() else {}
    summary["mqttflood"] = report
    time.sleep(3)
    after = {n: stats(n) for n in gateways}
    rss_after = {n: rss_kb(nodes[n].pid) for n in gateways}
    rss_after["mosquitto"] = rss_kb(broker.proc.pid)
    summary["flood_rss_kb"] = {"before": rss_before, "after": rss_after,
                               "peak": {n: rss_kb(nodes[n].pid, "VmHWM") for n in gateways}}
    sys_after = {k: broker_counter(broker.port, k) for k in sys_before}
    summary["flood_broker"] = {k: (sys_after[k] - sys_before[k]) if None not in (sys_after[k], sys_before[k]) else None
                               for k in sys_before}
    check(flood.returncode == 0 and report.get("rate", 0) >= 9000,
          f"mqttflood published {report.get('sent')} in {report.get('elapsed_s', 0):.2f} s: {report.get('rate', 0):.0f}/s "
          f"(broker received {summary['flood_broker'].get('publish/messages/received')}){err.strip()[-200:]}")
    check(all(nodes[n].running() for n in nodes), "no node died in the flood")
    got = deliveries(files)
    delivered = {"island 2 (b2 -> a2)": sum(1 for m in local["b2"] if got["a2"].get(m, 0) == 1) / max(1, len(local["b2"])),
                 "island 1 (c1 -> b1)": sum(1 for m in local["c1"] if got["b1"].get(m, 0) == 1) / max(1, len(local["c1"]))}
    summary["flood_local_probes"] = {"sent_per_island": i, "delivered": delivered}
    summary["flood_across_probes"] = {
        "c1 -> b2": sum(1 for m in across["c1"] if got["b2"].get(m, 0) == 1), "b2 -> c1": sum(1 for m in across["b2"] if got["c1"].get(m, 0) == 1),
        "sent_each_way": i}
    check(i >= 5 and min(delivered.values()) >= 0.99,
          f"island probes during the flood: {i} per island, delivered {delivered}")
    sent = report.get("sent_by_shape", {})
    deltas = {}
    for n in gateways:
        b, a = before[n].get("mqtt", {}), after[n].get("mqtt", {})
        d = {k: a.get(k, 0) - b.get(k, 0) for k in a if k not in ("queue_depth",)}
        d["message.dropped_unverifiable"] = (after[n].get("message", {}).get("dropped_unverifiable", 0)
                                             - before[n].get("message", {}).get("dropped_unverifiable", 0))
        deltas[n] = d
        refused = sum(v for k, v in d.items() if k.startswith("dropped_") and k != "dropped_queue_full")
        check(d["received"] == d["admitted"] + refused,
              f"{n}: every message received counted once ({d['received']} = {d['admitted']} admitted + {refused} refused)")
        share = d["received"] / max(1, report.get("sent", 1))
        check(share >= 0.9, f"{n} received {d['received']} of the flood's {report.get('sent')} ({share:.0%})")
        for shape, cause in FLOOD_CAUSE.items():
            check(d.get(cause, 0) >= int(0.9 * sent.get(shape, 0) * min(1.0, share)),
                  f"{n}: {shape} counted as {cause} ({d.get(cause, 0)} of {sent.get(shape, 0)} sent)")
        envelopes = sent.get("forged", 0) + sent.get("minted", 0) + sent.get("replay", 0)
        budgets = d.get("dropped_over_gateway_share", 0) + d.get("dropped_over_total", 0)
        allowed = 400 + 100 * (report.get("elapsed_s", 0) + 3) + 2 * i + 20
        check(d["admitted"] <= allowed and budgets + d["admitted"] >= int(0.9 * envelopes * min(1.0, share)),
              f"{n}: the budgets bound the well-formed flood ({d['admitted']} admitted, at most {allowed:.0f}; "
              f"{budgets} refused of {envelopes} sent)")
    summary["flood_counters"] = deltas
    growth = {n: rss_after[n] - rss_before[n] for n in gateways}
    check(max(growth.values()) < 16 * 1024 and max(summary["flood_rss_kb"]["peak"].values()) < 64 * 1024,
          f"gateway RSS bounded in the flood (growth {growth} kB, peak {summary['flood_rss_kb']['peak']} kB)")


def tls_phase(args, work):
    """Two lone gateways on a TLS broker (a throwaway CA) that wants a password: a broadcast crosses;
    a gateway with a wrong password stays out, says why, and never shows the password."""
    tls = os.path.join(work, "tls")
    os.makedirs(tls)
    run = lambda *cmd: subprocess.run(cmd, cwd=tls, check=True, capture_output=True)
    run("openssl", "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256", "-nodes", "-days", "1",
        "-subj", "/CN=meshnode test CA", "-keyout", "ca.key", "-out", "ca.pem")
    run("openssl", "req", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256", "-nodes", "-subj", "/CN=localhost",
        "-keyout", "server.key", "-out", "server.csr")
    with open(os.path.join(tls, "san.ext"), "w") as f:
        f.write("subjectAltName=DNS:localhost,IP:127.0.0.1\n")
    run("openssl", "x509", "-req", "-in", "server.csr", "-CA", "ca.pem", "-CAkey", "ca.key", "-CAcreateserial", "-days", "1",
        "-extfile", "san.ext", "-out", "server.pem")
    run("mosquitto_passwd", "-b", "-c", "passwd", "gateway", "s3cret-Pa55")
    for name in ("server.key", "passwd"):
        os.chmod(os.path.join(tls, name), 0o600)
    port = free_port()
    broker = Broker(work, port, "tls-broker", f"cafile {tls}/ca.pem\ncertfile {tls}/server.pem\nkeyfile {tls}/server.key\n"
                    f"password_file {tls}/passwd\n".replace("allow_anonymous true", ""))
    with open(broker.conf) as f:
        conf = f.read().replace("allow_anonymous true", "allow_anonymous false")
    with open(broker.conf, "w") as f:
        f.write(conf)
    broker.start()
    credentials = os.path.join(work, "credentials")
    os.makedirs(credentials)
    with open(os.path.join(credentials, "mqtt-password"), "w") as f:
        f.write("s3cret-Pa55\n")
    with open(os.path.join(credentials, "wrong-password"), "w") as f:
        f.write("not-it\n")
    base = ["--mqtt", "true", "--mqtt-host", "localhost", "--mqtt-port", str(port), "--mqtt-mesh", "tls",
            f"--mqtt.ca_file={tls}/ca.pem", "--mqtt.username=gateway"]
    lone = {
        "x": Node(args.bin, work, "x", free_port(socket.SOCK_DGRAM), [], base + ["--mqtt.password_file=mqtt-password"]),
        "y": Node(args.bin, work, "y", free_port(socket.SOCK_DGRAM), [], base + ["--mqtt.password_file=mqtt-password"]),
        "z": Node(args.bin, work, "z", free_port(socket.SOCK_DGRAM), [], base + ["--mqtt.password_file=wrong-password"]),
    }
    os.environ["CREDENTIALS_DIRECTORY"] = credentials
    try:
        for node in lone.values():
            node.start()
    finally:
        del os.environ["CREDENTIALS_DIRECTORY"]
    watch = None
    try:
        check(wait_for(lambda: all(bridge_status(lone[n]).get("state") == "connected" for n in ("x", "y")), 30),
              "TLS and password: both gateways connected")
        path = os.path.join(work, "y.watch")
        watch = Watch(lone["y"], path)
        time.sleep(1)
        _, mid = lone["x"].send("over TLS")
        check(wait_for(lambda: deliveries({"y": path})["y"].get(mid, 0) == 1, 15), "TLS: a broadcast crosses between lone gateways")
        status = bridge_status(lone["z"])
        check(status.get("state") != "connected" and bool(status.get("lastError")),
              f"a wrong password stays out and says why ({status.get('state')}: {status.get('lastError')})")
        leaked = []
        for node in lone.values():
            printed = subprocess.run([os.path.join(args.bin, "meshnoded"), "--print-config"] + node.extra,
                                     capture_output=True, text=True).stdout
            with open(os.path.join(node.dir, "meshnoded.log")) as f:
                log = f.read()
            shown = json.dumps(node.status() or {})
            leaked += [node.name for text in (printed, log, shown) if "s3cret" in text or "not-it" in text]
        check(not leaked, f"the password is in no log, --print-config or status ({leaked})")
    finally:
        if watch:
            watch.stop()
        for node in lone.values():
            node.stop()
        broker.kill()


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--bin", required=True)
    parser.add_argument("--tools", default=os.environ.get("MESHTOOLS_BIN"), help="where mqttflood is (Benchmarks/)")
    parser.add_argument("--out", default=None)
    parser.add_argument("--keep", action="store_true", help="keep the work folder")
    args = parser.parse_args()
    work = tempfile.mkdtemp(prefix="meshnode-mqtt.")
    started = time.time()
    summary = {"work": work}
    broker = Broker(work, free_port())
    broker.start()
    ports = {name: free_port(socket.SOCK_DGRAM) for name in ("a1", "b1", "c1", "a2", "b2")}
    flags = bridge_flags(broker.port)
    # Island 1: a1 (gateway) - b1 - c1 in a line; island 2: a2 (gateway) - b2. No UDP link between islands.
    nodes = {
        "a1": Node(args.bin, work, "a1", ports["a1"], [], flags),
        "b1": Node(args.bin, work, "b1", ports["b1"], [ports["a1"]]),
        "c1": Node(args.bin, work, "c1", ports["c1"], [ports["b1"]]),
        "a2": Node(args.bin, work, "a2", ports["a2"], [], flags),
        "b2": Node(args.bin, work, "b2", ports["b2"], [ports["a2"]]),
    }
    island = {"a1": 1, "b1": 1, "c1": 1, "a2": 2, "b2": 2}
    watches = {}
    try:
        for node in nodes.values():
            node.start()
        check(wait_neighbours({nodes["a1"]: 1, nodes["b1"]: 2, nodes["c1"]: 1, nodes["a2"]: 1, nodes["b2"]: 1}, 60),
              "both islands formed")
        check(wait_for(lambda: bridge_status(nodes["a1"]).get("state") == "connected"
                       and bridge_status(nodes["a2"]).get("state") == "connected", 20), "both gateways connected")
        files = {name: os.path.join(work, f"{name}.watch") for name in nodes}
        for name, node in nodes.items():
            watches[name] = Watch(node, files[name])
        time.sleep(1)
        ids = {name: node.node_id() for name, node in nodes.items()}

        sent = {}  # messageID -> (sender, wall time)

        def send_round(tag, senders, directs):
            """Broadcasts from `senders`, direct messages for (from, to) pairs; returns expectations."""
            expected = []  # (messageID, {node: 1 for the nodes it is for})
            for name in senders:
                at, mid = nodes[name].send(f"{tag} broadcast from {name}")
                sent[mid] = (name, at)
                expected.append((mid, {n: 1 for n in nodes if n != name}, f"{tag} broadcast {name}"))
            for src, dst in directs:
                at, mid = nodes[src].send(f"{tag} direct {src}->{dst}", to=ids[dst])
                sent[mid] = (src, at)
                expected.append((mid, {dst: 1}, f"{tag} direct {src}->{dst}"))
            return expected

        def latencies():
            """Send-to-delivery seconds of phases 1 and 2, across the broker and within an island."""
            across, local = [], []
            for name, path in files.items():
                for event in read_events(path):
                    if event.get("messageID") in sent:
                        src, at = sent[event["messageID"]]
                        (across if island[src] != island[name] else local).append(event["time"] - at)
            pick = lambda values, q: round(sorted(values)[min(len(values) - 1, int(q * len(values)))], 3) if values else None
            return {"across_n": len(across), "across_p50_s": pick(across, 0.5), "across_p95_s": pick(across, 0.95),
                    "local_n": len(local), "local_p50_s": pick(local, 0.5), "local_p95_s": pick(local, 0.95)}

        def verify(expected, label, seconds=20):
            def complete():
                got = deliveries(files)
                return all(all(got[n].get(mid, 0) >= 1 for n in want) for mid, want, _ in expected)
            wait_for(complete, seconds)
            time.sleep(2)  # late duplicates would show now
            got = deliveries(files)
            bad = []
            for mid, want, what in expected:
                if mid is None:
                    bad.append(f"{what}: not sent")
                    continue
                for n in nodes:
                    count = got[n].get(mid, 0)
                    if count != want.get(n, 0):
                        bad.append(f"{what}: {count}x at {n}")
            check(not bad, f"{label}: {len(expected)} messages, each delivered exactly once where it is for"
                  + (f" ({'; '.join(bad[:6])})" if bad else ""))
            return not bad

        # Keys cross with the first broadcasts (a chat body carries its origin's keys).
        verify(send_round("warmup", list(nodes), []), "phase 1 broadcasts, every node to every node")
        directs = [("c1", "b2"), ("b2", "c1"), ("a1", "a2"), ("b2", "b1")]
        verify(send_round("p1", ["c1", "b2"], directs), "phase 1 direct messages both ways")
        hops = [e.get("hops") for e in read_events(files["b2"]) if "warmup broadcast from c1" in (e.get("text") or "")]
        check(hops == [1], f"re-based at the far gateway: c1's broadcast (2 hops in island 1) reaches b2 with 1 hop ({hops})")

        # Phase 2: b1 becomes a second gateway of island 1 (same identity and seen journal).
        watches["b1"].stop()
        nodes["b1"].stop()
        nodes["b1"].extra = flags
        nodes["b1"].start()
        check(wait_neighbours({nodes["b1"]: 2}, 30), "b1 back as a second gateway")
        check(wait_for(lambda: bridge_status(nodes["b1"]).get("state") == "connected", 20), "b1 connected")
        watches["b1"] = Watch(nodes["b1"], files["b1"])
        time.sleep(1)
        verify(send_round("p2", list(nodes), directs), "phase 2 (two gateways in island 1): broadcasts and direct")

        summary["latency"] = latencies()

        # Phase 2b: key lookup across the broker. c2's join notice stops at a2 (its limit, 2 links), it
        # broadcasts nothing, so no node of island 1 knows its key.
        ports["c2"] = free_port(socket.SOCK_DGRAM)
        nodes["c2"] = Node(args.bin, work, "c2", ports["c2"], [ports["b2"]])
        island["c2"] = 2
        nodes["c2"].start()
        check(wait_neighbours({nodes["c2"]: 1, nodes["b2"]: 2}, 30), "c2 joined island 2 behind b2")
        files["c2"] = os.path.join(work, "c2.watch")
        watches["c2"] = Watch(nodes["c2"], files["c2"])
        ids["c2"] = nodes["c2"].node_id()
        time.sleep(2)  # c2's join notice has reached a2

        def knows(name, node):
            peers = nodes[name].ctl("peers") or {}
            return any(p.get("nodeID") == node for p in (peers.get("neighbours") or []) + (peers.get("remote") or []))

        check(not any(knows(n, ids["c2"]) for n in ("a1", "b1", "c1")), "nobody in island 1 knows c2 before the lookup")
        asked_at = time.time()
        reply = nodes["c1"].ctl("send", "--to", ids["c2"], "--", "looked up across the broker", timeout=25)
        summary["lookup_across_s"] = round(time.time() - asked_at, 2)
        looked_up = (reply or {}).get("messageID")
        check(looked_up is not None, f"c1 send --to c2: key found through the broker, message sent ({summary['lookup_across_s']} s)")
        verify([(looked_up, {"c2": 1}, "looked-up direct c1->c2")], "phase 2b: the message to a node looked up across the broker")
        counters = {n: (nodes[n].stats() or {}).get("counters", {}) for n in ("c1", "a1", "b1", "a2")}
        summary["lookup"] = {n: {"lookup": c.get("lookup"), "keyRequest": c.get("keyRequest"), "keyAnswer": c.get("keyAnswer")}
                             for n, c in counters.items()}
        lookup = counters["c1"].get("lookup", {})
        outbox = counters["c1"].get("outbox", {})
        check(lookup.get("found") == 1 and lookup.get("timed_out") == 0 and outbox.get("sent") == 1 and outbox.get("held") == 0,
              f"c1's lookup found the key once; the message that waited for it in the mailbox database went out ({lookup}, {outbox})")
        # A gateway that heard its own island's request first from the other gateway's publication
        # published nothing and lets no answer in (F4); at least one gateway relayed the answer home.
        relayed_home = sum(counters[n].get("keyAnswer", {}).get("relayed", 0) for n in ("a1", "b1"))
        check(relayed_home >= 1, f"the answer came down through a gateway that had published the request ({relayed_home})")
        check(counters["a2"].get("lookup", {}).get("answers_sent", 0) + counters["a2"].get("keyRequest", {}).get("relayed", 0) >= 1,
              "the far gateway answered the request or passed it on")
        # Phase 2c: d1 joins beside b1 as a third gateway of island 1 (a1 - b1 - c1 and d1 - b1). With
        # the broker up, d1 has a1's broadcasts from the broker and hands b1 a copy with route [a1, d1],
        # as a radio neighbour of a1 would; b1 must not take that for a link and skip d1 for a1's
        # messages once the broker is gone (PROTOCOL.md Part C, "Which copies teach a claim"; F4).
        ports["d1"] = free_port(socket.SOCK_DGRAM)
        d1 = Node(args.bin, work, "d1", ports["d1"], [ports["b1"]], flags)
        d1.start()
        check(wait_neighbours({d1: 1, nodes["b1"]: 3}, 30), "d1 joined island 1 beside b1")
        check(wait_for(lambda: bridge_status(d1).get("state") == "connected", 20), "d1 connected")
        island1_files = {name: files[name] for name in ("a1", "b1", "c1")}
        island1_files["d1"] = os.path.join(work, "d1.watch")
        d1_watch = Watch(d1, island1_files["d1"])
        time.sleep(1)
        for name, node in (("a1", nodes["a1"]), ("d1", d1), ("c1", nodes["c1"]), ("a1", nodes["a1"])):
            node.send(f"before the outage from {name}")
            time.sleep(0.3)
        time.sleep(1)

        # Phase 3: the broker is killed for 10 s while both islands send.
        outage_start = time.time()
        broker.kill()
        time.sleep(1)
        local = []
        outage = []
        island_outage = []  # (messageID, sender) of broadcasts island 1 sends while the broker is away
        island_senders = [("a1", nodes["a1"]), ("d1", d1), ("c1", nodes["c1"]), ("b1", nodes["b1"])]
        for i in range(4):
            for name, node in (island_senders[i], island_senders[(i + 2) % 4]):
                _, mid = node.send(f"outage broadcast from {name} {i}")
                island_outage.append((mid, name))
            _, mid = nodes["c1"].send(f"outage direct c1->b2 {i}", to=ids["b2"])
            outage.append((mid, {"b2": 1}, f"outage direct c1->b2 {i}"))
            _, mid = nodes["b2"].send(f"outage direct b2->c1 {i}", to=ids["c1"])
            outage.append((mid, {"c1": 1}, f"outage direct b2->c1 {i}"))
            _, mid = nodes["c1"].send(f"outage local b1 {i}", to=ids["b1"])
            local.append(mid)
            time.sleep(1.5)
        status = bridge_status(nodes["a1"])
        summary["during_outage_status"] = status
        check(status.get("state") in ("reconnecting", "connecting") and status.get("queued", 0) >= 1,
              f"gateway a1 shows the outage: {status}")
        check(wait_for(lambda: all(deliveries(files)["b1"].get(m, 0) == 1 for m in local), 5),
              "island 1 delivers locally during the outage")

        def island_complete():
            got = deliveries(island1_files)
            return all(got[n].get(mid, 0) >= 1 for mid, src in island_outage for n in island1_files if n != src)
        wait_for(island_complete, max(1, outage_start + 9.5 - time.time()))
        got = deliveries(island1_files)
        missing = [f"{src}'s {mid} {got[n].get(mid, 0)}x at {n}" for mid, src in island_outage
                   for n in island1_files if n != src and got[n].get(mid, 0) != 1]
        summary["island_outage_missing"] = missing
        check(None not in [m for m, _ in island_outage] and not missing,
              f"with the broker away, every node of island 1 (three gateways) delivered each of its {len(island_outage)} "
              f"broadcasts exactly once" + (f" ({'; '.join(missing[:6])})" if missing else ""))
        d1_watch.stop()
        d1.stop()
        while time.time() < outage_start + 10:
            time.sleep(0.1)
        broker.start()
        reconnect_at = time.time()
        verify(outage, "phase 3: direct messages sent during a 10 s broker outage", seconds=45)
        summary["outage_delivered_after_s"] = round(time.time() - reconnect_at - 2, 1)

        # Phase 4: a hostile publisher with broker credentials.
        capture = os.path.join(work, "captured.env")

        def capture_broadcast(text):
            """Sends a broadcast from c1 and returns its envelope as the broker carried it."""
            sub = subprocess.Popen(["mosquitto_sub", "-p", str(broker.port), "-h", "127.0.0.1", "-V", "mqttv5", "-C", "1",
                                    "-N", "-t", f"{PREFIX}/{MESH}/broadcast"], stdout=open(capture, "wb"))
            time.sleep(0.5)
            nodes["c1"].send(text)
            sub.wait(10)
            return open(capture, "rb").read()

        envelope = capture_broadcast("to be replayed")
        # mosquitto_pub -l sends one message per line: the flood's base must hold no newline.
        for k in range(20):
            flood_base = capture_broadcast(f"flood base {k}")
            if b"\n" not in flood_base:
                break
        forged = bytearray(envelope)
        forged[4] ^= 0x01  # the first message ID byte: a new message whose signature does not match
        forged_file = os.path.join(work, "forged.env")
        open(forged_file, "wb").write(forged)
        big = os.path.join(work, "big.bin")
        # Over the 65,536-byte bound yet within the Maximum Packet Size the gateways announce (F1),
        # so it reaches them and is counted; longer ones the broker drops (phase 4b).
        open(big, "wb").write(os.urandom(65_600))
        before = {n: (nodes[n].stats() or {}).get("counters", {}) for n in ("a2",)}
        pub = ["mosquitto_pub", "-p", str(broker.port), "-h", "127.0.0.1", "-V", "mqttv5", "-t", f"{PREFIX}/{MESH}/broadcast"]
        subprocess.run(pub + ["-m", "garbage"], check=True)
        subprocess.run(pub + ["-f", big], check=True)
        subprocess.run(pub + ["-f", capture], check=True)
        subprocess.run(pub + ["-f", forged_file], check=True)
        subprocess.run(pub[:-1] + [f"{PREFIX}/{MESH}/direct/not-a-node-id", "-m", "x"], check=True)
        flood_lines = 10_000
        flood = subprocess.Popen(pub + ["-l", "-q", "0"], stdin=subprocess.PIPE)
        probes = []
        flood_start = time.time()
        chunk = b"".join(b"flood-%06d\n" % i for i in range(flood_lines))
        flood.stdin.write(chunk)
        flood.stdin.close()
        for i in range(10):
            _, mid = nodes["b2"].send(f"probe {i}")
            probes.append(mid)
            time.sleep(0.2)
        flood.wait(60)
        summary["flood_publish_s"] = round(time.time() - flood_start, 2)
        # Then well-formed envelopes claiming gateway a1, each a new message ID (so a forged
        # signature), one mosquitto_pub each (its -l mode cuts binary payloads at NUL bytes): the
        # gateway share and the total stop all but their bursts before the engine.
        flood_dir = os.path.join(work, "forged-flood")
        os.makedirs(flood_dir)
        variants = []
        for i in range(1500):
            v = bytearray(flood_base)
            v[4:8] = (0x40000000 + i).to_bytes(4, "big")
            path = os.path.join(flood_dir, f"{i}.env")
            open(path, "wb").write(v)
            variants.append(path)
        summary["forged_flood_sent"] = len(variants)
        forged_start = time.time()
        forged_flood = subprocess.Popen(["xargs", "-P", "8", "-I", "{}"] + pub + ["-f", "{}"], stdin=subprocess.PIPE,
                                        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        forged_flood.stdin.write("\n".join(variants).encode() + b"\n")
        forged_flood.stdin.close()
        for i in range(10, 20):
            _, mid = nodes["b2"].send(f"probe {i}")
            probes.append(mid)
            time.sleep(0.2)
        forged_flood.wait(120)
        forged_seconds = time.time() - forged_start
        summary["forged_flood_publish_s"] = round(forged_seconds, 2)
        time.sleep(3)
        got = deliveries(files)
        probe_ok = sum(1 for m in probes if got["a2"].get(m, 0) == 1)
        check(probe_ok >= len(probes), f"island 2's probes during the floods: {probe_ok}/{len(probes)} delivered at a2")
        mqtt = (nodes["a2"].stats() or {}).get("counters", {}).get("mqtt", {})
        summary["a2_mqtt"] = mqtt
        check(mqtt.get("dropped_malformed", 0) >= flood_lines, f"flood counted as malformed ({mqtt.get('dropped_malformed')})")
        check(mqtt.get("dropped_oversized", 0) >= 1, "oversized counted")
        check(mqtt.get("dropped_bad_topic", 0) >= 1, "foreign topic counted")
        message = (nodes["a2"].stats() or {}).get("counters", {}).get("message", {})
        summary["a2_message"] = message
        check(message.get("dropped_unverifiable", 0) >= 1, f"forged signature counted ({message.get('dropped_unverifiable')})")
        stopped = mqtt.get("dropped_over_gateway_share", 0) + mqtt.get("dropped_over_total", 0)
        # What the gateway share lets through in the flood's time: its burst and its rate.
        allowed = 100 + 20 * forged_seconds + 20
        summary["forged_flood_admitted_at_most"] = round(allowed)
        check(stopped >= len(variants) - allowed,
              f"forged-envelope flood stopped by the budgets before the engine ({stopped} of {len(variants)}, "
              f"at most {allowed:.0f} let through)")
        rss = {}
        for name in ("a1", "a2"):
            with open(f"/proc/{nodes[name].pid}/status") as f:
                rss[name] = next(int(line.split()[1]) for line in f if line.startswith("VmHWM:"))
        summary["gateway_peak_rss_kb"] = rss
        check(max(rss.values()) < 64 * 1024, f"gateway peak RSS under 64 MB ({rss} kB)")
        # Key lookup from a hostile publisher (PROTOCOL.md F4): well-formed key answers for c2 to b2, a
        # request no gateway of island 2 published, and fresh key requests for random IDs, each
        # claiming a gateway of its own. Answers stop before any signature check; requests relayed
        # into island 2 stay within the bridge's one-neighbour request budget (1 a second, 8 at once).
        lookup_dir = os.path.join(work, "lookup-flood")
        os.makedirs(lookup_dir)
        lookup_files = []
        stamp = int(time.time() * 1000).to_bytes(8, "big")
        for i in range(200):
            origin = os.urandom(16)
            request = (bytes([1, 6, 0, 0]) + os.urandom(16) + origin + stamp + (25).to_bytes(4, "big")
                       + bytes([1]) + os.urandom(16) + os.urandom(8) + bytes([1]) + origin)
            answer = (bytes([1, 7, 1, 0]) + os.urandom(16) + origin + bytes.fromhex(ids["b2"]) + stamp
                      + (27).to_bytes(4, "big") + bytes([1]) + os.urandom(8) + bytes.fromhex(ids["c2"]) + bytes(2)
                      + bytes([1]) + origin)
            for kind, payload, topic in (("request", request, f"{PREFIX}/{MESH}/keyrequest"),
                                         ("answer", answer, f"{PREFIX}/{MESH}/keyanswer/{ids['b2']}")):
                path = os.path.join(lookup_dir, f"{kind}-{i}.env")
                open(path, "wb").write(payload)
                lookup_files.append(f"{topic} {path}")
        before = (nodes["b2"].stats() or {}).get("counters", {}).get("keyRequest", {}).get("received", 0)
        lookup_start = time.time()
        lookup_flood = subprocess.Popen(["xargs", "-P", "8", "-L", "1", "sh", "-c",
                                         " ".join(pub[:-2]) + ' -t "$0" -f "$1"'], stdin=subprocess.PIPE,
                                        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        lookup_flood.stdin.write("\n".join(lookup_files).encode() + b"\n")
        lookup_flood.stdin.close()
        lookup_probes = []
        for i in range(10):
            _, mid = nodes["b2"].send(f"lookup flood probe {i}")
            lookup_probes.append(mid)
            time.sleep(0.2)
        lookup_flood.wait(120)
        lookup_seconds = time.time() - lookup_start
        time.sleep(2)
        counters_a2 = (nodes["a2"].stats() or {}).get("counters", {})
        relayed_in = (nodes["b2"].stats() or {}).get("counters", {}).get("keyRequest", {}).get("received", 0) - before
        summary["lookup_flood"] = {"published": len(lookup_files), "seconds": round(lookup_seconds, 2),
                                   "a2_lookup": counters_a2.get("lookup"), "a2_keyAnswer": counters_a2.get("keyAnswer"),
                                   "requests_relayed_to_b2": relayed_in}
        unrequested = counters_a2.get("lookup", {}).get("bridged_answers_unrequested", 0)
        check(unrequested >= 1 and counters_a2.get("keyAnswer", {}).get("dropped_unverifiable", 0) == 0,
              f"answers to no request of a2's dropped before any signature check ({unrequested})")
        allowed_requests = 8 + lookup_seconds + 2 + 1
        check(relayed_in <= allowed_requests,
              f"requests from the broker relayed into island 2 within one neighbour's budget ({relayed_in}, at most {allowed_requests:.0f})")
        got = deliveries(files)
        probe_ok = sum(1 for m in lookup_probes if got["a2"].get(m, 0) == 1)
        check(probe_ok == len(lookup_probes), f"island 2's probes during the lookup flood: {probe_ok}/{len(lookup_probes)} delivered at a2")
        time.sleep(5)  # a1's share refills
        _, after = nodes["c1"].send("after the flood")
        check(wait_for(lambda: deliveries(files)["b2"].get(after, 0) == 1, 15), "island 1 reaches island 2 again after the flood")
        replayed = [e for e in read_events(files["a2"]) if e.get("text") == "to be replayed"]
        check(len(replayed) == 1, f"replayed envelope delivered once at a2 ({len(replayed)})")
        flood_phase(args, work, broker, nodes, files, capture, summary)
        for w in watches.values():
            w.stop()
        watches.clear()
        for node in nodes.values():
            node.stop()
        broker.kill()
        tls_phase(args, work)
        summary["seconds"] = round(time.time() - started, 1)
        summary["failures"] = failures
    finally:
        for w in watches.values():
            w.stop()
        for node in nodes.values():
            node.stop()
        broker.kill()
        if args.out:
            with open(args.out, "w") as f:
                json.dump(summary, f, indent=1)
        print(json.dumps({k: v for k, v in summary.items() if k != "work"}, indent=1))
        if not args.keep and not failures:
            shutil.rmtree(work, ignore_errors=True)
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
