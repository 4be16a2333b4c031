#!/usr/bin/env python3
"""Injected defects: recall measured on defects nobody chose.

On a project linted as its build compiles it (a compile_commands.json), find the GPU
allocation/free pairs the current gmemlint is silent about and make one mutant per site and
kind, the variant chosen by a seed:

  leak                the free deleted (the pointer leaks on every path)
  leak-branch         the free made conditional (an error check, or a bit of the pointer)
  member-leak         the free of a member (p->m, s.m, this->m) deleted: the member is freed
                      nowhere in the program
  wrong-family        the free replaced by another family's (cudaFree <-> cudaFreeHost)
  double-free         the free made twice
  double-free-helper  the free made again through a helper defined at the end of the file
  churn               the allocation and its free wrapped in a new loop
  managed             a cudaMemPrefetchAsync/cudaMemAdvise of managed memory deleted

Each mutant is one file edited in place (lines keep their numbers: the edits stay on their own
lines, and a helper is appended at the end), the whole program linted again with the result
cache warm (so only the mutated file and the files whose imported summaries it changed are
parsed again), and the file restored. A mutant is counted as found (a finding of the expected
rule at the expected line, new against the unmutated run), found elsewhere (the rule, new,
elsewhere), not found, unanalysed (gmemlint gave up on the mutated file: counted as not
found, and shown apart), or invalid (it broke the parse: clang reported more errors in the file);
a cascade is any other new finding outside the edited lines. Recall = found / valid mutants.

Why: the measured half's labels are defects someone could read and fixes were drawn from them.
Defects injected by a seed at sites the tool already handles silently cannot be tuned to.

Sites are found by a lexer, not a parser: calls in comments, strings and preprocessor lines are
skipped; a free whose statement cannot be delimited (inside a condition, a return, a macro's
definition) is not mutated. Only the compile database's own files are mutated, never headers.

Usage:
  inject.py --db DIR_OR_FILE --gmemlint BIN [--seed N] [--project NAME] [--out DIR]
            [--max N] [--kinds K,K] [--jobs N] [--keep-going]
  inject.py --summarize RESULTS.json... (the tables again from earlier runs)
Exit status: 0 the measurement ran; 2 bad usage or input (a database that cannot be read).
"""
import argparse
import collections
import hashlib
import json
import os
import random
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import time

PROG = "inject"
KINDS = ["leak", "leak-branch", "member-leak", "wrong-family", "double-free",
         "double-free-helper", "churn", "managed"]
EXPECTED_RULE = {"leak": "GM001", "leak-branch": "GM001", "member-leak": "GM001",
                 "wrong-family": "GM002", "double-free": "GM003",
                 "double-free-helper": "GM003", "churn": "GM010", "managed": "GM030"}
# the goals of issue 38, by group of kinds
GROUPS = [("leaks, wrong and double frees",
           ["leak", "leak-branch", "member-leak", "wrong-family", "double-free",
            "double-free-helper"], 0.90),
          ("churn and managed access", ["churn", "managed"], 0.80)]

# allocation calls whose first argument is the address of the pointer they fill, by family
ALLOCS = {
    "cudaMalloc": "device", "cudaMallocPitch": "device", "cudaMallocAsync": "device",
    "cudaMallocFromPoolAsync": "device", "cudaMallocManaged": "managed",
    "cudaMallocHost": "pinned", "cudaHostAlloc": "pinned",
}
# frees of the runtime API taking the pointer first; their family and the wrong ones to swap in
FREES = {"cudaFree": "device", "cudaFreeAsync": "device", "cudaFreeHost": "pinned"}
FREES_OF = {"device": {"cudaFree", "cudaFreeAsync"}, "managed": {"cudaFree", "cudaFreeAsync"},
            "pinned": {"cudaFreeHost"}}
WRONG_FREE = {"device": ["cudaFreeHost"], "managed": ["cudaFreeHost"], "pinned": ["cudaFree"]}
HINTS = {"cudaMemPrefetchAsync", "cudaMemAdvise"}
CONTROL = {"if", "for", "while", "switch", "catch"}
BODY_QUALIFIERS = {"const", "noexcept", "override", "final", "mutable", "volatile", "&", "&&"}


def die(msg, code=2):
    print(f"{PROG}: error: {msg}", file=sys.stderr)
    sys.exit(code)


# ---------------------------------------------------------------------------------- lexing

class Tok:
    __slots__ = ("text", "start", "end", "line")

    def __init__(self, text, start, end, line):
        self.text, self.start, self.end, self.line = text, start, end, line


PUNCT3 = {"<<=", ">>=", "...", "->*"}
PUNCT2 = {"->", "::", "++", "--", "<<", ">>", "<=", ">=", "==", "!=", "&&", "||", "+=", "-=",
          "*=", "/=", "%=", "&=", "|=", "^=", ".*", "##"}


