#!/usr/bin/env python3
"""The real-code figures: precision from the ledger, recall from the labels, per half.

Usage: evaluate.py [options] RUNDIR [NAME...]

RUNDIR holds one run of bench/realcode/run.sh (NAME.GEN.json per project and generator); one
generator is used per project (ninja, else make, else make-n). NAME... limits the projects.

Options:
  --gmemlint=BIN   lint the parent commit of each mined label with BIN (without it, mined labels
                   are counted as not evaluated)
  --repos=FILE     the projects (default: repos.tsv next to this script); the optional column
                   `half` (development | measured) splits them, absent = development
  --labels=FILE    default labels.tsv next to this script
  --ledger=FILE    default ledger.tsv next to this script
  --tsv=FILE       also write the figures as TSV (default RUNDIR/evaluation.tsv)
  --details=FILE   one row per label and per finding with its outcome (default
                   RUNDIR/evaluation-details.tsv)
  --window=N       a finding counts for a label within N lines of it (default 3)

Environment: REALCODE (default /work/realcode): src/NAME (clones at the pinned commit),
build/NAME/{ninja,make,dryrun}/compile_commands.json, parents/ (made here: a bare clone per
project and a worktree per parent commit); MIRROR (default /work/.mirror).

Precision: every finding of the run is joined with the ledger (project, rule, file, function and
fingerprint; else project, rule, file and line); one not in the ledger is `unjudged`.
precision = true / (true + false + duplicate): debatable findings are left out of both sides,
unjudged ones too (their count is printed next to it). Recall: a label is found when a finding of
one of its rules (`GM001|GM004` lists several) lies within the window of its line in its file;
mined labels (source = a commit) are looked for in a lint of their parent commit as a program (the
label's file and the files of its directory, with the flags of the project's compile database
at the pinned commit); labels read at the pinned commit (source = reading) in the run itself.
A `clean` label is reported when any finding lies in its function in its file.
A label whose rules are all off by default (GM004, GM005: run.sh lints with the default set) is
counted apart (`off_default`), neither found nor missed.
Exit status: 0 when the figures were computed; 2 on bad usage or unreadable inputs.
"""
import collections
import json
import os
import re
import shutil
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
GENERATORS = [("ninja", "ninja"), ("make", "make"), ("make-n", "dryrun")]
VERDICTS = ["true", "false", "duplicate", "debatable", "unjudged"]
# Rules a default lint does not run (rules/*.c .off_by_default): a label only they find is not
# looked for, and GM005's ledger rows (carry_gm005.py) match only a lint that enables it.
OFF_BY_DEFAULT = {"GM004", "GM005"}


class Bad(Exception):
    pass


def read_tsv(path, required):
    """Rows of a TSV with a header line (lines starting with '#' are comments) as dicts."""
    try:
        lines = [l.rstrip("\n") for l in open(path, encoding="utf-8")]
    except OSError as e:
        raise Bad(f"{path}: {e.strerror}")
    rows, header = [], None
    for n, line in enumerate(lines, 1):
        if not line.strip() or line.startswith("#"):
            continue
        cells = line.split("\t")
        if header is None:
            header = cells
            missing = [c for c in required if c not in header]
            if missing:
                raise Bad(f"{path}:{n}: the header lacks column(s) {', '.join(missing)}")
            continue
        if len(cells) != len(header):
            raise Bad(f"{path}:{n}: {len(cells)} columns, the header has {len(header)}")
        row = dict(zip(header, cells))
        row["_where"] = f"{path}:{n}"
        rows.append(row)
    return rows


def read_repos(path):
    """repos.tsv: its header is the comment line `# name<TAB>repo...` (run.sh's format); an optional
    `half` column, by name, else development."""
    try:
        lines = [l.rstrip("\n") for l in open(path, encoding="utf-8")]
    except OSError as e:
        raise Bad(f"{path}: {e.strerror}")
    header = ["name", "repo", "commit", "kind", "build", "recipe", "needs"]
    repos = {}
    for n, line in enumerate(lines, 1):
        if line.startswith("# name\t"):
            header = line[2:].split("\t")
            continue
        if not line.strip() or line.startswith("#"):
            continue
        if line.startswith("name\t"):
            header = line.split("\t")
            continue
        cells = line.split("\t")
        if len(cells) < 3:
            raise Bad(f"{path}:{n}: expected name, repo and commit")
        row = dict(zip(header, cells))
        half = row.get("half", "development") or "development"
        if half not in ("development", "measured"):
            raise Bad(f"{path}:{n}: half '{half}' is neither development nor measured")
        row["half"] = half
        repos[row["name"]] = row
    return repos


