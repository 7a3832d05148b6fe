"""Issue 21, scale: one mosquitto and N gateways (20 by default) on this machine, each gateway an
island with one local node (meshflood M_i, a protocol-correct neighbour over loopback UDP) that
sends signed one-frame broadcasts at a steady rate; every gateway publishes its island's
broadcasts and hands its island those of every other island. Beside them, in the same run, the
plain relay path: a node R without [mqtt] between meshflood M_0 and a node L_0, M_0 sending as many
broadcasts a second as one gateway handles (its island's plus the downlinked), so R relays the same
traffic over UDP alone.

Measured over one steady window: envelopes per second through the bridge (published, and
delivered at far gateways), end-to-end latency (M_i stamps the wall time into the text; the far
gateway's watch event has the delivery time), CPU per message of the gateways, of R and of
mosquitto (utime + stime from /proc/PID/stat, less each process's idle CPU measured before the
floods), and the ratio gateway / R. Every node has the budgets of daemon_cpu.py opened, so that
this measures cost, not shedding, and --mtu 510 (one frame per broadcast).
Usage (normally through Benchmarks/scripts/mqtt-scale.sh):
  mqtt_scale.py --bin DIR --tools DIR [--gateways 20] [--rate 4] [--seconds 30] [--out FILE]"""
import argparse
import json
import os
import pwd
import shutil
import socket
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "scripts"))  # meshlab
from meshlab import Node, ProcSampler, Watch, percentile, read_events, wait_neighbours  # noqa: E402

MESH = "scale"
NODE_FLAGS = [
    "--mtu", "510",
    "--budget.messages_per_second=100000", "--budget.message_burst=100000",
    "--budget.bytes_per_second=104857600", "--budget.byte_burst=104857600",
    "--budget.verifications_per_second=1000000", "--budget.verification_burst=1000000",
]
IDLE_SECONDS = 4.0
EDGE_SECONDS = 3.0  # cut from both ends of the flood: floods start and end a little apart


def free_port(kind=socket.SOCK_STREAM):
    with socket.socket(socket.AF_INET, kind) as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def start_broker(work, port):
    conf = os.path.join(work, "mosquitto.conf")
    with open(conf, "w") as f:
        f.write(f"listener {port} 127.0.0.1\nallow_anonymous true\nmax_queued_messages 100000\n"
                f"user {pwd.getpwuid(os.getuid()).pw_name}\n")
    log = open(os.path.join(work, "mosquitto.log"), "ab")
    proc = subprocess.Popen(["mosquitto", "-c", conf], stdout=log, stderr=log)
    for _ in range(100):
        try:
            socket.create_connection(("127.0.0.1", port), 0.2).close()
            return proc
        except OSError:
            time.sleep(0.05)
    raise RuntimeError("mosquitto did not listen")


def cpu_between(sampler, start, end):
    a, b = sampler.at(start), sampler.at(end)
    return (b[1] - a[1], b[0] - a[0]) if a and b else (None, None)


def net_cpu(sampler, idle, window):
    """CPU seconds over the window, less the idle rate over the same time."""
    (idle_cpu, idle_wall), (cpu, wall) = cpu_between(sampler, *idle), cpu_between(sampler, *window)
    if cpu is None or not idle_wall:
        return None, None
    return cpu - idle_cpu / idle_wall * wall, cpu


