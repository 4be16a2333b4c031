#!/usr/bin/python3
"""Runs one scenario of tests/runtime/scenarios.c (built against the simulated CUDA runtime) and
checks the telemetry file it leaves, figure by figure. Usage: check.py SCENARIO BINARY"""
import glob
import json
import os
import re
import signal
import subprocess
import sys
import tempfile

MiB = 1024 * 1024
SRC = "scenarios.c"


def run(binary, mode, env_extra=None, expect_rc=0):
    work = tempfile.mkdtemp()
    env = dict(os.environ)
    env.update({"GMEMRT_OUTPUT": os.path.join(work, "gm-%p.json")})
    env.update(env_extra or {})
    proc = subprocess.run([binary, mode], env=env, capture_output=True, text=True, timeout=60)
    assert proc.returncode == expect_rc, (mode, proc.returncode, proc.stdout, proc.stderr)
    files = sorted(glob.glob(os.path.join(work, "gm-*.json")))
    docs = [json.load(open(f)) for f in files]
    return proc, docs


def site(doc, line, api=None):
    found = [s for s in doc["sites"] if s["line"] == line and s["file"].endswith(SRC)
             and (api is None or s["api"] == api)]
    assert len(found) == 1, (line, api, [(s["line"], s["api"]) for s in doc["sites"]])
    return found[0]


def check(cond, what):
    if not cond:
        raise AssertionError(what)


def leak(binary):
    _, docs = run(binary, "leak")
    check(len(docs) == 1, "one telemetry file")
    d = docs[0]
    check(d["version"] == 2 and d["tool"] == "gmemrt" and d["reason"] == "exit", "header")
    kept = site(d, 18)
    check(kept["calls"] == 5 and kept["bytes_total"] == 10 * MiB, kept)
    check(kept["device"] == 0 and kept["family"] == "cuda-device", kept)
    check(kept["live_bytes"] == 8 * MiB and kept["live_count"] == 4, "4 x 2 MiB live at exit")
    check(kept["step_live_bytes"] == [2 * MiB, 4 * MiB, 6 * MiB, 8 * MiB, 10 * MiB],
          ("grows 2 MiB a step", kept["step_live_bytes"]))
    check(kept["peak_live_bytes"] == 10 * MiB, kept["peak_live_bytes"])
    check(kept["stacks"] and kept["stacks"][0]["count"] >= 1, "a host stack")
    freed = site(d, 17)
    check(freed["live_bytes"] == 0 and freed["frees"] == {"cudaFree": 5}, freed)
    check(freed["step_live_bytes"] == [0] * 5, freed["step_live_bytes"])
    check(freed["distinct_sizes"] == [MiB] and freed["bytes_min"] == MiB, freed)
    small = site(d, 19)
    check(small["bytes_total"] == 5 * 4096, small)
    p = d["process"]
    check(p["steps"] == 5 and p["live_bytes"] == 8 * MiB and p["live_count"] == 4, p)
    check(p["peak_live_bytes"] == 10 * MiB + MiB + 4096, p["peak_live_bytes"])
    check(p["timeline"] and p["timeline"][-1][1] == 8 * MiB, "timeline ends at live bytes")


def wrong_family(binary):
    _, (d,) = run(binary, "wrong-family")
    pinned = site(d, 30)
    check(pinned["family"] == "cuda-host" and pinned["wrong_family_frees"] == 1, pinned)
    # the wrong cudaFree fails and the memory stays live until cudaFreeHost releases it
    check(pinned["frees"] == {"cudaFree": 1, "cudaFreeHost": 1}, pinned["frees"])
    check(pinned["live_bytes"] == 0, pinned)
    dev = site(d, 34)
    check(dev["double_frees"] == 1 and dev["frees"] == {"cudaFree": 1}, dev)


def judged(gmemlint, doc):
    """gmemlint report's verdict of each out-of-memory event of one run, in order: the runtime
    records the figures only, and gmemlint judges them."""
    work = tempfile.mkdtemp()
    tel = os.path.join(work, "run.json")
    json.dump(doc, open(tel, "w"))
    out = subprocess.run([gmemlint, "report", tel], capture_output=True, text=True,
                         timeout=60).stdout
    section = out.split("Out-of-memory events:", 1)[1].split("\n\n", 1)[0]
    return [line.split(":", 1)[0].strip() for line in section.splitlines()[1:]]


def fragmentation(binary, gmemlint):
    proc, (d,) = run(binary, "fragmentation", {"SIMCUDA_CAPACITY": str(64 * MiB)})
    check("fragmented allocation: 2" in proc.stdout, proc.stdout)  # the real result, unchanged
    ooms = d["process"]["oom_events"]
    check(len(ooms) == 2, ooms)
    frag, cap = ooms
    check(frag["line"] == 48 and frag["requested_bytes"] == 8 * MiB, frag)
    check(frag["free_bytes"] == 32 * MiB and frag["total_bytes"] == 64 * MiB, frag)
    check(frag["largest_block_bytes"] == 4 * MiB - 0 or
          3 * MiB <= frag["largest_block_bytes"] <= 4 * MiB, frag)
    check(cap["line"] == 51 and cap["free_bytes"] < cap["requested_bytes"], cap)
    check("verdict" not in frag and "verdict" not in cap, "figures only: gmemlint judges")
    check(judged(gmemlint, d) == ["fragmentation", "capacity"], judged(gmemlint, d))
    big = site(d, 48)
    check(big["failed_calls"] == 1 and big["calls"] == 0, big)
    check(big["failures"] == {"cudaErrorMemoryAllocation": 1}, big)  # named by cudart
    blocks = site(d, 44)
    check(blocks["live_bytes"] == 32 * MiB and blocks["live_count"] == 8, blocks)
    # the address space at the failure: every other 4 MiB block live, 4 MiB holes between
    view = frag["address_space"]
    check(len(view["blocks"]) == 8 and view["block_bytes"] == 32 * MiB, view)
    check(view["gaps"] == 7 and view["gap_bytes"] == 28 * MiB, view)
    check(view["largest_gap_bytes"] == 4 * MiB and view["span_bytes"] == 60 * MiB, view)
    index = d["sites"].index(blocks)
    check(all(b[2] == index and b[1] == 4 * MiB for b in view["blocks"]), view["blocks"])
    check([b[0] for b in view["blocks"]] == [i * 8 * MiB for i in range(8)],
          view["blocks"])
    # at the peak all 16 blocks were live, back to back
    peak = d["process"]["address_space_at_peak"]
    check(len(peak["blocks"]) == 16 and peak["gaps"] == 0 and peak["span_bytes"] == 64 * MiB,
          peak)


def fragmentation_pages(binary, gmemlint):
    """The driver's view: whole pages in use, so free memory looks short, yet the program freed
    half of what it holds; the memory is stranded in half-used pages."""
    proc, (d,) = run(binary, "fragmentation-pages",
                     {"SIMCUDA_CAPACITY": str(32 * MiB), "SIMCUDA_PAGE": str(2 * MiB)})
    check("allocation in half-used pages: 2" in proc.stdout, proc.stdout)
    (e,) = d["process"]["oom_events"]
    check(e["line"] == 195 and e["requested_bytes"] == 4 * MiB, e)
    check(e["free_bytes"] == 0 and e["total_bytes"] == 32 * MiB, e)
    check(d["process"]["baseline_used_bytes"] == MiB, d["process"])  # the first block's page
    check(e["live_device_bytes"] == 16 * MiB and e["held_unused_bytes"] == 15 * MiB, e)
    check("verdict" not in e and judged(gmemlint, d) == ["fragmentation"], e)


