#!/usr/bin/env python3
"""Footprint figures of issue 12: installed binary sizes, idle RSS, RSS with N neighbours over
loopback UDP, RSS under a fragment flood from every link against the reassembly caps.

Run through Benchmarks/scripts/footprint.sh, which builds, stages `make install` and passes the paths.
Every figure printed is read from the running processes (/proc/PID/status, smaps_rollup) or the
files; nothing is estimated.
"""
import argparse
import json
import os
import platform
import random
import shutil
import signal
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "scripts"))
from meshlab import Node, memory, rss_by_mapping, wait_neighbours  # noqa: E402

# The caps that bound what a fragment flood can make meshnoded hold (the defaults it runs with):
# reassembly buffers (Sources/Fragmenter/FragmenterLimits.swift; each transfer is charged the
# larger of its slices plus 40 bytes per fragment and what its buffers really have allocated)
# and frames waiting in the engine's inbox (Sources/MeshService/Runtime/FairInbox.swift), which
# counts frames. What one waiting frame costs, measured on x86-64 glibc with a replica of
# TransportEvent: a 510-byte [UInt8] is a 560-byte malloc chunk (malloc_usable_size 552 + 8),
# and its TransportEvent slot is 56 bytes in a per-link queue that may be twice as long as its
# contents: 560 + 2 * 56 = 672 bytes.
MAX_BUFFERED_TOTAL = 4_194_304
MAX_BUFFERED_PER_LINK = 262_144
INBOX_FRAMES_TOTAL = 4096
MAX_FRAME = 510
INBOX_FRAME_COST = 672


def mib(n):
    return n / 1_048_576


class Mesh:
    """The nodes and flooders of one measurement (meshlab's Node, from the staged install)."""

    def __init__(self, stage_bin, tool_bin, work):
        self.stage_bin = stage_bin
        self.meshflood = os.path.join(tool_bin, "meshflood")
        self.work = work
        self.nodes, self.flooders = [], []
        self.config = os.path.join(work, "empty.conf")
        open(self.config, "w").close()

    def node(self, name, port, neighbours=()):
        node = Node(self.stage_bin, self.work, name, port, neighbours, ["-c", self.config, "--log-level", "warning"])
        node.start()
        self.nodes.append(node)
        return node

    def flooder(self, target, port, mode, seconds, seed, quiet):
        log = open(os.path.join(self.work, f"flood-{port}.json"), "w")
        p = subprocess.Popen([self.meshflood, "--target", f"127.0.0.1:{target}", "--port", str(port),
                              "--mode", mode, "--duration", str(seconds), "--seed", str(seed),
                              "--quiet-before", str(quiet),
                              "--link-timeout", "60", "--json"], stdout=log, stderr=subprocess.DEVNULL)
        self.flooders.append(p)
        return p

    def stop(self):
        for p in self.flooders:
            if p.poll() is None:
                p.send_signal(signal.SIGTERM)
        for p in self.flooders:
            try:
                p.wait(timeout=10)
            except subprocess.TimeoutExpired:
                p.kill()
                p.wait()
        for node in self.nodes:  # every node told first, so they stop together
            if node.running():
                node.proc.send_signal(signal.SIGTERM)
        for node in self.nodes:
            node.stop()
        self.nodes, self.flooders = [], []


def sizes(stage_bin):
    out = {}
    for name in ("meshnoded", "relayctl"):
        path = os.path.join(stage_bin, name)
        data = open(path, "rb").read()
        out[name] = {"bytes": len(data), "mib": round(mib(len(data)), 2), "contains_icudt": b"icudt" in data}
    return out


HELLO = {
    "none": 'print("hello, world")\n',
    "foundation_essentials": 'import FoundationEssentials\nstruct P: Codable { var a: Int }\n'
                             'print(String(decoding: try! JSONEncoder().encode(P(a: 1)), as: UTF8.self), Date())\n',
    "foundation_string_format": 'import Foundation\nprint(String(format: "%.2f", 3.14159), Date())\n',
}


def hello(work):
    """Stripped static hello worlds built like meshnoded: the floor under our code."""
    pkg = os.path.join(work, "hello")
    targets = ", ".join(f'.executableTarget(name: "{name}")' for name in HELLO)
    os.makedirs(pkg)
    with open(os.path.join(pkg, "Package.swift"), "w") as f:
        f.write(f'// swift-tools-version:6.0\nimport PackageDescription\n'
                f'let package = Package(name: "hello", targets: [{targets}])\n')
    for name, source in HELLO.items():
        os.makedirs(os.path.join(pkg, "Sources", name))
        with open(os.path.join(pkg, "Sources", name, "main.swift"), "w") as f:
            f.write(source)
    out = {}
    for name in HELLO:
        subprocess.run(["swift", "build", "-c", "release", "--static-swift-stdlib", "--product", name],
                       cwd=pkg, check=True, capture_output=True)
        binary = os.path.join(pkg, ".build", "release", name)
        subprocess.run(["strip", "-s", binary], check=True)
        data = open(binary, "rb").read()
        out[name] = {"bytes": len(data), "mib": round(mib(len(data)), 2), "contains_icudt": b"icudt" in data}
    return out


