#!/usr/bin/env python3
"""gmemlint's PyTorch shim (runtime/python) on a stand-in torch (standin/): what it writes, in
full, against docs/telemetry-format.md "The PyTorch view", and that the program runs exactly as
without it. Usage: check_shim.py SHIM_DIR"""
import json
import os
import pickle
import re
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
SHIM = os.path.abspath(sys.argv[1])
STANDIN = os.path.join(HERE, "standin")
SHADOWED = os.path.join(HERE, "shadowed")
PROG = os.path.join(HERE, "prog.py")
MiB = 1024 * 1024
failures = []


def check(what, got, want):
    if got != want:
        failures.append(f"{what}:\n  got  {got!r}\n  want {want!r}")


def run(mode, shim, out_dir, env_extra=None):
    """Runs prog.py MODE in out_dir; returns (rc, stdout, stderr, log lines, start, end)."""
    log = os.path.join(out_dir, "fake-torch.log")
    paths = ([SHIM] if shim else []) + [STANDIN, SHADOWED]
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(paths), FAKE_TORCH_LOG=log,
               GMEMRT_OUTPUT="gmemlint-%p.json")
    env.pop("CUDA_INJECTION64_PATH", None)
    env.update(env_extra or {})
    start = time.time_ns() // 1000
    p = subprocess.run([sys.executable, PROG, mode], cwd=out_dir, env=env, capture_output=True,
                       text=True)
    end = time.time_ns() // 1000
    with open(log) as f:
        lines = f.read().splitlines()
    os.unlink(log)
    return p.returncode, p.stdout, p.stderr, lines, start, end


def files(out_dir):
    return sorted(os.listdir(out_dir))


def load(path):
    with open(path) as f:
        return json.load(f)


def steps_of(sizes_reserved_free, sources):
    return [{"step": k, "source": source, "device": 0,
             "allocated_bytes": allocated, "reserved_bytes": reserved, "active_bytes": allocated,
             "requested_bytes": allocated, "inactive_split_bytes": 0, "num_alloc_retries": 0,
             "num_ooms": 0, "largest_free_block_bytes": largest}
            for k, ((allocated, reserved, largest), source)
            in enumerate(zip(sizes_reserved_free, sources), 1)]


# the stand-in's figures at the end of steps 1-3 of prog.py: (allocated, reserved, largest free)
FIGURES = [(1 * MiB, 6 * MiB, 4 * MiB), (3 * MiB, 10 * MiB, 4 * MiB), (6 * MiB, 14 * MiB, 4 * MiB)]
ARMED = ["shadowed sitecustomize (shim loaded: False)", "_lazy_call"]
STARTED = ["cuda init",
           "_record_memory_history enabled=all context=alloc stacks=python max_entries=50000",
           "_cuda_attach_out_of_memory_observer", "register_optimizer_step_post_hook",
           "_set_memory_metadata gmemlint.step=0"]


