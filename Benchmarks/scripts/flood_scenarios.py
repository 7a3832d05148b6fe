"""Runs each flood of issue 11 against a line A-B-C plus the hostile neighbour M on B, over
loopback UDP, and reports what reaches C, B's CPU and memory, and A's probes at C.
Usage (normally through Benchmarks/scripts/flood-scenarios.sh):
  flood_scenarios.py --bin DIR --tools DIR [--modes m1,m2] [--scheduler managed|plain] [--seconds 20] [--rate 0] [--tail 10] [--out FILE]
Every node runs the default configuration except the relay scheduler, which --scheduler sets.
After each flood C writes to A and B writes to A: both must arrive (forged routes once cut C off)."""
import argparse
import json
import os
import random
import subprocess
import sys
import tempfile
import threading
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "scripts"))  # meshlab
from meshlab import Node, ProcSampler, Watch, percentile, read_events, wait_neighbours  # noqa: E402

MODES = ["broadcast", "fresh-broadcast", "direct", "bad-signature", "fresh-join", "replay", "forged-route", "big"]
QUIET_BEFORE = 2.0  # seconds M idles as a correct neighbour before flooding


def received(stats):
    c = stats["counters"]
    return c["message"]["received"] + c["join"]["received"]


def probe_loop(node, interval, until, probes):
    """A sends a broadcast probe every `interval` seconds while until() is false."""
    n = 0
    next_at = time.time()
    while not until():
        n += 1
        sent_at, message_id = node.send(f"probe {n}")
        probes.append((sent_at, message_id))
        next_at += interval
        time.sleep(max(0, next_at - time.time()))


