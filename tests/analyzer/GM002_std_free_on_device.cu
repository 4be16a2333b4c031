// std::free applied to cudaMallocManaged memory.
#include <cuda_runtime.h>
#include <cstdlib>

int managed_scratch(int n) {
  float* m = nullptr;
  if (cudaMallocManaged(&m, n * sizeof(float)) != cudaSuccess) // expected-note {{allocated here with cudaMallocManaged}}
    return -1;
  for (int i = 0; i < n; ++i) m[i] = 1.f;
  cudaDeviceSynchronize();
  std::free(m); // expected-warning {{GM002}}
  return 0;
}
