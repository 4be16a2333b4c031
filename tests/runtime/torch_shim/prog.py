# A training loop on the stand-in torch, as a user writes one; run with and without the shim,
# its stdout, stderr and exit status must not change. Modes (argv[1]): train, nocuda (never
# starts CUDA), userstep (calls gmemlint_torch.step() from step 2 on), raise (ends in an
# uncaught exception).
import sys

import torch

try:
    import gmemlint_torch
except ImportError:  # not under gmemrun
    gmemlint_torch = None

mode = sys.argv[1]
MiB = 1024 * 1024
print(f"start {mode}")
if mode == "nocuda":
    print("no CUDA here")
    sys.exit(0)
kept = []
optimizer = torch.optim.Optimizer()
for step in range(1, 4):
    kept.append(torch.cuda.alloc(step * MiB))  # grows each step
    scratch = torch.cuda.alloc(3 * MiB)
    torch.cuda.free(scratch)
    optimizer.step()
    if mode == "userstep" and step >= 2 and gmemlint_torch:
        gmemlint_torch.step()
    print(f"step {step} done")
try:
    torch.cuda.oom(64 * 1024**3)
except torch.cuda.OutOfMemoryError as error:
    print(f"caught: {error}")
if mode == "raise":
    raise RuntimeError("the program's own error")
print("end")