def lex(src):
    """C/C++ tokens outside comments, literals' insides and preprocessor lines."""
    toks = []
    i, n, line = 0, len(src), 1
    at_line_start = True
    while i < n:
        c = src[i]
        if c == "\n":
            line += 1
            i += 1
            at_line_start = True
            continue
        if c in " \t\r\f\v":
            i += 1
            continue
        if c == "#" and at_line_start:  # a directive, with its continuation lines
            while i < n and src[i] != "\n":
                if src[i] == "\\" and src.startswith("\n", i + 1):
                    line += 1
                    i += 2
                    continue
                if src[i] == "\\" and src.startswith("\r\n", i + 1):
                    line += 1
                    i += 3
                    continue
                if src.startswith("/*", i):
                    j = src.find("*/", i + 2)
                    j = n if j < 0 else j + 2
                    line += src.count("\n", i, j)
                    i = j
                    continue
                i += 1
            continue
        at_line_start = False
        if src.startswith("//", i):
            j = src.find("\n", i)
            i = n if j < 0 else j
            continue
        if src.startswith("/*", i):
            j = src.find("*/", i + 2)
            j = n if j < 0 else j + 2
            line += src.count("\n", i, j)
            i = j
            continue
        if c == '"' or c == "'":
            j = i + 1
            while j < n and src[j] != c and src[j] != "\n":
                j += 2 if src[j] == "\\" else 1
            j = min(j + 1, n)
            toks.append(Tok(src[i:j], i, j, line))
            i = j
            continue
        if c.isalpha() or c == "_":
            j = i + 1
            while j < n and (src[j].isalnum() or src[j] == "_"):
                j += 1
            if src[j:j + 1] == '"' and src[i:j] in ("R", "u8R", "LR", "uR", "UR"):
                m = re.match(r'"([^ ()\\\t\n]{0,16})\(', src[j:])
                if m:  # a raw string: to its closing )delim"
                    close = src.find(")" + m.group(1) + '"', j)
                    close = n if close < 0 else close + len(m.group(1)) + 2
                    line_before = line
                    line += src.count("\n", i, close)
                    toks.append(Tok(src[i:close], i, close, line_before))
                    i = close
                    continue
            toks.append(Tok(src[i:j], i, j, line))
            i = j
            continue
        if c.isdigit() or (c == "." and i + 1 < n and src[i + 1].isdigit()):
            j = i + 1
            while j < n and (src[j].isalnum() or src[j] in "._'" or
                             (src[j] in "+-" and src[j - 1] in "eEpP")):
                j += 1
            toks.append(Tok(src[i:j], i, j, line))
            i = j
            continue
        for width, table in ((3, PUNCT3), (2, PUNCT2)):
            if src[i:i + width] in table:
                toks.append(Tok(src[i:i + width], i, i + width, line))
                i += width
                break
        else:
            toks.append(Tok(c, i, i + 1, line))
            i += 1
    return toks


def match_brackets(toks):
    """Index of each bracket's partner ((), [], {}), for the tokens that pair."""
    partner = {}
    stack = []
    opening = {"(": ")", "[": "]", "{": "}"}
    for k, t in enumerate(toks):
        if t.text in opening:
            stack.append(k)
        elif t.text in (")", "]", "}"):
            # unbalanced code (an #if with two openings): pop to the matching kind
            while stack and opening[toks[stack[-1]].text] != t.text:
                stack.pop()
            if stack:
                o = stack.pop()
                partner[o] = k
                partner[k] = o
    return partner


# ------------------------------------------------------------------------- source model

