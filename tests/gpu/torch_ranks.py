# The PyTorch view under torchrun: `gmemrun -- python3 -m torch.distributed.run --standalone
# --nproc_per_node=2 tests/gpu/torch_ranks.py` must give one companion per rank (its `rank` and
# `world_size` from torchrun's environment) and none for the launcher, which never uses CUDA.
# Each rank does a little CUDA work on device 0 (one GPU is enough) and talks over gloo.
import os
import sys

try:
    import torch
    import torch.distributed as dist
except ImportError:
    print("torch_ranks: PyTorch is not installed here")
    sys.exit(0)
try:
    from gmemlint_torch import step as mark_step  # on PYTHONPATH under gmemrun
except ImportError:
    def mark_step():
        pass

dist.init_process_group("gloo")
rank = dist.get_rank()
total = torch.zeros(1)
for step in range(3):
    block = torch.ones(16 << 20, device="cuda:0") * (rank + 1)  # 64 MiB, freed each step
    total += block[:1].cpu()
    dist.all_reduce(total)  # on the CPU tensor: gloo
    mark_step()
print(f"torch_ranks: rank {rank} of {dist.get_world_size()} (pid {os.getpid()}): "
      f"total {total.item()}")
dist.destroy_process_group()
