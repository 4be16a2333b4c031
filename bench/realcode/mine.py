#!/usr/bin/env python3
"""Candidate GPU memory fixes in a project's history, to be confirmed by reading.

Usage: mine.py [--since=DATE] [--max=N] [--paths=GLOB,...] NAME GITDIR [COMMIT]

Walks the history of COMMIT (default HEAD) in GITDIR, non-merge commits touching C, C++ and CUDA
sources, and prints one TSV row per change that looks like the fix of a GPU memory defect:

  add-free        an added free of a GPU allocation (cudaFree, cudaFreeHost, cudaFreeArray,
                  cudaFreeAsync, cuMemFree*) of a pointer no removed line of the file freed
  family-change   an added GPU free of a pointer a removed line freed with another call
                  (free -> cudaFree, cudaFree -> cudaFreeHost, delete -> cudaFree)
  drop-free       a removed GPU free of a pointer the parent's file frees more than once
  alloc-move      an allocation of a pointer removed at one place and added at another

For each it names the allocation the fix pairs with at the parent: the first line of the parent's
file (else of the files in its directory) that passes the pointer's address to an allocator,
with the function there (git's default heuristic). Flags: `new`, the commit also adds that
allocation (memory new in the commit: rarely a defect at the parent); `no-alloc-at-parent`,
none was found by name. A candidate is only a
lead: labels.tsv keeps the ones a reader confirmed.

--paths limits the files (default: C, C++ and CUDA sources and headers); a snapshot that lacks
large files (git cannot read their blobs) can still be mined for its CUDA files only.

Columns: project, commit, parent, kind, file, added_or_removed_line, hunk_function,
alloc_file, alloc_line, alloc_function, flags, subject. Exit status 0, 2 on bad usage or a git
directory git cannot read.
"""
import re
import subprocess
import sys

SOURCES = ["*.cu", "*.cuh", "*.cpp", "*.cc", "*.cxx", "*.c", "*.h", "*.hpp", "*.hxx", "*.inl"]
GPU_FREE = r"(?:cudaFreeHost|cudaFreeArray|cudaFreeMipmappedArray|cudaFreeAsync|cudaFree|cuMemFreeHost|cuMemFreeAsync|cuMemFree(?:_v2)?|cudaHostUnregister)"
ANY_FREE = GPU_FREE[:-1] + r"|free|delete\s*\[\s*\]|delete)"
ALLOC = r"(?:cudaMalloc\w*|cudaHostAlloc|cudaMallocHost|cudaMallocManaged|cudaMallocPitch|cudaMallocArray|cudaMalloc3D\w*|cuMemAlloc\w*|cuMemHostAlloc|malloc|calloc|new)"
FREE_CALL = re.compile(r"\b(" + GPU_FREE + r")\s*\(\s*(?:\([^()]*\)\s*)?([^,()]+?)\s*[,)]")
ANY_FREE_CALL = re.compile(r"(?:\b(" + ANY_FREE + r")\s*\(\s*(?:\([^()]*\)\s*)?([^,()]+?)\s*[,)]|\b(delete(?:\s*\[\s*\])?)\s+([\w.\->\[\]]+)\s*;)")
ALLOC_OF = re.compile(r"\b(" + ALLOC + r")\b")
PICKAXE = "cudaFree|cuMemFree|cudaMalloc|cuMemAlloc|cudaHostAlloc|cudaHostUnregister"


def git(gitdir, *args, check=True):
    r = subprocess.run(["git", "-C", gitdir, *args], capture_output=True, text=True, errors="replace")
    if check and r.returncode != 0:
        raise RuntimeError(r.stderr.strip())
    return r.stdout


def base_name(expr):
    """The last identifier of a freed expression: d_hash[thr_id] -> d_hash, s->buf -> buf."""
    expr = re.sub(r"\[[^\]]*\]", "", expr)
    ids = re.findall(r"[A-Za-z_]\w*", expr)
    return ids[-1] if ids else ""


def frees(line, gpu_only=True):
    out = []
    if gpu_only:
        for m in FREE_CALL.finditer(line):
            out.append((m.group(1), base_name(m.group(2))))
    else:
        for m in ANY_FREE_CALL.finditer(line):
            fn, arg = (m.group(1), m.group(2)) if m.group(1) else (m.group(3), m.group(4))
            out.append((re.sub(r"\s+", "", fn), base_name(arg)))
    return [(f, n) for f, n in out if n]


