#!/usr/bin/env python3
"""The first-contact ledger: what gmemlint did the first time it met each project, kept forever.

Why: the measured half's figures are made of survivors (a project a fix was drawn from leaves the
half), so they flatter the tool. The honest figure is its result on a project before any fix was
drawn from it, recorded once and never rewritten: first_contact.tsv (one row a project) and
first_contact_findings.tsv (each finding of that run with its verdict), both append-only.

Usage:
  first_contact.py record NAME --label LABEL [--realcode DIR] [--note TEXT]
                   [--gmemlint-commit SHA] [--date YYYY-MM-DD]
      Appends NAME's row and its findings' rows from run.sh's output in $REALCODE/out/LABEL
      (NAME.GEN.json, one generator as evaluate.py picks it; results.tsv for the file counts;
      evaluation-details.tsv, when evaluate.py wrote one, for the mined labels) and the verdicts
      of ledger.tsv, matched as evaluate.py matches them. Refused (exit 2) when NAME already has
      a first-contact row, when any of its findings is unjudged, or when NAME is not in the
      measured half. The gmemlint commit defaults to the commit checked out here.
  first_contact.py summary [--tsv]
      Per-project rows and the totals: precision with debatable findings left out
      (true / (true + false + duplicate)) and counted as not useful
      (true / (true + false + duplicate + debatable)); recall = labels found / labels.
  first_contact.py check [--git-dir DIR]
      The append-only guarantee: every data row of every committed version of both files (git
      log of each file in DIR, default the repository holding them) is still there, unchanged
      and in the same order, in the working copy. Exit 1 naming the first row changed or removed.

Common options: --dir DIR (where first_contact.tsv and first_contact_findings.tsv live; default
next to this script), --repos, --labels, --ledger (default: next to this script).
Exit status: 0 done, 1 check failed, 2 bad usage, bad input or a refused record.
"""
import argparse
import datetime
import os
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import evaluate  # noqa: E402  (read_tsv, read_repos, pick_run, load_findings, judge, matches)

PROG = "first_contact"
CONTACTS = "first_contact.tsv"
FINDINGS = "first_contact_findings.tsv"
CONTACT_COLUMNS = ["project", "repo", "commit", "date", "gmemlint", "source", "files", "analysed",
                   "findings", "true", "false", "duplicate", "debatable", "unjudged", "labels",
                   "labels_found", "note"]
FINDING_COLUMNS = ["project", "gmemlint", "rule", "file", "line", "function", "fingerprint",
                   "verdict", "why"]
COUNTS = ["findings", "true", "false", "duplicate", "debatable", "unjudged"]
JUDGED = ["true", "false", "duplicate", "debatable"]


class Bad(Exception):
    pass


def table_lines(text):
    """The header and data lines of a ledger file's text (comments and blank lines left out)."""
    return [l for l in text.split("\n") if l.strip() and not l.startswith("#")]


def read_table(path, columns):
    """Rows of one of the two ledger files as dicts; the header must name COLUMNS in order."""
    try:
        text = open(path, encoding="utf-8").read()
    except OSError as e:
        raise Bad(f"{path}: {e.strerror}")
    lines = table_lines(text)
    if not lines or lines[0].split("\t") != columns:
        raise Bad(f"{path}: the header is not {' '.join(columns)}")
    rows = []
    for n, line in enumerate(lines[1:], 2):
        cells = line.split("\t")
        if len(cells) != len(columns):
            raise Bad(f"{path}: data line {n}: {len(cells)} columns, expected {len(columns)}")
        rows.append(dict(zip(columns, cells)))
    return rows


def append(path, lines):
    """Appends LINES at the end of PATH, after a newline if the file lacks its last one."""
    with open(path, "a+", encoding="utf-8") as fh:
        fh.seek(0, os.SEEK_END)
        if fh.tell():
            fh.seek(fh.tell() - 1)
            last = fh.read(1)
            fh.seek(0, os.SEEK_END)
            if last != "\n":
                fh.write("\n")
        for line in lines:
            fh.write(line + "\n")


def cell(text, what):
    if "\t" in text or "\n" in text:
        raise Bad(f"{what} holds a tab or a newline")
    return text if text else "-"


def git_head():
    r = subprocess.run(["git", "-C", HERE, "rev-parse", "HEAD"], capture_output=True, text=True)
    if r.returncode != 0:
        raise Bad("no commit checked out here to name the gmemlint commit: give --gmemlint-commit")
    return r.stdout.strip()


