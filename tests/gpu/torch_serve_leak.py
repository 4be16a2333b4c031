# GM150 without steps (issue 41), made to be found: a serving loop with no optimizer and no step
# mark that keeps each request's output on the device (`results.append(out)`): 300 outputs of
# 2 MiB, all still allocated at exit, allocated at the model's last layer on each request. The
# history's repetitions of that line say it: survivors from every request. tests/gpu/run.sh runs
# it under gmemrun; tests/gpu/join_torch.sh checks the verdict. Its clean twin,
# torch_serve_clean.py, keeps `out.cpu()`.
import sys

try:
    import torch
except ImportError:
    print("torch_serve_leak: PyTorch is not installed here")
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
        results.append(out)  # kept on the device: 2 MiB a request
torch.cuda.synchronize()
print(f"torch_serve_leak: {len(results)} outputs kept, "
      f"{torch.cuda.memory_allocated() >> 20} MiB allocated")