class Unit:
    """One source file: its tokens, brackets, function bodies and calls."""

    def __init__(self, path, src, root):
        self.path, self.src = path, src
        self.rel = os.path.relpath(path, root)
        self.toks = lex(src)
        self.partner = match_brackets(self.toks)
        self.bodies = self._function_bodies()

    def _function_bodies(self):
        toks, partner, bodies = self.toks, self.partner, []
        for k, t in enumerate(toks):
            if t.text != "{" or k not in partner:
                continue
            j = k - 1
            while j >= 0 and toks[j].text in BODY_QUALIFIERS:
                j -= 1
            if j >= 0 and toks[j].text == "]":  # a lambda without parameters
                bodies.append((k, partner[k], "lambda"))
                continue
            if j < 0 or toks[j].text != ")" or j not in partner:
                continue
            o = partner[j]
            before = toks[o - 1].text if o > 0 else ""
            if before in CONTROL:
                continue
            bodies.append((k, partner[k], "lambda" if before == "]" else before))
        return bodies

    def function_of(self, k):
        """The innermost function body holding token k: (open, close, name) or None."""
        best = None
        for b in self.bodies:
            if b[0] < k < b[1] and (best is None or b[0] > best[0]):
                best = b
        return best

    def block_of(self, k):
        """The innermost brace block holding token k (its opening index), or -1."""
        best = -1
        for o, c in self.partner.items():
            if o < k < c and self.toks[o].text == "{" and o > best:
                best = o
        return best

    def calls(self, names):
        """(index of the name, index of its '(') for each call of one of names."""
        out = []
        for k, t in enumerate(self.toks[:-1]):
            if t.text in names and self.toks[k + 1].text == "(" and k + 1 in self.partner:
                prev = self.toks[k - 1].text if k else ""
                if prev in (".", "->", "::") and not (prev == "::" and (
                        k < 2 or not self.toks[k - 2].text[:1].isalnum())):
                    continue  # a method or another namespace's function of that name
                out.append((k, k + 1))
        return out

    def args(self, lparen):
        """The argument token ranges [(first, last)] of the call opened at lparen."""
        rparen = self.partner[lparen]
        out, start, depth = [], lparen + 1, 0
        for k in range(lparen + 1, rparen):
            t = self.toks[k].text
            if t in "([{":
                depth += 1
            elif t in ")]}":
                depth -= 1
            elif t == "," and depth == 0:
                out.append((start, k - 1))
                start = k + 1
        if start <= rparen - 1:
            out.append((start, rparen - 1))
        return out

    def text(self, first, last):
        return self.src[self.toks[first].start:self.toks[last].end]

    def statement(self, k):
        """The expression statement holding the call at token k: (first, last token, where
        last is its ';'), or None when the call is not one (a condition, a return, an
        initialiser of a declaration with the call inside, a for header)."""
        toks, partner = self.toks, self.partner
        j = k - 1
        while j >= 0:
            t = toks[j].text
            if t in (";", "{", "}", "else", "do") or (t == ":" and j > 0 and
                                                       toks[j - 1].text not in ("?",)):
                break
            if t == ")" and j in partner:
                o = partner[j]
                if o > 0 and toks[o - 1].text in CONTROL:
                    break  # the condition of the statement this one is the body of
                j = o - 1
                continue
            if t in ("(", "["):
                o = j
                if o > 0 and toks[o - 1].text in CONTROL:
                    return None  # inside a condition or a for header
                j -= 1
                continue
            if t == "]" and j in partner:
                j = partner[j] - 1
                continue
            if t in ("return", "throw", "case") and not self._inside_parens(j, k):
                return None
            j -= 1
        first = j + 1
        if self._declares(first, k):
            return None  # its result initialises a variable: deleting it would break its uses
        # forward to the ';' that ends it, at the depth of its first token
        depth, m = 0, first
        while m < len(toks):
            t = toks[m].text
            if t in "([{":
                depth += 1
            elif t in ")]}":
                depth -= 1
                if depth < 0:
                    return None
            elif t == ";" and depth == 0:
                break
            m += 1
        if m >= len(toks) or not first <= k < m:
            return None
        if toks[first].text in ("if", "for", "while", "switch", "do", "else", "return"):
            return None
        return first, m

    def _declares(self, first, k):
        """The statement from token first declares a variable with the call at k inside its
        initialiser (`cudaError_t e = cudaFree(p);`), rather than assigning one."""
        toks = self.toks
        eq = next((j for j in range(first, k) if toks[j].text == "="), None)
        if eq is None:
            return False
        lhs = [t.text for t in toks[first:eq]]
        words = [w[:1].isalpha() or w[:1] == "_" for w in lhs]
        if "auto" in lhs:
            return True
        for a in range(len(lhs) - 1):
            if words[a] and words[a + 1]:
                return True  # a type, then the name
            if words[a] and lhs[a + 1] in ("*", "&") and a + 2 < len(lhs) and words[a + 2]:
                return True  # T *name
            if lhs[a] == ">" and words[a + 1]:
                return True  # std::unique_ptr<T> name
        return False

    def _inside_parens(self, j, k):
        """Token j lies inside brackets that also hold token k (a macro's argument list)."""
        for o, c in self.partner.items():
            if o < j < c and o < k < c and self.toks[o].text in "([":
                return True
        return False


def normalise_pointer(text):
    """A pointer's expression as written, without casts, spaces or an address-of."""
    t = re.sub(r"\s+", "", text)
    while True:
        u = re.sub(r"^\((?:void|char|float|double|int|unsigned|[A-Za-z_][\w:<>]*)\**\)", "", t)
        u = re.sub(r"^(?:reinterpret|static|const)_cast<[^<>]*(?:<[^<>]*>[^<>]*)*>\((.*)\)$",
                   r"\1", u)
        if u.startswith("(") and u.endswith(")") and balanced(u[1:-1]):
            u = u[1:-1]
        if u == t:
            return t
        t = u


def balanced(s):
    depth = 0
    for c in s:
        depth += c == "("
        depth -= c == ")"
        if depth < 0:
            return False
    return depth == 0


def address_of(text):
    """The pointer whose address an allocation's first argument takes, or None."""
    t = normalise_pointer(text)
    if not t.startswith("&"):
        return None
    return normalise_pointer(t[1:])


def member_name(ptr):
    """The member a pointer expression names (p->m, s.m, this->m), or None."""
    m = re.search(r"(?:->|\.)([A-Za-z_]\w*)$", ptr)
    return m.group(1) if m else None


