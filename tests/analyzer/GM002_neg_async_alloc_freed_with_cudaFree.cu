// expected-no-diagnostics
// Memory from cudaMallocAsync may be released with plain cudaFree.
#include <cuda_runtime.h>

int scratch_roundtrip(cudaStream_t s, size_t bytes) {
  void* d = nullptr;
  if (cudaMallocAsync(&d, bytes, s) != cudaSuccess)
    return -1;
  cudaMemsetAsync(d, 0, bytes, s);
  cudaStreamSynchronize(s);
  cudaFree(d);
  return 0;
}
