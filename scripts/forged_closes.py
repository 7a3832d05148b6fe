"""Forged UDP closes against a real A-B link (issue 19 item 7), with a raw-socket forger.

A line A-B-C of meshnoded over loopback UDP (A and C list B). A forger with CAP_NET_RAW sniffs
the A-B link on `lo` (AF_PACKET) to learn its nonce, role flags and instance numbers, and keeps
learning them, so a new link after a drop is attacked too. It then sends UDP closes through a raw
IPv4 socket (forged source address) at `--burst` per `--period` for `--seconds`, in one of the
directions: `both` (to B as A and to A as B at once), `to-b`, `to-a`, or `none`. A sends a probe
broadcast every 0.1 s; C records them. Reported per run: link downs at A and B during the flood
(with reasons), forged closes sent, challenge counters, probes delivered and the longest gap
between probe arrivals at C.

With `--mutual` B lists A too (two links between them, both attacked). With `--answer-gone` the
forger also reads every challenge on `lo` and races the real peer with a forged "gone" answer:
the attack of someone who can read loopback, which the challenge does not stop (SECURITY.md).

With `--event stop|restart` B is ended for real during the flood (SIGTERM, or kill -9 and a new
start) and the time until A's link goes down, and its reason, is reported.

Usage (as root): forged_closes.py --bin DIR [--directions both,to-b,to-a,none] [--runs 3] [--seconds 8]
                 [--burst 40] [--period 0.05] [--mutual] [--answer-gone] [--event stop|restart
                 [--event-at 3]] [--out FILE]
Exit status 1 when any run saw a link down during the flood (with --event: when A's link did not
go down within 1 s of a stop, 2.5 s of a restart; a link timeout is 4 s)."""
import argparse
import json
import os
import random
import socket
import struct
import sys
import tempfile
import threading
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from meshlab import Node, Watch, read_events, wait_neighbours  # noqa: E402

ETH_P_ALL = 0x0003
CLOSE, FRAME, KEEPALIVE, CHALLENGE, ANSWER = 5, 3, 4, 6, 7


class Sniffer(threading.Thread):
    """Learns, per direction (source port, destination port), the last header the real node sent."""

    def __init__(self, ports, answer_gone=False):
        super().__init__(daemon=True)
        self.ports = set(ports)
        self.answer_gone = answer_gone
        self.answers_forged = 0
        self.raw = socket.socket(socket.AF_INET, socket.SOCK_RAW, socket.IPPROTO_RAW) if answer_gone else None
        self.headers = {}  # (sport, dport, flags, nonce bytes) -> (instance bytes, when last seen)
        self.halt = threading.Event()
        self.sock = socket.socket(socket.AF_PACKET, socket.SOCK_RAW, socket.htons(ETH_P_ALL))
        self.sock.bind(("lo", 0))
        self.sock.settimeout(0.2)

    def run(self):
        while not self.halt.is_set():
            try:
                frame, address = self.sock.recvfrom(65535)
            except socket.timeout:
                continue
            if address[2] == socket.PACKET_OUTGOING:
                continue  # loopback shows each packet twice: take it once, as received
            if len(frame) < 14 + 20 + 8 + 18 or frame[12:14] != b"\x08\x00":
                continue
            ip = frame[14:]
            ihl = (ip[0] & 0x0F) * 4
            if ip[9] != socket.IPPROTO_UDP:
                continue
            sport, dport = struct.unpack("!HH", ip[ihl:ihl + 4])
            body = ip[ihl + 8:]
            if sport not in self.ports or dport not in self.ports:
                continue
            if body[0] in (FRAME, KEEPALIVE):
                self.headers[(sport, dport, body[1], body[10:18])] = (body[2:10], time.time())
            elif body[0] == CHALLENGE and self.answer_gone and len(body) == 26:
                # Race the real peer: "gone" from the challenged address, with the value just seen.
                peer = self.headers.get((dport, sport, body[1] ^ 1, body[10:18]))
                if peer:
                    answer = bytes([ANSWER, body[1] ^ 1]) + peer[0] + body[10:26] + b"\x00"
                    self.raw.sendto(packet(dport, sport, answer), ("127.0.0.1", sport))
                    self.answers_forged += 1

    def links(self, sport, dport):
        """The (flags, instance, nonce) headers seen from sport to dport in the last 5 s: every live link."""
        recent = time.time() - 5
        return [(flags, instance, nonce) for (s, d, flags, nonce), (instance, seen) in list(self.headers.items())
                if s == sport and d == dport and seen >= recent]

    def stop(self):
        self.halt.set()
        self.join(2)
        self.sock.close()
        if self.raw:
            self.raw.close()


