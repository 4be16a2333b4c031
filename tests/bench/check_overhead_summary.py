#!/usr/bin/env python3
"""bench/overhead_summary.py on made-up rounds whose estimates are known: the figures
BENCHMARKS.md records come from it. Usage: check_overhead_summary.py SUMMARY_SCRIPT"""
import os
import subprocess
import sys
import tempfile

script = sys.argv[1]


def summarise(text):
    with tempfile.NamedTemporaryFile("w", suffix=".txt", delete=False) as f:
        f.write(text)
    try:
        return subprocess.run([sys.executable, script, f.name], capture_output=True, text=True)
    finally:
        os.unlink(f.name)


def check(cond, what):
    if not cond:
        raise AssertionError(what)


# two rounds: plain 1.0 then 2.0, the way 1.2 then 2.2; medians 1.5 and 1.7 (+13.3%), best
# 1.2 / 1.0 (+20.0%), per-round ratios +20% and +10% (paired +15.0%). The second round has no
# quietest-twentieth figures (a log from before they existed): those rows use the first only.
rounds = """plain        pair_us=10.0 async_pair_us=1.0 async_pair_min_us=0.5 kernel_ms=5.0
gmemrun      pair_us=10.5 async_pair_us=1.2 async_pair_min_us=0.6 kernel_ms=5.0
plain        pair_us=10.0 async_pair_us=2.0 kernel_ms=5.0
gmemrun      pair_us=10.5 async_pair_us=2.2 kernel_ms=5.0
"""
proc = summarise(rounds)
check(proc.returncode == 0, proc.stderr)
lines = proc.stdout.splitlines()
async_line = [l for l in lines if l.startswith("cudaMallocAsync+cudaFreeAsync pair:")]
check(async_line == ["cudaMallocAsync+cudaFreeAsync pair: plain 1.5, gmemrun 1.7 (2 runs): "
                     "overhead median +13.3%, best +20.0%, paired +15.0%"], lines)
quiet = [l for l in lines if "quietest twentieth" in l and l.startswith("cudaMallocAsync")]
check(quiet == ["cudaMallocAsync+cudaFreeAsync pair, quietest twentieth: plain 0.5, gmemrun 0.6 "
                "(1 runs): overhead median +20.0%, best +20.0%, paired +20.0%"], lines)
check(not any(l.startswith("cudaMalloc+cudaFree pair, quietest") for l in lines), lines)
check(any(l.startswith("kernel-bound loop:") and "paired +0.0%" in l for l in lines), lines)

# four rounds: the per-round ratios +10%, +20%, +30%, +40% have quartiles +12.5% and +37.5%
# (statistics.quantiles' exclusive method), printed as the paired figure's spread
proc = summarise("".join(f"plain pair_us=1.0\ngmemcc pair_us={1 + r / 10}\n" for r in (1, 2, 3, 4)))
check(proc.stdout.splitlines() == [
    "cudaMalloc+cudaFree pair: plain 1, gmemcc 1.25 (4 runs): overhead median +25.0%, "
    "best +10.0%, paired +25.0% (quartiles +12.5% to +37.5%)"], proc.stdout)

# churn's in-process A/B: plain's routed/direct -1% (negative figures count), routed/driver +10%
# and +20%; gmemrun's routed/driver +21% and +26% gives ratios of ratios 1.21/1.10 (+10%) and
# 1.26/1.20 (+5%), median +7.5%; gmemrun's own routed/direct is its median, +0.5%
proc = summarise("""plain ab_routed_us=1.0 ab_overhead_pct=-1.00 drv_overhead_pct=10.00
gmemrun ab_overhead_pct=0.50 drv_overhead_pct=21.00
plain ab_overhead_pct=-1.00 drv_overhead_pct=20.00
gmemrun ab_overhead_pct=0.50 drv_overhead_pct=26.00
""")
check(proc.stdout.splitlines() == [
    "cudaMallocAsync pair, in-process, routed against the runtime direct: plain -1.00% (2 runs)",
    "cudaMallocAsync pair, in-process, routed against the runtime direct: gmemrun +0.50% "
    "(2 runs), over plain's: +1.5%",
    "cudaMallocAsync pair, in-process, routed against the driver: plain +15.00% (2 runs)",
    "cudaMallocAsync pair, in-process, routed against the driver: gmemrun +23.50% (2 runs), "
    "over plain's: +7.5%"], proc.stdout)

# no plain rows: a clear error naming the file, not a traceback
proc = summarise("gmemrun pair_us=1.0\n")
check(proc.returncode != 0 and "overhead_summary: error:" in proc.stderr and
      "no 'plain' rows" in proc.stderr and "Traceback" not in proc.stderr, proc.stderr)
print("overhead_summary: ok")
