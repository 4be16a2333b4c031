// Out-of-memory events in a version 1 telemetry file, which carried the runtime's own verdict:
// an event written before the runtime recorded freed-but-held memory is judged by that verdict
// (its figures alone cannot tell); one that has the figure is judged from the figures, even where
// its verdict says otherwise.
#include <cuda_runtime.h>
#include <stddef.h>

static int grow(float **buf, size_t bytes) {
  float *bigger = NULL;
  if (cudaMalloc((void **)&bigger, bytes) != cudaSuccess) // verdict only: fragmentation, GM103
    return -1;
  cudaFree(*buf);
  *buf = bigger;
  return 0;
}

static int stage(size_t bytes) {
  void *tmp = NULL;
  if (cudaMalloc(&tmp, bytes) != cudaSuccess) // figures and verdict: capacity, GM104
    return -1;
  cudaFree(tmp);
  return 0;
}

static int reserve(size_t bytes) {
  void *arena = NULL;
  if (cudaMalloc(&arena, bytes) != cudaSuccess) // figures say fragmentation, verdict not: GM103
    return -1;
  cudaFree(arena);
  return 0;
}

int main() {
  float *buf = NULL;
  if (grow(&buf, 1u << 30) == 0)
    stage(1u << 31);
  reserve(1u << 30);
  cudaFree(buf);
  return 0;
}
