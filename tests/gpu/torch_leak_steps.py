# GM150 (torch-leak-per-step), made to be found: a training loop that also tracks a held-out
# loss and keeps it with `losses.append(loss)`. That loss was never backpropagated, so its
# autograd graph, with the activations saved for a backward pass that never comes (the ReLU's
# output, 64 MiB a step), lives as long as the list. The survivors are allocated by the forward
# pass at the `loss = ...` line: the first Python frame outside torch. tests/gpu/run.sh runs it
# under gmemrun; tests/gpu/join_torch.sh checks the verdict against torch_expected.txt.
# Its clean twin is torch_clean_train.py (`losses.append(loss.item())`).
import sys

try:
    import torch
except ImportError:
    print("torch_leak_steps: PyTorch is not installed here")
    sys.exit(0)

BATCH, FEATURES, HIDDEN = 4096, 1024, 4096  # a hidden activation is 4096 x 4096 floats: 64 MiB
STEPS = 12  # the judge skips 2 warm-up steps and needs 5 after them

torch.manual_seed(0)
model = torch.nn.Sequential(
    torch.nn.Linear(FEATURES, HIDDEN), torch.nn.ReLU(), torch.nn.Linear(HIDDEN, 1)).cuda()
optimizer = torch.optim.SGD(model.parameters(), lr=1e-3)  # its step hook marks the steps
held_out = torch.randn(BATCH, FEATURES, device="cuda")
held_out_target = torch.randn(BATCH, 1, device="cuda")
losses = []
for step in range(STEPS):
    inputs = torch.randn(BATCH, FEATURES, device="cuda")
    target = torch.randn(BATCH, 1, device="cuda")
    train_loss = torch.nn.functional.mse_loss(model(inputs), target)
    optimizer.zero_grad(set_to_none=True)
    train_loss.backward()  # frees this graph's saved activations
    optimizer.step()
    loss = torch.nn.functional.mse_loss(model(held_out), held_out_target)  # @leak_site
    losses.append(loss)  # the tensor, with its graph: 64 MiB of activations kept each step
torch.cuda.synchronize()
print(f"torch_leak_steps: {len(losses)} losses kept, "
      f"{torch.cuda.memory_allocated() >> 20} MiB allocated, "
      f"{torch.cuda.memory_reserved() >> 20} MiB reserved "
      f"(expected about {STEPS * (BATCH * HIDDEN * 4 >> 20)} MiB more than the model's)")
# PyTorch's own numbers, to set beside GM150's verdict (issue 28 asks for the comparison): the
# summary shows allocated memory high at the end, not which line or which step kept it
for row in torch.cuda.memory_summary().splitlines():
    if any(k in row for k in ("Allocated memory", "GPU reserved memory", "Non-releasable memory")):
        print("torch_leak_steps: memory_summary:", " ".join(row.split()))
