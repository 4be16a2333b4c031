#!/usr/bin/env python3
"""Mutation testing: change the analyzer's code one small step at a time and see whether a test fails.

A test suite that passes whatever the code does checks nothing. This script makes mutants of C
sources (one small change each: a comparison, a constant, a dropped call), rebuilds, runs the
tests, and reports the mutants no test noticed (issue 38). It needs only Python 3's standard
library, CMake and Ninja: no LLVM mutation tool (Mull and the like) is packaged for Debian 12.

  tools/mutate/mutate.py [--root DIR] [--seed N] [--max N] [--tests REGEX] PATH...

PATH is a .c file or a directory (its .c files, recursively), relative to --root (default: the
current directory), the top of a CMake project. Operators (--operators picks some):
  rel-boundary  < <=, > >= (each to the other)     rel-negate   == !=
  logical       && ||                              drop-not     a unary ! removed
  int-const     0 -> 1, 1 -> 0, n -> n+1           return-swap  return 0; <-> return 1;
  bool-swap     true <-> false                     delete-call  a call statement alone on its
                                                                line replaced by ;
The sources are tokenized (comments, string and character literals and preprocessor lines are
never mutated; nor array sizes in declarations, nor `return 0;`/`return 1;` as int-const, which
return-swap covers). A mutant is named file:line:col, operator, original -> replacement. The
candidates are ranked by a hash of the seed and the mutant's name, and the first --max are taken:
the same seed gives the same sample, and a mutant's place does not depend on the other files.

The run never touches --root: its files (those git tracks or does not ignore; outside a git
checkout every file, build trees left out) are copied into a scratch directory (--workdir, kept,
and refreshed in place on a later run so that its build stays incremental; else a temporary one,
removed), configured once (cmake -G Ninja, plus --cmake-arg: no -Werror unless given, so that a
mutant's new warning does not make it invalid), built and tested unmutated (the tests must pass),
then for each mutant: the file rewritten, an incremental build (--build-target), the tests (ctest
--stop-on-failure, -R --tests, -E --exclude-tests, --timeout --test-timeout for each test, all
within --timeout seconds), the file restored. Sorted by file, a sample rebuilds each file once more
after its last mutant, not after each. A mutant that does not compile (or build within
--build-timeout) is invalid; one whose tests fail is killed; one whose tests run past the timeout
is killed by timeout (counted apart, and as detected); else it survived. The kill rate is (killed +
timeout) / (killed + timeout + survived). --max-each N takes N from each PATH instead (the same
ranking), so that a small directory is not drowned by a large one; --at keeps only the mutants of
the sample at a place (FILE:LINE[:COL[:OPERATOR]]), to run a survivor again against other tests.
--list prints the sample and runs nothing. Tables by directory, file and operator go to standard
output, each survivor listed; --json FILE writes every mutant and its outcome. Exit status: 0 when
the run completed, 1 when the unmutated build or tests fail, 2 for bad usage.
"""
import argparse
import hashlib
import json
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import time

PROG = "mutate"

OPERATORS = [
    "rel-boundary",
    "rel-negate",
    "logical",
    "drop-not",
    "int-const",
    "return-swap",
    "bool-swap",
    "delete-call",
]

PUNCTUATORS = sorted(
    """... <<= >>= -> ++ -- << >> <= >= == != && || *= /= %= += -= &= ^= |= ##
    [ ] ( ) { } . & * + - ~ ! / % < > ^ | ? : ; = , #""".split(),
    key=len,
    reverse=True,
)

# Keywords after which `name[` begins an expression, not a declaration
EXPR_KEYWORDS = {"return", "sizeof", "case", "goto", "else", "do", "_Alignof", "alignof"}
# Keywords that look like calls but are not: `if (x);` is no call statement
NOT_CALLS = {
    "if",
    "while",
    "for",
    "switch",
    "return",
    "sizeof",
    "_Alignof",
    "alignof",
    "_Static_assert",
    "static_assert",
    "_Generic",
    "do",
    "else",
    "case",
    "default",
    "goto",
    "typedef",
    "__asm__",
    "asm",
}
INT_RE = re.compile(r"^(0[xX][0-9a-fA-F]+|0[0-7]*|[1-9][0-9]*)([uUlL]*)$")


def die(msg, status=2):
    print(f"{PROG}: error: {msg}", file=sys.stderr)
    sys.exit(status)


