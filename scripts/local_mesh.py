"""The five-node demo of scripts/run-local-mesh.sh (which builds, then runs this): meshnoded A-B-C-D-E
in a line over loopback UDP in a temporary folder; A sends a broadcast with relayctl, which must
arrive at D (three hops) and not at E; prints each node's stats and stops every node, each of which
must exit 0. Exits 1 when a check fails, 2 on a bad environment.

Mixed architectures (scripts/build-arm64.sh): with MESHNODE_ARM64_BIN (a folder holding arm64
meshnoded and relayctl) and MESHNODE_ARM64_ROOT (a Debian 13 arm64 root for their loader), the nodes
named in MESHNODE_ARM64_NODES (default "B D") run the arm64 binaries under qemu-aarch64-static, and
their relayctl is the arm64 one too; the others run the host build.

Older nodes (PROTOCOL.md D3b, "Nodes of version 1"): with MESHNODE_OLD_BIN (a folder holding an older
release's meshnoded and relayctl), the nodes named in MESHNODE_OLD_NODES (default "C") run it, and
their neighbours must count a link keyed in version 1 (links.legacy_links) while the other links are
private.
Usage: local_mesh.py BIN_DIR"""
import json
import os
import platform
import random
import re
import shutil
import signal
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from meshlab import Node, Watch, wait_neighbours  # noqa: E402

NAMES = ["A", "B", "C", "D", "E"]
# Debug arm64 builds load the Swift runtime from the root (a release build links it in).
ARM64_RUNTIME = "/usr/libexec/swift/lib/swift/linux"
STATS_LINE = re.compile(r"^(uptime|GROUP|message +(received|delivered|relayed|sent) |links +key_exchanges)")


def arm64_prefix():
    """qemu-aarch64-static and the names of the arm64 nodes, or (None, set()) without MESHNODE_ARM64_BIN."""
    if not os.environ.get("MESHNODE_ARM64_BIN"):
        return None, set()
    root = os.environ.get("MESHNODE_ARM64_ROOT", "")
    if not root or not os.path.isdir(root):
        print("MESHNODE_ARM64_BIN needs MESHNODE_ARM64_ROOT (an arm64 root)", file=sys.stderr)
        sys.exit(2)
    if not shutil.which("qemu-aarch64-static"):
        print("qemu-aarch64-static is missing (apt-get install qemu-user-static)", file=sys.stderr)
        sys.exit(2)
    prefix = ["env", f"LD_LIBRARY_PATH={ARM64_RUNTIME}", "qemu-aarch64-static", "-L", root]
    return prefix, set(os.environ.get("MESHNODE_ARM64_NODES", "B D").split())