def is_code(line):
    s = line.strip()
    return s and not s.startswith("//") and not s.startswith("/*") and not s.startswith("*")


def allocs_of(text_lines, name):
    """Line numbers (1-based) that pass NAME's address (or NAME) to an allocator."""
    pat = re.compile(r"(?:&\s*(?:\w+(?:->|\.))*" + re.escape(name) + r"\b|\b" + re.escape(name) + r"\s*(?:\[[^\]]*\])?\s*=\s*(?:\([^()]*\)\s*)?(?:" + ALLOC + r"))")
    hits = []
    for i, line in enumerate(text_lines, 1):
        if is_code(line) and ALLOC_OF.search(line) and pat.search(line):
            hits.append(i)
    return hits


def function_at(lines, line):
    """The function LINE (1-based) sits in, by git's default heuristic: the last line before it
    that starts with a letter, '_' or '$' and is not a label; its name is the identifier before
    the first '('."""
    for i in range(min(line, len(lines)) - 1, -1, -1):
        text = lines[i]
        if re.match(r"[A-Za-z_$]", text) and not re.match(r"\w+\s*:(?!:)", text):
            m = re.search(r"([A-Za-z_~][\w:~]*)\s*\(", text)
            return m.group(1) if m else text.strip()
    return ""


class Cache:
    def __init__(self, gitdir):
        self.gitdir = gitdir
        self.files = {}

    def lines(self, rev, path):
        key = (rev, path)
        if key not in self.files:
            text = git(self.gitdir, "show", f"{rev}:{path}", check=False)
            self.files[key] = text.splitlines()
        return self.files[key]

    def dir_files(self, rev, path):
        d = path.rsplit("/", 1)[0] if "/" in path else ""
        out = git(self.gitdir, "ls-tree", "--name-only", rev, (d + "/") if d else ".", check=False)
        return [p for p in out.splitlines() if re.search(r"\.(cu|cuh|cpp|cc|c|h|hpp)$", p)]


def locate_alloc(cache, parent, path, name):
    for cand in [path] + [p for p in cache.dir_files(parent, path) if p != path]:
        hits = allocs_of(cache.lines(parent, cand), name)
        if hits:
            return cand, hits[0]
    return "", 0


def parse_log(text):
    """Yield (commit, parents, subject, {file: (added, removed)}) from `git log -p -U0`."""
    for block in text.split("\x1e")[1:]:
        head, _, diff = block.partition("\n")
        sha, parents, subject = (head.split("\x1f") + ["", ""])[:3]
        files = {}
        cur = None
        func = ""
        hunk = 0
        for row in diff.splitlines():
            if row.startswith("+++ "):
                cur = row[6:] if row.startswith("+++ b/") else None
                if cur is not None:
                    files.setdefault(cur, ([], []))
            elif row.startswith("@@"):
                m = re.match(r"@@ [^@]* @@ ?(.*)$", row)
                func = m.group(1).strip() if m else ""
                hunk += 1
            elif cur is None or row.startswith("--- "):
                continue
            elif row.startswith("+"):
                files[cur][0].append((row[1:], func, hunk))
            elif row.startswith("-"):
                files[cur][1].append((row[1:], func, hunk))
        yield sha, parents.split(), subject, files


