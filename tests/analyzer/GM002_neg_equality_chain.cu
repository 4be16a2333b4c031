// expected-no-diagnostics
// `type == 0` / `type == 1` / `type == 2`: equalities with different constants exclude each
// other, so the free chosen by the same tests matches the allocation.
#include <cuda_runtime.h>

int upload(int type, const float* host, size_t n) {
  float* p = nullptr;
  if (type == 0)
    cudaMalloc(&p, n * sizeof(float));
  else if (type == 1)
    cudaMallocManaged(&p, n * sizeof(float));
  else if (type == 2)
    cudaMallocHost(&p, n * sizeof(float));
  else
    return -1;
  cudaMemcpy(p, host, n * sizeof(float), cudaMemcpyDefault);
  if (type == 2)
    cudaFreeHost(p);
  else
    cudaFree(p);
  return 0;
}
