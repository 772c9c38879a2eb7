"""Summarises the Nsight Compute report that `check.sh --profile` writes.

    python3 benchmarks/gpu/profile_summary.py REPORT_DIR

REPORT_DIR holds the report's pages as CSV (ncu --import ... --csv):
details.csv, raw.csv, source_cuda.csv and source_sass.csv. Prints the
step kernel's launch, occupancy, scheduler and warp-state figures, where
warps stall, and the source lines and SASS instructions that hold the most
stall samples, with the lanes active on each. Standard library only: the
GPU machine has no numpy.
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


def source_rows(path):
    """The source page: a header row (repeated per file or function) with a
    "Warp Stall Sampling (All Samples)" column, then a row per source line
    or SASS instruction. Yields (samples, where, text, warp instructions,
    average active lanes) for rows with samples."""
    header = None
    for r in rows(path):
        if any(c.startswith("Warp Stall Sampling (All") for c in r):
            header = {c: i for i, c in enumerate(r)}
            stall = next(i for c, i in header.items() if c.startswith("Warp Stall Sampling (All"))
            where = next((header[c] for c in ("Address", "Line", "#") if c in header), 0)
            text = header.get("Source", 1)
            continue
        if header is None or len(r) != len(header):
            continue
        samples = number(r[stall])
        if not samples:
            continue
        executed = number(r[header["Instructions Executed"]]) if "Instructions Executed" in header else None
        threads_col = header.get("Thread Instructions Executed")
        threads = number(r[threads_col]) if threads_col is not None else None
        lanes = threads / executed if executed and threads else None
        yield samples, r[where], r[text].strip(), executed, lanes


def source_lines(path, what):
    ranked = sorted(source_rows(path), key=lambda r: -r[0])
    if not ranked:
        print(f"({path.name}: no per-{what} stall samples; first rows: {rows(path)[:2]})")
        return
    total = sum(r[0] for r in ranked)
    print(f"== the {what}s with the most stall samples (of {int(total):,})")
    print(f"  {'share':>6} {'warp instrs':>12} {'lanes':>5}  {what}")
    for samples, where, text, executed, lanes in ranked[:TOP_LINES]:
        lanes_text = f"{lanes:5.1f}" if lanes else "    -"
        executed_text = f"{executed:12,.0f}" if executed else f"{'-':>12}"
        print(f"  {samples / total:6.1%} {executed_text} {lanes_text}  {where}: {text[:70]}")
    if what == "instruction":
        by_opcode = {}
        for samples, _, text, _, _ in ranked:
            words = [w for w in text.split() if not w.startswith("@")]  # no predicate
            opcode = words[0].split(".")[0] if words else "?"
            by_opcode[opcode] = by_opcode.get(opcode, 0) + samples
        top = sorted(by_opcode.items(), key=lambda kv: -kv[1])[:12]
        print("  by opcode: " + ", ".join(f"{op} {n / total:.1%}" for op, n in top))


def main():
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    report = Path(sys.argv[1])
    details(report / "details.csv")
    stall_reasons(report / "raw.csv")
    source_lines(report / "source_cuda.csv", "source line")
    source_lines(report / "source_sass.csv", "instruction")


if __name__ == "__main__":
    main()
