// std::free applied to cudaMallocManaged memory.
#include <cuda_runtime.h>
#include <cstdlib>

int managed_scratch(int n) {
  float* m = nullptr;
  if (cudaMallocManaged(&m, n * sizeof(float)) != cudaSuccess) // expected-note {{allocated here with cudaMallocManaged}}
    return -1;
  for (int i = 0; i < n; ++i) m[i] = 1.f;
  cudaDeviceSynchronize();
  std::free(m); // expected-warning {{'m' (managed memory from cudaMallocManaged) is released with free, which frees host heap memory; use cudaFree [GM002 mismatched-free]}}
  return 0;
}