class Token:
    __slots__ = ("kind", "text", "off", "line", "col", "first")

    def __init__(self, kind, text, off, line, col, first):
        self.kind = kind  # "id", "num", "punct"
        self.text = text
        self.off = off
        self.line = line
        self.col = col
        self.first = first  # first token on its line


def tokenize(src):
    """The tokens of C source src that may be mutated: no comments, literals or directives."""
    toks = []
    i, n = 0, len(src)
    line, line_start = 1, 0
    at_line_start = True  # nothing but blanks since the last newline
    first_on_line = True

    def skip_string(j, quote):
        nonlocal line, line_start
        j += 1
        while j < n and src[j] != quote:
            if src[j] == "\\" and j + 1 < n:
                if src[j + 1] == "\n":
                    line += 1
                    line_start = j + 2
                j += 2
                continue
            if src[j] == "\n":  # unterminated: stop at the line's end
                return j
            j += 1
        return j + 1

    def skip_block_comment(j):
        nonlocal line, line_start
        end = src.find("*/", j + 2)
        end = n if end < 0 else end + 2
        k = src.find("\n", j, end)
        while k >= 0:
            line += 1
            line_start = k + 1
            k = src.find("\n", k + 1, end)
        return end

    while i < n:
        c = src[i]
        if c == "\n":
            line += 1
            line_start = i + 1
            at_line_start = first_on_line = True
            i += 1
            continue
        if c in " \t\r\f\v":
            i += 1
            continue
        if c == "\\" and i + 1 < n and src[i + 1] == "\n":
            line += 1
            line_start = i + 2
            i += 2
            continue
        if src.startswith("//", i):
            while i < n and src[i] != "\n":
                if src[i] == "\\" and i + 1 < n and src[i + 1] == "\n":
                    line += 1
                    line_start = i + 2
                    i += 1
                i += 1
            continue
        if src.startswith("/*", i):
            i = skip_block_comment(i)
            continue
        if c == "#" and at_line_start:
            # a directive: skipped to its end, continuation lines and comments within included
            i += 1
            while i < n and src[i] != "\n":
                if src[i] == "\\" and i + 1 < n and src[i + 1] == "\n":
                    line += 1
                    line_start = i + 2
                    i += 2
                elif src.startswith("/*", i):
                    i = skip_block_comment(i)
                elif src.startswith("//", i):
                    while i < n and src[i] != "\n":
                        i += 1
                elif src[i] in "\"'":
                    i = skip_string(i, src[i])
                else:
                    i += 1
            continue
        at_line_start = False
        col = i - line_start + 1
        first = first_on_line
        first_on_line = False
        if c in "\"'":
            i = skip_string(i, c)
            # a literal is no mutable token, but it is a token: keep its place in the statement
            toks.append(Token("lit", "", i, line, col, first))
            continue
        if c.isalpha() or c == "_":
            j = i + 1
            while j < n and (src[j].isalnum() or src[j] == "_"):
                j += 1
            if j < n and src[j] in "\"'" and src[i:j] in ("L", "u", "U", "u8"):
                i = skip_string(j, src[j])  # a prefixed literal
                toks.append(Token("lit", "", i, line, col, first))
                continue
            toks.append(Token("id", src[i:j], i, line, col, first))
            i = j
            continue
        if c.isdigit() or (c == "." and i + 1 < n and src[i + 1].isdigit()):
            j = i + 1
            while j < n:
                if src[j] in "eEpP" and j + 1 < n and src[j + 1] in "+-":
                    j += 2
                elif src[j].isalnum() or src[j] in "_.'":
                    j += 1
                else:
                    break
            toks.append(Token("num", src[i:j], i, line, col, first))
            i = j
            continue
        for p in PUNCTUATORS:
            if src.startswith(p, i):
                toks.append(Token("punct", p, i, line, col, first))
                i += len(p)
                break
        else:
            toks.append(Token("punct", c, i, line, col, first))  # stray byte, kept as a token
            i += 1
    return toks


def bracket_matches(toks):
    """For each bracket token's index, the index of the bracket that closes or opens it."""
    match, stack = {}, []
    pairs = {")": "(", "]": "[", "}": "{"}
    for i, t in enumerate(toks):
        if t.kind != "punct":
            continue
        if t.text in ("(", "[", "{"):
            stack.append(i)
        elif t.text in pairs:
            while stack and toks[stack[-1]].text != pairs[t.text]:
                stack.pop()  # unbalanced (an #if branch left out): forget the stray opener
            if stack:
                o = stack.pop()
                match[o], match[i] = i, o
    return match