def main():
    bin_dir = sys.argv[1]
    prefix, arm64 = arm64_prefix()
    old_bin = os.environ.get("MESHNODE_OLD_BIN")
    old = set(os.environ.get("MESHNODE_OLD_NODES", "C").split()) if old_bin else set()
    # Emulated nodes start, subscribe and answer more slowly.
    wait, settle = (240, 3) if prefix else (60, 0.5)
    work = tempfile.mkdtemp(prefix="meshnode-demo.", dir="/tmp")
    base = 20000 + random.randrange(20000)
    nodes = []
    for i, name in enumerate(NAMES):
        emulated = name in arm64
        node_bin = os.environ["MESHNODE_ARM64_BIN"] if emulated else old_bin if name in old else bin_dir
        nodes.append(Node(node_bin, work, name, base + i,
                          [base + i - 1] if i > 0 else [], prefix=prefix if emulated else (),
                          node_name=f"node-{name}"))
    watches = []
    try:
        print(f"== starting five nodes in a line in {work} (UDP ports {base}..{base + 4})")
        for node in nodes:
            print(f"  {node.name}: " + ("arm64 (qemu-aarch64-static)" if node.prefix else platform.machine())
                  + (f", older release from {old_bin}" if node.name in old else ""))
            node.start()

        print("== waiting for every link to finish its handshake")
        # A node whose control socket is not up yet answers nothing: not ready, not an error.
        if not wait_neighbours(dict(zip(nodes, [1, 2, 2, 2, 1])), wait):
            return fail(f"the line did not come up; logs in {work}")
        for node in nodes:
            print(f"  {node.name} is {(node.ctl('id') or {}).get('shortID', '')}")

        watches = [Watch(node, os.path.join(node.dir, "watch.jsonl")) for node in nodes[1:]]
        # A watcher sees only what arrives after its `watch` request: wait until each node counts it,
        # however slowly an emulated relayctl starts.
        for watch in watches:
            watch.wait_counted(wait)
        time.sleep(settle)

        print("== A sends a broadcast")
        sent = nodes[0].relayctl("send", "hello from A, three hops at most", timeout=60)
        message_id = sent.stdout.strip() if sent else ""
        if sent and sent.stderr:
            sys.stderr.write(sent.stderr)
        print(f"  message ID {message_id}")
        if not message_id:
            return fail("A could not send")

        def received(node):
            """The watch lines of `node` that name the message (any event type)."""
            try:
                with open(os.path.join(node.dir, "watch.jsonl")) as f:
                    return [line for line in f if message_id in line]
            except FileNotFoundError:
                return []

        deadline = time.time() + wait / 2
        while time.time() < deadline and not received(nodes[3]):
            time.sleep(0.2)
        time.sleep(1)
        for node in nodes[1:]:
            lines = received(node)
            if lines:
                hops = next((e["hops"] for e in map(event_of, lines) if "hops" in e), "")
                hops_from_a = hops + 1 if hops != "" else 1
                print(f"  {node.name}: received (relayed {hops} time(s), {hops_from_a} hop(s) from A)")
            else:
                print(f"  {node.name}: not received")
        if not received(nodes[3]):
            return fail("D did not receive the message")
        if received(nodes[4]):
            return fail("E received a message beyond its hop limit")

        print("== stats")
        for node in nodes:
            print(f"-- {node.name}")
            stats = node.relayctl("stats", timeout=60)
            for line in (stats.stdout if stats else "").splitlines():
                if STATS_LINE.match(line):
                    print(line)
        if old:
            print("== links keyed in version 1 (next to an older node), privately and opaque (PROTOCOL.md D14) (the rest)")
            for i, node in enumerate(nodes):
                if node.name in old:
                    continue
                links = ((node.stats() or {}).get("counters") or {}).get("links", {})
                beside = [n.name for n in nodes[max(0, i - 1):i + 2] if n.name in old]
                newer = len([n for n in nodes[max(0, i - 1):i + 2] if n is not node and n.name not in old])
                legacy, private = links.get("legacy_links", 0), links.get("private_links", 0)
                opaque = links.get("opaque_links", 0)
                print(f"  {node.name}: legacy_links {legacy}, private_links {private}, opaque_links {opaque}")
                if (legacy > 0) != bool(beside) or private == 0 and len(beside) < (1 if i in (0, 4) else 2):
                    return fail(f"{node.name}: links not keyed as expected beside {beside or 'no older node'}")
                if opaque != newer:
                    return fail(f"{node.name}: {opaque} opaque links, not {newer} (one per neighbour of this version)")
        print("== stopping")
        for watch in watches:
            watch.stop()
        watches = []
        status = 0
        for node in nodes:
            code = node.stop(timeout=60)
            code = 128 - code if code < 0 else code  # as a shell reports a signal
            if code == 0:
                print(f"  {node.name} stopped cleanly")
            else:
                print(f"  {node.name} exited with {code}")
                status = 1
        shutil.rmtree(work, ignore_errors=True)
        return status
    finally:
        for watch in watches:
            watch.stop()
        for node in nodes:
            node.stop()


def event_of(line):
    """The event of one watch line ({} when it is not JSON)."""
    try:
        line = json.loads(line)
    except ValueError:
        return {}
    return line.get("event", line) if isinstance(line, dict) else {}


def fail(message):
    print(message, file=sys.stderr)
    return 1


if __name__ == "__main__":
    # SIGTERM stops the nodes as Ctrl-C does.
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))
    sys.exit(main())