def multi_device(binary, gmemlint):
    """Two simulated devices: sites and leaks by device, and an OOM on device 1 while device 0
    has room gets the capacity verdict for device 1."""
    proc, (d,) = run(binary, "multi-device",
                     {"SIMCUDA_DEVICES": "2", "SIMCUDA_CAPACITY": str(64 * MiB)})
    check("device 1 request: 2" in proc.stdout, proc.stdout)
    per_thread = site(d, 206)
    check(per_thread["device"] == -1 and per_thread["calls"] == 2, per_thread)  # both devices
    check(per_thread["live_bytes"] == 24 * MiB, per_thread)
    kept = site(d, 218)
    check(kept["device"] == 1 and kept["live_bytes"] == 32 * MiB, kept)
    devices = {x["device"]: x for x in d["process"]["devices"]}
    check(sorted(devices) == [0, 1], devices)
    check(devices[0]["live_bytes"] == 8 * MiB and devices[0]["live_count"] == 1, devices[0])
    check(devices[1]["live_bytes"] == 48 * MiB and devices[1]["live_count"] == 2, devices[1])
    check(devices[1]["peak_live_bytes"] == 48 * MiB, devices[1])
    (e,) = d["process"]["oom_events"]
    check(e["line"] == 219 and e["device"] == 1, e)
    check(e["free_bytes"] == 16 * MiB and e["total_bytes"] == 64 * MiB, e)  # device 1's figures
    check(e["live_device_bytes"] == 48 * MiB and judged(gmemlint, d) == ["capacity"], e)


def threads(binary):
    _, (d,) = run(binary, "threads")
    s = site(d, 60)
    check(s["calls"] == 4000 and s["frees"] == {"cudaFree": 4000} and s["live_bytes"] == 0, s)
    check(d["process"]["peak_live_bytes"] <= 4 * 256, d["process"])


def crash(binary):
    _, docs = run(binary, "crash", expect_rc=-signal.SIGSEGV)
    check(len(docs) == 1, "telemetry written on a fatal signal")
    d = docs[0]
    check(d["reason"] == "signal %d" % signal.SIGSEGV, d["reason"])
    check(site(d, 77)["live_bytes"] == 3 * MiB, "the allocation live at the crash")


def fork(binary):
    proc, docs = run(binary, "fork")
    check(len(docs) == 2, ("parent and child each write a file", len(docs)))
    child_pid = int(proc.stdout.split("child ")[1])
    child = [x for x in docs if x["pid"] == child_pid][0]
    parent = [x for x in docs if x["pid"] != child_pid][0]
    check(site(child, 88)["live_bytes"] == 5 * MiB, "the child's own leak")
    check(all(s["line"] != 84 for s in child["sites"]), "the parent's site is not the child's")
    check(site(parent, 84)["live_bytes"] == 0, "parent freed its buffer")
    check(all(s["line"] != 88 for s in parent["sites"]), "the child's site is not the parent's")


def copies(binary):
    _, docs = run(binary, "copies")
    d = docs[0]
    check(d["reason"] in ("exit", "dump"), d["reason"])
    m = site(d, 101)
    check(m["family"] == "cuda-managed" and m["bytes_total"] == 64, m)
    c = site(d, 103, "cudaMemcpy")
    check(c["copies"] == 8 and c["copy_bytes"] == 64, c)
    check(c["copies_strided"] == 6, c)  # 8 bytes on each time: all but the first two copies
    check(site(d, 105)["prefetches"] == 1, "prefetch counted")


FAKECUPTI = os.environ.get("FAKECUPTI", "")
BASE = 0x7F0000000000  # the simulated device's first address


def um(binary):
    records = ";".join([f"{BASE + 0x1000}:4:12",        # GPU page faults (fault groups)
                        f"{BASE + 0x2000}:1:65536",     # host to device bytes, cause unknown
                        f"{BASE + 0x2000}:1:32768:2",   # ... on demand (cause coherence)
                        f"{BASE + 0x2000}:1:131072:1",  # ... by cudaMemPrefetchAsync (user)
                        f"{BASE + 0x2000}:1:262144:3",  # ... the driver's speculative prefetch
                        f"{BASE + 0x3000}:3:4196521",   # CPU fault: value is a PC, counts 1
                        f"{BASE + MiB + 16}:2:4096",    # device to host, second buffer
                        "16:1:512"])                    # an address no allocation holds
    _, (d,) = run(binary, "managed", {"GMEMRT_CUPTI_LIBRARY": FAKECUPTI,
                                      "FAKECUPTI_RECORDS": records})
    u = d["unified_memory"]
    check(u["available"] is True and u["reason"] == "collected through CUPTI", u)
    first = [s for s in d["sites"] if s["api"] == "cudaMallocManaged"]
    check(len(first) == 2, first)
    a, b = sorted(first, key=lambda s: s["line"])
    check(a["unified_memory"] == {"gpu_page_faults": 12, "cpu_page_faults": 1,
                                  "htod_bytes": 491520, "dtoh_bytes": 0, "thrashing": 0,
                                  "htod_on_demand_bytes": 32768, "htod_user_prefetch_bytes": 131072,
                                  "htod_speculative_bytes": 262144,
                                  "direction_changes": 0, "block_direction_changes_max": 0,
                                  "steps_moved": 1,
                                  "steps_both_ways": 0},
          a["unified_memory"])
    check(u["records_by_counter_kind"] == {"1": 5, "2": 1, "3": 1, "4": 1},
          u["records_by_counter_kind"])
    check(b["unified_memory"]["dtoh_bytes"] == 4096 and b["unified_memory"]["gpu_page_faults"] == 0,
          b["unified_memory"])
    check(u["unattributed"]["htod_bytes"] == 512, u["unattributed"])


def um_busy(binary):
    _, (d,) = run(binary, "managed", {"GMEMRT_CUPTI_LIBRARY": FAKECUPTI, "FAKECUPTI_BUSY": "1"})
    u = d["unified_memory"]
    check(u["available"] is False and "in use by another tool" in u["reason"], u)


def um_missing(binary):
    _, (d,) = run(binary, "managed", {"GMEMRT_CUPTI_LIBRARY": "libnot-cupti.so"})
    u = d["unified_memory"]
    check(u["available"] is False and u["reason"].startswith("CUPTI not loaded"), u)


def pools(binary):
    _, (d,) = run(binary, "pools")
    (pool,) = d["process"]["pools"]
    check(pool["pool"] == "default" and pool["device"] == 0 and pool["sampled"], pool)
    check(pool["used_bytes"] == 3 * MiB and pool["reserved_bytes"] == 4 * MiB, pool)
    check(pool["used_high_bytes"] == 4 * MiB and pool["reserved_high_bytes"] == 4 * MiB, pool)
    s = [x for x in d["sites"] if x["api"] == "cudaMallocAsync"]
    check(len(s) == 2 and sum(x["live_bytes"] for x in s) == 3 * MiB, s)


def timed_pairs(binary):
    """Frees are sampled apart from allocations: in a loop of pairs past the first 4096 calls,
    one allocation and one free in 16 are timed (the 10 of 160), and the free site's time is
    that of its timed calls scaled to all 160, not the zero of a free never timed."""
    _, (d,) = run(binary, "timed-pairs")
    src = open(os.path.join(os.path.dirname(__file__), SRC)).read().splitlines()
    line_of = {m: i + 1 for i, l in enumerate(src) for m in ("timed_pairs: async alloc",
                                                             "timed_pairs: async free") if m in l}
    alloc = site(d, line_of["timed_pairs: async alloc"], "cudaMallocAsync")
    free = site(d, line_of["timed_pairs: async free"], "cudaFreeAsync")
    check(alloc["calls"] == 160 and alloc["alloc_timed_calls"] == 10, alloc)
    check(free["free_calls"] == 160 and free["free_ns"] > 0, free)