def statement_start(toks, match, p):
    """The index of the first token of the statement or declaration holding toks[p], or None
    when toks[p] lies in parentheses (a call's arguments, a condition)."""
    j = p - 1
    while j >= 0:
        t = toks[j]
        if t.kind == "punct":
            if t.text in (")", "]") and j in match:
                j = match[j] - 1
                continue
            if t.text == "}" and j in match:
                o = match[j]
                if o > 0 and toks[o - 1].text in ("=", ",", "{"):  # an initializer's braces
                    j = o - 1
                    continue
                return j + 1
            if t.text in (";", "{", "}"):
                return j + 1
            if t.text in ("(", "["):
                return None
        j -= 1
    return 0


def in_declared_array_size(toks, match, k):
    """Whether toks[k] lies between the brackets of an array declarator (`int buf[64];`,
    `char a[8], b[16];`, `int m[2][3];`)."""
    j = k - 1
    while j >= 0 and not (toks[j].text == "[" and match.get(j, -1) > k):
        if toks[j].text in (";", "{", "}") and toks[j].kind == "punct":
            return False
        j = match[j] - 1 if toks[j].text in (")", "]") and j in match else j - 1
    if j < 0:
        return False
    # toks[j] is the open bracket; before it, further dimensions `a[2][` and then the name
    p = j - 1
    while p >= 0 and toks[p].text == "]" and p in match:
        p = match[p] - 1
    if p < 1 or toks[p].kind != "id":
        return False
    before = toks[p - 1]
    # `char buf[`, `struct x list[`: a type before the name; `return a[`, `= a[`: an expression
    if before.kind == "id":
        return before.text not in EXPR_KEYWORDS
    if before.text not in (",", "*"):
        return False
    # `char a[8], b[16]`, `const char *names[4]`: a declaration whose first two tokens are a
    # type (`char a`, `size_t *`, `static const`), not an expression statement
    st = statement_start(toks, match, p)
    if st is None or st + 1 >= p:
        return False
    first, second = toks[st], toks[st + 1]
    return (
        first.kind == "id"
        and first.text not in EXPR_KEYWORDS
        and (second.kind == "id" or second.text == "*")
    )


def call_statement(toks, k):
    """The index of the `;` ending the call statement that starts at toks[k], or None.

    A call statement here is `name(...);` or `(void)name(...);` (name possibly `a.b`/`a->b`),
    first on its line, with its `;` last on its line, after a `;`, `{`, `}`, `)`, `:` or `else`.
    """
    t = toks[k]
    if not t.first:
        return None
    if k > 0:
        prev = toks[k - 1]
        # `:` ends a label or case here: a `?:` operand is never first on its line after it
        if prev.text not in (";", "{", "}", ")", ":", "else"):
            return None
    j = k
    if toks[j].text == "(" and j + 3 < len(toks) and toks[j + 1].text == "void" and toks[j + 2].text == ")":
        j += 3
    if toks[j].kind != "id" or toks[j].text in NOT_CALLS:
        return None
    j += 1
    while j + 1 < len(toks) and toks[j].text in (".", "->") and toks[j + 1].kind == "id":
        j += 2
    if j >= len(toks) or toks[j].text != "(":
        return None
    depth = 0
    while j < len(toks):
        if toks[j].text in ("(", "[", "{"):
            depth += 1
        elif toks[j].text in (")", "]", "}"):
            depth -= 1
            if depth == 0:
                break
        elif toks[j].text == ";" and depth == 0:
            return None
        j += 1
    j += 1
    if j >= len(toks) or toks[j].text != ";":
        return None
    if j + 1 < len(toks) and toks[j + 1].line == toks[j].line:
        return None
    return j


def int_plus_one(text):
    m = INT_RE.match(text)
    if not m:
        return None
    digits, suffix = m.groups()
    if digits in ("0", "1"):
        return ("1" if digits == "0" else "0") + suffix
    if digits[:2] in ("0x", "0X"):
        return digits[:2] + format(int(digits, 16) + 1, "x") + suffix
    if digits.startswith("0"):
        return "0" + format(int(digits, 8) + 1, "o") + suffix
    return str(int(digits) + 1) + suffix