# --------------------------------------------------------------------------- the sites

class Site:
    """A statement of the unmutated program, with its first and last line."""

    def __init__(self, unit, first, last, call):
        self.unit, self.first, self.last, self.call = unit, first, last, call
        self.line = unit.toks[call].line
        self.lines = (unit.toks[first].line, unit.toks[last].line)
        self.name = unit.toks[call].text
        self.func = unit.function_of(call)
        self.block = unit.block_of(call)

    def span(self):
        return self.unit.toks[self.first].start, self.unit.toks[self.last].end

    def text(self):
        a, b = self.span()
        return self.unit.src[a:b]


def find_sites(units):
    """Allocations and frees by pointer; prefetch hints; per unit."""
    allocs, frees, hints = [], [], []
    for u in units:
        for k, lp in u.calls(set(ALLOCS) | set(FREES) | HINTS):
            args = u.args(lp)
            if not args:
                continue
            name = u.toks[k].text
            if name in ALLOCS:
                ptr = address_of(u.text(*args[0]))
                if not ptr:
                    continue
                stmt = u.statement(k)
                s = Site(u, stmt[0], stmt[1], k) if stmt else Site(u, k, u.partner[lp], k)
                s.ptr, s.family, s.statement_ok = ptr, ALLOCS[name], stmt is not None
                allocs.append(s)
            else:
                stmt = u.statement(k)
                if not stmt:
                    continue
                s = Site(u, stmt[0], stmt[1], k)
                s.ptr, s.args, s.lparen = normalise_pointer(u.text(*args[0])), args, lp
                (frees if name in FREES else hints).append(s)
    return allocs, frees, hints


# ----------------------------------------------------------------------------- mutants

class Mutant:
    def __init__(self, kind, site, unit, edits, expect, variant, edited_lines):
        self.kind, self.site, self.unit = kind, site, unit
        self.edits = edits  # [(start, end, replacement)], non-overlapping, in the unit
        self.expect = expect  # [(path, first line, last line)] where the finding belongs
        self.variant = variant
        self.edited_lines = edited_lines  # [(first, last)] in the unit: edits, not cascades
        h = hashlib.sha1(f"{kind}|{unit.path}|{site.line}|{variant}".encode()).hexdigest()
        self.ident = h[:12]

    def source(self):
        src = self.unit.src
        for a, b, r in sorted(self.edits, reverse=True):
            src = src[:a] + r + src[b:]
        return src

    def describe(self):
        return f"{self.kind} {self.unit.rel}:{self.site.line} ({self.variant})"


def keep_lines(text):
    """A replacement for text that keeps its line breaks, so no later line moves."""
    return "\n" * text.count("\n")


def braced(stmt_text, body):
    """body in braces on the statement's own lines (a dangling else keeps its if)."""
    return "{ " + body + " }" + keep_lines(stmt_text)


def free_call(site, name=None, arg=None):
    """The site's free as a plain call, perhaps of another function or argument."""
    u = site.unit
    a0 = arg if arg is not None else u.text(*site.args[0])
    rest = [u.text(*a) for a in site.args[1:]]
    fname = name or site.name
    if fname == "cudaFreeHost":
        rest = []  # one argument only
    elif fname == "cudaFreeAsync" and not rest:
        rest = ["0"]
    return f"{fname}({', '.join([a0] + rest)})"


