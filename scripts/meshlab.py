"""The one launcher of meshnoded for host scripts: loopback-UDP nodes for the local demo, the
mailbox daemons, the soak, the forged closes, the MQTT bridge and the measurement scripts of
Benchmarks/scripts: start, stop, kill, relayctl, watch recordings, /proc sampling and memory
figures. Standard library only (python3 on Debian 12)."""
import json
import os
import signal
import subprocess
import threading
import time

TICKS = os.sysconf("SC_CLK_TCK")


class Node:
    """One meshnoded over loopback UDP with its own state and runtime folder."""

    def __init__(self, bin_dir, work, name, port, neighbours=(), extra=(), prefix=(), node_name=None):
        """`extra`: more meshnoded flags (a configuration file with `-c`, a log level, ...).
        `prefix`: a command that runs this node's meshnoded and relayctl (an arm64 build under
        `qemu-aarch64-static -L ROOT`). `name` names the node's folder; `node_name` its `--name`
        (default `name`)."""
        self.bin, self.name, self.port = bin_dir, name, port
        self.neighbours, self.extra, self.prefix = list(neighbours), list(extra), list(prefix)
        self.node_name = node_name or name
        self.dir = os.path.join(work, name)
        self.socket = os.path.join(self.dir, "control.sock")
        self.proc = None
        self.exits = []  # (how it was stopped, exit status)
        os.makedirs(self.dir, exist_ok=True)

    def start(self):
        args = self.command("meshnoded") + [
                "--transport", "udp", "--udp-port", str(self.port),
                "--state-directory", self.dir, "--runtime-directory", self.dir, "--name", self.node_name,
                "--control-group", group_name()]
        if self.neighbours:
            args += ["--neighbours", ",".join(f"127.0.0.1:{p}" for p in self.neighbours)]
        log = open(os.path.join(self.dir, "meshnoded.log"), "ab")
        self.proc = subprocess.Popen(args + self.extra, stdout=log, stderr=log, stdin=subprocess.DEVNULL)
        log.close()

    @property
    def pid(self):
        return self.proc.pid if self.proc else None

    def running(self):
        return self.proc is not None and self.proc.poll() is None

    def stop(self, timeout=10):
        """SIGTERM, wait (SIGKILL after timeout); records and returns the exit status."""
        if not self.proc:
            return None
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)
            try:
                self.proc.wait(timeout)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
                self.exits.append(("sigterm-timeout", self.proc.returncode))
                self.proc = None
                return -9
        status = self.proc.returncode
        self.exits.append(("sigterm", status))
        self.proc = None
        return status

    def kill9(self):
        if self.proc and self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait()
            self.exits.append(("kill9", self.proc.returncode))
        self.proc = None

    def command(self, program):
        """The command line that runs `program` (meshnoded or relayctl) for this node."""
        return self.prefix + [os.path.join(self.bin, program)]

    def relayctl(self, *args, timeout=15):
        """relayctl on this node's socket: the finished process (text output), None on a timeout."""
        try:
            return subprocess.run(self.command("relayctl") + ["--socket", self.socket, *args],
                                  capture_output=True, text=True, timeout=timeout, stdin=subprocess.DEVNULL)
        except subprocess.TimeoutExpired:
            return None

    def ctl(self, *args, timeout=15):
        """`relayctl --json ARGS`: the reply's last line decoded, None when it failed or timed out."""
        out = self.relayctl("--json", *args, timeout=timeout)
        if out is None or out.returncode != 0:
            return None
        try:
            return json.loads(out.stdout.strip().splitlines()[-1])
        except (ValueError, IndexError):
            return None

    def status(self):
        return self.ctl("status", timeout=5)

    def stats(self):
        return self.ctl("stats")

    def node_id(self):
        reply = self.ctl("id", timeout=5)
        return reply["nodeID"] if reply else None

    def send(self, text, to=None):
        """Sends a broadcast (or direct) message; returns (send time, message ID or None)."""
        sent_at = time.time()
        reply = self.ctl("send", *(["--to", to] if to else []), "--", text, timeout=10)
        return sent_at, (reply or {}).get("messageID")


def group_name():
    import grp
    return grp.getgrgid(os.getgid()).gr_name


def wait_neighbours(wanted, seconds):
    """wanted: {node: count}; True once every node has at least that many neighbours."""
    deadline = time.time() + seconds
    while time.time() < deadline:
        if all(((n.status() or {}).get("neighbourCount", 0) >= c) for n, c in wanted.items()):
            return True
        time.sleep(0.2)
    return False


