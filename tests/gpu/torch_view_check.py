#!/usr/bin/env python3
"""Checks what the PyTorch view wrote for the tests/gpu/torch_NAME.py runs (tests/gpu/run.sh,
files DIR/tv_NAME-PID.torch.json and their snapshots, docs/telemetry-format.md "The PyTorch
view"), and summarises the cost runs.
Usage: torch_view_check.py companions DIR   -- a summary line per run; exit 1 on a missing file,
                                               an error the shim kept, or a count not as designed
       torch_view_check.py cost FILE        -- lines `<way> step_ms=.. wall_s=..`, one round
                                               starting at each `plain`: medians and overhead"""
import glob
import json
import os
import re
import statistics
import sys

# per script: steps (None: not checked) and whether an out-of-memory error is made on purpose
DESIGNED = {
    "leak_steps": (12, False),  # SGD's step hook, 12 steps
    "clean_train": (12, False),
    "oom_fragmentation": (None, True),
    "oom_capacity": (None, True),
    "regrowth": (24, False),  # gmemlint_torch.step() each step
    "cache_growth": (12, False),
    "leak_expandable": (12, False),  # leak_steps with expandable_segments:True
    "serve_leak": (0, False),  # a serving loop: no optimizer, no mark (issue 41)
    "serve_clean": (0, False),
    "serve_overflow": (0, False),  # serve_leak with a history of 1000 entries: it overflows
    "eval_leak": (30, False),  # an evaluation loop between optimizer steps (issue 41)
    "eval_clean": (30, False),
}


def companions(res):
    failed = []
    for name, (steps, oom) in DESIGNED.items():
        paths = glob.glob(f"{res}/tv_{name}-*.torch.json")
        if len(paths) != 1:
            failed.append(f"{name}: {len(paths)} companion files (expected 1)")
            continue
        doc = json.load(open(paths[0]))
        history = doc.get("history") or {}
        files = [o.get("snapshot") for o in doc.get("ooms", [])]
        files += [s.get("file") for s in doc.get("snapshots", [])]
        missing = [f for f in files if f and not os.path.exists(os.path.join(res, f))]
        print(f"torch view {name}: {len(doc.get('steps', []))} steps "
              f"({', '.join(sorted({s['source'] for s in doc.get('steps', [])})) or 'none'}), "
              f"{len(doc.get('ooms', []))} ooms, snapshots "
              f"{[s.get('reason') for s in doc.get('snapshots', [])]}, history "
              f"{history.get('entries')} entries (overflowed {history.get('overflowed')}), "
              f"allocator {doc.get('allocator')}, errors {doc.get('errors')}")
        for o in doc.get("ooms", []):
            print(f"torch view {name}: oom of {o['request_bytes'] >> 20} MiB, device free "
                  f"{o['device_free_bytes'] >> 20} MiB of {o['device_limit_bytes'] >> 20} MiB, "
                  f"allocated {(o.get('allocated_bytes') or 0) >> 20} MiB, reserved "
                  f"{(o.get('reserved_bytes') or 0) >> 20} MiB, snapshot {o.get('snapshot')}")
        problems = []
        if doc.get("format") != "gmemlint-torch" or doc.get("version") != 1:
            problems.append(f"format {doc.get('format')} version {doc.get('version')}")
        if doc.get("errors"):
            problems.append(f"errors {doc['errors']}")
        if not history.get("recorded"):
            problems.append(f"history not recorded: {history.get('reason')}")
        if steps is not None and len(doc.get("steps", [])) != steps:
            problems.append(f"{len(doc.get('steps', []))} steps, designed {steps}")
        if oom != bool(doc.get("ooms")):
            problems.append(f"{len(doc.get('ooms', []))} ooms, designed {int(oom)}")
        if oom and not all(files[:1]):
            problems.append("the out-of-memory error has no snapshot")
        if "exit" not in [s.get("reason") for s in doc.get("snapshots", [])]:
            problems.append("no exit snapshot")
        if missing:
            problems.append(f"named but absent: {missing}")
        if history.get("overflowed") != (name == "serve_overflow"):
            problems.append(f"history overflowed {history.get('overflowed')}, designed "
                            f"{name == 'serve_overflow'}")
        failed += [f"{name}: {p}" for p in problems]
    ranks = [json.load(open(p)) for p in glob.glob(f"{res}/tv_ranks-*.torch.json")]
    print(f"torch view ranks (torchrun, 2 processes): companions of ranks "
          f"{sorted((d.get('rank'), d.get('world_size')) for d in ranks)}, steps "
          f"{[len(d.get('steps', [])) for d in ranks]}, errors {[d.get('errors') for d in ranks]}")
    if sorted((d.get("rank"), d.get("world_size"), len(d.get("steps", []))) for d in ranks) != [
            (0, 2, 3), (1, 2, 3)] or any(d.get("errors") for d in ranks):
        failed.append("ranks: not one companion per rank (0 and 1 of 2, 3 steps each, no errors)")
    for line in failed:
        print(f"FAIL: torch view {line}")
    return 1 if failed else 0


def cost(path):
    rounds = []
    for line in open(path):
        fields = {k: float(v) for k, v in re.findall(r"(\w+)=([\d.]+)", line)}
        if not fields:
            continue
        way = line.split()[0]
        if way == "plain":
            rounds.append({})
        if rounds:
            rounds[-1][way] = fields
    if not rounds:
        print(f"torch cost: no rounds in {path}")
        return 1
    ways = [w for w in rounds[0] if all(w in r for r in rounds)]
    for key, label in (("step_ms", "median step"), ("wall_s", "whole run (import, exit snapshot)")):
        base = statistics.median(r["plain"][key] for r in rounds)
        for way in (w for w in ways if w != "plain"):
            value = statistics.median(r[way][key] for r in rounds)
            ratio = statistics.median(r[way][key] / r["plain"][key] for r in rounds)
            unit = "ms" if key == "step_ms" else "s"
            print(f"torch cost, {label}, {way}: {value:.4g} {unit} (plain {base:.4g} {unit}), "
                  f"median of {len(rounds)} per-round ratios {ratio:.3f}: "
                  f"{(ratio - 1) * 100:+.1f}%")
    return 0


if __name__ == "__main__":
    if len(sys.argv) != 3 or sys.argv[1] not in ("companions", "cost"):
        sys.exit("torch_view_check: usage: torch_view_check.py companions DIR | cost FILE")
    sys.exit(companions(sys.argv[2]) if sys.argv[1] == "companions" else cost(sys.argv[2]))