def pick_run(rundir, name):
    for gen, _ in GENERATORS:
        path = os.path.join(rundir, f"{name}.{gen}.json")
        if os.path.exists(path):
            return gen, path
    return None, None


def load_findings(path, root):
    try:
        doc = json.load(open(path, encoding="utf-8"))
    except (OSError, ValueError) as e:
        raise Bad(f"{path}: not a gmemlint JSON output ({e})")
    out = []
    for f in doc.get("findings", []):
        file = f.get("file", "")
        rel = os.path.relpath(file, root) if file.startswith(root.rstrip("/") + "/") else file
        out.append({"rule": f.get("rule", ""), "file": rel, "line": int(f.get("line", 0)),
                    "function": f.get("function", ""), "fingerprint": f.get("fingerprint", ""),
                    "message": f.get("message", "")})
    return out


def load_suppressed(path):
    """What the run kept from the report (gmemlint --explain): (rule, reason) of each entry."""
    try:
        doc = json.load(open(path, encoding="utf-8"))
    except (OSError, ValueError):
        return []
    return [(s.get("rule", "") or "-", s.get("reason", "")) for s in doc.get("suppressed", [])]


def judge(findings, project, ledger):
    by_print = {}
    by_line = {}
    for row in ledger:
        if row["project"] != project:
            continue
        by_print[(row["rule"], row["file"], row["function"], row["fingerprint"])] = row["verdict"]
        by_line.setdefault((row["rule"], row["file"], row["line"]), row["verdict"])
    for f in findings:
        v = by_print.get((f["rule"], f["file"], f["function"], f["fingerprint"]))
        if v is None:
            v = by_line.get((f["rule"], f["file"], str(f["line"])), "unjudged")
        f["verdict"] = v
    return findings


def matches(label, findings, window):
    rules = set(label["rule"].split("|"))
    line = int(label["line"])
    return [f for f in findings if f["rule"] in rules and f["file"] == label["file"]
            and abs(f["line"] - line) <= window]


def reported_in(label, findings):
    return [f for f in findings if f["file"] == label["file"] and f["function"] == label["function"]]


def git(*args, check=True):
    r = subprocess.run(["git", *args], capture_output=True, text=True)
    if check and r.returncode != 0:
        raise Bad("git " + " ".join(args) + ": " + r.stderr.strip())
    return r.stdout


def parent_tree(realcode, mirror, repo, name, sha):
    """A worktree of NAME at SHA under REALCODE/parents (a bare clone of the project is kept there,
    so that the shared clones and the snapshots are left as they are)."""
    parents = os.path.join(realcode, "parents")
    os.makedirs(parents, exist_ok=True)
    bare = os.path.join(parents, name + ".git")
    if not os.path.isdir(bare):
        source = os.path.join(realcode, "src", name)
        if not os.path.isdir(os.path.join(source, ".git")):
            source = os.path.join(mirror, repo.replace("/", "+"), "repo")
        git("clone", "-q", "--bare", "--shared", source, bare)
    tree = os.path.join(parents, f"{name}-{sha[:12]}")
    done = os.path.join(tree, ".realcode-done")
    if os.path.exists(done):
        return tree
    if subprocess.run(["git", "--git-dir", bare, "cat-file", "-e", sha + "^{commit}"],
                      capture_output=True).returncode != 0:
        raise Bad(f"{name}: commit {sha} is not in {bare}")
    if os.path.isdir(tree):  # a checkout cut short: made again
        git("--git-dir", bare, "worktree", "remove", "--force", tree, check=False)
        shutil.rmtree(tree, ignore_errors=True)
        git("--git-dir", bare, "worktree", "prune", check=False)
    git("--git-dir", bare, "worktree", "add", "-q", "--no-checkout", "--detach", tree, sha)
    git("-C", tree, "read-tree", sha)
    # Snapshots lack large files (data, prebuilt libraries): every blob the snapshot has is
    # checked out, the others are left out (as run.sh does for the pinned commit).
    staged = [l.split("\t", 1) for l in git("-C", tree, "ls-files", "-s", "-z").split("\0") if l]
    objects = [m.split()[1] for m, _ in staged]
    check = subprocess.run(["git", "-C", tree, "cat-file", "--batch-check=%(objectname) %(objecttype)"],
                           input="\n".join(objects) + "\n", capture_output=True, text=True).stdout.splitlines()
    present = [path for (_, path), c in zip(staged, check) if not c.endswith(" missing")]
    subprocess.run(["git", "-C", tree, "checkout-index", "-f", "-z", "--stdin"],
                   input="\0".join(present) + "\0", capture_output=True, text=True)
    open(done, "w").close()
    return tree


