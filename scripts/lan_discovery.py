"""LAN discovery in network namespaces made by this script (issue 35): nothing leaves the machine.

One namespace holds three bridges, three "LANs" (br0, br1 both 10.77.0.0/24; br2 with no IPv4
at all). Each node has a namespace of its own and a veth pair whose far end is on a bridge (DAD
off, so link-local addresses are usable at once); every LAN node runs
`--transport lan --lan.interface lan0` and no peer is configured, except as said:

    A, B, C      on br0, discovery on: they announce and link over IPv6 link-local
    D            on br0, IPv6 disabled on lan0: announces over IPv4, the fallback; all four must
                 find each other (A, B and C dial D over IPv4)
    E            in A's namespace, `--transport udp` only, dials A's [udp] port: an island
    F            on br0, discovery off, `--lan.peers` C alone: reached only through C
    X            on br1, discovery on: must find no one
    G, H         on br2, IPv6 link-local addresses alone: must find each other; G's broadcast
                 reaches H once
    K            on br2, IPv6 disabled, 10.78.0.2/24: heard by G only once G gets 10.78.0.1/24
                 after start (a late DHCP lease): then G and K must link over IPv4 (G's
                 broadcast may reach K, once, if they linked by then)

Each pair of LAN nodes must keep exactly one LAN link (PROTOCOL.md Part I: the lower instance
tag dials). E sends one broadcast: A, B, C and D must each deliver it exactly once (hops 0 at A; 1 or 2 at
the others, as managed relaying goes), F exactly once after two LAN hops (A to C, C to F; its
`hops` is 2), X never. Then, from B's namespace, a
hostile host sends the IPv4 group one announcement forwarded (TTL 2), one of another mesh and one
of 5 bytes, and the IPv6 group one with hop limit 254: A must count each (`announcements_rejected`
twice, `_foreign`, `_malformed`) and dial none of them. Then B is killed (-9) and started again: every node must have its neighbours back. With
`--outage SECONDS`, last, D's interface goes down for that long and up again (longer than the
4 s link timeout plus the 5 s dial timeout, every dial of and by D fails and is held off 20 s):
every node must have its neighbours back, again one link per pair. Prints the times, the delivery table and each LAN
node's discovery counters.

Usage (as root): lan_discovery.py --bin DIR [--wait 60] [--outage SECONDS] [--keep]
Exit status 1 when any check fails."""
import argparse
import os
import shutil
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from meshlab import Node, Watch, group_name, read_events, wait_neighbours  # noqa: E402

SUBNET = "10.77.0"


def ip(*args):
    subprocess.run(["ip", *args], check=True, stdin=subprocess.DEVNULL)


class Namespaces:
    """The bridge namespace and one namespace per node, removed by `close`."""

    def __init__(self):
        self.tag = f"ld{os.getpid()}"
        self.bridges = f"{self.tag}-br"
        self.made = []
        self.add(self.bridges)
        for bridge in ("br0", "br1", "br2"):
            ip("-n", self.bridges, "link", "add", bridge, "type", "bridge")
            ip("-n", self.bridges, "link", "set", bridge, "up")

    def add(self, name):
        ip("netns", "add", name)
        self.made.append(name)
        ip("-n", name, "link", "set", "lo", "up")

    def node(self, name, bridge, host, ipv6=True, subnet=SUBNET):
        """A namespace for node `name` with `lan0` on `bridge`, at SUBNET.host/24 unless `host` is
        None, with IPv6 unless `ipv6` is false; returns its name."""
        ns = f"{self.tag}-{name}"
        self.add(ns)
        far = f"v{name}"
        ip("-n", self.bridges, "link", "add", far, "type", "veth", "peer", "name", "lan0", "netns", ns)
        ip("-n", self.bridges, "link", "set", far, "master", bridge, "up")
        sysctl = "net.ipv6.conf.lan0.accept_dad=0" if ipv6 else "net.ipv6.conf.lan0.disable_ipv6=1"
        subprocess.run(["ip", "netns", "exec", ns, "sysctl", "-qw", sysctl], check=True, stdin=subprocess.DEVNULL)
        if host is not None:
            ip("-n", ns, "addr", "add", f"{subnet}.{host}/24", "dev", "lan0")
        ip("-n", ns, "link", "set", "lan0", "up")
        return ns

    def close(self):
        for name in reversed(self.made):
            subprocess.run(["ip", "netns", "del", name], stdin=subprocess.DEVNULL, stderr=subprocess.DEVNULL)


