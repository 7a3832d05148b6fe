#!/usr/bin/env python3
"""A passive listener against MeshNode's BLE mesh (issue 36): reads a btsnoop HCI trace of every
controller (scripts/blelab-run --hci-trace, Tests/VM/adversary.sh) and keeps only what radios in
range would see: advertisements (address, data, time), connections (both addresses, time) and the
ATT PDUs on them (time, direction, bytes). It prints its guesses as JSON:

  observations  one per (epoch, advertiser address, advertised name), each with the cluster the
                adversary believes it belongs to (one cluster = one node across epochs), and the
                cluster it would believe in if addresses rotated exactly at each epoch;
  edges         the links it saw, per epoch, by address and by node ID when a version-1 key
                exchange (kind 0x05, PROTOCOL.md D3) named both ends;
  messages      each chat message transfer cascade with its guessed origin: the first radio that
                sent it (first-spy). A chat transfer is one of frame kind 0x02, or, since opaque
                link packets (kind 0x0B, PROTOCOL.md D14) hide the kind, an opaque one of at least
                --opaque-min bytes (a heartbeat is 156, an acknowledgement 60, a broadcast 284).

The controller index of a trace record is used only to tell connections apart (a sniffer that
follows a connection uses its access address) and to pair the two ends of a connection (the
CONNECT_IND on air names both addresses). Nothing else about which node a controller serves is
used. Python standard library only.

usage: scripts/adversary.py TRACE... [--gap SECONDS] [--opaque-min BYTES] [--grace SECONDS]  > guesses.json   (several files: read in turn)
"""

import argparse
import hashlib
import json
import struct
import sys

EPOCH_MS = 3_600_000
BTSNOOP_EPOCH_US = 0x00DCDDB30F2F8000  # btsnoop time 0 is year 0 (AD); this is 1970-01-01 in µs
MONITOR_EVENT, MONITOR_ACL_TX, MONITOR_ACL_RX = 3, 4, 5


class TraceError(Exception):
    """The file is not a btsnoop monitor trace."""


# A btsnoop file's header as btmon -w writes it: magic, version 1, datalink 2001 (Linux monitor).
BTSNOOP_HEADER = b"btsnoop\0" + (1).to_bytes(4, "big") + (2001).to_bytes(4, "big")


def records(paths):
    """Yields (time_ms, index, opcode, data) for each record of btsnoop files of datalink 2001
    (Linux monitor: flags = index << 16 | opcode), read in turn (a trace in several files, as when
    btmon was started again). A truncated last record ends a file."""
    for path in [paths] if isinstance(paths, str) else paths:
        yield from file_records(path)


def file_records(path):
    """The records of one btsnoop file (see ``records``)."""
    with open(path, "rb") as f:
        header = f.read(16)
        if len(header) < 16 and BTSNOOP_HEADER.startswith(header):
            return  # btmon died before its header was written: an empty trace
        if len(header) < 16 or header[:8] != b"btsnoop\0":
            raise TraceError("not a btsnoop file")
        version, datalink = struct.unpack(">II", header[8:])
        if version != 1 or datalink != 2001:
            raise TraceError(f"btsnoop version {version} datalink {datalink}: want 1 and 2001 (btmon -w)")
        while True:
            head = f.read(24)
            if len(head) < 24:
                return
            _orig, incl, flags, _drops, ts = struct.unpack(">IIIIq", head)
            if incl > 65_535 + 16:
                raise TraceError(f"record of {incl} bytes")
            data = f.read(incl)
            if len(data) < incl:
                return
            yield (ts - BTSNOOP_EPOCH_US) / 1000.0, flags >> 16, flags & 0xFFFF, data


def fmt_addr(b):
    return ":".join(f"{x:02X}" for x in reversed(b))


def ad_name(data):
    """The complete or shortened local name in advertising data, or None."""
    i = 0
    while i < len(data):
        n = data[i]
        if n == 0 or i + 1 + n > len(data):
            break
        if data[i + 1] in (0x08, 0x09):
            return data[i + 2:i + 1 + n].decode("utf-8", "replace")
        i += 1 + n
    return None


def adv_reports(ev):
    """(address, data) pairs of an LE Advertising Report (0x02) or Extended Report (0x0D)."""
    sub = ev[0]
    out = []
    if sub == 0x02:
        count, i = ev[1], 2
        for _ in range(count):
            if i + 9 > len(ev):
                break
            addr = ev[i + 2:i + 8]
            length = ev[i + 8]
            out.append((fmt_addr(addr), ev[i + 9:i + 9 + length]))
            i += 9 + length + 1
    elif sub == 0x0D:
        count, i = ev[1], 2
        for _ in range(count):
            if i + 24 > len(ev):
                break
            addr = ev[i + 3:i + 9]
            length = ev[i + 23]
            out.append((fmt_addr(addr), ev[i + 24:i + 24 + length]))
            i += 24 + length
    return out