def head_database(realcode, name):
    for _, sub in GENERATORS:
        path = os.path.join(realcode, "build", name, sub, "compile_commands.json")
        if os.path.exists(path):
            return path
    return None


def sources_of(db_path, src_root):
    """The files of a compile database, relative to SRC_ROOT (those outside it left out)."""
    out = []
    for e in json.load(open(db_path, encoding="utf-8")):
        f = e["file"] if os.path.isabs(e["file"]) else os.path.join(e["directory"], e["file"])
        f = os.path.normpath(f)
        if f.startswith(src_root.rstrip("/") + "/"):
            out.append(os.path.relpath(f, src_root))
    return out


def compiled_as_cuda(entry):
    """Whether ENTRY compiles its file as CUDA whatever the file's name (nvcc's `-x cu`, clang's
    `-x cuda`): a project whose CUDA sources are now `.cpp` files still has flags for an old `.cu`."""
    args = entry["arguments"] if "arguments" in entry else entry["command"].split()
    return any(a == "-x" and b in ("cu", "cuda") for a, b in zip(args, args[1:])) or \
        any(a in ("-xcu", "-xcuda", "--x=cu") for a in args)


def parent_database(db_path, src_root, tree, files, out_path, extra=()):
    """The HEAD database's entries for FILES (relative to the project root), paths moved from
    SRC_ROOT to TREE. A file the database lacks borrows the flags of an entry of its directory
    (else of any entry with its extension; for a `.cu` file, else of an entry compiled as CUDA)."""
    entries = json.load(open(db_path, encoding="utf-8"))
    src_root = src_root.rstrip("/")

    def move(s):
        return tree if s == src_root else s.replace(src_root + "/", tree + "/")

    def rel(e):
        f = e["file"] if os.path.isabs(e["file"]) else os.path.join(e["directory"], e["file"])
        f = os.path.normpath(f)
        return os.path.relpath(f, src_root) if f.startswith(src_root + "/") else None

    by_rel = {}
    for e in entries:
        r = rel(e)
        if r is not None:
            by_rel.setdefault(r, e)
    chosen = []
    for f in files:
        e = by_rel.get(f)
        if e is None:
            d, ext = os.path.dirname(f), os.path.splitext(f)[1]
            near = [r for r in by_rel if os.path.dirname(r) == d and r.endswith(ext)] or \
                [r for r in by_rel if r.endswith(ext)] or \
                ([r for r in by_rel if compiled_as_cuda(by_rel[r])] if ext == ".cu" else [])
            if not near:
                continue
            e = dict(by_rel[near[0]])
            old = by_rel[near[0]]["file"]
            e["file"] = os.path.join(src_root, f)
            if "arguments" in e:
                e["arguments"] = [os.path.join(src_root, f) if a in (old, near[0]) or a.endswith("/" + near[0]) else a
                                  for a in e["arguments"]]
            else:
                e["command"] = e["command"].replace(old, os.path.join(src_root, f))
        new = {"directory": move(e["directory"]), "file": move(e["file"])}
        if "arguments" in e:
            new["arguments"] = [move(a) for a in e["arguments"]] + list(extra)
        else:
            new["command"] = " ".join([move(e["command"]), *extra])
        chosen.append(new)
    os.makedirs(os.path.dirname(out_path), exist_ok=True)
    with open(out_path, "w", encoding="utf-8") as fh:
        json.dump(chosen, fh, indent=1)
    return [c["file"] for c in chosen]