class NamespaceNode(Node):
    """A meshnoded in a namespace, with the transport flags given."""

    def __init__(self, bin_dir, work, name, ns, flags):
        super().__init__(bin_dir, work, name, 0, prefix=["ip", "netns", "exec", ns])
        self.flags = flags

    def start(self):
        args = self.command("meshnoded") + self.flags + [
            "--state-directory", self.dir, "--runtime-directory", self.dir, "--name", self.node_name,
            "--control-group", group_name()]
        log = open(os.path.join(self.dir, "meshnoded.log"), "ab")
        self.proc = subprocess.Popen(args, stdout=log, stderr=log, stdin=subprocess.DEVNULL)
        log.close()


def discovery_counters(node):
    """The node's `announcements_*` and `discovery_*` counters ({} without discovery)."""
    counters = (node.stats() or {}).get("counters", {})
    group = counters.get("transport_lan") or counters.get("transport") or {}
    return {k: v for k, v in sorted(group.items()) if k.startswith(("announcements", "discovery"))}


def lan_links(node):
    """{neighbour's short ID: number of its `lan` links} from `relayctl peers`."""
    reply = node.ctl("peers") or {}
    return {n.get("shortID"): sum(1 for link in n.get("links", []) if link.get("transport") == "lan")
            for n in reply.get("neighbours", [])}


def check_one_link_per_pair(nodes, failures, when):
    """No neighbour of `nodes` has more than one LAN link to it (E reaches A over UDP only)."""
    time.sleep(2)  # a pair's dials settle within a tick or two
    for node in nodes:
        counts = lan_links(node)
        doubled = {short: count for short, count in counts.items() if count > 1}
        print(f"  {node.name}: LAN links per LAN neighbour {sorted(c for c in counts.values() if c)}")
        if doubled:
            failures.append(f"{when}: {node.name} has {doubled} LAN links to a neighbour, not 1")


def send_group(ns, payload, ttl, ipv6=False):
    """Sends `payload` to the IPv4 (or IPv6) discovery group out of `lan0` in namespace `ns`, with
    `ttl` (or that hop limit)."""
    if ipv6:
        code = ("import socket; s=socket.socket(socket.AF_INET6,socket.SOCK_DGRAM); "
                "s.setsockopt(socket.SOL_SOCKET,socket.SO_BINDTODEVICE,b'lan0'); "
                f"s.setsockopt(socket.IPPROTO_IPV6,socket.IPV6_MULTICAST_HOPS,{ttl}); "
                f"s.sendto(bytes.fromhex('{payload.hex()}'),('ff02::114',7100,0,socket.if_nametoindex('lan0')))")
    else:
        code = ("import socket; s=socket.socket(socket.AF_INET,socket.SOCK_DGRAM); "
                "s.setsockopt(socket.SOL_SOCKET,socket.SO_BINDTODEVICE,b'lan0'); "
                f"s.setsockopt(socket.IPPROTO_IP,socket.IP_MULTICAST_TTL,{ttl}); "
                f"s.sendto(bytes.fromhex('{payload.hex()}'),('224.0.0.254',7100))")
    subprocess.run(["ip", "netns", "exec", ns, "python3", "-c", code], check=True, stdin=subprocess.DEVNULL)


def link_addresses(node):
    """The remote addresses of the node's links, sorted, each once (two nodes that dial each other
    at once have a link in each role)."""
    peers = node.ctl("peers") or {}
    return sorted({link.get("address", "") for n in peers.get("neighbours", []) for link in n.get("links", [])})