def candidates(name, gitdir, rev, since, limit, paths):
    args = ["log", rev, "--no-merges", "-p", "-U0", "--no-color", "--no-renames", "-G", PICKAXE,
            "--format=%x1e%H%x1f%P%x1f%s"]
    if since:
        args.append("--since=" + since)
    if limit:
        args.append(f"--max-count={limit}")
    text = git(gitdir, *args, "--", *paths)
    cache = Cache(gitdir)
    for sha, parents, subject, files in parse_log(text):
        if len(parents) != 1:
            continue
        parent = parents[0]
        for path, (added, removed) in files.items():
            added_code = [(l, f) for l, f, _ in added if is_code(l)]
            removed_code = [(l, f) for l, f, _ in removed if is_code(l)]
            removed_any = {n: fn for l, _ in removed_code for fn, n in frees(l, gpu_only=False)}
            # Allocations the commit adds, less those it only rewrites (a line removed and added).
            removed_allocs = {n for l, _ in removed_code if ALLOC_OF.search(l)
                              for n in re.findall(r"&\s*(?:\w+(?:->|\.))*(\w+)", l)}
            added_allocs = " ".join(l for l, _ in added_code if ALLOC_OF.search(l)
                                    and not set(re.findall(r"&\s*(?:\w+(?:->|\.))*(\w+)", l)) & removed_allocs)
            seen = set()
            for line, func in added_code:
                for fn, n in frees(line):
                    if (n, fn) in seen:
                        continue
                    seen.add((n, fn))
                    if n in removed_any and removed_any[n] == fn:
                        continue  # the same free moved or reformatted
                    kind = "family-change" if n in removed_any else "add-free"
                    yield row(cache, name, sha, parent, kind, path, line, func, n, added_allocs, subject)
            for line, func in removed_code:
                for fn, n in frees(line):
                    if any(n == m for l, _ in added_code for _, m in frees(l, gpu_only=False)):
                        continue
                    count = sum(1 for l in cache.lines(parent, path) if is_code(l) for _, m in frees(l) if m == n)
                    if count >= 2:
                        yield row(cache, name, sha, parent, "drop-free", path, line, func, n, "", subject)
            # A move, not a rewrite: the allocation leaves one hunk and enters another.
            removed_alloc = {n: h for l, _, h in removed if is_code(l) and ALLOC_OF.search(l)
                             for n in re.findall(r"&\s*(?:\w+(?:->|\.))*(\w+)", l)}
            for line, func, h in added:
                if not is_code(line) or not ALLOC_OF.search(line):
                    continue
                for n in re.findall(r"&\s*(?:\w+(?:->|\.))*(\w+)", line):
                    if n in removed_alloc and removed_alloc[n] != h:
                        yield row(cache, name, sha, parent, "alloc-move", path, line, func, n, "", subject)
                        del removed_alloc[n]


def row(cache, name, sha, parent, kind, path, line, func, ptr, added_allocs, subject):
    afile, aline = locate_alloc(cache, parent, path, ptr)
    afunc = function_at(cache.lines(parent, afile), aline) if afile else ""
    flags = []
    if added_allocs and re.search(r"&\s*(?:\w+(?:->|\.))*" + re.escape(ptr) + r"\b", added_allocs):
        flags.append("new")
    if not afile:
        flags.append("no-alloc-at-parent")
    clean = lambda s: re.sub(r"\s+", " ", s).strip()[:160]
    return [name, sha, parent, kind, path, clean(line), clean(func), afile, str(aline) if aline else "",
            clean(afunc), ",".join(flags) or "-", clean(subject)]


def main(argv):
    since = ""
    limit = 0
    paths = SOURCES
    args = []
    for a in argv:
        if a.startswith("--since="):
            since = a.split("=", 1)[1]
        elif a.startswith("--paths="):
            paths = a.split("=", 1)[1].split(",")
        elif a.startswith("--max="):
            limit = int(a.split("=", 1)[1])
        elif a in ("-h", "--help"):
            print(__doc__)
            return 0
        else:
            args.append(a)
    if len(args) not in (2, 3):
        print("usage: mine.py [--since=DATE] [--max=N] [--paths=GLOB,...] NAME GITDIR [COMMIT]", file=sys.stderr)
        return 2
    name, gitdir = args[0], args[1]
    rev = args[2] if len(args) == 3 else "HEAD"
    try:
        git(gitdir, "rev-parse", "--verify", rev + "^{commit}")
    except RuntimeError as e:
        print(f"mine.py: error: {gitdir}: {e}", file=sys.stderr)
        return 2
    print("\t".join(["project", "commit", "parent", "kind", "file", "line", "hunk_function", "alloc_file",
                     "alloc_line", "alloc_function", "flags", "subject"]))
    try:
        rows = list(candidates(name, gitdir, rev, since, limit, paths))
    except RuntimeError as e:
        print(f"mine.py: error: {gitdir}: {e} (a snapshot without large files: try --paths=*.cu,*.cuh)",
              file=sys.stderr)
        return 2
    for r in rows:
        print("\t".join(r), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