SWAP = {
    "rel-boundary": {"<": "<=", "<=": "<", ">": ">=", ">=": ">"},
    "rel-negate": {"==": "!=", "!=": "=="},
    "logical": {"&&": "||", "||": "&&"},
    "bool-swap": {"true": "false", "false": "true"},
}


def mutants_of(path, src, operators):
    """Every mutant of one file: dicts with file, line, col, off, end, operator, original, replacement."""
    toks = tokenize(src)
    match = bracket_matches(toks)
    out = []

    def add(op, first_tok, end, original, replacement):
        out.append(
            {
                "file": path,
                "line": first_tok.line,
                "col": first_tok.col,
                "off": first_tok.off,
                "end": end,
                "operator": op,
                "original": original,
                "replacement": replacement,
            }
        )

    for k, t in enumerate(toks):
        prev = toks[k - 1] if k > 0 else None
        nxt = toks[k + 1] if k + 1 < len(toks) else None
        for op in ("rel-boundary", "rel-negate", "logical"):
            if op in operators and t.kind == "punct" and t.text in SWAP[op]:
                add(op, t, t.off + len(t.text), t.text, SWAP[op][t.text])
        if "bool-swap" in operators and t.kind == "id" and t.text in SWAP["bool-swap"]:
            add("bool-swap", t, t.off + len(t.text), t.text, SWAP["bool-swap"][t.text])
        if "drop-not" in operators and t.kind == "punct" and t.text == "!":
            add("drop-not", t, t.off + 1, "!", "")
        if t.kind == "num":
            is_return = (
                prev is not None
                and prev.text == "return"
                and t.text in ("0", "1")
                and nxt is not None
                and nxt.text == ";"
            )
            if is_return:
                if "return-swap" in operators:
                    add(
                        "return-swap",
                        prev,
                        nxt.off + 1,
                        f"return {t.text};",
                        f"return {'1' if t.text == '0' else '0'};",
                    )
            elif "int-const" in operators and not in_declared_array_size(toks, match, k):
                repl = int_plus_one(t.text)
                if repl is not None:
                    add("int-const", t, t.off + len(t.text), t.text, repl)
        if "delete-call" in operators and (t.kind == "id" or t.text == "("):
            semi = call_statement(toks, k)
            if semi is not None:
                end = toks[semi].off + 1
                text = src[t.off : end]
                add("delete-call", t, end, " ".join(text.split()), ";")
    return out


def at_matches(spec, m):
    """Whether mutant m is at spec: FILE:LINE, FILE:LINE:COL or FILE:LINE:COL:OPERATOR."""
    fields = spec.split(":")
    want = [m["file"], str(m["line"]), str(m["col"]), m["operator"]]
    for count in (4, 3, 2):
        cut = len(fields) - count + 1
        if cut >= 1 and [":".join(fields[:cut])] + fields[cut:] == want[:count]:
            return True
    return False


def mutant_name(m):
    return f"{m['file']}:{m['line']}:{m['col']} {m['operator']} '{m['original']}' -> '{m['replacement']}'"


def rank(seed, m):
    return hashlib.sha256(f"{seed}\0{mutant_name(m)}".encode()).hexdigest()


def sources(root, paths):
    files = []
    for p in paths:
        full = os.path.join(root, p)
        if os.path.isdir(full):
            for dirpath, dirnames, filenames in os.walk(full):
                dirnames.sort()
                for f in sorted(filenames):
                    if f.endswith(".c"):
                        files.append(os.path.relpath(os.path.join(dirpath, f), root))
        elif os.path.isfile(full):
            files.append(os.path.relpath(full, root))
        else:
            die(f"{p}: no such file or directory under {root}")
    seen = set()
    return [f for f in files if not (f in seen or seen.add(f))]


def tracked_files(root, work):
    """The files of the checkout at root: git's files (tracked, and untracked ones it does not
    ignore), else every file but build trees
    (directories holding a CMakeCache.txt) and the scratch directory work."""
    try:
        out = subprocess.run(
            ["git", "-C", root, "ls-files", "-z", "--cached", "--others", "--exclude-standard"],
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
            check=True,
        ).stdout
        files = [f for f in out.decode().split("\0") if f]
        files = [f for f in files if os.path.isfile(os.path.join(root, f))]
        if files:
            return files
    except (OSError, subprocess.CalledProcessError):
        pass
    files = []
    for dirpath, dirnames, filenames in os.walk(root):
        dirnames[:] = sorted(
            d
            for d in dirnames
            if d != ".git"
            and os.path.join(dirpath, d) != work
            and not os.path.exists(os.path.join(dirpath, d, "CMakeCache.txt"))
        )
        for f in sorted(filenames):
            files.append(os.path.relpath(os.path.join(dirpath, f), root))
    return files


