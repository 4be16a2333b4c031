#!/usr/bin/env python3
"""Carries judged GM001 findings that became GM005 (unfreed-at-exit) over to GM005.

Usage: carry_gm005.py [--ledger=F] [--labels=F] [--write] RUNDIR [NAME...]

GM005 took from GM001 the leaks where the process ends (a return from main or its end, exit(0)):
the same defect, found by the same analysis, now under another id, off by default. RUNDIR holds a
lint of the projects made with `--only=GM001,GM005` (NAME.GEN.json, as run.sh names them; one
generator per project, as evaluate.py picks it). The flow engine decides which leak is which, so
this script reads that lint and guesses nothing:

- a ledger row of GM001 whose file, line and function hold a GM005 finding and no GM001 finding
  in RUNDIR becomes GM005, with that finding's fingerprint (the rule id is part of it); its
  verdict and why are kept: the code and the defect are the same;
- a label read at the pinned commit (source `reading`) whose rules are `GM001` and whose window
  holds a GM005 finding and no GM001 one in RUNDIR gets the rule `GM005`. Mined labels are
  judged at their parent commits, which RUNDIR does not hold: they are listed, not changed.

Without --write it prints what it would change. Exit status: 0, or 2 on bad usage.
"""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import evaluate  # noqa: E402  (the same readers and the same choice of generator)

HERE = os.path.dirname(os.path.abspath(__file__))


def rewrite(path, rows, changed):
    """PATH again with the cells of the CHANGED rows (by their line) replaced; the rest as it was."""
    lines = open(path, encoding="utf-8").read().split("\n")
    for row in rows:
        if row["_where"] not in changed:
            continue
        n = int(row["_where"].rsplit(":", 1)[1])
        keys = [k for k in row if k != "_where"]  # the header's order
        cells = lines[n - 1].split("\t")
        for i, k in enumerate(keys):
            cells[i] = changed[row["_where"]].get(k, cells[i])
        lines[n - 1] = "\t".join(cells)
    with open(path, "w", encoding="utf-8") as fh:
        fh.write("\n".join(lines))


def main(argv):
    opts = {"ledger": os.path.join(HERE, "ledger.tsv"), "labels": os.path.join(HERE, "labels.tsv")}
    write, args = False, []
    for a in argv:
        if a in ("-h", "--help"):
            print(__doc__)
            return 0
        if a == "--write":
            write = True
        elif a.startswith("--") and "=" in a and a[2:].split("=", 1)[0] in opts:
            k, v = a[2:].split("=", 1)
            opts[k] = v
        elif a.startswith("-"):
            print(f"carry_gm005.py: error: unknown option {a}", file=sys.stderr)
            return 2
        else:
            args.append(a)
    if not args:
        print("usage: carry_gm005.py [--ledger=F] [--labels=F] [--write] RUNDIR [NAME...]",
              file=sys.stderr)
        return 2
    rundir, only = args[0], set(args[1:])
    realcode = os.environ.get("REALCODE", "/work/realcode")
    try:
        ledger = evaluate.read_tsv(opts["ledger"], ["project", "rule", "file", "line", "function",
                                                    "fingerprint"])
        labels = evaluate.read_tsv(opts["labels"], ["project", "source", "file", "line", "rule"])
    except evaluate.Bad as e:
        print(f"carry_gm005.py: error: {e}", file=sys.stderr)
        return 2
    projects = sorted({r["project"] for r in ledger} | {l["project"] for l in labels})
    findings = {}
    for name in projects:
        if only and name not in only:
            continue
        _, path = evaluate.pick_run(rundir, name)
        if path:
            findings[name] = evaluate.load_findings(path, os.path.join(realcode, "src", name))

    moved, kept, unlinted = {}, 0, 0
    for row in ledger:
        if row["rule"] != "GM001" or row["project"] not in findings:
            unlinted += row["rule"] == "GM001" and (not only or row["project"] in only)
            continue
        here = [f for f in findings[row["project"]] if f["file"] == row["file"] and
                str(f["line"]) == row["line"] and f["function"] == row["function"]]
        gm005 = [f for f in here if f["rule"] == "GM005"]
        if gm005 and not any(f["rule"] == "GM001" for f in here):
            moved[row["_where"]] = {"rule": "GM005", "fingerprint": gm005[0]["fingerprint"]}
        else:
            kept += 1
    relabelled, mined = {}, []
    for lab in labels:
        if lab["rule"] != "GM001":
            continue
        if lab["source"] != "reading":
            if lab["function"] == "main" and (not only or lab["project"] in only):
                mined.append(lab)
            continue
        if lab["project"] not in findings:
            continue
        near = evaluate.matches(dict(lab, rule="GM001|GM005"), findings[lab["project"]], 3)
        if any(f["rule"] == "GM005" for f in near) and not any(f["rule"] == "GM001" for f in near):
            relabelled[lab["_where"]] = {"rule": "GM005"}

    for where, ch in sorted(moved.items(), key=lambda kv: int(kv[0].rsplit(":", 1)[1])):
        print(f"{where}: ledger GM001 -> GM005")
    for where in sorted(relabelled, key=lambda w: int(w.rsplit(":", 1)[1])):
        print(f"{where}: label GM001 -> GM005")
    for lab in mined:
        print(f"{lab['_where']}: mined label in main left as {lab['rule']} (judged at its parent "
              f"commit, not in {rundir})")
    print(f"ledger: {len(moved)} GM001 row(s) to GM005, {kept} kept as GM001, {unlinted} of "
          f"projects without a lint in {rundir}; labels: {len(relabelled)} to GM005, "
          f"{len(mined)} mined label(s) in main not checked")
    if write:
        rewrite(opts["ledger"], ledger, moved)
        rewrite(opts["labels"], labels, relabelled)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
