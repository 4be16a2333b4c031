#include <cuda_runtime.h>

#include "scale.h"

__global__ void fill(float *d, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    d[i] = KERNEL_SCALE * SCALE;
}

int run_fill(int n) {
  float *d = nullptr;
  cudaMalloc(&d, n * sizeof(float));
  fill<<<(n + 255) / 256, 256>>>(d, n);
  if (cudaGetLastError() != cudaSuccess)
    return -1; // BUG: d leaks
  cudaFree(d);
  return 0;
}