def companion_check(name, out_dir, start, end, steps, oom, exit_step, history, errors,
                    peak=("peak", 3)):
    """The companion in full; time_us and pid are checked for shape, the rest for value."""
    companions = [f for f in files(out_dir) if f.endswith(".torch.json")]
    check(f"{name}: one companion", len(companions), 1)
    if len(companions) != 1:
        return None
    doc = load(os.path.join(out_dir, companions[0]))
    pid = doc.get("pid")
    check(f"{name}: companion name", companions[0], f"gmemlint-{pid}.torch.json")
    times = [s.pop("time_us", None) for s in doc["steps"]] + [o.pop("time_us", None)
                                                              for o in doc["ooms"]]
    check(f"{name}: time_us are epoch microseconds of the run, in order",
          all(isinstance(t, int) and start <= t <= end for t in times) and times == sorted(times),
          True)
    costs = doc.pop("costs", None)
    check(f"{name}: costs are the four figures, in seconds, none beyond the run",
          isinstance(costs, dict) and sorted(costs) == ["exit_snapshot_s", "exit_write_s",
                                                        "startup_s", "steps_s"] and
          all(isinstance(v, float) and 0 <= v <= (end - start) / 1e6 for v in costs.values()) and
          (costs["steps_s"] > 0) == bool(steps) and
          (costs["exit_snapshot_s"] > 0) == (exit_step is not None), True)
    t = f"gmemlint-{pid}"
    want = {
        "format": "gmemlint-torch", "version": 1, "pid": pid, "argv": [PROG, name.split()[0]],
        "rank": None, "world_size": None, "torch_version": "2.11.0+fake",
        "telemetry": f"{t}.json",
        "allocator": {"backend": "native", "caching": True, "expandable_segments": False,
                      "settings": None},
        "devices": [{"index": 0, "name": "Fake GPU", "total_bytes": 80 * 1024**3}],
        "history": history, "steps": steps, "ooms": [],
        "snapshots": [], "errors": errors,
    }
    if oom is not None:
        want["ooms"] = [dict({"device": 0, "request_bytes": 64 * 1024**3,
                              "device_limit_bytes": 80 * 1024**3,
                              "device_free_bytes": 40 * 1024**3,
                              "allocated_bytes": 6 * MiB, "reserved_bytes": 14 * MiB}, **oom)]
        for field in ("snapshot", "pickle"):
            if want["ooms"][0][field]:
                want["ooms"][0][field] = want["ooms"][0][field].replace("T", t)
    if peak:
        want["snapshots"].append({"reason": "peak", "file": f"{t}.torch-peak.json",
                                  "pickle": f"{t}.torch-peak.pickle", "step": peak[1],
                                  "traces": False})
    if exit_step is not None:
        want["snapshots"].append({"reason": "exit", "file": f"{t}.torch-exit.json",
                                  "pickle": f"{t}.torch-exit.pickle", "step": exit_step,
                                  "traces": True})
    check(f"{name}: companion", doc, want)
    return t


STANDIN_FRAMEWORK_FILE = "/opt/venv/lib/python3.12/site-packages/torch/nn/modules/linear.py"


def snapshot_check(name, out_dir, t, part, entries):
    """A snapshot file is _snapshot() unchanged (NaN written as null), its pickle the same."""
    for suffix in ("json", "pickle"):
        exists = os.path.exists(os.path.join(out_dir, f"{t}.torch-{part}.{suffix}"))
        check(f"{name}: {part} snapshot .{suffix} written", exists, True)
        if not exists:
            return None
    snap = load(os.path.join(out_dir, f"{t}.torch-{part}.json"))
    with open(os.path.join(out_dir, f"{t}.torch-{part}.pickle"), "rb") as f:
        pickled = pickle.load(f)
    if part == "peak":
        check(f"{name}: peak snapshot keys", sorted(snap), ["device_traces", "segments"])
        check(f"{name}: peak has no traces", snap["device_traces"], [])
    else:
        check(f"{name}: {part} snapshot keys", sorted(snap),
              ["allocator_settings", "device_traces", "external_annotations", "note",
               "segments"])
        check(f"{name}: {part} NaN written as null", snap["note"], None)
        check(f"{name}: {part} trace entries", len(snap["device_traces"][0]), entries)
        pickled["note"] = None
        traces = pickled["device_traces"][0]
        check(f"{name}: {part} keeps each entry's frames up to the program's line (of 3)",
              [[f["filename"] for f in e["frames"]] for e in snap["device_traces"][0]],
              [[STANDIN_FRAMEWORK_FILE, "prog.py"]] * len(traces))
    check(f"{name}: {part} pickle holds the same snapshot", json.loads(json.dumps(pickled)), snap)
    return snap


def same_run(name, base, shimmed, stderr=None):
    check(f"{name}: exit status as without the shim", shimmed[0], base[0])
    check(f"{name}: stdout byte-identical to the run without the shim", shimmed[1], base[1])
    check(f"{name}: stderr", shimmed[2], base[2] if stderr is None else base[2] + stderr)


ROOT = tempfile.TemporaryDirectory()


def scenario(name, mode, env=None):
    d0, d1 = tempfile.mkdtemp(dir=ROOT.name), tempfile.mkdtemp(dir=ROOT.name)
    base = run(mode, False, d0, env)
    shimmed = run(mode, True, d1, env)
    check(f"{name}: no files without the shim", files(d0), [])
    return base, shimmed, d1


SNAPSHOT_FILES = ["{t}.torch-exit.json", "{t}.torch-exit.pickle", "{t}.torch-oom-1.json",
                  "{t}.torch-oom-1.pickle", "{t}.torch-peak.json", "{t}.torch-peak.pickle",
                  "{t}.torch.json"]
STEP_TAGS = [f"_set_memory_metadata gmemlint.step={k}" for k in (1, 2, 3)]
PEAK = "memory_snapshot include_traces=False"

