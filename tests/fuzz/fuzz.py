#!/usr/bin/env python3
"""Fuzz gmemlint with mutated inputs and report what goes wrong.

Kinds of case (round robin, each drawn from a fixed seed so a run can be repeated):
  source     a .cu from tests/analyzer or samples with bytes flipped, lines deleted or duplicated,
             or tokens spliced in from another file; linted as text, JSON or SARIF
  telemetry  a telemetry file from tests/join or tests/report with JSON values changed (numbers to
             extremes, negatives, huge; strings; other types); through `gmemlint report` (text,
             --html, --trace) and through --telemetry against its source
  compdb     a compile_commands.json with mutated entries (empty or odd arguments, missing keys,
             relative or wrong directories, duplicates, -include-pch); linted with -p
  config     a .gmemlint with mutated sections and keys (blanks, long lines, comments, quotes,
             duplicates, bytes) beside a source
  extreme    generated sources: deep parentheses, long sums, macro bombs, nested calls and loops,
             many functions, many allocations

Each case runs under `timeout`-like supervision (its process group killed after --timeout seconds),
a memory bound (resident memory of the group polled; an address-space limit as well on builds
without a sanitizer) and a file-size bound. A case is a finding when gmemlint dies of a signal,
prints a sanitizer report, runs past the time or memory bound, exits outside 0-3, or writes JSON or
SARIF that does not parse or does not fit the format. Findings are deduplicated by signature and
one reproducer per signature is kept under WORKDIR/repro/. The summary goes to standard output and
WORKDIR/report.json; the exit status is 1 when any finding was recorded, 0 otherwise.
"""
import argparse
import json
import os
import random
import re
import resource
import shutil
import signal
import subprocess
import sys
import tempfile
import time
import traceback

VALID_EXITS = {0, 1, 2, 3}  # gmemlint --help: "Exit status"
SANITIZER_MARKERS = (b"ERROR: AddressSanitizer", b"ERROR: LeakSanitizer", b"runtime error:",
                     b"ERROR: UndefinedBehaviorSanitizer", b"WARNING: AddressSanitizer")
KINDS = ("source", "telemetry", "compdb", "config", "extreme")


def parse_args():
    here = os.path.dirname(os.path.abspath(__file__))
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--gmemlint", required=True, help="the gmemlint binary")
    ap.add_argument("--root", default=os.path.dirname(os.path.dirname(here)), help="the repository")
    ap.add_argument("--budget", type=float, default=60, help="seconds to run in all")
    ap.add_argument("--seed", type=int, default=30)
    ap.add_argument("--workdir", default=None, help="keeps reproducers and report.json")
    ap.add_argument("--timeout", type=float, default=60, help="seconds per case")
    ap.add_argument("--mem-mb", type=int, default=4096, help="resident memory bound per case")
    ap.add_argument("--fsize-mb", type=int, default=512, help="file size bound per case")
    ap.add_argument("--kinds", default=",".join(KINDS))
    ap.add_argument("--max-cases", type=int, default=0, help="stop after this many (0: budget only)")
    ap.add_argument("--sarif-schema", default=None,
                    help="SARIF 2.1.0 JSON schema (default: ROOT/../shared/sarif-schema-2.1.0.json if there)")
    return ap.parse_args()


def is_sanitized(binary):
    with open(binary, "rb") as f:
        data = f.read()
    return b"__asan_init" in data or b"__ubsan_handle" in data


# ---------------------------------------------------------------- running one case