def idle(mesh, base, settle, idle_after):
    """RSS `settle` s after start and again `idle_after` s after start, at idle."""
    node = mesh.node("idle", base)
    started = time.monotonic()
    wait_neighbours({node: 0}, 10)
    time.sleep(max(0, settle - (time.monotonic() - started)))
    startup = memory(node.pid)
    startup_mappings = rss_by_mapping(node.pid)
    time.sleep(max(0, idle_after - (time.monotonic() - started)))
    mem = memory(node.pid)
    mappings = rss_by_mapping(node.pid)
    stats = node.stats()
    mesh.stop()
    return {"settle_s": settle, "startup_proc": startup, "startup_rss_by_mapping": startup_mappings,
            "idle_after_s": idle_after, "proc": mem, "rss_by_mapping": mappings,
            "stats_memory": stats["memory"] if stats else None}


def neighbours(mesh, base, count, settle):
    center = mesh.node("center", base)
    time.sleep(1)
    before = memory(center.pid)
    for i in range(count):
        mesh.node(f"leaf{i}", base + 1 + i, neighbours=[base])
        if i % 10 == 9:
            time.sleep(1)
    wait_neighbours({center: count}, 120)
    linked = (center.status() or {}).get("neighbourCount", 0)
    time.sleep(settle)
    mem = memory(center.pid)
    stats = center.stats()
    mesh.stop()
    return {"neighbours_wanted": count, "neighbours_linked": linked, "settle_s": settle,
            "center_before_leaves": before, "proc": mem, "stats_memory": stats["memory"] if stats else None}


def flood(mesh, base, count, seconds, mode, quiet):
    """`count` meshflood neighbours link (in batches of 10, as the unkeyed-link budget wants),
    idle `quiet` seconds, then all flood for `seconds`; RSS is sampled before and every 0.5 s."""
    center = mesh.node("center", base)
    time.sleep(1)
    flooders = []
    for i in range(count):
        flooders.append(mesh.flooder(base, base + 1 + i, mode, seconds, i + 1, quiet))
        if i % 10 == 9:
            time.sleep(1)
    wait_neighbours({center: count}, 60)
    linked = (center.status() or {}).get("neighbourCount", 0)
    before = memory(center.pid)
    samples, buffered_peak, waiting_peak, start = [], 0, 0, time.time()
    while any(f.poll() is None for f in flooders) and time.time() - start < quiet + seconds + 60:
        mem = memory(center.pid)
        stats = center.stats()
        buffered = stats["counters"]["engine"].get("buffered_fragment_bytes", 0) if stats else 0
        waiting = stats["counters"].get("inbox", {}).get("waiting_frames", 0) if stats else 0
        buffered_peak = max(buffered_peak, buffered)
        waiting_peak = max(waiting_peak, waiting)
        samples.append({"t": round(time.time() - start, 1), "rss": mem["VmRSS"], "anon": mem.get("RssAnon", 0),
                        "buffered_fragment_bytes": buffered, "inbox_waiting_frames": waiting})
        time.sleep(0.5)
    after = memory(center.pid)
    stats = center.stats()
    mesh.stop()
    frames = 0
    for name in os.listdir(mesh.work):
        if name.startswith("flood-"):
            try:
                frames += json.load(open(os.path.join(mesh.work, name))).get("frames_sent", 0)
            except (ValueError, OSError):
                pass
    peak_rss = max([s["rss"] for s in samples] + [after["VmHWM"]])
    return {"mode": mode, "flooders": count, "linked": linked, "seconds": seconds, "frames_sent": frames,
            "before": before, "after": after, "peak_rss": peak_rss, "rss_growth": peak_rss - before["VmRSS"],
            "buffered_fragment_bytes_peak": buffered_peak, "inbox_waiting_frames_peak": waiting_peak,
            "caps": {"max_buffered_bytes_total": MAX_BUFFERED_TOTAL,
                     "max_buffered_bytes_per_link": MAX_BUFFERED_PER_LINK,
                     "reassembly_cap": min(MAX_BUFFERED_TOTAL, MAX_BUFFERED_PER_LINK * count),
                     "inbox_frames_total": INBOX_FRAMES_TOTAL, "max_frame_bytes": MAX_FRAME,
                     "inbox_frame_cost": INBOX_FRAME_COST,
                     "inbox_cap": INBOX_FRAMES_TOTAL * INBOX_FRAME_COST,
                     "total": min(MAX_BUFFERED_TOTAL, MAX_BUFFERED_PER_LINK * count) + INBOX_FRAMES_TOTAL * INBOX_FRAME_COST},
            "fragments_counters": stats["counters"].get("fragments") if stats else None,
            "samples": samples}


