// expected-no-diagnostics
#include <cuda_runtime.h>

#include "saxpy.cuh"

__global__ void saxpy(const float *x, float *y, float a, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    y[i] = a * x[i] + y[i];
}

void run_saxpy(const float *x, float *y, float a, int n) {
  saxpy<<<(n + 255) / 256, 256>>>(x, y, a, n);
  cudaDeviceSynchronize();
}
