# torch.cuda: lazy initialisation and a small caching allocator whose records look like torch's
# (segments with blocks, device traces, memory_stats keys); deterministic sizes and addresses.
import os

from torch import _log

from . import memory  # noqa: F401
from .memory import _allocator, memory_stats, memory_stats_as_nested_dict  # noqa: F401

_initialized = False
_queued_calls = []


class OutOfMemoryError(RuntimeError):
    pass


class _Properties:
    def __init__(self, name, total_memory):
        self.name = name
        self.total_memory = total_memory


def _lazy_call(callable):
    _log("_lazy_call")
    if _initialized:
        callable()
    else:
        _queued_calls.append(callable)


def is_initialized():
    return _initialized


def init():
    global _initialized
    if _initialized:
        return
    _log("cuda init")
    _initialized = True
    driver = os.environ.get("FAKE_TORCH_DRIVER")
    if driver:  # as torch does: a CUDA call, in which the driver loads CUDA_INJECTION64_PATH
        import ctypes

        pointer = ctypes.c_void_p()
        ctypes.CDLL(driver).cudaMalloc(ctypes.byref(pointer), ctypes.c_size_t(256))
    for queued in _queued_calls:
        queued()


def get_allocator_backend():
    return os.environ.get("FAKE_TORCH_BACKEND", "native")


def device_count():
    return 1


def current_device():
    return 0


def get_device_properties(index):
    return _Properties("Fake GPU", memory.TOTAL_BYTES)


def alloc(size):
    init()
    return _allocator.alloc(size)


def free(address):
    _allocator.free(address)


def oom(size):
    """The allocator's failure: observers first (device, request, limit, free), then raise."""
    init()
    _allocator.oom(size)
    raise OutOfMemoryError(f"CUDA out of memory. Tried to allocate {size} bytes.")