def stamped(event):
    text = event.get("text") or ""
    return int(text[2:]) / 1000 if text.startswith("t=") and text[2:].isdigit() else None


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--bin", required=True)
    parser.add_argument("--tools", required=True)
    parser.add_argument("--gateways", type=int, default=20)
    parser.add_argument("--rate", type=float, default=4.0, help="broadcasts per second from each island")
    parser.add_argument("--seconds", type=float, default=30.0)
    parser.add_argument("--out")
    parser.add_argument("--keep", action="store_true")
    args = parser.parse_args()
    n = args.gateways
    per_gateway = args.rate * n  # messages a gateway handles each second: its island's and the downlinked
    work = tempfile.mkdtemp(prefix="meshnode-mqtt-scale.")
    broker_port = free_port()
    broker = start_broker(work, broker_port)
    # The downlink budgets stay at their defaults (20/s per gateway, 100/s in all) while the traffic
    # fits them with room (20 islands of 4/s: 76/s downlinked at each gateway), else are opened:
    # cost, not shedding.
    bridge = ["--mqtt", "true", "--mqtt-host", "127.0.0.1", "--mqtt-port", str(broker_port), "--mqtt-mesh", MESH]
    summary_budgets = "default"
    if (n - 1) * args.rate > 80 or args.rate > 16:
        bridge += [f"--mqtt.gateway_messages_per_second={int(args.rate * 4)}",
                   f"--mqtt.total_messages_per_second={int(per_gateway * 4)}", f"--mqtt.total_burst={int(per_gateway * 8)}"]
        summary_budgets = "opened"
    gateways = [Node(args.bin, work, f"g{i:02d}", free_port(socket.SOCK_DGRAM), [], NODE_FLAGS + bridge) for i in range(n)]
    relay = Node(args.bin, work, "relay", free_port(socket.SOCK_DGRAM), [], NODE_FLAGS)
    local = Node(args.bin, work, "local", free_port(socket.SOCK_DGRAM), [relay.port], NODE_FLAGS)
    nodes = gateways + [relay, local]
    watches, floods, samplers = [], [], {}
    summary = {"gateways": n, "rate_per_island": args.rate, "seconds": args.seconds, "downlink_budgets": summary_budgets,
               "work": work}
    try:
        for node in nodes:
            node.start()
        if not wait_neighbours({relay: 1, local: 1}, 60):
            raise RuntimeError("the plain relay line did not come up")
        deadline = time.time() + 60
        while time.time() < deadline and not all(
                ((g.status() or {}).get("bridge") or {}).get("state") == "connected" for g in gateways):
            time.sleep(0.5)
        files = {node.name: os.path.join(work, f"{node.name}.watch") for node in gateways + [relay]}
        watches = [Watch(node, files[node.name]) for node in gateways + [relay]]
        samplers = {node.name: ProcSampler(node.pid, 0.5) for node in gateways + [relay]}
        samplers["mosquitto"] = ProcSampler(broker.pid, 0.5)
        for sampler in samplers.values():
            sampler.start()
        quiet = IDLE_SECONDS + 8  # links come up while the others idle; then all flood together
        flood_at = time.time() + quiet
        meshflood = os.path.join(args.tools, "meshflood")
        for target, rate in [(g, args.rate) for g in gateways] + [(relay, per_gateway)]:
            floods.append(subprocess.Popen(
                [meshflood, "--target", f"127.0.0.1:{target.port}", "--mode", "broadcast", "--stamp", "--rate", str(rate),
                 "--duration", str(args.seconds), "--quiet-before", str(max(0.0, flood_at - time.time() - 1)),
                 "--quiet-after", "3", "--json"], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True))
        idle = (flood_at - IDLE_SECONDS - 3, flood_at - 3)
        results = []
        for flood in floods:
            out, err = flood.communicate(timeout=args.seconds + quiet + 120)
            results.append(json.loads(out.strip().splitlines()[-1]) if flood.returncode == 0 else {"error": err[-300:]})
        time.sleep(2)
        for sampler in samplers.values():
            sampler.stop()
        origins = {r.get("node_id"): i for i, r in enumerate(results)}
        # The steady window: after the last flood started, before the first one ended.
        deliveries = {name: read_events(path) for name, path in files.items()}
        first = [min((stamped(e) for name in files for e in deliveries[name] if e.get("from") == r.get("node_id")
                      and stamped(e)), default=None) for r in results]
        if None in first:
            raise RuntimeError(f"a flood delivered nothing: {results}")
        window = (max(first) + EDGE_SECONDS, min(first) + args.seconds - EDGE_SECONDS)
        length = window[1] - window[0]
        across, island, plain = [], [], []
        counts = {name: {"own": 0, "downlinked": 0} for name in files}
        for i, g in enumerate(gateways):
            for e in deliveries[g.name]:
                at, origin = e.get("time", 0), origins.get(e.get("from"))
                if origin is None or stamped(e) is None:
                    continue
                latency = at - stamped(e)
                if origin == i:
                    island.append(latency)
                    if window[0] <= at < window[1]:
                        counts[g.name]["own"] += 1
                else:
                    across.append(latency)
                    if window[0] <= at < window[1]:
                        counts[g.name]["downlinked"] += 1
        for e in deliveries["relay"]:
            if stamped(e) is not None:
                plain.append(e.get("time", 0) - stamped(e))
                if window[0] <= e.get("time", 0) < window[1]:
                    counts["relay"]["own"] += 1
        sent = [r.get("messages_sent", 0) for r in results]
        expected_across = sum(sent[:n]) * (n - 1)
        summary["sent_per_island"] = sent[:n]
        summary["sent_to_relay"] = sent[n]
        summary["delivered_across"] = len(across)
        summary["delivered_across_share"] = round(len(across) / expected_across, 4) if expected_across else None
        summary["relay_delivered_share"] = round(len(plain) / sent[n], 4) if sent[n] else None
        summary["island_heard_share"] = round(sum(r.get("broadcasts_heard", 0) for r in results[:n]) / expected_across, 4) \
            if expected_across else None
        ms = lambda values, q: round(percentile(values, q) * 1000, 1) if values else None
        summary["latency_ms"] = {
            "across_p50": ms(across, 0.5), "across_p95": ms(across, 0.95), "across_p99": ms(across, 0.99),
            "island_p50": ms(island, 0.5), "island_p95": ms(island, 0.95),
            "plain_relay_p50": ms(plain, 0.5), "plain_relay_p95": ms(plain, 0.95)}
        own = sum(counts[g.name]["own"] for g in gateways)
        down = sum(counts[g.name]["downlinked"] for g in gateways)
        summary["window_s"] = round(length, 1)
        summary["published_per_s"] = round(own / length, 1)
        summary["delivered_through_bridge_per_s"] = round(down / length, 1)
        idle_window = idle
        summary["idle_window_s"] = IDLE_SECONDS
        gw_net = gw_raw = 0.0
        for g in gateways:
            net, raw = net_cpu(samplers[g.name], idle_window, window)
            gw_net += net
            gw_raw += raw
        relay_net, relay_raw = net_cpu(samplers["relay"], idle_window, window)
        broker_net, broker_raw = net_cpu(samplers["mosquitto"], idle_window, window)
        handled = own + down
        us = lambda cpu, count: round(cpu * 1e6 / count, 1) if count else None
        summary["cpu"] = {
            "gateway_us_per_message": us(gw_net, handled), "gateways_cpu_s": round(gw_raw, 2), "gateway_messages": handled,
            "relay_us_per_message": us(relay_net, counts["relay"]["own"]), "relay_cpu_s": round(relay_raw, 2),
            "relay_messages": counts["relay"]["own"],
            "broker_us_per_published": us(broker_net, own), "broker_us_per_delivery": us(broker_net, down),
            "broker_cpu_s": round(broker_raw, 2)}
        g_us, r_us = summary["cpu"]["gateway_us_per_message"], summary["cpu"]["relay_us_per_message"]
        summary["gateway_over_relay"] = round(g_us / r_us, 2) if g_us and r_us else None
        mqtt = {}
        for g in gateways:
            for k, v in ((g.stats() or {}).get("counters", {}).get("mqtt", {})).items():
                if k.startswith("dropped") and v:
                    mqtt[k] = mqtt.get(k, 0) + v
        summary["mqtt_drops"] = mqtt
        summary["load_average"] = os.getloadavg()
    finally:
        for w in watches:
            w.stop()
        for flood in floods:
            if flood.poll() is None:
                flood.kill()
        for node in nodes:
            node.stop()
        broker.kill()
        broker.wait()
        if args.out:
            with open(args.out, "w") as f:
                json.dump(summary, f, indent=1)
        print(json.dumps({k: v for k, v in summary.items() if k not in ("work", "sent_per_island")}, indent=1))
        if not args.keep:
            shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