def refresh_copy(root, work, files):
    """Copy files from root into work, rewriting only those whose content differs."""
    for f in files:
        src, dst = os.path.join(root, f), os.path.join(work, f)
        with open(src, "rb") as fh:
            data = fh.read()
        try:
            with open(dst, "rb") as fh:
                if fh.read() == data:
                    continue
        except OSError:
            pass
        os.makedirs(os.path.dirname(dst), exist_ok=True)
        with open(dst, "wb") as fh:
            fh.write(data)
        shutil.copymode(src, dst)


def die_with_log(msg, log):
    """die, status 1, with the end of the log shown: a temporary scratch directory goes with it."""
    try:
        with open(log, errors="replace") as fh:
            tail = fh.read()[-4000:]
        sys.stderr.write(tail if tail.endswith("\n") else tail + "\n")
    except OSError:
        pass
    die(msg, 1)


def run_bounded(cmd, cwd, timeout, log):
    """Run cmd in its own process group; (status, seconds, timed_out); output appended to log."""
    start = time.monotonic()
    with open(log, "ab") as out:
        out.write(("$ " + " ".join(cmd) + "\n").encode())
        out.flush()
        proc = subprocess.Popen(cmd, cwd=cwd, stdout=out, stderr=subprocess.STDOUT, start_new_session=True)
        try:
            rc = proc.wait(timeout=timeout)
            timed_out = False
        except subprocess.TimeoutExpired:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait()
            rc, timed_out = -signal.SIGKILL, True
    return rc, time.monotonic() - start, timed_out