def pair_batches(binary):
    """A thread's repeated cudaMallocAsync/cudaFreeAsync pairs counted in batches give the file
    that recording each call gives: every site's figures but the measured times, the process's
    and the device's, the steps and the number of timeline samples."""
    docs = {}
    for batches in ("0", "1"):
        _, (d,) = run(binary, "pair-batches", {"GMEMRT_PAIR_BATCHES": batches})
        docs[batches] = d
    timing = ("alloc_ns", "alloc_timed_calls", "free_ns", "active_ms")

    def figures(d):
        return [{k: v for k, v in s.items() if k not in timing} for s in d["sites"]]
    one, batched = docs["0"], docs["1"]
    check(figures(one) == figures(batched), (figures(one), figures(batched)))
    for key in ("live_bytes", "peak_live_bytes", "devices", "steps"):
        check(one["process"].get(key) == batched["process"].get(key),
              (key, one["process"].get(key), batched["process"].get(key)))
    # the timeline: the same samples of live bytes (taken at other times)
    check([b for _, b in one["process"]["timeline"]] ==
          [b for _, b in batched["process"]["timeline"]],
          (one["process"]["timeline"], batched["process"]["timeline"]))
    src = open(os.path.join(os.path.dirname(__file__), SRC)).read().splitlines()
    line = {m: i + 1 for i, l in enumerate(src) for m in (
        "pair_batches: alloc", "pair_batches: free", "pair_batches: another thread's",
        "pair_batches: double free") if l.endswith(m + " */")}
    alloc = site(batched, line["pair_batches: alloc"], "cudaMallocAsync")
    # two threads' 3001 allocations, the last of each left waiting in its thread's slot: the
    # other thread's freed by main while that thread lived (a claim), main's own live at exit
    # and at the step; the timings of all of them kept
    check(alloc["calls"] == 6002 and alloc["live_bytes"] == 2 * MiB and alloc["frees"] ==
          {"cudaFreeAsync": 6001} and alloc["alloc_timed_calls"] > 0 and
          alloc["step_live_bytes"] == [2 * MiB], alloc)
    check(site(batched, line["pair_batches: free"], "cudaFreeAsync")["free_calls"] == 6000, alloc)
    check(site(batched, line["pair_batches: another thread's"])["free_calls"] == 1, batched)
    second = [s for s in batched["sites"] if s.get("double_frees")]
    check(len(second) == 1 and second[0]["double_frees"] == 1, second)


def phases(binary):
    """The profiling build's report: every stage of the two cudaMallocAsync calls and the
    cudaFreeAsync of the pools scenario, counted once for each time it ran."""
    proc, _ = run(binary, "pools")
    report = [l for l in proc.stderr.splitlines() if l.startswith("gmemrt phases:")]
    counted = [re.match(r"gmemrt phases:\s+(.*?)\s+(\d+) times +[\d.]+ ns each$", l) for l in report[1:]]
    check(re.match(r"gmemrt phases: stream-ordered calls \([\d.]+ ns a cycle\)$", report[0]) and
          all(counted), report)
    # clock: started and stopped for each call; lock, site and record: each call once; the
    # device asked and the stack taken for each allocation (a site's first calls), the pool noted
    check([(m.group(1), int(m.group(2))) for m in counted] == [
        ("ours (the hook outside the real call)", 3), ("the real call", 3),
        ("taking the lock", 3), ("site lookup", 3), ("device query", 2),
        ("recording the allocation or free", 3), ("stack capture", 2), ("clock reads", 6),
        ("pool note", 2), ("after-call checks", 2), ("batched pairs (pairs.h)", 3)], report)


def nvml(binary):
    fake = os.environ.get("FAKENVML", "")
    _, (d,) = run(binary, "nvml", {"GMEMRT_NVML": "1", "GMEMRT_NVML_MS": "10",
                                   "GMEMRT_NVML_LIBRARY": fake})
    n = d["nvml"]
    check(n["available"] is True and n["reason"] == "sampled every 10 ms", n)
    rows = n["samples"]
    check(len(rows) >= 5, ("samples over 150 ms at 10 ms", len(rows)))
    check([r[2] for r in rows[:3]] == [1000, 1010, 1020], rows[:3])
    check(all(r[1] == 0 and r[3] == 8000 and r[4] == 50 and r[5] == 80 for r in rows), rows[0])
    check(all(b[0] >= a[0] for a, b in zip(rows, rows[1:])), "samples in time order")
    # on by default: without the variable it samples (here the stand-in library), and
    # GMEMRT_NVML=0 turns it off
    _, (d,) = run(binary, "nvml", {"GMEMRT_NVML_LIBRARY": fake})
    check(d["nvml"]["available"] is True and len(d["nvml"]["samples"]) >= 1, d["nvml"])
    _, (d,) = run(binary, "leak", {"GMEMRT_NVML": "0"})
    check(d["nvml"]["available"] is False and "GMEMRT_NVML=0" in d["nvml"]["reason"], d["nvml"])
    _, (d,) = run(binary, "leak", {"GMEMRT_NVML_LIBRARY": "libno-such-nvml.so"})
    check(d["nvml"]["available"] is False and "NVML not loaded" in d["nvml"]["reason"], d["nvml"])


def driver(binary):
    _, (d,) = run(binary, "driver")
    by_api = {s["api"]: s for s in d["sites"] if s.get("kind") == "alloc"}
    dev, man, host = by_api["cuMemAlloc"], by_api["cuMemAllocManaged"], by_api["cuMemAllocHost"]
    check(dev["family"] == "cu-device" and dev["live_bytes"] == 2 * MiB, dev)
    check(man["family"] == "cu-managed" and man["live_bytes"] == 0, man)
    check(man["frees"] == {"cudaFree": 1} and man["wrong_family_frees"] == 0, man)
    check(host["family"] == "cu-host" and host["wrong_family_frees"] == 1, host)
    check(host["frees"] == {"cuMemFree": 1, "cuMemFreeHost": 1} and host["live_bytes"] == 0, host)


def arrays(binary):
    _, (d,) = run(binary, "arrays")
    by_api = {s["api"]: s for s in d["sites"] if s.get("kind") == "alloc"}
    p3 = by_api["cudaMalloc3D"]
    check(p3["bytes_total"] == 1024 * 4 * 2 and p3["live_bytes"] == 8192, p3)
    arr = by_api["cudaMallocArray"]
    check(arr["family"] == "cuda-array" and arr["bytes_total"] == 2048, arr)
    check(arr["frees"] == {"cudaFreeArray": 1} and arr["live_bytes"] == 0, arr)
    a3 = by_api["cudaMalloc3DArray"]
    check(a3["bytes_total"] == 256 and a3["wrong_family_frees"] == 1, a3)
    check(a3["frees"] == {"cudaFree": 1, "cudaFreeArray": 1} and a3["live_bytes"] == 0, a3)


def driver_more(binary):
    _, (d,) = run(binary, "driver-more")
    by_api = {s["api"]: s for s in d["sites"] if s.get("kind") == "alloc"}
    pitch = by_api["cuMemAllocPitch"]
    check(pitch["family"] == "cu-device" and pitch["live_bytes"] == 10240, pitch)
    a = by_api["cuMemAllocAsync"]
    check(a["live_bytes"] == 0 and a["frees"] == {"cuMemFreeAsync": 1}, a)
    q = by_api["cuMemAllocFromPoolAsync"]
    check(q["live_bytes"] == 2 * MiB and q["live_count"] == 1, q)
    h = by_api["cuMemHostAlloc"]
    check(h["family"] == "cu-host" and h["frees"] == {"cuMemFreeHost": 1}, h)
    c = by_api["cuMemCreate"]
    check(c["family"] == "cu-handle" and c["bytes_total"] == 2 * MiB and c["live_bytes"] == 0, c)
    check(c["frees"] == {"cuMemRelease": 1} and c["wrong_family_frees"] == 0, c)
    m = by_api["cudaMallocMipmappedArray"]
    check(m["family"] == "cuda-mipmap" and m["bytes_total"] == 256 + 64, m)
    check(m["frees"] == {"cudaFreeMipmappedArray": 1} and m["live_bytes"] == 0, m)
    check(d["process"]["live_bytes"] == 10240 + 2 * MiB, d["process"])


