# torch.cuda.memory: history recording, metadata tags and snapshots of the stand-in allocator.
# Each allocation gets its own segment (size rounded up to 2 MiB), kept cached when freed.
import os

from torch import _log

TOTAL_BYTES = 80 * 1024**3
SEGMENT = 2 * 1024 * 1024
BASE = 0x7F0000000000


# a Python stack as torch records it, innermost first: the framework's frame, the program's
# line, and its callers (the shim's JSON keeps frames up to the program's line)
FRAMES = [{"name": "forward", "line": 125,
           "filename": "/opt/venv/lib/python3.12/site-packages/torch/nn/modules/linear.py"},
          {"name": "<module>", "filename": "prog.py", "line": 1},
          {"name": "_run_code", "filename": "<frozen runpy>", "line": 88}]

class _Allocator:
    def __init__(self):
        self.segments = []  # [address, total_size, block_size or 0 when free]
        self.next_address = BASE
        self.traces = []
        self.recording = False
        self.max_entries = 0
        self.metadata = ""
        self.clock = 1700000000000000
        self.num_ooms = 0

    def trace(self, action, address, size):
        if not self.recording:
            return
        self.clock += 1
        entry = {"action": action, "size": size, "stream": 0, "time_us": self.clock,
                 "frames": FRAMES,
                 "compile_context": "N/A", "user_metadata": self.metadata}
        if action == "oom":
            entry["device_free"] = TOTAL_BYTES // 2
        else:
            entry["addr"] = address
        self.traces.append(entry)
        del self.traces[: max(0, len(self.traces) - self.max_entries)]

    def alloc(self, size):
        for segment in self.segments:
            if segment[2] == 0 and segment[1] >= size:
                segment[2] = size
                self.trace("alloc", segment[0], size)
                return segment[0]
        total = -(-size // SEGMENT) * SEGMENT
        address = self.next_address
        self.next_address += total
        self.segments.append([address, total, size])
        self.trace("segment_alloc", address, total)
        self.trace("alloc", address, size)
        return address

    def free(self, address):
        for segment in self.segments:
            if segment[0] == address:
                self.trace("free_requested", address, segment[2])
                self.trace("free_completed", address, segment[2])
                segment[2] = 0

    def oom(self, size):
        from torch._C import _oom_observers

        self.num_ooms += 1
        self.trace("oom", 0, size)
        for observer in list(_oom_observers):
            observer(0, size, TOTAL_BYTES, TOTAL_BYTES // 2)

    def stats(self):
        allocated = sum(s[2] for s in self.segments)
        reserved = sum(s[1] for s in self.segments)
        return {"allocated_bytes.all.current": allocated, "reserved_bytes.all.current": reserved,
                "active_bytes.all.current": allocated, "requested_bytes.all.current": allocated,
                "inactive_split_bytes.all.current": 0, "num_alloc_retries": 0,
                "num_ooms": self.num_ooms}

    def segment_list(self):
        out = []
        for address, total, used in self.segments:
            blocks = [{"address": address, "size": used, "requested_size": used,
                       "state": "active_allocated", "frames": []}] if used else []
            if total > used:
                blocks.append({"address": address + used, "size": total - used,
                               "requested_size": 0, "state": "inactive", "frames": []})
            out.append({"device": 0, "address": address, "total_size": total,
                        "allocated_size": used, "active_size": used, "requested_size": used,
                        "stream": 0, "segment_type": "large", "segment_pool_id": (0, 0),
                        "is_expandable": False, "frames": [], "blocks": blocks})
        return out


_allocator = _Allocator()


def memory_stats(device=None):
    return _allocator.stats()


def memory_stats_as_nested_dict(device=None):
    """As torch's: memory_stats' keys before it flattens them ("allocated_bytes.all.current" is
    ["allocated_bytes"]["all"]["current"])."""
    nested = {}
    for key, value in _allocator.stats().items():
        *path, last = key.split(".")
        level = nested
        for part in path:
            level = level.setdefault(part, {})
        level[last] = value
    return nested


def _record_memory_history(enabled="all", context="all", stacks="all", max_entries=1):
    _log(f"_record_memory_history enabled={enabled} context={context} stacks={stacks} "
         f"max_entries={max_entries}")
    _allocator.recording = enabled is not None
    _allocator.max_entries = max_entries


def _set_memory_metadata(text):
    _log(f"_set_memory_metadata {text}")
    _allocator.metadata = text


def memory_snapshot(mempool_id=None, include_traces=True):
    _log(f"memory_snapshot include_traces={include_traces}")
    return _allocator.segment_list()


def _snapshot(device=None):
    _log("_snapshot")
    if os.environ.get("FAKE_TORCH_SNAPSHOT_RAISES"):
        raise RuntimeError("the stand-in's snapshot failed")
    return {"segments": _allocator.segment_list(), "device_traces": [list(_allocator.traces)],
            "allocator_settings": {"PYTORCH_CUDA_ALLOC_CONF": "", "max_split_size": -1,
                                   "expandable_segments": False},
            "external_annotations": [], "note": float("nan")}
