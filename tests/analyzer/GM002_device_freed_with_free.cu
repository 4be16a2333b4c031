// Device memory from cudaMalloc handed to the C library free().
#include <cuda_runtime.h>
#include <stdlib.h>

__global__ void clamp01(float* v, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) v[i] = v[i] < 0.f ? 0.f : (v[i] > 1.f ? 1.f : v[i]);
}

void clamp_on_device(float* h, int n) {
  size_t bytes = (size_t)n * sizeof(float);
  float* d = nullptr;
  cudaMalloc(&d, bytes); // expected-note {{allocated here with cudaMalloc}}
  cudaMemcpy(d, h, bytes, cudaMemcpyHostToDevice);
  clamp01<<<(n + 255) / 256, 256>>>(d, n);
  cudaMemcpy(h, d, bytes, cudaMemcpyDeviceToHost);
  free(d); // expected-warning {{'d' (device memory from cudaMalloc) is released with free, which frees host heap memory; use cudaFree [GM002 mismatched-free]}}
}
