// expected-no-diagnostics
// cudaMalloc writes straight into the caller's pointer (T** out).
#include <cuda_runtime.h>

cudaError_t alloc_workspace(void** workspace, size_t bytes) {
  cudaError_t e = cudaMalloc(workspace, bytes);
  if (e != cudaSuccess)
    return e;
  return cudaMemset(*workspace, 0, bytes);
}

cudaError_t alloc_pinned(float** out, int n) {
  return cudaMallocHost(out, n * sizeof(float));
}
