// expected-no-diagnostics
// Returning when the allocation itself failed leaks nothing.
#include <cuda_runtime.h>

void fill_pattern(int n) {
  unsigned char* d = nullptr;
  if (cudaMalloc(&d, n) != cudaSuccess)
    return;
  cudaMemset(d, 0xAB, n);
  cudaDeviceSynchronize();
  cudaFree(d);
}
