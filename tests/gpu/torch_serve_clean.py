# The clean twin of torch_serve_leak.py (issue 41): the same serving loop with no optimizer and
# no step mark, but each request's output is copied to the host (`results.append(out.cpu())`):
# nothing of a request stays on the device, and GM150 must stay silent. tests/gpu/run.sh runs it
# under gmemrun; tests/gpu/join_torch.sh checks that no verdict names it.
import sys

try:
    import torch
except ImportError:
    print("torch_serve_clean: PyTorch is not installed here")
    sys.exit(0)

REQUESTS, BATCH, FEATURES, OUT = 300, 512, 1024, 1024  # an output: 512 x 1024 floats, 2 MiB

torch.manual_seed(0)
model = torch.nn.Sequential(
    torch.nn.Linear(FEATURES, 2048), torch.nn.ReLU(), torch.nn.Linear(2048, OUT)).cuda().eval()
results = []
with torch.no_grad():
    for request in range(REQUESTS):
        x = torch.randn(BATCH, FEATURES, device="cuda")
        out = model(x)  # @serve_site: the first frame outside torch for the output
        results.append(out.cpu())  # copied to the host: nothing kept on the device
torch.cuda.synchronize()
print(f"torch_serve_clean: {len(results)} outputs kept, "
      f"{torch.cuda.memory_allocated() >> 20} MiB allocated")
