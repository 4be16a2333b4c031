# The clean twin of torch_eval_leak.py (issue 41): the same 30 optimizer steps and the same
# evaluation passes under torch.no_grad(), but each batch keeps only its predicted classes on the
# host (`predictions.append(out.argmax(1).cpu())`): nothing of an evaluation stays on the
# device, and GM150 must stay silent. tests/gpu/run.sh runs it under gmemrun;
# tests/gpu/join_torch.sh checks that no verdict names it.
import sys

try:
    import torch
except ImportError:
    print("torch_eval_clean: PyTorch is not installed here")
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
                out = model(x)
                predictions.append(out.argmax(1).cpu())  # on the host: 4 KiB a batch
        model.train()
torch.cuda.synchronize()
print(f"torch_eval_clean: {len(predictions)} predictions kept, "
      f"{torch.cuda.memory_allocated() >> 20} MiB allocated")
