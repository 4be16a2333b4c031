// expected-no-diagnostics
// Search for the first device with enough free memory: unsuitable devices are
// skipped with continue, and the body returns right after the allocation, so
// the allocation runs at most once.
#include <cuda_runtime.h>
#include <stdio.h>

float* alloc_on_first_fit(size_t bytes, int* chosen) {
  int ndev = 0;
  cudaGetDeviceCount(&ndev);
  for (int dev = 0; dev < ndev; ++dev) {
    size_t free_b = 0, total_b = 0;
    cudaSetDevice(dev);
    cudaMemGetInfo(&free_b, &total_b);
    if (free_b < bytes)
      continue;
    float* p = nullptr;
    cudaMalloc(&p, bytes);
    *chosen = dev;
    return p;
  }
  *chosen = -1;
  return nullptr;
}
