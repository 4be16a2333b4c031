# A stand-in for torch, with only the API surface gmemlint's shim calls (runtime/python/
# gmemlint_torch.py), for tests without a GPU or torch. Like torch, importing it imports
# torch.cuda; CUDA starts only when the program calls torch.cuda.init() (or allocates).
# Each call the shim makes is appended to the file FAKE_TORCH_LOG names, to check the order.
import os

__version__ = "2.11.0+fake"


def _log(line):
    path = os.environ.get("FAKE_TORCH_LOG")
    if path:
        with open(path, "a") as f:
            f.write(line + "\n")


from . import _C  # noqa: E402
from . import cuda  # noqa: E402
from . import optim  # noqa: E402
