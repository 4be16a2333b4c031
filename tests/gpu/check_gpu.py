#!/usr/bin/env python3
"""Checks the telemetry the GPU programs left (tests/gpu/run.sh). Usage: check_gpu.py DIR
[GMEMLINT]: the runtime records each out-of-memory event's figures and gmemlint judges them, so
the verdicts are checked where a gmemlint that runs here is given, the figures always."""
import glob
import json
import subprocess
import sys

MiB = 1024 * 1024
res = sys.argv[1]
gmemlint = sys.argv[2] if len(sys.argv) > 2 else None


def one(pattern):
    files = glob.glob(f"{res}/{pattern}")
    assert len(files) == 1, (pattern, files)
    return json.load(open(files[0]))


def judged(pattern):
    """gmemlint report's verdict of each out-of-memory event of one file, in order; None without
    a gmemlint."""
    if not gmemlint:
        return None
    out = subprocess.run([gmemlint, "report", glob.glob(f"{res}/{pattern}")[0]],
                         capture_output=True, text=True, timeout=120).stdout
    section = out.split("Out-of-memory events:", 1)[1].split("\n\n", 1)[0]
    return [line.split(":", 1)[0].strip() for line in section.splitlines()[1:]]


def verdict(pattern, doc, e):
    """gmemlint's verdict of event e of doc, or "not judged here" without a gmemlint."""
    names = judged(pattern)
    return names[doc["process"]["oom_events"].index(e)] if names else "not judged here"


def fragmented(e):
    """The figures fragmentation rests on: free memory (or free and freed-but-held memory, or
    the pool's unused memory) covered the request, and no probed block did."""
    asked = e["requested_bytes"]
    covered = (e["free_bytes"] >= asked or e["free_bytes"] + e.get("held_unused_bytes", 0) >= asked
               or e.get("pool_reserved_bytes", 0) - e.get("pool_used_bytes", 0) >= asked)
    return covered and (e["largest_block_bytes"] is None or e["largest_block_bytes"] < asked)


def site(doc, src, line):
    found = [s for s in doc["sites"] if s["file"].endswith(src) and s["line"] == line]
    assert len(found) == 1, (src, line, [(s["file"], s["line"]) for s in doc["sites"]])
    return found[0]


leak = one("leak-*.json")
s = site(leak, "leak.cu", 15)
assert s["calls"] == 3 and s["live_bytes"] == 16 * MiB and s["live_count"] == 2, s
assert s["step_live_bytes"] == [8 * MiB, 16 * MiB, 24 * MiB], s["step_live_bytes"]
assert s["stacks"], "a host stack for the leaking site"
print(f"leak: site leak.cu:15 has {s['live_count']} allocations, {s['live_bytes'] // MiB} MiB "
      f"live at exit; steps {[v // MiB for v in s['step_live_bytes']]} MiB; "
      f"stack {s['stacks'][0]['frames'][:3]}")

oom = one("oom-*.json")
events = oom["process"]["oom_events"]
cap = [e for e in events if e["line"] == 11]
assert len(cap) == 1 and cap[0]["free_bytes"] < cap[0]["requested_bytes"], events
assert "verdict" not in cap[0], "the runtime records figures; gmemlint judges"
assert verdict("oom-*.json", oom, cap[0]) in ("capacity", "not judged here"), events
# the failed call's error, named by the program's own (static) cudart
failed = site(oom, "oom.cu", 11)
assert failed["failed_calls"] == 1 and failed["failures"] == {"cudaErrorMemoryAllocation": 1}, failed
print(f"oom: oversized request {cap[0]['requested_bytes'] / 2**30:.0f} GiB with "
      f"{cap[0]['free_bytes'] / 2**30:.1f} GiB free of {cap[0]['total_bytes'] / 2**30:.1f}: "
      f"verdict {verdict('oom-*.json', oom, cap[0])}")
fill = [e for e in events if e["line"] == 16]
print(f"oom: filling the device with 1 GiB blocks ended with {len(fill)} OOM event(s): "
      + ", ".join(f"{verdict('oom-*.json', oom, e)} (free {e['free_bytes'] >> 20} MiB, largest "
                  f"{(e['largest_block_bytes'] or 0) >> 20} MiB)" for e in fill))
hole = [e for e in events if e["line"] == 25]
print("oom: 2 GiB request into 1 GiB holes: " +
      (f"failed, verdict {verdict('oom-*.json', oom, hole[0])}, largest block "
       f"{(hole[0]['largest_block_bytes'] or 0) >> 20} MiB" if hole
       else "succeeded (the driver maps non-contiguous pages: no fragmentation OOM)"))
