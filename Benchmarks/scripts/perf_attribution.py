"""Splits a `perf record --call-graph dwarf` profile of meshnoded by where the CPU went: the
engine (its crypto apart), logging, watch events, the inbox and queue hops, UDP reads and sends,
the dispatch threads' waking and sleeping, preemption, and the rest. Used by daemon_cpu.py --perf.
Each sample goes to the category of its innermost frame that matches one (leaf first); within one
frame the categories are tried in the order below."""
import collections
import os
import shutil
import subprocess

# (category, substrings of a demangled frame).
CATEGORIES = [
    ("engine: crypto (OpenSSL)", ["libcrypto.so"]),
    ("logging", ["DaemonLogger.", "LogFormat.", "LogFields.", "PlainText.sanitized"]),
    ("engine: the rest", ["MeshEngine."]),
    ("watch events", ["NodeRuntime.report", "NodeRuntime.broadcast"]),
    ("inbox and queue hop", ["NodeRuntime.enqueue", "FairInbox", "NodeRuntime.drainInbox", "EngineInbox.", "EngineDriver."]),
    ("runtime: perform actions", ["NodeRuntime.perform", "NodeRuntime.handle"]),
    ("UDP send (relayed frames)", ["UDPTransport.send("]),
    ("UDP receive", ["UDPTransport.drainSocket", "UDPSocket.receive"]),
    ("UDP timers and links", ["UDPTransport", "UDPLinkTable"]),
    ("control socket", ["ControlServer", "ControlSession"]),
    ("dispatch threads: wake, sleep, timers", ["_dispatch_", "__schedule", "futex", "epoll_wait", "pthread_cond"]),
]
OTHER = "other"


def demangler():
    for candidate in [shutil.which("swift-demangle"), "/opt/swift/usr/bin/swift-demangle", "/usr/share/swift/usr/bin/swift-demangle"]:
        if candidate and os.path.exists(candidate):
            return [candidate, "--simplified"]
    return None


def samples(perf_data):
    """Yields each sample's frames (leaf first) as demangled 'symbol (dso)' strings."""
    script = subprocess.run(["perf", "script", "-i", perf_data, "-F", "tid,ip,sym,dso", "--no-inline"],
                            capture_output=True, text=True, timeout=1800)
    text = script.stdout
    tool = demangler()
    if tool:
        text = subprocess.run(tool, input=text, capture_output=True, text=True, timeout=600).stdout
    frames = []
    for line in text.splitlines():
        if not line.strip():
            if frames:
                yield frames
            frames = []
        elif line.startswith((" ", "\t")):
            frames.append(line.strip())
    if frames:
        yield frames


# A sample taken while the kernel switches the thread back in after it was preempted on its way
# back to user space (on a busy machine, often right after a send woke the receiver): the cost
# of sharing the CPUs, whatever the thread was doing.
PREEMPTED = "preempted, switched back in"
PREEMPTION_MARKS = ["exit_to_user_mode_loop", "irqentry_exit_to_user_mode"]


def classify(frames):
    if frames and "finish_task_switch" in frames[0] and any(m in f for f in frames[:6] for m in PREEMPTION_MARKS):
        return PREEMPTED
    for frame in frames:
        for name, needles in CATEGORIES:
            if any(needle in frame for needle in needles):
                return name
    return OTHER


def attribute(perf_data, _bin_dir=None):
    """{'samples': N, 'shares': {category: fraction}, 'top_other': [...]} for one perf.data file."""
    counts = collections.Counter()
    other_leaves = collections.Counter()
    total = 0
    for frames in samples(perf_data):
        total += 1
        name = classify(frames)
        counts[name] += 1
        if name == OTHER:
            other_leaves[frames[0].split(" ", 1)[-1][:100]] += 1
    names = [name for name, _ in CATEGORIES] + [PREEMPTED, OTHER]
    return {
        "samples": total,
        "shares": {name: round(counts[name] / total, 4) for name in names if total and counts[name]},
        "top_other": [[leaf, n] for leaf, n in other_leaves.most_common(12)],
    }


if __name__ == "__main__":
    import json
    import sys
    print(json.dumps(attribute(sys.argv[1]), indent=2))