def options(binary):
    proc, (d,) = run(binary, "leak", {"GMEMRT_STACK_DEPTH": "lots", "GMEMRT_BOGUS": "1"})
    check("GMEMRT_STACK_DEPTH=lots is not valid" in proc.stderr, proc.stderr)
    # every option of the table, in its order: the three gmemrun ones were missing from a list
    # written by hand
    known = ("GMEMRT_OUTPUT, GMEMRT_STACK_DEPTH, GMEMRT_STACKS, GMEMRT_DISABLE, GMEMRT_OOM_PROBE, "
             "GMEMRT_TIMELINE, GMEMRT_VERBOSE, GMEMRT_CUPTI, GMEMRT_CUPTI_LIBRARY, GMEMRT_NVML, "
             "GMEMRT_NVML_MS, GMEMRT_CALLER_SITES, GMEMRT_ENTRY_WRAPPERS, GMEMRT_STEP_API, "
             "GMEMRT_NVML_LIBRARY, GMEMRT_PAIR_BATCHES, GMEMRT_TORCH_VIEW")
    unknown = [l for l in proc.stderr.splitlines() if "unknown option" in l]
    check(unknown == [f"gmemrt: warning: unknown option GMEMRT_BOGUS (known: {known})"], unknown)
    # and the table is what GMEMRT_VERBOSE prints
    proc, _ = run(binary, "leak", {"GMEMRT_VERBOSE": "1"})
    listed = re.findall(r"^gmemrt: (GMEMRT_[A-Z_]+)=", proc.stderr, re.M)
    check(", ".join(listed) == known, listed)
    _, docs = run(binary, "leak", {"GMEMRT_DISABLE": "1"})
    check(docs == [], "disabled: no file")
    proc, (d,) = run(binary, "leak", {"GMEMRT_STACK_DEPTH": "0"})
    check(all(not s["stacks"] for s in d["sites"]), "no stacks at depth 0")


def preload(binary, library):
    """LD_PRELOAD=libgmemrt.so into preload_app.cpp: return-address sites, symbolised."""
    work = tempfile.mkdtemp()
    env = dict(os.environ, GMEMRT_OUTPUT=os.path.join(work, "gm-%p.json"), LD_PRELOAD=library)
    proc = subprocess.run([binary], env=env, capture_output=True, text=True, timeout=60)
    check(proc.returncode == 0 and "preload_app: done" in proc.stdout, (proc.stdout, proc.stderr))
    files = glob.glob(os.path.join(work, "gm-*.json"))
    check(len(files) == 1, "one telemetry file")
    d = json.load(open(files[0]))
    by_line = {}
    for s in d["sites"]:
        check(s["file"] is None or not s["file"].endswith("cuda_runtime.h"),
              ("a site inside the CUDA headers", s["file"], s["line"]))
        if s["file"] and s["file"].endswith("preload_app.cpp"):
            by_line.setdefault(s["line"], []).append(s)
    leaky = [s for s in by_line.get(10, []) if s["api"] == "cudaMalloc"]
    check(len(leaky) == 1, ("the template overload's caller at line 10", sorted(by_line)))
    leaky = leaky[0]
    check(leaky["calls"] == 3 and leaky["live_count"] == 2 and leaky["live_bytes"] == 2 * MiB,
          leaky)
    inlined = not binary.endswith("O0")  # at -O2 leaky_buffer is inlined into main
    check(leaky["function"] == ("main" if inlined else "_ZL12leaky_bufferm"), leaky["function"])
    check(leaky["debug_info"] and leaky["module"].endswith(os.path.basename(binary)), leaky)
    frames = leaky["stacks"][0]["frames"]
    check("preload_app.cpp:10" in frames[0], ("the stack starts at the call", frames))
    check(inlined or "preload_app.cpp:17" in frames[1], ("then main's loop", frames))
    scratch = [s for s in by_line.get(20, []) if s["api"] == "cudaMalloc"]
    check(len(scratch) == 1 and scratch[0]["live_count"] == 0 and scratch[0]["frees"] ==
          {"cudaFree": 1}, scratch)
    pinned = [s for s in by_line.get(23, []) if s["api"] == "cudaHostAlloc"]  # via cudaMallocHost<T>
    check(len(pinned) == 1 and pinned[0]["wrong_family_frees"] == 1, pinned)
    frees = [s for s in d["sites"] if s["kind"] == "free" and s["file"]
             and s["file"].endswith("preload_app.cpp")]
    check(sorted(s["line"] for s in frees) == [18, 21, 24, 25], [s["line"] for s in frees])
    check(d["process"]["live_bytes"] == 2 * MiB, d["process"])
    # no GPU: every device allocation fails, named by the shared cudart's cudaGetErrorName
    env["SIMCUDA_ERROR"] = "100"
    proc = subprocess.run([binary], env=env, capture_output=True, text=True, timeout=60)
    check(proc.returncode == 0, proc.stderr)
    (path,) = [f for f in glob.glob(os.path.join(work, "gm-*.json")) if f not in files]
    failed = {(s["line"], s["api"]): (s["calls"], s["failed_calls"], s["failures"])
              for s in json.load(open(path))["sites"] if s["kind"] == "alloc"}
    check(failed == {(10, "cudaMalloc"): (0, 3, {"cudaErrorNoDevice": 3}),
                     (20, "cudaMalloc"): (0, 1, {"cudaErrorNoDevice": 1}),
                     (23, "cudaHostAlloc"): (1, 0, {})}, failed)


