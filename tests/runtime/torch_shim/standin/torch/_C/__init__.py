# torch._C: the OOM observers the stand-in allocator calls
_oom_observers = []


def _cuda_attach_out_of_memory_observer(observer):
    from torch import _log

    _log("_cuda_attach_out_of_memory_observer")
    _oom_observers.append(observer)