class Watch:
    """`relayctl --json watch` on a node, recorded to a file (one event per line)."""

    def __init__(self, node, path):
        self.node, self.path = node, path
        self.file = open(path, "ab")
        self.proc = subprocess.Popen(node.command("relayctl") + ["--socket", node.socket, "--json", "watch"],
                                     stdout=self.file, stderr=subprocess.DEVNULL, stdin=subprocess.DEVNULL)

    def wait_counted(self, seconds, at_least=1):
        """True once the node counts at least `at_least` watches (control.watches_started): a watch
        sees only what happens after its request, however slowly relayctl starts."""
        deadline = time.time() + seconds
        while time.time() < deadline:
            counters = (self.node.stats() or {}).get("counters", {})
            if counters.get("control", {}).get("watches_started", 0) >= at_least:
                return True
            time.sleep(0.2)
        return False

    def alive(self):
        return self.proc.poll() is None

    def stop(self):
        if self.proc.poll() is None:
            self.proc.terminate()
            self.proc.wait()
        self.file.close()


def read_events(path, kind="message"):
    """Events of type `kind` (every type when None) from a watch recording: list of dicts
    (messageID, time, from, hops, ... for messages)."""
    events = []
    try:
        with open(path, "rb") as f:
            for raw in f:
                try:
                    line = json.loads(raw)
                except ValueError:
                    continue
                event = line.get("event", line)
                if kind is None or event.get("type") == kind:
                    events.append(event)
    except FileNotFoundError:
        pass
    return events


class ProcSampler(threading.Thread):
    """Samples a process's CPU seconds (utime + stime), VmRSS, VmHWM and RssAnon (kB) every interval."""

    def __init__(self, pid, interval=0.25):
        super().__init__(daemon=True)
        self.pid, self.interval = pid, interval
        self.samples = []  # (wall time, cpu seconds, rss kB, hwm kB, anonymous rss kB)
        self.halt = threading.Event()

    @staticmethod
    def read(pid):
        try:
            with open(f"/proc/{pid}/stat") as f:
                fields = f.read().rsplit(")", 1)[1].split()
            cpu = (int(fields[11]) + int(fields[12])) / TICKS
            rss = hwm = anon = 0
            with open(f"/proc/{pid}/status") as f:
                for line in f:
                    if line.startswith("VmRSS:"):
                        rss = int(line.split()[1])
                    elif line.startswith("VmHWM:"):
                        hwm = int(line.split()[1])
                    elif line.startswith("RssAnon:"):
                        anon = int(line.split()[1])
            return time.time(), cpu, rss, hwm, anon
        except (OSError, IndexError, ValueError):
            return None

    def run(self):
        while not self.halt.is_set():
            sample = self.read(self.pid)
            if sample is None:
                return
            self.samples.append(sample)
            self.halt.wait(self.interval)

    def stop(self):
        self.halt.set()
        self.join(5)

    def at(self, when):
        """The last sample taken at or before `when` (the first one if none)."""
        best = self.samples[0] if self.samples else None
        for sample in self.samples:
            if sample[0] <= when:
                best = sample
        return best


def percentile(values, fraction):
    if not values:
        return None
    ordered = sorted(values)
    index = min(len(ordered) - 1, max(0, int(round(fraction * (len(ordered) - 1)))))
    return ordered[index]


def memory(pid):
    """VmRSS, VmHWM, RssAnon, RssFile, RssShmem (/proc/PID/status) and Pss, Pss_Anon, Pss_File,
    Private_Dirty, Shared_Clean, Private_Clean (/proc/PID/smaps_rollup), in bytes."""
    out = {}
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            key, _, rest = line.partition(":")
            if key in ("VmRSS", "VmHWM", "RssAnon", "RssFile", "RssShmem"):
                out[key] = int(rest.split()[0]) * 1024
    with open(f"/proc/{pid}/smaps_rollup") as f:
        for line in f:
            key, _, rest = line.partition(":")
            if key in ("Pss", "Pss_Anon", "Pss_File", "Private_Dirty", "Shared_Clean", "Private_Clean"):
                out[key] = int(rest.split()[0]) * 1024
    return out


def rss_by_mapping(pid):
    """Resident bytes per mapped file ([anon], [heap], [stack] for the rest), largest first."""
    out, name = {}, None
    with open(f"/proc/{pid}/smaps") as f:
        for line in f:
            fields = line.split()
            if "-" in fields[0] and len(fields) >= 5 and ":" in fields[3]:
                name = os.path.basename(fields[5]) if len(fields) > 5 else "[anon]"
            elif fields[0] == "Rss:":
                out[name] = out.get(name, 0) + int(fields[1]) * 1024
    return dict(sorted(((k, v) for k, v in out.items() if v), key=lambda kv: -kv[1]))
