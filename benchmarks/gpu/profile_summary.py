"""Summarises the Nsight Compute report that `check.sh --profile` writes.

    python3 benchmarks/gpu/profile_summary.py REPORT_DIR

REPORT_DIR holds the report's pages as CSV (ncu --import ... --csv):
details.csv, raw.csv and source.csv. Prints the step kernel's launch,
occupancy, scheduler and warp-state figures, where warps stall, and the
source lines that hold the most stall samples, with the share of lanes
active on each. Standard library only: the GPU machine has no numpy.
"""

import csv
import sys
from pathlib import Path

DETAIL_SECTIONS = (
    "GPU Speed Of Light Throughput",
    "Launch Statistics",
    "Occupancy",
    "Scheduler Statistics",
    "Warp State Statistics",
    "Instruction Statistics",
    "Source Counters",
    "Memory Workload Analysis",
)
TOP_LINES = 30


def rows(path):
    try:
        with open(path, newline="") as f:
            return [r for r in csv.reader(f) if r]
    except OSError as e:
        print(f"({path.name}: {e})")
        return []


def number(text):
    try:
        return float(text.replace(",", ""))
    except (AttributeError, ValueError):
        return None


def details(path):
    table = rows(path)
    if not table:
        return
    header = table[0]
    try:
        section, name, unit, value = (
            header.index(c) for c in ("Section Name", "Metric Name", "Metric Unit", "Metric Value")
        )
    except ValueError:
        print(f"({path.name}: unexpected columns {header[:16]})")
        return
    print("== step kernel: details")
    for r in table[1:]:
        if len(r) > value and r[section] in DETAIL_SECTIONS:
            print(f"  {r[section][:28]:28}  {r[name][:44]:44} {r[value]:>14} {r[unit]}")


def stall_reasons(path):
    """The raw page: one column per metric, a row of units, a row per kernel."""
    table = rows(path)
    if len(table) < 3:
        return
    names, values = table[0], table[2]
    prefix = "smsp__pcsamp_warps_issue_stalled_"
    samples = {
        n[len(prefix):]: number(v)
        for n, v in zip(names, values)
        if n.startswith(prefix) and not n.endswith("_not_issued") and number(v)
    }
    total = sum(samples.values())
    if not total:
        print("(raw.csv: no stall sampling metrics)")
        return
    print(f"== where warps stall: {int(total):,} samples")
    for reason, count in sorted(samples.items(), key=lambda kv: -kv[1])[:12]:
        print(f"  {reason:34} {count / total:6.1%}")


def source_lines(path):
    """The source page: a header row (repeated per file) and a row per line."""
    table = rows(path)
    header, ranked = None, []
    for r in table:
        stall = [i for i, c in enumerate(r) if c.startswith("Warp Stall Sampling (All")]
        if stall:
            header = r
            col = {c: i for i, c in enumerate(r)}
            stall_col = stall[0]
            continue
        if header is None or len(r) != len(header):
            continue
        samples = number(r[stall_col])
        if not samples:
            continue
        executed_col = col.get("Instructions Executed")
        executed = number(r[executed_col]) if executed_col is not None else None
        threads_col = col.get("Thread Instructions Executed")
        threads = number(r[threads_col]) if threads_col is not None else None
        where = r[col["#"]] if "#" in col else r[0]
        text = r[col["Source"]] if "Source" in col else r[1]
        lanes = threads / executed if executed and threads else None
        ranked.append((samples, where, text.strip(), executed, lanes))
    if not ranked:
        print(f"(source.csv: no per-line stall samples; first rows: {table[:2]})")
        return
    total = sum(r[0] for r in ranked)
    print(f"== source lines with the most stall samples (of {int(total):,})")
    print(f"  {'share':>6} {'warp instrs':>12} {'lanes':>5}  line")
    for samples, where, text, executed, lanes in sorted(ranked, key=lambda r: -r[0])[:TOP_LINES]:
        lanes_text = f"{lanes:5.1f}" if lanes else "    -"
        executed_text = f"{executed:12,.0f}" if executed else f"{'-':>12}"
        print(f"  {samples / total:6.1%} {executed_text} {lanes_text}  {where}: {text[:70]}")


def main():
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    report = Path(sys.argv[1])
    details(report / "details.csv")
    stall_reasons(report / "raw.csv")
    source_lines(report / "source.csv")


if __name__ == "__main__":
    main()
