#!/usr/bin/env python3
"""gmemrun and the PyTorch shim: the shim goes first on PYTHONPATH with the user's after it (and
nowhere with --no-torch); a run on the stand-in torch writes the companion, which gmemrun lists
as the torch view and never as telemetry. GMEMRUN_DRIVER names the simulated driver (no GPU).
Usage: check_gmemrun.py GMEMRUN SHIM_DIR"""
import json
import os
import re
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


def gmemrun(args, env_extra, cwd):
    env = dict(os.environ)
    env.pop("PYTHONPATH", None)
    env.pop("CUDA_INJECTION64_PATH", None)
    env.update(env_extra)
    return subprocess.run([GMEMRUN] + args, cwd=cwd, env=env, capture_output=True, text=True)


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

for failure in failures:
    print("FAIL " + failure)
print(f"{'FAILED' if failures else 'ok'}: gmemrun and the torch shim")
sys.exit(1 if failures else 0)