def forged_close(sport, dport, header):
    """An IPv4 + UDP packet from 127.0.0.1:sport to 127.0.0.1:dport carrying a close with `header`."""
    flags, instance, nonce = header
    return packet(sport, dport, bytes([CLOSE, flags]) + instance + nonce)


def packet(sport, dport, payload):
    """An IPv4 + UDP packet from 127.0.0.1:sport to 127.0.0.1:dport carrying `payload`."""
    udp = struct.pack("!HHHH", sport, dport, 8 + len(payload), 0) + payload  # checksum 0: none (IPv4)
    ip = struct.pack("!BBHHHBBH4s4s", 0x45, 0, 20 + len(udp), random.getrandbits(16), 0, 64, socket.IPPROTO_UDP, 0,
                     socket.inet_aton("127.0.0.1"), socket.inet_aton("127.0.0.1"))
    return ip + udp  # the kernel fills in the IP checksum


def forge(sniffer, pa, pb, direction, seconds, burst, period):
    """Sends the forged closes; returns how many went out each way."""
    raw = socket.socket(socket.AF_INET, socket.SOCK_RAW, socket.IPPROTO_RAW)
    sent = {"to_b": 0, "to_a": 0}
    targets = []
    if direction in ("both", "to-b"):
        targets.append(("to_b", pa, pb))
    if direction in ("both", "to-a"):
        targets.append(("to_a", pb, pa))
    end = time.time() + seconds
    next_at = time.time()
    while time.time() < end:
        for _ in range(burst):
            for name, sport, dport in targets:  # interleaved: both ends get closes at the same time
                for header in sniffer.links(sport, dport):
                    raw.sendto(forged_close(sport, dport, header), ("127.0.0.1", dport))
                    sent[name] += 1
        next_at += period
        time.sleep(max(0, next_at - time.time()))
    raw.close()
    return sent


def end_b(b, what, event):
    """Ends B's side for real in the middle of the flood: SIGTERM (`stop`) or `kill -9` and a new start (`restart`)."""
    event["at"] = time.time()
    if what == "stop":
        b.stop()
    else:
        b.kill9()
        event["at"] = time.time()
        b.start()


def prober(node, until, probes):
    n = 0
    next_at = time.time()
    while not until():
        n += 1
        probes.append(node.send(f"probe {n}"))
        next_at += 0.1
        time.sleep(max(0, next_at - time.time()))


def challenge_counters(stats):
    t = (stats or {}).get("counters", {}).get("transport", {})
    return {k: v for k, v in t.items() if k.startswith("challenge") or k in ("links_down", "unknown_links")}


def delta(before, after):
    return {k: after.get(k, 0) - before.get(k, 0) for k in after}