# 1. a training loop: recording starts at CUDA init, a step per optimizer.step(), the OOM
if True:
    base, shimmed, d1 = scenario("train", "train")
    same_run("train", base, shimmed)
    check("train: the stand-in's log without the shim", base[3],
          ["shadowed sitecustomize (shim loaded: False)", "cuda init"])
    check("train: the shadowed sitecustomize ran first; recording started at CUDA init",
          shimmed[3], ARMED + STARTED + [PEAK, STEP_TAGS[0], PEAK, STEP_TAGS[1], PEAK,
                                         STEP_TAGS[2], "_snapshot", "_snapshot"])
    history = {"recorded": True, "reason": None, "stacks": "python", "max_entries": 50000,
               "entries": 17, "overflowed": False}
    t = companion_check("train", d1, shimmed[4], shimmed[5],
                        steps_of(FIGURES, ["optimizer"] * 3),
                        {"snapshot": "T.torch-oom-1.json", "pickle": "T.torch-oom-1.pickle",
                         "snapshot_error": None}, 3, history, [])
    if t:
        check("train: files", files(d1), [f.format(t=t) for f in SNAPSHOT_FILES])
        exit_snap = snapshot_check("train", d1, t, "exit", 17) or {"device_traces": [[]]}
        oom_snap = snapshot_check("train", d1, t, "oom-1", 17) or {"device_traces": [[{}]]}
        check("train: the OOM snapshot's last entry", oom_snap["device_traces"][0][-1].get("action"),
              "oom")
        check("train: trace entries name their step",
              [e["user_metadata"] for e in exit_snap["device_traces"][0] if e["action"] == "alloc"],
              ["gmemlint.step=0", "gmemlint.step=0", "gmemlint.step=1", "gmemlint.step=1",
               "gmemlint.step=2", "gmemlint.step=2"])
        peak = snapshot_check("train", d1, t, "peak", 0) or {"segments": []}
        check("train: peak segments (step 3's)", [s["total_size"] for s in peak["segments"]],
              [2 * MiB, 4 * MiB, 4 * MiB, 4 * MiB])

# 2. a process that never starts CUDA (torchrun's launcher) writes nothing
base, shimmed, d1 = scenario("nocuda", "nocuda")
same_run("nocuda", base, shimmed)
check("nocuda: nothing recorded", shimmed[3], ARMED)
check("nocuda: no files", files(d1), [])

# 3. gmemlint_torch.step() after optimizer.step() from step 2 on: step 2 is marked by both (the
# hook cannot know a user marker is coming), step 3 by the user's call only. The segments (and
# the largest free block) are taken only at a new peak of reserved memory: step 3 reserves no
# more than step 2, so it has none
base, shimmed, d1 = scenario("userstep", "userstep")
same_run("userstep", base, shimmed)
user_steps = steps_of(FIGURES[:2] + FIGURES[1:], ["optimizer", "optimizer", "user", "user"])
user_steps[2]["largest_free_block_bytes"] = None
companion_check("userstep", d1, shimmed[4], shimmed[5], user_steps,
                {"snapshot": "T.torch-oom-1.json", "pickle": "T.torch-oom-1.pickle",
                 "snapshot_error": None}, 4, history, [], peak=("peak", 4))

# 4. the history reaches max_entries: overflowed
base, shimmed, d1 = scenario("overflow", "train", {"GMEMLINT_TORCH_MAX_ENTRIES": "5"})
same_run("overflow", base, shimmed)
companion_check("train (overflow)", d1, shimmed[4], shimmed[5],
                steps_of(FIGURES, ["optimizer"] * 3),
                {"snapshot": "T.torch-oom-1.json", "pickle": "T.torch-oom-1.pickle",
                 "snapshot_error": None}, 3,
                dict(history, max_entries=5, entries=5, overflowed=True), [])

# 5. the snapshot fails: the program's run unchanged, the failure in errors and one stderr note
failing = {"FAKE_TORCH_SNAPSHOT_RAISES": "1"}
base, shimmed, d1 = scenario("snapshot fails", "train", failing)
same_run("snapshot fails", base, shimmed,
         "gmemlint_torch: OOM snapshot: RuntimeError: the stand-in's snapshot failed\n")
