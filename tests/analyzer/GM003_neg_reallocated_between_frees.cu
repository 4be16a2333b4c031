// expected-no-diagnostics
// The pointer is freed, reallocated through cudaMalloc, and freed again.
#include <cuda_runtime.h>

__global__ void fill(float* v, int n, float x) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) v[i] = x;
}

int two_phases(int n1, int n2) {
  float* d = nullptr;
  if (cudaMalloc(&d, n1 * sizeof(float)) != cudaSuccess)
    return -1;
  fill<<<(n1 + 255) / 256, 256>>>(d, n1, 1.f);
  cudaFree(d);
  if (cudaMalloc(&d, n2 * sizeof(float)) != cudaSuccess)
    return -1;
  fill<<<(n2 + 255) / 256, 256>>>(d, n2, 2.f);
  cudaFree(d);
  return 0;
}
