// expected-no-diagnostics
// The same unmodified flag selects the allocator and the matching release.
#include <cuda_runtime.h>
#include <stdlib.h>
#include <string.h>

int upload(float* d_dst, const float* src, int n, bool use_pinned) {
  size_t bytes = (size_t)n * sizeof(float);
  float* h = nullptr;
  if (use_pinned) {
    if (cudaMallocHost(&h, bytes) != cudaSuccess)
      return -1;
  } else {
    h = (float*)malloc(bytes);
    if (!h)
      return -1;
  }
  memcpy(h, src, bytes);
  cudaMemcpy(d_dst, h, bytes, cudaMemcpyHostToDevice);
  if (use_pinned)
    cudaFreeHost(h);
  else
    free(h);
  return 0;
}
