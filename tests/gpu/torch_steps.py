# A PyTorch loop that keeps one activation per step (a leak through a Python list), run under
# gmemrun: the telemetry's sites are PyTorch's own frames (its caching allocator calls cudaMalloc),
# steps come from gmem_step() through ctypes, and an oversized tensor gives an OOM event.
import ctypes
import os
import sys

try:
    import torch
except ImportError:
    print("torch_steps: PyTorch is not installed here")
    sys.exit(0)

runtime = ctypes.CDLL(os.environ["CUDA_INJECTION64_PATH"])  # the library gmemrun injected
kept = []
for step in range(4):
    x = torch.empty(64 << 20, dtype=torch.uint8, device="cuda")  # 64 MiB, kept: grows each step
    kept.append(x)
    y = torch.empty(32 << 20, dtype=torch.uint8, device="cuda")  # freed at the end of the step
    del y
    torch.cuda.synchronize()
    runtime.gmemrt_step()
try:
    torch.empty(1 << 45, dtype=torch.uint8, device="cuda")  # 32 TiB: more than any GPU has
except RuntimeError as e:
    print("torch_steps: oversized tensor refused:", str(e).splitlines()[0][:80])
print(f"torch_steps: {len(kept)} tensors kept, {torch.cuda.memory_allocated() >> 20} MiB allocated")
