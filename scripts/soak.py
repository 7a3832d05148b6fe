"""A soak with faults (issue 11): ten meshnoded over loopback UDP in a line with extra links,
for MINUTES, with random link cuts (through UDP relays, scripts/linkproxy.py), node restarts
(SIGTERM, then start), one kill -9, and one meshflood neighbour cycling through floods; a probe
broadcast from a random node every second. Checks, and exits 1 when one fails:
  - no daemon exited other than when the soak stopped or killed it, and every SIGTERM exit is 0;
  - no message was delivered twice to a user at any node (watch recordings), kill -9 included
    (the node keeps its seen cache in seen.journal);
  - memory of each long-lived node stays under --max-rss-mb, and in runs of 10 minutes or more
    is flat: the slope of its anonymous memory (RssAnon: heap, stacks; where a leak would show)
    over the second half of the run is at most --max-slope KB/min (a shorter run sees only the
    bounded caches filling: the seen cache alone grows to 6.7 MiB). Not RSS: its file pages
    (code mapped as it runs) are not a leak;
  - at least 99 % of probe deliveries arrive where a path within the hop limit existed when the
    probe was sent: every link on it up (not cut, both ends running) from STABLE_BEFORE seconds
    before the send to STABLE_AFTER seconds after.
Usage (normally through scripts/soak.sh): soak.py --bin DIR --tools DIR --minutes M [--seed N] [--out FILE]"""
import argparse
import json
import os
import random
import signal
import subprocess
import sys
import tempfile
import threading
import time
from collections import deque

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from linkproxy import LinkProxies  # noqa: E402
from meshlab import Node, ProcSampler, Watch, read_events, wait_neighbours  # noqa: E402

NODES = 10
# A line 0-1-...-9 and five extra links, so most pairs have a second path.
EDGES = [(i, i + 1) for i in range(NODES - 1)] + [(0, 3), (2, 5), (4, 7), (6, 9), (1, 8)]
LONG_LIVED = [0, 1, 2, 3, 4]   # never restarted or killed: their memory is checked
RESTARTABLE = [5, 6, 7, 8, 9]
FLOOD_NODE = 2                 # the node meshflood links to
HOP_LIMIT = 3                  # message hop limit: nodes up to 3 links from the origin
STABLE_BEFORE, STABLE_AFTER = 8.0, 3.0
FLOODS = [("broadcast", 100), ("forged-route", 2000), ("direct", 100), ("fresh-join", 50), ("bad-signature", 200),
          ("fresh-broadcast", 50), ("big", 4)]


class Timeline:
    """When each node was down and each link was cut, to know which paths existed."""

    def __init__(self):
        self.node_down = {i: [] for i in range(NODES)}   # [start, end or None]
        self.node_killed = {i: [] for i in range(NODES)}  # kill -9 restarts only (nothing kept)
        self.edge_cut = {e: [] for e in EDGES}
        self.lock = threading.Lock()

    def begin(self, intervals, key, t):
        with self.lock:
            intervals[key].append([t, None])

    def end(self, intervals, key, t):
        with self.lock:
            for interval in intervals[key]:
                if interval[1] is None:
                    interval[1] = t

    @staticmethod
    def overlaps(intervals, start, end):
        return any(s <= end and (e is None or e >= start) for s, e in intervals)

    def edge_stable(self, edge, t):
        start, end = t - STABLE_BEFORE, t + STABLE_AFTER
        return not (self.overlaps(self.edge_cut[edge], start, end)
                    or self.overlaps(self.node_down[edge[0]], start, end)
                    or self.overlaps(self.node_down[edge[1]], start, end))

    def reachable(self, source, t):
        """Nodes within HOP_LIMIT stable links of `source` at time t."""
        adjacent = {i: [] for i in range(NODES)}
        for a, b in EDGES:
            if self.edge_stable((a, b), t):
                adjacent[a].append(b)
                adjacent[b].append(a)
        seen, frontier = {source: 0}, deque([source])
        while frontier:
            node = frontier.popleft()
            if seen[node] == HOP_LIMIT:
                continue
            for nxt in adjacent[node]:
                if nxt not in seen:
                    seen[nxt] = seen[node] + 1
                    frontier.append(nxt)
        return {n for n in seen if n != source}