def run(args, direction, index, work):
    base = random.randint(20000, 50000)
    name = f"{direction}-{index}"
    a = Node(args.bin, work, f"{name}-A", base, [base + 1])
    b = Node(args.bin, work, f"{name}-B", base + 1, [base] if args.mutual else [])
    c = Node(args.bin, work, f"{name}-C", base + 2, [base + 1])
    nodes = [a, b, c]
    for node in nodes:
        node.start()
    result = {"direction": direction, "run": index}
    try:
        if not wait_neighbours({a: 1, b: 2, c: 1}, 30):
            result["error"] = "the line A-B-C did not come up"
            return result
        watches = {n: Watch(n, os.path.join(n.dir, "watch.jsonl")) for n in nodes}
        sniffer = Sniffer([a.port, b.port], answer_gone=args.answer_gone)
        sniffer.start()
        deadline = time.time() + 5
        while time.time() < deadline and len(sniffer.headers) < (4 if args.mutual else 2):
            time.sleep(0.05)
        before = {n.name: challenge_counters(n.stats()) for n in (a, b)}
        done = threading.Event()
        probes = []
        probe_thread = threading.Thread(target=prober, args=(a, done.is_set, probes))
        probe_thread.start()
        time.sleep(0.5)
        start = time.time()
        event = {}
        timer = None
        if args.event:
            timer = threading.Timer(args.event_at, end_b, args=(b, args.event, event))
            timer.start()
        sent = forge(sniffer, a.port, b.port, direction, args.seconds, args.burst, args.period)
        end = time.time()
        if timer:
            timer.join()
        time.sleep(1.0)
        done.set()
        probe_thread.join()
        sniffer.stop()
        after = {n.name: challenge_counters(n.stats()) for n in (a, b)}
        for w in watches.values():
            w.stop()
        downs = {n.name[-1]: [(round(e["time"] - start, 3), e.get("reason")) for e in read_events(w.path, None)
                              if e.get("type") == "link_down" and start <= e["time"] <= end + 0.5]
                 for n, w in watches.items() if n is not c}
        arrivals = sorted(e["time"] for e in read_events(watches[c].path, None)
                          if e.get("type") == "message" and start <= e["time"] <= end)
        gaps = [y - x for x, y in zip([start] + arrivals, arrivals + [end])]
        in_flood = [mid for t, mid in probes if start <= t <= end - 0.3]
        at_c = {e.get("messageID") for e in read_events(watches[c].path, None) if e.get("type") == "message"}
        result.update({
            "forged_closes": sent, "forged_answers": sniffer.answers_forged, "link_downs": downs,
            "link_downs_total": sum(len(v) for v in downs.values()),
            "counters": {k: delta(before[k], after[k]) for k in after},
            "probes_sent": len(in_flood), "probes_delivered": sum(1 for mid in in_flood if mid in at_c),
            "longest_gap_s": round(max(gaps), 3) if gaps else None,
        })
        if event:
            after_event = [e for e in read_events(watches[a].path, None)
                           if e.get("type") == "link_down" and e["time"] >= event["at"]]
            result["event"] = {"what": args.event, "at_s": round(event["at"] - start, 3),
                               "a_link_down_after_s": round(after_event[0]["time"] - event["at"], 3) if after_event else None,
                               "a_link_down_reason": after_event[0].get("reason") if after_event else None}
    finally:
        result["exit_status"] = {n.name: n.stop() for n in nodes}
    return result


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--bin", required=True)
    parser.add_argument("--directions", default="both,to-b,to-a")
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--seconds", type=float, default=8)
    parser.add_argument("--burst", type=int, default=40)
    parser.add_argument("--period", type=float, default=0.05)
    parser.add_argument("--mutual", action="store_true", help="B lists A too: two links between them, both attacked")
    parser.add_argument("--answer-gone", action="store_true",
                        help="the forger also reads each challenge on lo and races the real peer with a forged 'gone' answer")
    parser.add_argument("--event", choices=["stop", "restart"],
                        help="end B for real at --event-at seconds into the flood: SIGTERM, or kill -9 and start again; "
                             "reports how long A's link to B took to go down and why")
    parser.add_argument("--event-at", type=float, default=3.0)
    parser.add_argument("--out", default="forged-closes.json")
    args = parser.parse_args()
    work = tempfile.mkdtemp(prefix="meshnode-closes.")
    results = []
    for direction in args.directions.split(","):
        for index in range(1, args.runs + 1):
            r = run(args, direction, index, work)
            results.append(r)
            if "error" in r:
                print(f"{direction} run {index}: error: {r['error']}", flush=True)
                continue
            print(f"{direction} run {index}: forged {r['forged_closes']}, answers {r['forged_answers']}, link downs {r['link_downs_total']} "
                  f"{r['link_downs']}, probes {r['probes_delivered']} of {r['probes_sent']}, "
                  f"longest gap {r['longest_gap_s']} s, A {r['counters'][a_name(r)]} B {r['counters'][b_name(r)]}"
                  + (f", event {r['event']}" if "event" in r else ""), flush=True)
    with open(args.out, "w") as f:
        json.dump({"seconds": args.seconds, "mutual": args.mutual, "answer_gone": args.answer_gone, "burst": args.burst, "period": args.period, "work": work,
                   "started": time.strftime("%Y-%m-%dT%H:%M:%S"), "results": results}, f, indent=2)
    if args.event:  # the link is meant to go down, a stop at once, a restart by A's next keepalive and challenge
        bound = 1.0 if args.event == "stop" else 2.5
        bad = [r for r in results if "error" in r or (r.get("event", {}).get("a_link_down_after_s") or 99) > bound]
    else:
        bad = [r for r in results if "error" in r or r.get("link_downs_total")]
    sys.exit(1 if bad else 0)


def a_name(r):
    return next(k for k in r["counters"] if k.endswith("-A"))


def b_name(r):
    return next(k for k in r["counters"] if k.endswith("-B"))


if __name__ == "__main__":
    main()
