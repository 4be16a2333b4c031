"""The runtime's shared libraries export exactly their API, nothing internal.

Usage: exports.py INCLUDE_DIR LIBGMEMRT_SO LIBGMEMRT_INJECT_SO

The API is what the public headers declare GMEMRT_API (gmem_forced.h's hooks, gmemrt.h's
entry points, under both names), and, in the preloaded library, the CUDA functions whose calls
gmem_forced.h routes to a hook: the preloaded library defines them under the API's own names.
The injected library adds InitializeInjection, which the CUDA driver calls. Anything else in
the dynamic symbol table is an internal symbol leaking out; anything missing breaks a program,
gmemrun or LD_PRELOAD.
"""
import os
import re
import subprocess
import sys


def fail(what):
    print(f"exports.py: {what}", file=sys.stderr)
    sys.exit(1)


def exported(library):
    out = subprocess.run(["nm", "-D", "--defined-only", library], capture_output=True, text=True)
    if out.returncode != 0:
        fail(f"nm {library}: {out.stderr.strip()}")
    return {line.split()[-1] for line in out.stdout.splitlines() if line.strip()}


def main():
    include, preload, inject = sys.argv[1:4]
    text = ""
    for name in ("gmemrt.h", "gmem_forced.h"):
        with open(os.path.join(include, name)) as f:
            text += f.read()
    text = re.sub(r"\\\n", " ", text)
    api = set(re.findall(r"^GMEMRT_API\b[^;{(]*?\b(\w+)\s*\(", text, re.M))
    routed = dict(re.findall(r"^#define (cu\w+)\(\.\.\.\) (gmemrt_\w+)\(GMEMRT_SITE", text, re.M))
    for anchor in ("gmemrt_cudaMalloc", "gmemrt_cuMemAlloc", "gmemrt_note_prefetch", "gmemrt_step",
                   "gmemrt_dump", "gmem_step", "gmem_dump"):
        if anchor not in api:
            fail(f"the headers do not declare {anchor} GMEMRT_API (read: {sorted(api)})")
    for name, hook in routed.items():
        if hook not in api:
            fail(f"gmem_forced.h routes {name} to {hook}, which is not declared GMEMRT_API")
    if "cudaMalloc" not in routed or "cuMemAlloc_v2" not in routed:
        fail(f"the routed CUDA functions were not read: {sorted(routed)}")

    failed = False
    for library, want in ((preload, api | set(routed)), (inject, api | {"InitializeInjection"})):
        got = exported(library)
        leaked, missing = sorted(got - want), sorted(want - got)
        name = os.path.basename(library)
        if leaked:
            print(f"{name} exports {len(leaked)} internal symbol(s): {' '.join(leaked)}")
        if missing:
            print(f"{name} does not export {len(missing)} API symbol(s): {' '.join(missing)}")
        failed |= bool(leaked or missing)
        if not leaked and not missing:
            print(f"{name}: {len(got)} exported symbols, the API exactly")
    sys.exit(1 if failed else 0)


main()