def group_rss_kb(pgid):
    total = 0
    for pid in os.listdir("/proc"):
        if not pid.isdigit():
            continue
        try:
            with open(f"/proc/{pid}/stat") as f:
                fields = f.read().rsplit(")", 1)[1].split()
            if int(fields[2]) != pgid:  # fields[2] is pgrp (field 5 of stat)
                continue
            total += int(fields[21]) * (resource.getpagesize() // 1024)  # rss in pages
        except (OSError, IndexError, ValueError):
            continue
    return total


def run_case(args, argv, cwd, sanitized):
    """Runs argv in cwd; returns (outcome, rc, stdout, stderr, seconds, peak_kb)."""
    env = dict(os.environ)
    env["XDG_CACHE_HOME"] = os.path.join(cwd, ".cache")
    # libclang installs its own alternate signal stack; ASan's would clash with it (README)
    env["ASAN_OPTIONS"] = "use_sigaltstack=0:detect_leaks=1:allocator_may_return_null=1:" + \
        env.get("ASAN_OPTIONS", "")
    env["UBSAN_OPTIONS"] = "print_stacktrace=1:" + env.get("UBSAN_OPTIONS", "")
    mem = args.mem_mb * 1024 * 1024
    fsize = args.fsize_mb * 1024 * 1024

    def limits():
        resource.setrlimit(resource.RLIMIT_FSIZE, (fsize, fsize))
        resource.setrlimit(resource.RLIMIT_CORE, (0, 0))
        if not sanitized:  # ASan reserves terabytes of address space for its shadow
            resource.setrlimit(resource.RLIMIT_AS, (mem * 4, mem * 4))  # a backstop: the poll sees RSS first

    out = tempfile.TemporaryFile(dir=cwd)
    err = tempfile.TemporaryFile(dir=cwd)
    start = time.monotonic()
    proc = subprocess.Popen(argv, cwd=cwd, stdout=out, stderr=err, stdin=subprocess.DEVNULL,
                            env=env, preexec_fn=limits, start_new_session=True)
    outcome, peak = None, 0
    while proc.poll() is None:
        time.sleep(0.1)
        rss = group_rss_kb(proc.pid)
        peak = max(peak, rss)
        if rss * 1024 > mem:
            outcome = "memory"
        elif time.monotonic() - start > args.timeout:
            outcome = "hang"
        if outcome:
            try:
                os.killpg(proc.pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
            proc.wait()
    seconds = time.monotonic() - start
    try:  # what the group left behind (a parse worker) goes too
        os.killpg(proc.pid, signal.SIGKILL)
    except ProcessLookupError:
        pass
    out.seek(0)
    err.seek(0)
    stdout = out.read(64 << 20)
    stderr = err.read(8 << 20)
    return outcome, proc.returncode, stdout, stderr, seconds, peak


def sanitizer_signature(stderr):
    """The first sanitizer report's kind and first project frame, e.g. 'runtime error expr.c:112'."""
    text = stderr.decode("utf-8", "replace")
    m = re.search(r"([\w./-]+\.c):(\d+):\d+: runtime error: ([a-z -]+)", text)
    if m:
        return f"ubsan {os.path.basename(m.group(1))}:{m.group(2)} {m.group(3).strip()}"
    m = re.search(r"ERROR: (\w+Sanitizer): ([\w-]+)", text)
    if m:
        frame = re.search(r"#\d+ 0x[0-9a-f]+ in (\w+) [^\n]*?([\w.-]+\.c):(\d+)", text)
        where = f" {frame.group(1)} {frame.group(2)}:{frame.group(3)}" if frame else ""
        return f"{m.group(1)} {m.group(2)}{where}"
    return "sanitizer report"


# ---------------------------------------------------------------- checking outputs

def check_sarif(doc, schema):
    if schema is not None:
        import jsonschema
        jsonschema.validate(doc, schema)
        return
    assert doc.get("version") == "2.1.0", "version"
    for run in doc["runs"]:
        assert isinstance(run["tool"]["driver"]["name"], str)
        for res in run.get("results", []):
            assert isinstance(res["message"]["text"], str)
            for loc in res.get("locations", []):
                region = loc["physicalLocation"].get("region", {})
                assert region.get("startLine", 1) >= 1, "startLine"


def check_output(fmt, data, schema):
    """Returns None, or what is wrong with the output."""
    if fmt not in ("json", "sarif", "trace"):
        return None
    try:
        doc = json.loads(data)
        if fmt == "sarif":
            check_sarif(doc, schema)
    except Exception as e:  # any failure to parse or fit is the finding
        return f"invalid {fmt}: {type(e).__name__}: {str(e)[:200]}"
    return None


# ---------------------------------------------------------------- mutators

def read_lines(path):
    with open(path, "rb") as f:
        return f.read().split(b"\n")


def mutate_source(rng, text, donors):
    lines = text.split(b"\n")
    for _ in range(rng.randint(1, 4)):
        op = rng.choice(("flip", "delete", "dup", "splice", "swap"))
        if not lines:
            lines = [b""]
        i = rng.randrange(len(lines))
        if op == "flip" and lines[i]:
            b = bytearray(lines[i])
            j = rng.randrange(len(b))
            b[j] = rng.choice((b[j] ^ (1 << rng.randrange(8)), ord(rng.choice("(){};,*&\"'\\#0")), 0xff))
            lines[i] = bytes(b)
        elif op == "delete":
            del lines[i:i + rng.randint(1, 3)]
        elif op == "dup":
            lines[i:i] = lines[i:i + rng.randint(1, 5)] * rng.randint(1, 3)
        elif op == "splice":
            donor = rng.choice(donors)
            toks = re.findall(rb"\w+|[^\w\s]", donor)
            if toks:
                k = rng.randrange(len(toks))
                lines.insert(i, b" ".join(toks[k:k + rng.randint(1, 40)]))
        elif op == "swap":
            j = rng.randrange(len(lines))
            lines[i], lines[j] = lines[j], lines[i]
    return b"\n".join(lines)


EXTREME_NUMBERS = (0, -1, 1, -0.0, 1e-20, -1e-20, 1e308, -1e308, 2**31, 2**32 + 8, 2**53 + 1,
                   2**63 - 1, -2**63, 2**64 + 1, 9.2e15, 123456789012345678901234567890, 0.5)


def mutate_value(rng, v):
    choice = rng.randrange(6)
    if choice == 0:
        return rng.choice(EXTREME_NUMBERS)
    if choice == 1:
        return rng.choice(("", "x" * rng.randint(1, 5000), "<script>&\"'", "\u0000\uffff", "../../etc",
                           "%s%n%x", "\\", "9" * 400))
    if choice == 2:
        return rng.choice((None, True, False, [], {}, [1, "a", None], {"a": {"b": []}}))
    if choice == 3 and isinstance(v, (int, float)) and not isinstance(v, bool):
        return -v if rng.random() < 0.5 else v * rng.choice((1000, 1e9, 1e-9))
    if choice == 4 and isinstance(v, list) and v:
        return v * rng.randint(2, 50) if rng.random() < 0.5 else v[: rng.randrange(len(v))]
    return rng.choice(EXTREME_NUMBERS) if isinstance(v, (int, float)) else "mutated"


def json_paths(doc, prefix=()):
    yield prefix
    if isinstance(doc, dict):
        for k, v in doc.items():
            yield from json_paths(v, prefix + (k,))
    elif isinstance(doc, list):
        for i, v in enumerate(doc[:50]):
            yield from json_paths(v, prefix + (i,))


def mutate_json(rng, doc):
    for _ in range(rng.randint(1, 5)):
        paths = [p for p in json_paths(doc) if p]
        if not paths:
            return rng.choice((None, [], 7))
        path = rng.choice(paths)
        parent = doc
        for k in path[:-1]:
            parent = parent[k]
        key = path[-1]
        if isinstance(parent, dict) and rng.random() < 0.15:
            del parent[key]
        else:
            parent[key] = mutate_value(rng, parent[key])
    return doc


def mutate_bytes(rng, data):
    b = bytearray(data)
    for _ in range(rng.randint(1, 8)):
        if not b:
            break
        op = rng.randrange(3)
        j = rng.randrange(len(b))
        if op == 0:
            b[j] ^= 1 << rng.randrange(8)
        elif op == 1:
            del b[j:j + rng.randint(1, 20)]
        else:
            b[j:j] = bytes(rng.choice(b'{}[],:"0123456789-e.') for _ in range(rng.randint(1, 5)))
    return bytes(b)


CONFIG_SECTIONS = [
    "[rules]\ndisable = GM003\nenable = GM001\n",
    "[family team-pool]\ndescription = pool memory\nfree = pool_release\n",
    "[alloc pool_alloc]\nfamily = team-pool\npointer = 0\nsize = 1\n",
    "[realloc pool_grow]\nfamily = team-pool\npointer = return\nsize = 1\nold = 0\n",
    "[free pool_release]\npointer = 0\nfrees = team-pool\n",
    "[sink pool_enqueue]\npointer = 1\n",
    "[use]\nfunctions = pool_memset, pool_copy\n",
    "[borrow]\nfunctions = mylib_*, ext_checksum\n",
    "[noreturn]\nfunctions = fatal_error\n",
    "[last-error]\nfunctions = mylib_last_status\n",
    "[fallible]\nfunctions = mylib_open\n",
]


def mutate_config(rng):
    secs = rng.sample(CONFIG_SECTIONS, rng.randint(1, len(CONFIG_SECTIONS)))
    if rng.random() < 0.3:
        secs += rng.sample(secs, 1)  # a duplicate section
    lines = "".join(secs).split("\n")
    for _ in range(rng.randint(1, 4)):
        i = rng.randrange(len(lines))
        op = rng.randrange(8)
        if op == 0 and lines[i].startswith("["):
            lines[i] = "[" + rng.choice((" ", "\t", "  ")) + lines[i][1:]
        elif op == 1:
            lines[i] += " # inline comment" if rng.random() < 0.5 else " ; comment"
        elif op == 2:
            lines[i] = lines[i] + "x" * rng.choice((150, 199, 200, 250, 5000))
        elif op == 3 and "=" in lines[i]:
            k, v = lines[i].split("=", 1)
            lines[i] = k + "= \"" + v.strip() + "\""
        elif op == 4 and "=" in lines[i]:
            k, _ = lines[i].split("=", 1)
            lines[i] = k + "= " + rng.choice(("", "-1", "99999999999999999999", "return,none", "all",
                                              "*", ",,,", "GM999", "\x01"))
        elif op == 5:
            lines[i] = "[" + "s" * rng.choice((0, 1, 100, 300)) + rng.choice(("]", "", "]]"))
        elif op == 6:
            del lines[i]
        else:
            lines.insert(i, lines[i] if i < len(lines) else "")
    text = "\n".join(lines).encode()
    return mutate_bytes(rng, text) if rng.random() < 0.2 else text


CONFIG_SOURCE = b"""#include <cuda_runtime.h>
void *pool_alloc(void **p, size_t n);
void pool_release(void *p);
void pool_enqueue(int q, void *p);
void mylib_use(void *p);
int mylib_last_status(void);
void fatal_error(void);
void f(int c) {
  void *p;
  pool_alloc(&p, 64);
  mylib_use(p);
  if (c) return;
  pool_release(p);
  float *d;
  cudaMalloc(&d, 64);
  if (mylib_last_status()) fatal_error();
}
"""


def extreme_source(rng):
    shape = rng.choice(("parens", "sum", "macro", "calls", "loops", "functions", "allocs", "lambdas"))
    n = {"parens": rng.choice((100, 500, 2000, 5000)), "sum": rng.choice((1000, 20000, 100000)),
         "macro": rng.choice((8, 16, 24)), "calls": rng.choice((100, 1000, 5000)),
         "loops": rng.choice((50, 200, 500)), "functions": rng.choice((500, 2000, 8000)),
         "allocs": rng.choice((200, 1000, 5000)), "lambdas": rng.choice((100, 1000))}[shape]
    head = "#include <cuda_runtime.h>\n"
    if shape == "parens":
        body = "int f(int x) { return " + "(" * n + "x" + ")" * n + "; }\n"
    elif shape == "sum":
        body = "long f(long x) { return " + " + ".join(f"x*{i}" for i in range(n)) + "; }\n"
    elif shape == "macro":
        body = "#define A0(x) x x\n" + "".join(f"#define A{i}(x) A{i-1}(x) A{i-1}(x)\n"
                                               for i in range(1, n)) + \
            f"int f(void) {{ int v = 0; A{n-1}(v++;) return v; }}\n"
    elif shape == "calls":
        body = "int g(int x) { return x; }\nint f(int x) { return " + "g(" * n + "x" + ")" * n + "; }\n"
    elif shape == "loops":
        body = "void f(int n) {\n float *p;\n" + "".join(f"for (int i{i} = 0; i{i} < n; i{i}++)\n"
                                                          for i in range(n)) + \
            " { cudaMalloc(&p, 4); cudaFree(p); }\n}\n"
    elif shape == "functions":
        body = "".join(f"void f{i}(void) {{ float *p; cudaMalloc(&p, {i + 1}); cudaFree(p); }}\n"
                       for i in range(n))
    elif shape == "allocs":
        body = "void f(int *x) {\n" + "".join(f" float *p{i}; if (x[{i}]) cudaMalloc(&p{i}, 4);\n"
                                              for i in range(n)) + \
            "".join(f" if (x[{i}]) cudaFree(p{i});\n" for i in range(n)) + "}\n"
    else:
        body = "int f(int x) { return " + "[&]{ return " * n + "x" + "; }()" * n + "; }\n"
    return shape, n, (head + body).encode()


# ---------------------------------------------------------------- cases

class Fuzzer:
    def __init__(self, args):
        self.args = args
        self.rng = random.Random(args.seed)
        self.gmemlint = os.path.abspath(args.gmemlint)
        self.sanitized = is_sanitized(self.gmemlint)
        root = args.root
        self.sources = sorted(
            os.path.join(d, f) for d in (os.path.join(root, "tests/analyzer"), os.path.join(root, "samples"))
            for f in os.listdir(d) if f.endswith((".cu", ".cuh")))
        self.donors = [open(p, "rb").read() for p in self.sources[:: max(1, len(self.sources) // 40)]]
        self.telemetry = []  # (json path, source or None)
        for base in (os.path.join(root, "tests/join"), os.path.join(root, "tests/report")):
            for d, _, files in sorted(os.walk(base)):
                cus = sorted(f for f in files if f.endswith(".cu"))
                for f in sorted(files):
                    if f.endswith(".json"):
                        self.telemetry.append((os.path.join(d, f), os.path.join(d, cus[0]) if cus else None))
        self.schema = None
        # where the CLI tests find it (tests/cli/cut_short_notices.sh); structural checks without it
        schema_path = args.sarif_schema or os.path.join(root, "..", "shared", "sarif-schema-2.1.0.json")
        if schema_path and os.path.exists(schema_path):
            self.schema = json.load(open(schema_path))
        self.workdir = args.workdir or tempfile.mkdtemp(prefix="gmemlint-fuzz-")
        for old in ("repro", "cases"):  # a rerun's reproducers are its own
            shutil.rmtree(os.path.join(self.workdir, old), ignore_errors=True)
        os.makedirs(os.path.join(self.workdir, "repro"), exist_ok=True)
        self.counts = {k: {"cases": 0, "crash": 0, "sanitizer": 0, "hang": 0, "memory": 0, "fsize": 0,
                           "bad_exit": 0, "invalid_output": 0} for k in KINDS}
        self.harness_errors = 0
        self.findings = {}  # signature -> {kind, count, repro, detail}

    def record(self, kind, category, signature, case_dir, argv, detail):
        self.counts[kind][category] += 1
        key = f"{category}: {signature}"
        if key in self.findings:
            self.findings[key]["count"] += 1
            return
        repro = os.path.join(self.workdir, "repro", f"{len(self.findings):03d}-{kind}")
        shutil.copytree(case_dir, repro, ignore=shutil.ignore_patterns(".cache", "out.*", "tmp*"))
        with open(os.path.join(repro, "command"), "w") as f:
            f.write(" ".join(json.dumps(a) if " " in a or not a else a for a in argv) + "\n")
        with open(os.path.join(repro, "detail"), "wb") as f:
            f.write(detail if isinstance(detail, bytes) else detail.encode())
        self.findings[key] = {"kind": kind, "count": 1, "repro": repro}
        print(f"  new finding [{kind}] {key} -> {repro}", flush=True)

    def judge(self, kind, case_dir, argv, outputs, label=None):
        """Runs argv; outputs: [(format, 'stdout' or file name)] to validate; label names the case
        in a finding's signature (the kind when none)."""
        outcome, rc, stdout, stderr, secs, peak = run_case(self.args, argv, case_dir, self.sanitized)
        self.counts[kind]["cases"] += 1
        exits = self.counts[kind].setdefault("exits", {})
        exits[str(rc)] = exits.get(str(rc), 0) + 1
        tag = label or kind
        if outcome == "hang":
            self.record(kind, "hang", f"over {self.args.timeout:g} s ({tag})", case_dir, argv, stderr[-4000:])
            return
        if outcome == "memory":
            self.record(kind, "memory", f"over {self.args.mem_mb} MB ({tag})", case_dir, argv, stderr[-4000:])
            return
        if any(m in stderr for m in SANITIZER_MARKERS):
            self.record(kind, "sanitizer", sanitizer_signature(stderr), case_dir, argv, stderr[:20000])
            if b"ERROR: AddressSanitizer" in stderr:
                return  # ASan ended the run: its output is cut short by that, not wrong
        if rc is not None and rc < 0:
            sig = signal.Signals(-rc).name
            category = "fsize" if sig == "SIGXFSZ" else "crash"
            self.record(kind, category, f"{sig} ({tag})", case_dir, argv, stderr[-8000:])
            return
        if rc not in VALID_EXITS:
            if any(m in stderr for m in SANITIZER_MARKERS):
                return  # already recorded with its signature
            self.record(kind, "bad_exit", f"exit {rc} ({tag})", case_dir, argv, stderr[-8000:])
            return
        for fmt, where in outputs:
            if where == "stdout":
                data = stdout
            else:
                path = os.path.join(case_dir, where)
                if not os.path.exists(path):
                    continue  # an error exit writes nothing
                data = open(path, "rb").read(64 << 20)
            if rc == 2 and not data:
                continue
            problem = check_output(fmt, data, self.schema)
            if problem:
                self.record(kind, "invalid_output", problem.split(":")[0] + f" ({kind})", case_dir, argv,
                            problem.encode() + b"\n" + data[:4000])

    def lint_argv(self, files, fmt):
        argv = [self.gmemlint, "--no-cache", "-j1", "--pch=never"]
        if fmt != "text":
            argv.append(f"--format={fmt}")
        return argv + files

    def case_source(self, d):
        src = self.rng.choice(self.sources)
        text = mutate_source(self.rng, open(src, "rb").read(), self.donors)
        name = os.path.basename(src)
        open(os.path.join(d, name), "wb").write(text)
        fmt = self.rng.choice(("text", "json", "sarif"))
        self.judge("source", d, self.lint_argv([name], fmt), [(fmt, "stdout")])

    def case_telemetry(self, d):
        path, src = self.rng.choice(self.telemetry)
        raw = open(path, "rb").read()
        if self.rng.random() < 0.15:
            data = mutate_bytes(self.rng, raw)
        else:
            data = json.dumps(mutate_json(self.rng, json.loads(raw))).encode()
        open(os.path.join(d, "run.json"), "wb").write(data)
        if src and self.rng.random() < 0.4:
            shutil.copy(src, os.path.join(d, os.path.basename(src)))
            fmt = self.rng.choice(("text", "json", "sarif"))
            argv = self.lint_argv(["--telemetry=run.json", os.path.basename(src)], fmt)
            self.judge("telemetry", d, argv, [(fmt, "stdout")])
        else:
            argv = [self.gmemlint, "report", "--html", "out.html", "--trace", "out.trace.json", "run.json"]
            self.judge("telemetry", d, argv, [("trace", "out.trace.json")])

    def case_compdb(self, d):
        srcs = self.rng.sample(self.sources, self.rng.randint(1, 3))
        os.makedirs(os.path.join(d, "src"))
        entries = []
        for s in srcs:
            shutil.copy(s, os.path.join(d, "src", os.path.basename(s)))
            entries.append({"directory": os.path.join(d, "src"), "file": os.path.basename(s),
                            "arguments": ["clang++", "-x", "cuda", "-DN=1", "-Iinc", "-c",
                                          os.path.basename(s), "-o", "a.o"]})
        for _ in range(self.rng.randint(1, 4)):
            e = self.rng.choice(entries)
            name = os.path.basename(self.rng.choice(srcs))  # e["file"] may be mutated already
            op = self.rng.randrange(9)
            if op == 0:
                entries.append(dict(e))  # the same file twice
            elif op == 1:
                e["directory"] = self.rng.choice(("src", ".", "", "/nonexistent", "src/" + name))
            elif op == 2:
                e["arguments"] = self.rng.choice(([], [""], ["clang++"], ["-c"], ["clang++", "-include-pch",
                                                  "pre.pch", "-c", name], ["@missing.rsp", name]))
            elif op == 3:
                e.pop("arguments", None)
                e["command"] = self.rng.choice(("", "clang++ -c " + name, "\"unterminated",
                                                "nvcc -ccbin g++ -Xcompiler -fPIC " + name + " \\"))
            elif op == 4 and e:
                e.pop(self.rng.choice(list(e.keys())))
            elif op == 5 and e:
                e[self.rng.choice(list(e.keys()))] = mutate_value(self.rng, None)
            elif op == 6:
                e["file"] = self.rng.choice(("", "missing.cu", "../" + name, "/", name * 50))
            elif op == 7:
                args = e.get("arguments")
                e["arguments"] = (args if isinstance(args, list) else []) + (["-I" + "x" * 5000, "-D" + "A=(" * 100])
            else:
                e["output"] = mutate_value(self.rng, "a.o")
        data = json.dumps(entries).encode()
        if self.rng.random() < 0.15:
            data = mutate_bytes(self.rng, data)
        open(os.path.join(d, "compile_commands.json"), "wb").write(data)
        fmt = self.rng.choice(("text", "json", "sarif"))
        argv = [self.gmemlint, "--no-cache", "-j1", "--pch=never", "-p", "compile_commands.json"]
        if fmt != "text":
            argv.append(f"--format={fmt}")
        if self.rng.random() < 0.5:
            argv.append(os.path.join("src", os.path.basename(srcs[0])))
        self.judge("compdb", d, argv, [(fmt, "stdout")])

    def case_config(self, d):
        open(os.path.join(d, ".gmemlint"), "wb").write(mutate_config(self.rng))
        open(os.path.join(d, "pool.cu"), "wb").write(CONFIG_SOURCE)
        fmt = self.rng.choice(("text", "json", "sarif"))
        self.judge("config", d, self.lint_argv(["pool.cu"], fmt), [(fmt, "stdout")])

    def case_extreme(self, d):
        shape, n, text = extreme_source(self.rng)
        name = f"{shape}_{n}.cu"
        open(os.path.join(d, name), "wb").write(text)
        self.judge("extreme", d, self.lint_argv([name], "json"), [("json", "stdout")], f"{shape} {n}")

    def run(self):
        kinds = [k for k in self.args.kinds.split(",") if k]
        for k in kinds:
            if k not in KINDS:
                sys.exit(f"fuzz.py: error: unknown kind '{k}' (kinds: {', '.join(KINDS)})")
        start = time.monotonic()
        n = 0
        scratch = os.path.join(self.workdir, "cases")
        os.makedirs(scratch, exist_ok=True)
        while time.monotonic() - start < self.args.budget:
            if self.args.max_cases and n >= self.args.max_cases:
                break
            kind = kinds[n % len(kinds)]
            d = tempfile.mkdtemp(dir=scratch)
            try:
                getattr(self, "case_" + kind)(d)
            except Exception:  # a fault of this script, not of gmemlint: say so and go on
                self.harness_errors += 1
                traceback.print_exc()
            finally:
                shutil.rmtree(d, ignore_errors=True)
            n += 1
        return time.monotonic() - start

    def report(self, seconds):
        summary = {"seed": self.args.seed, "seconds": round(seconds), "gmemlint": self.gmemlint,
                   "sanitized": self.sanitized, "harness_errors": self.harness_errors, "counts": self.counts,
                   "findings": {k: {"kind": v["kind"], "count": v["count"], "repro": v["repro"]}
                                for k, v in sorted(self.findings.items())}}
        with open(os.path.join(self.workdir, "report.json"), "w") as f:
            json.dump(summary, f, indent=1)
        cols = ("cases", "crash", "sanitizer", "hang", "memory", "fsize", "bad_exit", "invalid_output")
        print(f"seed {self.args.seed}, {seconds:.0f} s, {'ASan/UBSan' if self.sanitized else 'plain'} "
              f"build, workdir {self.workdir}")
        print("kind        " + " ".join(f"{c:>9}" for c in cols))
        for k, c in self.counts.items():
            if c["cases"]:
                exits = ", ".join(f"{e}: {n}" for e, n in sorted(c["exits"].items()))
                print(f"{k:<11} " + " ".join(f"{c[col]:>9}" for col in cols) + f"   exits {exits}")
        print(f"distinct findings: {len(self.findings)}; harness errors: {self.harness_errors}")
        for k, v in sorted(self.findings.items()):
            print(f"  {v['count']:>4}x [{v['kind']}] {k}  ({v['repro']})")
        return 1 if self.findings else 0


def main():
    args = parse_args()
    if not os.access(args.gmemlint, os.X_OK):
        sys.exit(f"fuzz.py: error: {args.gmemlint}: not an executable gmemlint")
    fz = Fuzzer(args)
    seconds = fz.run()
    sys.exit(fz.report(seconds))


if __name__ == "__main__":
    main()