def lint_parent(gmemlint, realcode, mirror, repo, labels, log):
    """Lints one parent commit of one project as a program: the labels' files and the sources of
    their directories. Returns its findings (paths relative to the parent's tree)."""
    name, sha = labels[0]["project"], labels[0]["parent"]
    tree = parent_tree(realcode, mirror, repo["repo"], name, sha)
    db = head_database(realcode, name)
    if db is None:
        raise Bad(f"{name}: no compile database under {realcode}/build/{name}")
    wanted = []
    for lab in labels:
        d = os.path.dirname(lab["file"])
        wanted.append(lab["file"])
        for f in sorted(os.listdir(os.path.join(tree, d) or tree)):
            if re.search(r"\.(cu|cpp|cc|cxx|c)$", f):
                wanted.append(os.path.join(d, f))
    # A header is linted through the sources that include it (those of the database, a few).
    headers = [lab["file"] for lab in labels if re.search(r"\.(h|hh|hpp|cuh|inl)$", lab["file"])]
    if headers:
        for src in sources_of(db, os.path.join(realcode, "src", name)):
            path = os.path.join(tree, src)
            try:
                text = open(path, encoding="utf-8", errors="replace").read()
            except OSError:
                continue
            if any(re.search(r'#\s*include\s*[<"]([^>"]*/)?' + re.escape(os.path.basename(h)) + '[>"]', text)
                   for h in headers):
                wanted.append(src)
                if len(wanted) > 12:
                    break
    wanted = [w for w in dict.fromkeys(wanted) if os.path.exists(os.path.join(tree, w))
              and not re.search(r"\.(h|hh|hpp|cuh|inl)$", w)]
    out = os.path.join(realcode, "parents", "out", f"{name}-{sha[:12]}")
    # What the parent's own build defined and the pinned commit's build no longer does (a label's
    # `flags`, read from the parent's makefile), e.g. a macro the old sources are wrapped in.
    extra = list(dict.fromkeys(f for lab in labels for f in lab.get("flags", "-").split() if f != "-"))
    files = parent_database(db, os.path.join(realcode, "src", name), tree, wanted,
                            os.path.join(out, "compile_commands.json"), extra)
    if not files:
        raise Bad(f"{name}@{sha[:12]}: no entry of the database fits {labels[0]['file']}")
    # The same binary on the same files and flags gives the same findings: a lint is kept with a
    # stamp of what it was made from and reused while the stamp holds.
    stamp = "\n".join([gmemlint, str(os.stat(gmemlint).st_mtime_ns),
                       open(os.path.join(out, "compile_commands.json")).read()])
    stamp_path = os.path.join(out, "stamp.txt")
    if os.path.exists(stamp_path) and open(stamp_path).read() == stamp:
        log(f"{name}@{sha[:12]}: {len(files)} file(s), lint reused from {out}")
    else:
        if os.path.exists(stamp_path):
            os.remove(stamp_path)
        with open(os.path.join(out, "findings.json"), "w") as fo, open(os.path.join(out, "stderr.txt"), "w") as fe:
            subprocess.run([gmemlint, "-p", out, "--format=json", "--no-cache", "-j2", *files],
                           stdout=fo, stderr=fe, cwd=out, timeout=1800)
        with open(stamp_path, "w") as fh:
            fh.write(stamp)
        log(f"{name}@{sha[:12]}: linted {len(files)} file(s), output in {out}")
    return load_findings(os.path.join(out, "findings.json"), tree)


def pct(a, b):
    return f"{100.0 * a / b:.0f}%" if b else "-"