def make_mutants(units, allocs, frees, hints, silent, rng, kinds):
    """Every (site, kind) mutant of the program, the variant picked by rng."""
    by_ptr = collections.defaultdict(list)
    by_member = collections.defaultdict(list)
    for a in allocs:
        by_ptr[(a.unit.path, a.ptr)].append(a)
        m = member_name(a.ptr)
        by_member[m or a.ptr].append(a)
    out = []
    helper_count = collections.Counter()

    def loc(s):
        return (s.unit.path, s.lines[0], s.lines[1])

    for f in frees:
        same_file = by_ptr.get((f.unit.path, f.ptr), [])
        local = [a for a in same_file if a.func and f.func and a.func[0] == f.func[0]
                 and a.call < f.call]
        family = FREES[f.name]
        fam_allocs = [a for a in (local or same_file) if f.name in FREES_OF[a.family]]
        member = member_name(f.ptr)
        if not silent(f) or any(not silent(a) for a in local):
            continue
        text = f.text()
        a0, b0 = f.span()
        lines = [f.lines]
        if local and not member and "leak" in kinds:
            out.append(Mutant("leak", f, f.unit, [(a0, b0, ";" + keep_lines(text))],
                              [loc(a) for a in local], "deleted", lines))
        if local and not member and "leak-branch" in kinds:
            variant = rng.choice(["error-check", "pointer-bit"])
            cond = ("cudaGetLastError() == cudaSuccess" if variant == "error-check" else
                    f"((size_t)({f.unit.text(*f.args[0])}) & 256) == 0")
            out.append(Mutant("leak-branch", f, f.unit,
                              [(a0, b0, braced(text, f"if ({cond}) {text.strip()}"))],
                              [loc(a) for a in local], variant, lines))
        if (member or not local) and "member-leak" in kinds:
            # memory an object holds: a member (freed where it was allocated or elsewhere), or
            # a global allocated in another function (a member of the program's global object)
            targets = local if local else [
                a for a in by_member.get(member or f.ptr, [])
                if silent(a) and (member or a.func != f.func)]
            if targets and (member or re.fullmatch(r"[A-Za-z_]\w*", f.ptr)):
                out.append(Mutant("member-leak", f, f.unit, [(a0, b0, ";" + keep_lines(text))],
                                  [loc(a) for a in targets], "member" if member else "global",
                                  lines))
        if fam_allocs and "wrong-family" in kinds:
            target = rng.choice(WRONG_FREE[fam_allocs[0].family])
            lp = f.lparen
            rp = f.unit.partner[lp]
            call_a, call_b = f.unit.toks[f.call].start, f.unit.toks[rp].end
            out.append(Mutant("wrong-family", f, f.unit,
                              [(call_a, call_b, free_call(f, name=target))],
                              [loc(f)], target, lines))
        if (local or same_file or member) and "double-free" in kinds:
            out.append(Mutant("double-free", f, f.unit,
                              [(a0, b0, braced(text, text.strip() + " " + text.strip()))],
                              [loc(f)], "twice", lines))
        if (local or same_file or member) and family != "none" and "double-free-helper" in kinds:
            helper_count[f.unit.path] += 1
            helper = f"gmem_inject_release_{helper_count[f.unit.path]}"
            call_arg = f.unit.text(*f.args[0])
            end = len(f.unit.src)
            nl = "" if f.unit.src.endswith("\n") else "\n"
            definition = (f"{nl}void {helper}(void *gmem_inject_p) "
                          f"{{ {free_call(f, arg='gmem_inject_p')}; }}\n")
            helper_line = f.unit.src.count("\n") + (2 if nl else 1)
            out.append(Mutant(
                "double-free-helper", f, f.unit,
                [(a0, b0, braced(text, f"{text.strip()} {{ void {helper}(void *); "
                                 f"{helper}((void *)({call_arg})); }}")),
                 (end, end, definition)],
                [loc(f), (f.unit.path, helper_line, helper_line + 1)], "helper", lines))
        if local and "churn" in kinds:
            a = local[-1]
            if a.statement_ok and a.block == f.block and a.block >= 0:
                trips = rng.choice([10, 100, 1000])
                s0, _ = a.span()
                loop = (f"for (int gmem_inject_i = 0; gmem_inject_i < {trips}; "
                        f"++gmem_inject_i) {{ ")
                out.append(Mutant("churn", f, f.unit, [(s0, s0, loop), (b0, b0, " }")],
                                  [loc(a)], f"{trips} trips", [(a.lines[0], f.lines[1])]))
    if "managed" in kinds:
        # every hint of one pointer in one function goes at once (one left would still move the
        # pages); the pointer may be a plain copy of the managed one (`d_arr = arr;`)
        groups = collections.OrderedDict()
        for h in hints:
            if h.func:
                groups.setdefault((h.unit.path, h.func[0], h.ptr), []).append(h)
        for (path, _, ptr), group in groups.items():
            unit = group[0].unit
            names = {ptr} | {m.group(2) for m in re.finditer(
                r"\b" + re.escape(ptr) + r"\s*=\s*([(][^()]*[)]\s*)?([A-Za-z_]\w*)\s*;",
                unit.src)} if re.fullmatch(r"[A-Za-z_]\w*", ptr) else {ptr}
            managed = [a for n in names for a in by_ptr.get((path, n), [])
                       if a.family == "managed"]
            if not managed or any(not silent(x) for x in group + managed):
                continue
            if not launches_after(group[0], ptr):
                continue  # no kernel is given the memory after the hint in its function
            edits = [(h.span()[0], h.span()[1], ";" + keep_lines(h.text())) for h in group]
            out.append(Mutant("managed", group[0], unit, edits, [loc(a) for a in managed],
                              f"{len(group)} {'hint' if len(group) == 1 else 'hints'}",
                              [h.lines for h in group]))
    return out


def launches_after(site, ptr):
    """A kernel launch (<<<...>>>) after the site, in its function, that names the pointer."""
    u, f = site.unit, site.func
    if not f:
        return False
    base = re.match(r"[A-Za-z_]\w*", ptr)
    toks = u.toks
    for k in range(site.last, f[1] - 1):
        if toks[k].text == "<<" and toks[k + 1].text == "<":
            end = k
            while end < f[1] and toks[end].text != ";":
                end += 1
            if base and any(t.text == base.group(0) for t in toks[k:end]):
                return True
    return False


# ------------------------------------------------------------------------------ linting