def node_id_in_key_exchange(msg):
    """The sender's node ID in a version-1 key exchange (D3 payload inside the envelope):
    SHA-256(signing key ‖ agreement key)[0..<16], or None."""
    for i in range(0, len(msg) - 299):
        if msg[i] == 1 and msg[i + 1] == 4 and msg[i + 66] == 4 and msg[i + 131] == 4:
            keys = msg[i + 66:i + 196]
            return hashlib.sha256(keys).digest()[:16].hex()
    return None


class Union:
    def __init__(self):
        self.parent = {}

    def find(self, x):
        self.parent.setdefault(x, x)
        while self.parent[x] != x:
            self.parent[x] = self.parent[self.parent[x]]
            x = self.parent[x]
        return x

    def join(self, a, b):
        self.parent[self.find(a)] = self.find(b)


def analyse(path, gap_s, opaque_min=250, grace_s=10.0):
    observations = {}          # (epoch first heard, addr, name) -> first time heard
    first_heard = {}           # (addr, name) -> first time heard
    conns = {}                 # (index, handle) -> {"t", "role", "peer", "other": (index, handle)}
    pending = []               # connection-complete events not yet paired
    connections = []           # (time, address, address) of each connection whose two ends paired
    acl_buf = {}               # (index, handle) -> partial L2CAP bytes
    sdu_buf = {}               # (index, handle, channel) -> [SDU length, bytes so far] (EATT)
    transfers = {}             # (index, handle, transferID) -> {seq: slice}
    pdus = []                  # (t, sender addr, receiver addr or None, kind, transferID, seq)
    opaque = {}                # (index, handle, transferID) -> [first time, sender, bytes, total, frames seen]
    chat = []                  # (t, sender) of each chat transfer's first frame
    identity = {}              # (epoch, addr) -> node ID learned from a key exchange
    for t, index, op, data in records(path):
        if op == MONITOR_EVENT and len(data) >= 3 and data[0] == 0x3E:
            ev = data[2:]
            if ev[0] in (0x02, 0x0D):
                for addr, ad in adv_reports(ev):
                    name = ad_name(ad)
                    if name is None:
                        continue  # scan responses and foreign advertisers
                    # An advertiser identity (address, name) is an observation of each epoch it is
                    # heard in, but one heard on only in a later epoch's first `grace_s` is the same
                    # observation (nodes' mesh time may differ by seconds), not a new one linking itself.
                    epoch = int(t // EPOCH_MS)
                    if (epoch, addr, name) not in observations and (
                            (addr, name) not in first_heard or t - epoch * EPOCH_MS >= grace_s * 1000):
                        observations[(epoch, addr, name)] = t
                    first_heard.setdefault((addr, name), t)
            elif ev[0] in (0x01, 0x0A) and len(ev) >= 12 and ev[1] == 0:
                handle = struct.unpack("<H", ev[2:4])[0] & 0x0FFF
                role, peer = ev[4], fmt_addr(ev[6:12])
                # An enhanced event names the peer's resolvable address apart: that is what was on air.
                if ev[0] == 0x0A and len(ev) >= 24 and any(ev[18:24]):
                    peer = fmt_addr(ev[18:24])
                c = {"t": t, "role": role, "peer": peer, "other": None}
                conns[(index, handle)] = c
                acl_buf.pop((index, handle), None)
                for k in [k for k in sdu_buf if k[:2] == (index, handle)]:
                    del sdu_buf[k]
                # The other end: an event of the opposite role within a second, on another controller.
                for p in pending:
                    pc = conns.get(p)
                    if pc and p[0] != index and pc["other"] is None and pc["role"] != role and abs(pc["t"] - t) < 1000:
                        pc["other"], c["other"] = (index, handle), p
                        connections.append((t, peer, pc["peer"]))
                        pending.remove(p)
                        break
                else:
                    pending.append((index, handle))
                pending[:] = [p for p in pending if t - conns[p]["t"] < 1000]
        elif op == MONITOR_ACL_RX and len(data) >= 4:
            hf, length = struct.unpack("<HH", data[:4])
            handle, pb = hf & 0x0FFF, (hf >> 12) & 3
            key = (index, handle)
            if key not in conns:
                continue
            body = data[4:4 + length]
            if pb == 1:
                if key not in acl_buf:
                    continue
                acl_buf[key] += body
            else:
                acl_buf[key] = body
            buf = acl_buf[key]
            if len(buf) < 4:
                continue
            l2len, cid = struct.unpack("<HH", buf[:4])
            if len(buf) < 4 + l2len:
                continue
            del acl_buf[key]
            att = buf[4:4 + l2len]
            if cid >= 0x40:
                # An LE credit-based channel (BlueZ runs EATT, Core 5.2, over them when both ends can):
                # each SDU starts with its 2-byte length and may span K-frames.
                sdu = sdu_buf.get((index, handle, cid))
                if sdu is None:
                    if len(att) < 2:
                        continue
                    sdu = [struct.unpack("<H", att[:2])[0], att[2:]]
                else:
                    sdu[1] += att
                if len(sdu[1]) < sdu[0]:
                    sdu_buf[(index, handle, cid)] = sdu
                    continue
                sdu_buf.pop((index, handle, cid), None)
                att = sdu[1][:sdu[0]]
            elif cid != 4:
                continue
            if len(att) < 3:
                continue
            if att[0] not in (0x12, 0x52, 0x1B, 0x1D) or len(att) < 3 + 9:
                continue
            frame = att[3:]
            kind, tid, seq, total = frame[0], *struct.unpack(">IHH", frame[1:9])
            c = conns[key]
            sender = c["peer"]
            receiver = conns[c["other"]]["peer"] if c["other"] in conns else None
            pdus.append((t, sender, receiver, kind, tid, seq))
            if kind == 0x02 and seq == 0:
                chat.append((t, sender))
            if kind == 0x0B and 0 < total <= 512:
                entry = opaque.setdefault((index, handle, tid), [t, sender, 0, total, 0])
                entry[2] += len(frame) - 9
                entry[4] += 1
                if entry[4] == entry[3]:
                    del opaque[(index, handle, tid)]
                    if entry[2] >= opaque_min:
                        chat.append((entry[0], entry[1]))
            if kind == 0x05 and 0 < total <= 64:
                parts = transfers.setdefault((index, handle, tid), {})
                parts[seq] = frame[9:]
                if len(parts) == total and all(s in parts for s in range(total)):
                    msg = b"".join(parts[s] for s in range(total))
                    del transfers[(index, handle, tid)]
                    nid = node_id_in_key_exchange(msg)
                    if nid:
                        identity[(int(t // EPOCH_MS), sender)] = nid

    # (a) clusters: same address, same name, or same node ID join observations. A second set of
    # clusters treats each epoch's addresses as new ones (what an address that rotated exactly at
    # the epoch would give): it shows what the name and the key exchange alone give away.
    def clusters(address_scope):
        u = Union()
        for (epoch, addr, name) in observations:
            obs = ("obs", epoch, addr, name)
            u.join(obs, ("addr", address_scope(epoch), addr))
            u.join(obs, ("name", name))
        for (epoch, addr), nid in identity.items():
            u.join(("addr", address_scope(epoch), addr), ("id", nid))
        roots, out = {}, {}
        for key in sorted(observations, key=observations.get):
            out[key] = roots.setdefault(u.find(("obs",) + key), len(roots))
        return out
    by_address = clusters(lambda epoch: None)
    by_epoch_address = clusters(lambda epoch: epoch)
    obs_out = []
    for (epoch, addr, name), t in sorted(observations.items(), key=lambda kv: kv[1]):
        key = (epoch, addr, name)
        obs_out.append({"epoch": epoch, "address": addr, "name": name, "first_ms": round(t),
                        "cluster": by_address[key], "cluster_rotating_address": by_epoch_address[key],
                        "node_id": identity.get((epoch, addr))})

    # (b) links: both addresses of each connection (as the CONNECT_IND shows them, or as the
    # frames on it show them), per epoch.
    edges = {}
    for t, s, r in connections + [(t, s, r) for t, s, r, *_ in pdus]:
        if r is None or s == r:
            continue
        epoch = int(t // EPOCH_MS)
        key = (epoch,) + tuple(sorted((s, r)))
        if key not in edges:
            a, b = key[1], key[2]
            edges[key] = {"epoch": epoch, "a": a, "b": b,
                          "a_id": identity.get((epoch, a)), "b_id": identity.get((epoch, b))}

    # (c) chat cascades: chat transfers (above), a new cascade after `gap_s` of silence; the
    # guessed origin is the sender of the cascade's first frame.
    messages = []
    last = None
    for t, s in sorted(chat):
        if last is None or t - last > gap_s * 1000:
            epoch = int(t // EPOCH_MS)
            messages.append({"first_ms": round(t), "origin_address": s,
                             "origin_node_id": identity.get((epoch, s)), "frames": 0})
        messages[-1]["frames"] += 1
        last = t
    return {"observations": obs_out, "edges": list(edges.values()), "messages": messages,
            "identities": [{"epoch": e, "address": a, "node_id": n} for (e, a), n in sorted(identity.items())]}


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("trace", nargs="+")
    ap.add_argument("--gap", type=float, default=3.0, help="silence (s) that ends a message cascade")
    ap.add_argument("--opaque-min", type=int, default=250, help="bytes from which an opaque transfer counts as chat")
    ap.add_argument("--grace", type=float, default=10.0,
                    help="seconds into an epoch in which an advertisement heard before is not a new observation")
    args = ap.parse_args()
    try:
        out = analyse(args.trace, args.gap, args.opaque_min, args.grace)
    except (OSError, TraceError) as e:
        print(f"adversary: {e}", file=sys.stderr)
        return 2
    json.dump(out, sys.stdout, indent=1)
    print()
    return 0


if __name__ == "__main__":
    sys.exit(main())
