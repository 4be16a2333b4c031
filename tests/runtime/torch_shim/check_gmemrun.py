#!/usr/bin/env python3
"""gmemrun and the PyTorch shim: the shim goes first on PYTHONPATH with the user's after it (and
nowhere with --no-torch); a run on the stand-in torch writes the companion, which gmemrun lists
as the torch view and never as telemetry. gmemrun finds the shim beside itself (SHIM_DIR, the
build tree's copy), in an install prefix around a copy of itself, or where GMEMRUN_PYTHON_DIR
says; a Python run without it warns once on stderr and says why in its telemetry's torch_view.
GMEMRUN_DRIVER names the simulated driver (no GPU).
Usage: check_gmemrun.py GMEMRUN SHIM_DIR"""
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
GMEMRUN, SHIM = os.path.abspath(sys.argv[1]), os.path.abspath(sys.argv[2])
STANDIN = os.path.join(HERE, "standin")
failures = []


def check(what, got, want):
    if got != want:
        failures.append(f"{what}:\n  got  {got!r}\n  want {want!r}")


SHOW = ("import os, sys; print(os.environ.get('PYTHONPATH')); print(%r in sys.path); "
        "print('gmemlint_torch' in sys.modules)" % SHIM)


def gmemrun(args, env_extra, cwd, binary=None):
    env = dict(os.environ)
    for name in ("PYTHONPATH", "CUDA_INJECTION64_PATH", "GMEMRUN_PYTHON_DIR"):
        env.pop(name, None)
    env.update(env_extra)
    return subprocess.run([binary or GMEMRUN] + args, cwd=cwd, env=env, capture_output=True,
                          text=True)


