#!/usr/bin/env python3
"""The analyzer's stages include only the stages before them (docs/architecture.md).

A source may include headers of its own folder and of any folder with a lower rank; two folders
of the same rank (the front end and the flow engine) do not include each other. The rules sit
above the runtime view: the stages below them that list or call rules (the SARIF printer, the
join) are given the rule table. gmemcc and gmemrun stand alone: they include nothing of the
analyzer but their own folder. A file past 800 lines says why in its
opening comment.
"""
import glob
import os
import re
import sys

RANK = {
    "support": 0,
    "model": 1,
    "frontend": 2,
    "flow": 2,
    "program": 2,
    "findings": 3,
    "runtime_view": 4,
    "rules": 5,
    "driver": 6,
}
STANDALONE = {"gmemcc", "gmemrun"}
LONG_FILE = 800

root = sys.argv[1] if len(sys.argv) > 1 else "."
os.chdir(root)
problems = []
folders = {p.split("/")[1] for p in glob.glob("analyzer/*/")}
for folder in sorted(folders - set(RANK) - STANDALONE):
    problems.append(f"analyzer/{folder}/: a folder with no rank in tests/style/layering.py")

def stage_of(path):
    parts = path.split("/")
    if parts[0] == "runtime":
        return "runtime"
    if parts[0] == "rules":
        return "rules"
    return parts[1]

sources = sorted(glob.glob("analyzer/*/*.[ch]") + glob.glob("rules/*.[ch]"))
for path in sources + sorted(glob.glob("runtime/*.[ch]")):
    with open(path) as f:
        text = f.read()
    stage = stage_of(path)
    for lineno, line in enumerate(text.split("\n"), 1):
        if stage == "runtime":
            break  # the runtime is one library; only its file sizes are checked here
        m = re.match(r'\s*#\s*include\s+"([^"]+)"', line)
        if not m:
            continue
        target = m.group(1)
        head = target.split("/")[0]
        if "/" not in target:
            # generated configuration headers of the standalone programs
            if stage in STANDALONE and target.endswith("_config.h"):
                continue
            problems.append(f"{path}:{lineno}: include \"{target}\" names no stage "
                            "(write \"<stage>/<header>\")")
            continue
        dest = head
        if stage in STANDALONE:
            if dest != stage:
                problems.append(f"{path}:{lineno}: {stage} includes \"{target}\" (it stands alone)")
        elif dest not in RANK:
            problems.append(f"{path}:{lineno}: include \"{target}\": no such stage")
        elif dest == stage:
            continue
        elif RANK[dest] >= RANK[stage]:
            problems.append(f"{path}:{lineno}: {stage} (rank {RANK[stage]}) includes "
                            f"\"{target}\" from {dest} (rank {RANK[dest]})")
    nlines = text.count("\n")
    if nlines > LONG_FILE:
        opening = text.split("*/", 1)[0] if text.lstrip().startswith("/*") else ""
        if "past 800 lines" not in opening:
            problems.append(f"{path}: {nlines} lines; split it by concern, or say in its opening "
                            "comment why it is one file (\"past 800 lines: ...\")")

for p in problems:
    print(p)
if problems:
    sys.exit(1)
print(f"layering ok: {len(sources)} files")