def main():
    ap = argparse.ArgumentParser(
        prog=PROG, description="Mutation testing of C sources in a CMake project (see the header)."
    )
    ap.add_argument("paths", nargs="+", metavar="PATH", help=".c files or directories to mutate")
    ap.add_argument("--root", default=".", help="the project's top directory (default: .)")
    ap.add_argument("--seed", type=int, default=0, help="picks the sample (default 0)")
    ap.add_argument("--max", type=int, default=0, help="mutants to run (default 0: all)")
    ap.add_argument("--max-each", type=int, default=0, help="mutants to run from each PATH")
    ap.add_argument("--at", action="append", default=[], metavar="FILE:LINE[:COL[:OPERATOR]]",
                    help="only the mutants there (repeatable): to run a survivor again")
    ap.add_argument("--operators", default=",".join(OPERATORS), help="comma-separated operators")
    ap.add_argument("--tests", default=None, help="ctest -R: the tests that run")
    ap.add_argument("--exclude-tests", default=None, help="ctest -E: tests left out")
    ap.add_argument("--timeout", type=float, default=0, help="seconds for one mutant's tests "
                    "(default: 3 times the unmutated run's, at least 10)")
    ap.add_argument("--test-timeout", type=float, default=0, help="ctest --timeout: seconds for "
                    "each test (default: ctest's)")
    ap.add_argument("--build-timeout", type=float, default=1200, help="seconds for one build")
    ap.add_argument("--build-target", action="append", default=[], help="targets to build (default all)")
    ap.add_argument("--cmake-arg", action="append", default=[], help="an argument for cmake's configure")
    ap.add_argument("--jobs", "-j", type=int, default=2, help="build and test jobs (default 2)")
    ap.add_argument("--workdir", default=None, help="scratch directory, kept (default: a temporary one)")
    ap.add_argument("--json", default=None, metavar="FILE", help="write every mutant's outcome")
    ap.add_argument("--list", action="store_true", help="print the sample and run nothing")
    args = ap.parse_args()

    root = os.path.realpath(args.root)
    if not os.path.isfile(os.path.join(root, "CMakeLists.txt")):
        die(f"{args.root}: no CMakeLists.txt: --root names a CMake project's top directory")
    operators = [o for o in args.operators.split(",") if o]
    for o in operators:
        if o not in OPERATORS:
            die(f"unknown operator '{o}' (known: {', '.join(OPERATORS)})")
    if args.max and args.max_each:
        die("--max and --max-each: give one")
    if args.max < 0 or args.max_each < 0 or args.jobs < 1 or args.timeout < 0 or args.test_timeout < 0:
        die("--max, --jobs, --timeout and --test-timeout take a positive number")

    files = []
    texts = {}
    candidates = []
    sample = []
    for p in args.paths:
        these = []
        for f in sources(root, [p]):
            if f in texts:
                continue
            files.append(f)
            with open(os.path.join(root, f), encoding="utf-8", errors="surrogateescape") as fh:
                texts[f] = fh.read()
            these.extend(mutants_of(f, texts[f], set(operators)))
        candidates.extend(these)
        these.sort(key=lambda m: rank(args.seed, m))
        sample.extend(these[: args.max_each] if args.max_each else these)
    if args.at:
        sample = [m for m in sample if any(at_matches(a, m) for a in args.at)]
    if not candidates:
        die("no mutants in " + " ".join(args.paths))
    if not sample:
        die("no mutant at " + " ".join(args.at))
    sample.sort(key=lambda m: rank(args.seed, m))
    if args.max:
        sample = sample[: args.max]
    sample.sort(key=lambda m: (m["file"], m["off"], OPERATORS.index(m["operator"])))
    nfiles = f"{len(files)} file" + ("s" if len(files) != 1 else "")
    print(f"{PROG}: {len(sample)} of {len(candidates)} mutants in {nfiles} (seed {args.seed})")
    if args.list:
        for m in sample:
            print(mutant_name(m))
        return 0

    keep = args.workdir is not None
    work = os.path.realpath(args.workdir) if keep else tempfile.mkdtemp(prefix="gmemlint-mutate-")
    if keep:
        if os.path.commonpath([work, root]) == work:
            die(f"--workdir {args.workdir} is --root or holds it: the scratch copy goes elsewhere")
        os.makedirs(work, exist_ok=True)
    src_dir = os.path.join(work, "src")
    build = os.path.join(work, "build")
    log = os.path.join(work, "mutate.log")
    try:
        return run_all(args, root, src_dir, build, log, texts, sample, len(candidates), operators)
    finally:
        for f, text in texts.items():  # the scratch copy's sources as they were
            path = os.path.join(src_dir, f)
            if os.path.exists(path):
                with open(path, encoding="utf-8", errors="surrogateescape") as fh:
                    if fh.read() == text:
                        continue
                with open(path, "w", encoding="utf-8", errors="surrogateescape") as fh:
                    fh.write(text)
        if not keep:
            shutil.rmtree(work, ignore_errors=True)


