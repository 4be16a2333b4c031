# GM154 (torch-regrowth), made to be found: `rows = torch.cat([rows, batch])` in a loop, with
# PyTorch's caching allocator on (torch_cat.py runs the same shape with caching off, for the
# runtime's GM120). Each step allocates a tensor 4 MiB larger than the last at the same Python
# line while the old one is still live (it is the input of the copy), then frees the old one:
# 24 growing allocations from one line, 4 + 8 + ... + 96 MiB = 1200 MiB allocated, and the
# contents copied again at every step (1104 MiB in all).
import sys

try:
    import torch
except ImportError:
    print("torch_regrowth: PyTorch is not installed here")
    sys.exit(0)
try:
    from gmemlint_torch import step as mark_step  # on PYTHONPATH under gmemrun
except ImportError:
    def mark_step():
        pass

STEPS = 24
torch.manual_seed(0)
rows = torch.empty(0, device="cuda")
for step in range(STEPS):
    batch = torch.rand(1 << 20, device="cuda")  # 4 MiB of new rows each step
    rows = torch.cat([rows, batch])  # @regrowth_site
    mark_step()
torch.cuda.synchronize()
print(f"torch_regrowth: {rows.numel() * 4 >> 20} MiB after {STEPS} steps, "
      f"{torch.cuda.memory_reserved() >> 20} MiB reserved")
