# Runtime twins: a PyTorch loop that regrows a tensor with torch.cat, run under
# gmemrun with PYTORCH_NO_CUDA_MEMORY_CACHING=1 (so every tensor is its own cudaMalloc and
# cudaFree). No source line of this script is visible to the static pass; the run ties each old
# tensor to its larger replacement at PyTorch's allocation site, and GM120 reports it there
# (tests/gpu/join_twins.sh checks it).
import sys

try:
    import torch
except ImportError:
    print("torch_cat: PyTorch is not installed here")
    sys.exit(0)

rows = torch.empty(0, device="cuda")
for step in range(24):
    batch = torch.rand(1 << 20, device="cuda")  # 4 MiB of new rows each step
    rows = torch.cat([rows, batch])  # a new, larger tensor each step; the old one is freed
torch.cuda.synchronize()
print(f"torch_cat: {rows.numel() >> 20} Mi floats after 24 steps")