class Program:
    """The project's compile database and gmemlint runs over it, with a private cache."""

    def __init__(self, db, gmemlint, cache, jobs):
        self.db = db
        self.dbdir = os.path.dirname(db)
        self.gmemlint, self.cache, self.jobs = gmemlint, cache, jobs
        try:
            with open(db) as fh:
                entries = json.load(fh)
        except (OSError, ValueError) as e:
            die(f"{db}: cannot read the compile database: {e}")
        if not isinstance(entries, list):
            die(f"{db}: a compile database is a JSON array of entries")
        self.files = []
        for e in entries:
            if not isinstance(e, dict) or "file" not in e:
                continue
            path = e["file"]
            if not os.path.isabs(path):
                path = os.path.join(e.get("directory", self.dbdir), path)
            path = os.path.realpath(path)
            if os.path.isfile(path) and path not in self.files:
                self.files.append(path)

    def lint(self):
        cmd = [self.gmemlint, "-p", self.db, "--format=json", "--cache-dir", self.cache,
               "-j", str(self.jobs), "--no-progress"]
        start = time.monotonic()
        r = subprocess.run(cmd, cwd=self.dbdir, stdout=subprocess.PIPE,
                           stderr=subprocess.PIPE, text=True)
        seconds = time.monotonic() - start
        try:
            doc = json.loads(r.stdout)
        except ValueError:
            return None, seconds, r.stderr
        return doc, seconds, r.stderr


def finding_key(f):
    return (f["rule"], os.path.realpath(f["file"]) if f.get("file") else "", f.get("line", 0))


def parse_errors(doc):
    """Clang's error count per file (a file not analysed counts as many)."""
    out = collections.Counter()
    for n in doc.get("notices", []):
        if n.get("kind") == "parse-errors":
            path = os.path.realpath(n.get("file", ""))
            out[path] += n.get("errors", 1) + (10**6 if not n.get("analysed", True) else 0)
    return out


def not_analysed(doc):
    """Files gmemlint gave up on without a parse error of the code (libclang failed, a crash,
    the time bound): the tool's failure, not the mutant's."""
    return {os.path.realpath(n.get("file", "")) for n in doc.get("notices", [])
            if n.get("kind") == "not-analysed"}


# how sources are read and written: no newline translation, undecodable bytes kept, so that a
# file is restored byte for byte
TEXT = {"encoding": "utf-8", "errors": "surrogateescape", "newline": ""}


class Journal:
    """Files edited in place, with their original text, so no run leaves one mutated:
    restored after each mutant, at exit, on SIGINT/SIGTERM, and by the next run."""

    def __init__(self, workdir):
        self.dir = os.path.join(workdir, "journal")
        os.makedirs(self.dir, exist_ok=True)
        self.recover()

    def _entry(self, path):
        return os.path.join(self.dir, hashlib.sha1(path.encode()).hexdigest())

    def recover(self):
        for name in os.listdir(self.dir):
            if not name.endswith(".path"):
                continue
            base = os.path.join(self.dir, name[:-5])
            with open(base + ".path") as fh:
                path = fh.read()
            shutil.copyfile(base + ".orig", path)  # byte for byte
            print(f"{PROG}: restored {path} from an interrupted run", file=sys.stderr)
            os.unlink(base + ".orig")
            os.unlink(base + ".path")

    def write(self, path, original, text):
        base = self._entry(path)
        with open(base + ".orig", "w", **TEXT) as fh:
            fh.write(original)
        with open(base + ".path", "w") as fh:
            fh.write(path)
        with open(path, "w", **TEXT) as fh:
            fh.write(text)

    def restore(self, path, original):
        with open(path, "w", **TEXT) as fh:
            fh.write(original)
        base = self._entry(path)
        for ext in (".path", ".orig"):
            if os.path.exists(base + ext):
                os.unlink(base + ext)


def judge(mutant, doc, base_keys, base_errors):
    """found | elsewhere | missed | invalid, and the cascades (new findings elsewhere)."""
    path = mutant.unit.path
    errors = parse_errors(doc)
    if errors.get(path, 0) > base_errors.get(path, 0):
        return "invalid", []
    if path in not_analysed(doc):
        return "unanalysed", []  # counted as not found: the user is told nothing either
    rule = EXPECTED_RULE[mutant.kind]
    new = list((collections.Counter(finding_key(f) for f in doc.get("findings", [])) -
                base_keys).elements())

    def expected_at(key):
        return any(key[1] == p and a <= key[2] <= b for p, a, b in mutant.expect)

    def edited(key):
        return key[1] == path and any(a <= key[2] <= b for a, b in mutant.edited_lines)

    # only new findings count: a finding at the expected place before the mutation would have
    # made the site not silent, and no mutant was made of it
    found = [k for k in new if k[0] == rule and expected_at(k)]
    outcome = "found" if found else (
        "elsewhere" if any(k[0] == rule for k in new) else "missed")
    cascades = [k for k in new if not expected_at(k) and not edited(k) and
                not (outcome == "elsewhere" and k[0] == rule)]
    return outcome, cascades