def run_mode(args, mode, work, seconds):
    base = random.randint(20000, 50000)
    common = [f"--relay.scheduler={args.scheduler}"]
    name = f"{mode}-{args.scheduler}"
    a = Node(args.bin, work, f"{name}-A", base, [base + 1], extra=common)
    # Deliveries are logged at debug only; the replay mode counts B's in its log.
    b = Node(args.bin, work, f"{name}-B", base + 1, extra=common + (["--log-level", "debug"] if mode == "replay" else []))
    c = Node(args.bin, work, f"{name}-C", base + 2, [base + 1], extra=common)
    nodes = [a, b, c]
    for node in nodes:
        node.start()
    result = {"mode": mode, "scheduler": args.scheduler}
    try:
        if not wait_neighbours({a: 1, b: 2, c: 1}, 30):
            result["error"] = "the line A-B-C did not come up"
            return result
        watch = Watch(c, os.path.join(c.dir, "watch.jsonl"))
        watch_a = Watch(a, os.path.join(a.dir, "watch.jsonl"))
        victim = ["--victim", c.node_id()] if mode == "forged-route" else []
        time.sleep(0.5)
        c_before = c.stats()
        sampler = ProcSampler(b.pid, 0.25)
        sampler.start()
        launched = time.time()
        flood = subprocess.Popen(
            [os.path.join(args.tools, "meshflood"), "--target", f"127.0.0.1:{b.port}", "--mode", mode,
             "--rate", str(args.rate), "--duration", str(seconds), "--quiet-before", str(QUIET_BEFORE),
             "--turnover", str(args.turnover),
             "--seed", str(args.seed), "--json", *victim],
            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        probes = []
        prober = threading.Thread(target=probe_loop, args=(a, 0.5, lambda: flood.poll() is not None, probes))
        prober.start()
        out, err = flood.communicate(timeout=seconds + 60)
        flood_done = time.time()
        prober.join()
        # After the flood: a direct message C -> A and B -> A (the victim's messages must still pass).
        a_id = a.node_id()
        afterwards = {"c_to_a": c.send("after the flood, from C", to=a_id)[1],
                      "b_to_a": b.send("after the flood, from B", to=a_id)[1]}
        time.sleep(args.tail)
        sampler.stop()
        c_after = c.stats()
        watch_alive = watch.alive()
        watch.stop()
        watch_a.stop()
        at_a = {e["messageID"] for e in read_events(os.path.join(a.dir, "watch.jsonl"))}
        result["after_flood_at_a"] = {k: bool(v and v in at_a) for k, v in afterwards.items()}
        if flood.returncode != 0:
            result["error"] = f"meshflood exited {flood.returncode}: {err.strip()}"
            return result
        m = json.loads(out.strip().splitlines()[-1])
        flood_start = launched + m["ready_after_s"] + QUIET_BEFORE
        flood_end = flood_start + m["elapsed_s"]
        result.update(analyse(args, m, probes, flood_start, flood_end, flood_done, sampler, c, c_before, c_after))
        if "replayed_message_id" in result:
            with open(os.path.join(b.dir, "meshnoded.log"), errors="replace") as log:
                result["replayed_deliveries_at_b"] = sum(
                    1 for line in log if "message delivered" in line and result["replayed_message_id"] in line)
        result["c_watch_survived"] = watch_alive
    finally:
        result["exit_status"] = {n.name: n.stop() for n in nodes}
        result["crashed"] = [name for name, status in result["exit_status"].items() if status not in (0, None)]
    return result


def analyse(args, m, probes, flood_start, flood_end, flood_done, sampler, c, c_before, c_after):
    events = read_events(os.path.join(c.dir, "watch.jsonl"))
    arrivals = {}
    for event in events:
        arrivals.setdefault(event["messageID"], []).append(event["time"])
    in_flood = [(t, mid) for t, mid in probes if flood_start <= t <= flood_end]
    sent_ok = [(t, mid) for t, mid in in_flood if mid]
    latencies = [arrivals[mid][0] - t for t, mid in sent_ok if mid in arrivals]
    probe_ids = {mid for _, mid in probes if mid}
    probe_arrivals = sum(len(arrivals.get(mid, [])) for mid in probe_ids)
    flood_at_c = max(0, received(c_after) - received(c_before) - probe_arrivals)
    before, end, last = sampler.at(flood_start), sampler.at(flood_end), sampler.samples[-1]
    peak_rss = max(s[2] for s in sampler.samples)
    replay = {}
    if m["mode"] == "replay" and m.get("replayed_message_id"):
        replay = {"replayed_message_id": m["replayed_message_id"], "replayed_age_s": m["replayed_age_s"],
                  "replayed_deliveries_at_c": len(arrivals.get(m["replayed_message_id"], []))}
    return {
        "m_rate": m["rate"], "m_messages": m["messages_sent"], "m_frames": m["frames_sent"],
        "m_frames_per_s": m["frames_per_s"], "m_bytes": m["envelope_bytes_sent"],
        "flood_reaching_c": flood_at_c, "flood_fraction_at_c": round(flood_at_c / m["messages_sent"], 4) if m["messages_sent"] else 0,
        "b_cpu_s_flood": round(end[1] - before[1], 2), "b_cpu_s_tail": round(last[1] - end[1], 2),
        "tail_s": args.tail,
        "b_rss_mb_before": round(before[2] / 1024, 1), "b_rss_mb_peak": round(max(peak_rss, last[3]) / 1024, 1),
        "b_rss_mb_final": round(last[2] / 1024, 1),
        "probes_sent": len(in_flood), "probes_refused": len(in_flood) - len(sent_ok),
        "probes_delivered": len(latencies),
        "probe_ratio": round(len(latencies) / len(in_flood), 4) if in_flood else None,
        "probe_p50_s": round(percentile(latencies, 0.5), 3) if latencies else None,
        "probe_p95_s": round(percentile(latencies, 0.95), 3) if latencies else None,
        "probe_max_s": round(max(latencies), 3) if latencies else None,
        "duplicates_at_c": sum(1 for times in arrivals.values() if len(times) > 1),
        **replay,
        "meshflood": m,
    }


def table(results):
    head = ["mode", "scheduler", "M rate/s", "M flood at C", "B CPU s (flood+tail)", "B RSS MB before/peak/final",
            "A probes at C", "p50 s", "p95 s", "dup at C", "C→A, B→A after"]
    rows = []
    for r in results:
        if "error" in r:
            rows.append([r["mode"], r["scheduler"], "error: " + r["error"]] + [""] * (len(head) - 3))
            continue
        after = r.get("after_flood_at_a", {})
        rows.append([
            r["mode"], r["scheduler"], f'{r["m_rate"]:.0f}', f'{100 * r["flood_fraction_at_c"]:.1f} % ({r["flood_reaching_c"]})',
            f'{r["b_cpu_s_flood"]} + {r["b_cpu_s_tail"]}',
            f'{r["b_rss_mb_before"]} / {r["b_rss_mb_peak"]} / {r["b_rss_mb_final"]}',
            f'{r["probes_delivered"]} of {r["probes_sent"]}', str(r["probe_p50_s"]), str(r["probe_p95_s"]),
            str(r["duplicates_at_c"]) + (f' (replayed one at B/C: {r.get("replayed_deliveries_at_b")}x/{r["replayed_deliveries_at_c"]}x)' if "replayed_deliveries_at_c" in r else ""),
            " / ".join("yes" if after.get(k) else "NO" for k in ("c_to_a", "b_to_a")),
        ])
    widths = [max(len(str(x)) for x in col) for col in zip(head, *rows)]
    lines = ["| " + " | ".join(str(x).ljust(w) for x, w in zip(row, widths)) + " |" for row in [head] + rows]
    lines.insert(1, "|" + "|".join("-" * (w + 2) for w in widths) + "|")
    return "\n".join(lines)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--bin", required=True, help="the folder of meshnoded and relayctl")
    parser.add_argument("--tools", required=True, help="the folder of meshflood (the Benchmarks package's build)")
    parser.add_argument("--modes", default=",".join(MODES))
    parser.add_argument("--seconds", type=float, default=20)
    parser.add_argument("--rate", type=float, default=0)
    parser.add_argument("--tail", type=float, default=10)
    parser.add_argument("--replay-seconds", type=float, default=None,
                        help="flood time of the replay mode (default --seconds): turning B's seen cache "
                             "over takes 65,536 accepted messages, more than 20 s where B sheds most of them")
    parser.add_argument("--turnover", type=int, default=1000000, help="replay mode: most direct messages sent to turn the cache over (the phase also ends at 90 % of the time)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--scheduler", choices=["managed", "plain"], default="managed",
                        help="the relay scheduler of A, B and C (managed is meshnoded's default)")
    parser.add_argument("--out", default="flood-results.json")
    args = parser.parse_args()
    args.replay_seconds = args.replay_seconds or args.seconds
    modes = [m for m in args.modes.split(",") if m]
    for m in modes:
        if m not in MODES:
            parser.error(f"unknown mode {m}")
    work = tempfile.mkdtemp(prefix="meshnode-flood.")
    results = []
    for mode in modes:
        print(f"== {mode}: M floods B for {args.seconds:g} s (rate {args.rate or 'max'}), tail {args.tail:g} s", flush=True)
        result = run_mode(args, mode, work, args.replay_seconds if mode == "replay" else args.seconds)
        results.append(result)
        print(table([result]).splitlines()[-1], flush=True)
    report = {"seconds": args.seconds, "rate": args.rate, "tail": args.tail, "work": work,
              "started": time.strftime("%Y-%m-%dT%H:%M:%S"), "results": results}
    with open(args.out, "w") as f:
        json.dump(report, f, indent=2)
    print()
    print(table(results))
    print(f"\nJSON: {args.out}   logs: {work}")
    return 1 if any("error" in r or r["crashed"] for r in results) else 0


if __name__ == "__main__":
    sys.exit(main())
