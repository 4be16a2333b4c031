// expected-no-diagnostics
// Same-file helpers release their parameter with the matching family.
#include <cuda_runtime.h>
#include <string.h>

static void release_device(float* p) { cudaFree(p); }
static void release_pinned(float* p) { cudaFreeHost(p); }

int stage_and_copy(const float* src, int n) {
  size_t bytes = (size_t)n * sizeof(float);
  float* h = nullptr;
  if (cudaMallocHost(&h, bytes) != cudaSuccess)
    return -1;
  float* d = nullptr;
  if (cudaMalloc(&d, bytes) != cudaSuccess) {
    release_pinned(h);
    return -1;
  }
  memcpy(h, src, bytes);
  cudaMemcpy(d, h, bytes, cudaMemcpyHostToDevice);
  release_device(d);
  release_pinned(h);
  return 0;
}