def lan(*more):
    return ["--transport", "lan", "--lan.interface", "lan0", *more]


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--bin", required=True, help="folder with meshnoded and relayctl")
    parser.add_argument("--wait", type=float, default=60, help="seconds to wait for neighbours and delivery")
    parser.add_argument("--keep", action="store_true", help="keep the work folder")
    parser.add_argument("--outage", type=float, default=0, help="take D's interface down this long at the end")
    options = parser.parse_args()
    started = time.time()
    work = tempfile.mkdtemp(prefix="lan-discovery-")
    namespaces = Namespaces()
    nodes, watches, failures = [], [], []
    try:
        ns = {name: namespaces.node(name, "br0", host) for name, host in (("A", 1), ("B", 2), ("C", 3), ("F", 6))}
        ns["D"] = namespaces.node("D", "br0", 4, ipv6=False)
        ns["X"] = namespaces.node("X", "br1", 9)
        ns["G"] = namespaces.node("G", "br2", None)
        ns["H"] = namespaces.node("H", "br2", None)
        ns["K"] = namespaces.node("K", "br2", 2, ipv6=False, subnet="10.78.0")
        spec = [
            ("A", ns["A"], ["--transport", "lan,udp", "--lan.interface", "lan0", "--udp-port", "7002"]),
            ("B", ns["B"], lan()), ("C", ns["C"], lan()),
            ("E", ns["A"], ["--transport", "udp", "--udp-port", "7001", "--neighbours", "127.0.0.1:7002"]),
            ("F", ns["F"], lan("--lan.discovery", "off", "--lan.peers", f"{SUBNET}.3:7101")),
            ("X", ns["X"], lan()),
            ("G", ns["G"], lan()), ("H", ns["H"], lan()), ("K", ns["K"], lan()),
            # Last: A, B and C hear only D's announcements (D cannot hear theirs), so its first one
            # should find them listening, or they wait for its next, 5 s later.
            ("D", ns["D"], lan()),
        ]
        nodes = [NamespaceNode(options.bin, work, name, space, flags) for name, space, flags in spec]
        by_name = {node.name: node for node in nodes}
        for node in nodes:
            node.start()
        up_at = time.time()
        wanted = {"A": 4, "B": 3, "C": 4, "D": 3, "E": 1, "F": 1, "G": 1, "H": 1}
        found = wait_neighbours({by_name[n]: count for n, count in wanted.items()}, options.wait)
        print(f"== neighbours after {time.time() - up_at:.1f} s: "
              + ", ".join(f"{n.name} {(n.status() or {}).get('neighbourCount')}" for n in nodes))
        if not found:
            failures.append("not every node found its neighbours")
        for name in ("X", "K"):
            if (by_name[name].status() or {}).get("neighbourCount", 0) != 0:
                failures.append(f"{name} has a neighbour (X: on the other bridge; K: before G's lease)")
        # B's links: to A and C over link-local IPv6, to D (IPv6 off) over IPv4; G's to H link-local.
        for name, v6, v4 in (("B", 2, 1), ("G", 1, 0)):
            addresses = link_addresses(by_name[name])
            print(f"  {name}'s links: {', '.join(addresses)}")
            if sum(a.startswith("[fe80::") and "%lan0]" in a for a in addresses) != v6 \
                    or sum(a.startswith(f"{SUBNET}.4:") for a in addresses) != v4:
                failures.append(f"{name}'s links are not {v6} over link-local IPv6 and {v4} over IPv4 to D")
        lan_nodes = [by_name[n] for n in ("A", "B", "C", "D", "F")]
        check_one_link_per_pair(lan_nodes, failures, "at start")

        print("== G gets 10.78.0.1/24 (a late DHCP lease); checked at the end")
        ip("-n", ns["G"], "addr", "add", "10.78.0.1/24", "dev", "lan0")
        lease_at = time.time()

        receivers = [node for node in nodes if node.name not in ("E", "G")]
        watches = [Watch(node, os.path.join(node.dir, "watch.jsonl")) for node in receivers]
        for watch in watches:
            watch.wait_counted(options.wait)
        _, message_id = by_name["E"].send("from the island E")
        if not message_id:
            failures.append("E could not send")
        _, message_g = by_name["G"].send("from G, over IPv6 link-local alone")
        if not message_g:
            failures.append("G could not send")
        deadline = time.time() + options.wait / 2
        # Relays on the way: A's managed relay may reach B, C or D after one of the others has
        # relayed it too (PROTOCOL.md Part C), so 1 or 2 there; F only through C, two LAN hops.
        expected = {"A": (0,), "B": (1, 2), "C": (1, 2), "D": (1, 2), "F": (2,)}

        def copies(node, message=message_id):
            return [e for e in read_events(os.path.join(node.dir, "watch.jsonl")) if e.get("messageID") == message]

        while time.time() < deadline and not (all(copies(by_name[n]) for n in expected) and copies(by_name["H"], message_g)):
            time.sleep(0.2)
        time.sleep(2)  # late duplicates would show here
        print("== delivery of E's broadcast (hops: relays on the way)")
        for node in receivers:
            got = copies(node)
            print(f"  {node.name}: {len(got)} cop{'y' if len(got) == 1 else 'ies'}"
                  + (f", hops {[e.get('hops') for e in got]}" if got else ""))
            if node.name in expected:
                if len(got) != 1:
                    failures.append(f"{node.name} delivered {len(got)} copies, not 1")
                elif got[0].get("hops") not in expected[node.name]:
                    failures.append(f"{node.name}'s copy has hops {got[0].get('hops')}, not {expected[node.name]}")
            elif got:
                failures.append(f"{node.name} delivered a message it must not reach")
        from_g = {node.name: len(copies(node, message_g)) for node in receivers if copies(node, message_g)}
        print(f"  G's broadcast over IPv6 alone: {from_g}")
        if from_g.get("H") != 1 or set(from_g) - {"H", "K"} or from_g.get("K", 1) != 1:
            failures.append(f"G's broadcast reached {from_g}, not H once (and K once if linked by then)")

        print("== hostile announcements from B's namespace")
        before = discovery_counters(by_name["A"])
        uuid = bytes.fromhex("8f2c00015e1a4c7b9d3e6d657368ee01")
        good = bytes([1]) + uuid + bytes.fromhex("deadbeef") + (7101).to_bytes(2, "big")
        send_group(ns["B"], good, ttl=2)
        send_group(ns["B"], bytes([1]) + bytes(16) + bytes.fromhex("deadbeef") + (7101).to_bytes(2, "big"), ttl=1)
        send_group(ns["B"], b"junk!", ttl=1)
        send_group(ns["B"], good, ttl=254, ipv6=True)
        time.sleep(1)
        after = discovery_counters(by_name["A"])
        delta = {k: after.get(k, 0) - before.get(k, 0) for k in after}
        print(f"  A's counters grew by {delta}")
        for key, grew in (("announcements_rejected", 2), ("announcements_foreign", 1), ("announcements_malformed", 1)):
            if delta.get(key) != grew:
                failures.append(f"A's {key} grew by {delta.get(key)}, not {grew}")
        if delta.get("discovery_dials"):
            failures.append("A dialled a hostile announcement")

        print("== B killed (-9) and started again")
        by_name["B"].kill9()
        restart_at = time.time()
        by_name["B"].start()
        if not wait_neighbours({by_name[n]: count for n, count in wanted.items()}, options.wait):
            failures.append("after B's restart not every node had its neighbours back")
        print(f"  every node had its neighbours back after {time.time() - restart_at:.1f} s")
        check_one_link_per_pair(lan_nodes, failures, "after B's restart")

        if not wait_neighbours({by_name["G"]: 2, by_name["K"]: 1}, options.wait):
            failures.append("G and K did not link after G's lease")
        print(f"  G and K linked {time.time() - lease_at:.1f} s after G's lease: G's links {', '.join(link_addresses(by_name['G']))}")

        if options.outage:
            print(f"== D's interface down for {options.outage:g} s")
            ip("-n", ns["D"], "link", "set", "lan0", "down")
            time.sleep(options.outage)
            ip("-n", ns["D"], "link", "set", "lan0", "up")
            back_at = time.time()
            if not wait_neighbours({by_name[n]: count for n, count in wanted.items()}, options.wait):
                failures.append("after D's outage not every node had its neighbours back")
            print(f"  every node had its neighbours back {time.time() - back_at:.1f} s after the interface came up")

        print("== discovery counters (transport_lan, or transport for a node with one transport)")
        for node in nodes:
            counters = (node.stats() or {}).get("counters", {})
            print(f"  {node.name}: {discovery_counters(node)}")
        for watch in watches:
            watch.stop()
        watches = []
        for node in nodes:
            code = node.stop(timeout=30)
            if code != 0:
                failures.append(f"{node.name} exited with {code}")
    finally:
        for watch in watches:
            watch.stop()
        for node in nodes:
            node.stop()
        namespaces.close()
        if not options.keep and not failures:
            shutil.rmtree(work, ignore_errors=True)
    print(f"== {'FAILED' if failures else 'passed'} in {time.time() - started:.1f} s" + ("" if failures else ""))
    for failure in failures:
        print(f"  {failure}")
    if failures:
        print(f"  logs in {work}")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
