# GM151 (torch-cache-growth), made to be found: reserved memory grows at every step while
# allocated memory at the end of each step stays flat. The batches' sequence length grows each
# step (as variable-length batches do), so every activation is larger than any block the cache
# holds: each step gets new segments and the old ones stay cached, unused. Not a leak: nothing
# survives the step. The setting that helps: expandable_segments:True.
# Per step k (0..11): input, Linear output and ReLU output (and their gradients) of
# 4 x 1024(k+1) x 1024 floats = 16(k+1) MiB each.
import sys

try:
    import torch
except ImportError:
    print("torch_cache_growth: PyTorch is not installed here")
    sys.exit(0)

BATCH, FEATURES, STEPS = 4, 1024, 12
torch.manual_seed(0)
model = torch.nn.Sequential(torch.nn.Linear(FEATURES, FEATURES), torch.nn.ReLU()).cuda()
optimizer = torch.optim.SGD(model.parameters(), lr=1e-3)  # its step hook marks the steps
reserved = []
for step in range(STEPS):
    length = 1024 * (step + 1)
    # the batch, made here, dies with the graph in backward(): nothing of it outlives the step
    loss = model(torch.randn(BATCH, length, FEATURES, device="cuda")).mean()  # @cache_growth_site
    optimizer.zero_grad(set_to_none=True)
    loss.backward()
    optimizer.step()
    reserved.append(torch.cuda.memory_reserved() >> 20)
print(f"torch_cache_growth: allocated {torch.cuda.memory_allocated() >> 20} MiB at the end, "
      f"reserved by step (MiB): {reserved}")