def inject(gmemrun, app, library=None):
    """gmemrun -- preload_app: the simulated driver loads the injection library, and the stand-in
    CUPTI reports each traced call to it; the sites are the same as with LD_PRELOAD."""
    work = tempfile.mkdtemp()
    env = dict(os.environ, GMEMRT_CUPTI_LIBRARY=FAKECUPTI)
    proc = subprocess.run([gmemrun, "-o", os.path.join(work, "gm-%p.json"), "--step-api",
                           "cudaDeviceSynchronize", "--", app], env=env, capture_output=True,
                          text=True, timeout=60)
    check(proc.returncode == 0 and "preload_app: done" in proc.stdout, (proc.stdout, proc.stderr))
    check("gmemrun: telemetry: " + work in proc.stderr and "warning" not in proc.stderr,
          proc.stderr)
    (path,) = glob.glob(os.path.join(work, "gm-*.json"))
    d = json.load(open(path))
    check(d["unified_memory"]["available"] and d["process"]["steps"] == 1, d["process"])
    # a program of the runtime alone: its calls go over to wrappers, the driver's callbacks stay off
    attach = d["runtime"]["attach"]
    check(attach["driver_callbacks"] is False and {"cudaMalloc", "cudaFree"} <=
          set(attach["apis_on_wrappers"]), attach)
    sites = {(s["line"], s["api"]): s for s in d["sites"]
             if s["file"] and s["file"].endswith("preload_app.cpp")}
    leaky = sites[(10, "cudaMalloc")]
    check(leaky["calls"] == 3 and leaky["live_bytes"] == 2 * MiB, leaky)
    check(leaky["step_live_bytes"] == [2 * MiB], leaky["step_live_bytes"])
    check("preload_app.cpp:10" in leaky["stacks"][0]["frames"][0], leaky["stacks"])
    check(sites[(20, "cudaMalloc")]["frees"] == {"cudaFree": 1}, sites[(20, "cudaMalloc")])
    check(sites[(23, "cudaHostAlloc")]["wrong_family_frees"] == 1, sorted(sites))
    check(sorted(line for line, api in sites if api.startswith("cudaFree")) == [18, 21, 24, 25],
          sorted(sites))
    # no GPU: every device allocation fails. The first cudaMalloc comes through CUPTI's runtime
    # callback (cudaError_t, named by cudart); the calls after it through the wrapped driver
    # entry point, which records the driver's own result (CUresult, named by cuGetErrorName)
    fails = subprocess.run([gmemrun, "-o", os.path.join(work, "fail-%p.json"), "--", app],
                           env=dict(env, SIMCUDA_ERROR="100"), capture_output=True, text=True,
                           timeout=60)
    check(fails.returncode == 0, fails.stderr)
    (path,) = glob.glob(os.path.join(work, "fail-*.json"))
    failed = {(s["line"], s["api"]): (s["calls"], s["failed_calls"], s["failures"])
              for s in json.load(open(path))["sites"] if s["kind"] == "alloc"}
    check(failed == {(10, "cudaMalloc"): (0, 3, {"cudaErrorNoDevice": 1,
                                                 "CUDA_ERROR_NO_DEVICE": 2}),
                     (20, "cudaMalloc"): (0, 1, {"CUDA_ERROR_NO_DEVICE": 1}),
                     (23, "cudaHostAlloc"): (1, 0, {})}, failed)
    # another CUPTI client: gmemrun stops with a clear message instead of half-working
    busy = subprocess.run([gmemrun, "-o", os.path.join(work, "busy-%p.json"), "--", app],
                          env=dict(env, FAKECUPTI_BUSY="1"), capture_output=True, text=True,
                          timeout=60)
    check(busy.returncode == 3 and "another tool" in busy.stderr and
          "preload_app: done" not in busy.stdout, (busy.returncode, busy.stderr))
    check(not glob.glob(os.path.join(work, "busy-*.json")), "no half telemetry")
    # the injection slot taken by another tool
    taken = subprocess.run([gmemrun, "--", app], env=dict(env, CUDA_INJECTION64_PATH="/x/y.so"),
                           capture_output=True, text=True, timeout=60)
    check(taken.returncode == 3 and "already set (/x/y.so)" in taken.stderr, taken.stderr)
    usage = subprocess.run([gmemrun], capture_output=True, text=True)
    check(usage.returncode == 2 and "no program to run" in usage.stderr, usage.stderr)
    missing = subprocess.run([gmemrun, "--", "/nonexistent/app"], capture_output=True, text=True)
    check(missing.returncode == 127 and "cannot run /nonexistent/app" in missing.stderr,
          missing.stderr)


def inject_nodebug(gmemrun, app):
    """A binary without debug information: sites named by function and module offset, and
    gmemrun says so on its way out."""
    work = tempfile.mkdtemp()
    env = dict(os.environ, GMEMRT_CUPTI_LIBRARY=FAKECUPTI)
    proc = subprocess.run([gmemrun, "-o", os.path.join(work, "gm-%p.json"), "--", app], env=env,
                          capture_output=True, text=True, timeout=60)
    check(proc.returncode == 0, proc.stderr)
    (path,) = glob.glob(os.path.join(work, "gm-*.json"))
    d = json.load(open(path))
    mine = [s for s in d["sites"] if s.get("module", "").endswith("preload_app_nodebug")]
    check(len(mine) == 7 and all(s["debug_info"] is False and s["file"] is None for s in mine),
          [(s.get("module"), s.get("debug_info"), s.get("function")) for s in d["sites"]])
    # the C++ wrappers of cuda_runtime.h are known by name: the site is their caller
    check(any(s["function"] == "_ZL12leaky_bufferm" and s["live_bytes"] == 2 * MiB for s in mine),
          [(s["function"], s["api"]) for s in mine])
    check(any(s["function"] == "main" and s["api"] == "cudaHostAlloc" and
              s["wrong_family_frees"] == 1 for s in mine), [(s["function"], s["api"]) for s in mine])
    check("gmemrun: note: 7 of 7 sites have no debug information (in preload_app_nodebug)"
          in proc.stderr, proc.stderr)


def gmemrun_pairs(gmemrun, app, source):
    """gmemrun -- inject_app with 3000 repeated cudaMallocAsync/cudaFreeAsync pairs: batched
    through the wrappers (runtime/pairs.h) or recorded call by call, the file says the same, the
    allocation another thread freed while it waited in the slot included."""
    runs = {}
    for batches in ("0", "1"):
        work = tempfile.mkdtemp()
        env = dict(os.environ, GMEMRT_CUPTI_LIBRARY=FAKECUPTI, INJECT_APP_PAIRS="3000",
                   GMEMRT_PAIR_BATCHES=batches)
        proc = subprocess.run([gmemrun, "-o", os.path.join(work, "gm-%p.json"), "--", app],
                              env=env, capture_output=True, text=True, timeout=60)
        check(proc.returncode == 0 and "inject_app: done" in proc.stdout, (proc.stdout,
                                                                            proc.stderr))
        (path,) = glob.glob(os.path.join(work, "gm-*.json"))
        runs[batches] = json.load(open(path))
    # what four threads racing on one cudaMalloc site make differ from run to run: the peaks,
    # and how many calls came before each API's hand-over to the wrappers
    racing = ("alloc_ns", "alloc_timed_calls", "free_ns", "active_ms", "peak_live_bytes")

    def figures(d):
        return [{k: v for k, v in s.items() if k not in racing} for s in d["sites"]]

    def devices(d):
        return [{k: v for k, v in x.items() if k not in racing} for x in d["process"]["devices"]]
    check(figures(runs["0"]) == figures(runs["1"]), (figures(runs["0"]), figures(runs["1"])))
    check(devices(runs["0"]) == devices(runs["1"]), runs["1"]["process"])
    # the pairs went through the wrappers, batched or not: 6001 calls, and 800 or so before them
    check(runs["1"]["runtime"]["attach"]["wrapper_calls"] > 6800, runs["1"]["runtime"]["attach"])
    at = {s["line"]: s for s in runs["1"]["sites"] if s["file"] and s["file"].endswith(
        "inject_app.cpp")}
    pairs = at[marked(source, "// @pairs:")]
    check(pairs["api"] == "cudaMallocAsync" and pairs["calls"] == 3001 and
          pairs["live_bytes"] == 0 and pairs["frees"] == {"cudaFreeAsync": 3001}, pairs)
    check(at[marked(source, "// @pairfree")]["free_calls"] == 3000, at)
    check(at[marked(source, "@pairother")]["free_calls"] == 1, at)


