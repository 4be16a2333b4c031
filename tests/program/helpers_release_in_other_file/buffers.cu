// expected-no-diagnostics
#include <cuda_runtime.h>

#include "buffers.cuh"

__global__ void sum_kernel(const float *x, size_t n, float *out) {
  size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x;
  if (i < n)
    atomicAdd(out, x[i]);
}

void release(float *buffer) { cudaFree(buffer); }

void destroy(float **buffer) {
  cudaFree(*buffer);
  *buffer = nullptr;
}

float checksum(const float *buffer, size_t n) {
  float *d_sum;
  float h_sum = 0;
  cudaMalloc(&d_sum, sizeof(float));
  cudaMemset(d_sum, 0, sizeof(float));
  sum_kernel<<<(n + 255) / 256, 256>>>(buffer, n, d_sum);
  cudaMemcpy(&h_sum, d_sum, sizeof(float), cudaMemcpyDeviceToHost);
  cudaFree(d_sum);
  return h_sum;
}
