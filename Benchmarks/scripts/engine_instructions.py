"""Instructions per relayed message of meshnoded B's engine, counted by callgrind: a figure the
machine's load does not move (CPU time on a shared machine does; a VM often has no hardware
counters for `perf stat -e instructions`). enginecpu runs the line of daemon-cpu.sh in one process
on virtual time (M floods B, B relays to A and C); callgrind counts only B's engine calls over the
flood (`--toggle-collect` on enginecpu's never-inlined `measuredCallOfB`), and the count is divided
by the messages B relayed. The rate matters as on the daemon: timers tick every 250 ms of engine
time whatever the rate, so at a low rate a message carries more of their work.
Usage (normally through Benchmarks/scripts/engine-instructions.sh):
  engine_instructions.py --tools DIR [--baseline DIR] [--rate 40 --rate 400] [--messages 1000] [--keep DIR]
--baseline DIR runs another build's enginecpu beside this one, at the same rates, alternating;
--keep DIR keeps each callgrind profile there (for callgrind_annotate)."""
import argparse
import json
import os
import re
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from daemon_cpu import NODE_FLAGS  # noqa: E402  (B's flags: MTU 510, budgets open)


def count(enginecpu, rate, messages, profile):
    """Runs enginecpu under callgrind; returns its JSON line with B's instructions added."""
    out = subprocess.run(
        ["valgrind", "--tool=callgrind", "--collect-atstart=no", "--toggle-collect=*measuredCallOfB*",
         f"--callgrind-out-file={profile}", enginecpu, "--messages", str(messages), "--rate", str(rate),
         "--", *NODE_FLAGS],
        capture_output=True, text=True, timeout=3600)
    if out.returncode != 0:
        return {"error": f"enginecpu exited {out.returncode}: {out.stderr.strip()[-500:]}"}
    collected = re.search(r"Collected : (\d+)", out.stderr)
    result = json.loads(out.stdout.strip().splitlines()[-1])
    if not collected or not result["b_relayed_messages"]:
        return {"error": "no instructions counted, or nothing relayed"}
    result["b_instructions"] = int(collected.group(1))
    result["instructions_per_relayed_message"] = round(result["b_instructions"] / result["b_relayed_messages"])
    result["every_message_relayed"] = (result["b_received"] == messages
                                       and result["b_relayed_copies"] == 2 * result["b_received"])
    return result


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--tools", required=True, help="the folder of enginecpu (the Benchmarks package's build)")
    parser.add_argument("--baseline", help="a folder of another build's enginecpu to run alongside")
    parser.add_argument("--rate", type=float, action="append", help="broadcasts a second (repeat; default 40 and 400)")
    parser.add_argument("--messages", type=int, default=1000)
    parser.add_argument("--keep", help="a folder to keep the callgrind profiles in")
    parser.add_argument("--out", default="engine-instructions.json")
    args = parser.parse_args()
    rates = args.rate or [40.0, 400.0]
    builds = ([("baseline", os.path.abspath(args.baseline))] if args.baseline else []) + [("this", os.path.abspath(args.tools))]
    keep = args.keep or tempfile.mkdtemp(prefix="meshnode-instructions.")
    os.makedirs(keep, exist_ok=True)
    rows = []
    for rate in rates:
        for build, folder in builds:
            profile = os.path.join(keep, f"callgrind.{build}.{rate:g}")
            result = count(os.path.join(folder, "enginecpu"), rate, args.messages, profile)
            rows.append({"rate": rate, "build": build, "folder": folder, "profile": profile, **result})
            per = result.get("instructions_per_relayed_message", result.get("error"))
            print(f"{rate:g}/s  {build:<8}  {per}", flush=True)
    with open(args.out, "w") as f:
        json.dump({"messages": args.messages, "node_flags": NODE_FLAGS, "rows": rows}, f, indent=2)
    print("\n| rate | build | B relayed | B's engine, instructions per relayed message |")
    print("| --- | --- | --- | --- |")
    for r in rows:
        figure = f'{r["instructions_per_relayed_message"]:,}' if "error" not in r else "error: " + r["error"]
        print(f'| {r["rate"]:g}/s | {r["build"]} | {r.get("b_relayed_messages", "")} | {figure} |')
    print(f"\nJSON: {args.out}   profiles: {keep}")
    return 1 if any("error" in r or not r["every_message_relayed"] for r in rows) else 0


if __name__ == "__main__":
    sys.exit(main())