def handover(gmemrun, app, source):
    """gmemrun -- inject_app: each runtime API goes over from CUPTI callbacks to the wrapped
    driver entry point the simulated cudart fetched, after one call; the telemetry is the same
    as with callbacks only (GMEMRT_ENTRY_WRAPPERS=0), threads racing the hand-over included."""
    lines = {}
    for number, text in enumerate(open(source), 1):
        if "// @" in text:
            lines[text.split("// @")[1].split(":")[0].split()[0]] = number
    runs = {}
    for wrappers in ("1", "0", "linked", "fetch-seen"):
        work = tempfile.mkdtemp()
        env = dict(os.environ, GMEMRT_CUPTI_LIBRARY=FAKECUPTI,
                   GMEMRT_ENTRY_WRAPPERS="0" if wrappers == "0" else "1")
        if wrappers == "linked":
            env["INJECT_APP_NO_CUINIT"] = "1"  # the driver is first called through the runtime
        if wrappers == "fetch-seen":  # the runtime fetches after the library came, not before
            env["SIMCUDA_FETCH_AFTER_INJECTION"] = "1"
        proc = subprocess.run([gmemrun, "-o", os.path.join(work, "gm-%p.json"), "--", app],
                              env=env, capture_output=True, text=True, timeout=60)
        check(proc.returncode == 0 and "inject_app: done (oom 2)" in proc.stdout,
              (proc.stdout, proc.stderr))
        (path,) = glob.glob(os.path.join(work, "gm-*.json"))
        runs[wrappers] = json.load(open(path))
    on, off = runs["1"], runs["0"]
    attach = on["runtime"]["attach"]
    # the runtime fetched its 8 entry points before the library came: found in its data and
    # swapped there; the program's own later fetch is answered with a wrapper
    check(attach["way"] == "injection" and attach["entry_points_adopted"] == 8 and
          attach["entry_points_adopted_in"].endswith("libsimcudart.so") and
          attach["entry_points_wrapped"] == 1, attach)
    seen = runs["fetch-seen"]["runtime"]["attach"]
    check(seen["entry_points_adopted"] == 0 and seen["entry_points_adopted_in"] == "" and
          seen["entry_points_wrapped"] == 9 and
          set(seen["apis_on_wrappers"]) == set(attach["apis_on_wrappers"]), seen)
    check({"cudaMalloc", "cudaFree", "cudaMallocAsync", "cudaFreeAsync"} <=
          set(attach["apis_on_wrappers"]), attach)
    # all but the calls made before each API's hand-over (a few, with threads racing) went through
    # wrappers: 10 + 10 async, 401 + 400 runtime and the fetched entry point's call
    check(800 <= attach["wrapper_calls"] < 822, attach)
    check(off["runtime"]["attach"]["wrapper_calls"] == 0 and
          off["runtime"]["attach"]["apis_on_wrappers"] == [], off["runtime"]["attach"])
    # the program calls the driver itself, so the driver's own callbacks are on: known by its
    # cuInit call, or else by its linking cuMemAlloc
    check(attach["driver_callbacks"] and attach["driver_callbacks_reason"].startswith(
        "cuInit called by main ("), attach)
    linked = runs["linked"]["runtime"]["attach"]
    check(linked["driver_callbacks"] and
          linked["driver_callbacks_reason"] == "the program links cuMemAlloc_v2", linked)
    check(off["runtime"]["attach"]["driver_callbacks_reason"] == "GMEMRT_ENTRY_WRAPPERS=0",
          off["runtime"]["attach"])

    def sites(d):
        out = {}
        for s in d["sites"]:
            if s["file"] and s["file"].endswith("inject_app.cpp"):
                out[(s["line"], s["api"])] = {k: s.get(k) for k in (
                    "kind", "family", "calls", "failed_calls", "live_bytes", "live_count",
                    "frees", "wrong_family_frees", "double_frees")}
        return out

    a, b = sites(on), sites(off)
    check(a == b, ("the same sites either way", a, b))
    check(sites(runs["linked"]) == a, ("the same sites", sites(runs["linked"]), a))
    check(sites(runs["fetch-seen"]) == a, ("the same sites", sites(runs["fetch-seen"]), a))
    check(a[(lines["async"], "cudaMallocAsync")]["calls"] == 10 and
          a[(lines["async"], "cudaMallocAsync")]["family"] == "cuda-async" and
          a[(lines["async"], "cudaMallocAsync")]["frees"] == {"cudaFreeAsync": 10}, a)
    threads = a[(lines["threads"], "cudaMalloc")]
    check(threads["calls"] == 400 and threads["live_count"] == 0 and
          threads["frees"] == {"cudaFree": 400} and threads["double_frees"] == 0, threads)
    check(a[(lines["threadfree"], "cudaFree")]["kind"] == "free", a)
    check(a[(lines["oom"], "cudaMalloc")]["failed_calls"] == 1, a)
    # the same return address into the runtime, another way up to the program: not mistaken
    large = a[(lines["large"], "cudaMalloc")]
    check(large["calls"] == 1 and large["frees"] == {"cudaFree": 1}, large)
    check(on["runtime"]["attach"]["caller_shortcut_failures"] == 0, on["runtime"]["attach"])
    ooms = [(e["line"], e["api"], e["free_bytes"] < e["requested_bytes"])
            for e in on["process"]["oom_events"]]
    check(ooms == [(lines["oom"], "cudaMalloc", True)], ooms)  # capacity's figures
    driver = a[(lines["driver"], "cuMemAlloc")]
    check(driver["family"] == "cu-device" and driver["frees"] == {"cuMemFree": 1}, driver)
    fetched = a[(lines["fetched"], "cuMemAlloc")]
    check(fetched["calls"] == 1 and fetched["live_bytes"] == 16384, fetched)
    check(on["process"]["live_bytes"] == 16384, on["process"])


def late_plugin(gmemrun, app, plugin):
    """A runtime-only program loads a library linking cuMemAlloc after CUDA started: the
    driver's callbacks, off until then, come on at the runtime's next call, and the library's
    own allocation is recorded at its line."""
    work = tempfile.mkdtemp()
    env = dict(os.environ, GMEMRT_CUPTI_LIBRARY=FAKECUPTI)
    proc = subprocess.run([gmemrun, "-o", os.path.join(work, "gm-%p.json"), "--", app, plugin],
                          env=env, capture_output=True, text=True, timeout=60)
    check(proc.returncode == 0 and "late_app: done" in proc.stdout, (proc.stdout, proc.stderr))
    (path,) = glob.glob(os.path.join(work, "gm-*.json"))
    d = json.load(open(path))
    attach = d["runtime"]["attach"]
    check(attach["driver_callbacks"] and attach["driver_callbacks_reason"] ==
          plugin + " links cuMemAlloc_v2", attach)
    mine = [s for s in d["sites"] if s["file"] and s["file"].endswith("late_plugin.c")]
    check(len(mine) == 1 and mine[0]["api"] == "cuMemAlloc" and mine[0]["line"] == 7 and
          mine[0]["live_bytes"] == 12288, mine)
    check(d["process"]["live_bytes"] == 12288, d["process"])


def marked(source, mark):
    return next(i for i, l in enumerate(open(source), 1) if mark in l)


def joined(doc, gmemlint, source):
    """gmemlint's text output for source joined with one run's telemetry."""
    tel = os.path.join(tempfile.mkdtemp(), "run.json")
    json.dump(doc, open(tel, "w"))
    proc = subprocess.run([gmemlint, "--no-cache", "--telemetry", tel, source, "--",
                           "-I" + os.path.join(os.path.dirname(source), "..", "..", "include",
                                               "gmemlint")],
                          capture_output=True, text=True, timeout=120)
    return proc.stdout


def churn_hidden(binary, gmemlint, source):
    """The simulated run shows churn behind a function pointer; gmemlint's GM110 reports it where
    the static pass is silent (a runtime twin)."""
    _, docs = run(binary, "churn-hidden")
    line = next(i for i, l in enumerate(open(source), 1) if "@hidden_churn" in l)
    s = site(docs[0], line, "cudaMalloc")
    check(s["calls"] == 64 and s["frees"] == {"cudaFree": 64} and s["peak_live_bytes"] == 4096, s)
    out = joined(docs[0], gmemlint, source)
    check(re.search(r"scenarios\.c:%d: warning: cudaMalloc here ran 64 times .*\[GM110 " % line, out),
          out)
    check(not re.search(r"scenarios\.c:%d:\d+: warning: .*GM010" % line, out),
          ("the static pass saw the hidden loop", out))


