"""Issue 12: µs of CPU per relayed message for the whole meshnoded process beside the engine's.
A line A-B-C of release meshnoded over loopback UDP; meshflood (M) linked to B sends one-frame
broadcasts at a steady rate B keeps up with (every message must be relayed: checked against B's
counters). B's utime+stime from /proc before and after the flood, less B's idle CPU over the same
wall time, divided by the messages B relayed. Then enginecpu runs the same messages through the
engine alone in-process (M, A, B, C engines; only B's engine calls timed, in thread CPU time).
With --perf, B is sampled by `perf record` during the flood and its CPU split by where it went.
Usage (normally through Benchmarks/scripts/daemon-cpu.sh):
  daemon_cpu.py --bin DIR --tools DIR [--baseline DIR] [--rate 500] [--seconds 10] [--repeat 1] [--perf] [--out FILE]
--baseline DIR runs binaries built elsewhere (say, before a change) in the same rounds, alternating."""
import argparse
import json
import os
import random
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "scripts"))  # meshlab
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from meshlab import TICKS, Node, wait_neighbours  # noqa: E402
from perf_attribution import attribute  # noqa: E402

# One frame per broadcast needs a link MTU above the 203-byte envelope plus link seal and frame
# header; 510 is the largest a GATT link carries. The budgets are opened so that B relays every
# message (by default one upstream may hand B 20 messages a second): this measures cost, not shedding.
NODE_FLAGS = [
    "--mtu", "510",
    "--budget.messages_per_second=100000", "--budget.message_burst=100000",
    "--budget.bytes_per_second=104857600", "--budget.byte_burst=104857600",
    "--budget.verifications_per_second=1000000", "--budget.verification_burst=1000000",
]
IDLE_SECONDS = 3.0
SETTLE_SECONDS = 0.5


def cpu_seconds(pid):
    with open(f"/proc/{pid}/stat") as f:
        fields = f.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / TICKS


def thread_switches(pid):
    """Context switches and CPU of each of the process's threads, by thread ID: (name, voluntary,
    involuntary, cpu seconds). A voluntary switch is the thread going to sleep, so each one is a
    wake-up later."""
    threads = {}
    for tid in os.listdir(f"/proc/{pid}/task"):
        try:
            with open(f"/proc/{pid}/task/{tid}/comm") as f:
                name = f.read().strip()
            with open(f"/proc/{pid}/task/{tid}/status") as f:
                fields = dict(line.split(":", 1) for line in f if ":" in line)
            with open(f"/proc/{pid}/task/{tid}/stat") as f:
                stat = f.read().rsplit(")", 1)[1].split()
        except OSError:
            continue
        threads[tid] = (name, int(fields["voluntary_ctxt_switches"]), int(fields["nonvoluntary_ctxt_switches"]),
                        (int(stat[11]) + int(stat[12])) / TICKS)
    return threads


def switches_per_message(before, after, messages):
    """Sleeps (voluntary switches) and CPU µs per relayed message by thread name, over the threads
    alive at the end (a thread that exited during the flood is missing; one started during it
    counts from 0)."""
    by_name = {}
    for tid, (name, voluntary, involuntary, cpu) in after.items():
        _, v0, i0, c0 = before.get(tid, (name, 0, 0, 0.0))
        entry = by_name.setdefault(name, {"threads": 0, "voluntary": 0, "involuntary": 0, "cpu_s": 0.0})
        entry["threads"] += 1
        entry["voluntary"] += voluntary - v0
        entry["involuntary"] += involuntary - i0
        entry["cpu_s"] = round(entry["cpu_s"] + cpu - c0, 3)
    for entry in by_name.values():
        entry["voluntary_per_message"] = round(entry["voluntary"] / messages, 3) if messages else None
        entry["cpu_us_per_message"] = round(entry["cpu_s"] * 1e6 / messages, 1) if messages else None
    return by_name


def settle(node, expected, quiet=1.0, limit=30.0):
    """Waits until B has received `expected` messages, or its count stands still for `quiet` s:
    on a busy machine B may still be working through its inbox when the flood ends."""
    deadline = time.time() + limit
    last, since = None, time.time()
    while time.time() < deadline:
        received = message_counters(node)["received"]
        if received >= expected:
            break
        if received != last:
            last, since = received, time.time()
        elif time.time() - since >= quiet:
            break
        time.sleep(0.1)
    time.sleep(SETTLE_SECONDS)


def message_counters(node):
    stats = node.stats()
    if not stats:
        raise RuntimeError(f"{node.name}: no stats")
    return stats["counters"]["message"]