# ------------------------------------------------------------------------------- tables

def table(rows, key_name, keys):
    """Recall per key: mutants, invalid, found, elsewhere, missed, cascades."""
    lines = [f"{key_name:<26} {'mutants':>7} {'invalid':>7} {'found':>6} {'elsewhere':>9} "
             f"{'missed':>6} {'unanalysed':>10} {'recall':>7} {'cascades':>8}"]
    total = collections.Counter()
    for key in keys:
        c = collections.Counter()
        for r in rows:
            if r[key_name] == key:
                c["mutants"] += 1
                c[r["outcome"]] += 1
                c["cascades"] += bool(r["cascades"]) and r["outcome"] != "invalid"
        total.update(c)
        lines.append(format_row(key, c))
    lines.append(format_row("all", total))
    return "\n".join(lines)


def format_row(key, c):
    valid = c["mutants"] - c["invalid"]
    recall = f"{100 * c['found'] / valid:.0f}%" if valid else "-"
    cascades = f"{c['cascades']} ({100 * c['cascades'] / valid:.0f}%)" if valid else "0"
    return (f"{key:<26} {c['mutants']:>7} {c['invalid']:>7} {c['found']:>6} "
            f"{c['elsewhere']:>9} {c['missed']:>6} {c['unanalysed']:>10} {recall:>7} "
            f"{cascades:>8}")


def summarize(rows, seed, out=sys.stdout):
    print(f"seed {seed}", file=out)
    kinds = [k for k in KINDS if any(r["kind"] == k for r in rows)]
    print(table(rows, "kind", kinds), file=out)
    projects = sorted({r["project"] for r in rows})
    if len(projects) > 1:
        print("", file=out)
        print(table(rows, "project", projects), file=out)
    print("", file=out)
    for name, group, goal in GROUPS:
        valid = [r for r in rows if r["kind"] in group and r["outcome"] != "invalid"]
        found = sum(r["outcome"] == "found" for r in valid)
        figure = f"{100 * found / len(valid):.0f}%" if valid else "-"
        print(f"{name}: recall {figure} ({found}/{len(valid)}), goal {100 * goal:.0f}%",
              file=out)
    # a defect in main lives until the process exits: a user weighs it less (issue 40 gives
    # leaks at exit a rule of their own), so its share is shown apart
    in_main = [r for r in rows if r.get("function") == "main" and r["outcome"] != "invalid"]
    if in_main:
        found = sum(r["outcome"] == "found" for r in in_main)
        rest = [r for r in rows if r.get("function") != "main" and r["outcome"] != "invalid"]
        rest_found = sum(r["outcome"] == "found" for r in rest)
        rest_figure = f"{100 * rest_found / len(rest):.0f}%" if rest else "-"
        print(f"in main: {len(in_main)} valid mutants, recall {100 * found / len(in_main):.0f}%"
              f"; elsewhere: {len(rest)}, recall {rest_figure}", file=out)
    valid = [r for r in rows if r["outcome"] != "invalid"]
    cascaded = sum(bool(r["cascades"]) for r in valid)
    figure = f"{100 * cascaded / len(valid):.1f}%" if valid else "-"
    print(f"mutants with cascades: {figure} ({cascaded}/{len(valid)}), goal under 5%", file=out)


# -------------------------------------------------------------------------------- main