def regrow_hidden(binary, gmemlint, source):
    """A buffer regrown through a shared allocation helper behind a function pointer: the run
    ties each block to its larger replacement and the copy between them; GM120 reports it, a
    one-off 'temporary, then a big buffer' helper is not reported, and no churn (GM110) is."""
    _, docs = run(binary, "regrow-hidden")
    line, temp = marked(source, "@shared_allocator"), marked(source, "@temp_then_big")
    s = site(docs[0], line, "cudaMalloc")
    # 12 appends: 11 replacements of the grown buffer (the first had none before it), each also
    # replacing the appended chunk; the chain runs through the grown buffers only
    check(s["calls"] == 24 and s["regrowths"] == 22 and s["regrowth_chain_max"] == 11, s)
    check(s["regrowth_copies"] == 11 and s["regrowth_copy_bytes"] == 64 * 1024 * 66, s)
    t = site(docs[0], temp, "cudaMalloc")
    check(t["regrowths"] == 12 and t["regrowth_chain_max"] == 1 and t["regrowth_copies"] == 0, t)
    copy = site(docs[0], marked(source, "@regrow_copy"), "cudaMemcpy")
    check(copy["copy_direction"] == "device-to-device", copy)
    out = joined(docs[0], gmemlint, source)
    check(re.search(r"scenarios\.c:%d: warning: blocks from cudaMalloc here were replaced 11 "
                    r"times in a row .*\[GM120 " % line, out), out)
    check(re.search(r"scenarios\.c:%d: note: confirmed: a chain of 11 replacements, each by a "
                    r"larger block \(threshold: 4\), 22 blocks replaced of 24 calls, .*11 copies "
                    r"from a block into its replacement \(4\.1 MiB copied\)" % line, out), out)
    # the temporary-then-big helper is churn (GM110), not regrowth; the regrown buffer is not churn
    check(re.search(r"scenarios\.c:%d: warning: .*\[GM110 " % temp, out), out)
    check(not re.search(r"scenarios\.c:%d: warning: .*GM120" % temp, out), out)
    check(not re.search(r"scenarios\.c:%d: warning: .*GM110" % line, out), out)
    check(not re.search(r"\[GM020 ", out), ("the static pass saw the regrowth", out))


def ping_pong_hidden(binary, gmemlint, source):
    """Managed memory a kernel and the host take turns on, step by step, behind a function
    pointer: the stand-in CUPTI's records show both ways in every step; GM131 reports it, and
    the memory that moved once is not reported."""
    _, docs = run(binary, "ping-pong-hidden")
    line, once = marked(source, "@ping_pong"), marked(source, "@one_way")
    u = site(docs[0], line, "cudaMallocManaged")["unified_memory"]
    check(u["direction_changes"] == 11 and u["block_direction_changes_max"] == 11, u)
    check(u["steps_moved"] == 6 and u["steps_both_ways"] == 6, u)
    o = site(docs[0], once, "cudaMallocManaged")["unified_memory"]
    check(o["direction_changes"] == 0 and o["steps_both_ways"] == 0, o)
    out = joined(docs[0], gmemlint, source)
    check(re.search(r"scenarios\.c:%d: warning: pages of this managed memory \(cudaMallocManaged\) "
                    r"moved between the host and the GPU 11 times.*\[GM131 " % line, out), out)
    check(re.search(r"scenarios\.c:%d: note: confirmed: one block changed direction 11 times "
                    r"\(threshold: 4\), 11 changes over the site's blocks, both ways in 6 of the "
                    r"6 steps that moved pages; 6\.0 MiB to the device and 6\.0 MiB back"
                    % line, out), out)
    check(not re.search(r"scenarios\.c:%d: warning: .*GM131" % once, out), out)
    check(not re.search(r"\[GM031 ", out), ("the static pass saw the loop", out))


def managed_hidden(binary, gmemlint, source):
    """A kernel launched through a function pointer faults managed memory over on demand (the
    stand-in CUPTI's records, coherence migrations); gmemlint's GM130 reports it where the static
    pass is silent, and not for the buffer prefetched before the launch."""
    _, (d,) = run(binary, "managed-hidden")
    check(d["unified_memory"]["available"] is True, d["unified_memory"])
    lines = {tag: marked(source, tag) for tag in ("@hidden_managed", "@prefetched_managed")}
    hidden = site(d, lines["@hidden_managed"], "cudaMallocManaged")
    # on demand: a quarter for the faults (coherence), the rest by the driver's speculation
    check(hidden["unified_memory"]["gpu_page_faults"] == 128 and
          hidden["unified_memory"]["htod_on_demand_bytes"] == 2 * MiB and
          hidden["unified_memory"]["htod_speculative_bytes"] == 6 * MiB and
          hidden["unified_memory"]["htod_user_prefetch_bytes"] == 0, hidden["unified_memory"])
    kept = site(d, lines["@prefetched_managed"], "cudaMallocManaged")
    check(kept["unified_memory"]["htod_user_prefetch_bytes"] == 8 * MiB and
          kept["unified_memory"]["htod_on_demand_bytes"] == 0 and
          kept["unified_memory"]["htod_speculative_bytes"] == 0 and
          kept["unified_memory"]["gpu_page_faults"] == 0, kept["unified_memory"])
    out = joined(d, gmemlint, source)
    check(re.search(r"scenarios\.c:%d: warning: managed memory from cudaMallocManaged here migrated "
                    r"to the GPU on demand.*\[GM130 " % lines["@hidden_managed"], out), out)
    check(re.search(r"scenarios\.c:%d: note: confirmed: 128 GPU page-fault groups \(threshold: 64\), "
                    r"8\.0 MiB migrated host-to-device on demand \(threshold: 1\.0 MiB; 2\.0 MiB for the "
                    r"faults, 6\.0 MiB by the driver's speculative prefetch around them\), 0 B "
                    r"prefetched by the program: 0%% of 8\.0 MiB" % lines["@hidden_managed"], out), out)
    check(not re.search(r"scenarios\.c:%d:" % lines["@prefetched_managed"], out),
          ("the prefetched buffer is not GM130's", out))
    check(not re.search(r"scenarios\.c:%d:\d+: warning: .*GM030" % lines["@hidden_managed"], out),
          ("the static pass saw the hidden launch", out))


def memory_bound(binary, gmemlint, source):
    """GM140 from a simulated run: the stand-in NVML shows a full device, a streaming kernel or an
    arithmetic one (FAKENVML_PROFILE); gmemlint gives capacity-bound at the site holding the most
    at the peak, bandwidth-bound at the telemetry file, and nothing for the compute-bound run."""
    line = next(i for i, l in enumerate(open(source), 1) if "@bound_weights" in l)
    work = tempfile.mkdtemp()
    include = "-I" + os.path.join(os.path.dirname(source), "..", "..", "include", "gmemlint")
    outs = {}
    for profile in ("capacity", "bandwidth", "compute"):
        _, (d,) = run(binary, "memory-bound", {
            "GMEMRT_NVML": "1", "GMEMRT_NVML_MS": "10", "FAKENVML_PROFILE": profile,
            "GMEMRT_NVML_LIBRARY": os.environ.get("FAKENVML", "")})
        rows = d["nvml"]["samples"]
        check(len(rows) >= 10, (profile, "samples over 250 ms at 10 ms", len(rows)))
        check(d["process"]["address_space_at_peak"]["live_bytes"] == 65 * MiB, d["process"])
        tel = os.path.join(work, profile + ".json")
        json.dump(d, open(tel, "w"))
        proc = subprocess.run([gmemlint, "--no-cache", "--telemetry", tel, source, "--", include],
                              capture_output=True, text=True, timeout=120)
        outs[profile] = proc.stdout
        report = subprocess.run([gmemlint, "report", tel], capture_output=True, text=True,
                                timeout=60).stdout
        want = {"capacity": "capacity-bound", "bandwidth": "bandwidth-bound",
                "compute": "neither"}[profile]
        check(re.search(r"^    verdict: %s: " % want, report, re.M), (profile, report))
    out = outs["capacity"]
    check(re.search(r"scenarios\.c:%d: warning: the run of runtime_scenarios \(pid \d+\) was "
                    r"capacity-bound: device memory was nearly full .*\[GM140 " % line, out), out)
    check(re.search(r"scenarios\.c:%d: note: confirmed: capacity-bound: device 0 was at least 90%% "
                    r"full while kernels ran less than 50%% of the time in (\d+) of \1 samples \(100%%; threshold 50%%\), at most 133\.0 GiB of "
                    r"140\.0 GiB \(95%%\).*; at the peak this site held 64\.0 MiB of 65\.0 MiB live$"
                    % line, out, re.M), out)
    out = outs["bandwidth"]
    check(re.search(r"^bandwidth\.json: warning: the run of runtime_scenarios \(pid \d+\) was "
                    r"bandwidth-bound: .*\[GM140 ", out, re.M) or
          re.search(r"/bandwidth\.json: warning: .* was bandwidth-bound: .*\[GM140 ", out), out)
    check(re.search(r"note: confirmed: bandwidth-bound: on device 0 kernels ran \(SM >= 20%\) in "
                    r"(\d+) of \1 samples \(100%; threshold 25%\), and in \1 of those \1", out), out)
    check("GM140" not in outs["compute"], ("a compute-bound run is neither", outs["compute"]))


