# The clean twin of torch_leak_steps.py: the same training loop, keeping each held-out loss as a
# Python float (`losses.append(loss.item())`), so each step's graph dies with the step and no
# GM15x finding is expected. It ends with torch.cuda.memory_summary(), PyTorch's own numbers, to
# compare with what gmemlint says about the same run. tests/gpu/run.sh also times it (--steps N):
# the median step time, plain and under gmemrun with and without the PyTorch view.
import statistics
import sys
import time

try:
    import torch
except ImportError:
    print("torch_clean_train: PyTorch is not installed here")
    sys.exit(0)

BATCH, FEATURES, HIDDEN = 4096, 1024, 4096  # a hidden activation is 4096 x 4096 floats: 64 MiB
STEPS = int(sys.argv[sys.argv.index("--steps") + 1]) if "--steps" in sys.argv else 12

torch.manual_seed(0)
model = torch.nn.Sequential(
    torch.nn.Linear(FEATURES, HIDDEN), torch.nn.ReLU(), torch.nn.Linear(HIDDEN, 1)).cuda()
optimizer = torch.optim.SGD(model.parameters(), lr=1e-3)  # its step hook marks the steps
held_out = torch.randn(BATCH, FEATURES, device="cuda")
held_out_target = torch.randn(BATCH, 1, device="cuda")
losses = []
step_seconds = []
for step in range(STEPS):
    started = time.perf_counter()
    inputs = torch.randn(BATCH, FEATURES, device="cuda")
    target = torch.randn(BATCH, 1, device="cuda")
    train_loss = torch.nn.functional.mse_loss(model(inputs), target)
    optimizer.zero_grad(set_to_none=True)
    train_loss.backward()
    optimizer.step()
    loss = torch.nn.functional.mse_loss(model(held_out), held_out_target)  # @clean_site
    losses.append(loss.item())  # a float: the graph is freed when `loss` is rebound
    step_seconds.append(time.perf_counter() - started)  # .item() waited for the GPU
warm = step_seconds[2:] or step_seconds
print(f"torch_clean_train: {STEPS} steps, median step {statistics.median(warm) * 1e3:.3f} ms, "
      f"{torch.cuda.memory_allocated() >> 20} MiB allocated, "
      f"{torch.cuda.memory_reserved() >> 20} MiB reserved")
if "--steps" not in sys.argv:  # the timing runs skip PyTorch's summary
    summary = torch.cuda.memory_summary().splitlines()
    print("\n".join("torch_clean_train: " + line for line in summary[:32]))