def main():
    ap = argparse.ArgumentParser(prog=PROG, description="Injected GPU memory defects: recall.")
    ap.add_argument("--db", help="compile_commands.json or the directory holding it")
    ap.add_argument("--gmemlint", help="the gmemlint binary to measure")
    ap.add_argument("--seed", type=int, help="picks variants and the sample (default: new)")
    ap.add_argument("--project", help="the project's name in the tables (default: the "
                    "database's directory)")
    ap.add_argument("--out", help="where results, cache and journal go (default: a new "
                    "temporary directory)")
    ap.add_argument("--cache", help="gmemlint's result cache and the journal of files edited "
                    "in place, kept between runs on the same project (default: OUT/cache)")
    ap.add_argument("--max", type=int, default=0, help="at most N mutants, sampled by the "
                    "seed (default: all)")
    ap.add_argument("--kinds", default=",".join(KINDS), help="comma-separated kinds")
    ap.add_argument("--jobs", type=int, default=2, help="gmemlint -j (default 2)")
    ap.add_argument("--list", action="store_true", help="print the mutants; lint nothing "
                    "but the unmutated program")
    ap.add_argument("--summarize", nargs="+", metavar="RESULTS.json",
                    help="print the tables of earlier runs' results, merged")
    a = ap.parse_args()
    if a.summarize:
        rows, seeds = [], set()
        for path in a.summarize:
            try:
                with open(path) as fh:
                    doc = json.load(fh)
                rows += doc["mutants"]
                seeds.add(doc["seed"])
            except (OSError, ValueError, KeyError) as e:
                die(f"{path}: not a results file of {PROG}: {e}")
        summarize(rows, ", ".join(str(s) for s in sorted(seeds)))
        return 0
    if not a.db or not a.gmemlint:
        ap.print_usage(sys.stderr)
        die("--db and --gmemlint are required")
    kinds = [k for k in a.kinds.split(",") if k]
    for k in kinds:
        if k not in KINDS:
            die(f"unknown kind '{k}' (kinds: {', '.join(KINDS)})")
    db = a.db
    if os.path.isdir(db):
        db = os.path.join(db, "compile_commands.json")
    db = os.path.realpath(db)
    if not os.path.isfile(db):
        die(f"{a.db}: no compile_commands.json there")
    gmemlint = shutil.which(a.gmemlint) or a.gmemlint
    if not os.access(gmemlint, os.X_OK):
        die(f"{a.gmemlint}: not an executable")
    gmemlint = os.path.realpath(gmemlint)
    seed = a.seed if a.seed is not None else random.SystemRandom().randrange(1, 10**6)
    project = a.project or os.path.basename(os.path.dirname(db))
    workdir = a.out or tempfile.mkdtemp(prefix="gmem-inject-")
    os.makedirs(workdir, exist_ok=True)
    cache = a.cache or os.path.join(workdir, "cache")
    os.makedirs(cache, exist_ok=True)
    journal = Journal(cache)
    prog = Program(db, gmemlint, cache, a.jobs)

    base, base_seconds, err = prog.lint()
    if base is None:
        die(f"{db}: gmemlint gave no JSON on the unmutated program: {err.strip()[:400]}")
    base_keys = collections.Counter(finding_key(f) for f in base.get("findings", []))
    base_errors = parse_errors(base)
    noisy = collections.defaultdict(set)  # lines that already have a finding, per file
    for r, path, line in base_keys:
        noisy[path].add(line)

    def silent(site):
        lines = noisy.get(site.unit.path, ())
        return not any(site.lines[0] <= ln <= site.lines[1] for ln in lines)

    units = []
    skipped = not_analysed(base)
    for path in prog.files:
        if base_errors.get(path, 0) >= 10**6 or path in skipped:
            continue  # not analysed at all: no mutant of it can be judged
        try:
            # newline="": the text exactly as it is (CRLF files stay CRLF when restored)
            with open(path, **TEXT) as fh:
                units.append(Unit(path, fh.read(), prog.dbdir))
        except OSError as e:
            print(f"{PROG}: warning: {path}: {e.strerror}; not mutated", file=sys.stderr)
    allocs, frees, hints = find_sites(units)
    rng = random.Random(seed)
    mutants = make_mutants(units, allocs, frees, hints, silent, rng, kinds)
    if a.max and len(mutants) > a.max:
        mutants = random.Random(seed).sample(mutants, a.max)
        mutants.sort(key=lambda m: (m.unit.path, m.site.line, KINDS.index(m.kind)))
    print(f"{project}: {len(prog.files)} files, {len(allocs)} allocations, {len(frees)} frees, "
          f"{len(mutants)} mutants (seed {seed}); unmutated run {base_seconds:.1f} s",
          file=sys.stderr)
    if a.list:
        for m in mutants:
            print(m.describe())
        return 0

    rows = []
    current = {}

    def on_signal(signum, frame):
        for path, original in current.items():
            journal.restore(path, original)
        sys.exit(128 + signum)

    signal.signal(signal.SIGINT, on_signal)
    signal.signal(signal.SIGTERM, on_signal)
    start = time.monotonic()
    for i, m in enumerate(mutants):
        path, original = m.unit.path, m.unit.src
        current[path] = original
        try:
            journal.write(path, original, m.source())
            doc, seconds, err = prog.lint()
        finally:
            journal.restore(path, original)
            current.pop(path, None)
        if doc is None:
            outcome, cascades = "invalid", []
        else:
            outcome, cascades = judge(m, doc, base_keys, base_errors)
        rel = m.unit.rel
        rows.append({"project": project, "kind": m.kind, "file": rel, "line": m.site.line,
                     "variant": m.variant, "outcome": outcome, "id": m.ident,
                     "function": m.site.func[2] if m.site.func else "",
                     "cascades": [list(c) for c in cascades], "seconds": round(seconds, 2)})
        print(f"[{i + 1}/{len(mutants)}] {m.kind} {rel}:{m.site.line} ({m.variant}): "
              f"{outcome}{' +' + str(len(cascades)) + ' cascading' if cascades else ''}",
              file=sys.stderr)
    elapsed = time.monotonic() - start
    result = {"project": project, "seed": seed, "db": db, "gmemlint": gmemlint,
              "unmutated_seconds": round(base_seconds, 2), "seconds": round(elapsed, 1),
              "mutants": rows}
    with open(os.path.join(workdir, f"{project}.results.json"), "w") as fh:
        json.dump(result, fh, indent=1)
    summarize(rows, seed)
    print(f"{len(rows)} mutants in {elapsed:.0f} s; results: "
          f"{os.path.join(workdir, project + '.results.json')}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