def run_daemon(args, bin_dir, tools_dir, work, name):
    base = random.randint(20000, 50000)
    a = Node(bin_dir, work, f"{name}-A", base, [base + 1], NODE_FLAGS)
    b = Node(bin_dir, work, f"{name}-B", base + 1, [], NODE_FLAGS + args.b_flags)
    c = Node(bin_dir, work, f"{name}-C", base + 2, [base + 1], NODE_FLAGS)
    nodes = [a, b, c]
    for node in nodes:
        node.start()
    result = {}
    try:
        if not wait_neighbours({a: 1, b: 2, c: 1}, 30):
            result["error"] = "the line A-B-C did not come up"
            return result
        time.sleep(1)
        idle_start, idle_cpu = time.time(), cpu_seconds(b.pid)
        time.sleep(IDLE_SECONDS)
        idle_rate = (cpu_seconds(b.pid) - idle_cpu) / (time.time() - idle_start)
        before = message_counters(b)
        switches_start = thread_switches(b.pid)
        wall_start, cpu_start = time.time(), cpu_seconds(b.pid)
        perf = None
        if args.perf:
            perf_data = os.path.join(b.dir, "perf.data")
            perf = subprocess.Popen(
                ["perf", "record", "-q", "-e", "cpu-clock", "-F", str(args.perf_frequency), "--call-graph", "dwarf,32768",
                 "-p", str(b.pid), "-o", perf_data],
                stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
            time.sleep(0.5)
        flood = subprocess.run(
            [os.path.join(tools_dir, "meshflood"), "--target", f"127.0.0.1:{b.port}", "--mode", "broadcast",
             "--rate", str(args.rate), "--duration", str(args.seconds), "--json"],
            capture_output=True, text=True, timeout=args.seconds + 60)
        m_sent = json.loads(flood.stdout.strip().splitlines()[-1])["messages_sent"] if flood.returncode == 0 else 0
        settle(b, before["received"] + m_sent)
        if perf:
            perf.send_signal(2)
            perf.wait(30)
        wall, cpu = time.time() - wall_start, cpu_seconds(b.pid) - cpu_start
        switches_end = thread_switches(b.pid)
        after = message_counters(b)
        inbox = (b.stats() or {}).get("counters", {}).get("inbox", {})
        if flood.returncode != 0:
            result["error"] = f"meshflood exited {flood.returncode}: {flood.stderr.strip()}"
            return result
        m = json.loads(flood.stdout.strip().splitlines()[-1])
        received = after["received"] - before["received"]
        copies = after["relayed"] - before["relayed"]
        relayed = min(received, copies // 2)
        busy = max(0.0, cpu - idle_rate * wall)
        result.update({
            "m_messages": m["messages_sent"], "m_frames": m["frames_sent"], "m_rate": m["rate"],
            "b_received": received, "b_relayed_copies": copies, "b_relayed_messages": relayed,
            "b_delivered": after["delivered"] - before["delivered"], "b_inbox": inbox,
            "every_message_relayed": received == m["messages_sent"] and copies == 2 * received,
            "wall_s": round(wall, 3), "b_cpu_s": round(cpu, 3), "b_idle_cpu_per_s": round(idle_rate, 5),
            "b_cpu_s_less_idle": round(busy, 3),
            "us_per_relayed_message": round(cpu * 1e6 / relayed, 1) if relayed else None,
            "us_per_relayed_message_less_idle": round(busy * 1e6 / relayed, 1) if relayed else None,
            "meshflood": m,
            "b_thread_switches": switches_per_message(switches_start, switches_end, relayed),
        })
        if perf:
            result["perf"] = attribute(perf_data)
    finally:
        result["exit_status"] = {n.name: n.stop() for n in nodes}
    return result


def run_engine(args, tools_dir, messages):
    out = subprocess.run(
        [os.path.join(tools_dir, "enginecpu"), "--messages", str(messages), "--rate", str(args.rate), "--", *NODE_FLAGS],
        capture_output=True, text=True, timeout=600)
    if out.returncode != 0:
        return {"error": f"enginecpu exited {out.returncode}: {out.stderr.strip()}"}
    return json.loads(out.stdout.strip().splitlines()[-1])


def table(rounds):
    head = ["round", "build", "messages", "all relayed", "B CPU s (idle off)", "meshnoded µs/msg (idle off)",
            "engine µs/msg", "ratio"]
    rows = []
    for r in rounds:
        d, e = r["daemon"], r["engine"]
        if "error" in d or "error" in e:
            rows.append([str(r["round"]), r["build"], "error: " + d.get("error", e.get("error", ""))] + [""] * (len(head) - 3))
            continue
        rows.append([
            str(r["round"]), r["build"], str(d["b_relayed_messages"]), "yes" if d["every_message_relayed"] else "NO",
            f'{d["b_cpu_s"]} ({d["b_cpu_s_less_idle"]})',
            f'{d["us_per_relayed_message"]} ({d["us_per_relayed_message_less_idle"]})',
            f'{e["us_per_relayed_message"]:.1f}', f'{r["ratio"]:.2f}',
        ])
    widths = [max(len(str(x)) for x in col) for col in zip(head, *rows)]
    lines = ["| " + " | ".join(str(x).ljust(w) for x, w in zip(row, widths)) + " |" for row in [head] + rows]
    lines.insert(1, "|" + "|".join("-" * (w + 2) for w in widths) + "|")
    return "\n".join(lines)


def perf_table(perf):
    lines = [f"B's CPU by where it went ({perf['samples']} samples):"]
    for name, share in perf["shares"].items():
        lines.append(f"  {name:<40} {100 * share:5.1f} %")
    return "\n".join(lines)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--bin", required=True, help="the folder of meshnoded and relayctl")
    parser.add_argument("--tools", required=True, help="the folder of meshflood and enginecpu (the Benchmarks package's build)")
    parser.add_argument("--baseline", help="a folder of meshnoded, relayctl, meshflood and enginecpu to run alongside")
    parser.add_argument("--rate", type=float, default=500)
    parser.add_argument("--seconds", type=float, default=10)
    parser.add_argument("--repeat", type=int, default=1)
    parser.add_argument("--perf", action="store_true", help="sample B with perf record during the flood")
    parser.add_argument("--perf-frequency", type=int, default=499)
    parser.add_argument("--b-flag", dest="b_flags", action="append", default=[],
                        help="an extra meshnoded flag for B only (e.g. --b-flag=--log-level=notice)")
    parser.add_argument("--out", default="daemon-cpu.json")
    args = parser.parse_args()
    builds = (([("baseline", os.path.abspath(args.baseline), os.path.abspath(args.baseline))] if args.baseline else [])
              + [("this", os.path.abspath(args.bin), os.path.abspath(args.tools))])
    work = tempfile.mkdtemp(prefix="meshnode-daemoncpu.")
    loadavg_at_start = os.getloadavg()
    print(f"load average at start: {loadavg_at_start}", flush=True)
    rounds = []
    for i in range(args.repeat):
        for build, bin_dir, tools_dir in builds:
            print(f"== round {i + 1}, {build} ({bin_dir}): M floods B at {args.rate:g}/s for {args.seconds:g} s", flush=True)
            daemon = run_daemon(args, bin_dir, tools_dir, work, f"r{i + 1}-{build}")
            engine = run_engine(args, tools_dir, daemon["m_messages"]) if "error" not in daemon else {}
            r = {"round": i + 1, "build": build, "bin": bin_dir, "daemon": daemon, "engine": engine}
            if "error" not in daemon and "error" not in engine and daemon.get("us_per_relayed_message_less_idle"):
                r["ratio"] = daemon["us_per_relayed_message_less_idle"] / engine["us_per_relayed_message"]
            rounds.append(r)
            print(table([r]).splitlines()[-1], flush=True)
            if "b_thread_switches" in daemon:
                print("  B's threads, sleeps per relayed message: " + ", ".join(
                    f'{name} {t["voluntary_per_message"]} ({t["cpu_us_per_message"]} µs)'
                    for name, t in sorted(daemon["b_thread_switches"].items()) if t["voluntary"] > 0), flush=True)
            if "perf" in daemon:
                print(perf_table(daemon["perf"]), flush=True)
    report = {"rate": args.rate, "seconds": args.seconds, "node_flags": NODE_FLAGS, "b_flags": args.b_flags,
              "work": work, "started": time.strftime("%Y-%m-%dT%H:%M:%S"), "cpus": os.cpu_count(),
              "loadavg_at_start": loadavg_at_start, "loadavg_at_end": os.getloadavg(), "rounds": rounds}
    with open(args.out, "w") as f:
        json.dump(report, f, indent=2)
    print()
    print(table(rounds))
    print(f"\nJSON: {args.out}   logs: {work}")
    bad = any("ratio" not in r or not r["daemon"]["every_message_relayed"] for r in rounds)
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
