# GM152 (torch-oom), cause capacity, made to happen: live tensors take three quarters of what the
# device has free, then a request for half of it: live bytes plus the request exceed the device,
# and the cache holds no free block (each tensor is its own unsplit segment), so no flush helps.
import sys

try:
    import torch
except ImportError:
    print("torch_oom_capacity: PyTorch is not installed here")
    sys.exit(0)

MiB = 1 << 20
free_on_device, total = torch.cuda.mem_get_info()
quarter = free_on_device // 4 // (2 * MiB) * (2 * MiB)
live = [torch.empty(quarter, dtype=torch.uint8, device="cuda") for _ in range(3)]
request = 2 * quarter
print(f"torch_oom_capacity: {3 * quarter >> 20} MiB live of {total >> 20} MiB, "
      f"device free {torch.cuda.mem_get_info()[0] >> 20} MiB, asking for {request >> 20} MiB")
try:
    torch.empty(request, dtype=torch.uint8, device="cuda")  # @capacity_oom
    print("torch_oom_capacity: FAILED: the request was served")
    sys.exit(1)
except torch.OutOfMemoryError as e:
    print(f"torch_oom_capacity: OOM as designed: {str(e).splitlines()[0][:160]}")
del live
