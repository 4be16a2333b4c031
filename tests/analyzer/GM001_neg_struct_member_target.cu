// expected-no-diagnostics
// cudaMalloc writes directly into fields of a local struct, then frees them.
#include <cuda_runtime.h>

struct Pair {
  float* x;
  float* y;
};

int pair_copy(int n) {
  Pair p = {nullptr, nullptr};
  if (cudaMalloc(&p.x, n * sizeof(float)) != cudaSuccess)
    return -1;
  if (cudaMalloc(&p.y, n * sizeof(float)) != cudaSuccess) {
    cudaFree(p.x);
    return -1;
  }
  cudaMemcpy(p.y, p.x, n * sizeof(float), cudaMemcpyDeviceToDevice);
  cudaFree(p.y);
  cudaFree(p.x);
  return 0;
}
