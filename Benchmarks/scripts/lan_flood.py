"""A hostile host on the LAN (issue 35, "Hostile LAN"), over loopback UDP: a line A-B-C of meshnoded,
A sending a probe broadcast every 0.2 s to C through B, while B is flooded as fast as one sender
core can (a) with garbage datagrams (random bytes, and well-formed frame datagrams of links B does
not have), (b) with validly sealed frames by a linked neighbour (meshflood: 61 KB messages, and
broadcasts whose signatures do not verify), and (c) with connects
of fresh links from one port. Each flood runs once with B's frame budget off
(`--links.frames_per_second=0`) and once with the default, in the same run. Reports B's CPU over
the flood (from /proc/PID/stat) with the load average beside it, and A's probes delivered at C.
Usage (normally through Benchmarks/scripts/lan-flood.sh):
  lan_flood.py --bin DIR --tools DIR [--seconds 15] [--budgets 0,2000] [--floods garbage,connect,big,bad-signature] [--out FILE]"""
import argparse
import json
import os
import random
import socket
import subprocess
import sys
import tempfile
import threading
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "scripts"))  # meshlab
from meshlab import Node, ProcSampler, Watch, read_events, wait_neighbours  # noqa: E402

QUIET_BEFORE = 2.0


def garbage_flood(port, seconds, seed):
    """Sends garbage to 127.0.0.1:port for `seconds` as fast as it can; returns datagrams sent."""
    rng = random.Random(seed)
    pool = []
    for index in range(4096):
        if index % 2:
            pool.append(rng.randbytes(rng.randint(1, 600)))
        else:
            # A frame datagram (type 3) of a link B does not know: header, then a frame-sized body.
            header = bytes([3, rng.getrandbits(1)]) + rng.getrandbits(128).to_bytes(16, "big")
            pool.append(header + rng.randbytes(rng.randint(1, 185)))
    return send_pool(pool, port, seconds)


def connect_flood(port, seconds, seed):
    """Sends connects with fresh link nonces from one port for `seconds`; returns datagrams sent."""
    rng = random.Random(seed)
    pool = [bytes([1, 1]) + rng.getrandbits(128).to_bytes(16, "big") + bytes([0, 185]) for _ in range(4096)]
    return send_pool(pool, port, seconds)


def send_pool(pool, port, seconds):
    sender = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    sender.setblocking(False)
    target = ("127.0.0.1", port)
    sent = 0
    end = time.time() + seconds
    send = sender.sendto
    while time.time() < end:
        for datagram in pool:
            try:
                send(datagram, target)
            except BlockingIOError:
                pass
        sent += len(pool)
    return sent


def probe_loop(node, interval, until, probes):
    next_at = time.time()
    n = 0
    while not until():
        n += 1
        probes.append(node.send(f"probe {n}"))
        next_at += interval
        time.sleep(max(0, next_at - time.time()))


def loadavg():
    with open("/proc/loadavg") as f:
        return float(f.read().split()[0])