def goals(result):
    """Issue 20's memory goals: anonymous memory (RssAnon) idle and with the neighbours."""
    idle_anon = result["idle"]["proc"]["RssAnon"]
    linked = result["neighbours"]["neighbours_linked"]
    neighbours_anon = result["neighbours"]["proc"]["RssAnon"]
    return [{"goal": "RssAnon <= 4 MiB idle", "measured": idle_anon, "met": idle_anon <= 4 * 1_048_576},
            {"goal": f"RssAnon <= 12 MiB with 50 neighbours ({linked} linked)", "measured": neighbours_anon,
             "met": linked >= 50 and neighbours_anon <= 12 * 1_048_576}]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--stage-bin", required=True)
    ap.add_argument("--tool-bin", required=True)
    ap.add_argument("--out")
    ap.add_argument("--neighbours", type=int, default=50)
    ap.add_argument("--flooders", type=int, default=50)
    ap.add_argument("--flood-seconds", type=float, default=20)
    ap.add_argument("--settle", type=float, default=5)
    ap.add_argument("--idle-after", type=float, default=40,
                    help="seconds after start for the idle figure")
    ap.add_argument("--no-hello", action="store_true", help="skip the hello-world builds")
    ap.add_argument("--no-flood", action="store_true", help="skip the fragment flood")
    ap.add_argument("--quiet", type=float, default=12, help="seconds flooders idle after linking")
    a = ap.parse_args()
    work = tempfile.mkdtemp(prefix="footprint.")
    base = 20000 + random.randrange(20000)
    mesh = Mesh(a.stage_bin, a.tool_bin, work)
    result = {"machine": {"kernel": platform.release(), "cpus": os.cpu_count()}}
    try:
        result["sizes"] = sizes(a.stage_bin)
        for name, s in result["sizes"].items():
            print(f"{name:10} {s['bytes']:>10} bytes  {s['mib']:6.2f} MiB  icudt: {s['contains_icudt']}")
        if not a.no_hello:
            result["hello_world"] = hello(work)
            for name, h in result["hello_world"].items():
                print(f"hello world, {name:25} {h['bytes']:>10} bytes  {h['mib']:6.2f} MiB  icudt: {h['contains_icudt']}")
        result["idle"] = idle(mesh, base, a.settle, a.idle_after)
        m = result["idle"]["startup_proc"]
        print(f"{a.settle:.0f} s after start: RSS {mib(m['VmRSS']):.2f} MiB (anon {mib(m['RssAnon']):.2f}, "
              f"file {mib(m['RssFile']):.2f})")
        m = result["idle"]["proc"]
        print(f"{a.idle_after:.0f} s after start, ", end="")
        print(f"idle RSS {mib(m['VmRSS']):.2f} MiB (anon {mib(m['RssAnon']):.2f}, file {mib(m['RssFile']):.2f}), "
              f"PSS {mib(m['Pss']):.2f} MiB, peak {mib(m['VmHWM']):.2f} MiB")
        print("  " + ", ".join(f"{k} {mib(v):.2f}" for k, v in list(result["idle"]["rss_by_mapping"].items())[:8]))
        result["neighbours"] = neighbours(mesh, base + 100, a.neighbours, a.settle)
        m = result["neighbours"]["proc"]
        print(f"{result['neighbours']['neighbours_linked']} neighbours: RSS {mib(m['VmRSS']):.2f} MiB "
              f"(anon {mib(m['RssAnon']):.2f}, file {mib(m['RssFile']):.2f}), PSS {mib(m['Pss']):.2f} MiB, "
              f"peak {mib(m['VmHWM']):.2f} MiB")
        result["goals"] = goals(result)
        for goal in result["goals"]:
            print(f"goal {goal['goal']}: {mib(goal['measured']):.2f} MiB, {'met' if goal['met'] else 'NOT met'}")
        if not a.no_flood:
            result["flood"] = flood(mesh, base + 300, a.flooders, a.flood_seconds, "partial", a.quiet)
            f = result["flood"]
            print(f"fragment flood from {f['linked']} links ({f['frames_sent']} frames): RSS {mib(f['before']['VmRSS']):.2f} -> "
                  f"peak {mib(f['peak_rss']):.2f} MiB (growth {mib(f['rss_growth']):.2f} MiB); buffered fragments peak "
                  f"{mib(f['buffered_fragment_bytes_peak']):.2f} MiB; caps {mib(f['caps']['total']):.2f} MiB "
                  f"(reassembly {mib(f['caps']['reassembly_cap']):.2f} + inbox {mib(f['caps']['inbox_cap']):.2f})")
    finally:
        mesh.stop()
    if a.out:
        with open(a.out, "w") as out:
            json.dump(result, out, indent=1)
            out.write("\n")
        print(f"wrote {a.out}")
    shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