def run_all(args, root, src_dir, build, log, texts, sample, ncandidates, operators):
    refresh_copy(root, src_dir, tracked_files(root, os.path.dirname(src_dir)))
    for f in texts:
        if not os.path.exists(os.path.join(src_dir, f)):
            die(f"{f} is not among the checkout's files (git ignores it?)", 2)
    if not os.path.exists(os.path.join(build, "CMakeCache.txt")):
        rc, _, _ = run_bounded(
            ["cmake", "-S", src_dir, "-B", build, "-G", "Ninja"] + args.cmake_arg, src_dir, 600, log
        )
        if rc != 0:
            die_with_log(f"cmake failed to configure the scratch copy {src_dir}", log)
    build_cmd = ["cmake", "--build", build, "-j", str(args.jobs)]
    for t in args.build_target:
        build_cmd += ["--target", t]
    test_cmd = ["ctest", "--test-dir", build, "--stop-on-failure", "-j", str(args.jobs)]
    if args.tests:
        test_cmd += ["-R", args.tests]
    if args.exclude_tests:
        test_cmd += ["-E", args.exclude_tests]
    if args.test_timeout:
        test_cmd += ["--timeout", str(args.test_timeout)]

    t0 = time.monotonic()
    rc, build_s, _ = run_bounded(build_cmd, src_dir, args.build_timeout, log)
    if rc != 0:
        die_with_log("the unmutated build fails", log)
    rc, test_s, timed_out = run_bounded(test_cmd + ["--no-tests=error"], src_dir, 3600, log)
    if rc != 0:
        die_with_log("the unmutated tests fail, or no test matches --tests", log)
    timeout = args.timeout or max(10.0, 3 * test_s)
    print(f"{PROG}: unmutated build {build_s:.1f} s, tests {test_s:.1f} s; "
          f"timeout {timeout:.0f} s per mutant")
    sys.stdout.flush()

    results = []
    for i, m in enumerate(sample, 1):
        path = os.path.join(src_dir, m["file"])
        text = texts[m["file"]]
        mutated = text[: m["off"]] + m["replacement"] + text[m["end"] :]
        start = time.monotonic()
        with open(path, "w", encoding="utf-8", errors="surrogateescape") as fh:
            fh.write(mutated)
        try:
            rc, _, build_timed_out = run_bounded(build_cmd, src_dir, args.build_timeout, log)
            if rc != 0:
                status = "invalid"
            else:
                rc, _, timed_out = run_bounded(test_cmd, src_dir, timeout, log)
                with open(log, "rb") as fh:
                    fh.seek(max(0, os.path.getsize(log) - 20000))
                    tail = fh.read().decode(errors="replace")
                if timed_out or (rc != 0 and "***Timeout" in tail.rsplit("$ ctest", 1)[-1]):
                    status = "timeout"
                elif rc != 0:
                    status = "killed"
                else:
                    status = "survived"
        finally:
            with open(path, "w", encoding="utf-8", errors="surrogateescape") as fh:
                fh.write(text)
        seconds = time.monotonic() - start
        r = dict(m)
        del r["off"], r["end"]
        r["status"] = status
        r["seconds"] = round(seconds, 1)
        results.append(r)
        print(f"[{i}/{len(sample)}] {status:8} {mutant_name(m)} ({seconds:.1f} s)")
        sys.stdout.flush()

    summary = report(results)
    print(f"{PROG}: {len(results)} mutants in {time.monotonic() - t0:.0f} s")
    if args.json:
        doc = {
            "command": sys.argv,
            "seed": args.seed,
            "max": args.max,
            "max_each": args.max_each,
            "operators": operators,
            "tests": args.tests,
            "exclude_tests": args.exclude_tests,
            "candidates": ncandidates,
            "sample": len(results),
            "timeout": timeout,
            "summary": summary,
            "mutants": results,
        }
        with open(args.json, "w") as fh:
            json.dump(doc, fh, indent=1)
            fh.write("\n")
    return 0


STATUSES = ["killed", "survived", "invalid", "timeout"]


def rate(c):
    detected = c["killed"] + c["timeout"]
    total = detected + c["survived"]
    return None if total == 0 else detected / total


def report(results):
    def table(title, key):
        groups = {}
        for r in results:
            c = groups.setdefault(key(r), dict.fromkeys(STATUSES, 0))
            c[r["status"]] += 1
        width = max([len(title)] + [len(g) for g in groups])
        print()
        print(f"{title:<{width}}  killed  survived  invalid  timeout  kill rate")
        for g in sorted(groups):
            c = groups[g]
            r = rate(c)
            shown = "-" if r is None else f"{100 * r:.1f}%"
            print(
                f"{g:<{width}}  {c['killed']:6}  {c['survived']:8}  {c['invalid']:7}  "
                f"{c['timeout']:7}  {shown:>9}"
            )
        return {g: dict(c, kill_rate=rate(c)) for g, c in groups.items()}

    by_dir = table("directory", lambda r: os.path.dirname(r["file"]) or ".")
    by_file = table("file", lambda r: r["file"])
    by_op = table("operator", lambda r: r["operator"])
    total = dict.fromkeys(STATUSES, 0)
    for r in results:
        total[r["status"]] += 1
    t = rate(total)
    print()
    print(
        "total: {killed} killed, {survived} survived, {invalid} invalid, {timeout} timed out".format(**total)
        + ("; kill rate -" if t is None else f"; kill rate {100 * t:.1f}%")
    )
    survivors = [r for r in results if r["status"] == "survived"]
    if survivors:
        print()
        print("survivors:")
        for r in survivors:
            where = f"{r['file']}:{r['line']}:{r['col']}"
            print(f"  {where} {r['operator']}: {r['original']} -> {r['replacement']}")
    return {
        "total": dict(total, kill_rate=t),
        "directories": by_dir,
        "files": by_file,
        "operators": by_op,
    }


if __name__ == "__main__":
    try:
        sys.exit(main())
    except KeyboardInterrupt:
        print(f"{PROG}: interrupted", file=sys.stderr)
        sys.exit(130)
    except BrokenPipeError:  # `--list | head`
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        sys.exit(0)
