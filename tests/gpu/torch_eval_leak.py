# GM150 for an evaluation loop inside a training script (issue 41), made to be found: 30 optimizer
# steps, and after every 10th an evaluation pass over 20 batches under torch.no_grad() that keeps
# each batch's predictions on the device (`predictions.append(out)`, 512 x 1024 floats, 2 MiB)
# in a list that lives for the whole run. The steps alone do not say it (the evaluation runs in
# 3 of the 28 steps after the warm-up); the repetitions of the evaluation's line in the history
# do: survivors from every batch. tests/gpu/run.sh runs it under gmemrun; tests/gpu/join_torch.sh
# checks the verdict. Its clean twin, torch_eval_clean.py, keeps `out.argmax(1).cpu()`.
import sys

try:
    import torch
except ImportError:
    print("torch_eval_leak: PyTorch is not installed here")
    sys.exit(0)

STEPS, EVAL_EVERY, EVAL_BATCHES, BATCH, FEATURES, CLASSES = 30, 10, 20, 512, 1024, 1024

torch.manual_seed(0)
model = torch.nn.Sequential(
    torch.nn.Linear(FEATURES, 2048), torch.nn.ReLU(), torch.nn.Linear(2048, CLASSES)).cuda()
optimizer = torch.optim.SGD(model.parameters(), lr=1e-3)  # its step hook marks the steps
predictions = []
for step in range(1, STEPS + 1):
    inputs = torch.randn(BATCH, FEATURES, device="cuda")
    labels = torch.randint(0, CLASSES, (BATCH,), device="cuda")
    loss = torch.nn.functional.cross_entropy(model(inputs), labels)
    optimizer.zero_grad(set_to_none=True)
    loss.backward()
    optimizer.step()
    if step % EVAL_EVERY == 0:
        model.eval()
        with torch.no_grad():
            for batch in range(EVAL_BATCHES):
                x = torch.randn(BATCH, FEATURES, device="cuda")
                out = model(x)  # @eval_site: the first frame outside torch for the output
                predictions.append(out)  # kept on the device: 2 MiB a batch
        model.train()
torch.cuda.synchronize()
print(f"torch_eval_leak: {len(predictions)} predictions kept, "
      f"{torch.cuda.memory_allocated() >> 20} MiB allocated")