companion_check("train (snapshot fails)", d1, shimmed[4], shimmed[5],
                steps_of(FIGURES, ["optimizer"] * 3),
                {"snapshot": None, "pickle": None,
                 "snapshot_error": "RuntimeError: the stand-in's snapshot failed"}, None,
                dict(history, entries=0),
                ["OOM snapshot: RuntimeError: the stand-in's snapshot failed",
                 "exit snapshot: RuntimeError: the stand-in's snapshot failed"])

# 6. the output folder cannot be written (its parent is a file): nothing else changes
if True:
    blocker = os.path.join(tempfile.mkdtemp(dir=ROOT.name), "not-a-folder")
    open(blocker, "w").close()
    env = {"GMEMRT_OUTPUT": os.path.join(blocker, "gmemlint-%p.json")}
    base, shimmed, d1 = scenario("read-only", "train", env)
    note = shimmed[2][len(base[2]):]
    same_run("unwritable output", base, shimmed, note)
    check("unwritable output: one note on stderr", bool(re.fullmatch(
        r"gmemlint_torch: OOM snapshot: NotADirectoryError: \[Errno 20\] Not a directory: "
        r"'.*/not-a-folder/gmemlint-\d+\.torch-oom-1\.json\.tmp-\d+'\n", note)), True)
    check("unwritable output: no files", files(d1), [])

# 7. an uncaught exception: the traceback and exit status unchanged, the exit snapshot written
base, shimmed, d1 = scenario("raise", "raise")
same_run("raise", base, shimmed)
check("raise: the program's traceback", base[2].splitlines()[-1],
      "RuntimeError: the program's own error")
check("raise: exit status", base[0], 1)
companion_check("raise", d1, shimmed[4], shimmed[5], steps_of(FIGURES, ["optimizer"] * 3),
                {"snapshot": "T.torch-oom-1.json", "pickle": "T.torch-oom-1.pickle",
                 "snapshot_error": None}, 3, history, [])

# 8. the cudaMallocAsync backend keeps no history or segments: steps only, and no failures
base, shimmed, d1 = scenario("cudaMallocAsync", "train", {"FAKE_TORCH_BACKEND": "cudaMallocAsync"})
same_run("cudaMallocAsync", base, shimmed)
check("cudaMallocAsync: calls", shimmed[3],
      ARMED + ["cuda init", "register_optimizer_step_post_hook"])
doc = load(os.path.join(d1, [f for f in files(d1) if f.endswith(".torch.json")][0]))
check("cudaMallocAsync: files", files(d1), [f"gmemlint-{doc['pid']}.torch.json"])
check("cudaMallocAsync: allocator", doc["allocator"]["backend"], "cudaMallocAsync")
check("cudaMallocAsync: history", doc["history"],
      {"recorded": False, "reason": "allocator backend cudaMallocAsync keeps no history",
       "stacks": "python", "max_entries": 50000, "entries": 0, "overflowed": False})
for s in doc["steps"]:
    s.pop("time_us")
check("cudaMallocAsync: steps", doc["steps"],
      [dict(s, largest_free_block_bytes=None) for s in steps_of(FIGURES, ["optimizer"] * 3)])
check("cudaMallocAsync: no OOM record, snapshot or error",
      (doc["ooms"], doc["snapshots"], doc["errors"]), ([], [], []))

# 9. at startup the shim loads itself and nothing else: the program's sys.modules is unchanged
# (without GMEMRT_OUTPUT, i.e. not under gmemrun, it does nothing but run the shadowed one)
modules = []
for paths, output in (([STANDIN, SHADOWED], "gmemlint-%p.json"),
                      ([SHIM, STANDIN, SHADOWED], "gmemlint-%p.json"),
                      ([SHIM, STANDIN, SHADOWED], "")):
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(paths), GMEMRT_OUTPUT=output)
    p = subprocess.run([sys.executable, "-c", "import sys; print(sorted(sys.modules))"],
                       env=env, capture_output=True, text=True, cwd=ROOT.name)
    modules.append(set(eval(p.stdout)))
check("modules the shim adds at startup", sorted(modules[1] - modules[0]), ["gmemlint_torch"])
check("modules the shim removes", sorted(modules[0] - modules[1]), [])
check("outside gmemrun the shim loads nothing", modules[2], modules[0])

for failure in failures:
    print("FAIL " + failure)
print(f"{'FAILED' if failures else 'ok'}: torch shim")
sys.exit(1 if failures else 0)