managed = one("managed-*.json")
um = managed["unified_memory"]
print(f"unified memory: available={um['available']} ({um['reason']})")
assert um["available"], um
fault = site(managed, "managed.cu", 15)["unified_memory"]
pre = site(managed, "managed.cu", 16)["unified_memory"]
print(f"managed, host-touched, no prefetch: {fault}")
print(f"managed, host-touched, prefetched:  {pre}")
print(f"CUPTI records by counter kind: {um['records_by_counter_kind']}")
# The evidence GM030 needs: pages migrated on demand for the unprefetched buffer, by prefetch
# for the other.
assert fault["htod_on_demand_bytes"] > 0 or fault["gpu_page_faults"] > 0, fault
assert pre["htod_on_demand_bytes"] < fault["htod_on_demand_bytes"] / 10 or \
    pre["gpu_page_faults"] < fault["gpu_page_faults"] / 10, (pre, fault)
nv = managed["nvml"]
print(f"nvml: {nv['reason']}, {len(nv['samples'])} samples; first {nv['samples'][:1]}, "
      f"last {nv['samples'][-1:]}")
assert nv["available"] and nv["samples"], nv["reason"]
drv = one("driver-*.json")
leak_site = site(drv, "driver.cu", 9)  # the cuMemAlloc line
man_site = site(drv, "driver.cu", 10)
print(f"driver API: cuMemAlloc site {leak_site['family']} live {leak_site['live_bytes']} bytes; "
      f"cuMemAllocManaged site frees {man_site['frees']}")
assert leak_site["family"] == "cu-device" and leak_site["live_bytes"] == 4 << 20, leak_site
assert man_site["live_bytes"] == 0 and man_site["frees"] == {"cuMemFree": 1}, man_site
# LD_PRELOAD=libgmemrt.so into a shared-cudart build without the header: the same leak, found
# at the same line through the return address and the debug information
pre = one("preload-*.json")
ps = [s for s in pre["sites"] if s["file"] and s["file"].endswith("leak.cu") and s["line"] == 15]
assert len(ps) == 1, [(s["file"], s["line"], s["api"]) for s in pre["sites"]]
ps = ps[0]
assert ps["calls"] == 3 and ps["live_bytes"] == 16 * MiB and ps["debug_info"], ps
assert ps["step_live_bytes"] == [8 * MiB, 16 * MiB, 24 * MiB], ps["step_live_bytes"]
print(f"preload: site {ps['file'].split('/')[-1]}:{ps['line']} ({ps['function']}) has "
      f"{ps['live_count']} allocations, {ps['live_bytes'] // MiB} MiB live at exit; "
      f"stack {ps['stacks'][0]['frames'][:2]}")


def show_oom(name, pattern, line):
    doc = one(pattern)
    ev = [e for e in doc["process"]["oom_events"] if e["line"] == line]
    if not ev:
        print(f"{name}: the request at line {line} succeeded (no out-of-memory event)")
        return None
    e = ev[0]
    view = e.get("address_space", {})
    pool = (f", pool reserved {e['pool_reserved_bytes'] >> 20} MiB used "
            f"{e['pool_used_bytes'] >> 20} MiB" if "pool_reserved_bytes" in e else "")
    print(f"{name}: {e['requested_bytes'] >> 20} MiB request failed with {e['free_bytes'] >> 20} "
          f"MiB free of {e['total_bytes'] >> 20}, largest block "
          f"{(e['largest_block_bytes'] or 0) >> 20} MiB, live {e['live_bytes'] >> 20} MiB"
          f"{pool}; {view.get('gaps', 0)} gaps between live blocks, largest "
          f"{view.get('largest_gap_bytes', 0) >> 20} MiB: verdict {verdict(pattern, doc, e)}")
    assert verdict(pattern, doc, e) in ("fragmentation", "not judged here"), e
    return e


fp = show_oom("frag_pool", "frag_pool-*.json", 28)
if fp:
    assert fragmented(fp), fp
fs = show_oom("frag_small", "frag_small-*.json", 23)
# half the device free in 1 MiB holes inside half-used 2 MiB pages: no 4 MiB block anywhere
assert fs and fragmented(fs), fs
peak = one("frag_small-*.json")["process"].get("address_space_at_peak", {})
print(f"frag_small: address space at peak {len(peak.get('blocks', []))} blocks listed "
      f"({peak.get('blocks_left_out', 0)} left out), span {peak.get('span_bytes', 0) >> 20} MiB, "
      f"{peak.get('gaps', 0)} gaps")
print("telemetry checks: ok")