def small_copies_hidden(binary, gmemlint, source):
    """Small uploads through a helper behind a function pointer; gmemlint's GM121 reports them
    where the static pass is silent, held against the large upload of the same run."""
    _, (d,) = run(binary, "small-copies-hidden")
    line, large = marked(source, "@hidden_small_copy"), marked(source, "@large_copy")
    s = site(d, line, "cudaMemcpy")
    check(s["copies"] == 256 and s["copy_bytes"] == 256 * 64 and
          s["copy_direction"] == "host-to-device" and s["copies_strided"] == 254, s)
    big = site(d, large, "cudaMemcpy")  # the same place each time: not strided
    check(big["copies"] == 4 and big["copy_bytes"] == 16 * MiB and
          big["copy_direction"] == "host-to-device" and big["copies_strided"] == 0, big)
    out = joined(d, gmemlint, source)
    check(re.search(r"scenarios\.c:%d: warning: cudaMemcpy here made 256 copies of mean 64 B: .*"
                    r"\[GM121 " % line, out), out)
    check(re.search(r"scenarios\.c:%d: note: confirmed: 256 copies host-to-device \(threshold: 64\) "
                    r"of mean 64 B \(threshold: below 64\.0 KiB\), 254 of them moving on through a "
                    r"range by a constant step \(threshold: 50%%\), 16\.0 KiB in .* achieved, "
                    r"against .* for the 4\.0 MiB copies at scenarios\.c:%d: \d+x slower"
                    % (line, large), out), out)
    check(not re.search(r"scenarios\.c:%d: warning: .*GM121" % large, out),
          ("the large copy is not small", out))
    check(not re.search(r"scenarios\.c:%d:\d+: warning: .*GM021" % line, out),
          ("the static pass saw the hidden loop", out))


def no_device(binary, gmemlint, source):
    """A run where every allocation failed (SIMCUDA_ERROR=100: no GPU): the runtime records each
    failure with its error, and neither `gmemlint report` nor the join reads "nothing live at
    the end" as "everything was freed"."""
    proc, (d,) = run(binary, "no-device", {"SIMCUDA_ERROR": "100"})
    line = marked(source, "@no_device_first")
    s = site(d, line, "cudaMalloc")
    check(s["calls"] == 0 and s["failed_calls"] == 3 and s["failures"] == {"cudaErrorNoDevice": 3}
          and s["frees"] == {} and s["live_count"] == 0, s)
    check(d["process"]["oom_events"] == [], d["process"]["oom_events"])  # not out of memory
    tel = os.path.join(tempfile.mkdtemp(), "run.json")
    json.dump(d, open(tel, "w"))
    rep = subprocess.run([gmemlint, "report", tel], capture_output=True, text=True, timeout=60)
    check(rep.returncode == 0, rep.stderr)
    where = "scenarios.c:%d%s cudaMalloc" % (line, ":%d" % s["column"] if s["column"] else "")
    lines = rep.stdout.splitlines()
    for want in ["Top sites by live bytes at the end:",
                 '  none: no allocation succeeded (3 of 3 failed; see "Failed allocations")',
                 "Failed allocations: 3 of 3",
                 "  %s: 3 of 3 allocations from this site failed (cudaErrorNoDevice)" % where]:
        check(want in lines, (want, rep.stdout))
    check("everything allocated was freed" not in rep.stdout, rep.stdout)
    # a code the CUDA library has no name for ("unrecognized error code", as cudaGetErrorName
    # says for each of them) keeps its number, so two such codes never share one count
    _, (u,) = run(binary, "no-device", {"SIMCUDA_ERROR": "999"})
    us = site(u, line, "cudaMalloc")
    check(us["failed_calls"] == 3 and us["failures"] == {"cudaError_t 999": 3}, us)
    # the join: the source parsed with the CUDA header the forced include brings in a build
    out = subprocess.run([gmemlint, "--no-cache", "--telemetry", tel, source, "--", "-include",
                          "cuda_runtime.h"], capture_output=True, text=True, timeout=120).stdout
    col = open(source).read().splitlines()[line - 1].index("cudaMalloc") + 1
    mine = [l for l in out.splitlines() if l.startswith("%s:%d:%d: " % (source, line, col))]
    verdict = ("%s:%d:%d: note: not-exercised: 3 of 3 allocations from this site failed "
               "(cudaErrorNoDevice): nothing was allocated, so nothing was live to free"
               % (source, line, col))
    check([l for l in mine if "GM001" in l or "GM010" in l or "note: not-exercised" in l] ==
          [mine[0], verdict, mine[2], verdict] and "[GM001 " in mine[0] and "[GM010 " in mine[2],
          mine)


def managed_reuse(binary):
    """CUPTI's records come late: a block freed and its address reused by another site keeps the
    migrations of its own lifetime (matched by the records' times), not the latest site's."""
    _, (d,) = run(binary, "managed-reuse")
    src = os.path.join(os.path.dirname(__file__), "scenarios.c")
    early = site(d, marked(src, "@reuse_early"), "cudaMallocManaged")
    late = site(d, marked(src, "@reuse_late"), "cudaMallocManaged")
    check(early["unified_memory"]["htod_bytes"] == 4 * MiB, early)
    check(late["unified_memory"]["htod_bytes"] == 0, late)
    blocks = d["process"]["address_space_at_peak"]["blocks"]
    check(len(blocks) == 1 and blocks[0][0] == 0, blocks)  # the late block took the same place


def two_copies(binary):
    """A program and the instrumented shared library it links each carry libgmemrt.a: one
    runtime records both, so the one file written holds both sites (with the archive's
    internals hidden, the library's copy started a runtime of its own and wrote its empty file
    over the program's)."""
    proc, docs = run(binary, "", {"GMEMRT_CUPTI": "0", "GMEMRT_NVML": "0", "GMEMRT_VERBOSE": "1"})
    check(proc.stderr.count("gmemrt: GMEMRT_OUTPUT=") == 1, ("one runtime started", proc.stderr))
    check(len(docs) == 1, ("one telemetry file", len(docs)))
    here = os.path.dirname(__file__)
    got = sorted((s["file"].rsplit("/", 1)[-1], s["line"], s["api"], s["calls"])
                 for s in docs[0]["sites"] if "calls" in s)  # the allocation sites
    want = sorted([("two_copies_app.c", marked(os.path.join(here, "two_copies_app.c"),
                                               "@two_copies_app"), "cudaMallocHost", 1),
                   ("two_copies_lib.c", marked(os.path.join(here, "two_copies_lib.c"),
                                               "@two_copies_lib"), "cudaMalloc", 1)])
    check(got == want, (got, want))


if __name__ == "__main__":
    scenario, binary = sys.argv[1], os.path.abspath(sys.argv[2])
    globals()[scenario.replace("-", "_")](binary, *sys.argv[3:])
    print(scenario + ": ok")