with tempfile.TemporaryDirectory() as work:
    p = gmemrun(["-q", "--", sys.executable, "-c", SHOW], {"PYTHONPATH": "/user/a:/user/b"}, work)
    check("the shim first, the user's PYTHONPATH after it; the program's sys.path without it",
          (p.returncode, p.stdout), (0, f"{SHIM}:/user/a:/user/b\nFalse\nTrue\n"))
    p = gmemrun(["-q", "--", sys.executable, "-c", SHOW], {}, work)
    check("no user PYTHONPATH", (p.returncode, p.stdout), (0, f"{SHIM}\nFalse\nTrue\n"))
    p = gmemrun(["-q", "--no-torch", "--", sys.executable, "-c", SHOW],
                {"PYTHONPATH": "/user/a"}, work)
    check("--no-torch leaves PYTHONPATH alone", (p.returncode, p.stdout),
          (0, "/user/a\nFalse\nFalse\n"))
    check("nothing written by runs that never started CUDA", os.listdir(work), [])

    # the stand-in torch: the companion and its snapshots match gmemlint-*.json, the telemetry
    # glob; a file that really is telemetry is still listed as such
    out = os.path.join(work, "out")
    os.mkdir(out)
    write_telemetry = ("import os; open(os.environ['GMEMRT_OUTPUT'].replace('%p', "
                       "str(os.getpid())), 'w').write('{}'); import runpy, sys; "
                       "sys.argv = sys.argv[1:]; runpy.run_path(sys.argv[0], run_name='__main__')")
    p = gmemrun(["-o", os.path.join(out, "gmemlint-%p.json"), "--", sys.executable, "-c",
                 write_telemetry, os.path.join(HERE, "prog.py"), "train"],
                {"PYTHONPATH": STANDIN}, work)
    companions = [f for f in os.listdir(out) if f.endswith(".torch.json")]
    pid = companions[0].split("-")[1].split(".")[0] if len(companions) == 1 else "?"
    check("gmemrun's report", (p.returncode, p.stderr),
          (0, f"gmemrun: telemetry: {out}/gmemlint-{pid}.json\n"
              f"gmemrun: torch view: {out}/gmemlint-{pid}.torch.json\n"))
    check("the program's output", p.stdout.splitlines()[-1], "end")
    check("files", sorted(os.listdir(out)),
          [f"gmemlint-{pid}{suffix}" for suffix in
           (".json", ".torch-exit.json", ".torch-exit.pickle", ".torch-oom-1.json",
            ".torch-oom-1.pickle", ".torch-peak.json", ".torch-peak.pickle", ".torch.json")])
    # the real runtime, attached through the simulated driver: the shim's steps are its steps
    for f in os.listdir(out):
        os.unlink(os.path.join(out, f))
    p = gmemrun(["-o", os.path.join(out, "gmemlint-%p.json"), "--", sys.executable,
                 os.path.join(HERE, "prog.py"), "train"],
                {"PYTHONPATH": STANDIN, "FAKE_TORCH_DRIVER": os.environ["GMEMRUN_DRIVER"],
                 "GMEMRT_CUPTI_LIBRARY": os.environ["FAKECUPTI"]}, work)
    telemetry = [f for f in os.listdir(out) if re.fullmatch(r"gmemlint-\d+\.json", f)]
    steps = None
    if len(telemetry) == 1:
        with open(os.path.join(out, telemetry[0])) as f:
            steps = json.load(f)["process"]["steps"]
    check("the runtime's telemetry counts the shim's steps", (p.returncode, len(telemetry), steps),
          (0, 1, 3))
    # --no-torch: no shim, no torch view; the telemetry alone
    for f in os.listdir(out):
        os.unlink(os.path.join(out, f))
    p = gmemrun(["--no-torch", "-o", os.path.join(out, "gmemlint-%p.json"), "--",
                 sys.executable, "-c", write_telemetry, os.path.join(HERE, "prog.py"), "train"],
                {"PYTHONPATH": STANDIN}, work)
    written = os.listdir(out)
    check("--no-torch: the telemetry alone", (p.returncode, p.stderr, len(written)),
          (0, f"gmemrun: telemetry: {out}/{written[0] if written else '?'}\n", 1))

    # where gmemrun finds the shim: a copy of gmemrun in an install prefix, in a build tree moved
    # whole, and GMEMRUN_PYTHON_DIR before both
    shim_files = ("sitecustomize.py", "gmemlint_torch.py")
    for layout, shim_dir in (("prefix/bin", "prefix/share/gmemlint/python"),
                             ("tree", "tree/python")):
        bin_dir = os.path.join(work, layout)
        os.makedirs(bin_dir)
        os.makedirs(os.path.join(work, shim_dir))
        shutil.copy(GMEMRUN, bin_dir)
        for name in shim_files:
            shutil.copy(os.path.join(SHIM, name), os.path.join(work, shim_dir))
        p = gmemrun(["-q", "--", sys.executable, "-c", SHOW], {}, work,
                    os.path.join(bin_dir, "gmemrun"))
        check(f"a gmemrun in {layout} finds {shim_dir}", (p.returncode, p.stdout),
              (0, f"{os.path.join(work, shim_dir)}\nFalse\nTrue\n"))
    p = gmemrun(["-q", "--", sys.executable, "-c", SHOW],
                {"GMEMRUN_PYTHON_DIR": os.path.join(work, "tree/python")}, work,
                os.path.join(work, "prefix/bin/gmemrun"))
    check("GMEMRUN_PYTHON_DIR comes first", (p.returncode, p.stdout),
          (0, f"{os.path.join(work, 'tree/python')}\nFalse\nTrue\n"))

    # the real runtime in the Python process says what became of the view: on; off (a warning
    # once, and the reason in the telemetry); off by --no-torch (the reason only)
    empty = os.path.join(work, "empty")
    os.mkdir(empty)
    cases = (([], {}, {"state": "on", "reason": ""}, ""),
             ([], {"GMEMRUN_PYTHON_DIR": empty},
              {"state": "off", "reason": f"GMEMRUN_PYTHON_DIR={empty} holds no sitecustomize.py"},
              f"gmemrt: warning: the PyTorch view is off in this Python process "
              f"(GMEMRUN_PYTHON_DIR={empty} holds no sitecustomize.py): only the CUDA calls are "
              f"recorded, not the caching allocator's tensors\n"),
             (["--no-torch"], {}, {"state": "off", "reason": "gmemrun --no-torch"}, ""))
    for args, extra, view, warning in cases:
        for f in os.listdir(out):
            os.unlink(os.path.join(out, f))
        env = {"PYTHONPATH": STANDIN, "FAKE_TORCH_DRIVER": os.environ["GMEMRUN_DRIVER"],
               "GMEMRT_CUPTI_LIBRARY": os.environ["FAKECUPTI"]}
        env.update(extra)
        p = gmemrun(["-q"] + args + ["-o", os.path.join(out, "gmemlint-%p.json"), "--",
                     sys.executable, os.path.join(HERE, "prog.py"), "train"], env, work)
        telemetry = [f for f in os.listdir(out) if re.fullmatch(r"gmemlint-\d+\.json", f)]
        got = None
        if len(telemetry) == 1:
            with open(os.path.join(out, telemetry[0])) as f:
                got = json.load(f).get("torch_view")
        gmemrt_lines = "".join(l + "\n" for l in p.stderr.splitlines() if l.startswith("gmemrt:"))
        check(f"torch_view with {args} {sorted(extra)}", (p.returncode, got, gmemrt_lines),
              (0, view, warning))

for failure in failures:
    print("FAIL " + failure)
print(f"{'FAILED' if failures else 'ok'}: gmemrun and the torch shim")
sys.exit(1 if failures else 0)
