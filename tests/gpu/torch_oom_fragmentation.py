# GM152 (torch-oom), cause fragmentation, made to happen: an out-of-memory error for a request
# that the caching allocator's free bytes could hold in total but no free block of it can.
# How (the caching allocator's rules): a tensor over 1 MiB comes from the large pool; a request
# that no cached block fits gets its own segment (cudaMalloc of the size rounded to 2 MiB from
# 10 MiB up); a cached free block larger than a request is split, the rest stays free in the
# same segment; at an OOM PyTorch first frees the cached segments that hold no live block, so
# free space that survives the flush must lie in segments that still hold a live block.
# 1. One 4 GiB tensor, freed: a cached 4 GiB segment, one free block.
# 2. 24 pairs [big_i, keep_i] carved from it in turn (big_i 96/128/160/192 MiB, keep_i 2 MiB),
#    the rest taken by a live tail: the segment is now all live blocks.
# 3. Every big_i freed: 24 holes, 3456 MiB free, the largest 192 MiB, each between live blocks.
# 4. The device filled by one tensor until 512 MiB are left, so a new segment cannot be had.
# 5. A 1 GiB request: larger than any hole, smaller than the holes' total, larger than what the
#    device has left: torch.OutOfMemoryError.
import sys

try:
    import torch
except ImportError:
    print("torch_oom_fragmentation: PyTorch is not installed here")
    sys.exit(0)

MiB = 1 << 20
SEGMENT = 4096 * MiB
KEEP = 2 * MiB  # over 1 MiB: the large pool, the same segment as the big blocks
BIG_SIZES = [(96 + 32 * (i % 4)) * MiB for i in range(24)]
LEFT_ON_DEVICE = 512 * MiB
REQUEST = 1024 * MiB


def empty(size):
    return torch.empty(size, dtype=torch.uint8, device="cuda")


def segments():
    try:  # without the history's traces where torch allows it (2.11+): fast
        return torch.cuda.memory_snapshot(include_traces=False)
    except TypeError:
        return torch.cuda.memory_snapshot()


carved = empty(SEGMENT)
del carved  # cached: one free 4 GiB block in its own segment
bigs, keeps = [], []
for size in BIG_SIZES:
    bigs.append(empty(size))  # split from the cached block: best fit, the only one large enough
    keeps.append(empty(KEEP))
tail = empty(SEGMENT - sum(BIG_SIZES) - KEEP * len(BIG_SIZES))  # the rest of the segment, live
segments_before = len(segments())
del bigs  # holes between live blocks: they merge with no neighbour
free_on_device, total = torch.cuda.mem_get_info()
filler = empty((free_on_device - LEFT_ON_DEVICE) // (2 * MiB) * (2 * MiB))

blocks = [b for s in segments() if s["segment_type"] == "large" for b in s["blocks"]]
free_blocks = [b["size"] for b in blocks if b["state"] == "inactive"]  # the large pool's
print(f"torch_oom_fragmentation: expected free in cache {sum(BIG_SIZES) >> 20} MiB in "
      f"{len(BIG_SIZES)} holes, largest {max(BIG_SIZES) >> 20} MiB; measured "
      f"{sum(free_blocks) >> 20} MiB in {len(free_blocks)} free blocks, largest "
      f"{max(free_blocks, default=0) >> 20} MiB, inactive split "
      f"{torch.cuda.memory_stats()['inactive_split_bytes.all.current'] >> 20} MiB, "
      f"device free {torch.cuda.mem_get_info()[0] >> 20} MiB of {total >> 20} MiB, "
      f"{segments_before} segments before the fill")
try:
    torch.empty(REQUEST, dtype=torch.uint8, device="cuda")  # @fragmentation_oom
    print("torch_oom_fragmentation: FAILED: the 1 GiB request was served")
    sys.exit(1)
except torch.OutOfMemoryError as e:
    print(f"torch_oom_fragmentation: OOM as designed: {str(e).splitlines()[0][:160]}")
del filler, keeps, tail
