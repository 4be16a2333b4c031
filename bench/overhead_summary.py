#!/usr/bin/env python3
"""Summarises alternating runs of tests/gpu/churn.cu: lines `<way> pair_us=.. async_pair_us=..
kernel_ms=..`, one round being plain followed by each instrumented way. The GPU machine's
timings drift by tens of percent within a minute, so three estimates are printed for each way
against plain: the median of each, the best of each (noise only adds time), and the median of the
per-round ratios (plain and the way measured seconds apart), with their quartiles. Rows with *_min_us figures (each
loop's quietest twentieth) get those estimates too.
Rows with churn's in-process A/B (*_overhead_pct: the pair as routed against the runtime called
directly, ab_*, or against the driver's own functions, drv_*) are summarised per way as the
median of their own figure and, paired with the round's plain row, as the ratio of the two ratios:
the routed pair's cost over plain's, with the drift between processes divided out.
Usage: overhead_summary.py FILE"""
import re
import statistics
import sys

LOOPS = (("pair_us", "cudaMalloc+cudaFree pair"),
         ("pair_min_us", "cudaMalloc+cudaFree pair, quietest twentieth"),
         ("async_pair_us", "cudaMallocAsync+cudaFreeAsync pair"),
         ("async_pair_min_us", "cudaMallocAsync+cudaFreeAsync pair, quietest twentieth"),
         ("kernel_ms", "kernel-bound loop"))
AB = (("ab_overhead_pct", "cudaMallocAsync pair, in-process, routed against the runtime direct"),
      ("drv_overhead_pct", "cudaMallocAsync pair, in-process, routed against the driver"),
      ("ab_sync_overhead_pct", "cudaMalloc pair, in-process, routed against the runtime direct"),
      ("drv_sync_overhead_pct", "cudaMalloc pair, in-process, routed against the driver"))


def spread(paired):
    """The per-round ratios' quartiles, where there are rounds enough to have them."""
    if len(paired) < 4:
        return ""
    q1, _, q3 = statistics.quantiles(paired, n=4)
    return f" (quartiles {100 * q1:+.1f}% to {100 * q3:+.1f}%)"


def main(path):
    rounds, ways = [], []
    for line in open(path):
        fields = dict(re.findall(r"(\w+)=(-?[\d.]+)", line))
        if not fields or not line.split():
            continue
        way = line.split()[0]
        if way == "plain":
            rounds.append({})
        if not rounds:
            continue
        if way not in ways:
            ways.append(way)
        rounds[-1][way] = {k: float(v) for k, v in fields.items()}
    if not rounds or "plain" not in ways:
        sys.exit(f"overhead_summary: error: {path}: no 'plain' rows")
    for key, label in LOOPS:
        plain = [r["plain"][key] for r in rounds if key in r["plain"]]
        if not plain:
            continue  # a log from before the loops were timed in parts
        for way in ways[1:]:
            both = [r for r in rounds if key in r["plain"] and key in r.get(way, {})]
            paired = [r[way][key] / r["plain"][key] - 1 for r in both]
            mine = [r[way][key] for r in both]
            if not mine:
                continue
            median = statistics.median(mine) / statistics.median(plain) - 1
            best = min(mine) / min(plain) - 1
            print(f"{label}: plain {statistics.median(plain):.4g}, {way} {statistics.median(mine):.4g}"
                  f" ({len(mine)} runs): overhead median {100 * median:+.1f}%, best {100 * best:+.1f}%,"
                  f" paired {100 * statistics.median(paired):+.1f}%{spread(paired)}")
    for key, label in AB:
        for way in ways:
            both = [r for r in rounds if key in r["plain"] and key in r.get(way, {})]
            if not both:
                continue
            own = statistics.median(r[way][key] for r in both)
            line = f"{label}: {way} {own:+.2f}% ({len(both)} runs)"
            if way != "plain":
                paired = [(1 + r[way][key] / 100) / (1 + r["plain"][key] / 100) - 1 for r in both]
                line += f", over plain's: {100 * statistics.median(paired):+.1f}%{spread(paired)}"
            print(line)


if __name__ == "__main__":
    main(sys.argv[1])
