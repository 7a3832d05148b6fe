"""Issue 22 with real daemons over loopback UDP (docs/PROTOCOL.md Part G), run by
scripts/mailbox-daemons.sh, which says what it checks. A line A - B - D of meshlab Nodes; exits 1
with "mailbox-daemons: FAIL: ..." when a check fails.
Usage: mailbox_daemons.py BIN_DIR; MAILBOX_COUNT=N (even, default 20); MESHTOOLS_BIN=DIR (meshflood)."""
import glob
import os
import random
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from meshlab import Node, Watch, wait_neighbours  # noqa: E402

TIMERS = ["--timers.heartbeat_interval=1s", "--timers.departure_grace=3s", "--udp.connect_interval=1s"]
WIDE_BUDGET = ["--budget.messages_per_second=100000", "--budget.message_burst=100000",
               "--budget.bytes_per_second=104857600", "--budget.byte_burst=104857600"]
MESSAGE_LINE = '"type":"message"'
STATS_LINE = re.compile(r"^(message|mailbox|links) ")


class Failure(Exception):
    """A check that did not hold: its sentence."""


class Run:
    def __init__(self, bin_dir, count):
        self.count, self.half = count, count // 2
        self.work = tempfile.mkdtemp(prefix="meshnode-mailbox.", dir="/tmp")
        self.base = 20000 + random.randrange(20000)
        a, b, d = self.base, self.base + 1, self.base + 2
        self.a = Node(bin_dir, self.work, "A", a, [b], TIMERS + ["--mailbox.enabled=false"], node_name="node-A")
        self.b = Node(bin_dir, self.work, "B", b, [d], TIMERS + ["--mailbox.reach_window=2s"] + WIDE_BUDGET,
                      node_name="node-B")
        self.d = Node(bin_dir, self.work, "D", d, [], TIMERS + ["--seen.expiry=10s", "--seen.max_clock_skew=5s"],
                      node_name="node-D")
        self.d_id = None
        self.watch = None

    # What the nodes report.
    def need(self, node, count):
        if not wait_neighbours({node: count}, 30):
            raise Failure(f"{node.name} has fewer than {count} neighbour(s)")

    def counter(self, node, group, name):
        """One counter of `relayctl stats` (None when the node did not answer)."""
        try:
            return node.stats()["counters"][group][name]
        except (TypeError, KeyError):
            return None

    def held_for_d(self):
        try:
            return sum(r["count"] for r in self.b.ctl("mailbox")["recipients"] if r["nodeID"] == self.d_id)
        except (TypeError, KeyError):
            return None

    def b_written(self):
        with open(f"/proc/{self.b.pid}/io") as f:
            return next(int(line.split()[1]) for line in f if line.startswith("write_bytes:"))

    def d_messages(self):
        """D's watch lines that are messages delivered to its user."""
        with open(os.path.join(self.d.dir, "watch.jsonl")) as f:
            return [line for line in f if MESSAGE_LINE in line]

    def restart_b(self, *neighbours_of):
        self.b.start()
        for node, count in neighbours_of:
            self.need(node, count)

    def send_batch(self, first, last):
        for n in range(first, last + 1):
            out = self.a.relayctl("send", "--to", self.d_id, f"m{n:03d}")
            if out is None or out.returncode != 0:
                said = (out.stdout + out.stderr).strip() if out else "timed out"
                raise Failure(f"A could not send m{n}: {said}")
            time.sleep(0.1)

    def run(self):
        count, half, a, b, d = self.count, self.half, self.a, self.b, self.d
        print(f"== A - B - D over UDP in {self.work}")
        for node in (a, b, d):
            node.start()
        for node, neighbours in ((b, 2), (a, 1), (d, 1)):
            self.need(node, neighbours)
        self.d_id = (d.ctl("id") or {}).get("nodeID", "")
        for _ in range(100):
            peers = a.relayctl("--json", "peers")
            if peers and self.d_id and self.d_id in peers.stdout:
                break
            time.sleep(0.1)
        else:
            raise Failure("A never learned D")

        print("== D stops; B lets it go (grace 3 s, reach window 2 s)")
        d.stop()
        time.sleep(6)

        print(f"== A sends {half} messages to D through B")
        written0 = self.b_written()
        self.send_batch(1, half)
        time.sleep(1)
        held = self.counter(b, "mailbox", "held")
        written = self.b_written() - written0
        if held != half:
            raise Failure(f"B holds {held} messages, not {half}")
        print(f"  B holds {half}; bytes written by B meanwhile: {written} ({written // half} per held message, "
              f"{self.counter(b, 'mailbox', 'commits')} commits)")

        print("== kill -9 B and restart it")
        b.kill9()
        self.restart_b((b, 1), (a, 1))
        held = self.counter(b, "mailbox", "held")
        if held != half:
            raise Failure(f"B came back holding {held}, not {half}")
        print(f"== A sends the other {half}")
        self.send_batch(half + 1, count)
        time.sleep(1)
        held = self.counter(b, "mailbox", "held")
        if held != count:
            raise Failure(f"B holds {held}, not {count}")
        shown = b.relayctl("mailbox")
        if shown is None or shown.returncode != 0:
            raise Failure("relayctl mailbox failed on B")
        print(shown.stdout, end="")

        flood = os.path.join(os.environ.get("MESHTOOLS_BIN", ""), "meshflood")
        if os.environ.get("MESHTOOLS_BIN") and os.access(flood, os.X_OK):
            self.flood_stage(flood)
        else:
            print("== (no meshflood in MESHTOOLS_BIN: the flood stage is skipped)")

        print("== B stops cleanly; its database is kept aside for the replay")
        b.stop()
        replay = os.path.join(self.work, "replay")
        os.makedirs(replay, exist_ok=True)
        for path in glob.glob(os.path.join(b.dir, "mailbox.db*")):
            shutil.copy(path, replay)
        self.restart_b((b, 1), (a, 1))

        print("== D comes back (B paused until D's watch is connected, so no delivery goes unseen)")
        os.kill(b.pid, signal.SIGSTOP)
        d.start()
        for _ in range(200):
            if d.status() is not None:
                break
            time.sleep(0.05)
        self.watch = Watch(d, os.path.join(d.dir, "watch.jsonl"))
        if not self.watch.wait_counted(30):
            raise Failure("D never counted its watch (control.watches_started)")
        back = time.monotonic()
        os.kill(b.pid, signal.SIGCONT)
        for _ in range(600):
            if len(self.d_messages()) >= count:
                break
            time.sleep(0.05)
        handover_ms = int((time.monotonic() - back) * 1000)
        time.sleep(2)
        texts = ""
        for line in self.d_messages():
            match = re.search(r'"text":"(m[0-9]*)"', line)
            if match:
                texts += match.group(1) + " "
        expected = "".join(f"m{n:03d} " for n in range(1, count + 1))
        if texts != expected:
            raise Failure(f"D got '{texts}', not '{expected}'")
        print(f"  D got all {count} exactly once, in order, {handover_ms} ms after B resumed "
              "(B's dial, handshake, hand-over)")
        # B removes a handed-over message once D's link stayed up 2 s after it (PROTOCOL.md G2).
        self.until_b_holds_nothing_for_d(50)
        if self.held_for_d() != 0:
            raise Failure(f"B still holds {self.held_for_d()} for D")

        print("== replay: B restarted on its database from before D came back, after D's seen cache forgot")
        time.sleep(12)
        seen_before = self.counter(d, "message", "dropped_seen")
        b.stop()
        for path in glob.glob(os.path.join(replay, "*")):
            shutil.copy(path, b.dir)
        self.restart_b((d, 1))
        self.until_b_holds_nothing_for_d(100)
        time.sleep(1)
        seen_after = self.counter(d, "message", "dropped_seen")
        delivered = len(self.d_messages())
        if delivered != count:
            raise Failure(f"D delivered {delivered} messages after the replay, not {count}")
        refused = (seen_after or 0) - (seen_before or 0)
        if seen_after is None or seen_before is None or refused < count:
            raise Failure(f"D dropped only {refused} replayed copies as seen")
        print(f"  all {count} handed over again and refused by D's delivery memory (dropped_seen +{refused})")

        print("== a garbage database: B must move it aside with one log line and start with an empty mailbox")
        b.stop()
        with open(os.path.join(b.dir, "mailbox.db"), "wb") as f:
            f.write(os.urandom(65536))
        for suffix in ("-wal", "-shm"):
            if os.path.exists(os.path.join(b.dir, "mailbox.db" + suffix)):
                os.remove(os.path.join(b.dir, "mailbox.db" + suffix))
        self.restart_b((b, 1))
        damaged = [line for line in self.b_log() if "was damaged" in line]
        if len(damaged) != 1:
            raise Failure(f"B logged {len(damaged)} 'damaged' lines, not 1")
        if not glob.glob(os.path.join(b.dir, "mailbox.db.damaged-*")):
            raise Failure("the damaged database was not moved aside")
        held = self.counter(b, "mailbox", "held")
        if held != 0:
            raise Failure(f"B holds {held} after starting on garbage")
        for line in damaged:
            print("  " + line, end="" if line.endswith("\n") else "\n")
        print("mailbox-daemons: OK")

    def flood_stage(self, flood):
        """A neighbour of B mails absent IDs while D's mail waits; then B is kill -9'ed mid-flood."""
        count, a, b = self.count, self.a, self.b
        args = [flood, "--target", f"127.0.0.1:{b.port}", "--port", str(self.base + 3), "--mode", "direct", "--rate", "1000"]
        print("== a neighbour of B mails freshly minted absent IDs, 1,000 a second for 10 s")
        log = os.path.join(self.work, "flood.log")
        with open(log, "wb") as out:
            status = subprocess.run(args + ["--duration", "10", "--quiet-after", "1"], stdout=out, stderr=out).returncode
        if status != 0:
            with open(log, errors="replace") as f:
                raise Failure(f"meshflood failed: {''.join(f.readlines()[-3:]).rstrip()}")
        time.sleep(1)
        for_d = self.held_for_d()
        stats = b.stats() or {}
        mailbox = stats.get("counters", {}).get("mailbox", {})
        held, deposited, db = mailbox.get("held"), mailbox.get("deposited"), mailbox.get("database_bytes")
        evicted = sum(v for k, v in mailbox.items() if k.startswith("evicted_"))
        rss = stats.get("memory", {}).get("residentBytes")
        print(f"  B took {deposited} deposits and evicted {evicted} of them at the caps (one origin: its 200 first); "
              f"holds {held} ({for_d} for D); database {db} bytes, resident {rss} bytes")
        if for_d != count:
            raise Failure(f"the flood pushed out D's mail: {for_d} of {count} left")
        if held is None or held > count + 500:
            raise Failure(f"B holds {held}: the depositor cap (500) did not hold")
        if not evicted:
            raise Failure(f"the flood never reached a cap (deposited {deposited})")
        if db is None or db > 16 * 1024 * 1024:
            raise Failure(f"the database grew to {db} bytes")

        print("== kill -9 B in the middle of a second flood (mid-write), then restart it")
        with open(os.path.join(self.work, "flood2.log"), "wb") as out:
            second = subprocess.Popen(args + ["--duration", "6"], stdout=out, stderr=out)
            time.sleep(3)
            b.kill9()
            second.wait()
        self.restart_b((b, 1), (a, 1))
        if any("damaged" in line for line in self.b_log()):
            raise Failure("B found its database damaged after kill -9")
        if self.held_for_d() != count:
            raise Failure(f"after kill -9 mid-write B holds {self.held_for_d()} of {count} for D")
        held = self.counter(b, "mailbox", "held")
        if held is None or held > count + 1000:
            raise Failure(f"B holds {held} after the second flood")
        print(f"  B restarted clean, holding {self.counter(b, 'mailbox', 'held')} ({self.held_for_d()} for D)")

    def until_b_holds_nothing_for_d(self, tries):
        for _ in range(tries):
            if self.held_for_d() == 0:
                return
            time.sleep(0.1)

    def b_log(self):
        with open(os.path.join(self.b.dir, "meshnoded.log"), errors="replace") as f:
            return f.readlines()

    def report_failure(self, why):
        print(f"mailbox-daemons: FAIL: {why}; logs in {self.work}", file=sys.stderr)
        for node in (self.b, self.d):
            if not node.running():
                continue
            stats = node.relayctl("stats", timeout=5)
            for line in (stats.stdout if stats else "").splitlines():
                if STATS_LINE.match(line) and not line.endswith(" 0"):
                    print(f"  {node.name}: {line}", file=sys.stderr)

    def stop(self):
        if self.watch:
            self.watch.stop()
        for node in (self.a, self.b, self.d):
            if node.running():
                os.kill(node.pid, signal.SIGCONT)  # a paused B must see its SIGTERM
            node.stop()


def main():
    run = Run(sys.argv[1], int(os.environ.get("MAILBOX_COUNT", "20")))
    try:
        run.run()
        return 0
    except Failure as failure:
        run.report_failure(failure)
        return 1
    finally:
        run.stop()


if __name__ == "__main__":
    # SIGTERM stops the nodes as Ctrl-C does.
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))
    sys.exit(main())
