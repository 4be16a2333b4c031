#!/usr/bin/env python3
"""Recall by category, from one or more evaluations (evaluate.sh's evaluation-details.tsv).

Usage: categories.py [--labels=FILE] [--projects=A,B,...] [--list] DETAILS.tsv [DETAILS.tsv...]

Each label of labels.tsv that an evaluation judged (mined or read: found or missed) is put in a
category by its kind: A leaks (leak), B churn (alloc-in-loop), C wrong or double frees
(wrong-family, double-free), D managed memory (managed-*). A label is also counted on the
"member-held" line when the memory it is about lives in an object: its pointer is a member
(the labelled line, read at the commit the label was judged at, passes or frees `x->m`, `x.m`,
`this->m`) or its note says so (member, field, struct, class, object, plan, context). When
several DETAILS files judge the same label, the first that has it counts. Clean labels are
counted as "clean reported". --projects limits the labels counted; --list prints each counted
label with its category and outcome.

Prints one table per half and one over all, with found/judged and recall per category.
Exit status: 0; 2 on bad usage or unreadable inputs.
"""
import collections
import csv
import os
import re
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
CATEGORIES = [("A", "leaks"), ("B", "churn"), ("C", "wrong/double free"), ("D", "managed")]
KIND_CATEGORY = {"leak": "A", "alloc-in-loop": "B", "wrong-family": "C", "double-free": "C"}
MEMBER_NOTE = re.compile(r"\b(member|members|field|struct|class|object|plan|context|this)\b", re.I)
MEMBER_EXPR = re.compile(r"(->\s*\w|\w\s*\.\s*[A-Za-z_]\w*\s*[,)\]]|\bthis\b)")


def fail(msg):
    print("categories.py: error: " + msg, file=sys.stderr)
    sys.exit(2)


def read_rows(path):
    try:
        with open(path, newline="") as f:
            lines = [line for line in f if not line.startswith("#")]
    except OSError as e:
        fail("%s: %s" % (path, e.strerror))
    return list(csv.DictReader(lines, delimiter="\t"))


def category(kind):
    if kind.startswith("managed"):
        return "D"
    return KIND_CATEGORY.get(kind)


def source_line(project, commit, path, line):
    """The labelled line at the commit it was judged at, or "" when it cannot be read."""
    src = os.path.join(os.environ.get("REALCODE", "/work/realcode"), "src", project)
    rev = commit if re.fullmatch(r"[0-9a-f]{40}", commit or "") else "HEAD"
    try:
        text = subprocess.run(["git", "-C", src, "show", "%s:%s" % (rev, path)], check=True,
                              capture_output=True, text=True, errors="replace").stdout
    except (OSError, subprocess.CalledProcessError):
        return ""
    lines = text.splitlines()
    return lines[line - 1] if 0 < line <= len(lines) else ""


def member_held(label):
    if MEMBER_NOTE.search(label["note"]):
        return True
    commit = label["parent"] if label["source"] != "reading" else "HEAD"
    try:
        line = int(label["line"])
    except ValueError:
        return False
    return bool(MEMBER_EXPR.search(source_line(label["project"], commit, label["file"], line)))


def main(argv):
    labels_path = os.path.join(HERE, "labels.tsv")
    projects = None
    listing = False
    paths = []
    for a in argv:
        if a.startswith("--labels="):
            labels_path = a.split("=", 1)[1]
        elif a.startswith("--projects="):
            projects = set(p for p in a.split("=", 1)[1].split(",") if p)
        elif a == "--list":
            listing = True
        elif a.startswith("-"):
            fail("unknown option " + a)
        else:
            paths.append(a)
    if not paths:
        fail("usage: categories.py [--labels=FILE] [--projects=A,B] [--list] DETAILS.tsv...")
    labels = {}
    for row in read_rows(labels_path):
        labels[(row["project"], row["file"], row["line"], row["function"])] = row
    outcome = {}
    for path in paths:
        for row in read_rows(path):
            if row.get("what") not in ("mined", "reading", "clean"):
                continue
            key = (row["project"], row["file"], row["line"], row["function"])
            outcome.setdefault(key, (row["outcome"], row["half"]))
    tables = collections.defaultdict(lambda: collections.defaultdict(lambda: [0, 0]))
    for key, (result, half) in sorted(outcome.items()):
        label = labels.get(key)
        if not label or (projects is not None and key[0] not in projects):
            continue
        if label["kind"] == "clean":
            names = ["clean reported"]
            hit = result == "reported"
        else:
            cat = category(label["kind"])
            if not cat:
                continue
            names = [cat]
            if member_held(label):
                names.append("member-held")
            hit = result == "found"
        for table in (half, "all"):
            for name in names:
                tables[table][name][0] += hit
                tables[table][name][1] += 1
        if listing:
            print("\t".join([key[0], key[1], key[2], "+".join(names), result]))
    for table in sorted(tables, key=lambda t: (t == "all", t)):
        print("%s:" % table)
        rows = [(c + " " + name, c) for c, name in CATEGORIES]
        rows += [("member-held (any category)", "member-held"), ("clean reported", "clean reported")]
        for title, name in rows:
            found, judged = tables[table][name]
            recall = "%d%%" % round(100.0 * found / judged) if judged else "-"
            print("  %-28s %3d/%-3d %s" % (title, found, judged, recall))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