class Soak:
    def __init__(self, args):
        self.args = args
        self.rng = random.Random(args.seed)
        self.work = tempfile.mkdtemp(prefix="meshnode-soak.")
        base = self.rng.randint(20000, 45000)
        self.proxies = LinkProxies()
        neighbours = {i: [] for i in range(NODES)}
        self.proxy_of = {}
        for k, (a, b) in enumerate(EDGES):
            front = base + 100 + k
            self.proxy_of[(a, b)] = self.proxies.add(front, base + b)
            neighbours[a].append(front)
        self.nodes = [Node(args.bin, self.work, f"N{i}", base + i, neighbours[i]) for i in range(NODES)]
        self.watches = {}
        self.samplers = {}
        self.timeline = Timeline()
        self.probes = []          # (time, sender index, message ID, reachable set)
        self.events = []          # (time, text)
        self.unexpected_exits = []
        self.flood_runs = []
        self.stopping = False
        self.busy = set()         # nodes being restarted

    def log(self, text):
        stamp = time.time()
        self.events.append((stamp, text))
        print(f"  [{stamp - self.t0:6.1f} s] {text}", flush=True)

    def start_watch(self, i):
        node = self.nodes[i]
        for _ in range(50):
            if os.path.exists(node.socket) and node.status():
                break
            time.sleep(0.1)
        self.watches[i] = Watch(node, os.path.join(node.dir, "watch.jsonl"))

    def restart(self, i, hard):
        """SIGTERM (or kill -9) node i, start it again after a pause, watch it again."""
        node = self.nodes[i]
        self.busy.add(i)
        self.timeline.begin(self.timeline.node_down, i, time.time())
        self.watches[i].stop()
        if hard:
            self.timeline.node_killed[i].append(time.time())
            node.kill9()
            self.log(f"kill -9 N{i}")
        else:
            status = node.stop()
            self.log(f"SIGTERM N{i}: exit {status}")
        time.sleep(self.rng.uniform(2, 5))
        node.start()
        self.start_watch(i)
        self.timeline.end(self.timeline.node_down, i, time.time())
        self.log(f"started N{i} again")
        self.busy.discard(i)

    def cut(self, edge, seconds):
        proxy = self.proxy_of[edge]
        self.timeline.begin(self.timeline.edge_cut, edge, time.time())
        proxy.cut = True
        self.log(f"cut link N{edge[0]}-N{edge[1]} for {seconds:.0f} s")
        time.sleep(seconds)
        proxy.cut = False
        self.timeline.end(self.timeline.edge_cut, edge, time.time())
        self.log(f"restored link N{edge[0]}-N{edge[1]}")

    def faults(self, end):
        """Random faults until `end`: link cuts, restarts, one kill -9 in the middle."""
        killed = False
        workers = []
        time.sleep(min(10, (end - time.time()) / 4))
        while time.time() < end - 15:
            choice = self.rng.random()
            if not killed and time.time() > self.t0 + (end - self.t0) / 2:
                target = self.rng.choice([i for i in RESTARTABLE if i not in self.busy])
                work = threading.Thread(target=self.restart, args=(target, True))
                killed = True
            elif choice < 0.55:
                edge = self.rng.choice(EDGES)
                if self.proxy_of[edge].cut:
                    continue
                work = threading.Thread(target=self.cut, args=(edge, self.rng.uniform(5, 15)))
            else:
                free = [i for i in RESTARTABLE if i not in self.busy]
                if not free:
                    continue
                work = threading.Thread(target=self.restart, args=(self.rng.choice(free), False))
            work.start()
            workers.append(work)
            time.sleep(self.rng.uniform(6, 12))
        for work in workers:
            work.join()

    def flood(self, end):
        """One meshflood neighbour on FLOOD_NODE, cycling through floods of 20 s with 5 s gaps."""
        k = 0
        while time.time() < end - 30:
            mode, rate = FLOODS[k % len(FLOODS)]
            k += 1
            target = self.nodes[FLOOD_NODE].port
            out = subprocess.run([os.path.join(self.args.tools, "meshflood"), "--target", f"127.0.0.1:{target}",
                                  "--mode", mode, "--rate", str(rate), "--duration", "20", "--seed", str(k),
                                  "--json"], capture_output=True, text=True, timeout=90)
            try:
                summary = json.loads(out.stdout.strip().splitlines()[-1])
            except (ValueError, IndexError):
                summary = {"mode": mode, "error": out.stderr.strip()}
            self.flood_runs.append(summary)
            self.log(f"meshflood {mode}: {summary.get('messages_sent', 0)} messages at {summary.get('rate', 0)}/s")
            time.sleep(5)

    def probe(self, end):
        n = 0
        while time.time() < end:
            n += 1
            tick = time.time()
            candidates = [i for i in range(NODES) if i not in self.busy and self.nodes[i].running()]
            sender = self.rng.choice(candidates)
            sent_at, message_id = self.nodes[sender].send(f"soak probe {n} from N{sender}")
            if message_id:
                self.probes.append((sent_at, sender, message_id))
            time.sleep(max(0, tick + 1 - time.time()))

    def watch_exits(self, end):
        while time.time() < end:
            for i, node in enumerate(self.nodes):
                if i not in self.busy and node.proc is not None and node.proc.poll() is not None:
                    self.unexpected_exits.append((f"N{i}", node.proc.returncode, time.time() - self.t0))
                    self.log(f"N{i} exited by itself with {node.proc.returncode}")
                    node.proc = None
            time.sleep(0.5)

    def run(self):
        self.proxies.start()
        for node in self.nodes:
            node.start()
        degree = {i: sum(1 for e in EDGES if i in e) for i in range(NODES)}
        self.t0 = time.time()
        if not wait_neighbours({self.nodes[i]: degree[i] for i in range(NODES)}, 60):
            print("soak: the mesh did not come up", file=sys.stderr)
        self.log("mesh up")
        for i in range(NODES):
            self.start_watch(i)
        for i in LONG_LIVED:
            self.samplers[i] = ProcSampler(self.nodes[i].pid, 2.0)
            self.samplers[i].start()
        end = time.time() + self.args.minutes * 60
        threads = [threading.Thread(target=f, args=(end,)) for f in (self.faults, self.flood, self.probe, self.watch_exits)]
        for t in threads:
            t.daemon = True
            t.start()
        try:
            for t in threads:
                t.join()
            time.sleep(STABLE_AFTER + 3)
        finally:
            self.stopping = True
            # Frames past a link's frame budget since each node's last start (PROTOCOL.md Part E):
            # only the flooded node's may have any, from meshflood's link.
            self.over_budget = {}
            for i, node in enumerate(self.nodes):
                counters = (node.stats() or {}).get("counters", {})
                self.over_budget[f"N{i}"] = (counters.get("links", {}).get("frames_over_budget", 0)
                                             + counters.get("transport", {}).get("frames_over_budget", 0))
            for sampler in self.samplers.values():
                sampler.stop()
            for watch in self.watches.values():
                watch.stop()
            statuses = {node.name: node.stop() for node in self.nodes}
            self.proxies.stop()
        return self.report(statuses)

    def report(self, statuses):
        deliveries = {}
        for i, node in enumerate(self.nodes):
            deliveries[i] = {}
            for event in read_events(os.path.join(node.dir, "watch.jsonl")):
                deliveries[i].setdefault(event["messageID"], []).append(event["time"])
        expected = delivered = 0
        missed = []
        latencies = []
        for sent_at, sender, message_id in self.probes:
            for target in self.timeline.reachable(sender, sent_at):
                expected += 1
                times = deliveries[target].get(message_id)
                if times:
                    delivered += 1
                    latencies.append(times[0] - sent_at)
                else:
                    missed.append({"probe": message_id, "from": f"N{sender}", "to": f"N{target}",
                                   "at_s": round(sent_at - self.t0, 1)})
        duplicates = [{"node": f"N{i}", "message": mid, "copies": len(times),
                       "across_restart": any(times[0] <= s <= times[-1] for s, _ in self.timeline.node_down[i]),
                       "across_crash": any(times[0] <= s <= times[-1] for s in self.timeline.node_killed[i])}
                      for i in range(NODES) for mid, times in deliveries[i].items() if len(times) > 1]
        slopes, rss_slopes = {}, {}
        for i, sampler in self.samplers.items():
            half = [s for s in sampler.samples if s[0] >= sampler.samples[0][0] + (sampler.samples[-1][0] - sampler.samples[0][0]) / 2]
            slopes[f"N{i}"] = round(slope_kb_per_minute(half, field=4), 1)
            rss_slopes[f"N{i}"] = round(slope_kb_per_minute(half, field=2), 1)
        rss = {f"N{i}": [round(s.samples[0][2] / 1024, 1), round(max(x[2] for x in s.samples) / 1024, 1),
                         round(s.samples[-1][2] / 1024, 1)] for i, s in self.samplers.items()}
        bad_exits = {name: status for name, status in statuses.items() if status not in (0, None)}
        for node in self.nodes:
            for how, status in node.exits:
                if how != "kill9" and status != 0:
                    bad_exits.setdefault(node.name, status)
        ratio = delivered / expected if expected else 1.0
        checks = {
            "no_crash": not self.unexpected_exits and not bad_exits,
            "no_duplicate_delivery": not [d for d in duplicates
                                          if not (self.args.allow_restart_duplicates and d["across_restart"])],
            "memory_bounded": all(peak <= self.args.max_rss_mb for _, peak, _ in rss.values()),
            "memory_flat": self.args.minutes < 10 or all(v <= self.args.max_slope for v in slopes.values()),
            "delivery_99": ratio >= 0.99,
            "honest_links_within_frame_budget": all(v == 0 for k, v in self.over_budget.items() if k != f"N{FLOOD_NODE}"),
        }
        latencies.sort()
        result = {
            "minutes": self.args.minutes, "seed": self.args.seed, "work": self.work, "checks": checks,
            "probes": len(self.probes), "expected_deliveries": expected, "delivered": delivered,
            "delivery_ratio": round(ratio, 5),
            "latency_p50_s": round(latencies[len(latencies) // 2], 3) if latencies else None,
            "latency_p95_s": round(latencies[int(0.95 * (len(latencies) - 1))], 3) if latencies else None,
            "frames_over_budget": self.over_budget,
            "missed": missed[:50], "missed_count": len(missed), "duplicates": duplicates[:50],
            "duplicate_count": len(duplicates), "anon_slope_kb_per_min": slopes, "rss_slope_kb_per_min": rss_slopes,
            "rss_mb_first_peak_last": rss, "max_slope": self.args.max_slope,
            "unexpected_exits": self.unexpected_exits, "bad_exit_status": bad_exits,
            "exits": {n.name: n.exits for n in self.nodes},
            "faults": [(round(t - self.t0, 1), text) for t, text in self.events],
            "floods": self.flood_runs,
        }
        return result


def slope_kb_per_minute(samples, field):
    """Least-squares slope of a sample's kB `field` (2: RSS, 4: anonymous) over time, in kB per minute."""
    if len(samples) < 3:
        return 0.0
    xs = [s[0] for s in samples]
    ys = [s[field] for s in samples]
    mx, my = sum(xs) / len(xs), sum(ys) / len(ys)
    var = sum((x - mx) ** 2 for x in xs)
    return 60 * sum((x - mx) * (y - my) for x, y in zip(xs, ys)) / var if var else 0.0


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--bin", required=True, help="the folder of meshnoded and relayctl")
    parser.add_argument("--tools", required=True, help="the folder of meshflood (the Benchmarks package's build)")
    parser.add_argument("--minutes", type=float, required=True)
    parser.add_argument("--seed", type=int, default=int(time.time()))
    parser.add_argument("--max-slope", type=float, default=1024.0, help="KB/min allowed over the second half")
    parser.add_argument("--max-rss-mb", type=float, default=64.0, help="peak RSS allowed per long-lived node")
    parser.add_argument("--allow-restart-duplicates", action="store_true",
                        help="report, but do not fail on, second deliveries at a node that restarted (SIGTERM) in between")
    parser.add_argument("--out", default="soak-results.json")
    args = parser.parse_args()
    if not 1 <= args.minutes <= 240:
        parser.error("--minutes must be within 1...240")
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(2))
    print(f"== soak: {NODES} nodes, {len(EDGES)} links, {args.minutes:g} min, seed {args.seed}", flush=True)
    result = Soak(args).run()
    with open(args.out, "w") as f:
        json.dump(result, f, indent=2)
    print(f"== probes {result['probes']}; deliveries where a path within {HOP_LIMIT} hops existed: "
          f"{result['delivered']} of {result['expected_deliveries']} ({100 * result['delivery_ratio']:.2f} %), "
          f"p50 {result['latency_p50_s']} s, p95 {result['latency_p95_s']} s")
    across = sum(1 for d in result["duplicates"] if d["across_restart"])
    crashed = sum(1 for d in result["duplicates"] if d["across_crash"])
    print(f"== duplicates delivered: {result['duplicate_count']} ({across} across a restart of the receiving node, "
          f"{crashed} of them across a kill -9); unexpected exits: {result['unexpected_exits']}; "
          f"bad exit status: {result['bad_exit_status']}")
    print(f"== anonymous memory slope (second half), KB/min: {result['anon_slope_kb_per_min']}; "
          f"RSS slope: {result['rss_slope_kb_per_min']}; "
          f"MB first/peak/last: {result['rss_mb_first_peak_last']}")
    for name, ok in result["checks"].items():
        print(f"   {'PASS' if ok else 'FAIL'} {name}")
    print(f"JSON: {args.out}   logs: {result['work']}")
    return 0 if all(result["checks"].values()) else 1


if __name__ == "__main__":
    sys.exit(main())