def main(argv):
    opts = {"gmemlint": None, "repos": os.path.join(HERE, "repos.tsv"),
            "labels": os.path.join(HERE, "labels.tsv"), "ledger": os.path.join(HERE, "ledger.tsv"),
            "tsv": None, "details": None, "window": "3"}
    args = []
    for a in argv:
        if a in ("-h", "--help"):
            print(__doc__)
            return 0
        m = re.match(r"--(\w+)=(.*)$", a)
        if m and m.group(1) in opts:
            opts[m.group(1)] = m.group(2)
        elif a.startswith("-"):
            print(f"evaluate.py: error: unknown option {a}", file=sys.stderr)
            return 2
        else:
            args.append(a)
    if not args:
        print("usage: evaluate.py [--gmemlint=BIN] [--repos=F] [--labels=F] [--ledger=F] [--tsv=F] "
              "[--details=F] [--window=N] RUNDIR [NAME...]", file=sys.stderr)
        return 2
    rundir, only = args[0], set(args[1:])
    realcode = os.environ.get("REALCODE", "/work/realcode")
    mirror = os.environ.get("MIRROR", "/work/.mirror")
    log = lambda s: print("evaluate.py: " + s, file=sys.stderr)
    try:
        if not os.path.isdir(rundir):
            raise Bad(f"{rundir}: no such run directory")
        window = int(opts["window"])
        repos = read_repos(opts["repos"])
        labels = read_tsv(opts["labels"], ["project", "half", "source", "parent", "file", "line",
                                           "function", "kind", "rule", "note"])
        ledger = read_tsv(opts["ledger"], ["project", "half", "rule", "file", "line", "function",
                                           "fingerprint", "verdict", "why"])
        for row in ledger:
            if row["verdict"] not in VERDICTS:
                raise Bad(f"{row['_where']}: verdict '{row['verdict']}' is not one of {', '.join(VERDICTS)}")
        for lab in labels:
            if lab["project"] not in repos:
                raise Bad(f"{lab['_where']}: project '{lab['project']}' is not in {opts['repos']}")
            if not lab["line"].isdigit():
                raise Bad(f"{lab['_where']}: line '{lab['line']}' is not a number")
        gmemlint = opts["gmemlint"] and os.path.realpath(opts["gmemlint"])
        if gmemlint and not os.access(gmemlint, os.X_OK):
            raise Bad(f"{gmemlint}: not executable")
    except (Bad, ValueError) as e:
        print(f"evaluate.py: error: {e}", file=sys.stderr)
        return 2

    names = [n for n in repos if not only or n in only]
    stats = collections.OrderedDict()
    details = []
    fired = {}  # (rule, reason) -> Counter of projects
    for name in names:
        repo = repos[name]
        s = collections.Counter()
        s["half"] = repo["half"]
        gen, path = pick_run(rundir, name)
        findings = []
        if path:
            try:
                findings = judge(load_findings(path, os.path.join(realcode, "src", name)), name, ledger)
            except Bad as e:
                log(str(e))
        s["run"] = gen or "none"
        if path:
            for key in load_suppressed(path):
                fired.setdefault(key, collections.Counter())[name] += 1
        if not gen:
            # a row added after run.sh started (or one it could not lint) is no result of zero:
            # its labels would count as missed
            log(f"warning: {name} has no run in {rundir}; left out of its half's totals")
        s["findings"] = len(findings)
        for f in findings:
            s[f["verdict"]] += 1
            details.append(["finding", name, repo["half"], f["rule"], f["file"], str(f["line"]),
                            f["function"], f["verdict"], f["fingerprint"]])
        mine = [l for l in labels if l["project"] == name]
        by_parent = collections.OrderedDict()
        for lab in mine:
            if lab["kind"] != "clean" and set(lab["rule"].split("|")) <= OFF_BY_DEFAULT:
                s["off_default"] += 1
                details.append(["off-by-default", name, repo["half"], lab["rule"], lab["file"],
                                lab["line"], lab["function"], "not-looked-for", lab["source"]])
            elif lab["kind"] == "clean":
                s["clean"] += 1
                hit = reported_in(lab, findings)
                s["clean_reported"] += bool(hit)
                details.append(["clean", name, repo["half"], lab["rule"], lab["file"], lab["line"],
                                lab["function"], "reported" if hit else "clean", lab["source"]])
            elif lab["source"] == "reading":
                s["read"] += 1
                hit = matches(lab, findings, window)
                s["read_found"] += bool(hit)
                details.append(["reading", name, repo["half"], lab["rule"], lab["file"], lab["line"],
                                lab["function"], "found" if hit else "missed", lab["source"]])
            else:
                by_parent.setdefault(lab["parent"], []).append(lab)
        for parent, group in by_parent.items():
            s["mined"] += len(group)
            outcome = "not-evaluated"
            found_in = []
            if gmemlint:
                try:
                    found_in = lint_parent(gmemlint, realcode, mirror, repo, group, log)
                    outcome = None
                except (Bad, OSError, subprocess.SubprocessError) as e:
                    log(f"{name}@{parent[:12]}: {e}")
                    outcome = "lint-failed"
            for lab in group:
                hit = outcome is None and matches(lab, found_in, window)
                s["mined_found"] += bool(hit)
                details.append(["mined", name, repo["half"], lab["rule"], lab["file"], lab["line"],
                                lab["function"], outcome or ("found" if hit else "missed"), lab["source"]])
        stats[name] = s

    cols = ["findings", "true", "false", "duplicate", "debatable", "unjudged"]
    # debatable findings counted both ways: left out (precision) and as false (precision_in),
    # since a user reads them all

    def line_of(label, half, s):
        judged = s["true"] + s["false"] + s["duplicate"]
        return [label, half, str(s.get("run", "")) if label not in ("development", "measured") else "",
                *[str(s[c]) for c in cols], pct(s["true"], judged),
                pct(s["true"], judged + s["debatable"]),
                f"{s['mined_found']}/{s['mined']}", pct(s["mined_found"], s["mined"]),
                f"{s['read_found']}/{s['read']}", f"{s['clean_reported']}/{s['clean']}",
                str(s["off_default"])]

    header = ["project", "half", "run", *cols, "precision", "precision_in", "mined_found",
              "mined_recall", "read_found", "clean_reported", "off_default"]
    table = []
    for half in ("measured", "development"):
        members = [n for n in stats if stats[n]["half"] == half]
        if not members:
            continue
        total = collections.Counter()
        for n in members:
            if stats[n]["run"] != "none":
                for k, v in stats[n].items():
                    if isinstance(v, int):
                        total[k] += v
            table.append(line_of(n, half, stats[n]))
        table.append(line_of(half, half, total))
    widths = [max(len(r[i]) for r in [header] + table) for i in range(len(header))]
    for r in [header] + table:
        print("  ".join(c.ljust(w) for c, w in zip(r, widths)).rstrip())
    print("precision = true/(true+false+duplicate); debatable and unjudged findings are left out of it;")
    print("precision_in = true/(true+false+duplicate+debatable): debatable counted as false")
    # how often each exemption, threshold or filter kept a finding out, per project: one that
    # fires in a single project is a shape drawn from it (issue 40)
    ex_rows = []
    for (rule, reason), per in sorted(fired.items(), key=lambda kv: (-sum(kv[1].values()), kv[0])):
        where = ", ".join(f"{n} {c}" for n, c in per.most_common())
        ex_rows.append([rule, reason, str(sum(per.values())), str(len(per)), where])
    if ex_rows:
        print()
        print("kept from the report (gmemlint --explain): rule, reason, times, projects, where")
        for r in ex_rows:
            print("  ".join(r))
    exf = opts["tsv"][:-len(".tsv")] + "-exemptions.tsv" if (opts["tsv"] or "").endswith(".tsv") \
        else os.path.join(rundir, "evaluation-exemptions.tsv")
    with open(exf, "w", encoding="utf-8") as fh:
        fh.write("\t".join(["rule", "reason", "times", "projects", "where"]) + "\n")
        for r in ex_rows:
            fh.write("\t".join(r) + "\n")
    tsv = opts["tsv"] or os.path.join(rundir, "evaluation.tsv")
    with open(tsv, "w", encoding="utf-8") as fh:
        fh.write("\t".join(header) + "\n")
        for r in table:
            fh.write("\t".join(r) + "\n")
    det = opts["details"] or os.path.join(rundir, "evaluation-details.tsv")
    with open(det, "w", encoding="utf-8") as fh:
        fh.write("\t".join(["what", "project", "half", "rule", "file", "line", "function", "outcome",
                            "source_or_fingerprint"]) + "\n")
        for r in details:
            fh.write("\t".join(r) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