def run(args, flood, budget, work):
    base = random.randint(20000, 50000)
    name = f"{flood}-{budget}"
    a = Node(args.bin, work, f"{name}-A", base, [base + 1])
    b = Node(args.bin, work, f"{name}-B", base + 1, extra=[f"--links.frames_per_second={budget}"])
    c = Node(args.bin, work, f"{name}-C", base + 2, [base + 1])
    nodes = [a, b, c]
    for node in nodes:
        node.start()
    result = {"flood": flood, "frames_per_second": budget}
    try:
        if not wait_neighbours({a: 1, b: 2, c: 1}, 30):
            result["error"] = "the line A-B-C did not come up"
            return result
        watch = Watch(c, os.path.join(c.dir, "watch.jsonl"))
        time.sleep(0.5)
        sampler = ProcSampler(b.pid, 0.25)
        sampler.start()
        probes = []
        done = threading.Event()
        prober = threading.Thread(target=probe_loop, args=(a, 0.2, done.is_set, probes))
        load_before = loadavg()
        if flood in ("garbage", "connect"):
            prober.start()
            start = time.time()
            sent = (garbage_flood if flood == "garbage" else connect_flood)(b.port, args.seconds, args.seed)
            end = time.time()
            result["sent"] = sent
        else:
            launched = time.time()
            m = subprocess.Popen(
                [os.path.join(args.tools, "meshflood"), "--target", f"127.0.0.1:{b.port}", "--mode", flood,
                 "--rate", "0", "--duration", str(args.seconds), "--quiet-before", str(QUIET_BEFORE), "--json"],
                stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
            prober.start()
            out, err = m.communicate(timeout=args.seconds + 60)
            if m.returncode != 0:
                result["error"] = f"meshflood exited {m.returncode}: {err.strip()}"
                return result
            summary = json.loads(out.strip().splitlines()[-1])
            start = launched + summary["ready_after_s"] + QUIET_BEFORE
            end = start + summary["elapsed_s"]
            result["sent"] = summary["frames_sent"]
        done.set()
        prober.join()
        load_after = loadavg()
        time.sleep(2)
        sampler.stop()
        stats = b.stats() or {"counters": {}}
        watch.stop()
        arrived = {e["messageID"] for e in read_events(os.path.join(c.dir, "watch.jsonl"))}
        in_flood = [mid for t, mid in probes if start <= t <= end]
        first, last = sampler.at(start), sampler.at(end)
        counters = stats["counters"]
        result.update({
            "seconds": round(end - start, 1),
            "sent_per_s": round(result["sent"] / max(0.001, end - start)),
            "b_cpu_fraction": round((last[1] - first[1]) / max(0.001, last[0] - first[0]), 3),
            "load_average": [load_before, load_after],
            "probes_sent": len(in_flood),
            "probes_delivered": sum(1 for mid in in_flood if mid and mid in arrived),
            "transport_frames_over_budget": counters.get("transport", {}).get("frames_over_budget"),
            "links_frames_over_budget": counters.get("links", {}).get("frames_over_budget"),
            "transport": {k: v for k, v in counters.get("transport", {}).items() if v},
            "seal_failures": counters.get("links", {}).get("seal_failures"),
        })
    finally:
        result["exit_status"] = {n.name: n.stop() for n in nodes}
    return result


def line(r):
    if "error" in r:
        return f'| {r["flood"]} | {r["frames_per_second"]} | error: {r["error"]} |'
    return (f'| {r["flood"]} | {r["frames_per_second"] or "off"} | {r["sent_per_s"]:,}/s | {100 * r["b_cpu_fraction"]:.0f} % '
            f'(load {r["load_average"][0]:.1f}–{r["load_average"][1]:.1f}) | {r["probes_delivered"]} of {r["probes_sent"]} | '
            f'{r["transport_frames_over_budget"]} / {r["links_frames_over_budget"]} |')


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--bin", required=True)
    parser.add_argument("--tools", required=True)
    parser.add_argument("--seconds", type=float, default=15)
    parser.add_argument("--budgets", default="0,2000")
    parser.add_argument("--floods", default="garbage,connect,big,bad-signature")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--out", default="lan-flood.json")
    args = parser.parse_args()
    work = tempfile.mkdtemp(prefix="meshnode-lanflood.")
    results = []
    print("| flood | frames_per_second | sent | B's CPU | probes at C | frames over budget (transport / engine) |")
    print("|---|---|---|---|---|---|")
    for flood in args.floods.split(","):
        for budget in (int(x) for x in args.budgets.split(",")):
            result = run(args, flood, budget, work)
            results.append(result)
            print(line(result), flush=True)
    with open(args.out, "w") as f:
        json.dump({"started": time.strftime("%Y-%m-%dT%H:%M:%S"), "nproc": os.cpu_count(), "results": results}, f, indent=2)
    print(f"JSON: {args.out}   logs: {work}")
    return 1 if any("error" in r for r in results) else 0


if __name__ == "__main__":
    sys.exit(main())