def ledger_rows(findings, project, ledger):
    """Each finding's ledger row, by the keys and precedence of evaluate.judge: rule, file,
    function and fingerprint (the last such row), else rule, file and line (the first)."""
    by_print, by_line = {}, {}
    for row in ledger:
        if row["project"] != project:
            continue
        by_print[(row["rule"], row["file"], row["function"], row["fingerprint"])] = row
        by_line.setdefault((row["rule"], row["file"], row["line"]), row)
    out = []
    for f in findings:
        row = by_print.get((f["rule"], f["file"], f["function"], f["fingerprint"]))
        if row is None:
            row = by_line.get((f["rule"], f["file"], str(f["line"])))
        out.append(row)
    return out


def results_row(rundir, name, gen):
    """files and analysed of NAME's GEN lint in RUNDIR/results.tsv (count.py's columns), else -."""
    path = os.path.join(rundir, "results.tsv")
    if not os.path.exists(path):
        return "-", "-"
    header = None
    for line in open(path, encoding="utf-8"):
        cells = line.rstrip("\n").split("\t")
        if header is None:
            header = cells
            continue
        row = dict(zip(header, cells))
        if row.get("project") == name and row.get("generator") == gen:
            return row.get("files", "-"), row.get("analysed", "-")
    return "-", "-"


def labels_of(name, labels, findings, rundir):
    """(labels, labels_found, remark): NAME's defect labels (clean functions are not defects);
    read labels are looked for in the run (evaluate.matches, its window), mined ones in the
    outcomes evaluate.py wrote for their parents (evaluation-details.tsv); '-' when a mined label
    has no outcome there."""
    mine = [l for l in labels if l["project"] == name and l["kind"] != "clean"]
    found = sum(bool(evaluate.matches(l, findings, 3)) for l in mine if l["source"] == "reading")
    mined = [l for l in mine if l["source"] != "reading"]
    if not mined:
        return str(len(mine)), str(found), ""
    outcomes = {}
    details = os.path.join(rundir, "evaluation-details.tsv")
    if os.path.exists(details):
        for d in evaluate.read_tsv(details, ["what", "project", "rule", "file", "line", "function",
                                             "outcome", "source_or_fingerprint"]):
            if d["what"] == "mined" and d["project"] == name:
                outcomes[(d["rule"], d["file"], d["line"], d["function"], d["source_or_fingerprint"])] = d["outcome"]
    got = [outcomes.get((l["rule"], l["file"], l["line"], l["function"], l["source"])) for l in mined]
    if any(o not in ("found", "missed") for o in got):
        return str(len(mine)), "-", (f"labels found not known: {len(mined)} mined label(s) without an "
                                     "outcome in evaluation-details.tsv (run evaluate.sh on this label)")
    return str(len(mine)), str(found + got.count("found")), ""


