// A comparison written constant first (`kPinned == mode`) decides about mode as `mode == kPinned`
// does: tested again before the free, it agrees with the first test, so no path allocates the
// bounce buffer without freeing it.
// expected-no-diagnostics
#include <cuda_runtime.h>
#include <string.h>

enum Staging { kPageable = 1, kPinned = 2 };

int upload(float* d_dst, const float* src, size_t n, int mode) {
  float* bounce = nullptr;
  const float* from = src;
  if (kPinned == mode) {
    if (cudaMallocHost(&bounce, n * sizeof(float)) != cudaSuccess)
      return -1;
    memcpy(bounce, src, n * sizeof(float));
    from = bounce;
  }
  cudaMemcpy(d_dst, from, n * sizeof(float), cudaMemcpyHostToDevice);
  if (kPinned == mode)
    cudaFreeHost(bounce);
  return 0;
}
