// expected-no-diagnostics
// Allocations returned to the caller are not leaks (malloc.c: f3/f5-style).
#include <cuda_runtime.h>
#include <stdlib.h>
#include <string.h>

float* make_host_copy(const float* d_src, int n) {
  float* h = (float*)malloc(n * sizeof(float));
  if (!h)
    return NULL;
  cudaMemcpy(h, d_src, n * sizeof(float), cudaMemcpyDeviceToHost);
  return h;
}

int* make_device_zeros(int n) {
  int* d = nullptr;
  if (cudaMalloc(&d, n * sizeof(int)) != cudaSuccess)
    return nullptr;
  cudaMemset(d, 0, n * sizeof(int));
  return d;
}