def record(a):
    contacts = os.path.join(a.dir, CONTACTS)
    finding_file = os.path.join(a.dir, FINDINGS)
    name = a.name
    earlier = [r for r in read_table(contacts, CONTACT_COLUMNS) if r["project"] == name]
    read_table(finding_file, FINDING_COLUMNS)
    if earlier:
        src = earlier[0]["source"]
        raise Bad(f"{name} already has a first-contact row ({src if src.startswith('run:') else 'history'}, "
                  f"gmemlint {earlier[0]['gmemlint'][:12]}): a first contact is recorded once")
    try:
        repos = evaluate.read_repos(a.repos)
        if name not in repos:
            raise Bad(f"{name} is not in {a.repos}")
        if repos[name]["half"] != "measured":
            raise Bad(f"{name} is in the {repos[name]['half']} half: a first contact is a measured "
                      "project's, before any fix is drawn from it")
        realcode = a.realcode or os.environ.get("REALCODE", "/work/realcode")
        rundir = os.path.join(realcode, "out", a.label)
        gen, path = evaluate.pick_run(rundir, name)
        if path is None:
            raise Bad(f"{rundir}: no run of {name} ({name}.ninja.json, .make.json or .make-n.json)")
        findings = evaluate.load_findings(path, os.path.join(realcode, "src", name))
        ledger = evaluate.read_tsv(a.ledger, ["project", "half", "rule", "file", "line", "function",
                                              "fingerprint", "verdict", "why"])
        labels = evaluate.read_tsv(a.labels, ["project", "half", "source", "parent", "file", "line",
                                              "function", "kind", "rule", "note"])
    except evaluate.Bad as e:
        raise Bad(str(e))
    evaluate.judge(findings, name, ledger)
    rows = ledger_rows(findings, name, ledger)
    unjudged = [f for f in findings if f["verdict"] not in JUDGED]
    if unjudged:
        f = unjudged[0]
        raise Bad(f"{name}: {len(unjudged)} of {len(findings)} finding(s) unjudged in {a.ledger} "
                  f"(first: {f['rule']} {f['file']}:{f['line']} in {f['function'] or '-'}): judge "
                  "every finding by reading before recording a first contact")
    for f, row in zip(findings, rows):  # the same join as evaluate.judge's, so the same verdicts
        assert row is not None and row["verdict"] == f["verdict"], (f, row)
    files, analysed = results_row(rundir, name, gen)
    n_labels, n_found, remark = labels_of(name, labels, findings, rundir)
    note = cell(a.note or "", "--note")
    if remark:
        note = remark if note == "-" else f"{note}; {remark}"
    commit = cell(a.gmemlint_commit or git_head(), "--gmemlint-commit")
    date = a.date or datetime.datetime.now(datetime.timezone.utc).date().isoformat()
    count = {v: sum(f["verdict"] == v for f in findings) for v in JUDGED}
    repo = repos[name]
    row = [name, repo["repo"], repo["commit"], cell(date, "--date"), commit, f"run:{a.label}", files,
           analysed, str(len(findings)), *[str(count[v]) for v in JUDGED], "0", n_labels, n_found, note]
    order = sorted(zip(findings, rows), key=lambda p: (p[0]["file"], p[0]["line"], p[0]["rule"],
                                                       p[0]["function"], p[0]["fingerprint"]))
    lines = ["\t".join([name, commit, f["rule"], f["file"], str(f["line"]), f["function"] or "-",
                        f["fingerprint"] or "-", f["verdict"], r["why"] or "-"]) for f, r in order]
    append(finding_file, lines)
    append(contacts, ["\t".join(row)])
    print(f"{PROG}: recorded {name} ({a.label}, gmemlint {commit[:12]}): {len(findings)} finding(s), "
          f"{count['true']} true, {count['false']} false, {count['duplicate']} duplicate, "
          f"{count['debatable']} debatable; labels found {n_found}/{n_labels}")
    return 0


def number(row, col):
    v = row[col]
    if not v.isdigit():
        raise Bad(f"{row['project']}: {col} '{v}' is not a count")
    return int(v)


def pct(a, b):
    return f"{100.0 * a / b:.0f}%" if b else "-"


def summary(a):
    rows = read_table(os.path.join(a.dir, CONTACTS), CONTACT_COLUMNS)
    header = ["project", "gmemlint", "from", *COUNTS, "precision", "precision_all", "labels_found"]
    table, total = [], dict.fromkeys(COUNTS, 0)
    labels = found = unknown = 0
    for r in rows:
        c = {k: number(r, k) for k in COUNTS}
        for k in COUNTS:
            total[k] += c[k]
        clear = c["true"] + c["false"] + c["duplicate"]
        if r["labels_found"].isdigit() and r["labels"].isdigit():
            labels += int(r["labels"])
            found += int(r["labels_found"])
        else:
            unknown += 1
        table.append([r["project"], r["gmemlint"][:7], r["source"].split(":", 1)[0] if
                      r["source"].startswith("history:") else r["source"], *[str(c[k]) for k in COUNTS],
                      pct(c["true"], clear), pct(c["true"], clear + c["debatable"]),
                      f"{r['labels_found']}/{r['labels']}"])
    clear = total["true"] + total["false"] + total["duplicate"]
    table.append([f"total ({len(rows)} rows)", "", "", *[str(total[k]) for k in COUNTS],
                  pct(total["true"], clear), pct(total["true"], clear + total["debatable"]),
                  f"{found}/{labels}"])
    if a.tsv:
        for r in [header] + table:
            print("\t".join(r))
        return 0
    widths = [max(len(r[i]) for r in [header] + table) for i in range(len(header))]
    for r in [header] + table:
        print("  ".join(c.ljust(w) for c, w in zip(r, widths)).rstrip())
    print(f"precision, debatable left out: true/(true+false+duplicate) = {total['true']}/{clear} = "
          f"{pct(total['true'], clear)}")
    print(f"precision, debatable counted as not useful: true/(true+false+duplicate+debatable) = "
          f"{total['true']}/{clear + total['debatable']} = {pct(total['true'], clear + total['debatable'])}")
    print(f"recall: labels found/labels = {found}/{labels} = {pct(found, labels)}"
          + (f" ({unknown} row(s) whose labels found are not known left out)" if unknown else ""))
    return 0


