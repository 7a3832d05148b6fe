#!/usr/bin/python3
"""Checks `relayctl stats --openmetrics` (or `--prometheus`) against `relayctl --json stats`.

Usage: check-metrics.py openmetrics|prometheus STATS_JSON_FILE METRICS_FILE [LATER_STATS_JSON_FILE]

Parses the metrics with python3-prometheus-client's own parser (the OpenMetrics one, or the
Prometheus text one), then checks that every counter of the JSON is there exactly once under the
name docs/CONTROL.md ("Metrics") gives it, with its value and a counter or gauge type, and that
nothing else is. With a second JSON, taken after the metrics from a running node, a counter (and
the uptime) must lie between its two values, and a gauge need only be there with its type.
Prints one line per problem and exits 1 if there is any.
"""
import json
import os
import re
import sys

CONTROL_MD = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "docs", "CONTROL.md")


def metrics_table(path=CONTROL_MD):
    """The kind groups and gauges of CONTROL.md's "Metrics" table, the one list of them: the row
    whose metric is `meshnode_message_<counter>_total{...}` names the kind groups, the row whose
    type is gauge and whose metric is `meshnode_<group>_<counter>` names the gauges."""
    kinds, gauges = set(), set()
    with open(path) as f:
        text = f.read()
    section = text.split("\n## Metrics\n", 1)[1].split("\n## ", 1)[0]
    for line in section.splitlines():
        cells = [cell.strip() for cell in line.strip().strip("|").split("|")]
        if len(cells) != 3:
            continue
        names = re.findall(r"`([^`]+)`", cells[0])
        if cells[1].startswith("`meshnode_message_<counter>_total"):
            kinds = {name for name in names if "." not in name and "<" not in name}
        elif cells[1] == "`meshnode_<group>_<counter>`" and cells[2] == "gauge":
            gauges = set(names)
    if not kinds or not gauges:
        sys.exit("check-metrics: no kind groups or gauges in the Metrics table of " + path)
    return kinds, gauges


KIND_GROUPS, GAUGES = metrics_table()


def snake(name):
    name = re.sub(r"(?<=[^_])([A-Z])", r"_\1", re.sub(r"[^A-Za-z0-9_]", "_", name)).lower()
    return name or "_"


def expected(stats):
    """(sample name, frozenset of labels) -> (value, type)."""
    want = {
        ("meshnode_uptime_seconds", frozenset()): (stats["uptimeSeconds"], "gauge"),
        ("meshnode_memory_resident_bytes", frozenset()): (stats["memory"]["residentBytes"], "gauge"),
        ("meshnode_memory_peak_resident_bytes", frozenset()): (stats["memory"]["peakResidentBytes"], "gauge"),
    }
    for group, counters in stats["counters"].items():
        for counter, value in counters.items():
            gauge = f"{group}.{counter}" in GAUGES
            if group in KIND_GROUPS:
                name, labels = f"meshnode_message_{snake(counter)}", frozenset({("kind", snake(group))})
            else:
                name, labels = f"meshnode_{snake(group)}_{snake(counter)}", frozenset()
            want[(name if gauge else name + "_total", labels)] = (value, "gauge" if gauge else "counter")
    return want


def main():
    dialect, stats_path, metrics_path = sys.argv[1:4]
    later_path = sys.argv[4] if len(sys.argv) > 4 else None
    if dialect == "openmetrics":
        from prometheus_client.openmetrics.parser import text_string_to_metric_families
    else:
        from prometheus_client.parser import text_string_to_metric_families
    with open(stats_path) as f:
        stats = json.load(f)
    with open(metrics_path) as f:
        text = f.read()
    got = {}
    problems = []
    for family in text_string_to_metric_families(text):
        if not family.documentation:
            problems.append(f"{family.name}: no HELP")
        for sample in family.samples:
            key = (sample.name, frozenset(sample.labels.items()))
            if key in got:
                problems.append(f"{sample.name}{sample.labels}: twice")
            got[key] = (sample.value, family.type)
    want = expected(stats)
    later = want
    if later_path:
        with open(later_path) as f:
            later = expected(json.load(f))
    for key, (value, kind) in sorted(want.items(), key=lambda item: item[0][0]):
        if key not in got:
            problems.append(f"missing {key[0]}{dict(key[1])} (= {value})")
            continue
        got_value, got_kind = got[key]
        low, high = sorted((float(value), float(later.get(key, (value, kind))[0])))
        if later_path and kind == "gauge" and key[0] != "meshnode_uptime_seconds":
            low, high = float("-inf"), float("inf")
        if got_kind != kind or not low <= got_value <= high:
            problems.append(f"{key[0]}{dict(key[1])}: got {got[key]}, want {kind} in [{low}, {high}]")
    for key in sorted(set(got) - set(want), key=lambda item: item[0]):
        problems.append(f"unexpected {key[0]}{dict(key[1])}")
    for problem in problems:
        print(problem)
    print(f"{len(got)} samples parsed ({dialect}), {len(want)} expected, {len(problems)} problems")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