def git(repo, *args):
    return subprocess.run(["git", "-C", repo, *args], capture_output=True, text=True)


def check(a):
    repo = a.git_dir or a.dir
    top = git(repo, "rev-parse", "--show-toplevel")
    if top.returncode != 0:
        raise Bad(f"{repo}: not in a git repository ({top.stderr.strip()})")
    top = top.stdout.strip()
    failed = 0
    for name, columns in ((CONTACTS, CONTACT_COLUMNS), (FINDINGS, FINDING_COLUMNS)):
        path = os.path.join(os.path.realpath(a.dir), name)
        rel = os.path.relpath(path, os.path.realpath(top))
        try:
            now = table_lines(open(path, encoding="utf-8").read())
        except OSError as e:
            raise Bad(f"{path}: {e.strerror}")
        log = git(top, "log", "--format=%H", "--", rel)
        if log.returncode != 0:
            raise Bad(f"git log -- {rel}: {log.stderr.strip()}")
        versions = log.stdout.split()
        before = failed
        broken = None
        for sha in versions:
            old = git(top, "show", f"{sha}:{rel}")
            if old.returncode != 0:  # the commit that deleted the file: no rows to keep
                continue
            for i, line in enumerate(table_lines(old.stdout)):
                if i >= len(now) or now[i] != line:
                    broken = (sha, i, line)
                    break
            if broken:
                break
        if broken:
            sha, i, line = broken
            what = "the header" if i == 0 else f"data row {i}"
            how = ("out of place (a row was inserted or removed before it)" if line in now
                   else "removed" if i >= len(now) else "changed or removed")
            print(f"{PROG}: error: {name}: {what} of commit {sha[:12]} is {how} in the working "
                  f"copy: {line}", file=sys.stderr)
            failed += 1
        seen = {}
        rows = read_table(path, columns)
        if name == CONTACTS:
            for n, r in enumerate(rows, 1):
                if r["project"] in seen:
                    print(f"{PROG}: error: {name}: {r['project']} has two first-contact rows "
                          f"(data rows {seen[r['project']]} and {n})", file=sys.stderr)
                    failed += 1
                seen.setdefault(r["project"], n)
        if failed == before:
            print(f"{PROG}: {name}: {len(rows)} row(s); every row of {len(versions)} committed "
                  "version(s) kept in order")
    return 1 if failed else 0


def main(argv):
    common = argparse.ArgumentParser(add_help=False)
    common.add_argument("--dir", default=HERE, help="where first_contact.tsv and first_contact_findings.tsv live")
    common.add_argument("--repos", default=os.path.join(HERE, "repos.tsv"))
    common.add_argument("--labels", default=os.path.join(HERE, "labels.tsv"))
    common.add_argument("--ledger", default=os.path.join(HERE, "ledger.tsv"))
    p = argparse.ArgumentParser(prog=PROG, description="The first-contact ledger (see the file's docstring).")
    sub = p.add_subparsers(dest="cmd", required=True)
    r = sub.add_parser("record", parents=[common], help="append a project's first contact from a run")
    r.add_argument("name")
    r.add_argument("--label", required=True, help="the run: $REALCODE/out/LABEL")
    r.add_argument("--realcode", help="default $REALCODE, else /work/realcode")
    r.add_argument("--note", help="our words on the contact")
    r.add_argument("--gmemlint-commit", help="the commit of the binary that ran (default: HEAD here)")
    r.add_argument("--date", help="the run's date (default: today, UTC)")
    s = sub.add_parser("summary", parents=[common], help="per-project rows and totals")
    s.add_argument("--tsv", action="store_true")
    c = sub.add_parser("check", parents=[common], help="every committed row is still there, unchanged, in order")
    c.add_argument("--git-dir", help="the repository whose history is read (default: the one holding --dir)")
    a = p.parse_args(argv)
    try:
        return {"record": record, "summary": summary, "check": check}[a.cmd](a)
    except (Bad, evaluate.Bad) as e:
        print(f"{PROG}: error: {e}", file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
